"""The box's side of the club network: a thread that publishes the store to the club's broker.

The main loop never waits for the network. It makes two calls, both of which only note something
under a lock and wake the publisher's thread: :meth:`Publisher.committed` ("the store has new
events for this match") and :meth:`Publisher.state` ("the board changed"). The thread reads the
committed events from the store itself, on its own read-only connection, and hands them to
paho-mqtt at QoS 1 in order; paho keeps what the broker has not acknowledged and sends it again
after a reconnection. Each PUBACK is written down as a receipt (device.club.outbox), so after a
restart of the box the thread starts right after the last event the broker acknowledged.

What a broker loses (a broker killed before it saved) is filled in end to end: the hub sees a gap
in a match's sequence numbers (or the retained state names a later event than it has) and asks for
the match again from that number on the board's ``resend`` topic.

Assignments from the organiser arrive on the board's ``assign`` topic and are handed to
``on_assignment`` in paho's thread: it must only queue them (the daemon puts them on its input
queue).
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

from device.club.errors import MessageError
from device.club.outbox import Receipts, StoreReader, receipts_path
from device.club.settings import Broker, ClubSettings
from device.club.snapshot import BoardSnapshot, state_json
from device.club.topics import (
    VERSION,
    Assignment,
    EventMessage,
    MatchKey,
    Resend,
    Topics,
    dumps,
    parse_assignment,
    parse_resend,
)

log = logging.getLogger(__name__)

MAX_PICTURE_BYTES = 400_000
PICTURE_WIDTH = 1280
Key = tuple[int, float]  # (store match id, its start)


def make_client(broker: Broker, client_id: str, clean: bool = True) -> mqtt.Client:
    """A paho client with the club's credentials and TLS, not yet connected."""
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id,
                         clean_session=clean, protocol=mqtt.MQTTv311)
    if broker.username is not None:
        client.username_pw_set(broker.username, broker.password)
    if broker.tls:
        client.tls_set(ca_certs=broker.ca_file, certfile=broker.cert_file,
                       keyfile=broker.key_file)
    client.reconnect_delay_set(1, 10)
    return client


def refusal(reason: Any) -> str:
    """A CONNACK refusal in words."""
    text = str(reason).lower()
    if "not authori" in text or "bad user" in text or "password" in text:
        return "login refused"
    return f"refused: {reason}"


