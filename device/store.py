"""The event store: every accepted event, appended and committed before anything shows it.

SQLite in WAL mode with ``synchronous=FULL``: a commit is on the card when ``append`` returns, so a
power cut at any instant loses nothing that was shown, and a restart replays the unfinished match to
exactly where it was. Nothing is ever updated or deleted: corrections and undo are events too.
Finished matches stay as history. Events refused by the rules are kept apart (``rejected``) for the
record; they never take part in the fold.

An SD card fills up, goes read-only and now and then spoils a page, so the store's troubles are
types (:class:`~device.errors.StoreFull`, :class:`~device.errors.StoreReadOnly`,
:class:`~device.errors.StoreDamaged`), judged from SQLite's error codes and the filesystem itself.
Every event carries a CRC-32 of its body: SQLite cannot see a body spoilt inside a sound page,
the checksum can, so :meth:`EventStore.recover` reads back what is still whole and says what is
not. The write-ahead log is kept small (checkpointed often, truncated when the card is nearly
full) so that it cannot eat the last megabytes of a full card.
"""

from __future__ import annotations

import errno
import json
import logging
import os
import shutil
import sqlite3
import tempfile
import time
import uuid
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from device.errors import (
    NotAStore,
    StoreDamaged,
    StoreError,
    StoreFull,
    StoreMissing,
    StoreReadOnly,
)
from rules import Event, NewMatch, RulesError, parse_event
from rules.errors import shown
from rules.events import META_KEYS as _META

log = logging.getLogger(__name__)

SCHEMA_VERSION = 2
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
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
    crc INTEGER,
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
OUR_TABLES = {"meta", "matches", "events", "rejected"}
HUB_TABLES = {"boards", "pictures", "assignments"}
"""Tables only the club hub's store has (device/club/hubstore.py)."""
WAL_PAGES = 100
"""Pages the write-ahead log may hold before it is folded into the store (SQLite's default is
1000, 4 MB: more than a nearly full card may have)."""
WAL_LIMIT_BYTES = 512 * 1024
LOW_FREE_BYTES = 8 * 1024 * 1024
"""Below this much free space the log is folded back and truncated after every write."""


def crc(body: str) -> int:
    return zlib.crc32(body.encode("utf-8"))


@dataclass(frozen=True)
class StoredMatch:
    id: int
    started: float
    rules: str
    players: tuple[str, ...]
    finished: float | None
    outcome: str | None
    result: dict[str, Any] | None


@dataclass(frozen=True)
class Recovered:
    """What could be read back of a match: its events up to the first that could not be (in
    order, each a body as stored), and how many stored rows came after that one."""

    match_id: int
    bodies: tuple[dict[str, Any], ...]
    lost: int = 0
    problem: str | None = None

    @property
    def events(self) -> list[Event]:
        return [parse_event(b) for b in self.bodies]


def _free_bytes(folder: Path) -> int | None:
    try:
        return shutil.disk_usage(folder).free
    except OSError:
        return None


def _read_only_fs(folder: Path) -> bool:
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def explain(exc: sqlite3.Error | OSError, path: str) -> StoreError:
    """The store's trouble as a type, from SQLite's error code (or the OS's errno) and, for an
    I/O error SQLite does not name, from the filesystem itself."""
    folder = Path(path).resolve().parent
    if isinstance(exc, OSError) and exc.errno in (errno.ENOTDIR, errno.EISDIR):
        return NotAStore(f"the event store {path} cannot be made: a part of its folder's path is "
                         f"a file, not a folder ({exc.strerror}); fix store in the config")
    if isinstance(exc, OSError):
        code = exc.errno
        name = {errno.ENOSPC: "SQLITE_FULL", errno.EDQUOT: "SQLITE_FULL",
                errno.EROFS: "SQLITE_READONLY", errno.EACCES: "SQLITE_READONLY",
                errno.EPERM: "SQLITE_READONLY"}.get(code or 0, "SQLITE_IOERR")
        text = exc.strerror or str(exc)
    else:
        name = getattr(exc, "sqlite_errorname", "") or ""
        text = str(exc)
    if name.startswith("SQLITE_IOERR") or name == "SQLITE_CANTOPEN":
        free = _free_bytes(folder)
        if _read_only_fs(folder):
            name = "SQLITE_READONLY"
        elif free is not None and free < 64 * 1024:
            name = "SQLITE_FULL"
    if name == "SQLITE_FULL":
        return StoreFull(f"the event store {path} cannot write: its disk is full ({text}); free "
                         "space on the card (what waits is written once there is room)")
    if name.startswith("SQLITE_READONLY"):
        why = ("its filesystem has gone read-only: the SD card may be failing; copy the store off "
               "and replace the card" if _read_only_fs(folder) else
               "the file or its folder is not writable: give both to the crokiscore user")
        return StoreReadOnly(f"the event store {path} cannot write ({text}): {why}")
    if name == "SQLITE_ERROR" and not isinstance(exc, OSError):
        # Our statements are fixed: one that fails on its own terms means a store whose tables
        # are no longer the ones it was made with (a spoilt schema page).
        name = "SQLITE_CORRUPT"
    if name in ("SQLITE_CORRUPT", "SQLITE_NOTADB") or name.startswith("SQLITE_CORRUPT"):
        return StoreDamaged(f"the event store {path} is damaged ({text}): move it aside with the "
                            "menu's 'Repair store' or 'crokiscore doctor --repair' (what can be "
                            "read is kept)")
    if name == "SQLITE_CANTOPEN":
        return StoreError(f"the event store {path} cannot be opened ({text}): check that its "
                          "folder exists and belongs to the crokiscore user")
    return StoreError(f"the event store {path} failed ({text})")


