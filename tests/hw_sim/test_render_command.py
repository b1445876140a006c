import json

import cv2
import pytest

from hw_sim.__main__ import main
from rules.board import STANDARD


def run(tmp_path, *extra):
    return main(["render", "--out", str(tmp_path), "--seed", "5", "--width", "240",
                 "--height", "180", *extra])


def test_render_writes_frames_with_truth_and_an_empty_frame_per_rig(tmp_path, capsys):
    assert run(tmp_path, "--frames", "3", "--per-rig", "2") == 0
    assert "3 round frames, 2 empty-board frames" in capsys.readouterr().out
    index = json.loads((tmp_path / "index.json").read_text())
    assert [f["image"] for f in index] == ["frame0000.jpg", "frame0001.jpg", "frame0002.jpg"]
    assert [f["rig"] for f in index] == [0, 0, 1]
    names = {p.name for p in tmp_path.iterdir()}
    assert {"rig00_empty.jpg", "rig00_empty.json", "rig01_empty.jpg", "rig01_empty.json"} <= names
    for entry in index:
        image = cv2.imread(str(tmp_path / entry["image"]))
        assert image.shape == (180, 240, 3)
        t = json.loads((tmp_path / entry["truth"]).read_text())
        assert t["kind"] == "round" and t["empty"] == entry["empty"]
        assert (t["camera"]["width"], t["camera"]["height"]) == (240, 180)
        assert t["board"]["disc_diameter"] == STANDARD.disc_diameter
        assert len(t["discs"]) == entry["discs"]
        for d in t["discs"]:
            assert set(d) >= {"x_mm", "y_mm", "team", "zone", "pixel", "radius_px"}
            assert d["zone"] == (0 if d["in_ditch"] else STANDARD.zone_at(d["x_mm"], d["y_mm"]))
        empty = json.loads((tmp_path / entry["empty_truth"]).read_text())
        assert empty["kind"] == "empty" and empty["discs"] == []
        assert empty["camera"] == t["camera"] and empty["look"] == t["look"]
    first = json.loads((tmp_path / "frame0000.json").read_text())
    third = json.loads((tmp_path / "frame0002.json").read_text())
    assert first["camera"] != third["camera"]  # a new rig


def test_render_is_deterministic_by_seed(tmp_path):
    assert run(tmp_path / "a", "--frames", "1") == 0
    assert run(tmp_path / "b", "--frames", "1") == 0
    for name in ("frame0000.jpg", "frame0000.json", "rig00_empty.jpg"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


def test_render_needs_both_width_and_height(tmp_path, capsys):
    assert main(["render", "--out", str(tmp_path), "--width", "240"]) == 2
    assert "both --width and --height" in capsys.readouterr().err
    assert main(["render", "--out", str(tmp_path), "--width", "8", "--height", "8"]) == 2
    assert "at least 16x16" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["render", "--out", str(tmp_path), "--frames", "-1"])


def test_render_says_when_it_cannot_write(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert main(["render", "--out", str(blocker / "frames"), "--width", "64", "--height", "48",
                 "--frames", "1"]) == 1
    assert "cannot write the frames" in capsys.readouterr().err


def test_boards_come_from_simulated_play_or_from_layouts(tmp_path):
    import json

    from hw_sim.frames import end_of_round_states
    from hw_sim.scenario import end_of_round_boards

    played = end_of_round_states("play", 3, 7)
    assert played == [b.state for b in end_of_round_boards(3, 7)]
    laid = end_of_round_states("layouts", 3, 7)
    assert laid != played and len(laid) == 3
    assert main(["render", "--out", str(tmp_path), "--seed", "7", "--width", "160", "--height",
                 "120", "--frames", "2", "--boards", "play"]) == 0
    truth = json.loads((tmp_path / "frame0001.json").read_text())
    drawn = sorted((d["x_mm"], d["y_mm"], d["team"]) for d in truth["discs"])
    expected = sorted((d.x_mm, d.y_mm, d.team) for d in played[1].discs)
    assert len(drawn) == len(expected) > 0
    for a, b in zip(drawn, expected, strict=True):
        assert a[0] == pytest.approx(b[0], abs=0.01) and a[1] == pytest.approx(b[1], abs=0.01)
        assert a[2] == b[2]


def test_render_views_need_the_varied_looks(tmp_path, capsys):
    assert main(["render", "--out", str(tmp_path), "--views", "video"]) == 2
    assert "--looks varied" in capsys.readouterr().err
    assert main(["render", "--out", str(tmp_path), "--looks", "varied", "--views", "drone",
                 "--frames", "1", "--width", "64", "--height", "48"]) == 2
    assert "views are some of pi, phone, video" in capsys.readouterr().err
    assert not (tmp_path / "index.json").exists()
