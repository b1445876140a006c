"""Simulator speed: whole matches with physics and simulated players.

Plays seeded tournament-singles matches (the figure the test budget depends on) and one match of
every rule set, and prints per match the wall and CPU time, shots, physics steps and the split
between the players choosing shots and the physics playing them out; then the cost per shot and
per 1 ms physics step. Crokidarts is played with its default options (first to 3 sets of 3 legs).

    python bench/sim.py [--matches N]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

from hw_sim import physics, players, scenario
from rules import PRESETS

_spent = {"physics": 0.0, "players": 0.0, "steps": 0, "shots": 0}


def _timed(key: str, func: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return func(*args, **kwargs)
        finally:
            _spent[key] += time.perf_counter() - t0

    return wrapper


def _count_steps() -> None:
    shoot = physics.BoardSim.shoot

    def counted(self: physics.BoardSim, *args: Any, **kwargs: Any) -> physics.Outcome:
        out = shoot(self, *args, **kwargs)
        _spent["steps"] += out.steps
        _spent["shots"] += 1
        return out

    physics.BoardSim.shoot = _timed("physics", counted)  # type: ignore[method-assign]
    scenario.choose = _timed("players", players.choose)  # type: ignore[attr-defined]


def _one(name: str, seed: int) -> dict[str, float]:
    for k in _spent:
        _spent[k] = 0
    w0, c0 = time.perf_counter(), time.process_time()
    sc = scenario.play(name, seed)
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    assert sc.match.finished
    return {"wall": wall, "cpu": cpu, "sim_s": sc.timeline[-1].t, **_spent}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--matches", type=int, default=10, help="tournament-singles matches to time")
    args = p.parse_args()
    _count_steps()
    head = (f"{'match':<24} {'wall s':>7} {'cpu s':>7} {'shots':>6} {'steps':>8} "
            f"{'physics s':>9} {'players s':>9} {'ms/shot':>8} {'us/step':>8} {'played h':>8}")
    print(head)

    def row(label: str, r: dict[str, float]) -> None:
        print(f"{label:<24} {r['wall']:>7.2f} {r['cpu']:>7.2f} {int(r['shots']):>6} "
              f"{int(r['steps']):>8} {r['physics']:>9.2f} {r['players']:>9.2f} "
              f"{1000 * r['wall'] / r['shots']:>8.2f} {1e6 * r['physics'] / r['steps']:>8.1f} "
              f"{r['sim_s'] / 3600:>8.2f}")

    singles = []
    for seed in range(1, args.matches + 1):
        r = _one("tournament-singles", seed)
        singles.append(r)
        row(f"tournament-singles #{seed}", r)
    walls = [r["wall"] for r in singles]
    cpus = [r["cpu"] for r in singles]
    steps = sum(r["steps"] for r in singles)
    shots = sum(r["shots"] for r in singles)
    print(f"tournament-singles: wall mean {statistics.mean(walls):.2f} s (min {min(walls):.2f}, "
          f"max {max(walls):.2f}); cpu mean {statistics.mean(cpus):.2f} s; "
          f"{steps / shots:.0f} steps a shot; "
          f"physics {1e6 * sum(r['physics'] for r in singles) / steps:.1f} us a step, "
          f"{1000 * sum(r['physics'] for r in singles) / shots:.2f} ms a shot; "
          f"players {1000 * sum(r['players'] for r in singles) / shots:.2f} ms a shot")
    print()
    print(head)
    for name in PRESETS:
        row(name, _one(name, 1))
    print()
    _with_frames()


def _with_frames() -> None:
    """A whole tournament-singles match as the camera would see it: the simulation, and a
    2028x1520 frame rendered of every board the match has read (one rig, as at a club)."""
    import random

    from hw_sim.camera import Scene, render
    from hw_sim.timeline import BoardDue

    for seed in (1, 2, 3):
        t0 = time.perf_counter()
        sc = scenario.play("tournament-singles", seed)
        t1 = time.perf_counter()
        scene = Scene.random(random.Random(seed), width=2028, height=1520)
        boards = [m for m in sc.timeline if isinstance(m, BoardDue)]
        for i, b in enumerate(boards):
            render(b.state, scene, seed=i)
        t2 = time.perf_counter()
        print(f"tournament-singles #{seed} with frames: simulate {t1 - t0:.2f} s, render "
              f"{len(boards)} frames (2028x1520, new rig) {t2 - t1:.2f} s, total {t2 - t0:.2f} s")


if __name__ == "__main__":
    main()
