"""The hub's store: every board's events, once each, and what the page needs to show.

Events are keyed by (board, store match id, match start, sequence number): a box that sends an
event again (after a crash, or on the hub's request) changes nothing. The boxes keep the truth; the
hub's copy can always be asked for again, so it commits without waiting for the disk
(``synchronous=NORMAL``), and a power cut costs at most the latest events, which are then filled in
from the boxes.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from device.club.errors import HubStoreError
from device.club.topics import Assignment, MatchKey
from rules import Match, RulesError, fold, parse_event

SCHEMA_VERSION = 1
SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    board TEXT NOT NULL, match_id INTEGER NOT NULL, started REAL NOT NULL, seq INTEGER NOT NULL,
    ts REAL NOT NULL, body TEXT NOT NULL, received REAL NOT NULL,
    PRIMARY KEY (board, match_id, started, seq)
);
CREATE TABLE IF NOT EXISTS matches (
    uuid TEXT PRIMARY KEY, board TEXT NOT NULL, match_id INTEGER NOT NULL, started REAL NOT NULL,
    rules TEXT NOT NULL, players TEXT NOT NULL, event TEXT, assignment TEXT,
    finished REAL, summary TEXT,
    UNIQUE (board, match_id, started)
);
CREATE TABLE IF NOT EXISTS boards (
    board TEXT PRIMARY KEY, state TEXT, online INTEGER, seen REAL
);
CREATE TABLE IF NOT EXISTS pictures (
    board TEXT PRIMARY KEY, jpeg BLOB NOT NULL, received REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS assignments (
    id TEXT PRIMARY KEY, board TEXT NOT NULL, body TEXT NOT NULL, created REAL NOT NULL,
    match_uuid TEXT, withdrawn INTEGER NOT NULL DEFAULT 0
);
"""


@dataclass(frozen=True)
class MatchRecord:
    """A match the hub holds, with its state folded from the events it has (in order, from the
    first, up to the first gap)."""

    uuid: str
    key: MatchKey
    rules: str
    players: tuple[str, ...]
    event: str | None
    finished: float | None
    match: Match | None
    summary: dict[str, Any] | None


