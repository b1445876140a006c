"""The box's publisher against a real broker: in order, exactly where it left off after a
restart, never holding up the caller, again on the hub's request, with logins and TLS."""

from __future__ import annotations

import json
import subprocess
import threading
import time
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest

from device.club.doctor import check, reach
from device.club.publisher import Publisher
from device.club.settings import parse_club
from device.club.snapshot import BoardSnapshot
from device.club.topics import MatchKey, Resend, dumps
from device.errors import DeviceError
from device.store import EventStore
from rules import Match, NewMatch, Shot
from tests.club.mosquitto import Mosquitto
from tests.club.parts import Relay, until

START = NewMatch("tournament-singles", ("Ann", "Bob"))


class Listener:
    """A club member's client: everything on the club's topics, in arrival order."""

    def __init__(self, port: int, topic: str = "crokiscore/#") -> None:
        self.got: list[tuple[str, bytes, bool]] = []
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2,
                                  client_id=f"listener-{id(self)}")
        self.client.on_message = lambda c, u, m: self.got.append((m.topic, m.payload, m.retain))
        ready = threading.Event()
        self.client.on_subscribe = lambda *a: ready.set()
        self.client.on_connect = lambda c, *a: c.subscribe(topic, 1)
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        assert ready.wait(10)

    def seqs(self, board: str = "board-1") -> list[int]:
        return [json.loads(p)["seq"] for t, p, _ in self.got
                if t == f"crokiscore/elmira/{board}/event"]

    def last(self, kind: str, board: str = "board-1") -> bytes | None:
        found = [p for t, p, _ in self.got if t == f"crokiscore/elmira/{board}/{kind}"]
        return found[-1] if found else None

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def settings(address: str, **more: object):  # type: ignore[no-untyped-def]
    return parse_club({"broker": address, "club": "elmira", "board": "board-1",
                       "keepalive_s": 2, **more})


def shots(store: EventStore, match_id: int, n: int) -> None:
    for i in range(n):
        store.append(match_id, Shot(i % 2), time.time())


def test_in_order_then_on_from_the_receipts_after_a_restart(broker: Mosquitto,
                                                            tmp_path: Path) -> None:
    store = EventStore(tmp_path / "e.db")
    mid = store.begin_match(START, time.time())
    shots(store, mid, 6)
    listener = Listener(broker.port)
    try:
        with Publisher(settings(broker.address), store.path) as pub:
            pub.start()
            until(lambda: listener.seqs() == list(range(7)), 10, "events 0 to 6 in order")
            pub.state(BoardSnapshot(mid, Match.start(START), ("camera lost",)))
            until(lambda: listener.last("state"), 10, "the state")
            until(lambda: pub.unsent() == 0, 10, "every receipt")
        state = json.loads(listener.last("state") or b"{}")
        assert (state["match_id"], state["seq"], state["players"]) == (mid, 6, ["Ann", "Bob"])
        assert state["faults"] == ["camera lost"] and state["shooter"] == "Ann"
        assert json.loads(listener.last("link") or b"{}")["online"] is False   # closed cleanly
        shots(store, mid, 3)
        with Publisher(settings(broker.address), store.path) as pub:
            pub.start()
            until(lambda: len(listener.seqs()) == 10, 10, "the three new events")
        assert listener.seqs() == list(range(10))   # nothing twice
        event = json.loads(next(p for t, p, _ in listener.got if t.endswith("/event")))
        assert event["started"] == store.matches()[0].started and event["board"] == "board-1"
    finally:
        listener.close()
        store.close()


def test_the_first_start_leaves_the_history_out(broker: Mosquitto, tmp_path: Path) -> None:
    store = EventStore(tmp_path / "e.db")
    old = store.begin_match(START, time.time())
    shots(store, old, 2)
    store.finish(old, {}, time.time())
    new = store.begin_match(START, time.time())
    shots(store, new, 1)
    listener = Listener(broker.port)
    try:
        with Publisher(settings(broker.address, board="board-2"), store.path) as pub:
            pub.start()
            until(lambda: len(listener.seqs("board-2")) == 2, 10, "the match in play")
        ids = {json.loads(p)["match_id"] for t, p, _ in listener.got if t.endswith("/event")}
        assert ids == {new}
    finally:
        listener.close()
        store.close()


def test_the_callers_never_wait_for_a_stalled_network(broker: Mosquitto, tmp_path: Path) -> None:
    relay = Relay(broker.port)
    store = EventStore(tmp_path / "e.db")
    mid = store.begin_match(START, time.time())
    listener = Listener(broker.port)
    try:
        with Publisher(settings(relay.address, board="board-3"), store.path) as pub:
            pub.start()
            until(lambda: pub.connected, 10, "the connection")
            relay.stall()
            match = Match.start(START)

            def main_loop() -> None:   # what the daemon does after each committed event
                for _ in range(300):
                    store.append(mid, Shot(0), time.time())
                    pub.committed(mid)
                    pub.state(BoardSnapshot(mid, match, ()))
                    pub.status()

            loop = threading.Thread(target=main_loop)
            loop.start()
            loop.join(30)
            assert not loop.is_alive(), "the calls waited for the network"
            relay.flow()
            until(lambda: len(listener.seqs("board-3")) == 301, 20, "all 301 events")
        assert listener.seqs("board-3") == list(range(301))
    finally:
        listener.close()
        relay.close()
        store.close()


