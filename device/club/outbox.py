"""What the publisher reads and remembers: the store's events, and the broker's receipts.

The event store is the outbox: the publisher reads committed events from it on its own read-only
connection (the daemon's main loop keeps writing on its own), so nothing is copied and nothing can
be published that was not committed. The receipts are the publisher's own small SQLite file: per
match, the highest sequence number up to which the broker has acknowledged every event (QoS 1
PUBACK). After a restart the publisher resumes right after it; an event that was sent but whose
receipt was not yet written is sent again, which the hub recognises by (board, match, seq).
"""

from __future__ import annotations

import json
import logging
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class StoredEvent:
    match_id: int
    seq: int
    ts: float
    body: dict[str, Any]


class StoreReader:
    """Read-only queries on the daemon's event store (schema in device/store.py)."""

    def __init__(self, path: str) -> None:
        uri = f"{Path(path).resolve().as_uri()}?mode=ro"
        self._db = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA query_only=ON")

    def started(self, match_id: int) -> float | None:
        row = self._db.execute("SELECT started FROM matches WHERE id = ?",
                               (match_id,)).fetchone()
        return None if row is None else float(row[0])

    def events_after(self, match_id: int, seq: int, limit: int = 200) -> list[StoredEvent]:
        rows = self._db.execute("SELECT seq, ts, body FROM events WHERE match_id = ? AND seq > ? "
                                "ORDER BY seq LIMIT ?", (match_id, seq, limit)).fetchall()
        return [StoredEvent(match_id, int(s), float(t), json.loads(b)) for s, t, b in rows]

    def last_seqs(self) -> dict[int, tuple[float, int]]:
        """Every match: its start and its latest sequence number."""
        rows = self._db.execute("SELECT m.id, m.started, MAX(e.seq) FROM matches m JOIN events e "
                                "ON e.match_id = m.id GROUP BY m.id").fetchall()
        return {int(i): (float(s), int(q)) for i, s, q in rows}

    def finished(self) -> set[int]:
        rows = self._db.execute("SELECT id FROM matches WHERE finished IS NOT NULL").fetchall()
        return {int(r[0]) for r in rows}

    def close(self) -> None:
        self._db.close()


class Receipts:
    """Per match (store id and start), the sequence number the broker has acknowledged up to."""

    def __init__(self, path: str) -> None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        # a receipt lost in a power cut only means an event sent again, which the hub ignores
        self._db.execute("PRAGMA synchronous=NORMAL")
        self.fresh = self._db.execute(
            "SELECT name FROM sqlite_master WHERE name = 'receipts'").fetchone() is None
        self._db.execute("CREATE TABLE IF NOT EXISTS receipts (match_id INTEGER NOT NULL, "
                         "started REAL NOT NULL, acked INTEGER NOT NULL, "
                         "PRIMARY KEY (match_id, started))")

    def all(self) -> dict[tuple[int, float], int]:
        rows = self._db.execute("SELECT match_id, started, acked FROM receipts").fetchall()
        return {(int(m), float(s)): int(a) for m, s, a in rows}

    def save(self, acked: dict[tuple[int, float], int]) -> None:
        if not acked:
            return
        self._db.execute("BEGIN")
        self._db.executemany("INSERT INTO receipts (match_id, started, acked) VALUES (?, ?, ?) "
                             "ON CONFLICT (match_id, started) DO UPDATE SET acked = "
                             "MAX(acked, excluded.acked)",
                             [(m, s, a) for (m, s), a in acked.items()])
        self._db.execute("COMMIT")

    def close(self) -> None:
        self._db.close()


def receipts_path(store: str, configured: str | None) -> str:
    """``[club] receipts``, or ``club-receipts.db`` beside the store."""
    if configured:
        return configured
    return str(Path(store).with_name(Path(store).stem + "-club-receipts.db"))
