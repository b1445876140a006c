"""The ``crokiscore`` command.

Each subcommand imports what it needs when it runs, so ``crokiscore replay`` on a Pi does not pay
for OpenCV and a missing camera library cannot break the commands that do not use it.
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import sys
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from pathlib import Path

    from PIL import Image

    from rules import Match


def _cmd_replay(args: argparse.Namespace) -> int:
    from device.commands.logfile import LogUnreadable, NotALog, open_log
    from device.screen.text import as_text
    from rules.replay import replay

    match = None
    bad = 0
    try:
        with open_log(args.file) as stream:
            for step in replay(stream):
                if step.problem:
                    bad += 1
                    print(f"{args.file}:{step.line}: {step.problem} (line skipped)",
                          file=sys.stderr)
                    continue
                before, match = match, step.match
                if args.scoreboard and match is not None and _scoreboard_moment(before, match):
                    print(as_text(match), end="\n\n", flush=True)
    except (LogUnreadable, NotALog) as exc:
        print(f"crokiscore replay: {exc}", file=sys.stderr)
        return 2
    if match is None:
        print(f"crokiscore replay: {args.file} holds no match", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(match.summary().to_json()))
    elif not args.scoreboard:
        print(as_text(match))
    return 1 if bad else 0


def _scoreboard_moment(before: Match | None, after: Match) -> bool:
    """A round (or crokidarts turn) has just been decided, or the match just began or ended."""
    return (before is None or after.finished != before.finished
            or after.decided() != before.decided())


def _cmd_history(args: argparse.Namespace) -> int:
    from device.commands import history
    from device.config import load
    from device.errors import DeviceError
    from device.store import EventStore

    try:
        path = args.store or load(args.config).store
        # a command that only reads opens the store read-only: it never makes or changes one
        with EventStore(path, read_only=True) as store:
            if args.json:
                print(json.dumps(history.as_json(store), indent=1))
            elif args.players:
                print(history.players_csv(store), end="")
            elif args.stats:
                print(history.stats_csv(store), end="")
            else:
                print(history.as_csv(store), end="")
    except DeviceError as exc:
        print(f"crokiscore history: {exc}", file=sys.stderr)
        return 2
    return 0


ZOOM = range(1, 33)
"""How many times ``oled --png`` may enlarge the frame: 32 makes a 128x64 frame 4096x2048."""


def _cmd_oled(args: argparse.Namespace) -> int:
    from pathlib import Path

    from PIL import Image

    from device.commands.logfile import LogUnreadable, NotALog, open_log
    from device.hardware.display import DummyDisplay, OledSettings
    from device.screen.draw import render
    from device.screen.terminal import to_text
    from device.screen.view import build
    from rules.replay import replay_all

    if args.zoom not in ZOOM:
        print(f"crokiscore oled: --zoom is how many times to enlarge the PNG, a whole number from "
              f"{ZOOM.start} to {ZOOM.stop - 1}, not {args.zoom}", file=sys.stderr)
        return 2
    if args.png:
        png = Path(args.png)
        if png.suffix.lower() != ".png":
            print(f"crokiscore oled: --png writes a PNG picture; give a file name ending in "
                  f".png, not {args.png}", file=sys.stderr)
            return 2
        if not png.resolve().parent.is_dir():
            print(f"crokiscore oled: cannot write {args.png}: there is no folder "
                  f"{png.parent}", file=sys.stderr)
            return 2
    try:
        with open_log(args.file) as f:
            match, problems = replay_all(f)
    except (LogUnreadable, NotALog) as exc:
        print(f"crokiscore oled: {exc}", file=sys.stderr)
        return 2
    for step in problems:
        print(f"{args.file}:{step.line}: {step.problem} (line skipped)", file=sys.stderr)
    if match is None:
        print(f"crokiscore oled: {args.file} holds no match", file=sys.stderr)
        return 2
    with DummyDisplay.like(OledSettings(args.driver)) as panel:
        panel.show(render(build(match), panel.width, panel.height, panel.mode))
        frame = panel.image
    assert frame is not None
    print(to_text(frame))
    if args.png:
        size = (frame.width * args.zoom, frame.height * args.zoom)
        try:
            frame.resize(size, Image.Resampling.NEAREST).save(args.png, format="PNG")
        except OSError as exc:
            print(f"crokiscore oled: cannot write {args.png}: {exc.strerror or exc}",
                  file=sys.stderr)
            return 2
    return 1 if problems else 0


def _cmd_bridge(args: argparse.Namespace) -> int:
    import dataclasses
    import queue
    import time

    from device.errors import UsageError
    from firmware_bridge.errors import BadSetting, BridgeError
    from firmware_bridge.events import McuBooted, to_json
    from firmware_bridge.link import Link, LinkTiming, port_trouble

    try:
        timing = LinkTiming(heartbeat_s=args.heartbeat, mcu_timeout_s=args.timeout)
        thresholds = _thresholds(args.thresholds) if args.thresholds else None
    except (BadSetting, UsageError) as exc:
        print(f"crokiscore bridge: {exc}", file=sys.stderr)
        return 2
    trouble = port_trouble(args.port)   # else the link would try it again and again
    if trouble is not None:
        print(f"crokiscore bridge: --port {trouble}", file=sys.stderr)
        return 2
    # Ctrl-C (or a stop) sets a flag the loop looks at rather than raising wherever the main
    # thread happens to be: raised inside the link's locks, it could leave one held and hang
    # the link's close
    stop = _stop_on_signals()
    try:
        with Link(args.port, timing=timing) as link:
            next_counters = time.monotonic() + 1.0
            while not stop.is_set():
                try:
                    event = link.events.get(timeout=max(0.0, next_counters - time.monotonic()))
                    print(json.dumps(to_json(event)), flush=True)
                    if isinstance(event, McuBooted) and args.maintenance:
                        link.reboot(maintenance=True)
                        print("crokiscore bridge: the sensor bar restarts in maintenance mode; "
                              "mpremote can reach it until its next reset", file=sys.stderr)
                        return 0
                    if isinstance(event, McuBooted) and thresholds:
                        link.set_thresholds(*thresholds)
                except queue.Empty:
                    pass
                except BridgeError as exc:
                    print(f"crokiscore bridge: {exc}", file=sys.stderr)
                if time.monotonic() >= next_counters:
                    next_counters += 1.0
                    counters = {"event": "counters", **dataclasses.asdict(link.stats())}
                    print(json.dumps(counters), flush=True)
                    if args.status and link.connected:
                        try:
                            link.get_status()
                        except BridgeError as exc:
                            print(f"crokiscore bridge: {exc}", file=sys.stderr)
    except KeyboardInterrupt:  # (a second Ctrl-C, or one before the handler was in place)
        return 0
    return 0


def _stop_on_signals() -> threading.Event:
    """An event set by SIGTERM or SIGINT, for a command's loop to end on."""
    import signal

    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    return stop


