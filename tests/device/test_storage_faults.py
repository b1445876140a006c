"""What an SD card does to the store, for real: it fills up, goes read-only, spoils a page or
an event, or is cut to nothing. The box stays up, says which in words, scores on and loses
nothing it can still read."""

from __future__ import annotations

import contextlib
import json
import sqlite3
from pathlib import Path

import pytest

from device.commands.cli import main
from device.core.inputs import ButtonPressed, Operator, Tick
from device.core.state import Settings
from device.errors import NotAStore, StoreDamaged
from device.screen.text import TextScreen
from device.shell import Shell, StoreHandle
from device.store import EventStore, crc
from rules import NewMatch, Shot
from tests.device.small_disk import run

START = NewMatch("casual-100", ("Ann", "Bob"))


def shots(stored: list[dict]) -> list[int]:
    return [e["seat"] for e in stored if e["type"] == "shot"]


def test_starting_on_a_full_card_with_no_store_scores_in_memory_and_writes_it_later():
    seen = run("start-full-no-store")
    assert seen["while_full"]["faults"] == {"store": "STORE FULL: free space"}
    assert seen["while_full"]["depth"] == 3, "scored in memory"
    assert "STORE FULL" in seen["while_full"]["frame"]
    assert seen["after"] == {**seen["after"], "faults": {}, "waiting": 0}
    [match] = seen["stored"]
    assert match["outcome"] is None and shots(match["events"]) == [0, 1, 0]


def test_starting_on_a_full_card_resumes_the_match_in_play():
    seen = run("start-full-in-play")
    assert seen["resumed"]["depth"] == 2 and seen["resumed"]["waiting"] == 0
    assert seen["while_full"]["faults"] == {"store": "STORE FULL: free space"}
    [match] = seen["stored"]                      # no new match over the one in play
    assert shots(match["events"]) == [0, 1, 0, 1, 0]


def test_starting_on_a_full_card_after_a_finished_match_begins_the_next_in_memory():
    seen = run("start-full-finished")
    assert seen["while_full"]["faults"] == {"store": "STORE FULL: free space"}
    assert seen["while_full"]["depth"] == 2
    finished, new = seen["stored"]
    assert finished["outcome"] == "finished" and new["outcome"] is None
    assert shots(new["events"]) == [0, 1]


def test_the_stores_troubles_are_told_apart_by_code_not_by_words(tmp_path):
    import errno
    import sqlite3

    from device.errors import StoreFull, StoreReadOnly
    from device.store import explain

    def sqlite_error(name):
        exc = sqlite3.OperationalError("some words")
        exc.sqlite_errorname = name
        return exc

    path = str(tmp_path / "e.db")
    assert isinstance(explain(sqlite_error("SQLITE_FULL"), path), StoreFull)
    assert isinstance(explain(sqlite_error("SQLITE_READONLY_DBMOVED"), path), StoreReadOnly)
    assert isinstance(explain(sqlite_error("SQLITE_CORRUPT_INDEX"), path), StoreDamaged)
    assert isinstance(explain(OSError(errno.EROFS, "Read-only file system"), path),
                      StoreReadOnly)
    assert isinstance(explain(OSError(errno.ENOSPC, "No space left"), path), StoreFull)
    full = explain(sqlite_error("SQLITE_FULL"), path)
    read_only = explain(OSError(errno.EROFS, "Read-only file system"), path)
    assert "free space" in full.words and "free space" not in read_only.words


def test_a_card_gone_read_only_says_so_not_free_space():
    seen = run("read-only")
    assert seen["resumed"] == {**seen["resumed"], "depth": 2,
                               "faults": {"store": "STORE READ-ONLY: check card"}}
    assert seen["while_read_only"]["depth"] == 4 and seen["while_read_only"]["waiting"] == 2
    [match] = seen["stored"]
    assert shots(match["events"]) == [0, 1, 0, 1]


def test_a_nearly_full_card_keeps_taking_events():
    seen = run("nearly-full", "4m")       # 2 MB left: SQLite's default log size would fill it
    assert seen["troubles"] == 0, "no write failed"
    assert seen["wal_bytes"] < 600_000
    assert len(seen["stored"][0]["events"]) == seen["taken"] > 700


# --- damaged stores ------------------------------------------------------------------------------

def box(path, frames=None):
    t = [1000.0]
    out = frames if frames is not None else []
    shell = Shell(Settings(START, camera=False), StoreHandle(str(path)), TextScreen(out.append),
                  clock=lambda: t[0], wall=lambda: t[0])
    shell.start()
    return shell, t, out


