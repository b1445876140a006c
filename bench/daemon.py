"""The daemon's own speed: sensor edge to display frame (p50, p99), memory, start-up.

* Latency, in process, on the simulated table with a real luma.oled SSD1306 driver writing to the
  table's I2C bus: from the 20-hole beam clearing (a drop is accepted on that edge) and from the
  sensor bar's Pico writing a touch frame, to the new frame handed to the panel; without a club,
  then publishing every event to a real Mosquitto broker on this machine ([club]).
* Memory: the resident set of a ``crokiscore run`` process (peak, from /proc) after it has
  consumed a whole match, and of the in-process daemon after the latency runs.
* Start-up: from launching ``crokiscore run`` to its first OLED frame.
* Memory with vision: a daemon process (its own interpreter) whose camera is read by vision at
  every round's end: 2028x1520 frames of boards left by simulated play, rendered beforehand by
  the simulator and served by the folder camera, so the simulator's renderer (not on a Pi) stays
  out of the figure. Peak RSS once the daemon is open (vision imported, calibration loaded) and
  after it has read every round, without and with ``[camera] pictures`` (an annotated picture
  kept per reading); and, for comparison, the whole simulated appliance (``crokiscore sim``:
  daemon, vision and the simulator with its camera renderer in one process).

    python bench/daemon.py [--shots N] [--rounds N]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from device.config import parse
from device.daemon import Daemon
from device.hardware.sim import SimHardware
from device.screen.screen import OledScreen
from firmware_bridge.codec import decode_all
from firmware_bridge.messages import TouchChange
from hw_sim.scripted import play
from hw_sim.table import SimTable


class TimedScreen(OledScreen):
    def __init__(self, display) -> None:  # type: ignore[no-untyped-def]
        super().__init__(display)
        self.shown: list[tuple[float, int]] = []

    def show(self, match, status) -> None:  # type: ignore[no-untyped-def]
        super().show(match, status)
        self.shown.append((time.monotonic(), match.depth if match else -1))


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))]


def rss_kb(pid: int | str = "self") -> tuple[int, int]:
    text = Path(f"/proc/{pid}/status").read_text()
    get = lambda key: int(re.search(rf"{key}:\s+(\d+)", text).group(1))  # noqa: E731
    return get("VmRSS"), get("VmHWM")


def latency(shots: int, club: str | None = None) -> dict[str, tuple[float, float]]:
    tmp = Path(tempfile.mkdtemp())
    more = {"club": {"broker": club, "club": "bench", "board": "board-1"}} if club else {}
    cfg = parse({"backend": "sim", "store": str(tmp / "e.db"),
                 "match": {"rules": "casual-100", "options": {"target": 10_000}},
                 "camera": {"kind": "none"}, "display": {"driver": "ssd1306"}, **more})
    taps: list[float] = []
    table = SimTable(seed=1)

    def tap(t: float, data: bytes) -> None:  # the moment the Pico writes a touch frame
        if any(isinstance(f.message, TouchChange) for f in decode_all(data)):
            taps.append(t)

    table.pico.port.tap = tap
    daemon = Daemon(cfg, hardware=SimHardware(cfg, table))
    screen = TimedScreen(daemon.display)
    daemon.screen = daemon.shell.screen = screen
    stop = threading.Event()
    loop = threading.Thread(target=daemon.run, args=(stop,))
    loop.start()
    app = daemon.shell
    app.wait(lambda: app.match is not None and daemon.bar.link.connected, 10)
    hole_ms: list[float] = []
    touch_ms: list[float] = []
    touch_sensor_ms: list[float] = []
    pin = table.pin_factory.pin(table.wiring.hole_pin)
    for i in range(shots):
        exp = app.match.expect()
        if exp.what != "shot":  # a round is full: read it by hand and go on
            from device.core.inputs import Operator
            from rules import Correction
            d = app.match.depth
            totals = app.match.latest_value()   # the 20s, an empty board
            daemon.inputs.put(Operator(Correction(totals=totals), time.monotonic()))
            app.wait(lambda d=d: app.match.depth > d, 10)
            exp = app.match.expect()
        q = app.match.rules.quadrant_of(exp.seat)
        table.touch(q, True)
        app.wait(lambda q=q: q in app.touching, 10)
        d = app.match.depth
        n_taps = len(taps)
        t_sensor = time.monotonic()
        table.touch(q, False)
        app.wait(lambda d=d: app.match.depth > d and screen.shown[-1][1] > d, 10)
        t_frame = next(t for t, depth in screen.shown if depth > d)
        t_tap = next((t for t in taps[n_taps:] if t >= t_sensor), None)
        touch_sensor_ms.append((t_frame - t_sensor) * 1000)
        if t_tap is not None:
            touch_ms.append((t_frame - t_tap) * 1000)
        if i % 4 == 0 and app.match.expect().what == "shot":
            d = app.match.depth
            pin.drive_low()
            time.sleep(0.003)
            t_edge = time.monotonic()
            pin.drive_high()
            app.wait(lambda d=d: app.match.depth > d and screen.shown[-1][1] > d, 10)
            t_frame = next(t for t, depth in screen.shown if depth > d)
            hole_ms.append((t_frame - t_edge) * 1000)
    rss, hwm = rss_kb()
    published = daemon.club.acknowledged if daemon.club is not None else None
    stop.set()
    loop.join(10)
    daemon.close()
    table.close()
    print("without a club" if club is None else
          f"publishing to the club's broker {club} ({published} events acknowledged)")
    print(f"{'edge -> frame shown':<34} {'n':>5} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for name, xs in (("20-hole beam clears", hole_ms), ("Pico writes a touch frame", touch_ms),
                     ("touch sensor released (debounce)", touch_sensor_ms)):
        print(f"{name:<34} {len(xs):>5} {statistics.median(xs):>8.2f} {pct(xs, 99):>8.2f} "
              f"{max(xs):>8.2f}")
    print(f"in-process daemon with the simulator: RSS {rss / 1024:.0f} MB (peak {hwm / 1024:.0f}"
          " MB)")
    return {name: (statistics.median(xs), pct(xs, 99)) for name, xs in (
        ("beam", hole_ms), ("touch frame", touch_ms), ("touch sensor", touch_sensor_ms))}


def club_latency(shots: int, pairs: int) -> None:
    """Without and with publishing, alternately (the machine's load drifts), then the medians."""
    sys.path.insert(1, str(Path(__file__).resolve().parents[1]))
    from tests.club.mosquitto import Mosquitto

    runs: dict[bool, list[dict[str, tuple[float, float]]]] = {False: [], True: []}
    with Mosquitto() as broker:
        for _ in range(pairs):
            runs[False].append(latency(shots))
            runs[True].append(latency(shots, broker.address))
    print(f"median over {pairs} runs each   p50 off   p50 on   p99 off   p99 on  (ms)")
    for name in runs[False][0]:
        med = [statistics.median(r[name][i] for r in runs[on]) for i in (0, 1)
               for on in (False, True)]
        print(f"{name:<28} {med[0]:>8.2f} {med[1]:>8.2f} {med[2]:>9.2f} {med[3]:>8.2f}")


def subprocess_figures() -> None:
    tmp = Path(tempfile.mkdtemp())
    feed = tmp / "match.jsonl"
    feed.write_text("".join(json.dumps(e.to_json()) + "\n"
                            for e in play("tournament-singles", random.Random(3))))
    cfg = tmp / "c.toml"
    cfg.write_text(f'backend = "sim"\nstore = "{tmp}/e.db"\nlog_level = "DEBUG"\n'
                   '[camera]\nkind = "none"\n[display]\ndriver = "ssd1306"\n')
    exe = Path(sys.executable).with_name("crokiscore")
    starts = []
    for _ in range(5):
        (tmp / "e.db").unlink(missing_ok=True)
        t0 = time.monotonic()
        p = subprocess.Popen([str(exe), "run", "--config", str(cfg), "--feed", str(feed)],
                             stderr=subprocess.PIPE, text=True)
        assert p.stderr is not None
        first = None
        peak = 0
        for line in p.stderr:
            if first is None and "frame 1 shown" in line:
                first = time.monotonic() - t0
            if "frame" in line and " shown" in line:
                with contextlib.suppress(OSError, AttributeError):
                    peak = max(peak, rss_kb(p.pid)[1])
        p.wait()
        starts.append(first or float("nan"))
    print(f"start-up to the first OLED frame (crokiscore run, 5 runs): median "
          f"{statistics.median(starts):.2f} s, max {max(starts):.2f} s")
    print(f"crokiscore run consuming a tournament match: peak RSS {peak / 1024:.0f} MB")


def vision_figures(rounds: int) -> None:
    tmp = Path(tempfile.mkdtemp())
    try:
        _vision_figures(rounds, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)   # a few hundred MB of frames and pictures


def _vision_figures(rounds: int, tmp: Path) -> None:
    from hw_sim.frames import write_frames

    rendered, folder = tmp / "rendered", tmp / "camera"
    index = write_frames(rendered, rounds, seed=7, width=2028, height=1520, per_rig=rounds)
    folder.mkdir()
    for k, entry in enumerate(index):  # the settle preview takes one copy, the capture the other
        frame = (rendered / entry["image"]).read_bytes()
        for copy in "ab":
            (folder / f"round{k:03d}{copy}.jpg").write_bytes(frame)
    exe = Path(sys.executable).with_name("crokiscore")
    subprocess.run([str(exe), "calibrate", str(rendered / index[0]["empty"]), "--out",
                    str(tmp / "calibration.json")], capture_output=True, check=True)
    scratch = {**os.environ, "TMPDIR": str(tmp)}   # what the processes leave goes with tmp
    for keep in (False, True):
        cfg = tmp / f"c{int(keep)}.toml"
        pictures = f'pictures = "{tmp}/boards"\n' if keep else ""
        cfg.write_text(f'backend = "sim"\nstore = "{tmp}/e{int(keep)}.db"\n'
                       'log_level = "WARNING"\n'
                       '[match]\nrules = "casual-100"\noptions = {target = 10000}\n'
                       f'[camera]\nkind = "folder"\nfolder = "{folder}"\n'
                       f'calibration = "{tmp}/calibration.json"\n{pictures}'
                       'width = 2028\nheight = 1520\nsettle_frames = 1\n'
                       '[display]\ndriver = "ssd1306"\n')
        # -P: this script's folder holds bench/vision.py, which must not hide the vision package
        out = subprocess.run([sys.executable, "-P", __file__, "--vision-child", str(cfg),
                              "--rounds", str(rounds)], capture_output=True, text=True,
                             check=True, env=scratch)
        got = json.loads(out.stdout.strip().splitlines()[-1])
        if not keep:
            print(f"daemon with vision, open (vision imported, calibration loaded): RSS "
                  f"{got['open_rss'] / 1024:.0f} MB (peak {got['open_hwm'] / 1024:.0f} MB)")
        print(f"daemon with vision after reading {got['read']} rounds of 2028x1520 frames "
              f"({got['by_hand']} refused), "
              f"{'keeping' if keep else 'not keeping'} their annotated pictures: RSS "
              f"{got['rss'] / 1024:.0f} MB, peak {got['hwm'] / 1024:.0f} MB")
        print(f"  round's last shot -> its reading committed: median "
              f"{statistics.median(got['read_s']):.2f} s, max {max(got['read_s']):.2f} s")
    t = time.monotonic()
    p = subprocess.Popen([str(exe), "sim", "--rules", "tournament-singles", "--seed", "1"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=scratch)
    _, _, usage = os.wait4(p.pid, 0)
    print(f"crokiscore sim (daemon, vision and the simulator with its 2028x1520 camera "
          f"renderer), a tournament-singles match: peak RSS {usage.ru_maxrss / 1024:.0f} MB "
          f"in {time.monotonic() - t:.0f} s")


def vision_child(config_path: str, rounds: int) -> None:
    """The daemon, driven like a club's match: shots until a round is full, the camera reads
    the board, the operator confirms a CHECK or scores a refused reading by hand."""
    from device.config import load
    from device.core.inputs import Operator
    from rules import Confirm, Correction, Shot

    daemon = Daemon(load(config_path))
    app = daemon.shell
    stop = threading.Event()
    loop = threading.Thread(target=daemon.run, args=(stop,))
    loop.start()
    app.wait(lambda: app.match is not None, 30)
    open_rss, open_hwm = rss_kb()
    read_s: list[float] = []   # from the round's last shot to its reading in the store
    by_hand = 0
    try:
        while len(read_s) < rounds:
            m = app.match
            exp = m.expect()
            d = m.depth
            if exp.what == "shot":
                shot_at = time.monotonic()
                n = app.taken["camera"]
                daemon.inputs.put(Operator(Shot(exp.seat), shot_at, "bench"))
            elif exp.what == "confirm":
                daemon.inputs.put(Operator(Confirm(), time.monotonic(), "bench"))
            elif exp.what == "board":
                if not app.wait(lambda n=n: app.taken["camera"] > n
                                or "camera" in app.faults, 120):
                    raise SystemExit("the camera did not read the board in 120 s")
                read_s.append(time.monotonic() - shot_at)
                if app.taken["camera"] == n:  # refused or failed: scored by hand
                    by_hand += 1
                    daemon.inputs.put(Operator(Correction(totals=(0, 0)), time.monotonic(),
                                               "bench"))
                else:
                    continue
            else:
                raise SystemExit(f"the match expects {exp.what!r}")
            if not app.wait(lambda d=d: app.match.depth > d, 10):
                raise SystemExit(f"the daemon did not take the input at depth {d}: "
                                 f"{app.last_refusal}")
        rss, hwm = rss_kb()
    finally:
        stop.set()
        loop.join(10)
        daemon.close()
    print(json.dumps({"open_rss": open_rss, "open_hwm": open_hwm, "rss": rss, "hwm": hwm,
                      "read": len(read_s), "by_hand": by_hand, "read_s": read_s}))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--shots", type=int, default=400)
    p.add_argument("--rounds", type=int, default=4,
                   help="rounds the camera reads in the memory-with-vision run")
    p.add_argument("--vision-child", metavar="CONFIG", help=argparse.SUPPRESS)
    p.add_argument("--latency-only", action="store_true",
                   help="only the edge-to-frame figures, without and with a club")
    p.add_argument("--pairs", type=int, default=3,
                   help="runs without and with a club, alternately (default %(default)s)")
    args = p.parse_args()
    if args.vision_child:
        vision_child(args.vision_child, args.rounds)
        return
    club_latency(args.shots, args.pairs)
    if args.latency_only:
        return
    subprocess_figures()
    vision_figures(args.rounds)


if __name__ == "__main__":
    main()
