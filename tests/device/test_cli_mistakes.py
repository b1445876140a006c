"""The commands and the config against what people get wrong: a message naming the thing and the
fix, never a traceback, and commands that only read change nothing."""

from __future__ import annotations

import contextlib
import io
import random
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from device.commands.cli import main
from device.config import ConfigError, load
from device.core.inputs import Operator
from device.core.state import Settings
from device.errors import StoreError
from device.screen.text import TextScreen
from device.shell import Shell, StoreHandle
from device.store import EventStore
from hw_sim.scripted import play
from rules import NewMatch

ROOT = Path(__file__).resolve().parents[2]


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(argv))
    return status, out.getvalue(), err.getvalue()


def record(store: EventStore, events: list, begun: float, first: float) -> int:
    """A match of ``events`` in ``store``: begun at ``begun``, its events from ``first`` on,
    one a second."""
    match_id = store.begin_match(events[0], begun)
    for i, ev in enumerate(events[1:]):
        store.append(match_id, ev, first + i)
    return match_id


def test_history_on_a_store_that_is_not_there_makes_nothing(tmp_path):
    typo = tmp_path / "no" / "such" / "typo.db"
    status, out, err = run("history", "--store", str(typo))
    assert status == 2 and "there is no event store at" in err and not out
    assert not (tmp_path / "no").exists(), "a command that reads made a folder"
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    status, _, err = run("history", "--store", str(empty))
    assert status == 2 and "empty file" in err
    assert empty.read_bytes() == b"", "a command that reads changed the file"


def test_history_reads_a_real_store_without_changing_it(tmp_path):
    path = tmp_path / "events.db"
    with EventStore(path) as store:
        events = list(play("casual-100", random.Random(3)))
        record(store, events, 1.0, 2.0)
    before = {p.name: p.stat().st_mtime_ns for p in tmp_path.iterdir()}
    status, out, _ = run("history", "--store", str(path))
    assert status == 0 and out.startswith("id,")
    assert {p.name: p.stat().st_mtime_ns for p in tmp_path.iterdir()} == before


@pytest.mark.parametrize("options", ["[1,2]", "7", '"legs"', "{nope", "[" * 5000])
def test_sim_options_that_are_not_an_object(options):
    status, _, err = run("sim", "--options", options)
    assert status == 2 and "--options" in err and len(err) < 400


def test_sim_refuses_a_record_folder_that_holds_a_match(tmp_path):
    with EventStore(tmp_path / "events.db") as store:
        store.begin_match(NewMatch("casual-100", ("Ann", "Bob")), 1.0)
    status, _, err = run("sim", "--record", str(tmp_path))
    assert status == 2 and "already holds a recorded match" in err


@pytest.mark.parametrize(("text", "words"), [
    ("[hole]\npin = 4\npin = 5\n", r"pin is given twice \(line 3: 'pin = 5'\)"),
    ("[display]\nwidth = 64\n", r"\[display\] display size 64x64: the scoreboard needs at least "
                                "128x64"),
    ("[display]\nwidth = 'wide'\n", r"\[display\] width must be a whole number"),
    ("[camera]\nwidth = 1e400\n", r"\[camera\] width must be a whole number"),
    ("[match]\nrules = 'casual-100'\n[match]\nplayers = ['A', 'B']\n", "match is given twice"),
])
def test_config_mistakes_name_the_key(tmp_path, text, words):
    cfg = tmp_path / "c.toml"
    cfg.write_text(text)
    with pytest.raises(ConfigError, match=words):
        load(cfg)


def test_the_simulators_example_passes_the_doctor_on_a_fresh_clone(tmp_path, capsys):
    """examples/sim.toml's store folder (out/) does not exist before the first run."""
    import os

    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        status = main(["doctor", "--config", str(ROOT / "examples" / "sim.toml")])
    finally:
        os.chdir(here)
    out = capsys.readouterr().out
    assert status == 0, out
    assert "no store yet: it and its folder are created on first start" in out
    assert not (tmp_path / "out").exists()