@dataclass
class Look:
    """An SQLite file in WAL mode opened to look at, changing nothing on disk (the box's store,
    and the club hub's). A file closed cleanly has no write-ahead log (or an empty one): it is
    read as immutable, which leaves no -wal or -shm file behind (owned by whoever looked). After
    a crash the log holds committed rows, so it is read too, with its shared index (-shm) as
    the writer left it. A file copied with its log but not that index is read from a copy in a
    scratch folder, removed on closing: SQLite would make the index beside it, or fail where it
    may not."""

    db: sqlite3.Connection
    scratch: Path | None = None

    @classmethod
    def open(cls, path: Path) -> Look:
        wal = Path(f"{path}-wal")
        logged = wal.exists() and wal.stat().st_size > 0
        if logged and not Path(f"{path}-shm").exists():
            return cls._copy(path, wal)
        uri = f"{path.resolve().as_uri()}?mode=ro" + ("" if logged else "&immutable=1")
        db = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
        if logged:
            try:
                db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
            except sqlite3.OperationalError:
                # No room (or no right) for the log's shared index: with the connection's lock
                # held exclusively SQLite keeps that index in memory instead.
                db.close()
                db = sqlite3.connect(uri, uri=True, isolation_level=None,
                                     check_same_thread=False)
                db.execute("PRAGMA locking_mode=EXCLUSIVE")
        return cls(db)

    @classmethod
    def _copy(cls, path: Path, wal: Path) -> Look:
        scratch = Path(tempfile.mkdtemp(prefix="crokiscore-look-"))
        try:
            shutil.copyfile(path, scratch / "copy.db")
            shutil.copyfile(wal, scratch / "copy.db-wal")
            db = sqlite3.connect(f"{(scratch / 'copy.db').as_uri()}?mode=ro", uri=True,
                                 isolation_level=None, check_same_thread=False)
        except (OSError, sqlite3.Error):
            shutil.rmtree(scratch, ignore_errors=True)
            raise
        return cls(db, scratch)

    def close(self) -> None:
        self.db.close()
        if self.scratch is not None:
            shutil.rmtree(self.scratch, ignore_errors=True)
            self.scratch = None


def check_path(path: str | Path) -> None:
    """Refuses a store path that cannot be a store file, saying why (before SQLite says
    something vaguer)."""
    p = Path(path)
    try:
        if p.is_dir():
            raise NotAStore(f"the event store {p} is a folder: give store a file name in it, "
                            f"e.g. {p / 'events.db'}")
        for above in p.absolute().parents:
            if above.exists():
                if not above.is_dir():
                    raise NotAStore(f"the event store {p} cannot be made: {above} is a file, "
                                    "not a folder; fix store in the config")
                break
        real = p.resolve()
    except (OSError, RuntimeError, ValueError) as exc:  # too long, a loop, a NUL byte
        why = (exc.strerror if isinstance(exc, OSError) else "a loop of symbolic links"
               if isinstance(exc, RuntimeError) else "a NUL byte in it")
        raise NotAStore(f"the event store {shown(str(p), 80)} cannot be used ({why}): fix store "
                        "in the config") from None
    for pseudo in ("/proc", "/sys", "/dev"):
        if real == Path(pseudo) or Path(pseudo) in real.parents:
            raise NotAStore(f"the event store {p} is under {pseudo}, which holds no files: put "
                            "it on the card, e.g. /var/lib/crokiscore/events.db")


