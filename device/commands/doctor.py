"""``crokiscore doctor``: every part of the box checked, and what is wrong said in words.

Each check opens the part the way the daemon would, tries it once, and closes it again, so the
doctor can run beside a stopped service (stop the service first: the daemon holds the pins and the
serial port while it runs). Against the simulator (``backend = "sim"``) the same checks run on the
simulated table.
"""

from __future__ import annotations

import contextlib
import os
import queue
import shutil
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from device.config import Config, ConfigError, load
from device.errors import DeviceError
from firmware_bridge.firmware.sensorbar import FIRMWARE

if TYPE_CHECKING:
    from hw_sim.table import SimTable

MIN_FREE_MB = 200
SHIPPED_FIRMWARE = ".".join(str(p) for p in FIRMWARE)  # what docs/sensor-bar.md flashes


@dataclass(frozen=True)
class Finding:
    """A part's verdict: ``ok`` (it works; ``warn`` if something about it should be seen to)
    or not (it needs fixing, and the doctor exits non-zero)."""

    part: str
    ok: bool
    detail: str
    warn: bool = False

    def line(self) -> str:
        mark = "FAIL" if not self.ok else "warn" if self.warn else "ok  "
        return f"{mark} {self.part:<8} {self.detail}"


@dataclass(frozen=True)
class Caution:
    """What a check returns for a part that works but should be seen to."""

    detail: str


def _check(part: str, run: Callable[[], str | Caution]) -> Finding:
    try:
        result = run()
    except Exception as exc:  # the doctor reports anything; it never crashes on a bad part
        return Finding(part, False, str(exc) or repr(exc))
    if isinstance(result, Caution):
        return Finding(part, True, result.detail, warn=True)
    return Finding(part, True, result)


def examine(config_path: str | Path | None) -> Iterator[Finding]:
    try:
        config = load(config_path)
    except ConfigError as exc:
        yield Finding("config", False, str(exc))
        return
    yield Finding("config", True, f"{config.source}: backend {config.backend}, "
                  f"{config.match.rules}")
    table: SimTable | None = None
    if config.backend == "sim":
        from hw_sim.table import SimTable, Wiring

        table = SimTable(seed=config.sim.seed, wiring=Wiring(
            hole_pin=config.hole.pin, channels=config.touch.channels,
            buttons=tuple((k, v) for k in ("menu", "ok", "back")
                          if (v := getattr(config.buttons, k)) is not None)),
            width=config.camera.width, height=config.camera.height)
    try:
        yield _check("gpio", lambda: _gpio(config, table))
        yield _check("display", lambda: _display(config))
        yield _check("camera", lambda: _camera(config, table))
        yield _check("sensors", lambda: _sensor_bar(config, table))
        yield _check("disk", lambda: _disk(config))
        yield _check("store", lambda: _store(config))
        if config.club is not None:  # club hook: the link to the club's broker
            from device.club.doctor import check as club_check

            club = config.club
            yield _check("club", lambda: club_check(club, config.store))
    finally:
        if table is not None:
            table.close()


def _gpio(config: Config, table: SimTable | None) -> str:
    from device.hardware.buttons import Buttons
    from device.hardware.hole import HoleSensor, PulseLimits

    pins = table.pin_factory if table is not None else None
    q: queue.Queue[object] = queue.Queue()
    with HoleSensor(config.hole.pin, PulseLimits(), q, pull_up=config.hole.pull_up,
                    pin_factory=pins) as hole:
        blocked = hole._device.is_active
    buttons = {k: getattr(config.buttons, k) for k in ("menu", "ok", "back")}
    with Buttons(buttons, q, pin_factory=pins):
        pass
    used = ", ".join(f"{k} GPIO{v}" for k, v in buttons.items() if v is not None)
    if blocked:
        raise DeviceError(f"the 20-hole beam on GPIO{config.hole.pin} reads blocked: clear the "
                          "hole, check the emitter is lit and the receiver wired (docs/install.md)")
    return f"20-hole beam GPIO{config.hole.pin} clear; buttons {used}"


def _display(config: Config) -> str:
    from PIL import Image, ImageDraw

    from device.daemon import display_settings
    from device.hardware.display import open_display

    sim = config.backend == "sim" or config.display.driver == "dummy"
    with open_display(display_settings(config.display), backend="sim" if sim else "pi") as d:
        image = Image.new(d.mode, (d.width, d.height), 0)
        ImageDraw.Draw(image).rectangle((0, 0, d.width - 1, d.height - 1), outline=255)
        d.show(image)
        return f"{d!r}: a test frame was shown"


