"""``python -m hw_sim``: the simulator's own commands.

``events``  print one scripted match (JSON lines) of a rule set, deterministic by seed.
``play``    play one match on the simulated board; print its true events (JSON lines, each with
            its simulated time as ``ts``), or with ``--timeline`` what the hardware reports.
``render``  write camera frames of end-of-round boards with their truth (JSON), for vision.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections.abc import Sequence

VIEWS = ("pi", "phone", "video")  # hw_sim.camera.VIEWS, without importing the renderer here


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


def _render(args: argparse.Namespace) -> int:
    from pathlib import Path

    from hw_sim.frames import write_frames

    if (args.width is None) != (args.height is None):
        sys.stderr.write("render: give both --width and --height, or neither\n")
        return 2
    views = tuple(v.strip() for v in args.views.split(",") if v.strip())
    if args.looks == "classic" and args.views != ",".join(VIEWS):
        sys.stderr.write("render: --views picks among the varied looks' views; add "
                         "--looks varied\n")
        return 2
    try:
        index = write_frames(Path(args.out), args.frames, args.seed, width=args.width,
                             height=args.height, per_rig=args.per_rig, boards=args.boards,
                             looks=args.looks, views=views)
    except OSError as e:
        sys.stderr.write(f"render: cannot write the frames to {args.out}: {e.strerror or e}; "
                         "choose a writable --out folder\n")
        return 1
    except ValueError as e:
        sys.stderr.write(f"render: {e}\n")
        return 2
    rigs = len({f["rig"] for f in index}) or 1
    sys.stdout.write(f"{args.out}: {len(index)} round frames, {rigs} empty-board frames "
                     "(for calibration), each with its truth JSON; index.json lists them\n")
    return 0


def _positive(text: str) -> int:
    n = int(text)
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {n}")
    return n


def _count(text: str) -> int:
    n = int(text)
    if n < 0:
        raise argparse.ArgumentTypeError(f"must not be negative, got {n}")
    return n


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
    r = sub.add_parser("render", help="write camera frames of end-of-round boards with truth")
    r.add_argument("--out", required=True, help="folder for the frames (created if missing)")
    r.add_argument("--frames", type=_count, default=10, help="round frames to write")
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--width", type=_positive, help="frame width (default: the sensor mode's)")
    r.add_argument("--height", type=_positive, help="frame height (with --width)")
    r.add_argument("--per-rig", type=_positive, default=4,
                   help="round frames per rig (camera, board look, light)")
    r.add_argument("--boards", choices=("play", "layouts"), default="play",
                   help="boards left by simulated matches (default), or crowded generated "
                   "layouts that stress the vision")
    r.add_argument("--looks", choices=("classic", "varied"), default="classic",
                   help="the first looks (tournament boards, a Pi camera; the default, frames as "
                   "they always were for a seed), or real boards' variety: other sizes and "
                   "proportions, black, navy and natural boards, frames, ditches, disc sets, "
                   "glare, players and things around the board, phone photos and video")
    r.add_argument("--views", default=",".join(VIEWS),
                   help="with --looks varied: the views to draw among, comma-separated "
                   f"(default {','.join(VIEWS)})")
    r.set_defaults(func=_render)
    args = p.parse_args(argv)
    try:
        return int(args.func(args))
    except BrokenPipeError:  # the reader (head, less) had enough: not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
