"""The daemon: every part opened from the config, wired to one queue and one main loop.

The parts come from one :class:`~device.hardware.Hardware`, chosen once from ``backend``: the Pi's
buses or the simulator's table. Nothing after that knows which. A part that cannot be opened does
not stop the box: its trouble is shown on the display and in the journal, and the rest keeps
scoring (without a camera, rounds are scored by hand on the buttons; without a store, in memory).
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Iterable
from contextlib import suppress
from typing import TYPE_CHECKING, Any

from device.config import Config
from device.core.effects import Effect, Written
from device.core.inputs import Assigned, Fault, Input
from device.core.state import Settings, Timing
from device.errors import CameraError, DeviceError, SensorError
from device.hardware import Hardware, open_hardware
from device.hardware.buttons import Buttons
from device.hardware.display import Display
from device.hardware.hole import HoleSensor, PulseLimits
from device.hardware.touch import SensorBar
from device.notify import Notifier
from device.reading.watcher import BoardWatcher, Reader, Settle
from device.screen.screen import OledScreen
from device.shell import Screen, Shell, StoreHandle
from device.store import EventStore
from firmware_bridge.link import LinkTiming
from rules import NewMatch
from rules.errors import CrokiscoreError

if TYPE_CHECKING:
    from device.club.publisher import Publisher
    from device.club.topics import Assignment

log = logging.getLogger(__name__)


def link_timing(config: Config) -> LinkTiming:
    timeout = config.touch.heartbeat_timeout_s
    return LinkTiming(heartbeat_s=min(0.5, timeout / 3), mcu_timeout_s=timeout)


def settings_of(config: Config, camera: bool) -> Settings:
    m = config.match
    return Settings(NewMatch(m.rules, m.players, m.options), (m.players, *m.player_sets),
                    camera, Timing(board_timeout_s=config.camera.timeout_s))


class Daemon:
    """Opens the parts; :meth:`run` serves them until stopped; :meth:`close` closes them all."""

    def __init__(self, config: Config, *, hardware: Hardware | None = None,
                 reader: Reader | None = None, screen: Screen | None = None,
                 notifier: Notifier | None = None,
                 listeners: Iterable[Callable[[Effect], None]] = (),
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.config = config
        self.clock = clock
        self.inputs: queue.Queue[Input] = queue.Queue()
        self.notifier = notifier or Notifier()
        self._closers: list[Callable[[], None]] = []
        self._faults: list[tuple[str, str]] = []
        if hardware is None:
            hardware = open_hardware(config)
            self._closers.append(hardware.close)
        self.hardware = hardware
        pins = hardware.pin_factory

        self.hole: HoleSensor | None = self._open("hole", lambda: HoleSensor(
            config.hole.pin, PulseLimits(config.hole.min_pulse_ms, config.hole.max_pulse_ms,
                                         config.hole.refractory_ms),
            self.inputs.put, pull_up=config.hole.pull_up, pin_factory=pins))
        self.buttons: Buttons | None = self._open("buttons", lambda: Buttons(
            config.buttons.pins(), self.inputs.put, hold_s=config.buttons.hold_s,
            bounce_s=config.buttons.bounce_s, pin_factory=pins))
        self.bar = SensorBar(hardware.sensor_port, config.touch.channels, self.inputs.put,
                             timing=link_timing(config), thresholds=config.touch.thresholds,
                             baudrate=config.touch.baudrate)
        self._closers.append(self.bar.close)
        camera = self._open("camera", lambda: hardware.camera(config.camera))
        self.watcher: BoardWatcher | None = None
        if camera is not None:
            try:
                read = reader or make_reader(config)
            except CrokiscoreError as exc:
                self._fault("camera", str(exc))
            else:
                c = config.camera
                self.watcher = BoardWatcher(camera, read, self.inputs.put, Settle(
                    c.settle_frames, c.settle_interval_s, c.settle_threshold, c.settle_timeout_s),
                    clock=clock)
                self._closers.append(self.watcher.close)
        self.display: Display = hardware.display(config.display)
        self._closers.append(self.display.close)
        # The club's publisher runs beside the main loop: the loop only tells it, without
        # waiting, that events reached the store and that the board's state changed.
        self.club: Publisher | None = None
        self._club_seen: tuple[object, tuple[str, ...]] = (None, ())
        listeners = list(listeners)
        if config.club is not None:
            from device.club.publisher import Publisher

            self.club = Publisher(config.club, config.store, on_assignment=self._assigned)
            self._closers.append(self.club.close)
            listeners.append(self._written)
        self.shell = Shell(settings_of(config, self.watcher is not None),
                           StoreHandle(config.store), screen or OledScreen(self.display),
                           reading=self.watcher, notifier=self.notifier, listeners=listeners,
                           clock=clock)
        self._closers.append(self.shell.close)
        for part, message in self._faults:
            self.inputs.put(Fault(part, message, clock()))

    def _assigned(self, assignment: Assignment | None) -> None:
        """The club set this board's next match (or withdrew it): from the publisher's thread."""
        self.inputs.put(Assigned(assignment.new_match() if assignment else None, self.clock(),
                                 assignment.label() if assignment else ""))

    def _written(self, effect: Effect) -> None:
        if isinstance(effect, Written) and self.club is not None:
            self.club.committed(effect.match_id)

    @property
    def store(self) -> EventStore | None:
        """The event store while it is open (it may not be, on a full or damaged card)."""
        return self.shell.store.store

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
        """Resumes the match in the store (or starts the configured one), shows it and tells
        systemd the box is ready."""
        self.shell.start()
        if self.club is not None:
            self.club.start()

    def run(self, stop: threading.Event, tick_s: float = 0.1) -> None:
        """Serves inputs until ``stop`` is set (after :meth:`begin`, which it calls if needed)."""
        if self.shell.match is None:
            self.begin()
        ping_every = (self.notifier.watchdog_s or 0) / 2
        last_ping = [self.clock()]

        def idle(now: float) -> None:
            if ping_every and now - last_ping[0] >= ping_every:
                self.notifier.ping()
                last_ping[0] = now
            self._club_tick(now)
            if self.hole is not None:
                blocked = self.hole.check(now)
                if blocked is not None and self.shell.faults.get("hole") != blocked.message:
                    self.inputs.put(blocked)

        try:
            self.shell.run(self.inputs, stop, tick_s, on_idle=idle)
        finally:
            self.notifier.stopping()

    def _club_tick(self, now: float) -> None:
        """Tells the publisher the board's state when it changed (a call that only notes and
        returns), and shows its link in words among the faults."""
        if self.club is None:
            return
        from device.club.snapshot import BoardSnapshot

        shell = self.shell
        faults = tuple(m for part, m in sorted(shell.faults.items()) if part != "club")
        if shell.match is not self._club_seen[0] or faults != self._club_seen[1]:
            self.club.state(BoardSnapshot(shell.match_id, shell.match, faults))
            self._club_seen = (shell.match, faults)
        status = self.club.status()
        if status != shell.faults.get("club"):
            self.inputs.put(Fault("club", status, now))

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


__all__ = ["Daemon", "DeviceError", "link_timing", "make_reader", "settings_of"]
