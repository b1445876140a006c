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

from device.config import Config, ConfigError, load
from device.errors import CameraError, DeviceError, StoreError
from device.hardware import Hardware, open_hardware
from firmware_bridge.firmware.sensorbar import FIRMWARE

MIN_FREE_MB = 200
STATE_DIRECTORY = Path("/var/lib/crokiscore")  # systemd makes it for the unit (StateDirectory=)
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
    try:
        hardware = open_hardware(config)
    except DeviceError as exc:
        yield Finding("hardware", False, str(exc))
        return
    with hardware:
        yield _check("gpio", lambda: _gpio(config, hardware))
        yield _check("display", lambda: _display(config, hardware))
        yield _check("camera", lambda: _camera(config, hardware))
        yield _check("sensors", lambda: _sensor_bar(config, hardware))
        yield _check("disk", lambda: _disk(config))
        yield _check("store", lambda: _store(config))
        if config.club is not None:
            from device.club.doctor import check as club_check

            club = config.club
            yield _check("club", lambda: club_check(club, config.store))


def _gpio(config: Config, hardware: Hardware) -> str:
    from device.hardware.buttons import Buttons
    from device.hardware.hole import HoleSensor, PulseLimits

    pins = hardware.pin_factory
    q: queue.Queue[object] = queue.Queue()
    with HoleSensor(config.hole.pin, PulseLimits(), q, pull_up=config.hole.pull_up,
                    pin_factory=pins) as hole:
        blocked = hole._device.is_active
    buttons = config.buttons.pins()
    with Buttons(buttons, q, pin_factory=pins):
        pass
    used = ", ".join(f"{k} GPIO{v}" for k, v in buttons.items() if v is not None)
    if blocked:
        raise DeviceError(f"the 20-hole beam on GPIO{config.hole.pin} reads blocked: clear the "
                          "hole, check the emitter is lit and the receiver wired (docs/install.md)")
    return f"20-hole beam GPIO{config.hole.pin} clear; buttons {used}"


def _display(config: Config, hardware: Hardware) -> str:
    from PIL import Image, ImageDraw

    with hardware.display(config.display) as d:
        image = Image.new(d.mode, (d.width, d.height), 0)
        ImageDraw.Draw(image).rectangle((0, 0, d.width - 1, d.height - 1), outline=255)
        d.show(image)
        return f"{d!r}: a test frame was shown"


def _camera(config: Config, hardware: Hardware) -> str:
    cam = hardware.camera(config.camera)
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
    if cal is not None:
        _calibration(config)
    return f"{w}x{h} frame in {ms:.0f} ms, mean level {mean:.0f}" + (
        f"; calibration {cal}" if cal else "; no calibration (the board is found in each frame)")


def _calibration(config: Config) -> None:
    """The calibration the daemon will load, loaded the same way: a file that is not one, or
    one made for another board than the config states, is a failure here, not a box that
    quietly runs without its camera."""
    path = str(config.camera.calibration)
    if not Path(path).is_file():
        raise DeviceError(f"the calibration {path} does not exist: run crokiscore calibrate on "
                          "an empty-board frame (docs/install.md)")
    from device.reading.vision import rig

    try:
        rig(config)
    except CameraError as exc:
        raise DeviceError(f"the calibration {path} cannot be used: {exc} (docs/install.md)"
                          ) from exc


def _sensor_bar(config: Config, hardware: Hardware) -> str | Caution:
    from device.daemon import link_timing
    from firmware_bridge import events as bar
    from firmware_bridge.link import Link, port_trouble

    port = hardware.sensor_port
    trouble = port_trouble(port)
    if trouble is not None:
        raise DeviceError(f"[touch] port: {trouble}")
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


def _existing(folder: Path) -> Path:
    """The nearest folder that exists: where a store not made yet will live."""
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return folder


def _disk(config: Config) -> str:
    from device.store import check_path

    check_path(config.store)
    folder = Path(config.store).resolve().parent
    probe = _existing(folder)
    free_mb = shutil.disk_usage(probe).free / 1e6
    if free_mb < MIN_FREE_MB:
        raise DeviceError(f"only {free_mb:.0f} MB free for the store in {folder}: free space "
                          f"(at least {MIN_FREE_MB} MB; docs/install.md)")
    return f"{free_mb:,.0f} MB free in {probe}"