class EventStore:
    """One SQLite file, used by one thread at a time: the daemon's main loop owns it while it
    runs (it may have been opened by another thread before)."""

    def __init__(self, path: str | Path, *, read_only: bool = False) -> None:
        """Opens the store, creating it (and its folder) if need be; ``read_only`` opens an
        existing store only and changes nothing on disk, for looking without touching."""
        self.path = str(path)
        self.read_only = read_only
        self._closed = True
        self._look: Look | None = None   # how a store opened read-only was opened
        check_path(self.path)
        p = Path(self.path)
        if p.is_file() and p.stat().st_size == 0:
            # SQLite takes an empty file for a new database: a store cut to nothing would be
            # silently replaced by a new match 1.
            raise StoreDamaged(f"the event store {self.path} is an empty file: it may have been "
                               "cut short; move it aside ('Repair store' in the menu, or "
                               "crokiscore doctor --repair) to start a new store")
        created = not read_only and not p.exists()
        try:
            if read_only:
                self._db = self._connect_read_only(p)
            else:
                if not p.parent.exists():
                    p.parent.mkdir(parents=True, exist_ok=True)
                # one thread at a time (the main loop once it runs), not necessarily the opener
                self._db = sqlite3.connect(self.path, isolation_level=None,
                                           check_same_thread=False)
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=FULL")
                self._db.execute(f"PRAGMA wal_autocheckpoint={WAL_PAGES}")
                self._db.execute(f"PRAGMA journal_size_limit={WAL_LIMIT_BYTES}")
            self._closed = False
            self._db.execute("PRAGMA foreign_keys=ON")
            self._schema()
        except (sqlite3.Error, OSError, StoreError) as exc:
            self.close()
            if created:
                self._unmake(p)
            if isinstance(exc, StoreError):
                raise
            raise explain(exc, self.path) from exc

    @staticmethod
    def _unmake(p: Path) -> None:
        """A store that could not be made (a full card) leaves no empty file behind, which the
        next start would take for a store cut to nothing."""
        for suffix in ("", "-wal", "-shm"):
            f = Path(str(p) + suffix)
            try:
                if f.exists() and (suffix or f.stat().st_size == 0):
                    f.unlink()
            except OSError as exc:
                log.warning("could not remove %s: %s", f, exc)

    def _connect_read_only(self, p: Path) -> sqlite3.Connection:
        if not p.is_file():
            raise StoreMissing(f"there is no event store at {self.path}")
        self._look = Look.open(p)
        return self._look.db

    def _schema(self) -> None:
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        self._crc = "crc" if version >= 2 or not self.read_only else "NULL"
        if version > SCHEMA_VERSION:
            raise NotAStore(f"the event store {self.path} was written by a newer crokiscore "
                            f"(schema {version}, this one reads {SCHEMA_VERSION}); upgrade")
        tables = {r[0] for r in self._db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        foreign = {t for t in tables - OUR_TABLES if not t.startswith("sqlite_")}
        if tables >= HUB_TABLES:
            raise NotAStore(f"{self.path} is the club hub's store, not a box's event store: "
                            "point store at the box's own file (read the hub's matches with "
                            f"crokiscore club export --store {self.path})")
        if (version == 0 and tables) or foreign:
            raise NotAStore(f"{self.path} is an SQLite file but not a crokiscore event store "
                            f"(it has tables {', '.join(sorted(foreign or tables))}): point "
                            "store at the right file, or move this one aside")
        if self.read_only:
            if version == 0:
                raise NotAStore(f"{self.path} is not a crokiscore event store (it has no "
                                "tables of ours): point at the right file")
            return
        if version == 0:
            self._db.executescript(
                f"BEGIN; {SCHEMA} PRAGMA user_version={SCHEMA_VERSION}; COMMIT;")
        elif version == 1:
            # schema 1 had no meta table and no checksums: add them, checksumming what is there
            self._db.create_function("crc", 1, crc, deterministic=True)
            self._db.executescript(
                "BEGIN; ALTER TABLE events ADD COLUMN crc INTEGER; UPDATE events SET crc = "
                f"crc(body); {SCHEMA} PRAGMA user_version={SCHEMA_VERSION}; COMMIT;")
        if self._meta("store_id") is None:
            with self._tx():
                self._db.execute("INSERT OR IGNORE INTO meta VALUES ('store_id', ?)",
                                 (str(uuid.uuid4()),))
                self._db.execute("INSERT OR IGNORE INTO meta VALUES ('created', ?)",
                                 (str(time.time()),))

    def _meta(self, key: str) -> str | None:
        try:
            row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        except sqlite3.OperationalError:  # a schema 1 store opened read-only has no meta
            return None
        return None if row is None else str(row[0])

    @property
    def store_id(self) -> str | None:
        """A UUID made with the store: tells this store's match 3 from another store's."""
        return self._meta("store_id")

    def _tx(self) -> Any:
        return _Transaction(self._db)

    def _write(self, sql_steps: list[tuple[str, tuple[Any, ...]]]) -> sqlite3.Cursor | None:
        """Runs the statements in one transaction; the store's trouble as its type."""
        cur = None
        try:
            with self._tx():
                for sql, args in sql_steps:
                    cur = self._db.execute(sql, args)
            self._fold_log()
        except sqlite3.Error as exc:
            raise explain(exc, self.path) from exc
        return cur

    def _fold_log(self) -> None:
        """On a nearly full card the write-ahead log is folded back into the store after every
        write, and truncated, so it never needs more room than one event's pages."""
        free = _free_bytes(Path(self.path).resolve().parent)
        if free is not None and free < LOW_FREE_BYTES:
            try:
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error as exc:
                log.warning("could not fold the store's log back: %s", exc)

    # --- writing ---------------------------------------------------------------------------

    def begin_match(self, event: NewMatch, ts: float, meta: dict[str, Any] | None = None,
                    match_id: int | None = None) -> int:
        """Records a new match and its first event; any unfinished match is closed as
        abandoned (kept as history). ``match_id`` keeps a match's id when a store is rebuilt."""
        body = json.dumps({**event.to_json(), **(meta or {})})
        try:
            with self._tx():
                self._db.execute(
                    "UPDATE matches SET finished = ?, outcome = 'abandoned' WHERE finished IS NULL",
                    (ts,))
                cur = self._db.execute(
                    "INSERT INTO matches (id, started, rules, players) VALUES (?, ?, ?, ?)",
                    (match_id, ts, event.rules, json.dumps(list(event.players))))
                match_id = int(cur.lastrowid or 0)
                self._db.execute("INSERT INTO events (match_id, seq, ts, body, crc) "
                                 "VALUES (?, 0, ?, ?, ?)", (match_id, ts, body, crc(body)))
            self._fold_log()
        except sqlite3.Error as exc:
            raise explain(exc, self.path) from exc
        return match_id

    def append(self, match_id: int, event: Event, ts: float,
               meta: dict[str, Any] | None = None) -> int:
        """Appends one event and commits it; returns its sequence number in the match."""
        body = event.to_json()
        if meta:
            body.update(meta)
        text = json.dumps(body)
        try:
            with self._tx():
                seq = self._db.execute("SELECT COALESCE(MAX(seq), -1) + 1 FROM events WHERE "
                                       "match_id = ?", (match_id,)).fetchone()[0]
                self._db.execute("INSERT INTO events (match_id, seq, ts, body, crc) "
                                 "VALUES (?, ?, ?, ?, ?)", (match_id, seq, ts, text, crc(text)))
            self._fold_log()
        except sqlite3.Error as exc:
            raise explain(exc, self.path) from exc
        return int(seq)

    def reject(self, match_id: int | None, body: dict[str, Any], reason: str, ts: float) -> None:
        """Keeps a refused event for the record. Best effort: a failure here is only logged."""
        try:
            self._write([("INSERT INTO rejected (match_id, ts, body, reason) VALUES "
                          "(?, ?, ?, ?)", (match_id, ts, json.dumps(body), reason))])
        except StoreError as exc:
            log.warning("could not keep a refused event: %s", exc)

    def finish(self, match_id: int, result: dict[str, Any], ts: float,
               outcome: str = "finished") -> None:
        self._write([("UPDATE matches SET finished = ?, outcome = ?, result = ? WHERE id = ?",
                      (ts, outcome, json.dumps(result), match_id))])

    def reopen(self, match_id: int) -> None:
        """Marks a finished match as in play again (an undo or correction reopened it)."""
        self._write([("UPDATE matches SET finished = NULL, outcome = NULL, result = NULL "
                      "WHERE id = ?", (match_id,))])

    # --- reading ---------------------------------------------------------------------------

    def _read(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        try:
            return self._db.execute(sql, args).fetchall()
        except sqlite3.Error as exc:
            raise explain(exc, self.path) from exc

    def unfinished(self) -> int | None:
        rows = self._read("SELECT id FROM matches WHERE finished IS NULL ORDER BY id DESC LIMIT 1")
        return None if not rows else int(rows[0][0])

    def bodies(self, match_id: int) -> list[dict[str, Any]]:
        """The match's event bodies in order; raises :class:`StoreDamaged` if one cannot be
        read whole (see :meth:`recover` to get what can)."""
        got = self.recover(match_id)
        if got.problem is not None:
            raise StoreDamaged(f"the event store {self.path}: match {match_id} {got.problem}; "
                               "run crokiscore doctor")
        return list(got.bodies)

    def events(self, match_id: int) -> list[Event]:
        """The match's events, parsed: what the fold replays on start."""
        return self.recover(match_id, strict=True).events

    def recover(self, match_id: int, *, strict: bool = False) -> Recovered:
        """Every event of the match that can still be read whole, in order, up to the first
        that cannot (a spoilt page, a wrong checksum, a body that is no event): the fold can only
        go on from an unbroken prefix. ``strict`` raises :class:`StoreDamaged` instead."""
        bodies: list[dict[str, Any]] = []
        problem: str | None = None
        rows: list[tuple[int, str, int | None]] = []
        try:
            rows = self._db.execute(f"SELECT seq, body, {self._crc} FROM events WHERE "
                                    "match_id = ? ORDER BY seq", (match_id,)).fetchall()
        except sqlite3.DatabaseError:
            rows = self._rows_one_by_one(match_id)
            if not rows or rows[-1][0] < 0:
                problem = "has a damaged page in its events"
                rows = [r for r in rows if r[0] >= 0]
        lost = 0
        for i, (seq, text, check) in enumerate(rows):
            why = None
            if seq != i:
                why = f"is missing event {i}"
            elif check is not None and crc(text) != check:
                why = f"event {seq} does not match its checksum"
            else:
                try:
                    body = json.loads(text)
                    parse_event(body)
                except (ValueError, RecursionError, RulesError) as exc:
                    why = f"event {seq} is not an event ({exc})"
            if why is not None:
                problem = problem or why
                lost = len(rows) - i
                break
            bodies.append(body)
        if problem is not None and strict:
            raise StoreDamaged(f"the event store {self.path}: match {match_id} {problem}; move "
                               "it aside ('Repair store' in the menu, or crokiscore doctor "
                               "--repair)")
        return Recovered(match_id, tuple(bodies), lost, problem)

    def _rows_one_by_one(self, match_id: int) -> list[tuple[int, str, int | None]]:
        """When the events' pages cannot be read in one go, each row is asked for by itself;
        a row that cannot be read ends the list with a marker of seq -1."""
        out: list[tuple[int, str, int | None]] = []
        seq = 0
        while True:
            try:
                row = self._db.execute(f"SELECT seq, body, {self._crc} FROM events WHERE "
                                       "match_id = ? AND seq = ?", (match_id, seq)).fetchone()
            except sqlite3.DatabaseError:
                out.append((-1, "", None))
                return out
            if row is None:
                return out
            out.append(row)
            seq += 1

    def jsonl(self, match_id: int) -> Iterator[str]:
        """The match as JSON lines: the format ``crokiscore replay`` reads."""
        for body in self.bodies(match_id):
            yield json.dumps(body)

    def matches(self) -> list[StoredMatch]:
        rows = self._read("SELECT id, started, rules, players, finished, outcome, result "
                          "FROM matches ORDER BY id")
        out = []
        for r in rows:
            try:  # a spoilt row is shown as far as it can be, never a reason to stop
                players = tuple(str(p) for p in json.loads(r[3]))
                result = json.loads(r[6]) if r[6] else None
            except (ValueError, RecursionError, TypeError):
                players, result = (), None
            result = result if isinstance(result, dict) else None
            out.append(StoredMatch(r[0], r[1], r[2], players, r[4], r[5], result))
        return out

    def rejected(self, match_id: int | None = None) -> list[tuple[dict[str, Any], str]]:
        rows = self._read("SELECT body, reason FROM rejected WHERE ? IS NULL OR match_id = ? "
                          "ORDER BY id", (match_id, match_id))
        return [(json.loads(b), r) for b, r in rows]

    def structure(self) -> str:
        """SQLite's integrity check of the file ('ok' or the problems), run at every start so a
        spoilt page is found before the box writes beside it. Not its quick check: that one
        does not compare the indexes with the table, and a spoilt index is as spoilt (a store
        of 60 matches takes 2 ms; a year of a club's matches some hundred)."""
        try:
            rows = self._db.execute("PRAGMA integrity_check").fetchall()
        except sqlite3.Error as exc:
            return str(exc)
        return "; ".join(str(r[0]) for r in rows)

    def integrity(self) -> str:
        """SQLite's own check and every event's checksum: 'ok' or the problems found."""
        try:
            rows = self._db.execute("PRAGMA integrity_check").fetchall()
        except sqlite3.Error as exc:
            return str(exc)
        verdict = "; ".join(r[0] for r in rows)
        if verdict != "ok":
            return verdict
        bad = []
        try:
            for match_id, seq, text, check in self._db.execute(
                    f"SELECT match_id, seq, body, {self._crc} FROM events"):
                if check is not None and crc(text) != check:
                    bad.append(f"match {match_id} event {seq}")
        except sqlite3.Error as exc:
            return str(exc)
        if bad:
            more = f" and {len(bad) - 3} more" if len(bad) > 3 else ""
            return f"checksum wrong for {', '.join(bad[:3])}{more}"
        return "ok"

    # --- lifecycle -------------------------------------------------------------------------

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._db.close()
        if self._look is not None:
            self._look.close()

    def __enter__(self) -> EventStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass(frozen=True)
class Rebuilt:
    """What :func:`rebuild` did: where the damaged file went, and what it could keep."""

    moved_to: Path
    matches: int = 0
    events: int = 0
    lost: int = 0
    problems: tuple[str, ...] = ()


def rebuild(path: str | Path, now: float | None = None, skip: int | None = None) -> Rebuilt:
    """Moves a damaged store aside and writes a new one with every match that can still be read
    (each as far as its events go unbroken, ids kept); ``skip`` is a match left out (the box
    writes the one it holds in memory itself). The damaged file is kept for recovery."""
    kept: list[tuple[StoredMatch, Recovered]] = []
    problems: list[str] = []
    try:
        with EventStore(path, read_only=True) as old:
            for record in old.matches():
                if record.id == skip:
                    continue
                got = old.recover(record.id)
                if got.problem:
                    problems.append(f"match {record.id} {got.problem}")
                if got.bodies:
                    kept.append((record, got))
    except StoreError as exc:
        problems.append(str(exc))
    moved = move_aside(path, now)
    events = lost = 0
    with EventStore(path) as new:
        for record, got in kept:
            first, *rest = got.bodies
            meta = {k: v for k, v in first.items() if k in _META}
            try:
                start = parse_event(first)
                assert isinstance(start, NewMatch)
                match_id = new.begin_match(start, record.started, meta, match_id=record.id)
                for body in rest:
                    ev = parse_event(body)
                    ts = body.get("ts", record.started)
                    new.append(match_id, ev, ts if isinstance(ts, int | float) else record.started,
                               {k: v for k, v in body.items() if k in _META})
                events += len(got.bodies)
                lost += got.lost
                if record.finished is not None:
                    new.finish(match_id, record.result or {}, record.finished,
                               record.outcome or "finished")
            except (RulesError, AssertionError) as exc:
                problems.append(f"match {record.id} could not be kept: {exc}")
    return Rebuilt(moved, len(kept), events, lost, tuple(problems))


def move_aside(path: str | Path, now: float | None = None) -> Path:
    """Renames a damaged store (and its log files) out of the way, keeping it for recovery;
    returns the new name."""
    p = Path(path)
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
    target = p.with_name(f"{p.name}.damaged-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = p.with_name(f"{p.name}.damaged-{stamp}-{n}")
    for suffix in ("", "-wal", "-shm"):
        src = Path(str(p) + suffix)
        if src.exists():
            try:
                src.rename(Path(str(target) + suffix))
            except OSError as exc:
                raise explain(exc, str(p)) from exc
    return target


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
            try:
                self.db.execute("ROLLBACK")
            except sqlite3.Error as exc:  # the original error is the one worth reporting
                log.warning("rolling back: %s", exc)