class HubStore:
    def __init__(self, path: str, *, read_only: bool = False) -> None:
        self.path = path
        try:
            if read_only:
                if not Path(path).is_file():
                    raise HubStoreError(f"there is no hub store at {path}")
                # closed cleanly, a store has no write-ahead log: read it as immutable, which
                # leaves nothing behind; with a log (the hub runs, or crashed) read that too
                wal = Path(path + "-wal").exists()
                uri = f"{Path(path).resolve().as_uri()}?mode=ro" + ("" if wal else "&immutable=1")
                self._db = sqlite3.connect(uri, uri=True, isolation_level=None,
                                           check_same_thread=False)
            else:
                Path(path).parent.mkdir(parents=True, exist_ok=True)
                self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=NORMAL")
                version = self._db.execute("PRAGMA user_version").fetchone()[0]
                if version > SCHEMA_VERSION:
                    raise HubStoreError(f"the hub store {path} was written by a newer crokiscore "
                                        f"(schema {version}); upgrade")
                self._db.executescript(f"BEGIN; {SCHEMA} PRAGMA user_version={SCHEMA_VERSION};"
                                       " COMMIT;")
        except sqlite3.Error as exc:
            raise HubStoreError(f"the hub store {path} cannot be used: {exc}") from exc
        except OSError as exc:
            raise HubStoreError(f"cannot create the hub store's folder for {path}: "
                                f"{exc.strerror}") from exc

    # --- events ---------------------------------------------------------------------------------

    def add_event(self, key: MatchKey, seq: int, ts: float, body: dict[str, Any],
                  received: float) -> bool:
        """Keeps the event; False if it was already there (a copy)."""
        cur = self._db.execute(
            "INSERT OR IGNORE INTO events (board, match_id, started, seq, ts, body, received) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (key.board, key.match_id, key.started, seq, ts, json.dumps(body), received))
        return cur.rowcount == 1

    def body(self, key: MatchKey, seq: int) -> dict[str, Any] | None:
        row = self._db.execute("SELECT body FROM events WHERE board = ? AND match_id = ? AND "
                               "started = ? AND seq = ?",
                               (key.board, key.match_id, key.started, seq)).fetchone()
        return None if row is None else json.loads(row[0])

    def bodies(self, key: MatchKey) -> list[tuple[int, dict[str, Any]]]:
        rows = self._db.execute("SELECT seq, body FROM events WHERE board = ? AND match_id = ? "
                                "AND started = ? ORDER BY seq",
                                (key.board, key.match_id, key.started)).fetchall()
        return [(int(s), json.loads(b)) for s, b in rows]

    def event_count(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM events").fetchone()[0])

    def last_ts(self, key: MatchKey) -> float | None:
        row = self._db.execute("SELECT MAX(ts) FROM events WHERE board = ? AND match_id = ? "
                               "AND started = ?",
                               (key.board, key.match_id, key.started)).fetchone()
        return None if row[0] is None else float(row[0])

    # --- matches --------------------------------------------------------------------------------

    def add_match(self, key: MatchKey, rules: str, players: tuple[str, ...],
                  event: str | None, assignment: str | None) -> None:
        self._db.execute("INSERT OR IGNORE INTO matches (uuid, board, match_id, started, rules, "
                         "players, event, assignment) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                         (key.uuid, key.board, key.match_id, key.started, rules,
                          json.dumps(list(players)), event, assignment))

    def set_result(self, key: MatchKey, finished: float | None,
                   summary: dict[str, Any] | None) -> None:
        self._db.execute("UPDATE matches SET finished = ?, summary = ? WHERE uuid = ?",
                         (finished, None if summary is None else json.dumps(summary), key.uuid))

    def has_match(self, key: MatchKey) -> bool:
        return self._db.execute("SELECT 1 FROM matches WHERE uuid = ?",
                                (key.uuid,)).fetchone() is not None

    def match_rows(self, *, finished: bool | None = None, event: str | None = None,
                   day: str | None = None, board: str | None = None,
                   uuid: str | None = None) -> list[tuple[Any, ...]]:
        """Matches, oldest first; ``day`` is the local date (YYYY-MM-DD) the match started."""
        where, args = [], []
        if finished is not None:
            where.append("finished IS NOT NULL" if finished else "finished IS NULL")
        if event is not None:
            where.append("event = ?")
            args.append(event)
        if day is not None:
            where.append("date(started, 'unixepoch', 'localtime') = ?")
            args.append(day)
        if board is not None:
            where.append("board = ?")
            args.append(board)
        if uuid is not None:
            where.append("uuid = ?")
            args.append(uuid)
        sql = ("SELECT uuid, board, match_id, started, rules, players, event, finished, summary "
               "FROM matches" + (" WHERE " + " AND ".join(where) if where else "")
               + " ORDER BY started, board")
        return self._db.execute(sql, args).fetchall()

    def records(self, **filters: Any) -> list[MatchRecord]:
        """The matches with their state folded from the stored events (the truth, not the
        cached summary)."""
        out = []
        for u, board, mid, started, rules, players, event, finished, summary in \
                self.match_rows(**filters):
            key = MatchKey(board, int(mid), float(started))
            out.append(MatchRecord(u, key, rules, tuple(json.loads(players)), event, finished,
                                   self.fold(key), json.loads(summary) if summary else None))
        return out

    def fold(self, key: MatchKey) -> Match | None:
        """The match from its events, in order from the first, up to the first gap."""
        events = []
        for expect, (seq, body) in enumerate(self.bodies(key)):
            if seq != expect:
                break
            events.append(parse_event(body))
        if not events:
            return None
        try:
            return fold(events)
        except RulesError:
            return None

    def events_name(self) -> list[str]:
        rows = self._db.execute("SELECT DISTINCT event FROM matches WHERE event IS NOT NULL "
                                "ORDER BY event").fetchall()
        return [r[0] for r in rows]

    # --- boards, pictures -----------------------------------------------------------------------

    def set_state(self, board: str, state: dict[str, Any], seen: float) -> None:
        self._db.execute("INSERT INTO boards (board, state, seen) VALUES (?, ?, ?) ON CONFLICT "
                         "(board) DO UPDATE SET state = excluded.state, seen = excluded.seen",
                         (board, json.dumps(state), seen))

    def set_online(self, board: str, online: bool, seen: float) -> None:
        self._db.execute("INSERT INTO boards (board, online, seen) VALUES (?, ?, ?) ON CONFLICT "
                         "(board) DO UPDATE SET online = excluded.online, seen = excluded.seen",
                         (board, int(online), seen))

    def boards(self) -> dict[str, tuple[dict[str, Any] | None, bool | None]]:
        rows = self._db.execute("SELECT board, state, online FROM boards ORDER BY board")
        return {b: (json.loads(s) if s else None, None if o is None else bool(o))
                for b, s, o in rows.fetchall()}

    def set_picture(self, board: str, jpeg: bytes, received: float) -> None:
        self._db.execute("INSERT INTO pictures (board, jpeg, received) VALUES (?, ?, ?) ON "
                         "CONFLICT (board) DO UPDATE SET jpeg = excluded.jpeg, "
                         "received = excluded.received", (board, jpeg, received))

    def picture(self, board: str) -> tuple[bytes, float] | None:
        row = self._db.execute("SELECT jpeg, received FROM pictures WHERE board = ?",
                               (board,)).fetchone()
        return None if row is None else (bytes(row[0]), float(row[1]))

    # --- assignments ----------------------------------------------------------------------------

    def add_assignment(self, a: Assignment, created: float) -> None:
        self._db.execute("BEGIN")
        self._db.execute("UPDATE assignments SET withdrawn = 1 WHERE board = ? AND "
                         "match_uuid IS NULL", (a.board,))
        self._db.execute("INSERT INTO assignments (id, board, body, created) VALUES "
                         "(?, ?, ?, ?)", (a.id, a.board, json.dumps(a.to_json()), created))
        self._db.execute("COMMIT")

    def withdraw(self, board: str) -> bool:
        cur = self._db.execute("UPDATE assignments SET withdrawn = 1 WHERE board = ? AND "
                               "match_uuid IS NULL AND withdrawn = 0", (board,))
        return cur.rowcount > 0

    def pending(self, board: str) -> dict[str, Any] | None:
        row = self._db.execute("SELECT body FROM assignments WHERE board = ? AND match_uuid IS "
                               "NULL AND withdrawn = 0 ORDER BY created DESC LIMIT 1",
                               (board,)).fetchone()
        return None if row is None else json.loads(row[0])

    def started_assignment(self, assignment_id: str, match_uuid: str) -> None:
        self._db.execute("UPDATE assignments SET match_uuid = ? WHERE id = ?",
                         (match_uuid, assignment_id))

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> HubStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
