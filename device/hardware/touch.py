"""The shooting-line sensor bar as the daemon sees it: touches per board quadrant, and faults.

The serial link (:mod:`firmware_bridge.link`) reports in the bar's own terms: sensor channels,
boots, a lost MCU. A small thread here turns those into the daemon's inputs: a touch becomes a
:class:`~device.inputs.TouchChanged` on the board quadrant the channel is wired to (config
``[touch] channels``), and trouble becomes a :class:`~device.inputs.Fault` worded for the players.
After every boot of the bar it sends the configured thresholds again, since the MCU forgets them on
reset. Commands wait for the MCU's answer, which is why they run here and not on the main loop.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable

from device.core.inputs import Fault, Input, TouchChanged
from firmware_bridge import events as bar
from firmware_bridge.errors import BridgeError
from firmware_bridge.link import BAUDRATE, Link, LinkTiming
from firmware_bridge.messages import PROTOCOL_VERSION

log = logging.getLogger(__name__)
PART = "touch"
SENSOR_FAULT = "touch sensor: check bar wiring"
# The bar's troubles, most telling first: the display shows one line for the bar.
TROUBLES = ("link", "firmware", "mcu", "sensor")


class SensorBar:
    def __init__(self, port: str, channels: tuple[int, int, int, int],
                 put: Callable[[Input], None], *, timing: LinkTiming | None = None,
                 thresholds: tuple[int, int] | None = None, baudrate: int = BAUDRATE) -> None:
        self.channels = channels
        self.put = put
        self.thresholds = thresholds
        self._trouble: dict[str, str] = {}   # what is wrong with the bar now, by kind
        self._events: queue.Queue[object] = queue.Queue()
        self._stop = threading.Event()
        self.link = Link(port, events=self._events, timing=timing, baudrate=baudrate)
        self._thread = threading.Thread(target=self._run, name="sensor-bar", daemon=True)
        self._thread.start()
        self._closed = False

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                event = self._events.get(timeout=0.2)
            except queue.Empty:
                continue
            try:
                self._handle(event)
            except Exception:  # one bad event must not stop the touches that follow
                log.exception("sensor bar event %r", event)

    def _handle(self, event: object) -> None:
        if self._stop.is_set():  # closing: the link's own "closed" is not news
            return
        if isinstance(event, bar.Touch):
            if event.quadrant not in self.channels:
                log.warning("touch on sensor channel %d, which no quadrant uses ([touch] "
                            "channels = %s)", event.quadrant, list(self.channels))
                return
            if event.missed:
                log.warning("the sensor bar lost %d change(s) of channel %d", event.missed,
                            event.quadrant)
            self.put(TouchChanged(self.channels.index(event.quadrant), event.active, event.at))
            return
        t = self._trouble
        if isinstance(event, bar.LinkUp):
            if t.pop("link", None) is None:   # a bar that then says nothing shows as silent
                return
        elif isinstance(event, bar.LinkDown):
            log.warning("sensor bar: %s", event.reason)
            t["link"] = "sensor bar unplugged"
        elif isinstance(event, bar.McuLost):
            t["mcu"] = "sensor bar silent"
        elif isinstance(event, bar.McuFound):
            t.pop("link", None)
            t.pop("mcu", None)
        elif isinstance(event, bar.McuBooted):
            log.info("sensor bar firmware %s booted (%s)", event.firmware, event.reset_cause)
            # A new boot starts afresh: a sensor still at fault says so again in this boot.
            for kind in ("link", "mcu", "sensor"):
                t.pop(kind, None)
            if event.protocol == PROTOCOL_VERSION:
                t.pop("firmware", None)
                if self.thresholds is not None:  # set before the bar counts as ready
                    try:
                        self.link.set_thresholds(*self.thresholds)
                    except BridgeError as exc:
                        log.warning("could not set the sensor bar's thresholds: %s", exc)
        elif isinstance(event, bar.Incompatible):
            # The link ignores this boot until a compatible firmware says hello.
            t["firmware"] = "sensor bar firmware: update it"
        elif isinstance(event, bar.McuError):
            log.warning("sensor bar error %s: %s", event.name, event.detail)
            if event.name != "sensor-fault":
                return
            log.error("the sensor bar's touch sensor (MPR121) fails (%s): check its wiring to "
                      "the Pico (docs/sensor-bar.md)", event.detail)
            t["sensor"] = SENSOR_FAULT
        elif isinstance(event, bar.SensorState):
            if event.ok:
                t.pop("sensor", None)
            else:
                t.setdefault("sensor", SENSOR_FAULT)
        else:
            return
        self.put(Fault(PART, next((t[k] for k in TROUBLES if k in t), None), event.at))

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._stop.set()
        self.link.close()
        self._thread.join(timeout=5)

    def __enter__(self) -> SensorBar:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