def _cmd_score(args: argparse.Namespace) -> int:
    from device.config import load
    from device.errors import ConfigError
    from vision.command import score

    colours = calibration = board = None
    if args.config:
        try:
            config = load(args.config)
        except ConfigError as exc:
            print(f"crokiscore score: {exc}", file=sys.stderr)
            return 2
        colours, calibration = config.vision.team_colours, config.camera.calibration
        board = config.board.board()
    return score(args, colours, calibration, board)


def _cmd_calibrate(args: argparse.Namespace) -> int:
    from device.config import load
    from device.errors import ConfigError
    from vision.command import calibrate_command

    board = None
    if args.config:
        try:
            board = load(args.config).board.board()
        except ConfigError as exc:
            print(f"crokiscore calibrate: {exc}", file=sys.stderr)
            return 2
    return calibrate_command(args, board)


def _thresholds(text: str) -> tuple[int, int]:
    touch, _, release = text.partition("/")
    try:
        pair = (int(touch), int(release))
    except ValueError:
        pair = (0, 0)
    if not 0 < pair[1] < pair[0] <= 255:
        from device.errors import UsageError

        raise UsageError(f"--thresholds wants TOUCH/RELEASE counts with 0 < RELEASE < TOUCH "
                         f"<= 255, such as 12/6, not {text!r}")
    return pair


