import json
import subprocess
import sys
from pathlib import Path

import pytest

from device.commands.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples" / "matches").glob("*.jsonl"))


def test_there_is_an_example_match_for_every_rule_set():
    from rules import PRESETS
    assert {p.stem for p in EXAMPLES} == set(PRESETS)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_example_match_replays_to_its_end(path, capsys):
    assert main(["replay", str(path), "--json"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    state = json.loads(out[-1])
    assert state["finished"] is True
    assert state["winner"] in (0, 1, None)
    assert state["rules"] == path.stem
    assert state["rounds"] and all("totals" in r for r in state["rounds"])
    if path.stem == "crokidarts":
        assert max(state["sets"]) == state["options"]["sets"]
        assert "legs" in state


def test_bad_lines_are_reported_by_number_and_skipped(tmp_path, capsys):
    log = tmp_path / "match.jsonl"
    log.write_text("\n".join([
        '{"type": "match", "rules": "casual-100", "players": ["Ann", "Bob"]}',
        '{"type": "shot", "seat": 0}',
        '{"type": "shot", "seat": 0}',
        'not json',
        '{"type": "shot", "seat": 1}',
        '{"type": "teleport"}',
        '',
        '{"type": "twenty"}',
    ]) + "\n")
    assert main(["replay", str(log), "--json"]) == 1
    captured = capsys.readouterr()
    err = captured.err.splitlines()
    assert len(err) == 3
    assert err[0].startswith(f"{log}:3: it is Bob (seat 1)'s shot")
    assert err[1].startswith(f"{log}:4: not valid JSON")
    assert err[2].startswith(f"{log}:6: unknown event type 'teleport'")
    state = json.loads(captured.out)
    assert state["rounds"][0]["shots"] == 2
    assert state["rounds"][0]["twenties"] == [0, 1]


def test_a_log_must_start_with_a_match(tmp_path, capsys):
    log = tmp_path / "x.jsonl"
    log.write_text('{"type": "shot", "seat": 0}\n')
    assert main(["replay", str(log)]) == 2
    err = capsys.readouterr().err
    assert "must begin with a 'match' event" in err
    assert "holds no match" in err


def test_a_missing_file_is_named(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "nope.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_the_scoreboard_is_printed_after_each_round(capsys):
    path = next(p for p in EXAMPLES if p.stem == "tournament-singles")
    assert main(["replay", str(path), "--scoreboard"]) == 0
    out = capsys.readouterr().out
    for n in range(1, 5):
        assert f"round {n}: " in out
    assert "match over" in out


def test_the_console_script_reads_standard_input():
    path = next(p for p in EXAMPLES if p.stem == "casual-100")
    done = subprocess.run([sys.executable, "-m", "device.commands.cli", "replay", "-", "--json"],
                          input=path.read_text(), capture_output=True, text=True, check=True)
    assert json.loads(done.stdout)["finished"] is True
