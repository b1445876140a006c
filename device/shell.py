"""The main loop's shell: inputs in, the scorekeeper's effects performed, nothing escapes.

The scorekeeper (:mod:`device.core.keeper`) decides everything; this module only carries its
effects out on the store, the screen, the camera's watcher and systemd, and reports each outcome
back. It is the one place where an effect's failure is caught: a
:class:`~device.errors.DeviceError` (or, should a part have a bug, any exception) becomes the
scorekeeper's :func:`~device.core.keeper.failed`, which turns it into a fault on the display and a
retry. So neither a full card, a damaged store nor a loose OLED cable can take the loop down.

One thread owns the state. Other threads may :meth:`Shell.wait` for what the loop has done; the
loop holds the lock for a whole step, so they never see a step half done.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from device.core import keeper
from device.core.effects import (
    AskReading,
    CancelReading,
    Effect,
    Notify,
    ReaderNewMatch,
    ReadingChecked,
    Refused,
    Reject,
    Repair,
    Show,
    Taken,
    Write,
    Written,
)
from device.core.inputs import Input, Tick
from device.core.menu import MenuState
from device.core.state import BoxState, Settings
from device.core.status import Status
from device.errors import DeviceError, StoreDamaged, StoreError
from device.store import EventStore, Recovered, rebuild
from rules import Match, NewMatch

log = logging.getLogger(__name__)


class Screen(Protocol):
    def show(self, match: Match | None, status: Status) -> None:
        """Shows the state; raises :class:`DisplayError` if the display cannot be driven."""


class Reading(Protocol):
    """The camera's side: the board watcher (:class:`device.reading.watcher.BoardWatcher`)."""

    def request(self, token: int, now: bool = False) -> None: ...

    def cancel(self) -> None: ...

    def new_match(self) -> None: ...

    def confirmed(self, token: int) -> None: ...


class Notifier(Protocol):
    def ready(self, status: str) -> bool: ...

    def status(self, status: str) -> bool: ...


class StoreHandle:
    """The event store as the shell holds it: opened when first needed and again after a
    failure, so a box that started on a full card begins writing once there is room."""

    def __init__(self, path: str, opened: EventStore | None = None) -> None:
        self.path = path
        self.store = opened

    def open(self) -> EventStore:
        if self.store is None:
            self.store = EventStore(self.path)
        return self.store

    def recover(self) -> tuple[Recovered | None, StoreError | None]:
        """The unfinished match as far as it can be read, and the store's trouble if any. A
        store that cannot be opened for writing is still read, if it can be, to resume."""
        try:
            store = self.open()
            verdict = store.structure()
            match_id = store.unfinished()
            got = store.recover(match_id) if match_id is not None else None
            if verdict != "ok":
                return got, StoreDamaged(f"the event store {self.path} is damaged ({verdict})")
            if got is not None and got.problem is not None:
                return got, StoreDamaged(f"the event store {self.path}: match {match_id} "
                                         f"{got.problem}")
            return got, None
        except StoreError as exc:
            trouble = exc
        self.close()
        try:
            with EventStore(self.path, read_only=True) as look:
                match_id = look.unfinished()
                return (look.recover(match_id) if match_id is not None else None), trouble
        except StoreError:
            return None, trouble

    def write(self, effect: Write) -> int:
        record = effect.record
        store = self.open()
        if record.kind == "begin":
            assert isinstance(record.event, NewMatch)
            return store.begin_match(record.event, record.ts, dict(record.meta),
                                     match_id=effect.match_id)
        assert effect.match_id is not None, "an event is written after its match's start"
        if record.kind == "event":
            assert record.event is not None
            return store.append(effect.match_id, record.event, record.ts, dict(record.meta))
        if record.kind == "finish":
            store.finish(effect.match_id, record.result or {}, record.ts)
        else:
            store.reopen(effect.match_id)
        return 0

    def reject(self, effect: Reject) -> None:
        try:
            self.open().reject(effect.match_id, effect.body, effect.reason, effect.ts)
        except StoreError as exc:
            log.warning("could not keep a refused event: %s", exc)

    def repair(self, now: float, current: int | None) -> None:
        """Moves the damaged store aside and rebuilds it with the other matches it still holds
        readable; the current match (``current``) the box writes again from memory."""
        self.close()
        done = rebuild(self.path, now, skip=current)
        log.warning("the damaged store was moved aside to %s; %d other match(es) kept%s",
                    done.moved_to, done.matches,
                    "; " + "; ".join(done.problems) if done.problems else "")
        self.open()

    def close(self) -> None:
        if self.store is not None:
            store, self.store = self.store, None
            store.close()