def _camera(config: Config, table: SimTable | None) -> str:
    from device.hardware.camera import open_camera

    cam = open_camera(config.camera, table)
    if cam is None:
        return "no camera configured: rounds are scored on the buttons"
    with cam:
        t = time.monotonic()
        frame = cam.capture()
        ms = (time.monotonic() - t) * 1000
    h, w = frame.shape[:2]
    if (w, h) != (config.camera.width, config.camera.height) and config.camera.kind != "folder":
        raise DeviceError(f"the camera gave {w}x{h} frames, the config asks for "
                          f"{config.camera.width}x{config.camera.height}: choose a mode it has")
    mean = float(frame.mean())
    if mean > 240:
        raise DeviceError(f"frames are nearly white (mean {mean:.0f}): lower [camera] "
                          "exposure_us or analogue_gain")
    cal = config.camera.calibration
    if cal is not None and not Path(cal).is_file():
        raise DeviceError(f"the calibration {cal} does not exist: run crokiscore calibrate on an "
                          "empty-board frame (docs/install.md)")
    return f"{w}x{h} frame in {ms:.0f} ms, mean level {mean:.0f}" + (
        f"; calibration {cal}" if cal else "; no calibration (the board is found in each frame)")


def _sensor_bar(config: Config, table: SimTable | None) -> str | Caution:
    from device.daemon import link_timing
    from firmware_bridge import events as bar
    from firmware_bridge.link import Link

    port = table.port if table is not None else config.touch.port
    events: queue.Queue[object] = queue.Queue()
    timing = link_timing(config)
    deadline = time.monotonic() + timing.mcu_timeout_s + 2.0
    with Link(port, events=events, timing=timing, baudrate=config.touch.baudrate) as link:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise DeviceError(f"no hello from the sensor bar on {port}: check its USB cable "
                                  "and that its firmware is flashed (docs/sensor-bar.md)")
            with contextlib.suppress(queue.Empty):
                ev = events.get(timeout=left)
                if isinstance(ev, bar.McuBooted):
                    status = link.get_status()
                    touched = [q for q in range(4) if status.touched >> q & 1]
                    extra = f"; touched now: quadrants {touched}" if touched else ""
                    found = (f"firmware {ev.firmware}, protocol {ev.protocol}, on {port}; "
                             f"thresholds {[c.touch_threshold for c in status.channels]}{extra}")
                    if ev.firmware != SHIPPED_FIRMWARE:
                        return Caution(f"{found}; this software comes with firmware "
                                       f"{SHIPPED_FIRMWARE}: flash it (docs/sensor-bar.md, "
                                       "'Updating the firmware later')")
                    return found
                if isinstance(ev, bar.Incompatible):
                    raise DeviceError(f"the sensor bar speaks protocol {ev.protocol}, this "
                                      f"software {ev.supported}: flash its firmware again")
                if isinstance(ev, bar.LinkDown) and "No such file" in ev.reason:
                    raise DeviceError(f"the sensor bar's port {port} does not exist: is it "
                                      "plugged in? (ls /dev/serial/by-id/)")


def _disk(config: Config) -> str:
    folder = Path(config.store).resolve().parent
    probe = folder if folder.exists() else folder.parent
    free_mb = shutil.disk_usage(probe).free / 1e6
    if free_mb < MIN_FREE_MB:
        raise DeviceError(f"only {free_mb:.0f} MB free for the store in {folder}: free space "
                          f"(at least {MIN_FREE_MB} MB)")
    return f"{free_mb:,.0f} MB free in {folder}"


def _store(config: Config) -> str:
    """Looks at the store without creating or changing it: the daemon makes it on first start."""
    from device.store import EventStore
    from rules import fold

    path = Path(config.store)
    if not path.exists():
        folder = path.parent
        if not folder.is_dir():
            raise DeviceError(f"the store's folder {folder} does not exist: create it for the "
                              f"service's user (sudo install -d -o crokiscore -g crokiscore "
                              f"-m 0750 {folder}, docs/install.md)")
        if not os.access(folder, os.W_OK | os.X_OK):
            raise DeviceError(f"this user cannot create the store in {folder}: run the doctor "
                              "as the service's user (sudo -u crokiscore ...), and give that "
                              f"user the folder (sudo chown crokiscore: {folder})")
        return f"no store yet: it is created on first start ({config.store})"
    with EventStore(config.store, read_only=True) as store:
        verdict = store.integrity()
        if verdict != "ok":
            raise DeviceError(f"the store {config.store} is damaged ({verdict}): stop the "
                              "service, move the file aside and keep it for recovery")
        matches = store.matches()
        open_id = store.unfinished()
        note = ""
        if open_id is not None:
            m = fold(store.events(open_id))
            note = f"; match {open_id} ({m.rules.name}) in play, {m.depth} events"
    return f"{config.store}: {len(matches)} matches kept{note}"


def report(config_path: str | Path | None, write: Callable[[str], object] = print) -> int:
    """Prints each finding; 0 if every part is well, 1 otherwise."""
    bad = warned = 0
    for finding in examine(config_path):
        write(finding.line())
        bad += not finding.ok
        warned += finding.ok and finding.warn
    if bad:
        write(f"{bad} part(s) need attention")
    else:
        write("all parts ok" + (f"; {warned} warning(s) above" if warned else ""))
    return 1 if bad else 0
