"""The commands that read a log never end in a traceback, whatever the file holds."""

import contextlib
import io
import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from device.commands.cli import main
from device.commands.feed import FeedError, read_feed
from hw_sim.scripted import play

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "matches" / "casual-100.jsonl"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(argv))
    return status, out.getvalue(), err.getvalue()


@pytest.fixture
def store(tmp_path):
    path = tmp_path / "events.db"
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("CREATE TABLE events (id INTEGER PRIMARY KEY, body TEXT)")
        db.executemany("INSERT INTO events (body) VALUES (?)",
                       [(line,) for line in EXAMPLE.read_text().splitlines()])
        db.commit()
    return path


def test_the_event_store_is_named_with_the_command_that_reads_it(store):
    for command in ("replay", "oled"):
        status, out, err = run(command, str(store))
        assert status == 2 and not out
        assert err.count("\n") == 1, "one message, not a line per page of the database"
        assert "is the box's event store" in err
        assert f"crokiscore history --store {store}" in err
    with pytest.raises(FeedError, match=r"event store.*crokiscore history --store"):
        read_feed(store)


def test_a_line_that_is_not_utf8_is_reported_and_skipped(tmp_path):
    log = tmp_path / "match.jsonl"
    lines = EXAMPLE.read_bytes().splitlines()
    lines.insert(3, b'{"type": "twenty", "note": "\xff\xfe"}')
    log.write_bytes(b"\n".join(lines) + b"\n")
    status, out, err = run("replay", str(log), "--json")
    assert status == 1
    assert err == f"{log}:4: not UTF-8 text (byte 0xff at column 29) (line skipped)\n"
    assert json.loads(out)["finished"] is True
    with pytest.raises(FeedError, match="line 4: not UTF-8 text"):
        read_feed(log)


@pytest.mark.parametrize("zoom", ["0", "-3", "2000"])
def test_oled_refuses_a_zoom_out_of_range(tmp_path, zoom):
    status, out, err = run("oled", str(EXAMPLE), "--png", str(tmp_path / "f.png"), "--zoom", zoom)
    assert status == 2 and not out
    assert f"--zoom is how many times to enlarge the PNG, a whole number from 1 to 32, not {zoom}" \
        in err
    assert not (tmp_path / "f.png").exists()


def test_oled_refuses_a_png_it_cannot_write(tmp_path):
    status, _, err = run("oled", str(EXAMPLE), "--png", str(tmp_path / "no" / "f.png"))
    assert status == 2 and f"there is no folder {tmp_path / 'no'}" in err
    status, _, err = run("oled", str(EXAMPLE), "--png", str(tmp_path / "f.jpeg"))
    assert status == 2 and "give a file name ending in .png" in err
    assert run("oled", str(EXAMPLE), "--png", str(tmp_path / "F.PNG"), "--zoom", "32")[0] == 0
    assert (tmp_path / "F.PNG").stat().st_size > 0


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                max_size=3),
    max_leaves=8)
event_like = st.fixed_dictionaries(
    {"type": st.sampled_from(["match", "shot", "twenty", "foul", "board", "confirm", "correct",
                              "undo", "starter"])},
    optional={"seat": st.integers(-1, 4), "team": st.integers(0, 2), "value": st.integers(0, 99),
              "discs": st.lists(st.fixed_dictionaries({"team": st.integers(0, 1),
                                                       "zone": st.sampled_from([0, 5, 15])}),
                                max_size=3),
              "rules": st.sampled_from(["casual-100", "crokidarts"]),
              "players": st.just(["Ann", "Bob"]), "totals": st.just([20, 5])})
bad_lines = st.one_of(st.binary(max_size=40), json_values.map(lambda v: json.dumps(v).encode()),
                      event_like.map(lambda e: json.dumps(e).encode()),
                      st.just(b"[" * 5000), st.just(b"9" * 5000))


@settings(max_examples=25)
@given(st.integers(0, 2**16), st.sampled_from(["casual-100", "crokidarts", "tournament-doubles"]),
       st.lists(st.tuples(st.integers(0, 400), bad_lines), max_size=8), st.booleans())