def test_a_match_sent_again_when_the_hub_asks(broker: Mosquitto, tmp_path: Path) -> None:
    store = EventStore(tmp_path / "e.db")
    mid = store.begin_match(START, time.time())
    shots(store, mid, 5)
    listener = Listener(broker.port)
    try:
        with Publisher(settings(broker.address, board="board-4"), store.path) as pub:
            pub.start()
            until(lambda: len(listener.seqs("board-4")) == 6, 10, "the match")
            key = MatchKey("board-4", mid, store.matches()[0].started)
            listener.client.publish("crokiscore/elmira/board-4/resend",
                                    dumps(Resend(key, 3).to_json()), qos=1)
            until(lambda: len(listener.seqs("board-4")) == 9, 10, "events 3 to 5 again")
            wrong = MatchKey("board-4", mid, 12.0)   # another store's match 1
            listener.client.publish("crokiscore/elmira/board-4/resend",
                                    dumps(Resend(wrong, 0).to_json()), qos=1)
            listener.client.publish("crokiscore/elmira/board-4/resend",
                                    dumps(Resend(key, 5).to_json()), qos=1)
            until(lambda: len(listener.seqs("board-4")) == 10, 10, "event 5 again")
        assert listener.seqs("board-4") == [0, 1, 2, 3, 4, 5, 3, 4, 5, 5]
    finally:
        listener.close()
        store.close()


def test_logins_refused_and_accepted(tmp_path: Path) -> None:
    passwords = tmp_path / "passwords"
    subprocess.run(["mosquitto_passwd", "-b", "-c", str(passwords), "board-1", "right horse"],
                   check=True, capture_output=True)
    passwords.chmod(0o600)
    with Mosquitto(folder=tmp_path / "b", anonymous=False,
                   extra=f"password_file {passwords}\n") as broker:
        store = EventStore(tmp_path / "e.db")
        store.begin_match(START, time.time())
        wrong = settings(broker.address, username="board-1", password="wrong horse")
        with Publisher(wrong, store.path) as pub:
            pub.start()
            until(lambda: pub.status() == "club: login refused", 10, "the refusal in words")
        with pytest.raises(DeviceError, match="login refused as board-1"):
            reach(wrong)
        right = settings(broker.address, username="board-1", password="right horse")
        with Publisher(right, store.path) as pub:
            pub.start()
            until(lambda: pub.connected and pub.unsent() == 0 and pub.acknowledged, 10,
                  "the match event acknowledged")
            assert pub.status() is None
        found = check(right, store.path)
        assert "reached as board-1" in str(found) and "every event acknowledged" in str(found)
        store.close()


def openssl(*args: str) -> None:
    subprocess.run(["openssl", *args], check=True, capture_output=True)


def test_tls_with_the_clubs_own_certificate_authority(tmp_path: Path) -> None:
    ca_key, ca, key, csr, cert = (tmp_path / n for n in ("ca.key", "ca.crt", "broker.key",
                                                          "broker.csr", "broker.crt"))
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj",
            "/CN=club CA", "-keyout", str(ca_key), "-out", str(ca))
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-keyout",
            str(key), "-out", str(csr))
    ext = tmp_path / "ext"
    ext.write_text("subjectAltName=DNS:localhost,IP:127.0.0.1\n")
    openssl("x509", "-req", "-in", str(csr), "-CA", str(ca), "-CAkey", str(ca_key),
            "-CAcreateserial", "-days", "2", "-extfile", str(ext), "-out", str(cert))
    with Mosquitto(folder=tmp_path / "b", extra=f"cafile {ca}\ncertfile {cert}\n"
                   f"keyfile {key}\n") as broker:
        store = EventStore(tmp_path / "e.db")
        store.begin_match(START, time.time())
        good = settings(broker.address, ca_file=str(ca))
        assert good.broker.tls
        with Publisher(good, store.path) as pub:
            pub.start()
            until(lambda: pub.connected and pub.acknowledged, 10, "a TLS connection")
        assert "TLS" in str(check(good, store.path))
        stranger = tmp_path / "other.crt"
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj",
                "/CN=not the club", "-keyout", str(tmp_path / "other.key"), "-out",
                str(stranger))
        with pytest.raises(DeviceError, match="TLS with the club's broker"):
            reach(settings(broker.address, ca_file=str(stranger)))
        store.close()


def test_the_doctor_says_when_the_broker_is_not_there(tmp_path: Path) -> None:
    from tests.club.mosquitto import free_port

    with pytest.raises(DeviceError, match=r"cannot reach the club's broker 127\.0\.0\.1:"):
        reach(settings(f"127.0.0.1:{free_port()}"))
