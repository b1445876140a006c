"""``crokiscore club``: the hub, its exports, and the organiser's password hash.

Light on imports: the main command builds its parser from here on every run.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any


def add_parser(sub: Any, func: Callable[[argparse.Namespace], int]) -> None:
    c = sub.add_parser("club", help="the club's hub: every board live on one page, results in "
                       "CMN (docs/club.md)")
    c.add_argument("--config", default=None,
                   help="the hub's config (default /etc/crokiscore/club.toml)")
    c.set_defaults(func=func, club_command="run")
    what = c.add_subparsers(dest="club_command")
    r = what.add_parser("run", help="serve the page and keep the matches (the default)")
    e = what.add_parser("export", help="finished matches from the hub's store, in CMN or CSV")
    for p in (r, e):
        p.add_argument("--config", default=argparse.SUPPRESS, help="the hub's config")
    kind = e.add_mutually_exclusive_group(required=True)
    kind.add_argument("--cmn", action="store_true", help="Crokinole Match Notation (JSON)")
    kind.add_argument("--csv", action="store_true", help="one line per match")
    e.add_argument("--event", help="only this event's matches")
    e.add_argument("--date", help="only the matches started on this local day (YYYY-MM-DD)")
    e.add_argument("--match", metavar="ID", help="one match, by its CMN id")
    e.add_argument("--store", help="the hub's store file, instead of the config's")
    what.add_parser("password", help="read the organiser's password and print its hash for "
                    "[hub] password_hash")


def club(args: argparse.Namespace) -> int:
    from device.errors import DeviceError

    try:
        if args.club_command == "password":
            return _password()
        if args.club_command == "export":
            return _export(args)
        # no subcommand: run
        return _run(args)
    except DeviceError as exc:
        print(f"crokiscore club: {exc}", file=sys.stderr)
        return 2


def _run(args: argparse.Namespace) -> int:
    import logging

    from device.club.service import run
    from device.club.settings import load_hub

    settings = load_hub(args.config)
    logging.basicConfig(level="INFO", stream=sys.stderr,
                        format="%(levelname)s %(name)s: %(message)s")
    return run(settings)


def _password() -> int:
    import getpass

    from device.club.password import make_hash

    if sys.stdin.isatty():
        first = getpass.getpass("organiser's password: ")
        if getpass.getpass("again: ") != first:
            print("crokiscore club password: the two differ; nothing made", file=sys.stderr)
            return 2
    else:
        try:
            first = sys.stdin.buffer.readline().decode("utf-8").rstrip("\r\n")
        except UnicodeDecodeError:
            print("crokiscore club password: the password read is not UTF-8 text; nothing "
                  "made", file=sys.stderr)
            return 2
    if len(first) < 8:
        print("crokiscore club password: use at least 8 characters", file=sys.stderr)
        return 2
    print(make_hash(first))
    return 0


def _export(args: argparse.Namespace) -> int:
    from device.club.cmn import cmn_batch, cmn_match, exportable, results_csv
    from device.club.hubstore import HubStore
    from device.club.service import DAY, source
    from device.club.settings import load_hub

    if args.date and not DAY.match(args.date):
        print(f"crokiscore club export: --date wants YYYY-MM-DD, not {args.date!r}",
              file=sys.stderr)
        return 2
    if args.store:
        path, club_name = args.store, "?"
    else:
        settings = load_hub(args.config)
        path, club_name = settings.store, settings.club
    filters: dict[str, Any] = {"finished": True}
    if args.event:
        filters["event"] = args.event
    if args.date:
        filters["day"] = args.date
    if args.match:
        filters["uuid"] = args.match
    with HubStore(path, read_only=True) as store:
        records = store.records(**filters)
    if args.match:
        if not records or not exportable(records[0]):
            print(f"crokiscore club export: no finished match {args.match} in {path}",
                  file=sys.stderr)
            return 1
        if args.csv:
            print(results_csv(records), end="")
        else:
            print(json.dumps(cmn_match(records[0], source(club_name)), indent=1))
        return 0
    left_out = [r for r in records if not exportable(r)]
    for r in left_out:
        print(f"crokiscore club export: match {r.uuid} ({r.key.board}) ended, but {path} does "
              "not hold all its events whole: left out (its box still has them)",
              file=sys.stderr)
    if args.csv:
        print(results_csv(records), end="")
    else:
        print(json.dumps(cmn_batch(records, source(club_name), args.event), indent=1))
    return 1 if left_out else 0
