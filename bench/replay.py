"""Replay speed and memory on long logs: the fold, `crokiscore replay --json` and `--scoreboard`.

A club's log is short, but a box that never clears its store, or a log put together by a tool,
can hold a great many events, and the fold must stay linear in their number and hold only a
little per event (undo can take back any of them, so something per event is kept). Two kinds of
long but valid log are made, seeded:

* ``rounds``: tournament singles decided by a tie-break (``rounds`` 1, ``tiebreak`` extra-round)
  whose rounds all end level, so it never ends: every round's 16 shots, paired 20s, a board that
  gives both sides the same, now and then a disc too close to call (confirmed, or corrected), a
  foul on each side and an event taken back and played again;
* ``crokidarts``: the scripted players of ``hw_sim.scripted`` in a match of 99 sets of 99 legs
  to 1000, cut at the size wanted.

Each figure comes from a fresh interpreter running one path over one log: the time it took
(events per second) and its peak resident set (``ru_maxrss``); the fold's line also gives the
memory it added on top of the parsed events. ``idle`` is the interpreter with the modules
imported, for scale. A path that does not end within ``--timeout`` seconds is reported so.

    python bench/replay.py [--sizes 10000,100000,1000000] [--kinds rounds,crokidarts]
                           [--paths fold,json,scoreboard] [--timeout 600] [--logs DIR]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import itertools
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PATHS = ("fold", "json", "scoreboard")
KINDS = ("rounds", "crokidarts")


def tied_rounds(rng: random.Random) -> Iterator[dict[str, object]]:
    """An endless tournament-singles match whose every round ends level (see the module's text).

    Written without the rules engine, so the log does not depend on the code it measures."""
    yield {"type": "match", "rules": "tournament-singles", "players": ["Ann", "Bob"],
           "options": {"rounds": 1, "tiebreak": "extra-round"}}
    for number in itertools.count(1):
        starter = (number - 1) % 2
        twenties = [0, 0]
        foul_at = rng.randrange(8) if rng.random() < 0.05 else None
        for pair in range(8):
            both = rng.random() < 0.15  # both sides get a 20, or neither
            for k in range(2):
                seat = (starter + k) % 2
                yield {"type": "shot", "seat": seat}
                if both:
                    yield {"type": "twenty"}
                    twenties[seat] += 1
                if rng.random() < 0.01:  # taken back, and played again
                    yield {"type": "undo"}
                    yield {"type": "twenty"} if both else {"type": "shot", "seat": seat}
                if pair == foul_at:  # both shots of the pair: both sides lose the same 20s
                    yield {"type": "foul"}
        room = 8 - max(twenties)
        zones = [rng.choice((0, 5, 10, 15)) for _ in range(rng.randint(0, room))]
        doubt = bool(zones) and rng.random() < 0.05
        discs = [{"team": t, "zone": z} for z in zones for t in (0, 1)]
        if doubt:
            discs[0]["uncertain"] = True
        yield {"type": "board", "discs": discs}
        if doubt:
            if rng.random() < 0.5:
                yield {"type": "confirm"}
            else:
                yield {"type": "correct", "discs": [{"team": t, "zone": z} for z in zones
                                                    for t in (0, 1)]}


def darts(rng: random.Random) -> Iterator[dict[str, object]]:
    from hw_sim.scripted import play

    options = {"target": 1000, "legs": 99, "sets": 99}
    for ev in play("crokidarts", rng, options=options, max_events=10**9):
        yield ev.to_json()


def write_log(path: Path, kind: str, size: int) -> None:
    source = tied_rounds if kind == "rounds" else darts
    with path.open("w", encoding="utf-8") as f:
        for body in itertools.islice(source(random.Random(12)), size):
            f.write(json.dumps(body) + "\n")


# --- one measurement, in its own interpreter ---------------------------------------------------


def _rss_kb() -> int:
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def child(path: str, what: str) -> None:
    from device.commands.cli import main
    from rules import fold, parse_event

    out: dict[str, object] = {}
    if what == "fold":
        with open(path, encoding="utf-8") as f:
            events = [parse_event(json.loads(line)) for line in f]
        out["rss_parsed_kb"] = _rss_kb()
        t0 = time.perf_counter()
        match = fold(events)
        out["seconds"] = time.perf_counter() - t0
        out["decided"] = match.decided()
    elif what in ("json", "scoreboard"):
        sink = io.StringIO() if what == "json" else open(os.devnull, "w")  # noqa: SIM115
        t0 = time.perf_counter()
        with contextlib.redirect_stdout(sink):
            status = main(["replay", path, f"--{what}"])
        out["seconds"] = time.perf_counter() - t0
        out["status"] = status
    out["rss_peak_kb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps(out))


def measure(path: Path, what: str, timeout: float) -> dict[str, object] | None:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", str(path), what]
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env,
                              check=True)
    except subprocess.TimeoutExpired:
        return None
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def idle_kb() -> int:
    code = ("import resource, device.commands.cli, device.screen.text, rules.replay; "
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
    return int(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              check=True, cwd=ROOT).stdout)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", default="10000,100000,1000000", help="events per log")
    p.add_argument("--kinds", default=",".join(KINDS))
    p.add_argument("--paths", default=",".join(PATHS))
    p.add_argument("--timeout", type=float, default=600.0, help="seconds per measurement")
    p.add_argument("--logs", help="keep the logs in this folder (and reuse them)")
    p.add_argument("--child", nargs=2, metavar=("LOG", "PATH"), help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        child(*args.child)
        return
    sizes = [int(s) for s in args.sizes.split(",")]
    with tempfile.TemporaryDirectory(prefix="crokiscore-bench-") as tmp:
        folder = Path(args.logs or tmp)
        folder.mkdir(parents=True, exist_ok=True)
        print(f"idle interpreter: {idle_kb() / 1024:.0f} MB peak RSS")
        print(f"{'log':<11} {'events':>9} {'path':<11} {'seconds':>9} {'events/s':>10} "
              f"{'peak MB':>8} {'fold MB':>8}")
        for kind in args.kinds.split(","):
            for size in sizes:
                log = folder / f"{kind}-{size}.jsonl"
                if not log.exists():
                    write_log(log, kind, size)
                for what in args.paths.split(","):
                    r = measure(log, what, args.timeout)
                    if r is None:
                        print(f"{kind:<11} {size:>9} {what:<11} {'> ' + str(int(args.timeout)):>9}"
                              f" {'-':>10} {'-':>8} {'-':>8}", flush=True)
                        continue
                    secs = float(r["seconds"])  # type: ignore[arg-type]
                    peak = int(r["rss_peak_kb"]) / 1024  # type: ignore[call-overload]
                    held = (f"{peak - int(r['rss_parsed_kb']) / 1024:>8.0f}"  # type: ignore[call-overload]
                            if "rss_parsed_kb" in r else f"{'':>8}")
                    note = f"  (exit status {r['status']})" if r.get("status") else ""
                    print(f"{kind:<11} {size:>9} {what:<11} {secs:>9.2f} {size / secs:>10,.0f} "
                          f"{peak:>8.0f} {held}{note}", flush=True)


if __name__ == "__main__":
    main()
