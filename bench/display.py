"""Scoreboard cost per event: building the view and drawing the frame.

The daemon rebuilds the view and redraws the OLED after every event, so both must stay at a few
milliseconds even late in a long match. Takes every state of seeded scripted matches of each rule
set (crokidarts at its default three sets of three legs, the longest; at most 1500 states a rule
set, evenly spread), then times, per state:
building the :class:`ScoreView`, rendering it for a 128x64 monochrome panel and for a 256x64
greyscale one, handing the frame to luma's dummy device, and the terminal view. Prints the
median and 99th percentile of each, in milliseconds.

    python bench/display.py [--matches N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from device.hardware.display import DummyDisplay
from device.screen.draw import render
from device.screen.terminal import to_text
from device.screen.view import Status, build
from hw_sim.scripted import play
from rules import PRESETS, Match, fold

SAMPLE = 1500


def states(name: str, matches: int) -> list[Match]:
    out = []
    for seed in range(matches):
        events = list(play(name, random.Random(seed)))
        m = fold(events[:1])
        out.append(m)
        for ev in events[1:]:
            m = m.apply(ev)
            out.append(m)
    return out


def timed(fn: Callable[[Any], Any], items: list[Any]) -> tuple[float, float]:
    """Median and 99th percentile of ``fn(item)``, in ms."""
    times = []
    for item in items:
        t0 = time.perf_counter()
        fn(item)
        times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    return statistics.median(times), times[min(len(times) - 1, int(len(times) * 0.99))]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--matches", type=int, default=3, help="matches per rule set")
    args = p.parse_args()
    mono, grey = DummyDisplay(), DummyDisplay(256, 64, "L")
    status = Status(errors=("camera lost",))
    cols = ("view", "128x64 mono", "256x64 grey", "show(dummy)", "terminal")
    print(f"{'rule set':<20} {'states':>6}  " + "  ".join(f"{c:>15}" for c in cols))
    print(f"{'':<20} {'':>6}  " + "  ".join(f"{'p50 / p99 ms':>15}" for _ in cols))
    for name in PRESETS:
        ms = states(name, args.matches)
        ms = ms[::max(1, len(ms) // SAMPLE)]  # crokidarts has thousands: an even sample
        views = [build(m, status if i % 7 == 0 else Status()) for i, m in enumerate(ms)]
        frames = [render(v) for v in views]
        figures = [
            timed(lambda m: build(m), ms),
            timed(lambda v: render(v), views),
            timed(lambda v: render(v, 256, 64, "L"), views),
            timed(mono.show, frames),
            timed(to_text, frames),
        ]
        cells = "  ".join(f"{a:>7.2f} / {b:<5.2f}" for a, b in figures)
        print(f"{name:<20} {len(ms):>6}  {cells}")
    tail = [states(name, 1)[-1] for name in PRESETS]
    t = timed(lambda m: grey.show(render(build(m), 256, 64, "L")), tail * 50)
    print(f"\nlast state of a whole match, view + 256x64 render + show: "
          f"p50 {t[0]:.2f} ms, p99 {t[1]:.2f} ms")
    mono.close()
    grey.close()


if __name__ == "__main__":
    main()
