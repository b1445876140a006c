"""The daemon: every part opened from the config, wired to one queue and one main loop.

The same wiring serves a Pi and the simulator: for ``backend = "sim"`` the parts are opened on a
:class:`hw_sim.table.SimTable` (gpiozero's mock pins, the simulated Pico's pty, the table's
camera, luma's dummy display) instead of the real buses; nothing after this module knows which.
A part that cannot be opened does not stop the box: its trouble is shown on the display and in the
journal, and the rest keeps scoring (without a camera, rounds are scored by hand on the buttons).
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from contextlib import suppress
from typing import TYPE_CHECKING, Any

from device.appliance import Appliance, Screen, Timing
from device.club.snapshot import BoardSnapshot
from device.club.topics import Assigned
from device.config import Config, DisplayConfig
from device.core.inputs import Fault, Input
from device.errors import CameraError, SensorError
from device.hardware.buttons import Buttons
from device.hardware.camera import Camera, open_camera
from device.hardware.display import Display, OledDisplay, OledSettings, open_display
from device.hardware.hole import HoleSensor, PulseLimits
from device.hardware.touch import SensorBar
from device.notify import Notifier
from device.reading.watcher import BoardWatcher, Reader, Settle
from device.screen.screen import OledScreen
from device.store import EventStore
from firmware_bridge.link import LinkTiming
from rules import NewMatch
from rules.errors import CrokiscoreError

if TYPE_CHECKING:
    from hw_sim.table import SimTable

log = logging.getLogger(__name__)


def display_settings(d: DisplayConfig) -> OledSettings:
    return OledSettings(driver="ssd1306" if d.driver == "dummy" else d.driver,
                        transport=d.interface, port=d.port, address=d.address,
                        device=d.spi_device, dc_pin=d.dc_pin, reset_pin=d.reset_pin,
                        width=d.width, height=d.height, rotate=d.rotate, contrast=d.contrast)


def link_timing(config: Config) -> LinkTiming:
    timeout = config.touch.heartbeat_timeout_s
    return LinkTiming(heartbeat_s=min(0.5, timeout / 3), mcu_timeout_s=timeout)


class Daemon:
    """Opens the parts; :meth:`run` serves them until stopped; :meth:`close` closes them all."""

    def __init__(self, config: Config, *, table: SimTable | None = None,
                 reader: Reader | None = None, screen: Screen | None = None,
                 notifier: Notifier | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.config = config
        self.clock = clock
        self.inputs: queue.Queue[Input] = queue.Queue()
        self.notifier = notifier or Notifier()
        self._closers: list[Callable[[], None]] = []
        self._faults: list[tuple[str, str]] = []
        self._status = ""   # the STATUS= line systemd has
        sim = config.backend == "sim"
        if sim and table is None:
            from hw_sim.table import SimTable, Wiring

            table = SimTable(seed=config.sim.seed, wiring=Wiring(
                hole_pin=config.hole.pin, channels=config.touch.channels,
                buttons=tuple((k, v) for k in ("menu", "ok", "back")
                              if (v := getattr(config.buttons, k)) is not None)),
                width=config.camera.width, height=config.camera.height)
            self._closers.append(table.close)
        self.table = table
        pins = table.pin_factory if table is not None else None

        self.store = EventStore(config.store)
        self._closers.append(self.store.close)

        self.hole: HoleSensor | None = self._open("hole", lambda: HoleSensor(
            config.hole.pin, PulseLimits(config.hole.min_pulse_ms, config.hole.max_pulse_ms,
                                         config.hole.refractory_ms),
            self.inputs.put, pull_up=config.hole.pull_up, pin_factory=pins))
        self.buttons: Buttons | None = self._open("buttons", lambda: Buttons(
            {"menu": config.buttons.menu, "ok": config.buttons.ok, "back": config.buttons.back},
            self.inputs.put, hold_s=config.buttons.hold_s, bounce_s=config.buttons.bounce_s,
            pin_factory=pins))
        port = table.port if table is not None else config.touch.port
        self.bar: SensorBar = SensorBar(port, config.touch.channels, self.inputs.put,
                                        timing=link_timing(config),
                                        thresholds=config.touch.thresholds,
                                        baudrate=config.touch.baudrate)
        self._closers.append(self.bar.close)
        self.camera: Camera | None = self._open("camera", lambda: open_camera(config.camera,
                                                                              table))
        self.watcher: BoardWatcher | None = None
        if self.camera is not None:
            try:
                read = reader or make_reader(config)
            except CrokiscoreError as exc:
                self._fault("camera", str(exc))
            else:
                c = config.camera
                self.watcher = BoardWatcher(self.camera, read, self.inputs.put, Settle(
                    c.settle_frames, c.settle_interval_s, c.settle_threshold, c.settle_timeout_s),
                    clock=clock)
                self._closers.append(self.watcher.close)
        self.display: Display = self._open_display(config, table)
        self._closers.append(self.display.close)
        self.screen: Screen = screen or OledScreen(self.display)
        m = config.match
        self.appliance = Appliance(self.store, self.screen,
                                   NewMatch(m.rules, m.players, m.options),
                                   board=self.watcher, clock=clock,
                                   player_sets=(m.players, *m.player_sets),
                                   timing=Timing(board_timeout_s=config.camera.timeout_s))
        for part, message in self._faults:
            self.inputs.put(Fault(part, message, clock()))
        # --- club hook (device/club): the publisher beside the main loop -----------------------
        self.club = None
        self._club_seen: tuple[object, tuple[str, ...]] = (None, ())
        if config.club is not None:
            from device.club.publisher import Publisher

            self.club = Publisher(config.club, config.store, on_assignment=lambda a: (
                self.inputs.put(Assigned(a, clock()))))  # type: ignore[arg-type]
            self._closers.append(self.club.close)
        # --- end of club hook ------------------------------------------------------------------

    @staticmethod
    def _open_display(config: Config, table: SimTable | None) -> Display:
        """The configured panel; on the simulated table a real luma driver over the table's I2C
        bus, or luma's dummy device for ``driver = "dummy"`` (and SPI panels)."""
        settings = display_settings(config.display)
        if config.display.driver == "dummy" or (table is not None and settings.transport != "i2c"):
            return open_display(settings, backend="sim")
        if table is not None:
            return OledDisplay(settings, bus=table.oled_bus)
        return open_display(settings, backend="pi")

    def _fault(self, part: str, message: str) -> None:
        log.error("%s", message)
        self._faults.append((part, message if len(message) < 40 else f"{part} failed"))

    def _open(self, part: str, make: Callable[[], Any]) -> Any:
        try:
            thing = make()
        except (SensorError, CameraError) as exc:
            self._fault(part, str(exc))
            return None
        if thing is not None:
            self._closers.append(thing.close)
        return thing

    # --- running -------------------------------------------------------------------------------

    def begin(self) -> None:
        """Resumes the match in the store (or starts the configured one) and shows it."""
        self.appliance.restore()
        if self.club is not None:  # club hook
            self.club.start()
        self._status = self.status_line()
        self.notifier.ready(self._status)

    def status_line(self) -> str:
        """What ``systemctl status`` shows: the match in play, then the faults on the display."""
        app = self.appliance
        line = f"scoring {app.match.rules.name}" if app.match else "ready"
        return "; ".join((line, *(app.faults[part] for part in sorted(app.faults))))

    def run(self, stop: threading.Event, tick_s: float = 0.1) -> None:
        """Serves inputs until ``stop`` is set (after :meth:`begin`, which it calls if needed)."""
        if self.appliance.match is None:
            self.begin()
        ping_every = (self.notifier.watchdog_s or 0) / 2
        last_ping = [self.clock()]

        def idle(now: float) -> None:
            if ping_every and now - last_ping[0] >= ping_every:
                self.notifier.ping()
                last_ping[0] = now
            status = self.status_line()
            if status != self._status:  # a fault came or went: systemd shows it too
                self._status = status
                self.notifier.status(status)
            self._club_tick()  # club hook
            if self.hole is not None:
                blocked = self.hole.check(now)
                if blocked is not None and self.appliance.faults.get("hole") != blocked.message:
                    self.inputs.put(blocked)

        try:
            self.appliance.run(self.inputs, stop, tick_s, on_idle=idle)
        finally:
            self.notifier.stopping()

    def _club_tick(self) -> None:
        """Club hook: tells the publisher what changed (calls that only note and return) and
        shows its link in words among the faults."""
        if self.club is None:
            return
        app = self.appliance
        faults = tuple(app.faults[k] for k in sorted(app.faults) if k != "club")
        if app.match is not self._club_seen[0] or faults != self._club_seen[1]:
            if app.match is not self._club_seen[0] and app.match_id is not None:
                self.club.committed(app.match_id)
            self.club.state(BoardSnapshot(app.match_id, app.match, faults))
            self._club_seen = (app.match, faults)
        app._fault("club", self.club.status())

    def close(self) -> None:
        while self._closers:
            closer = self._closers.pop()
            with suppress(Exception):
                closer()

    def __enter__(self) -> Daemon:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def make_reader(config: Config) -> Reader:
    """The board reader the watcher calls: the vision package with the rig's calibration."""
    from device.reading.vision import VisionReader

    return VisionReader(config)
