"""The simulated sensor-bar Pico: the real firmware logic on a pty, with faults on demand.

:class:`SimulatedPico` runs ``firmware_bridge.firmware.sensorbar`` (the code the Pico runs) in a
thread, wired to stand-ins for what MicroPython provides: :class:`Ticks` for the ``time`` module's
wrapping tick counter, :class:`SimWatchdog` for ``machine.WDT``, :class:`~hw_sim.mpr121.SimI2C`
with a :class:`~hw_sim.mpr121.SimMPR121` for ``machine.I2C`` and the chip, and a pty for the USB
serial line. The host opens :attr:`SimulatedPico.path`, a symlink in a temporary folder that
behaves like ``/dev/serial/by-id/...``: it vanishes on :meth:`~SimulatedPico.unplug` and points
at a new pty on :meth:`~SimulatedPico.replug`, so a host link reconnects to the same path.

Faults: :meth:`noise` (raw bytes on the line), :meth:`unplug`/:meth:`replug`, :meth:`reboot`
(a reset: new boot id), :meth:`hang` (the firmware stops: no heartbeats, no watchdog feeding; the
simulated watchdog then resets it unless disabled), :meth:`unplug_sensor`. A reboot into
maintenance mode asked by the host leaves it silent (:attr:`maintenance` is set) until
:meth:`reboot`, as a Pico waiting in its REPL.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import random
import select
import shutil
import tempfile
import threading
import time
import tty
from collections.abc import Callable

from firmware_bridge.firmware import sensorbar
from firmware_bridge.firmware.mpr121 import MPR121
from hw_sim.mpr121 import ADDRESS, SimI2C, SimMPR121

log = logging.getLogger(__name__)

TICKS_PERIOD = 1 << 30  # MicroPython's ticks_us() wraps here on the Pico
LOOP_S = 0.001


class Ticks:
    """The ticks part of MicroPython's ``time`` module, wrapping as on the Pico.

    ``now_us`` gives the underlying microseconds; ``start_us`` is where the tick counter starts,
    by default a second before it wraps, so every simulated boot crosses the wrap early on.
    """

    def __init__(self, now_us: Callable[[], int] | None = None,
                 start_us: int = TICKS_PERIOD - 1_000_000) -> None:
        self._now_us = now_us or (lambda: time.monotonic_ns() // 1000)
        self._offset = start_us - self._now_us()

    def ticks_us(self) -> int:
        return (self._now_us() + self._offset) % TICKS_PERIOD

    def ticks_ms(self) -> int:
        return self.ticks_us() // 1000

    @staticmethod
    def ticks_diff(a: int, b: int) -> int:
        half = TICKS_PERIOD // 2
        return ((a - b + half) % TICKS_PERIOD) - half

    @staticmethod
    def ticks_add(a: int, delta: int) -> int:
        return (a + delta) % TICKS_PERIOD


class ManualTicks(Ticks):
    """Ticks that move only when told: for stepping the firmware deterministically."""

    def __init__(self, start_us: int = TICKS_PERIOD - 1_000_000) -> None:
        self.us = 0
        super().__init__(lambda: self.us, start_us)

    def advance(self, us: int) -> None:
        self.us += us


class SimWatchdog:
    """Stands in for ``machine.WDT``: remembers when it was last fed."""

    def __init__(self, timeout_ms: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.timeout_s = timeout_ms / 1000
        self._clock = clock
        self.last_fed = clock()

    def feed(self) -> None:
        self.last_fed = self._clock()

    def expired(self) -> bool:
        return self._clock() - self.last_fed > self.timeout_s


class BytePort:
    """An in-memory serial line for stepping the firmware without a pty: ``sent`` collects what
    the firmware writes, :meth:`inject` queues what it will read."""

    def __init__(self) -> None:
        self.sent = bytearray()
        self._incoming = bytearray()

    def inject(self, data: bytes) -> None:
        self._incoming.extend(data)

    def take(self) -> bytes:
        out = bytes(self.sent)
        self.sent.clear()
        return out

    def read(self) -> bytes:
        out = bytes(self._incoming)
        self._incoming.clear()
        return out

    def write(self, data: bytes) -> None:
        self.sent.extend(data)


class _PtyPort:
    """The firmware's serial port on the master side of a pty (None while unplugged)."""

    def __init__(self, tap: Callable[[float, bytes], None] | None) -> None:
        self.fd: int | None = None
        self.dropped = 0
        self.tap = tap

    def read(self) -> bytes:
        if self.fd is None:
            return b""
        try:
            return os.read(self.fd, 4096)
        except BlockingIOError:
            return b""
        except OSError as exc:
            if exc.errno == errno.EIO:  # no one has the other end open
                return b""
            raise

    def write(self, data: bytes) -> None:
        # A USB CDC line with no reader drops what the MCU writes; so does this one.
        if self.fd is None:
            self.dropped += len(data)
            return
        if self.tap is not None:
            self.tap(time.monotonic(), bytes(data))
        view = memoryview(data)
        while view:
            try:
                n = os.write(self.fd, view)
            except BlockingIOError:
                self.dropped += len(view)
                return
            except OSError as exc:
                if exc.errno == errno.EIO:
                    self.dropped += len(view)
                    return
                raise
            view = view[n:]