def _store(config: Config) -> str:
    """Looks at the store without creating or changing it: the daemon makes it on first start."""
    from device.store import EventStore, check_path

    check_path(config.store)
    path = Path(config.store)
    folder = path.resolve().parent
    probe = _existing(folder)
    if os.statvfs(probe).f_flag & os.ST_RDONLY:
        raise DeviceError(f"the store's filesystem ({probe}) is mounted read-only: nothing can be "
                          "written; the SD card may be failing (copy the store off and replace "
                          "it), or remount it read-write")
    if not path.exists():
        if probe != folder and config.backend == "pi":
            if folder == STATE_DIRECTORY:
                return (f"no store yet: it is created on first start, in {folder} (the service's"
                        " StateDirectory, which systemd makes)")
            if os.geteuid() == 0 or not os.access(probe, os.W_OK | os.X_OK):
                # root may write anywhere: that says nothing of the service's user
                raise DeviceError(f"the store's folder {folder} does not exist: create it for "
                                  "the service's user (sudo install -d -o crokiscore -g "
                                  f"crokiscore -m 0750 {folder}, docs/install.md)")
        if not os.access(probe, os.W_OK | os.X_OK):
            raise DeviceError(f"this user cannot create the store in {folder}: run the doctor "
                              "as the service's user (sudo -u crokiscore ...), and give that "
                              f"user the folder (sudo install -d -o crokiscore -g crokiscore "
                              f"-m 0750 {folder}, docs/install.md)")
        made = "it is" if probe == folder else "it and its folder are"
        return f"no store yet: {made} created on first start ({config.store})"
    if not os.access(path, os.W_OK) or not os.access(folder, os.W_OK | os.X_OK):
        raise DeviceError(f"the store {path} (or its folder) is not writable by this user: give "
                          f"both to the service's user (sudo chown -R crokiscore: {folder})")
    try:
        with EventStore(config.store, read_only=True) as store:
            verdict = store.integrity()
            if verdict != "ok":
                raise DeviceError(f"the store {config.store} is damaged ({verdict}): stop the "
                                  "service and run crokiscore doctor --repair (it keeps the "
                                  "damaged file and every event that can still be read)")
            matches = store.matches()
            open_id = store.unfinished()
            note = ""
            if open_id is not None:
                got = store.recover(open_id)
                if got.problem:
                    raise DeviceError(f"the store {config.store}: match {open_id} {got.problem}:"
                                      " stop the service and run crokiscore doctor --repair")
                note = (f"; match {open_id} ({got.bodies[0].get('rules')}) in play, "
                        f"{len(got.bodies) - 1} events")
    except StoreError as exc:
        raise DeviceError(f"{exc}; stop the service and run crokiscore doctor --repair") from exc
    return f"{config.store}: {len(matches)} matches kept{note}"


def repair(config_path: str | Path | None, write: Callable[[str], object] = print) -> int:
    """``crokiscore doctor --repair``: a damaged store moved aside and rebuilt with every event
    that can still be read (run with the service stopped)."""
    from device.errors import NotAStore
    from device.store import EventStore, check_path, rebuild

    try:
        config = load(config_path)
    except ConfigError as exc:
        write(f"FAIL config   {exc}")
        return 1
    path = Path(config.store)
    # Only a store of this box's that is damaged is moved aside: a folder, a device, another
    # program's database or a newer crokiscore's store means the config names the wrong thing,
    # and moving it would take it from whoever owns it.
    try:
        check_path(path)
    except NotAStore as exc:
        write(f"FAIL store    {exc}; nothing was moved")
        return 1
    if not path.exists():
        write(f"no store at {path}: nothing to repair")
        return 0
    if not path.is_file():
        write(f"FAIL store    {path} is not a file (a device, a pipe or a socket): nothing was "
              "moved; point store in the config at the box's event store")
        return 1
    try:
        with EventStore(path, read_only=True) as store:
            verdict = store.integrity()
            open_id = store.unfinished()
            problem = store.recover(open_id).problem if open_id is not None else None
        if verdict == "ok" and problem is None:
            write(f"the store {path} is sound: nothing to repair")
            return 0
    except NotAStore as exc:
        write(f"FAIL store    {exc}; nothing was moved: it is not a damaged store of this box")
        return 1
    except StoreError:
        pass
    try:
        done = rebuild(path)
    except StoreError as exc:
        write(f"FAIL store    could not rebuild {path}: {exc}")
        return 1
    write(f"the damaged store was moved to {done.moved_to}")
    write(f"a new store {path} holds {done.matches} match(es), {done.events} events; "
          f"{done.lost} event(s) could not be read")
    for problem in done.problems:
        write(f"  {problem}")
    return 0


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