def test_logs_with_random_lines_give_a_sane_status_and_no_traceback(seed, rules, inserts, start):
    options = {"legs": 1, "sets": 1} if rules == "crokidarts" else None
    lines = [json.dumps(e.to_json()).encode() for e in play(rules, random.Random(seed),
                                                            options=options)]
    if not start:
        lines = lines[1:]
    for at, line in inserts:
        lines.insert(at % (len(lines) + 1), line)
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "log.jsonl"
        log.write_bytes(b"\n".join(lines))
        for argv in (["replay", str(log), "--json"], ["replay", str(log), "--scoreboard"],
                     ["oled", str(log)]):
            status, out, err = run(*argv)
            assert status in (0, 1, 2)
            assert "Traceback" not in err
            assert status == 0 or err
            if argv[-1] == "--json" and status < 2:
                assert json.loads(out)["rules"] == rules


# --- where the output goes ---------------------------------------------------------------------

COMMAND = [sys.executable, "-c", "from device.commands.cli import main; raise SystemExit(main())"]


@pytest.mark.parametrize("argv", [["replay", str(EXAMPLE)], ["oled", str(EXAMPLE)],
                                  ["replay", str(EXAMPLE), "--scoreboard"]])
def test_output_to_a_full_disk_is_a_message(argv):
    with open("/dev/full", "wb") as full:
        done = subprocess.run([*COMMAND, *argv], stdout=full, stderr=subprocess.PIPE, text=True,
                              timeout=60)
    assert done.returncode == 2
    assert done.stderr == (f"crokiscore {argv[0]}: cannot write the output (No space left on "
                           "device): free space where it goes, or send it somewhere else\n")


def test_a_reader_that_stopped_reading_ends_the_command_quietly():
    """`crokiscore replay log --scoreboard | head`: the pipe is closed before anything is
    written, so the first write fails, every time."""
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run([*COMMAND, "replay", str(EXAMPLE), "--scoreboard"], stdout=write,
                              stderr=subprocess.PIPE, text=True, timeout=60)
    finally:
        os.close(write)
    assert (done.returncode, done.stderr) == (0, "")


# --- what is not a log file ----------------------------------------------------------------------

@pytest.mark.parametrize("command", ["replay", "oled"])
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_a_device_is_refused_by_name_not_read_for_ever(command, device):
    done = subprocess.run([*COMMAND, command, device], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2 and not done.stdout
    assert done.stderr == (f"crokiscore {command}: {device} is a device, not a log: give the "
                           "event log's file (or - for standard input)\n")


def test_a_device_on_standard_input_is_refused_too():
    with open("/dev/zero", "rb") as zero:
        done = subprocess.run([*COMMAND, "replay", "-"], stdin=zero, capture_output=True,
                              text=True, timeout=60)
    assert done.returncode == 2
    assert "standard input is a device, not a log" in done.stderr


def test_a_log_through_a_pipe_is_read(tmp_path):
    """`crokiscore replay <(zcat match.jsonl.gz)` names a pipe, which cannot be rewound."""
    done = subprocess.run([*COMMAND, "replay", "/dev/stdin", "--json"],
                          input=EXAMPLE.read_bytes(), capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["finished"] is True


def test_a_line_longer_than_any_event_is_one_bad_line_never_held_whole(tmp_path):
    from device.commands.logfile import open_log
    from rules.replay import MAX_LINE

    log = tmp_path / "match.jsonl"
    lines = EXAMPLE.read_bytes().splitlines()
    with open(log, "wb") as f:
        f.write(lines[0] + b"\n" + b'{"type": "undo", "note": "' + b"x" * (3 * MAX_LINE)
                + b'"}\n' + b"\n".join(lines[1:]) + b"\n")
    with open_log(log) as read:
        assert max(len(line) for line in read) == MAX_LINE + 1
    status, out, err = run("replay", str(log), "--json")
    assert status == 1 and json.loads(out)["finished"] is True
    assert err == f"{log}:2: a line of more than 1,000,000 bytes: no event is that long " \
                  "(line skipped)\n"


def test_no_file_named_is_said_so():
    status, _, err = run("replay", "")
    assert status == 2
    assert err == "crokiscore replay: no file named: give the event log's file, or - for " \
                  "standard input\n"
