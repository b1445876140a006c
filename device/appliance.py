"""The appliance's main loop: inputs in, rules events committed, the scoreboard shown.

One thread owns all state. Each input is turned into a rules event, checked against the match
(a pure ``Match.apply``), appended to the store and committed, and only then does the match move on
and the display change: a power cut can lose an input that was never shown, never one that was.
Refused events are recorded apart and shown briefly; the match does not change. When the store
cannot write (a full disk), inputs wait in order, the error is shown, and they are written as soon
as the store works again.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from device.club.topics import Assigned, Assignment
from device.core.inputs import (
    BoardFailed,
    BoardRead,
    ButtonPressed,
    Fault,
    HoleDrop,
    Input,
    Operator,
    Tick,
    TouchChanged,
    describe,
)
from device.core.menu import CLOSED, Menu, MenuState
from device.errors import DisplayError, StoreError
from device.screen.view import twenty_side
from device.store import EventStore
from rules import (
    BoardReading,
    Confirm,
    Event,
    Match,
    NewMatch,
    RulesError,
    Shot,
    Twenty,
)

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class DaemonStatus:
    """What the display shows beside the match: the side a 20 just counted for (while it
    flashes), faults in words, a passing message, and the operator's menu when it is open.
    A reading waiting for a check is not here: the match itself says so."""

    twenty: int | None = None
    errors: tuple[str, ...] = ()
    message: str | None = None
    menu: MenuState = CLOSED


class Screen(Protocol):
    def show(self, match: Match | None, status: DaemonStatus) -> None:
        """Shows the state; raises :class:`DisplayError` if the display cannot be driven."""


class BoardRequests(Protocol):
    def request(self, token: int, now: bool = False) -> None: ...

    def cancel(self) -> None: ...

    def new_match(self) -> None: ...

    def confirmed(self, token: int) -> None: ...


@dataclass(frozen=True)
class Timing:
    flash_s: float = 1.5
    message_s: float = 4.0
    display_retry_s: float = 2.0
    display_retry_max_s: float = 60.0
    board_timeout_s: float = 30.0
    store_retry_s: float = 2.0


class Appliance:
    def __init__(self, store: EventStore, screen: Screen, default_match: NewMatch, *,
                 board: BoardRequests | None = None, timing: Timing = Timing(),
                 player_sets: tuple[tuple[str, ...], ...] = (),
                 clock: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time) -> None:
        self.store = store
        self.screen = screen
        self.default_match = default_match
        self.board = board
        self.timing = timing
        self.clock = clock
        self.wall = wall
        self.match: Match | None = None
        self.match_id: int | None = None
        self.faults: dict[str, str] = {}
        self.pending: list[tuple[Event, dict[str, Any]]] = []
        self._touching: set[int] = set()
        self._flash: tuple[int, float] | None = None
        self._message: tuple[str, float] | None = None
        self._display_retry_at: float | None = None
        self._display_wait = 0.0
        self._store_retry_at = 0.0
        self._board_token: int | None = None
        self._read_token: int | None = None  # the token of the camera reading last committed
        self._board_asked_at = 0.0
        self._shown: tuple[Match | None, DaemonStatus] | None = None
        self.menu = Menu(player_sets or (default_match.players,))
        self.menu_state: MenuState = CLOSED
        self.committed: Counter[str] = Counter()   # events committed, by source
        self.last_refusal: str | None = None
        self.refusals = 0
        self.last_seq = 0   # the store's sequence number of the latest committed event
        self.changed = threading.Condition()        # notified after every input
        self.frames_shown = 0
        self.next_match: Assignment | None = None   # club hook: the match the club assigned

    # --- start ---------------------------------------------------------------------------------

    def restore(self) -> None:
        """Replays the unfinished match from the store, or starts the default match."""
        match_id = self.store.unfinished()
        if match_id is None:
            self._begin(self.default_match, "config")
        else:
            events = self.store.events(match_id)
            first = events[0]
            if not isinstance(first, NewMatch):
                raise StoreError(f"match {match_id} in {self.store.path} does not start with a "
                                 "match event; the store is damaged")
            m = Match.start(first)
            for ev in events[1:]:
                m = m.apply(ev)
            self.match, self.match_id = m, match_id
            log.info("resumed match %d (%s) after %d events", match_id, first.rules, len(events))
        self._after_change(None)
        self._refresh(self.clock())

    def _begin(self, ev: NewMatch, source: str) -> None:
        m = Match.start(ev)
        self.match_id = self.store.begin_match(ev, self.wall())
        self.match = m
        self._touching.clear()
        if self.board is not None:
            self.board.new_match()
        log.info("match %d begins: %s, %s", self.match_id, ev.rules, ", ".join(ev.players))

    # --- inputs --------------------------------------------------------------------------------

    def step(self, inp: Input) -> None:
        now = inp.at
        if isinstance(inp, Fault):
            self._fault(inp.part, inp.message)
        elif isinstance(inp, BoardFailed):
            if inp.token == self._board_token:
                self._fault("camera", f"camera: {inp.reason}")
                self._board_token = None
        elif isinstance(inp, Assigned):  # club hook: shown; OK on a finished match starts it
            self.next_match = inp.assignment
            if inp.assignment is not None:
                self._say(f"next: {inp.assignment.label()}")
        else:
            for ev, meta in self._translate(inp):
                meta.setdefault("ts", round(self.wall(), 3))
                if self.pending:
                    self.pending.append((ev, meta))
                elif self._commit(ev, meta, inp) == "refused":
                    break  # what follows a refused event made sense only after it
        self._housekeeping(now)
        self._refresh(now)
        with self.changed:
            self.changed.notify_all()

    def wait(self, until: Callable[[], bool], timeout: float) -> bool:
        """Blocks another thread until ``until()`` holds after some input (or ``timeout``)."""
        with self.changed:
            return self.changed.wait_for(until, timeout)

    @property
    def touching(self) -> frozenset[int]:
        """Quadrants whose shooting line is touched now."""
        return frozenset(self._touching)

    def _translate(self, inp: Input) -> list[tuple[Event, dict[str, Any]]]:
        m = self.match
        if isinstance(inp, TouchChanged):
            if inp.active:
                self._touching.add(inp.quadrant)
                return []
            if inp.quadrant not in self._touching:
                return []
            self._touching.discard(inp.quadrant)
            seat = m.rules.seat_at(inp.quadrant) if m else None
            if seat is None:
                log.info("touch on quadrant %d, where nobody sits: ignored", inp.quadrant)
                return []
            return [(Shot(seat), {"source": "touch"})]
        if isinstance(inp, HoleDrop):
            return [(Twenty(), {"source": "hole"})]
        if isinstance(inp, BoardRead):
            if inp.token != self._board_token or m is None or m.expect().what != "board":
                log.info("a board reading arrived that is no longer wanted: ignored")
                return []
            self._board_token = None
            self.faults.pop("camera", None)
            meta: dict[str, Any] = {"source": "camera"}
            if inp.picture:
                meta["picture"] = inp.picture
            return [(BoardReading(inp.discs), meta)]
        if isinstance(inp, ButtonPressed):
            return self._button(inp)
        if isinstance(inp, Operator):
            return [(inp.event, {"source": inp.source})]
        return []

    def _button(self, inp: ButtonPressed) -> list[tuple[Event, dict[str, Any]]]:
        """Buttons drive the menu; what it decides is carried out here."""
        if inp.button not in ("menu", "ok", "back"):
            return []
        nxt = self.next_match  # club hook: OK on the finished scoreboard starts the assigned match
        if (nxt is not None and inp.button == "ok" and not inp.held and not self.menu_state.open
                and (self.match is None or self.match.finished)):
            self.next_match = None
            return [(nxt.new_match(), {"source": "club"})]
        self.menu_state, action = self.menu.press(self.menu_state, inp.button,  # type: ignore[arg-type]
                                                  inp.held, self.match, inp.at)
        if action is None:
            return []
        if action.read_now:
            if self.board is not None and self._board_token is not None:
                self.board.request(self._board_token, now=True)
                self._say("reading the board now")
            else:
                self._say("the board is read after the round's last disc")
            return []
        return [(ev, {"source": "button"}) for ev in action.events]

    def _commit(self, ev: Event, meta: dict[str, Any], inp: Input | None) -> str:
        """"done", "refused" (the rules said no), or "pending" (the store could not write)."""
        before = self.match
        try:
            if isinstance(ev, NewMatch):
                Match.start(ev)  # refuse a bad new match before touching the store
                self._begin(ev, str(meta.get("source")))
                self._after_change(None)
                return "done"
            if before is None:
                raise RulesError("no match is in play")
            after = before.apply(ev)
        except RulesError as exc:
            self._refused(ev, meta, str(exc), inp)
            if meta.get("source") == "camera":  # the round waits: the operator must count it
                self._fault("camera", "CHECK the board: the reading does not add up; score "
                            "the round on the buttons")
            return "refused"
        assert self.match_id is not None
        try:
            self.last_seq = self.store.append(self.match_id, ev, self.wall(), meta)
        except StoreError as exc:
            log.error("%s", exc)
            self._fault("store", "STORE FULL: free space" if "full" in str(exc) else
                        "store: cannot write")
            self.pending.insert(0, (ev, meta))
            self._store_retry_at = self.clock() + self.timing.store_retry_s
            return "pending"
        self.faults.pop("store", None)
        self.committed[str(meta.get("source"))] += 1
        self.match = after
        if isinstance(ev, BoardReading):  # which camera reading is the latest, if any
            self._read_token = inp.token if isinstance(inp, BoardRead) else None
        elif isinstance(ev, Confirm) and self._read_token is not None and self.board is not None:
            self.board.confirmed(self._read_token)  # the camera may learn from the check
        if isinstance(ev, Twenty):
            self._flash = (twenty_side(before, ev), self.clock() + self.timing.flash_s)
        self._after_change(before)
        return "done"

    def _refused(self, ev: Event, meta: dict[str, Any], reason: str, inp: Input | None) -> None:
        log.info("refused %s: %s", ev.to_json(), reason)
        body = {**ev.to_json(), **meta}
        if inp is not None:
            body["input"] = describe(inp)
        self.store.reject(self.match_id, body, reason, self.wall())
        self.last_refusal = reason
        self.refusals += 1
        self._say(reason)

    def _after_change(self, before: Match | None) -> None:
        """Keeps the store's match record and the board watcher in step with the match."""
        m = self.match
        if m is None or self.match_id is None:
            return
        was_finished = before is not None and before.finished
        if m.finished and (before is None or before.game != m.game):
            self.store.finish(self.match_id, m.summary(), self.wall())
        elif was_finished and not m.finished:
            self.store.reopen(self.match_id)
        if m.expect().what == "board":
            token = m.depth
            if self._board_token != token:
                self._board_token = token
                self._board_asked_at = self.clock()
                if self.board is not None:
                    self.board.request(token)
                else:
                    self._fault("camera", "no camera: score the round on the buttons")
        elif self._board_token is not None:
            self._board_token = None
            if self.board is not None:
                self.board.cancel()
            self._fault("camera", None)  # the round is scored: a camera trouble is news again

    # --- status and display ----------------------------------------------------------------

    def _fault(self, part: str, message: str | None) -> None:
        if message is None:
            if self.faults.pop(part, None) is not None:
                log.info("%s recovered", part)
        elif self.faults.get(part) != message:
            log.warning("%s", message)
            self.faults[part] = message

    def _say(self, text: str) -> None:
        self._message = (text, self.clock() + self.timing.message_s)

    def status(self, now: float | None = None) -> DaemonStatus:
        now = self.clock() if now is None else now
        message = self._message[0] if self._message and self._message[1] > now else None
        twenty = self._flash[0] if self._flash and self._flash[1] > now else None
        return DaemonStatus(twenty, tuple(self.faults[k] for k in sorted(self.faults)), message,
                            self.menu_state)

    def _housekeeping(self, now: float) -> None:
        self.menu_state = self.menu.tick(self.menu_state, now)
        if (self._board_token is not None and self.board is not None
                and now - self._board_asked_at > self.timing.board_timeout_s
                and "camera" not in self.faults):
            self._fault("camera", "camera not answering: score the round on the buttons")
        if self.pending and now >= self._store_retry_at:
            while self.pending:
                ev, meta = self.pending.pop(0)
                if self._commit(ev, meta, None) == "pending":
                    break

    def _refresh(self, now: float) -> None:
        status = self.status(now)
        if self._shown is not None and self._shown[0] is self.match and self._shown[1] == status:
            return
        if self._display_retry_at is not None and now < self._display_retry_at:
            return
        try:
            self.screen.show(self.match, status)
        except DisplayError as exc:
            # back off: each attempt rebuilds the panel's driver, which is not free
            self._display_wait = min(self._display_wait * 2 or self.timing.display_retry_s,
                                     self.timing.display_retry_max_s)
            log.warning("display: %s (next try in %.0f s)", exc, self._display_wait)
            self.faults["display"] = "display: retrying"
            self._display_retry_at = now + self._display_wait
            return
        self._display_retry_at = None
        self._display_wait = 0.0
        if self.faults.pop("display", None) is not None:
            status = self.status(now)
            self.screen.show(self.match, status)
        self._shown = (self.match, status)
        self.frames_shown += 1
        log.debug("frame %d shown: match %s at depth %d", self.frames_shown, self.match_id,
                  self.match.depth if self.match is not None else -1)

    # --- the loop ------------------------------------------------------------------------------

    def run(self, inputs: queue.Queue[Input], stop: threading.Event, tick_s: float = 0.1,
            on_idle: Callable[[float], None] | None = None) -> None:
        """Serves inputs until ``stop`` is set; a tick every ``tick_s`` lets time-based things
        (flash, messages, retries) move on."""
        while not stop.is_set():
            try:
                inp = inputs.get(timeout=tick_s)
            except queue.Empty:
                inp = Tick(self.clock())
            self.step(inp)
            if on_idle is not None:
                on_idle(self.clock())
