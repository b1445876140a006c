"""The daemon's own speed: sensor edge to display frame (p50, p99), memory, start-up.

* Latency, in process, on the simulated table with a real luma.oled SSD1306 driver writing to the
  table's I2C bus: from the 20-hole beam clearing (a drop is accepted on that edge) and from the
  sensor bar's Pico writing a touch frame, to the new frame handed to the panel.
* Memory: the resident set of a ``crokiscore run`` process (peak, from /proc) after it has
  consumed a whole match, and of the in-process daemon after the latency runs.
* Start-up: from launching ``crokiscore run`` to its first OLED frame.

    python bench/daemon.py [--shots N]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from device.config import parse
from device.daemon import Daemon
from device.screen import OledScreen
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


def latency(shots: int) -> None:
    tmp = Path(tempfile.mkdtemp())
    cfg = parse({"backend": "sim", "store": str(tmp / "e.db"),
                 "match": {"rules": "casual-100", "options": {"target": 10_000}},
                 "camera": {"kind": "none"}, "display": {"driver": "ssd1306"}})
    taps: list[float] = []
    table = SimTable(seed=1)

    def tap(t: float, data: bytes) -> None:  # the moment the Pico writes a touch frame
        if any(isinstance(f.message, TouchChange) for f in decode_all(data)):
            taps.append(t)

    table.pico.port.tap = tap
    daemon = Daemon(cfg, table=table)
    screen = TimedScreen(daemon.display)
    daemon.screen = daemon.appliance.screen = screen
    stop = threading.Event()
    loop = threading.Thread(target=daemon.run, args=(stop,))
    loop.start()
    app = daemon.appliance
    app.wait(lambda: app.match is not None and daemon.bar.link.connected, 10)
    hole_ms: list[float] = []
    touch_ms: list[float] = []
    touch_sensor_ms: list[float] = []
    pin = table.pin_factory.pin(table.wiring.hole_pin)
    for i in range(shots):
        exp = app.match.expect()
        if exp.what != "shot":  # a round is full: read it by hand and go on
            from device.inputs import Operator
            from rules import Correction
            d = app.match.depth
            totals = app.match.summary()["rounds"][-1]["totals"]   # the 20s, an empty board
            daemon.inputs.put(Operator(Correction(totals=(totals[0], totals[1])),
                                       time.monotonic()))
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
    stop.set()
    loop.join(10)
    daemon.close()
    table.close()
    print(f"{'edge -> frame shown':<34} {'n':>5} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for name, xs in (("20-hole beam clears", hole_ms), ("Pico writes a touch frame", touch_ms),
                     ("touch sensor released (debounce)", touch_sensor_ms)):
        print(f"{name:<34} {len(xs):>5} {statistics.median(xs):>8.2f} {pct(xs, 99):>8.2f} "
              f"{max(xs):>8.2f}")
    print(f"in-process daemon with the simulator: RSS {rss / 1024:.0f} MB (peak {hwm / 1024:.0f}"
          " MB)")


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


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--shots", type=int, default=400)
    args = p.parse_args()
    latency(args.shots)
    subprocess_figures()


if __name__ == "__main__":
    main()
