"""Inputs from a recorded event log instead of the sensors: ``crokiscore run --feed FILE``.

The feeder plays a match's events (the replay format) into the daemon as if an operator entered
them one by one, each waiting for the previous to be taken. Every fed event carries
``"source": "feed"`` in the store, so after a crash and restart the feeder counts what the store
already holds and goes on from the next line: a session can be reproduced, and the daemon's crash
safety checked, with nothing but a log file.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from pathlib import Path

from device.appliance import Appliance
from device.core.inputs import Operator
from device.errors import DeviceError
from rules import Event, NewMatch, RulesError, parse_event

log = logging.getLogger(__name__)
SOURCE = "feed"


class FeedError(DeviceError):
    """A feed file that cannot be read or does not start with a match."""


def read_feed(path: str | Path) -> tuple[NewMatch, list[Event]]:
    try:
        lines = [ln for ln in Path(path).read_text(encoding="utf-8").splitlines() if ln.strip()]
    except OSError as exc:
        raise FeedError(f"cannot read the feed {path}: {exc.strerror}") from exc
    try:
        events = [parse_event(json.loads(ln)) for ln in lines]
    except (json.JSONDecodeError, RulesError) as exc:
        raise FeedError(f"the feed {path} is not an event log: {exc}") from exc
    if not events or not isinstance(events[0], NewMatch):
        raise FeedError(f"the feed {path} must start with a 'match' event")
    return events[0], events[1:]


def already_fed(appliance: Appliance) -> int:
    """How many events of the feed the store holds for the match in play."""
    if appliance.match_id is None:
        return 0
    return sum(1 for body in appliance.store.bodies(appliance.match_id)
               if body.get("source") == SOURCE)


class Feeder:
    """Puts ``events[start:]`` on the daemon's queue one at a time; sets ``done`` at the end."""

    def __init__(self, appliance: Appliance, put: object, events: list[Event], start: int,
                 timeout_s: float = 30.0, pace_s: float = 0.0) -> None:
        """``pace_s``: seconds between one event taken and the next put, to replay at the speed
        of a real board rather than as fast as the daemon takes them."""
        self.appliance = appliance
        self.pace_s = pace_s
        self._stop = threading.Event()
        self.put = put
        self.events = events
        self.start = start
        self.timeout_s = timeout_s
        self.done = threading.Event()
        self.error: str | None = None
        self._thread = threading.Thread(target=self._run, name="feed", daemon=True)

    def begin(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        app = self.appliance
        try:
            for i, ev in enumerate(self.events[self.start:], start=self.start):
                if self.pace_s and i > self.start and self._stop.wait(self.pace_s):
                    break
                taken, refused = app.committed[SOURCE], app.refusals
                self.put(Operator(ev, time.monotonic(), SOURCE))  # type: ignore[operator]
                if not app.wait(lambda t=taken, r=refused: app.committed[SOURCE] > t
                                or app.refusals > r, self.timeout_s):
                    self.error = f"event {i + 1} of the feed was not taken in time"
                    break
                if app.committed[SOURCE] == taken:
                    self.error = f"event {i + 1} of the feed was refused: {app.last_refusal}"
                    break
        finally:
            if self.error:
                log.error("%s", self.error)
            self.done.set()

    def join(self, timeout: float = 5.0) -> None:
        self._thread.join(timeout)

    def stop(self) -> None:
        self._stop.set()