# --- fuzzing the store and the feed ------------------------------------------------------------

@settings(max_examples=60)
@given(lines=st.lists(st.one_of(
    st.binary(max_size=60),
    st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                 lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=6), c,
                                                                      max_size=3),
                 max_leaves=8).map(lambda v: repr(v).encode()),
    st.sampled_from([b'{"type": "shot", "seat": 0}', b'{"type": "twenty"}', b'{"type": "undo"}',
                     b'{"type": "foul"}', b'{"type": "board", "discs": []}',
                     b'{"type": "shot", "seat": 99999999999999999999999}'])), max_size=25))
def test_random_feed_lines_are_refused_by_name_and_nothing_committed_is_lost(tmp_path_factory,
                                                                            lines):
    from device.commands.feed import read_feed
    from device.errors import FeedError

    folder = tmp_path_factory.mktemp("feed")
    feed = folder / "feed.jsonl"
    feed.write_bytes(b'{"type": "match", "rules": "casual-100", "players": ["A", "B"]}\n'
                     + b"\n".join(lines) + b"\n")
    try:
        start, events = read_feed(feed)
    except FeedError as exc:
        assert str(exc) and "Traceback" not in str(exc)
        return
    t = [1000.0]
    shell = Shell(Settings(start, camera=False), StoreHandle(str(folder / "events.db")),
                  TextScreen(lambda _: None), clock=lambda: t[0], wall=lambda: t[0])
    shell.start()
    for ev in events:
        t[0] += 1
        shell.step(Operator(ev, t[0], "feed"))
    shell.close()
    with EventStore(folder / "events.db", read_only=True) as store:
        [match] = store.matches()
        stored = store.events(match.id)
    assert stored[0] == start and len(stored) == 1 + shell.taken["feed"]


@settings(max_examples=40)
@given(offset=st.integers(0, 40_000), garbage=st.binary(min_size=1, max_size=64))
@example(offset=24552, garbage=b"\x00")  # an index page: SQLite's quick check passes it
def test_a_store_spoilt_anywhere_never_stops_the_box(tmp_path_factory, offset, garbage):
    folder = tmp_path_factory.mktemp("spoilt")
    path = folder / "events.db"
    with EventStore(path) as store:
        events = list(play("casual-100", random.Random(1)))[:120]
        record(store, events, 1.0, 2.0)
        store._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(path.read_bytes())
    at = offset % len(data)
    data[at:at + len(garbage)] = garbage
    path.write_bytes(bytes(data[:len(path.read_bytes())]))
    t = [1000.0]
    shell = Shell(Settings(events[0], camera=False), StoreHandle(str(path)),
                  TextScreen(lambda _: None), clock=lambda: t[0], wall=lambda: t[0])
    shell.start()                         # never raises
    assert shell.match is not None
    resumed = shell.match.depth
    shell.step(Operator(events[resumed + 1] if resumed + 1 < len(events) else events[-1], t[0]))
    if "store" in shell.faults:
        assert shell.faults["store"] in ("STORE DAMAGED: menu, Repair", "STORE: fix its path")
    shell.close()
    try:
        with EventStore(path, read_only=True) as look:
            verdict = look.integrity()
    except StoreError as exc:
        verdict = str(exc)
    assert verdict == "ok" or "store" in shell.faults, "damage the box did not notice"


