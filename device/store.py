"""The event store: every accepted event, appended and committed before anything shows it.

SQLite in WAL mode with ``synchronous=FULL``: a commit is on the card when ``append`` returns, so a
power cut at any instant loses nothing that was shown, and a restart replays the unfinished match to
exactly where it was. Nothing is ever updated or deleted: corrections and undo are events too.
Finished matches stay as history. Events refused by the rules are kept apart (``rejected``) for the
record; they never take part in the fold.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from device.errors import StoreError
from rules import Event, NewMatch, parse_event

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1
SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY,
    started REAL NOT NULL,
    rules TEXT NOT NULL,
    players TEXT NOT NULL,
    finished REAL,
    outcome TEXT,
    result TEXT
);
CREATE TABLE IF NOT EXISTS events (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    seq INTEGER NOT NULL,
    ts REAL NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (match_id, seq)
);
CREATE TABLE IF NOT EXISTS rejected (
    id INTEGER PRIMARY KEY,
    match_id INTEGER,
    ts REAL NOT NULL,
    body TEXT NOT NULL,
    reason TEXT NOT NULL
);
"""


@dataclass(frozen=True)
class StoredMatch:
    id: int
    started: float
    rules: str
    players: tuple[str, ...]
    finished: float | None
    outcome: str | None
    result: dict[str, Any] | None


def _explain(exc: sqlite3.Error, path: str) -> StoreError:
    text = str(exc)
    if "disk is full" in text or "disk I/O error" in text:
        return StoreError(f"the event store {path} cannot write: {text}; free space on its disk "
                          "(the match is kept and resumes once it can write)")
    if "readonly" in text or "unable to open" in text:
        return StoreError(f"the event store {path} cannot be opened for writing: {text}; check "
                          "that the directory exists and belongs to the crokiscore user")
    if "not a database" in text or "malformed" in text:
        return StoreError(f"the event store {path} is damaged: {text}; move it aside (it will be "
                          "recreated) and keep the old file for recovery")
    return StoreError(f"the event store {path} failed: {text}")


