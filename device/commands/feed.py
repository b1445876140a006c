"""Inputs from a recorded event log instead of the sensors: ``crokiscore run --feed FILE``.

The feeder plays a match's events (the replay format) into the daemon as if an operator entered
them one by one, each waiting for the previous to be taken. Every fed event carries
``"source": "feed"`` in the store, so after a crash and restart the feeder counts what the store
already holds and goes on from the next line: a session can be reproduced, and the daemon's crash
safety checked, with nothing but a log file.
"""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path

from device.commands.logfile import LogUnreadable, NotALog, open_log
from device.core.inputs import Operator
from device.errors import FeedError, StoreError
from device.shell import Shell, stored_events
from rules import Event, NewMatch, RulesError
from rules.replay import read_event

log = logging.getLogger(__name__)
SOURCE = "feed"


def read_feed(path: str | Path) -> tuple[NewMatch, list[Event]]:
    """Every event of the feed; a feed must replay as it is, so its first bad line is an error
    naming the line and what is wrong with it."""
    try:
        with open_log(path) as f:
            lines = list(f)
    except LogUnreadable as exc:
        raise FeedError(f"cannot read the feed: {exc}") from exc
    except NotALog as exc:
        raise FeedError(f"the feed {exc}") from exc
    except OSError as exc:
        raise FeedError(f"cannot read the feed {path}: {exc.strerror or exc}") from exc
    events = []
    for number, line in enumerate(lines, start=1):
        try:
            ev = read_event(line)
        except RulesError as exc:
            raise FeedError(f"the feed {path} is not an event log: line {number}: {exc}") from exc
        if ev is not None:
            events.append(ev)
    if not events or not isinstance(events[0], NewMatch):
        raise FeedError(f"the feed {path} must start with a 'match' event")
    return events[0], events[1:]


def already_fed(shell: Shell) -> int:
    """How many events of the feed the match in play has taken (the store's, and any still
    waiting to be written)."""
    try:
        stored = stored_events(shell)
    except StoreError:
        stored = []
    waiting = [r for r in shell.state.ledger.queue if r.kind == "event"]
    return (sum(1 for body in stored if body.get("source") == SOURCE)
            + sum(1 for r in waiting if dict(r.meta).get("source") == SOURCE))


class Feeder:
    """Puts ``events[start:]`` on the daemon's queue one at a time; sets ``done`` at the end."""

    def __init__(self, shell: Shell, put: object, events: list[Event], start: int,
                 timeout_s: float = 30.0, pace_s: float = 0.0) -> None:
        """``pace_s``: seconds between one event taken and the next put, to replay at the speed
        of a real board rather than as fast as the daemon takes them."""
        self.shell = shell
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
        app = self.shell
        try:
            for i, ev in enumerate(self.events[self.start:], start=self.start):
                if self.pace_s and i > self.start and self._stop.wait(self.pace_s):
                    break
                taken, refused = app.taken[SOURCE], app.refusals
                self.put(Operator(ev, time.monotonic(), SOURCE))  # type: ignore[operator]
                if not app.wait(lambda t=taken, r=refused: app.taken[SOURCE] > t
                                or app.refusals > r, self.timeout_s):
                    self.error = f"event {i + 1} of the feed was not taken in time"
                    break
                if app.taken[SOURCE] == taken:
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
