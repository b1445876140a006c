"""Boxes replaying whole matches through real daemons, one real broker, one hub: every event
arrives once, and the hub's results are the boxes' own."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.club.mosquitto import Mosquitto
from tests.club.parts import (
    CROKISCORE,
    MATCHES,
    FedBox,
    HubThread,
    box_config,
    box_events,
    hub_events,
    hub_settings,
    until,
)

LOGS = ("tournament-singles", "casual-100", "tournament-doubles", "crokidarts")


def test_every_board_every_event_once_and_the_same_results(broker: Mosquitto,
                                                           tmp_path: Path) -> None:
    boxes = [FedBox(box_config(tmp_path, broker.address, f"board-{i}"),
                    MATCHES / f"{name}.jsonl") for i, name in enumerate(LOGS, 1)]
    with HubThread(hub_settings(tmp_path, broker.address)) as hub:
        for box in boxes:
            box.start()
        total = sum(len(box_events(Path(b.config.store))) for b in boxes)
        until(lambda: hub.events() == total, 30, f"all {total} events at the hub")
        results = until(lambda: len(hub.get("/api/matches?finished=1") or []) == len(LOGS)
                        and hub.get("/api/matches?finished=1"), 10, "the finished matches")
        for box in boxes:
            board = box.config.club.board
            assert hub_events(tmp_path / "club.db", board) == box_events(Path(box.config.store))
            mine = box.app.match.summary().to_json()
            theirs = next(r for r in results if r["board"] == board)["summary"]
            theirs.pop("stats")
            assert theirs == mine
            box.close()
        boards = hub.get("/api/boards")
        assert [b["board"] for b in boards] == [f"board-{i}" for i in range(1, len(LOGS) + 1)]
        assert all(b["state"]["finished"] for b in boards)
    out = subprocess.run([str(CROKISCORE), "club", "export", "--cmn", "--store",
                          str(tmp_path / "club.db")], capture_output=True, text=True, check=True)
    batch = json.loads(out.stdout)
    assert batch["batch"] is True and len(batch["matches"]) == len(LOGS)
