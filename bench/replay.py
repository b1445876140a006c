"""Replay throughput: events per second folded by the rules engine.

Generates thousands of complete matches of every rule set with the scripted players (seeded), then
times two paths: folding parsed events (the daemon's restart path) and replaying JSON lines (the
``crokiscore replay`` path, parsing included). Prints one line per rule set and a total.

    python bench/replay.py [--matches N]
"""

from __future__ import annotations

import argparse
import json
import random
import time

from hw_sim.scripted import play
from rules import PRESETS, fold
from rules.replay import replay_all


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--matches", type=int, default=1000, help="matches per rule set")
    args = p.parse_args()
    total_events = total_fold = total_json = 0.0
    print(f"{'rule set':<20} {'matches':>7} {'events':>9} {'fold ev/s':>11} {'json ev/s':>11}")
    for name in PRESETS:
        options = {"legs": 2, "sets": 1} if name == "crokidarts" else None
        matches = [list(play(name, random.Random(seed), options=options))
                   for seed in range(args.matches)]
        lines = [[json.dumps(e.to_json()) for e in evs] for evs in matches]
        n = sum(len(evs) for evs in matches)
        t0 = time.perf_counter()
        for evs in matches:
            assert fold(evs).finished
        t1 = time.perf_counter()
        for text in lines:
            m, problems = replay_all(text)
            assert m is not None and m.finished and not problems
        t2 = time.perf_counter()
        print(f"{name:<20} {len(matches):>7} {n:>9} {n / (t1 - t0):>11,.0f} "
              f"{n / (t2 - t1):>11,.0f}")
        total_events += n
        total_fold += t1 - t0
        total_json += t2 - t1
    print(f"{'all':<20} {args.matches * len(PRESETS):>7} {int(total_events):>9} "
          f"{total_events / total_fold:>11,.0f} {total_events / total_json:>11,.0f}")


if __name__ == "__main__":
    main()
