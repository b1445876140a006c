"""Power cuts: the daemon killed with SIGKILL at random moments, restarted on the same store."""

import json
import random
import re
import signal
import subprocess
import sys
from pathlib import Path

from device.store import EventStore
from hw_sim.scripted import play
from rules import fold

SHOWN = re.compile(r"frame \d+ shown: match (\d+) at depth (\d+)")


def config(tmp_path: Path, name: str) -> Path:
    cfg = tmp_path / f"{name}.toml"
    cfg.write_text(f'backend = "sim"\nstore = "{tmp_path / name}.db"\nlog_level = "DEBUG"\n'
                   '[camera]\nkind = "none"\n[display]\ndriver = "dummy"\n')
    return cfg


def run(cfg: Path, feed: Path) -> subprocess.Popen:
    exe = Path(sys.executable).with_name("crokiscore")
    return subprocess.Popen([str(exe), "run", "--config", str(cfg), "--feed", str(feed)],
                            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)


def stored(db: Path) -> list[dict]:
    with EventStore(db) as store:
        [match] = [m.id for m in store.matches()]
        return [{k: v for k, v in b.items() if k != "ts"} for b in store.bodies(match)]


def test_killed_at_random_moments_the_daemon_resumes_and_loses_nothing_shown(tmp_path):
    events = list(play("casual-100", random.Random(4)))
    feed = tmp_path / "match.jsonl"
    feed.write_text("".join(json.dumps(e.to_json()) + "\n" for e in events))

    calm = run(config(tmp_path, "calm"), feed)
    calm.communicate(timeout=120)
    assert calm.returncode == 0
    expected = stored(tmp_path / "calm.db")
    assert len(expected) == len(events)

    rng = random.Random(11)
    kills = 0
    while True:
        p = run(config(tmp_path, "cut"), feed)
        wait_for = rng.randint(1, 40)
        seen = 0
        shown = -1
        assert p.stderr is not None
        for line in p.stderr:
            hit = SHOWN.search(line)
            if hit:
                shown = max(shown, int(hit.group(2)))
                seen += 1
                if seen == wait_for:
                    p.send_signal(signal.SIGKILL)
                    kills += 1
                    break
        p.wait(timeout=60)
        now = stored(tmp_path / "cut.db")
        assert len(now) > shown, "an event that reached the display was lost"
        assert now == expected[:len(now)], "the store holds exactly the match's events in order"
        if p.returncode == 0:
            break
        assert p.returncode == -signal.SIGKILL
    assert kills >= 3, f"only {kills} kills"
    assert now == expected
    with EventStore(tmp_path / "cut.db") as store:
        assert store.matches()[0].outcome == "finished"
        assert fold(store.events(1)) == fold(events)
