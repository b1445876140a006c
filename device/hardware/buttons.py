"""The operator's buttons (gpiozero ``Button``): a press, or a hold past ``hold_s``.

A hold is reported once, when it reaches the hold time, and its release is then swallowed, so a
long press never also counts as a short one.
"""

from __future__ import annotations

import logging
import queue
import time
from collections.abc import Callable, Mapping

from device.core.inputs import ButtonPressed, Input
from device.errors import SensorError

log = logging.getLogger(__name__)


class Buttons:
    def __init__(self, pins: Mapping[str, int | None], sink: queue.Queue[Input] | Callable[
            [Input], None], *, hold_s: float = 1.0, bounce_s: float | None = None,
                 pin_factory: object | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        from gpiozero import Button
        from gpiozero.exc import GPIOZeroError

        self._put = sink.put if isinstance(sink, queue.Queue) else sink
        self._clock = clock
        self._buttons: dict[str, Button] = {}
        self._held: set[str] = set()
        try:
            for name, pin in pins.items():
                if pin is None:
                    continue
                b = Button(pin, pull_up=True, bounce_time=bounce_s or None, hold_time=hold_s,
                           pin_factory=pin_factory)
                b.when_held = self._on_held(name)
                b.when_released = self._on_released(name)
                self._buttons[name] = b
        except (GPIOZeroError, OSError) as exc:
            self.close()
            raise SensorError(f"cannot open the buttons ({exc}); check [buttons] pins and that "
                              "the crokiscore user is in the gpio group") from exc
        self._closed = False

    def _on_held(self, name: str) -> Callable[[], None]:
        def held() -> None:
            self._held.add(name)
            self._put(ButtonPressed(name, True, self._clock()))
        return held

    def _on_released(self, name: str) -> Callable[[], None]:
        def released() -> None:
            if name in self._held:
                self._held.discard(name)
                return
            self._put(ButtonPressed(name, False, self._clock()))
        return released

    def close(self) -> None:
        for b in self._buttons.values():
            b.close()
        self._buttons.clear()
        self._closed = True

    def __enter__(self) -> Buttons:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