class EventStore:
    """One SQLite file, used by one thread at a time: the daemon's main loop owns it while it
    runs (it may have been opened by another thread before)."""

    def __init__(self, path: str | Path, *, read_only: bool = False) -> None:
        """Opens the store, creating it (and its folder) if need be; ``read_only`` opens an
        existing store only and changes nothing in it, for looking without touching."""
        self.path = str(path)
        try:
            if read_only:
                if not Path(self.path).is_file():
                    raise StoreError(f"there is no event store at {self.path}")
                # A store closed cleanly has no write-ahead log: read it as immutable, which
                # leaves no -wal/-shm files behind (owned by whoever looked). After a crash the
                # log holds committed events, so it is read too.
                wal = Path(self.path + "-wal").exists()
                uri = f"{Path(self.path).resolve().as_uri()}?mode=ro" + (
                    "" if wal else "&immutable=1")
                self._db = sqlite3.connect(uri, uri=True, isolation_level=None,
                                           check_same_thread=False)
            else:
                if self.path != ":memory:":
                    Path(self.path).parent.mkdir(parents=True, exist_ok=True)
                # one thread at a time (the main loop once it runs), not necessarily the opener
                self._db = sqlite3.connect(self.path, isolation_level=None,
                                           check_same_thread=False)
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise StoreError(f"the event store {self.path} was written by a newer crokiscore "
                                 f"(schema {version}, this one reads {SCHEMA_VERSION}); upgrade")
            if version == 0 and read_only:
                raise StoreError(f"{self.path} is not a crokiscore event store (it has no "
                                 "tables of ours): point store at the right file, or move this "
                                 "one aside")
            if version == 0:
                self._db.executescript(
                    f"BEGIN; {SCHEMA} PRAGMA user_version={SCHEMA_VERSION}; COMMIT;")
        except sqlite3.Error as exc:
            raise _explain(exc, self.path) from exc
        except OSError as exc:
            raise StoreError(f"cannot create the event store's directory for {self.path}: "
                             f"{exc.strerror}") from exc
        self._closed = False

    def _tx(self) -> Any:
        return _Transaction(self._db)

    # --- writing ---------------------------------------------------------------------------

    def begin_match(self, event: NewMatch, ts: float) -> int:
        """Records a new match and its first event; any unfinished match is closed as
        abandoned (kept as history)."""
        try:
            with self._tx():
                self._db.execute(
                    "UPDATE matches SET finished = ?, outcome = 'abandoned' WHERE finished IS NULL",
                    (ts,))
                cur = self._db.execute(
                    "INSERT INTO matches (started, rules, players) VALUES (?, ?, ?)",
                    (ts, event.rules, json.dumps(list(event.players))))
                match_id = int(cur.lastrowid or 0)
                self._db.execute("INSERT INTO events (match_id, seq, ts, body) VALUES (?, 0, ?, ?)",
                                 (match_id, ts, json.dumps(event.to_json())))
        except sqlite3.Error as exc:
            raise _explain(exc, self.path) from exc
        return match_id

    def append(self, match_id: int, event: Event, ts: float,
               meta: dict[str, Any] | None = None) -> int:
        """Appends one event and commits it; returns its sequence number in the match."""
        body = event.to_json()
        if meta:
            body.update(meta)
        try:
            with self._tx():
                seq = self._db.execute("SELECT COALESCE(MAX(seq), -1) + 1 FROM events WHERE "
                                       "match_id = ?", (match_id,)).fetchone()[0]
                self._db.execute("INSERT INTO events (match_id, seq, ts, body) VALUES (?, ?, ?, ?)",
                                 (match_id, seq, ts, json.dumps(body)))
        except sqlite3.Error as exc:
            raise _explain(exc, self.path) from exc
        return int(seq)

    def reject(self, match_id: int | None, body: dict[str, Any], reason: str, ts: float) -> None:
        """Keeps a refused event for the record. Best effort: a failure here is only logged."""
        try:
            with self._tx():
                self._db.execute("INSERT INTO rejected (match_id, ts, body, reason) VALUES "
                                 "(?, ?, ?, ?)", (match_id, ts, json.dumps(body), reason))
        except sqlite3.Error as exc:
            log.warning("could not keep a refused event: %s", exc)

    def finish(self, match_id: int, result: dict[str, Any], ts: float,
               outcome: str = "finished") -> None:
        try:
            with self._tx():
                self._db.execute("UPDATE matches SET finished = ?, outcome = ?, result = ? "
                                 "WHERE id = ?", (ts, outcome, json.dumps(result), match_id))
        except sqlite3.Error as exc:
            raise _explain(exc, self.path) from exc

    def reopen(self, match_id: int) -> None:
        """Marks a finished match as in play again (an undo or correction reopened it)."""
        try:
            with self._tx():
                self._db.execute("UPDATE matches SET finished = NULL, outcome = NULL, "
                                 "result = NULL WHERE id = ?", (match_id,))
        except sqlite3.Error as exc:
            raise _explain(exc, self.path) from exc

    # --- reading ---------------------------------------------------------------------------

    def unfinished(self) -> int | None:
        row = self._db.execute("SELECT id FROM matches WHERE finished IS NULL ORDER BY id DESC "
                               "LIMIT 1").fetchone()
        return None if row is None else int(row[0])

    def bodies(self, match_id: int) -> list[dict[str, Any]]:
        rows = self._db.execute("SELECT body FROM events WHERE match_id = ? ORDER BY seq",
                                (match_id,)).fetchall()
        return [json.loads(r[0]) for r in rows]

    def events(self, match_id: int) -> list[Event]:
        """The match's events, parsed: what the fold replays on start."""
        return [parse_event(b) for b in self.bodies(match_id)]

    def jsonl(self, match_id: int) -> Iterator[str]:
        """The match as JSON lines: the format ``crokiscore replay`` reads."""
        for body in self.bodies(match_id):
            yield json.dumps(body)

    def matches(self) -> list[StoredMatch]:
        rows = self._db.execute("SELECT id, started, rules, players, finished, outcome, result "
                                "FROM matches ORDER BY id").fetchall()
        return [StoredMatch(r[0], r[1], r[2], tuple(json.loads(r[3])), r[4], r[5],
                            json.loads(r[6]) if r[6] else None) for r in rows]

    def rejected(self, match_id: int | None = None) -> list[tuple[dict[str, Any], str]]:
        rows = self._db.execute("SELECT body, reason FROM rejected WHERE ? IS NULL OR "
                                "match_id = ? ORDER BY id", (match_id, match_id)).fetchall()
        return [(json.loads(b), r) for b, r in rows]

    def integrity(self) -> str:
        """SQLite's own check: 'ok' or the problems it found."""
        try:
            rows = self._db.execute("PRAGMA integrity_check").fetchall()
        except sqlite3.Error as exc:
            return str(exc)
        return "; ".join(r[0] for r in rows)

    # --- lifecycle -------------------------------------------------------------------------

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._db.close()

    def __enter__(self) -> EventStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, rolled back on any error, so a failed write leaves nothing."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, *rest: object) -> None:
        if exc_type is None:
            self.db.execute("COMMIT")
        elif self.db.in_transaction:
            self.db.execute("ROLLBACK")
