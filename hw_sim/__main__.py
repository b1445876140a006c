"""``python -m hw_sim``: the simulator's own commands.

``events``  print one scripted match (JSON lines) of a rule set, deterministic by seed.
``play``    play one match on the simulated board; print its true events (JSON lines, each with
            its simulated time as ``ts``), or with ``--timeline`` what the hardware reports.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence


def _events(args: argparse.Namespace) -> int:
    from hw_sim.scripted import play

    options = json.loads(args.options) if args.options else None
    for ev in play(args.rules, random.Random(args.seed), options=options):
        sys.stdout.write(json.dumps(ev.to_json()) + "\n")
    return 0


def _play(args: argparse.Namespace) -> int:
    from hw_sim.scenario import play

    options = json.loads(args.options) if args.options else None
    sc = play(args.rules, args.seed, options=options)
    for item in sc.timeline if args.timeline else sc.truth:
        sys.stdout.write(json.dumps(item.to_json()) + "\n")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m hw_sim", description="The hardware simulator.")
    sub = p.add_subparsers(dest="command", required=True)
    e = sub.add_parser("events", help="print a scripted match as JSON lines")
    e.add_argument("--rules", default="tournament-singles")
    e.add_argument("--seed", type=int, default=1)
    e.add_argument("--options", help='rule set options as JSON, e.g. \'{"legs": 2}\'')
    e.set_defaults(func=_events)
    pl = sub.add_parser("play", help="play a match on the simulated board (physics and players)")
    pl.add_argument("--rules", default="tournament-singles")
    pl.add_argument("--seed", type=int, default=1)
    pl.add_argument("--options", help='rule set options as JSON, e.g. \'{"legs": 1}\'')
    pl.add_argument("--timeline", action="store_true",
                    help="print the sensor timeline instead of the true events")
    pl.set_defaults(func=_play)
    args = p.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    raise SystemExit(main())