class Shell:
    def __init__(self, settings: Settings, store: StoreHandle, screen: Screen, *,
                 reading: Reading | None = None, notifier: Notifier | None = None,
                 listeners: Iterable[Callable[[Effect], None]] = (),
                 clock: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time) -> None:
        self.settings = settings
        self.store = store
        self.screen = screen
        self.reading = reading
        self.notifier = notifier
        self.listeners = list(listeners)
        self.clock = clock
        self.wall = wall
        self.state = BoxState()
        self.taken: Counter[str] = Counter()   # events taken into the match, by source
        self.last_refusal: str | None = None
        self.refusals = 0
        self.frames_shown = 0
        self.changed = threading.Condition()   # held for a whole step, notified after it
        self._started = False

    # --- what others may look at (under :meth:`wait`, or from the loop's thread) --------------

    @property
    def match(self) -> Match | None:
        return self.state.match

    @property
    def match_id(self) -> int | None:
        return self.state.ledger.match_id

    @property
    def faults(self) -> dict[str, str]:
        return dict(self.state.faults)

    @property
    def touching(self) -> frozenset[int]:
        """Quadrants whose shooting line is touched now."""
        return self.state.touching

    @property
    def menu_state(self) -> MenuState:
        return self.state.menu

    @property
    def assigned(self) -> NewMatch | None:
        """The club's next match for this board, if the organiser set one."""
        return self.state.assigned

    @property
    def waiting(self) -> int:
        """Records the store has still to take (while it cannot write)."""
        return len(self.state.ledger.queue)

    def status(self, now: float | None = None) -> Status:
        return self.state.status(self.clock() if now is None else now)

    def status_line(self) -> str:
        return self.state.status_line()

    def wait(self, until: Callable[[], bool], timeout: float) -> bool:
        """Blocks another thread until ``until()`` holds after some step (or ``timeout``)."""
        with self.changed:
            return self.changed.wait_for(until, timeout)

    # --- running -----------------------------------------------------------------------------

    def start(self) -> None:
        """Resumes the unfinished match in the store (or begins the default one) and shows
        it; a store that cannot be used is shown as a fault, never raised."""
        with self.changed:
            recovered, trouble = self.store.recover()
            now = self.clock()
            self.state, effects = keeper.start(self.settings, recovered, trouble, now,
                                               self.wall())
            self._cycle(effects, now)
            self._started = True
            self.changed.notify_all()

    def step(self, inp: Input) -> None:
        if not self._started:
            self.start()
        with self.changed:
            now = inp.at
            self.state, effects = keeper.step(self.settings, self.state, inp, now, self.wall())
            self._cycle(effects, now)
            self.changed.notify_all()

    def _cycle(self, effects: list[Effect], now: float) -> None:
        """Performs the step's effects, then the store's writes, then the frame."""
        self._perform_all(effects, now)
        self._perform_all(keeper.next_write(self.state), now)
        self._perform_all(keeper.refresh(self.state, now), now)

    def _perform_all(self, effects: list[Effect], now: float) -> None:
        todo = list(effects)
        while todo:
            effect = todo.pop(0)
            try:
                outcome = self._perform(effect)
            except DeviceError as exc:
                self.state, more = keeper.failed(self.settings, self.state, effect, exc, now)
            except Exception as exc:  # a part's bug must not stop the box either
                log.exception("%s failed", type(effect).__name__)
                err = DeviceError(f"{type(effect).__name__}: {exc!r}")
                self.state, more = keeper.failed(self.settings, self.state, effect, err, now)
            else:
                self.state, more = keeper.done(self.settings, self.state, effect, outcome, now)
            todo[:0] = more

    def _perform(self, effect: Effect) -> Any:
        if isinstance(effect, Write):
            return self.store.write(effect)
        if isinstance(effect, Show):
            self.screen.show(effect.match, effect.status)
            self.frames_shown += 1
            m = effect.match
            log.debug("frame %d shown: match %s at depth %d", self.frames_shown,
                      self.state.ledger.match_id, m.depth if m is not None else -1)
            return None
        if isinstance(effect, Reject):
            self.store.reject(effect)
        elif isinstance(effect, Repair):
            self.store.repair(self.wall(), self.state.ledger.match_id)
        elif isinstance(effect, AskReading):
            if self.reading is not None:
                self.reading.request(effect.token, now=effect.now)
        elif isinstance(effect, CancelReading):
            if self.reading is not None:
                self.reading.cancel()
        elif isinstance(effect, ReaderNewMatch):
            if self.reading is not None:
                self.reading.new_match()
        elif isinstance(effect, ReadingChecked):
            if self.reading is not None:
                self.reading.confirmed(effect.token)
        elif isinstance(effect, Notify):
            if self.notifier is not None:
                if effect.ready:
                    self.notifier.ready(effect.status)
                else:
                    self.notifier.status(effect.status)
        elif isinstance(effect, Taken):
            self.taken[effect.source] += 1
        elif isinstance(effect, Refused):
            self.last_refusal = effect.reason
            self.refusals += 1
        if isinstance(effect, Taken | Written | Refused):
            for listener in self.listeners:
                try:
                    listener(effect)
                except Exception:  # a watcher's trouble is its own
                    log.exception("a listener failed on %s", type(effect).__name__)
        return None

    def run(self, inputs: queue.Queue[Input], stop: threading.Event, tick_s: float = 0.1,
            on_idle: Callable[[float], None] | None = None) -> None:
        """Serves inputs until ``stop`` is set; a tick every ``tick_s`` lets time-based things
        (flash, messages, retries) move on."""
        if not self._started:
            self.start()
        while not stop.is_set():
            try:
                inp = inputs.get(timeout=tick_s)
            except queue.Empty:
                inp = Tick(self.clock())
            self.step(inp)
            if on_idle is not None:
                on_idle(self.clock())

    def close(self) -> None:
        self.store.close()


def stored_events(shell: Shell) -> list[dict[str, Any]]:
    """The bodies the store holds for the match in play (for tests and the feeder)."""
    store = shell.store.store
    if store is None or shell.match_id is None:
        return []
    return store.bodies(shell.match_id)


__all__ = ["Reading", "Screen", "Shell", "StoreHandle", "stored_events"]
