"""The doctor's look at the club link: can the box reach its broker, as whom, and what is left
to send. It never creates a file: the receipts are read only if they exist."""

from __future__ import annotations

import contextlib
import sqlite3
import ssl
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from device.club.outbox import receipts_path
from device.club.publisher import make_client, refusal
from device.club.settings import ClubSettings
from device.errors import DeviceError

if TYPE_CHECKING:
    from device.commands.doctor import Caution


def reach(settings: ClubSettings, timeout: float = 5.0) -> str:
    """Connects once (under its own client id, so a running box keeps its session)."""
    b = settings.broker
    client = make_client(b, f"{b.client_id}-doctor")
    answer: dict[str, Any] = {}
    client.on_connect = lambda c, u, f, reason, p: answer.setdefault("reason", reason)
    who = f" as {b.username}" if b.username else ""
    try:
        client.connect(b.host, b.port, keepalive=b.keepalive_s)
    except ssl.SSLError as exc:
        raise DeviceError(f"TLS with the club's broker {b.address} failed: {exc.reason or exc}; "
                          "check [club] ca_file (the broker's CA) and cert_file/key_file") from None
    except OSError as exc:
        raise DeviceError(f"cannot reach the club's broker {b.address}: {exc.strerror or exc}; "
                          "check [club] broker, the network, and that Mosquitto runs there") \
            from None
    try:
        deadline = time.monotonic() + timeout
        while "reason" not in answer and time.monotonic() < deadline:
            client.loop(0.1)
    finally:
        client.disconnect()
    reason = answer.get("reason")
    if reason is None:
        raise DeviceError(f"the club's broker {b.address} did not answer within {timeout:.0f} s")
    if reason.is_failure:
        raise DeviceError(f"the club's broker {b.address} {refusal(reason)}{who}: check "
                          "[club] username and password (and the broker's acl)")
    tls = ", TLS" if b.tls else ""
    return f"broker {b.address} reached{who}{tls}; topics {settings.prefix}/{settings.club}/" \
           f"{settings.board}/"


def unacknowledged(store: str, settings: ClubSettings) -> int | None:
    """Events in the store the broker has not acknowledged (None: nothing published yet)."""
    path = Path(receipts_path(store, settings.receipts))
    if not path.is_file() or not Path(store).is_file():
        return None

    def ro(p: Path) -> sqlite3.Connection:
        wal = Path(str(p) + "-wal").exists()
        return sqlite3.connect(f"{p.resolve().as_uri()}?mode=ro" + ("" if wal else
                                                                     "&immutable=1"), uri=True)

    with contextlib.closing(ro(path)) as receipts, contextlib.closing(ro(Path(store))) as events:
        acked = {(m, f"{s:.3f}"): a for m, s, a in receipts.execute(
            "SELECT match_id, started, acked FROM receipts")}
        last = events.execute("SELECT m.id, m.started, MAX(e.seq) FROM matches m JOIN events e "
                              "ON e.match_id = m.id GROUP BY m.id").fetchall()
    return sum(max(0, q - acked.get((m, f"{s:.3f}"), -1)) for m, s, q in last)


def check(settings: ClubSettings, store: str) -> str | Caution:
    from device.commands.doctor import Caution

    found = reach(settings)
    left = unacknowledged(store, settings)
    if left is None:
        return f"{found}; nothing published yet"
    if left:
        return Caution(f"{found}; {left} event(s) of the store not yet acknowledged (the "
                       "service sends them when it runs)")
    return f"{found}; every event acknowledged"
