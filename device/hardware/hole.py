"""The 20-hole break-beam: a GPIO input whose pulses become twenty drops.

gpiozero's own debouncing is off (``bounce_time=None``); the filtering is ours so the
simulator's mock pin goes through exactly the same code as the real pin. A falling disc blocks the
beam for a few milliseconds: shorter pulses are electrical glitches, much longer ones mean
something rests in the beam (a finger, a disc balanced over the hole) and are reported as a fault
instead of a 20.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from device.core.inputs import Fault, HoleDrop, Input
from device.errors import SensorError

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PulseLimits:
    min_ms: float = 0.5
    max_ms: float = 200.0
    refractory_ms: float = 40.0


class PulseFilter:
    """Turns beam edges (time in seconds, blocked or not) into accepted drops.

    Pure and single-threaded: the GPIO callback feeds it and forwards what it returns.
    """

    def __init__(self, limits: PulseLimits) -> None:
        self.limits = limits
        self._since: float | None = None
        self._last_drop: float | None = None
        self.glitches = 0
        self.blocked = 0

    def edge(self, at: float, blocked: bool) -> HoleDrop | Fault | None:
        if blocked:
            if self._since is None:
                self._since = at
            return None
        if self._since is None:
            return None
        width_ms = (at - self._since) * 1000.0
        started, self._since = self._since, None
        if width_ms < self.limits.min_ms:
            self.glitches += 1
            return None
        if width_ms > self.limits.max_ms:
            self.blocked += 1
            return Fault("hole", None, at)  # the beam is clear again
        if (self._last_drop is not None
                and (started - self._last_drop) * 1000.0 < self.limits.refractory_ms):
            self.glitches += 1
            return None
        self._last_drop = started
        return HoleDrop(at, width_ms)

    def check_blocked(self, now: float) -> Fault | None:
        """A beam blocked for longer than a drop can take is a fault worth showing."""
        if self._since is not None and (now - self._since) * 1000.0 > self.limits.max_ms:
            return Fault("hole", "20-hole beam blocked: clear the hole", now)
        return None


class HoleSensor:
    """The break-beam on ``pin`` through gpiozero; ``pin_factory`` is gpiozero's (a MockFactory
    in the simulator, lgpio on a Pi)."""

    def __init__(self, pin: int, limits: PulseLimits, sink: queue.Queue[Input] | Callable[
            [Input], None], *, pull_up: bool = True, pin_factory: object | None = None,
                 clock: Callable[[], float] | None = None) -> None:
        from gpiozero import DigitalInputDevice
        from gpiozero.exc import GPIOZeroError

        self._put = sink.put if isinstance(sink, queue.Queue) else sink
        self._filter = PulseFilter(limits)
        self._lock = threading.Lock()
        try:
            self._device = DigitalInputDevice(pin, pull_up=pull_up, bounce_time=None,
                                              pin_factory=pin_factory)
        except (GPIOZeroError, OSError) as exc:
            raise SensorError(f"cannot open the 20-hole sensor on GPIO {pin}: {exc}; check [hole] "
                              "pin and that the crokiscore user is in the gpio group") from exc
        self._clock = clock or time.monotonic
        self._device.when_activated = self._blocked
        self._device.when_deactivated = self._cleared
        self._closed = False

    def _blocked(self) -> None:
        self._edge(True)

    def _cleared(self) -> None:
        self._edge(False)

    def _edge(self, blocked: bool) -> None:
        with self._lock:
            out = self._filter.edge(self._clock(), blocked)
        if out is not None:
            self._put(out)

    @property
    def glitches(self) -> int:
        return self._filter.glitches

    def check(self, now: float) -> Fault | None:
        with self._lock:
            return self._filter.check_blocked(now)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._device.close()

    def __enter__(self) -> HoleSensor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
