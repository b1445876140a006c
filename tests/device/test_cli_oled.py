from pathlib import Path

from PIL import Image

from device.commands.cli import main
from device.screen.draw import render
from device.screen.view import build
from rules.replay import replay_all

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "matches" / "crokidarts.jsonl"


def test_oled_draws_the_final_frame_as_text_and_png(tmp_path, capsys):
    out = tmp_path / "frame.png"
    assert main(["oled", str(EXAMPLE), "--png", str(out), "--zoom", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 34 and len(lines[1]) == 130
    match, _ = replay_all(EXAMPLE.read_text().splitlines())
    want = render(build(match))
    with Image.open(out) as got:
        assert got.size == (256, 128)
        small = got.convert("L").resize((128, 64), Image.Resampling.NEAREST)
    assert small.tobytes() == want.convert("L").tobytes()


def test_oled_for_a_wide_panel(capsys):
    assert main(["oled", str(EXAMPLE), "--driver", "ssd1322"]) == 0
    assert len(capsys.readouterr().out.splitlines()[1]) == 258


def test_oled_reports_a_missing_file(tmp_path, capsys):
    assert main(["oled", str(tmp_path / "nope.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err