class SimulatedPico:
    """A sensor-bar Pico on a pty, running the real firmware logic in a background thread.

    ``tap`` is called with (``time.monotonic()``, bytes) just before each write the firmware
    makes goes into the pty, for measuring latency; it should only record, not work.
    A context manager; :meth:`close` is idempotent.
    """

    def __init__(self, *, seed: int = 0, heartbeat_ms: int = 500, debounce_ms: int = 20,
                 host_timeout_ms: int = 2000, watchdog_ms: int | None = 2000,
                 directory: str | None = None, name: str = "usb-crokiscore-sensor-bar",
                 tap: Callable[[float, bytes], None] | None = None) -> None:
        self._rng = random.Random(seed)
        self._settings = {"heartbeat_ms": heartbeat_ms, "debounce_ms": debounce_ms,
                          "host_timeout_ms": host_timeout_ms}
        self._watchdog_ms = watchdog_ms
        self._own_dir = directory is None
        self._dir = tempfile.mkdtemp(prefix="crokiscore-pico-") if directory is None else directory
        self.path = os.path.join(self._dir, name)
        self.sensor = SimMPR121()
        self.bus = SimI2C()
        self.bus.attach(ADDRESS, self.sensor)
        self.port = _PtyPort(tap)
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._closed = False
        self._slave: int | None = None
        self._hung = False
        self._reboot_asked: bool | None = None
        self.maintenance = threading.Event()
        self.boots = 0
        self.boot_ids: list[int] = []
        self.bar: sensorbar.Firmware
        self._watchdog: SimWatchdog | None = None
        self._plug()
        self._boot(sensorbar.CAUSE_POWER_ON)
        self._thread = threading.Thread(target=self._run, name="simulated pico", daemon=True)
        self._thread.start()

    # ---- life cycle ----

    def __enter__(self) -> SimulatedPico:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self._stop.set()
        self._thread.join(2.0)
        with self._lock:
            self._unplug()
        if self._own_dir:
            shutil.rmtree(self._dir, ignore_errors=True)

    @property
    def boot_id(self) -> int:
        return self.bar.boot_id

    def _plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no line editing: a USB CDC line carries bytes as they are
        os.set_blocking(master, False)
        self.port.fd, self._slave = master, slave
        link = self.path + ".new"
        if os.path.lexists(link):
            os.remove(link)
        os.symlink(os.ttyname(slave), link)
        os.replace(link, self.path)

    def _unplug(self) -> None:
        if os.path.lexists(self.path):
            os.remove(self.path)
        for fd in (self.port.fd, self._slave):
            if fd is not None:
                os.close(fd)
        self.port.fd = self._slave = None

    def _boot(self, cause: int) -> None:
        self.boots += 1
        self._hung = False
        self.maintenance.clear()
        self._watchdog = (SimWatchdog(self._watchdog_ms) if self._watchdog_ms is not None
                          else None)
        self.bar = sensorbar.Firmware(
            self.port, MPR121(self.bus, ADDRESS), Ticks(), self._watchdog,
            boot_id=self._rng.getrandbits(32), reset_cause=cause, reboot=self._asked_reboot,
            **self._settings)
        self.boot_ids.append(self.bar.boot_id)
        log.info("simulated pico booted (%d), boot id %08x", cause, self.bar.boot_id)

    def _asked_reboot(self, maintenance: bool) -> None:
        self._reboot_asked = maintenance

    def _run(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                if self.port.fd is not None and not self._hung:
                    self.bar.service()
                if self._reboot_asked is not None:
                    maintenance, self._reboot_asked = self._reboot_asked, None
                    self._boot(sensorbar.CAUSE_COMMANDED)
                    if maintenance:
                        # The firmware stays out of the way and the REPL waits: no frames, no
                        # watchdog, until the next reset.
                        self._hung = True
                        self._watchdog = None
                        self.maintenance.set()
                elif self._watchdog is not None and self._watchdog.expired() and \
                        self.port.fd is not None:
                    self._boot(sensorbar.CAUSE_WATCHDOG)
                fd = self.port.fd
            if fd is None:
                self._stop.wait(LOOP_S)
            else:
                with contextlib.suppress(OSError, ValueError):  # unplugged while waiting
                    select.select([fd], [], [], LOOP_S)

    # ---- touches ----

    def touch(self, quadrant: int, delta: int | None = None) -> None:
        """A hand on quadrant's shooting line (its electrode reads ``delta`` below baseline)."""
        if delta is None:
            self.sensor.touch(quadrant)
        else:
            self.sensor.touch(quadrant, delta)

    def release(self, quadrant: int) -> None:
        self.sensor.release(quadrant)

    # ---- faults ----

    def noise(self, data: bytes | None = None, n: int = 64) -> bytes:
        """Write raw bytes on the line between two frames (random ones unless given)."""
        if data is None:
            data = self._rng.randbytes(n)
        with self._lock:
            self.port.write(data)
        return data

    def unplug(self) -> None:
        """Pull the USB cable: the pty closes, the path vanishes, the Pico loses power."""
        with self._lock:
            self._unplug()

    def replug(self, power_cycle: bool = True) -> None:
        """Plug it back: a new pty behind the same path. A bus-powered Pico boots afresh;
        ``power_cycle=False`` models one that kept power (its boot carries on)."""
        with self._lock:
            self._plug()
            if power_cycle:
                self._boot(sensorbar.CAUSE_POWER_ON)

    def reboot(self, cause: int = sensorbar.CAUSE_WATCHDOG) -> None:
        """Reset the MCU now (a new boot id, counters from zero)."""
        with self._lock:
            self._boot(cause)

    def hang(self) -> None:
        """The firmware stops: nothing more is sent and the watchdog is no longer fed."""
        with self._lock:
            self._hung = True

    def resume(self) -> None:
        with self._lock:
            self._hung = False

    def unplug_sensor(self) -> None:
        self.bus.detach(ADDRESS)

    def replug_sensor(self) -> None:
        self.bus.attach(ADDRESS, self.sensor)
