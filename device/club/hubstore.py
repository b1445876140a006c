"""The hub's store: every board's events, once each, and what the page needs to show.

Events are keyed by (board, store match id, match start, sequence number): a box that sends an
event again (after a crash, or on the hub's request) changes nothing. The boxes keep the truth; the
hub's copy can always be asked for again, so it commits without waiting for the disk
(``synchronous=NORMAL``), and a power cut costs at most the latest events, which are then filled in
from the boxes.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from device.club.errors import HubStoreError
from device.club.topics import Assignment, MatchKey
from device.store import Look
from rules import Match, RulesError, fold, parse_event

log = logging.getLogger(__name__)

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


HUB_TABLES = {"events", "matches", "boards", "pictures", "assignments"}


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


def _loads(text: Any, kind: type, default: Any) -> Any:
    """A JSON column as ``kind``, or ``default`` for one a spoilt row holds."""
    try:
        value = json.loads(text) if text else default
    except (ValueError, TypeError, RecursionError):
        return default
    if kind is tuple and isinstance(value, list):
        return tuple(str(v) for v in value)
    return value if isinstance(value, kind) else default


class HubStore:
    def __init__(self, path: str, *, read_only: bool = False) -> None:
        """Opens the hub's store, creating it (and its folder) if need be; ``read_only`` opens
        an existing one only and changes nothing on disk (``club export``)."""
        self.path = path
        self._look: Look | None = None
        try:
            if read_only:
                if Path(path).is_dir():
                    raise HubStoreError(f"the hub store {path} is a folder: give the store's "
                                        "file (club.db in it, most likely)")
                if not Path(path).is_file():
                    raise HubStoreError(f"there is no hub store at {path}")
                self._look = Look.open(Path(path))
                self._db = self._look.db
                self._check_ours()
            else:
                Path(path).parent.mkdir(parents=True, exist_ok=True)
                self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
                self._check_ours()
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=NORMAL")
                self._db.executescript(f"BEGIN; {SCHEMA} PRAGMA user_version={SCHEMA_VERSION};"
                                       " COMMIT;")
        except HubStoreError:
            self.close()
            raise
        except sqlite3.Error as exc:
            self.close()
            raise HubStoreError(f"the hub store {path} cannot be read ({exc}): it is damaged, "
                                "or not the hub's store; point [hub] store (or --store) at the "
                                "hub's file") from exc
        except OSError as exc:
            self.close()
            raise HubStoreError(f"cannot open the hub store {path}: {exc.strerror or exc}"
                                ) from exc

    def _check_ours(self) -> None:
        """Refuses a database that is not the hub's store (before anything is written to it:
        the hub's tables added to a box's event store would spoil it for the box)."""
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        tables = {r[0] for r in self._db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")
            if not r[0].startswith("sqlite_")}
        if {"meta", "rejected"} <= tables:
            raise HubStoreError(f"{self.path} is a box's event store, not the hub's: read it "
                                f"with crokiscore history --store {self.path}, and point [hub] "
                                "store (or --store) at the hub's own file")
        if version > SCHEMA_VERSION:
            raise HubStoreError(f"the hub store {self.path} was written by a newer crokiscore "
                                f"(schema {version}); upgrade")
        if tables and (version != SCHEMA_VERSION or not tables >= HUB_TABLES):
            raise HubStoreError(f"{self.path} is an SQLite file but not the hub's store (it has "
                                f"tables {', '.join(sorted(tables))}): point [hub] store (or "
                                "--store) at the hub's file")
        if not tables and self._look is not None:
            raise HubStoreError(f"{self.path} is not the hub's store (it has no tables): point "
                                "--store at the hub's file")

    def _rows(self, sql: str, args: Any = ()) -> list[Any]:
        """What a query of the export gives; a store that cannot give it is a
        :class:`HubStoreError` naming the file."""
        try:
            return self._db.execute(sql, args).fetchall()
        except sqlite3.Error as exc:
            raise HubStoreError(f"the hub store {self.path} cannot be read ({exc}): it is "
                                "damaged; move it aside, and the hub starts a new one") from exc

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
        """The match's events in order, up to the first that cannot be read."""
        rows = self._rows("SELECT seq, body FROM events WHERE board = ? AND match_id = ? "
                          "AND started = ? ORDER BY seq", (key.board, key.match_id, key.started))
        out = []
        for s, b in rows:
            try:
                out.append((int(s), json.loads(b)))
            except (ValueError, TypeError, RecursionError):
                break
        return out

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
        return self._rows(sql, args)

    def records(self, **filters: Any) -> list[MatchRecord]:
        """The matches with their state folded from the stored events (the truth, not the
        cached summary)."""
        out = []
        for row in self.match_rows(**filters):
            u, board, mid, started, rules, players, event, finished, summary = row
            try:
                key = MatchKey(board, int(mid), float(started))
                match = self.fold(key)
            except (ValueError, TypeError) as exc:  # a spoilt row: kept, with no state
                log.warning("match %s in the hub store %s cannot be read (%s)", u, self.path,
                            exc)
                key, match = MatchKey(str(board), -1, 0.0), None
            out.append(MatchRecord(u, key, rules, _loads(players, tuple, ()), event, finished,
                                   match, _loads(summary, dict, None)))
        return out

    def fold(self, key: MatchKey) -> Match | None:
        """The match from its events, in order from the first, up to the first gap."""
        events = []
        for expect, (seq, body) in enumerate(self.bodies(key)):
            if seq != expect:
                break
            try:
                events.append(parse_event(body))
            except RulesError:  # a body spoilt in the store: the match stands before it
                break
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
        db = getattr(self, "_db", None)
        if db is not None:
            db.close()
        if self._look is not None:
            self._look.close()

    def __enter__(self) -> HubStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
