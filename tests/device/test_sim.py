"""The whole appliance against the simulator: bots play, sensors fire, the camera is read, and
the daemon's result must be the simulation's truth."""

import json
import subprocess
import sys
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