def played(path, n=4):
    shell, t, _ = box(path)
    for seat in [0, 1] * (n // 2):
        t[0] += 1
        shell.step(Operator(Shot(seat), t[0]))
    match_id = shell.match_id
    shell.close()
    return match_id


def spoil_body(path, seq):
    db = sqlite3.connect(path)
    db.execute("UPDATE events SET body = replace(body, '\"seat\": 1', '\"seat\": 7') "
               "WHERE seq = ?", (seq,))
    db.commit()
    db.close()


def spoil_pages(path):
    """Overwrites the events table's pages with garbage, as a worn card does."""
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=DELETE")
    pages = [r[0] for r in db.execute(
        "SELECT pageno FROM dbstat WHERE name = 'events'")] if _has_dbstat(db) else [3]
    size = db.execute("PRAGMA page_size").fetchone()[0]
    db.close()
    with open(path, "r+b") as f:
        for page in pages:
            f.seek((page - 1) * size + 10)
            f.write(b"\xde\xad\xbe\xef" * 200)


def _has_dbstat(db) -> bool:
    try:
        db.execute("SELECT 1 FROM dbstat LIMIT 1")
        return True
    except sqlite3.OperationalError:
        return False


def test_a_spoilt_event_body_is_found_by_its_checksum(tmp_path):
    path = tmp_path / "events.db"
    match_id = played(path, 6)
    spoil_body(path, 4)
    with EventStore(path, read_only=True) as look:
        got = look.recover(match_id)
        assert got.problem == "event 4 does not match its checksum" and len(got.bodies) == 4
        assert look.integrity() == f"checksum wrong for match {match_id} event 4"
        with pytest.raises(StoreDamaged, match="checksum"):
            look.events(match_id)
    frames: list[str] = []
    shell, t, _ = box(path, frames)          # the box starts, never crash-loops
    assert shell.match.depth == 3, "resumed as far as the events are whole"
    assert shell.faults["store"] == "STORE DAMAGED: menu, Repair"
    assert "STORE DAMAGED" in frames[-1]
    t[0] += 1
    shell.step(Operator(Shot(1), t[0]))      # scores on in memory
    assert shell.match.depth == 4 and shell.waiting == 1
    t[0] += 100
    shell.step(Tick(t[0]))
    assert shell.waiting == 1, "a damaged store is never written over by itself"
    for button in ("menu", "ok"):
        shell.step(ButtonPressed(button, False, t[0]))
    assert shell.menu_state.title() == "Move store aside?"
    shell.step(ButtonPressed("ok", False, t[0]))
    assert "store" not in shell.faults and shell.waiting == 0
    assert shell.match_id == match_id, "the match keeps its id in the rebuilt store"
    shell.close()
    with EventStore(path, read_only=True) as look:
        assert look.integrity() == "ok"
        assert [e for e in look.events(match_id)] == [START, Shot(0), Shot(1), Shot(0), Shot(1)]
    kept = list(tmp_path.glob("events.db.damaged-*"))
    assert len(kept) == 1, "the damaged file is kept for recovery"


def test_a_spoilt_page_starts_the_box_with_the_damage_named(tmp_path):
    path = tmp_path / "events.db"
    played(path, 6)
    spoil_pages(path)
    shell, t, _ = box(path)
    assert shell.faults["store"] == "STORE DAMAGED: menu, Repair"
    assert shell.match is not None           # it scores on (a new match if nothing was read)
    t[0] += 1
    shell.step(Operator(Shot(shell.match.expect().seat), t[0]))
    shell.close()


def test_a_store_cut_to_nothing_is_not_silently_a_new_store(tmp_path):
    path = tmp_path / "events.db"
    played(path)
    path.write_bytes(b"")
    shell, _, frames = box(path)
    assert shell.faults["store"] == "STORE DAMAGED: menu, Repair"
    assert path.stat().st_size == 0, "left as it was until the operator says"
    assert "STORE DAMAGED" in frames[-1]
    shell.close()
    with pytest.raises(StoreDamaged, match="empty file"):
        EventStore(path)


def test_doctor_repair_rebuilds_the_store_with_what_can_be_read(tmp_path, capsys):
    path = tmp_path / "events.db"
    match_id = played(path, 6)
    spoil_body(path, 4)
    cfg = tmp_path / "c.toml"
    cfg.write_text(f'backend = "sim"\nstore = "{path}"\n[camera]\nkind = "none"\n'
                   '[display]\ndriver = "dummy"\n')
    assert main(["doctor", "--config", str(cfg)]) == 1
    assert "doctor --repair" in capsys.readouterr().out
    assert main(["doctor", "--repair", "--config", str(cfg)]) == 0
    out = capsys.readouterr().out
    assert "moved to" in out and "1 match(es), 4 events; 3 event(s) could not be read" in out
    with EventStore(path, read_only=True) as look:
        assert look.integrity() == "ok" and len(look.events(match_id)) == 4
    assert main(["doctor", "--repair", "--config", str(cfg)]) == 0
    assert "nothing to repair" in capsys.readouterr().out


def test_a_schema_1_store_is_read_and_checksummed_on_opening(tmp_path):
    path = tmp_path / "old.db"
    db = sqlite3.connect(path)
    db.executescript("""
        CREATE TABLE matches (id INTEGER PRIMARY KEY, started REAL NOT NULL, rules TEXT NOT NULL,
            players TEXT NOT NULL, finished REAL, outcome TEXT, result TEXT);
        CREATE TABLE events (match_id INTEGER NOT NULL REFERENCES matches(id),
            seq INTEGER NOT NULL, ts REAL NOT NULL, body TEXT NOT NULL,
            PRIMARY KEY (match_id, seq));
        CREATE TABLE rejected (id INTEGER PRIMARY KEY, match_id INTEGER, ts REAL NOT NULL,
            body TEXT NOT NULL, reason TEXT NOT NULL);
        PRAGMA user_version=1;""")
    db.execute("INSERT INTO matches VALUES (1, 0, 'casual-100', '[\"Ann\", \"Bob\"]', NULL, NULL, "
               "NULL)")
    body = json.dumps(START.to_json())
    db.execute("INSERT INTO events VALUES (1, 0, 0, ?)", (body,))
    db.commit()
    db.close()
    with EventStore(path, read_only=True) as look:
        assert look.events(1) == [START] and look.store_id is None
    with EventStore(path) as store:
        assert store.store_id is not None
        assert store._db.execute("SELECT crc FROM events").fetchone()[0] == crc(body)


def test_the_doctor_fails_a_read_only_store_and_a_calibration_that_is_not_one(tmp_path):
    from device.commands.doctor import examine

    cal = tmp_path / "cal.json"
    cal.write_text("{not json")
    cfg = tmp_path / "c.toml"
    cfg.write_text(f'backend = "sim"\nstore = "{tmp_path / "e.db"}"\n[camera]\nkind = "sim"\n'
                   f'calibration = "{cal}"\nwidth = 320\nheight = 240\n')
    found = {f.part: f for f in examine(cfg)}
    assert not found["camera"].ok and "cannot be used" in found["camera"].detail
    assert "calibrate again" in found["camera"].detail


def test_the_config_names_a_store_path_that_cannot_be_one(tmp_path):
    from device.commands.doctor import examine

    for store, words in ((tmp_path, "is a folder"), ("/proc/crokiscore.db", "under /proc")):
        cfg = tmp_path / "c.toml"
        cfg.write_text(f'backend = "sim"\nstore = "{store}"\n[camera]\nkind = "none"\n')
        found = {f.part: f for f in examine(cfg)}
        assert not found["store"].ok and words in found["store"].detail, store
        assert not found["disk"].ok and words in found["disk"].detail, store


def test_the_doctor_fails_a_store_on_a_read_only_mount():
    seen = run("doctor-read-only")
    assert not seen["ok"] and "mounted read-only" in seen["detail"]


def _someone_elses(kind: str, folder: Path) -> Path:
    """What a config's store may name by mistake, none of it a damaged store of the box's."""
    if kind == "a folder":
        path = folder / "state"
        path.mkdir()
        (path / "notes.txt").write_text("keep me")
        return path
    path = folder / "thing.db"
    if kind == "the club hub's store":
        from device.club.hubstore import HubStore

        HubStore(str(path)).close()
        return path
    with contextlib.closing(sqlite3.connect(path)) as db:
        if kind == "another program's database":
            db.execute("CREATE TABLE cats (name TEXT)")
            db.execute("INSERT INTO cats VALUES ('Tom')")
        else:  # a newer crokiscore's store
            db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            db.execute("PRAGMA user_version = 99")
        db.commit()
    return path


@pytest.mark.parametrize("kind", ["a folder", "another program's database",
                                  "the club hub's store", "a newer crokiscore's store"])
def test_doctor_repair_moves_nothing_that_is_not_a_damaged_store(tmp_path, capsys, kind):
    path = _someone_elses(kind, tmp_path)
    cfg = tmp_path / "c.toml"
    cfg.write_text(f'backend = "sim"\nstore = "{path}"\n')
    before = sorted(p.name for p in tmp_path.rglob("*"))
    assert main(["doctor", "--repair", "--config", str(cfg)]) == 1
    out = capsys.readouterr().out
    assert out.startswith("FAIL store") and "nothing was moved" in out
    assert sorted(p.name for p in tmp_path.rglob("*")) == before


def test_the_box_does_not_take_the_hubs_store_for_a_damaged_one_of_its_own(tmp_path):
    """Offered "Repair store", an operator would have moved the hub's matches aside."""
    path = _someone_elses("the club hub's store", tmp_path)
    with pytest.raises(NotAStore, match="the club hub's store, not a box's event store"):
        EventStore(path, read_only=True)
    shell, _, _ = box(path)
    assert shell.faults["store"] == "STORE: fix its path"
    shell.close()
