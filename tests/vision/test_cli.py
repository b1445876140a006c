"""crokiscore score and calibrate, as a user runs them."""

import json
import re

import cv2
import pytest

from device.commands.cli import main


@pytest.fixture(scope="module")
def files(rigs, tmp_path_factory):
    folder = tmp_path_factory.mktemp("pictures")
    rig = rigs["play"][0]
    cv2.imwrite(str(folder / "empty.png"), rig.empty)
    names = []
    for i, (frame, _) in enumerate(rig.frames[:2]):
        cv2.imwrite(str(folder / f"round{i}.png"), frame)
        names.append(str(folder / f"round{i}.png"))
    return folder, names, rig


def test_calibrate_writes_the_calibration_and_its_picture(files, capsys):
    folder, _, _ = files
    assert main(["calibrate", str(folder / "empty.png"), "--out", str(folder / "cal.json"),
                 "--seat0", "left"]) == 0
    out = capsys.readouterr().out
    assert "board found" in out and "seat 0 at the frame's left" in out
    # the radii it took the lines at, for the installer to check against the board
    assert re.search(r"15 line 101\.6 mm, 10 line 203\.2 mm, outer line 304\.8 mm", out)
    hole = json.loads((folder / "cal.json").read_text())["board"]["hole_diameter"]
    assert f"20 hole {hole:.1f} mm across" in out
    assert (folder / "cal-empty.png").is_file()
    assert json.loads((folder / "cal.json").read_text())["seat0"] == "left"
    assert cv2.imread(str(folder / "cal.png")).shape == cv2.imread(str(folder / "empty.png")).shape


def test_calibrate_says_when_it_guessed_the_lens(files, capsys, tmp_path):
    folder, _, _ = files
    # the Pi camera's own mode: its lens is known, nothing to say
    assert main(["calibrate", str(folder / "empty.png"), "--out", str(tmp_path / "a.json")]) == 0
    assert "lens was guessed" not in capsys.readouterr().out
    # the same board in a picture of no Pi camera's size: the lens is a guess, and the
    # installer is told what it sets and how to give it
    other = tmp_path / "other.png"
    cv2.imwrite(str(other), cv2.resize(cv2.imread(str(folder / "empty.png")), (1600, 1200),
                                       interpolation=cv2.INTER_AREA))
    assert main(["calibrate", str(other), "--out", str(tmp_path / "b.json")]) == 0
    warned = re.search(r"warning: the lens was guessed .*focal length (\d+) px, the camera "
                       r"([\d.]+) m above.* outer line lie ([\d.]+) mm further out.*--focal-px",
                       capsys.readouterr().out)
    assert warned is not None
    assert 0.5 < float(warned.group(2)) < 2.0 and 0.5 < float(warned.group(3)) < 3.0
    # told the lens, it says nothing more
    assert main(["calibrate", str(other), "--out", str(tmp_path / "c.json"), "--focal-px",
                 warned.group(1)]) == 0
    assert "lens was guessed" not in capsys.readouterr().out


def test_score_prints_one_json_line_per_image(files, capsys, tmp_path):
    folder, names, _ = files
    main(["calibrate", str(folder / "empty.png"), "--out", str(tmp_path / "cal.json")])
    capsys.readouterr()
    code = main(["score", *names, "--calibration", str(tmp_path / "cal.json"), "--json",
                 "--annotate", str(tmp_path / "checked")])
    assert code == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(names)
    for line, name in zip(lines, names, strict=True):
        got = json.loads(line)
        assert got["image"] == name
        assert {"image", "discs", "totals", "confidence", "board"} <= set(got) <= {
            "image", "discs", "totals", "confidence", "check", "notes", "board"}
        assert got["board"]["outer_radius"] > got["board"]["ten_radius"] > 0
        assert 0.0 <= got["confidence"] <= 1.0
        for d in got["discs"]:
            assert set(d) == {"x_mm", "y_mm", "team", "zone", "uncertain"}
        assert got["totals"] == [sum(d["zone"] for d in got["discs"] if d["team"] == k)
                                 for k in (0, 1)]
        assert (tmp_path / "checked" / (name.rsplit("/", 1)[1][:-4] + ".png")).exists()


