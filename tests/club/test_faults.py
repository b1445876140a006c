"""Faults on the way: the broker killed and started again mid-match, the broker's port closed for
a whole round, a box killed while publishing, and messages that are not ours. Each time the hub
ends with every event exactly once and the right result."""

from __future__ import annotations

import logging
import signal
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest

from tests.club.mosquitto import Mosquitto
from tests.club.parts import (
    MATCHES,
    FedBox,
    HubThread,
    Relay,
    box_config,
    box_events,
    box_process,
    box_toml,
    hub_events,
    hub_settings,
    until,
)

LOG = MATCHES / "tournament-singles.jsonl"   # 80 events, four rounds of 16 shots


def finished_result(hub: HubThread, board: str) -> dict:
    rows = until(lambda: [r for r in hub.get("/api/matches?finished=1") if r["board"] == board],
                 20, f"{board}'s finished match at the hub")
    summary = rows[0]["summary"]
    summary.pop("stats")
    return summary


def same_events(tmp: Path, box: FedBox | Path, board: str) -> None:
    store = Path(box.config.store) if isinstance(box, FedBox) else box
    assert hub_events(tmp / "club.db", board) == box_events(store)


def test_broker_killed_and_restarted_mid_match(tmp_path: Path) -> None:
    broker = Mosquitto(folder=tmp_path / "broker").start()
    try:
        with HubThread(hub_settings(tmp_path, broker.address)) as hub, \
                FedBox(box_config(tmp_path, broker.address, "board-1"), LOG) as box:
            box.start(events=30)
            until(lambda: hub.events() == 31, 20, "the first 31 events at the hub")
            broker.kill()
            until(lambda: box.daemon.club.status() is not None, 20, "the box to see it")
            box.feed_more(55)    # scoring goes on with the broker gone
            assert box.app.match.depth == 55
            assert box.daemon.club.unsent() > 0
            assert "not yet acknowledged" in box.daemon.club.describe()
            until(lambda: box.app.faults.get("club") == "club offline", 10, "the OLED to say so")
            broker.restart()
            box.feed_more()
            total = len(box_events(Path(box.config.store)))
            until(lambda: hub.events() == total, 40, f"all {total} events at the hub")
            until(lambda: box.daemon.club.status() is None, 20, "the link to be well again")
            assert finished_result(hub, "board-1") == box.app.match.summary().to_json()
            same_events(tmp_path, box, "board-1")
    finally:
        broker.close()


def test_the_brokers_port_closed_for_a_whole_round(broker: Mosquitto, tmp_path: Path) -> None:
    relay = Relay(broker.port)
    try:
        with HubThread(hub_settings(tmp_path, broker.address)) as hub, \
                FedBox(box_config(tmp_path, relay.address, "board-2"), LOG) as box:
            box.start(events=20)       # round 1 and its reading
            until(lambda: hub.events() == 21, 20, "round 1 at the hub")
            relay.cut()
            box.feed_more(40)          # the whole of round 2, nobody hears it
            until(lambda: box.daemon.club.status() is not None, 20, "the box to see the cut")
            assert hub.events() == 21
            relay.mend()
            box.feed_more()
            total = len(box_events(Path(box.config.store)))
            until(lambda: hub.events() == total, 40, f"all {total} events at the hub")
            assert finished_result(hub, "board-2") == box.app.match.summary().to_json()
            same_events(tmp_path, box, "board-2")
    finally:
        relay.close()


def test_a_box_killed_mid_publish_and_started_again(broker: Mosquitto, tmp_path: Path) -> None:
    relay = Relay(broker.port)
    config = box_toml(tmp_path, relay.address, "board-3")
    store = tmp_path / "board-3.db"
    try:
        with HubThread(hub_settings(tmp_path, broker.address)) as hub:
            first = box_process(config, LOG, pace=0.02)
            try:
                until(lambda: hub.events() >= 25, 30, "the box's first events at the hub")
                relay.stall()   # what is sent now is never acknowledged
                held = hub.events()
                until(lambda: store.exists() and len(box_events(store)) >= held + 5, 30,
                      "the box to score on while its messages wait")
            finally:
                first.send_signal(signal.SIGKILL)
                first.wait(10)
            scored = len(box_events(store))
            assert hub.events() < scored < 80
            relay.flow()
            # paced like a real match, so the box is still running once its link is back up
            # (a box that ends its feed before it has reconnected leaves the rest unsent)
            again = box_process(config, LOG, pace=0.05)
            assert again.wait(60) == 0, again.stderr.read() if again.stderr else ""
            until(lambda: hub.events() == 80, 30, "all 80 events at the hub")
            same_events(tmp_path, store, "board-3")
            summary = finished_result(hub, "board-3")
            assert summary["finished"] and summary["score"] == [4, 4]
            assert hub.get("/api/health")["counts"]["events"] == 80
    finally:
        relay.close()


def test_malformed_and_foreign_messages_are_logged_and_ignored(
        broker: Mosquitto, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="device.club.hub")
    bad = [("crokiscore/elmira/board-9/event", b"not json"),
           ("crokiscore/elmira/board-9/event", b'{"v": 1, "board": "board-9", "match_id": 1, '
            b'"started": 5, "seq": 0, "ts": 5, "body": {"type": "mystery"}}'),
           ("crokiscore/elmira/board-9/event", b'{"v": 2, "seq": 0}'),
           ("crokiscore/elmira/board-9/state", b'[1, 2]'),
           ("crokiscore/elmira/board-9/link", b'{"v": 1, "online": "yes"}'),
           ("crokiscore/elmira/board-9/picture", b"GIF89a"),
           ("crokiscore/elmira/board-9/scores", b"{}"),
           ("crokiscore/elmira/stray", b"hello")]
    with HubThread(hub_settings(tmp_path, broker.address)) as hub:
        sender = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="stranger")
        sender.connect("127.0.0.1", broker.port)
        sender.loop_start()
        try:
            for topic, payload in bad:
                sender.publish(topic, payload, qos=1).wait_for_publish(5)
        finally:
            sender.disconnect()
            sender.loop_stop()
        until(lambda: hub.get("/api/health")["counts"].get("ignored", 0) == len(bad), 10,
              "every bad message counted as ignored")
        warned = [r.getMessage() for r in caplog.records if "ignored a message" in r.message]
        assert len(warned) == len(bad)
        assert any("not JSON" in w for w in warned) and any("mystery" in w for w in warned)
        assert hub.events() == 0
        with FedBox(box_config(tmp_path, broker.address, "board-4"), LOG) as box:
            box.start()
            until(lambda: hub.events() == 80, 30, "a real box's events after the noise")
        assert finished_result(hub, "board-4")["score"] == [4, 4]


def test_the_hub_stopped_and_started_again_mid_match(broker: Mosquitto, tmp_path: Path) -> None:
    settings = hub_settings(tmp_path, broker.address)
    with FedBox(box_config(tmp_path, broker.address, "board-6"), LOG) as box:
        with HubThread(settings) as hub:
            box.start(events=20)
            until(lambda: hub.events() == 21, 20, "the first events")
        box.feed_more(50)          # the broker keeps them for the hub's session
        with HubThread(settings) as hub:
            box.feed_more()
            until(lambda: hub.events() == 80, 30, "all 80 events after the hub's restart")
            assert finished_result(hub, "board-6") == box.app.match.summary().to_json()
            same_events(tmp_path, box, "board-6")