class Publisher:
    def __init__(self, settings: ClubSettings, store: str, *,
                 on_assignment: Callable[[Assignment | None], None] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.settings = settings
        self.board = settings.board
        self.topics = Topics(settings.prefix, settings.club)
        self.store_path = store
        self.receipts_path = receipts_path(store, settings.receipts)
        self.on_assignment = on_assignment
        self.clock = clock
        self._cv = threading.Condition()
        self._stop = False
        self._wanted: set[int] = set()
        self._snapshot: BoardSnapshot | None = None
        self._state_due = False
        self._resends: list[Resend] = []
        self._acks: queue.SimpleQueue[int] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self.connected = False
        self.problem: str | None = "connecting"
        self.started_at = clock()
        self.drain_s = 2.0
        # owned by the publisher's thread
        self._sent: dict[Key, int] = {}
        self._acked: dict[Key, int] = {}
        self._early: dict[Key, set[int]] = {}
        self._pending: dict[int, tuple[Key, int]] = {}
        self._starts: dict[int, float] = {}
        self._picture: str | None = None
        self._picture_due = False
        self.published = 0      # events handed to the broker (resent ones included)
        self.acknowledged = 0   # PUBACKs for events
        self.client = make_client(settings.broker, settings.broker.client_id)
        self.client.will_set(self.topics.of(self.board, "link"),
                             dumps({"v": VERSION, "online": False}), qos=1, retain=True)
        self.client.on_connect = self._on_connect
        self.client.on_connect_fail = self._on_connect_fail
        self.client.on_disconnect = self._on_disconnect
        self.client.on_publish = self._on_publish
        self.client.on_message = self._on_message

    # --- the main loop's calls: note, wake, return ----------------------------------------------

    def committed(self, match_id: int) -> None:
        """The store has new events for ``match_id``."""
        with self._cv:
            self._wanted.add(match_id)
            self._cv.notify()

    def state(self, snapshot: BoardSnapshot) -> None:
        """The board changed; only the latest state is ever sent."""
        with self._cv:
            self._snapshot = snapshot
            self._state_due = True
            self._cv.notify()

    def status(self) -> str | None:
        """The link in words for the display, or None while all is well."""
        if self.connected:
            return None
        if self.problem == "connecting":
            return "club: connecting"
        if self.problem == "login refused":
            return "club: login refused"
        return "club offline"

    def describe(self) -> str:
        """The link in a sentence, for the doctor and the journal."""
        b = self.settings.broker
        unsent = self.unsent()
        held = f"; {unsent} event(s) not yet acknowledged" if unsent else ""
        if self.connected:
            return f"publishing to {b.address} as {b.client_id}{held}"
        return f"not connected to {b.address} ({self.problem}){held}"

    def unsent(self) -> int:
        """Events committed and not yet acknowledged by the broker (as far as this thread has
        read the store)."""
        return sum(max(0, s - self._acked.get(k, -1)) for k, s in list(self._sent.items()))

    # --- lifecycle ------------------------------------------------------------------------------

    def start(self) -> None:
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name="club publisher", daemon=True)
        self._thread.start()

    def close(self, timeout: float = 3.0) -> None:
        """Stops the thread; while connected it first waits (up to ``drain_s``) for the broker to
        acknowledge what was sent, so a clean stop leaves nothing to send again."""
        with self._cv:
            self._stop = True
            self._cv.notify()
        if self._thread is not None:
            self._thread.join(timeout + self.drain_s)
            self._thread = None

    def __enter__(self) -> Publisher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- paho's thread: note and wake ---------------------------------------------------------

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                    properties: Any) -> None:
        if reason.is_failure:
            self.problem = refusal(reason)
            log.warning("the broker %s refused the board: %s", self.settings.broker.address,
                        reason)
            return
        log.info("connected to the club's broker %s as %s", self.settings.broker.address,
                 self.settings.broker.client_id)
        client.subscribe([(self.topics.of(self.board, "assign"), 1),
                          (self.topics.of(self.board, "resend"), 1)])
        client.publish(self.topics.of(self.board, "link"),
                       dumps({"v": VERSION, "online": True, "ts": round(time.time(), 3)}),
                       qos=1, retain=True)
        with self._cv:
            self.connected = True
            self.problem = None
            self._state_due = self._snapshot is not None
            self._picture_due = self._picture is not None
            self._cv.notify()

    def _on_connect_fail(self, client: mqtt.Client, userdata: Any) -> None:
        if self.problem != "login refused":
            self.problem = "unreachable"

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                       properties: Any) -> None:
        if self.connected:
            log.warning("lost the club's broker %s: %s", self.settings.broker.address, reason)
        self.connected = False
        if self.problem is None:
            self.problem = "offline"

    def _on_publish(self, client: mqtt.Client, userdata: Any, mid: int, reason: Any,
                    properties: Any) -> None:
        self._acks.put(mid)
        with self._cv:
            self._cv.notify()

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        where = self.topics.split(msg.topic)
        if where is None or where[0] != self.board:
            return
        try:
            if where[1] == "assign":
                assignment = parse_assignment(self.board, msg.payload)
                log.info("the club assigns the next match: %s", assignment)
                if self.on_assignment is not None:
                    self.on_assignment(assignment)
            elif where[1] == "resend":
                resend = parse_resend(self.board, msg.payload)
                with self._cv:
                    self._resends.append(resend)
                    self._cv.notify()
        except MessageError as exc:
            log.warning("ignored a message on %s: %s", msg.topic, exc)

    # --- the publisher's thread ---------------------------------------------------------------

    def _run(self) -> None:
        reader: StoreReader | None = None
        receipts: Receipts | None = None
        try:
            reader = StoreReader(self.store_path)
            try:
                receipts = Receipts(self.receipts_path)
            except Exception as exc:  # publishing goes on, receipts in memory
                log.error("cannot keep the club's receipts in %s (%s): after a restart the "
                          "matches are sent again", self.receipts_path, exc)
            self._catch_up(reader, receipts)
            b = self.settings.broker
            self.client.connect_async(b.host, b.port, keepalive=b.keepalive_s)
            self.client.loop_start()
            self._serve(reader, receipts)
        except Exception:
            log.exception("the club publisher stopped")
            self.problem = "stopped"
        finally:
            self._goodbye()
            if reader is not None:
                reader.close()
            if receipts is not None:
                receipts.close()

    def _catch_up(self, reader: StoreReader, receipts: Receipts | None) -> None:
        """Where to start: after the receipts; on the very first start, finished matches (the
        history before the club) are left out and the match in play is sent from its start."""
        last = reader.last_seqs()
        if receipts is not None:
            self._acked = receipts.all()
            if receipts.fresh:
                done = reader.finished()
                history = {(m, s): q for m, (s, q) in last.items() if m in done}
                receipts.save(history)
                self._acked.update(history)
        self._sent = dict(self._acked)
        for match_id, (started, seq) in last.items():
            self._starts[match_id] = started
            if seq > self._acked.get((match_id, started), -1):
                self._wanted.add(match_id)

    def _serve(self, reader: StoreReader, receipts: Receipts | None) -> None:
        while True:
            with self._cv:
                self._cv.wait_for(lambda: self._stop or self._wanted or self._resends
                                  or (self._state_due and self.connected)
                                  or (self._picture_due and self.connected)
                                  or not self._acks.empty(), timeout=1.0)
                if self._stop:
                    break
                wanted, self._wanted = self._wanted, set()
                resends, self._resends = self._resends, []
                snapshot = self._snapshot if self._state_due and self.connected else None
                if snapshot is not None:
                    self._state_due = False
                picture = self._picture_due and self.connected
                self._picture_due = False
            self._take_acks(receipts)
            for r in resends:
                self._resend(reader, r)
            for match_id in sorted(wanted):
                self._publish_new(reader, match_id)
            if snapshot is not None:
                self._publish_state(reader, snapshot)
            if picture or (self._picture_due and self.connected):
                self._picture_due = False
                self._publish_picture()
        self._drain(reader, receipts)

    def _drain(self, reader: StoreReader, receipts: Receipts | None) -> None:
        """On a clean stop: what the store holds is sent, and its receipts waited for."""
        with self._cv:
            wanted, self._wanted = self._wanted, set()
            snapshot = self._snapshot if self._state_due and self.connected else None
        for match_id in sorted(wanted):
            self._publish_new(reader, match_id)
        if snapshot is not None:
            self._publish_state(reader, snapshot)
        deadline = self.clock() + self.drain_s
        while self.connected and self.clock() < deadline:
            self._take_acks(receipts)
            if not self._pending:
                break
            with self._cv:
                self._cv.wait(0.05)
        self._take_acks(receipts)

    def _publish_state(self, reader: StoreReader, snapshot: BoardSnapshot) -> None:
        started = self._started(reader, snapshot.match_id)
        seq = -1 if started is None else self._sent.get((snapshot.match_id, started), -1)
        self.client.publish(self.topics.of(self.board, "state"),
                            dumps(state_json(snapshot, self.board, started, seq)),
                            qos=1, retain=True)

    def _started(self, reader: StoreReader, match_id: int | None) -> float | None:
        if match_id is None:
            return None
        if match_id not in self._starts:
            started = reader.started(match_id)
            if started is None:
                return None
            self._starts[match_id] = started
        return self._starts[match_id]

    def _send(self, key: Key, seq: int, ts: float, body: dict[str, Any]) -> None:
        msg = EventMessage(MatchKey(self.board, key[0], key[1]), seq, ts, body)
        info = self.client.publish(self.topics.of(self.board, "event"), dumps(msg.to_json()),
                                   qos=1)
        self._pending[info.mid] = (key, seq)
        self.published += 1
        if isinstance(body.get("picture"), str):
            self._picture = body["picture"]
            self._picture_due = True

    def _publish_new(self, reader: StoreReader, match_id: int) -> None:
        started = self._started(reader, match_id)
        if started is None:
            return
        key = (match_id, started)
        last = self._sent.get(key, -1)
        while rows := reader.events_after(match_id, last):
            for ev in rows:
                self._send(key, ev.seq, ev.ts, ev.body)
                last = ev.seq
            self._sent[key] = last

    def _resend(self, reader: StoreReader, r: Resend) -> None:
        started = self._started(reader, r.key.match_id)
        if started is None or f"{started:.3f}" != f"{r.key.started:.3f}":
            log.warning("the hub asks for match %d started %.3f, which this store does not have",
                        r.key.match_id, r.key.started)
            return
        key = (r.key.match_id, started)
        upto = self._sent.get(key, -1)
        last = r.start - 1
        log.info("sending match %d again from event %d (asked by the hub)", key[0], r.start)
        while last < upto and (rows := reader.events_after(key[0], last)):
            for ev in rows:
                if ev.seq > upto:
                    return
                self._send(key, ev.seq, ev.ts, ev.body)
                last = ev.seq

    def _take_acks(self, receipts: Receipts | None) -> None:
        changed: dict[Key, int] = {}
        while True:
            try:
                mid = self._acks.get_nowait()
            except queue.Empty:
                break
            what = self._pending.pop(mid, None)
            if what is None:
                continue  # the state, the link, a picture
            key, seq = what
            self.acknowledged += 1
            acked = self._acked.get(key, -1)
            if seq <= acked:
                continue
            early = self._early.setdefault(key, set())
            early.add(seq)
            while acked + 1 in early:
                acked += 1
                early.discard(acked)
            if acked != self._acked.get(key, -1):
                self._acked[key] = changed[key] = acked
        if receipts is not None and changed:
            try:
                receipts.save(changed)
            except Exception as exc:  # kept in memory; at worst sent again
                log.warning("cannot write the club's receipts: %s", exc)

    def _publish_picture(self) -> None:
        path = self._picture
        if path is None:
            return
        try:
            data = picture_bytes(Path(path))
        except OSError as exc:
            log.warning("cannot send the board picture %s: %s", path, exc)
            return
        self.client.publish(self.topics.of(self.board, "picture"), data, qos=1, retain=True)

    def _goodbye(self) -> None:
        """A clean stop says offline itself (the broker only sends the will for a lost box)."""
        try:
            if self.connected:
                info = self.client.publish(self.topics.of(self.board, "link"),
                                           dumps({"v": VERSION, "online": False,
                                                  "ts": round(time.time(), 3)}),
                                           qos=1, retain=True)
                info.wait_for_publish(1.0)
            self.connected = False
            self.client.disconnect()
        except Exception as exc:  # closing must not fail
            log.debug("closing the club link: %s", exc)
        finally:
            self.client.loop_stop()
            self.connected = False


def picture_bytes(path: Path) -> bytes:
    """The picture as JPEG, made smaller when it is large (the page shows it a few hundred
    pixels wide; a broker need not carry a camera's full frame)."""
    data = path.read_bytes()
    if data.startswith(b"\xff\xd8") and len(data) <= MAX_PICTURE_BYTES:
        return data
    import io

    from PIL import Image

    with Image.open(io.BytesIO(data)) as im:
        im = im.convert("RGB")
        im.thumbnail((PICTURE_WIDTH, PICTURE_WIDTH))
        out = io.BytesIO()
        im.save(out, "JPEG", quality=80)
    return out.getvalue()