def test_score_without_json_prints_a_summary(files, capsys):
    _, names, _ = files
    assert main(["score", names[0]]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{names[0]}: team 0 ") and "zone" in out


def test_score_names_an_unreadable_file_and_goes_on(files, capsys, tmp_path):
    _, names, _ = files
    bad = tmp_path / "broken.jpg"
    bad.write_bytes(b"\xff\xd8 not really")
    code = main(["score", str(bad), names[0], "--json"])
    assert code == 2
    captured = capsys.readouterr()
    assert "broken.jpg: not a picture" in captured.err
    lines = [json.loads(line) for line in captured.out.splitlines()]
    assert lines[0]["image"] == str(bad) and "error" in lines[0]
    assert lines[1]["image"] == names[0] and "discs" in lines[1]


def test_score_says_when_there_is_no_board(capsys, tmp_path):
    import numpy as np

    dark = tmp_path / "dark.png"
    cv2.imwrite(str(dark), np.zeros((480, 640, 3), np.uint8))
    assert main(["score", str(dark)]) == 2
    assert "too dark" in capsys.readouterr().err


def test_score_takes_the_config_s_colours(files, capsys, tmp_path):
    _, names, _ = files
    config = tmp_path / "config.toml"
    config.write_text('backend = "sim"\n[vision]\nteam_colours = [[250, 250, 250], [0, 0, 0]]\n')
    assert main(["score", names[0], "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert main(["score", names[0], "--json", "--config", str(config)]) == 0
    named = json.loads(capsys.readouterr().out)
    # team 0 named white: the sides swap
    assert [d["team"] for d in named["discs"]] == [1 - d["team"] for d in plain["discs"]]


def test_a_broken_config_is_refused(files, capsys, tmp_path):
    _, names, _ = files
    config = tmp_path / "config.toml"
    config.write_text("[vision]\nteam_colours = 5\n")
    assert main(["score", names[0], "--config", str(config)]) == 2
    assert "team_colours" in capsys.readouterr().err


def test_calibrate_says_when_the_picture_is_not_a_board(capsys, tmp_path):
    import numpy as np

    flat = tmp_path / "flat.png"
    cv2.imwrite(str(flat), np.full((480, 640, 3), 128, np.uint8))
    assert main(["calibrate", str(flat), "--out", str(tmp_path / "cal.json")]) == 2
    assert "crokiscore calibrate:" in capsys.readouterr().err
    assert not (tmp_path / "cal.json").exists()


def _board_config(tmp_path, **radii) -> str:
    lines = "".join(f"{k} = {v}\n" for k, v in radii.items())
    path = tmp_path / "box.toml"
    path.write_text(f'backend = "sim"\n\n[board]\n{lines}')
    return str(path)


def test_calibrate_takes_the_config_s_stated_board(files, capsys, tmp_path):
    folder, _, _ = files
    config = _board_config(tmp_path, fifteen_radius=100.0)
    assert main(["calibrate", str(folder / "empty.png"), "--out", str(tmp_path / "cal.json"),
                 "--config", config]) == 0
    out = capsys.readouterr().out
    assert "as stated in the config" in out and "15 line 100.0 mm" in out
    # stated 1.6 mm off the painted 15 line: taken, but the installer is told
    assert "the stated board's lines lie on the picture's over only" in out
    stated = json.loads((tmp_path / "cal.json").read_text())
    assert stated["board_from"] == "stated"


def test_calibrate_says_when_the_hole_says_a_smaller_board(files, capsys, tmp_path):
    """An empty board shows its lines' proportions, not its size: a 20-inch board is taken at
    the tournament's, and its discs would read smaller than they are (seen layouts-384 66: a
    10 touching the 15 line read 15, nothing flagged). Its 20 hole, measured at that scale,
    is wider than any board's, and the installer is told to state the board; a tournament
    board's hole, or a board stated, says nothing."""
    from tests.vision import scenes

    folder, _, _ = files
    assert main(["calibrate", str(folder / "empty.png"), "--out", str(tmp_path / "a.json")]) == 0
    assert "smaller than a tournament board" not in capsys.readouterr().out
    empty, seat0 = scenes.bench_empty("layouts", 12, 28)  # (tuning: a 20.6-inch board)
    small = tmp_path / "small.png"
    cv2.imwrite(str(small), empty)
    assert main(["calibrate", str(small), "--out", str(tmp_path / "b.json"),
                 "--seat0", seat0]) == 0
    warned = re.search(r"warning: the 20 hole measures ([\d.]+) mm across .* smaller than a "
                       r"tournament board.*state it in the config's \[board\]",
                       capsys.readouterr().out)
    assert warned is not None and float(warned.group(1)) >= 41.0
    _, facts, _ = scenes.bench_frame("layouts", 12, 28)
    config = _board_config(tmp_path, **{k: facts["board"][k] for k in (
        "hole_diameter", "fifteen_radius", "ten_radius", "outer_radius", "surface_radius")})
    assert main(["calibrate", str(small), "--out", str(tmp_path / "c.json"), "--seat0", seat0,
                 "--config", config]) == 0
    assert "smaller than a tournament board" not in capsys.readouterr().out


def test_calibrate_names_a_broken_config(files, capsys, tmp_path):
    folder, _, _ = files
    config = _board_config(tmp_path, fifteen_radius="'wide'")
    assert main(["calibrate", str(folder / "empty.png"), "--out", str(tmp_path / "cal.json"),
                 "--config", config]) == 2
    err = capsys.readouterr().err
    assert "crokiscore calibrate:" in err and "fifteen_radius" in err
    assert not (tmp_path / "cal.json").exists()


def test_score_reads_by_the_config_s_stated_board(files, capsys, tmp_path):
    _, names, _ = files
    config = _board_config(tmp_path, fifteen_radius=100.0)
    assert main(["score", names[0], "--json", "--config", config]) in (0, 1)
    line = json.loads(capsys.readouterr().out.splitlines()[0])
    assert line["board"]["fifteen_radius"] == 100.0
