"""A whole simulated match (players, sensors, the camera and vision) on a box in the club: the
hub gets its events, its state with the reading's discs, and its annotated board picture."""

from __future__ import annotations

import subprocess
from dataclasses import replace
from pathlib import Path

from device.commands.simulation import Simulation
from tests.club.mosquitto import Mosquitto
from tests.club.parts import (
    CROKISCORE,
    HubThread,
    box_config,
    box_events,
    hub_events,
    hub_settings,
    until,
)


def test_a_simulated_match_with_its_pictures(broker: Mosquitto, tmp_path: Path) -> None:
    config = box_config(tmp_path, broker.address, "board-7")
    config = replace(config, camera=replace(config.camera, kind="sim",
                                            pictures=str(tmp_path / "pictures")))
    with HubThread(hub_settings(tmp_path, broker.address)) as hub:
        sim = Simulation(config, "tournament-singles", 3, options={"rounds": 1})
        outcome = sim.run()
        store = Path(config.store)
        until(lambda: hub.events() == len(box_events(store)), 20, "every event")
        assert hub_events(tmp_path / "club.db", "board-7") == box_events(store)
        board = until(lambda: [b for b in hub.get("/api/boards")
                               if b["board"] == "board-7" and b["picture"]
                               and (b["state"] or {}).get("finished")], 20,
                      "the finished state and a picture")[0]
        assert board["state"]["score"] == list(outcome.result.score)
        discs = board["state"]["reading"]["discs"]
        assert discs and all("x_mm" in d for d in discs)
        jpeg = hub.raw(board["picture"])
        kept = sorted((tmp_path / "pictures").iterdir())[-1].read_bytes()
        assert jpeg[:2] == b"\xff\xd8" and (jpeg == kept or len(kept) > 400_000)
    out = subprocess.run([str(CROKISCORE), "history", "--stats", "--store", str(store)],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    assert out[0].split(",")[:4] == ["match", "started", "rules", "player"]
    assert len(out) == 3   # the header, then each of the two players