def _cmd_sim(args: argparse.Namespace) -> int:
    import shutil
    import tempfile
    from dataclasses import replace
    from pathlib import Path

    from device.commands.simulation import Simulation
    from device.config import ConfigError, load, parse
    from device.errors import DeviceError
    from device.screen.terminal import fitting
    from rules.errors import CrokiscoreError

    try:
        config = load(args.config) if args.config else parse({"backend": "sim"}, "<sim defaults>")
        options = json.loads(args.options) if args.options else None
    except ConfigError as exc:
        print(f"crokiscore sim: {exc}", file=sys.stderr)
        return 2
    except (ValueError, RecursionError) as exc:
        print(f"crokiscore sim: --options is not JSON ({exc}); give an object such as "
              "'{\"legs\": 1, \"sets\": 1}'", file=sys.stderr)
        return 2
    if options is not None and not isinstance(options, dict):
        print(f"crokiscore sim: --options must be a JSON object of the rule set's options, such "
              f"as '{{\"legs\": 1}}', not {args.options[:40]!r}", file=sys.stderr)
        return 2
    record = Path(args.record) if args.record else None
    if record is not None and (record / "events.db").exists():
        print(f"crokiscore sim: {record} already holds a recorded match (events.db): give a new "
              "folder, or remove that one first", file=sys.stderr)
        return 2
    workdir = record or Path(tempfile.mkdtemp(prefix="crokiscore-sim-"))
    frames: list[Image.Image] = []

    def on_frame(image: Image.Image) -> None:
        frames.append(image.copy())
        if args.live:
            columns = shutil.get_terminal_size((80, 24)).columns
            sys.stdout.write("\x1b[H\x1b[2J" if sys.stdout.isatty() else "\n")
            sys.stdout.write(fitting(image, columns) + "\n")
            sys.stdout.flush()

    try:
        workdir.mkdir(parents=True, exist_ok=True)
        config = replace(config, store=str(workdir / "events.db"),
                         camera=replace(config.camera, pictures=str(workdir / "boards")
                                        if record else None))
        sim = Simulation(config, args.rules, args.seed, options=options, speed=args.speed,
                         on_frame=on_frame)
        outcome = sim.run()
    except (DeviceError, CrokiscoreError, OSError) as exc:
        print(f"crokiscore sim: {exc}", file=sys.stderr)
        return 2
    if record is not None:
        _save_frames(frames, record)
    if args.json:
        print(json.dumps({"result": outcome.result.to_json(), "truth": outcome.truth.to_json(),
                          "operator": vars(outcome.tally)}))
    else:
        from device.commands.simulation import compare

        diffs = compare(outcome.result, outcome.truth)
        t = outcome.tally
        verdict = "agrees" if not diffs else "; ".join(diffs)
        print(f"{args.rules}, seed {args.seed}: the box scored {list(outcome.result.score)}, "
              f"truly {list(outcome.truth.score)}: {verdict}")
        print(f"operator: {t.confirmed} confirmed, {t.corrected} corrected, {t.by_hand} by hand, "
              f"{t.credited} 20s credited to the other side, {t.fouls} fouls called; "
              f"{len(t.unflagged)} wrong readings not flagged")
    return 0 if not outcome.tally.unflagged and outcome.agrees() else 1


def _save_frames(frames: list[Image.Image], folder: Path) -> None:
    """Every OLED frame as a PNG, and the whole match as an animated GIF."""
    from PIL import Image

    folder.mkdir(parents=True, exist_ok=True)
    big = [f.convert("L").resize((f.width * 3, f.height * 3), Image.Resampling.NEAREST)
           for f in frames]
    for i, frame in enumerate(big):
        frame.save(folder / f"oled_{i:04d}.png")
    if big:
        big[0].save(folder / "oled.gif", save_all=True, append_images=big[1:], duration=400,
                    loop=0)


def _cmd_run(args: argparse.Namespace) -> int:
    import logging

    from device.config import ConfigError, load
    from device.daemon import Daemon
    from device.errors import DeviceError

    try:
        config = load(args.config)
    except ConfigError as exc:
        print(f"crokiscore run: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(level=config.log_level, stream=sys.stderr,
                        format="%(levelname)s %(name)s: %(message)s")
    stop = _stop_on_signals()
    try:
        feed = None
        if args.feed:
            from dataclasses import replace

            from device.commands.feed import Feeder, already_fed, read_feed
            from device.config import MatchConfig

            start, events = read_feed(args.feed)
            config = replace(config, match=MatchConfig(start.rules, start.players, start.options))
        with Daemon(config) as daemon:
            daemon.begin()
            if args.feed:
                app = daemon.shell
                feed = Feeder(app, daemon.inputs.put, events, already_fed(app),
                              pace_s=args.pace)
                feed.begin()
                threading.Thread(target=lambda: (feed.done.wait(), stop.set()),
                                 daemon=True).start()
            daemon.run(stop)
    except DeviceError as exc:
        logging.getLogger("crokiscore").error("%s", exc)
        return 1
    return 1 if feed is not None and feed.error else 0


