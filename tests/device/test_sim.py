"""The whole appliance against the simulator: bots play, sensors fire, the camera is read, and
the daemon's result must be the simulation's truth."""

import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from device.commands.simulation import Simulation, compare
from device.config import parse

GAMES = [("tournament-singles", None, 3), ("tournament-doubles", None, 4),
         ("casual-100", None, 3), ("casual-100-doubles", None, 5),
         ("crokidarts", {"legs": 1, "sets": 1}, 2)]


def config(tmp_path):
    return parse({"backend": "sim", "store": str(tmp_path / "events.db"),
                  "camera": {"kind": "sim", "width": 1014, "height": 760, "settle_frames": 2,
                             "settle_interval_s": 0.01},
                  "display": {"driver": "dummy"}})


@pytest.mark.parametrize(("rules", "options", "seed"), GAMES, ids=[g[0] for g in GAMES])
def test_a_whole_simulated_match_is_scored_as_it_truly_was(tmp_path, rules, options, seed):
    outcome = Simulation(config(tmp_path), rules, seed, options=options).run()
    assert outcome.result.finished
    assert compare(outcome.result, outcome.truth) == []
    assert outcome.tally.unflagged == [], "a wrong reading was not marked CHECK"


def test_the_sim_command_ends_with_the_result_beside_the_truth(tmp_path):
    exe = str(Path(sys.executable).with_name("crokiscore"))
    cfg = tmp_path / "sim.toml"
    cfg.write_text('backend = "sim"\n[camera]\nkind = "sim"\nwidth = 1014\nheight = 760\n'
                   'settle_frames = 2\nsettle_interval_s = 0.01\n[display]\ndriver = "dummy"\n')
    done = subprocess.run([exe, "sim", "--config", str(cfg), "--seed", "3", "--json",
                           "--record", str(tmp_path / "rec")],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    last = json.loads(done.stdout.strip().splitlines()[-1])
    assert set(last) >= {"result", "truth"}
    assert last["result"]["score"] == last["truth"]["score"]
    rec = tmp_path / "rec"
    assert (rec / "oled.gif").is_file() and len(list(rec.glob("oled_*.png"))) >= 5
    assert len(list((rec / "boards").glob("*.jpg"))) == len(last["truth"]["rounds"])
    assert (rec / "events.db").is_file()


def test_the_players_wait_right_when_the_daemon_takes_a_drop_before_their_cue(tmp_path):
    """The hands act, then the cue waits for the daemon. Here each drop and each line's release
    returns only once the daemon has taken its event, the order a busy machine can give: the
    cue must still wait for that event, not for one more."""
    sim = Simulation(config(tmp_path), "crokidarts", 2, options={"legs": 1, "sets": 1},
                     timeout_s=20.0)
    table, app = sim.table, sim.app
    drop, touch = table.drop, table.touch

    def taken_after(source: str, act) -> None:
        with app.changed:
            before = app.taken[source]
        act()
        assert app.wait(lambda: app.taken[source] > before, 20.0)

    table.drop = lambda *a, **k: taken_after("hole", lambda: drop(*a, **k))
    table.touch = lambda q, active: (touch(q, active) if active else
                                     taken_after("touch", lambda: touch(q, active)))
    outcome = sim.run()
    assert outcome.result.finished
    assert compare(outcome.result, outcome.truth) == []
    assert app.taken["hole"] > 0, "the match had no drop to test with"


def test_a_shot_slower_than_the_watchers_settling_is_read_only_once_it_stops(tmp_path):
    """On a busy machine the physics of a round's last shot can outlast the watcher's wait for
    still frames. Here the players set the board only once the camera has given three frames
    since the disc left its line (the watcher settles on two): every board the daemon read must
    still have been photographed at rest, never the board without its last disc."""
    sim = Simulation(config(tmp_path), "crokidarts", 2, options={"legs": 1, "sets": 1},
                     timeout_s=20.0)
    table, app, watcher = sim.table, sim.app, sim.daemon.watcher
    assert watcher is not None
    touch, set_board, capture, read = (table.touch, table.set_board, table.camera.capture,
                                       watcher.reader)
    seen = threading.Condition()
    frames = {"taken": 0, "left": -1, "last_in_flight": False}  # left: frames when a disc left
    slowed, read_in_flight = [], []

    def counted():
        with seen:
            in_flight = frames["left"] >= 0
        frame = capture()
        with seen:
            frames["taken"] += 1
            frames["last_in_flight"] = in_flight
            seen.notify_all()
        return frame

    def released(q, active):
        if active:
            touch(q, active)
            return
        with app.changed:
            before = app.taken["touch"]
        with seen:
            frames["left"] = frames["taken"]
        touch(q, active)
        assert app.wait(lambda: app.taken["touch"] > before, 20.0)

    def slow_physics(state):
        with app.changed:
            due = app.match is not None and app.match.expect().what == "board"
        with seen:
            if due and frames["left"] >= 0:
                assert seen.wait_for(lambda: frames["taken"] >= frames["left"] + 3, 20.0)
                slowed.append(frames["taken"] - frames["left"])
            set_board(state)
            frames["left"] = -1

    def reader(frame):
        with seen:
            if frames["last_in_flight"]:
                read_in_flight.append(frames["taken"])
        return read(frame)

    table.camera.capture, table.touch, table.set_board = counted, released, slow_physics
    watcher.reader = reader
    outcome = sim.run()
    assert slowed, "no reading came after a shot to test with"
    assert read_in_flight == []
    assert compare(outcome.result, outcome.truth) == []