def png_claiming(width: int, height: int) -> bytes:
    """A PNG whose header says ``width`` x ``height`` pixels (with right checksums) and whose
    data is a few bytes: what a decoder must not believe."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data)))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(b"\0" * 16)) + chunk(b"IEND", b""))


def test_score_refuses_a_picture_that_claims_too_many_pixels(tmp_path):
    huge = tmp_path / "huge.png"
    huge.write_bytes(png_claiming(60_000, 60_000))
    status, out, err = run("score", str(huge), "--json")
    assert status == 2 and "huge.png" in err and "Traceback" not in err
    assert '"error"' in out


@pytest.mark.parametrize("value", ["-5", "0", "nan", "inf", "wide"])
def test_a_focal_length_that_is_not_one_is_refused_by_name(tmp_path, value, capsys):
    picture = tmp_path / "p.png"
    picture.write_bytes(png_claiming(8, 8))
    for command in (["score", str(picture)], ["calibrate", str(picture), "--out",
                                              str(tmp_path / "c.json")]):
        with pytest.raises(SystemExit) as stop:
            main([*command, "--focal-px", value])
        assert stop.value.code == 2
        assert "--focal-px" in capsys.readouterr().err


@pytest.mark.parametrize("kind", ["a loop of symbolic links", "a name too long"])
def test_a_store_path_that_cannot_be_one_is_named_and_the_box_still_starts(tmp_path, kind):
    if kind == "a loop of symbolic links":
        path = tmp_path / "a.db"
        path.symlink_to(tmp_path / "b.db")
        (tmp_path / "b.db").symlink_to(path)
        why = "(a loop of symbolic links)"
    else:
        path = tmp_path / ("x" * 300 + ".db")
        why = "(File name too long)"
    status, out, err = run("history", "--store", str(path))
    assert status == 2 and not out
    assert why in err and err.endswith("fix store in the config\n")
    shell = Shell(Settings(NewMatch("casual-100", ("Ann", "Bob")), camera=False),
                  StoreHandle(str(path)), TextScreen(lambda _: None), clock=lambda: 1.0,
                  wall=lambda: 1.0)
    shell.start()                    # scores in memory, and says where the trouble is
    assert shell.faults["store"] == "STORE: fix its path"
    shell.close()


@pytest.mark.parametrize("spoilt", [
    "players = '5', started = 'yesterday', result = '[1]'",
    "players = 'null', finished = 1e300",
    "players = X'FFFE', started = -1e20",
])
def test_history_of_a_store_whose_match_rows_are_spoilt(tmp_path, spoilt):
    """The matches table has no checksums: a spoilt row is shown as far as it can be."""
    import sqlite3

    path = tmp_path / "events.db"
    with EventStore(path) as store:
        events = list(play("casual-100", random.Random(3)))
        match_id = record(store, events, 1.7e9, 1.7e9)
        store.finish(match_id, {}, 1.7e9 + len(events))
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute(f"UPDATE matches SET {spoilt}")
        db.commit()
    for extra in ([], ["--json"], ["--players"], ["--stats"]):
        status, out, err = run("history", "--store", str(path), *extra)
        assert (status, err) == (0, "")
        assert "Ann" in out or "Home" in out or "Bob" in out, out


def test_history_of_a_store_copied_with_its_log_reads_the_log_and_leaves_no_file(tmp_path):
    """A store copied off a card as it stood (events.db and events.db-wal, which holds the
    latest events): reading it must not leave an events.db-shm, owned by whoever looked."""
    import shutil

    live = tmp_path / "live"
    copy = tmp_path / "copy"
    copy.mkdir()
    with EventStore(live / "events.db") as store:
        events = list(play("casual-100", random.Random(3)))
        match_id = record(store, events, 1.7e9, 1.7e9)
        store.finish(match_id, {}, 1.7e9 + len(events))
        for name in ("events.db", "events.db-wal"):
            shutil.copy(live / name, copy / name)
    assert (copy / "events.db-wal").stat().st_size > 0
    before = {p.name: p.stat().st_mtime_ns for p in copy.iterdir()}
    status, out, err = run("history", "--store", str(copy / "events.db"))
    assert (status, err) == (0, "")
    assert out.count("\n") == 2 and ",finished," in out, "the finish is in the log only"
    assert {p.name: p.stat().st_mtime_ns for p in copy.iterdir()} == before