def _cmd_club(args: argparse.Namespace) -> int:
    from device.club.command import club

    return club(args)


def _cmd_doctor(args: argparse.Namespace) -> int:
    from device.commands.doctor import repair, report

    return repair(args.config) if args.repair else report(args.config)


def _focal_px(text: str) -> float:
    """``--focal-px``: a lens's focal length in pixels, a positive number."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 10.0 <= value <= 100_000.0:
        raise argparse.ArgumentTypeError(f"a focal length in pixels from 10 to 100000 (a Pi "
                                         f"camera's is about 1500 to 3000), not {text!r}")
    return value


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="crokiscore", description="Crokinole scoring appliance.")
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("replay", help="replay an event log (JSON lines) and print the state")
    r.add_argument("file", help="the event log, or - for standard input")
    r.add_argument("--json", action="store_true", help="print the final state as one JSON object")
    r.add_argument("--scoreboard", action="store_true",
                   help="print the scoreboard each time a round or turn is decided")
    r.set_defaults(func=_cmd_replay)

    h = sub.add_parser("history", help="export finished matches (CSV or JSON) and player stats")
    h.add_argument("--config", help="the config file naming the store (default: "
                   "/etc/crokiscore/config.toml)")
    h.add_argument("--store", help="the event store file, instead of the config's")
    what = h.add_mutually_exclusive_group()
    what.add_argument("--json", action="store_true", help="matches and players as JSON")
    what.add_argument("--players", action="store_true", help="the player table as CSV")
    what.add_argument("--stats", action="store_true", help="each player's counts in each match "
                      "(20s, fouls, open-board 20s) as CSV")
    h.set_defaults(func=_cmd_history)

    o = sub.add_parser("oled", help="replay an event log and draw the OLED scoreboard it ends on")
    o.add_argument("file", help="the event log (JSON lines)")
    o.add_argument("--driver", default="ssd1306", choices=("ssd1306", "sh1106", "ssd1309",
                                                           "ssd1322"),
                   help="the panel to draw for (ssd1322: 256x64 greyscale; default %(default)s)")
    o.add_argument("--png", help="also save the frame as a PNG")
    o.add_argument("--zoom", type=int, default=1,
                   help="enlarge the PNG this many times (1 to 32, default %(default)s)")
    o.set_defaults(func=_cmd_oled)
    b = sub.add_parser("bridge", help="watch the sensor bar: print its events and the link's "
                       "counters as JSON lines until Ctrl-C")
    b.add_argument("--port", required=True,
                   help="serial device (/dev/serial/by-id/usb-MicroPython_...) or pyserial URL")
    b.add_argument("--heartbeat", type=float, default=0.5, help="host heartbeat period, seconds")
    b.add_argument("--timeout", type=float, default=1.5,
                   help="report the sensor bar lost after this many silent seconds at least "
                   "(three of the heartbeat periods it announces, when that is longer)")
    b.add_argument("--thresholds", metavar="TOUCH/RELEASE",
                   help="set every quadrant's MPR121 thresholds (e.g. 12/6) at each boot")
    b.add_argument("--status", action="store_true",
                   help="ask for the sensor readings every second as well")
    b.add_argument("--maintenance", action="store_true",
                   help="restart the sensor bar with its REPL free for mpremote, then exit")
    b.set_defaults(func=_cmd_bridge)
    sm = sub.add_parser("sim", help="the whole appliance against the simulator: bots play, "
                        "the box scores")
    sm.add_argument("--rules", default="tournament-singles", help="rule set (default %(default)s)")
    sm.add_argument("--seed", type=int, default=1)
    sm.add_argument("--options", help='rule set options as JSON, e.g. \'{"legs": 1}\'')
    sm.add_argument("--config", help="a config file (default: the simulator's defaults)")
    sm.add_argument("--speed", type=float, default=0.0,
                    help="simulated seconds per real second (default 0: as fast as possible)")
    sm.add_argument("--live", action="store_true", help="draw the OLED in the terminal")
    sm.add_argument("--record", help="folder for the OLED frames (PNG, GIF), the event store "
                    "and each round's annotated board picture")
    sm.add_argument("--json", action="store_true",
                    help='end with one JSON line: {"result": ..., "truth": ...}')
    sm.set_defaults(func=_cmd_sim)

    dr = sub.add_parser("doctor", help="check every part of the box and say what is wrong")
    dr.add_argument("--config", default=None,
                    help="the config file (default /etc/crokiscore/config.toml)")
    dr.add_argument("--repair", action="store_true", help="move a damaged event store aside and "
                    "rebuild it with every event that can still be read (stop the service first)")
    dr.set_defaults(func=_cmd_doctor)

    from device.club.command import add_parser as add_club

    add_club(sub, _cmd_club)

    rn = sub.add_parser("run", help="the daemon (on a Pi, or against the simulator)")
    rn.add_argument("--config", default="/etc/crokiscore/config.toml",
                    help="the config file (default %(default)s)")
    rn.add_argument("--feed", help="take the match's events from this log (the replay format) "
                    "instead of the sensors, resuming after a restart; stop at its end")
    rn.add_argument("--pace", type=float, default=0.0, metavar="S",
                    help="with --feed: wait S seconds between events, as a real board would")
    rn.set_defaults(func=_cmd_run)
    sides = ("bottom", "right", "top", "left")
    sc = sub.add_parser("score", help="read the discs in pictures of the board: zones, sides, "
                        "totals (JSON lines with --json)")
    sc.add_argument("images", nargs="+", metavar="IMAGE", help="pictures of the board")
    sc.add_argument("--calibration", metavar="CAL",
                    help="the fixed rig's calibration (else the board is found in each picture)")
    sc.add_argument("--json", action="store_true",
                    help='one JSON object a line: {"image", "discs", "totals"}')
    sc.add_argument("--annotate", metavar="DIR",
                    help="write a picture to check per image into DIR (as NAME.png)")
    sc.add_argument("--config", metavar="FILE", help="the daemon's config: its [vision] "
                    "team_colours and [camera] calibration")
    sc.add_argument("--seat0", choices=sides, default="bottom", help="without a calibration, "
                    "the picture's edge seat 0 sits at (default %(default)s)")
    sc.add_argument("--focal-px", type=_focal_px, metavar="F",
                    help="the lens's focal length in pixels, if known")
    sc.set_defaults(func=_cmd_score)
    ca = sub.add_parser("calibrate", help="find the board on a frame of the empty board and "
                        "write the rig's calibration and a check picture")
    ca.add_argument("image", metavar="EMPTY", help="a frame of the empty board from the rig")
    ca.add_argument("--out", required=True, metavar="CAL", help="the calibration file to write")
    ca.add_argument("--seat0", choices=sides, default="bottom",
                    help="the frame's edge seat 0 sits at (default %(default)s)")
    ca.add_argument("--focal-px", type=_focal_px, metavar="F", help="the lens's focal length in "
                    "pixels, if known (else from the camera mode, or a typical lens)")
    ca.add_argument("--picture", metavar="PNG",
                    help="where to write the check picture (default: CAL with .png)")
    ca.add_argument("--config", metavar="FILE", help="the box's config: a board stated in its "
                    "[board] is taken as it is instead of being measured")
    ca.set_defaults(func=_cmd_calibrate)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    stdout, sys.stdout = sys.stdout, _Output(sys.stdout)
    try:
        status = int(args.func(args))
        sys.stdout.flush()
    except OutputFailed as failed:
        _to_nowhere(stdout)
        if failed.errno == errno.EPIPE:  # the reader (head, less) had enough: not an error
            return 0
        print(f"crokiscore {args.command}: cannot write the output ({failed.strerror}): free "
              "space where it goes, or send it somewhere else", file=sys.stderr)
        return 2
    finally:
        sys.stdout = stdout
    return status


class OutputFailed(Exception):
    """Standard output could not be written (a closed pipe, a full disk): told apart from the
    command's own files, whose troubles each command reports itself."""

    def __init__(self, exc: OSError) -> None:
        super().__init__(str(exc))
        self.errno = exc.errno
        self.strerror = exc.strerror or str(exc)


class _Output:
    """Standard output, its failures raised as :class:`OutputFailed`."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except OSError as exc:
            raise OutputFailed(exc) from exc

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as exc:
            raise OutputFailed(exc) from exc

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _to_nowhere(stream: TextIO) -> None:
    """``stream`` pointed at /dev/null, so that what is still buffered in it does not fail once
    more, with Python's own traceback, as the command exits."""
    import contextlib

    with contextlib.suppress(OSError, ValueError, AttributeError):  # a test's capture
        os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())


if __name__ == "__main__":
    raise SystemExit(main())
