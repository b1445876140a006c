"""The scorekeeper: the box's whole behaviour as pure functions of its state and one input.

``step(settings, state, input, now)`` returns the new state and the effects the shell must
perform (write to the store, ask the camera, show a frame, ...); the shell reports each effect's
outcome with :func:`done` or :func:`failed`, which may ask for more; :func:`refresh` ends every
step with the frame to show and the systemd status, if they changed. Nothing here waits, reads a
clock or touches a device, so every path, including every fault, is tested without threads.

The commit protocol: an input becomes a rules event, checked by the match (a pure
``Match.apply``), queued as a record for the store, and written before the display shows it. When
the store cannot write (a full or read-only card, a damaged file), the box goes on scoring in
memory with the trouble on the display, and the records wait in order until the store takes them:
nothing the players saw is dropped, and nothing is written out of order.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

from device.core.effects import (
    AskReading,
    CancelReading,
    Effect,
    Meta,
    Notify,
    ReaderNewMatch,
    ReadingChecked,
    Record,
    Refused,
    Reject,
    Repair,
    Show,
    Taken,
    Write,
    Written,
)
from device.core.inputs import (
    Assigned,
    ButtonPressed,
    Fault,
    HoleDrop,
    Input,
    Operator,
    ReadingDone,
    ReadingFailed,
    TouchChanged,
    describe,
)
from device.core.menu import Menu
from device.core.state import BoxState, Ledger, Panel, Settings, meta_of
from device.errors import DeviceError, DisplayError, StoreDamaged, StoreError
from device.store import Recovered
from rules import BoardReading, Confirm, Event, Match, NewMatch, RulesError, Shot, Twenty

log = logging.getLogger(__name__)
Step = tuple[BoxState, list[Effect]]
STORE = "store"


# --- starting ------------------------------------------------------------------------------------

def start(settings: Settings, recovered: Recovered | None, trouble: StoreError | None,
          now: float, wall: float) -> Step:
    """The state after the store was looked at: the unfinished match it held (as far as it
    could be read) resumed, or the default match begun. ``trouble`` is why the store could not
    be opened or read whole; the box starts anyway, showing it."""
    state = BoxState()
    effects: list[Effect] = []
    damaged = isinstance(trouble, StoreDamaged) or bool(recovered and recovered.problem)
    if recovered is not None and recovered.bodies:
        match, records = _resume(recovered)
        if records:
            state = replace(state, match=match, ledger=Ledger(
                match_id=recovered.match_id, history=records))
            log.info("resumed match %d (%s) after %d events", recovered.match_id,
                     match.rules.name if match else "?", len(records))
            if len(records) < len(recovered.bodies):
                damaged = True
    if damaged:
        state = replace(state, ledger=replace(state.ledger, damaged=True))
        why = trouble or StoreDamaged(f"match {recovered.match_id if recovered else '?'} "
                                      f"{recovered.problem if recovered else ''}")
        log.error("%s", why)
        state = state.with_fault(STORE, StoreDamaged.words)
    elif trouble is not None:
        log.error("%s", trouble)
        state = state.with_fault(STORE, trouble.words)
        if not trouble.retry:
            state = replace(state, ledger=replace(state.ledger, stuck=True))
    if state.match is None:
        state, more = _accept(settings, state, settings.default_match,
                              {"source": "config"}, None, now, wall)
        effects += more
    state, more = _after_change(settings, state, None, now)
    return state, effects + more


def _resume(recovered: Recovered) -> tuple[Match | None, tuple[Record, ...]]:
    """Folds the recovered events as far as they go; the records of those that went in."""
    match: Match | None = None
    records: list[Record] = []
    for body in recovered.bodies:
        try:
            from rules import parse_event

            ev = parse_event(body)
            match = Match.start(ev) if match is None and isinstance(ev, NewMatch) else (
                match.apply(ev) if match is not None else None)
        except RulesError as exc:
            log.error("the store's match %d stops making sense at its event %d: %s",
                      recovered.match_id, len(records), exc)
            break
        if match is None:
            break
        ts = float(body.get("ts", 0.0)) if isinstance(body.get("ts"), int | float) else 0.0
        records.append(Record("begin" if not records else "event", ts, ev, meta_of(body)))
    return match, tuple(records)


# --- inputs --------------------------------------------------------------------------------------

def step(settings: Settings, state: BoxState, inp: Input, now: float, wall: float) -> Step:
    effects: list[Effect] = []
    if isinstance(inp, Fault):
        state = _fault(state, inp.part, inp.message)
    elif isinstance(inp, Assigned):
        state = replace(state, assigned=inp.match)
        if inp.match is not None:
            state = _say(settings, state, f"next: {inp.label}", now)
    elif isinstance(inp, ReadingFailed):
        if inp.token == state.request.token:
            state = _fault(state, "camera", f"camera: {inp.reason}")
            state = replace(state, request=replace(state.request, token=None))
    else:
        state, events, more = _translate(settings, state, inp, now)
        effects += more
        for ev, meta in events:
            meta.setdefault("ts", round(wall, 3))
            state, more = _accept(settings, state, ev, meta, inp, now, wall)
            effects += more
            if any(isinstance(e, Refused) for e in more):
                break  # what follows a refused event made sense only after it
    state, more = _housekeeping(settings, state, now)
    return state, effects + more


def _translate(settings: Settings, state: BoxState, inp: Input, now: float
               ) -> tuple[BoxState, list[tuple[Event, dict[str, Any]]], list[Effect]]:
    m = state.match
    if isinstance(inp, TouchChanged):
        if inp.active:
            return replace(state, touching=state.touching | {inp.quadrant}), [], []
        if inp.quadrant not in state.touching:
            return state, [], []
        state = replace(state, touching=state.touching - {inp.quadrant})
        seat = m.rules.seat_at(inp.quadrant) if m else None
        if seat is None:
            log.info("touch on quadrant %d, where nobody sits: ignored", inp.quadrant)
            return state, [], []
        return state, [(Shot(seat), {"source": "touch"})], []
    if isinstance(inp, HoleDrop):
        return state, [(Twenty(), {"source": "hole"})], []
    if isinstance(inp, ReadingDone):
        if inp.token != state.request.token or m is None or m.expect().what != "board":
            log.info("a board reading arrived that is no longer wanted: ignored")
            return state, [], []
        state = replace(state, request=replace(state.request, token=None))
        state = _fault(state, "camera", None)
        meta: dict[str, Any] = {"source": "camera"}
        if inp.picture:
            meta["picture"] = inp.picture
        return state, [(inp.board, meta)], []
    if isinstance(inp, ButtonPressed):
        return _button(settings, state, inp, now)
    if isinstance(inp, Operator):
        return state, [(inp.event, {"source": inp.source})], []
    return state, [], []


def _button(settings: Settings, state: BoxState, inp: ButtonPressed, now: float
            ) -> tuple[BoxState, list[tuple[Event, dict[str, Any]]], list[Effect]]:
    """Buttons drive the menu; what it decides is carried out here."""
    if inp.button not in ("menu", "ok", "back"):
        return state, [], []
    nxt = state.assigned
    if (nxt is not None and inp.button == "ok" and not inp.held and not state.menu.open
            and (state.match is None or state.match.finished)):
        # the club's next match: ok on the finished scoreboard starts it
        return replace(state, assigned=None), [(nxt, {"source": "club"})], []
    menu = Menu(settings.player_sets or (settings.default_match.players,))
    screen, action = menu.press(state.menu, inp.button,  # type: ignore[arg-type]
                                inp.held, state.match, inp.at,
                                repair=state.ledger.damaged)
    state = replace(state, menu=screen)
    if action is None:
        return state, [], []
    if action.repair:
        return state, [], [Repair(now)]
    if action.read_now:
        if settings.camera and state.request.token is not None:
            return _say(settings, state, "reading the board now", now), [], [
                AskReading(state.request.token, now=True)]
        return _say(settings, state, "the board is read after the round's last disc", now), [], []
    return state, [(ev, {"source": "button"}) for ev in action.events], []


def _accept(settings: Settings, state: BoxState, ev: Event, meta: dict[str, Any],
            inp: Input | None, now: float, wall: float) -> Step:
    """The rules judge ``ev``; a taken event is queued for the store and the match moves on."""
    before = state.match
    try:
        if isinstance(ev, NewMatch):
            after = Match.start(ev)
        elif before is None:
            raise RulesError("no match is in play")
        else:
            after = before.apply(ev)
    except RulesError as exc:
        return _refuse(settings, state, ev, meta, str(exc), inp, now)
    frozen_meta: Meta = tuple(sorted(meta.items()))
    kind = "begin" if isinstance(ev, NewMatch) else "event"
    state = _queue(state, Record(kind, wall, ev, frozen_meta))
    state = replace(state, match=after)
    effects: list[Effect] = [Taken(str(meta.get("source")), ev, after)]
    if isinstance(ev, NewMatch):
        state = replace(state, touching=frozenset())
        effects.append(ReaderNewMatch())
        log.info("match begins: %s, %s", ev.rules, ", ".join(ev.players))
    if isinstance(ev, BoardReading):  # which camera reading is the latest, if any
        taken = inp.token if isinstance(inp, ReadingDone) else None
        state = replace(state, request=replace(state.request, taken=taken))
    elif isinstance(ev, Confirm) and state.request.taken is not None and settings.camera:
        effects.append(ReadingChecked(state.request.taken))  # the camera may learn from it
    if isinstance(ev, Twenty) and before is not None:
        state = replace(state, flash=(before.twenty_side(ev), now + settings.timing.flash_s))
    state, more = _after_change(settings, state, before, now, wall)
    return state, effects + more


def _refuse(settings: Settings, state: BoxState, ev: Event, meta: dict[str, Any], reason: str,
            inp: Input | None, now: float) -> Step:
    log.info("refused %s: %s", ev.to_json(), reason)
    body = {**ev.to_json(), **meta}
    if inp is not None:
        body["input"] = describe(inp)
    effects: list[Effect] = [Reject(state.ledger.match_id, body, reason, float(meta["ts"])
                                    if "ts" in meta else now), Refused(reason, ev)]
    state = _say(settings, state, reason, now)
    if meta.get("source") == "camera":  # the round waits: the operator must count it
        state = _fault(state, "camera", "CHECK the board: the reading does not add up; score "
                       "the round on the buttons")
    return state, effects


def _queue(state: BoxState, record: Record) -> BoxState:
    return replace(state, ledger=replace(state.ledger, queue=state.ledger.queue + (record,)))


def _after_change(settings: Settings, state: BoxState, before: Match | None, now: float,
                  wall: float | None = None) -> Step:
    """Keeps the store's match record and the camera's request in step with the match."""
    m = state.match
    effects: list[Effect] = []
    if m is None:
        return state, effects
    was_finished = before is not None and before.finished
    ts = wall if wall is not None else now
    if m.finished and (before is None or before.game != m.game):
        state = _queue(state, Record("finish", ts, result=m.summary().to_json()))
    elif was_finished and not m.finished:
        state = _queue(state, Record("reopen", ts))
    req = state.request
    if m.expect().what == "board":
        token = m.depth
        if req.token != token:
            state = replace(state, request=replace(req, token=token, asked_at=now))
            if settings.camera:
                effects.append(AskReading(token))
            else:
                state = _fault(state, "camera", "no camera: score the round on the buttons")
    elif req.token is not None:
        state = replace(state, request=replace(req, token=None))
        if settings.camera:
            effects.append(CancelReading())
        state = _fault(state, "camera", None)  # the round is scored: a camera trouble is news
    return state, effects


# --- time ----------------------------------------------------------------------------------------

def _housekeeping(settings: Settings, state: BoxState, now: float) -> Step:
    menu = Menu(settings.player_sets or (settings.default_match.players,))
    state = replace(state, menu=menu.tick(state.menu, now))
    if (state.request.token is not None and settings.camera
            and now - state.request.asked_at > settings.timing.board_timeout_s
            and state.fault("camera") is None):
        state = _fault(state, "camera", "camera not answering: score the round on the buttons")
    led = state.ledger
    if led.queue and led.retry_at is not None and now >= led.retry_at:
        state = replace(state, ledger=replace(led, retry_at=None))
    return state, []


def next_write(state: BoxState) -> list[Effect]:
    """The head of the queue, if it is due to be written."""
    led = state.ledger
    if not led.writing:
        return []
    head = led.queue[0]
    return [Write(head, head.keep_id if head.kind == "begin" else led.match_id)]


# --- outcomes of effects -------------------------------------------------------------------------

def done(settings: Settings, state: BoxState, effect: Effect, outcome: Any, now: float) -> Step:
    """The shell performed ``effect``; ``outcome`` is what it gave (an id, a sequence number)."""
    if isinstance(effect, Write):
        led = state.ledger
        record = led.queue[0]
        if record.kind == "begin":
            led = replace(led, match_id=int(outcome), history=(record,))
        else:
            led = replace(led, history=led.history + (record,))
        led = replace(led, queue=led.queue[1:], retry_at=None)
        state = replace(state, ledger=led)
        if state.fault(STORE) is not None and not led.damaged:
            log.info("the store writes again")
            state = state.with_fault(STORE, None)
        written: list[Effect] = []
        if record.kind in ("begin", "event") and led.match_id is not None:
            written.append(Written(led.match_id, int(outcome) if record.kind == "event" else 0,
                                   record))
        return state, written + next_write(state)
    if isinstance(effect, Repair):
        led = state.ledger
        # The rebuilt store holds the other matches: the current one is written again from its
        # start, under its old id.
        history = led.history
        if history and history[0].kind == "begin":
            history = (replace(history[0], keep_id=led.match_id), *history[1:])
        state = replace(state, ledger=Ledger(queue=(*history, *led.queue)))
        state = state.with_fault(STORE, None)
        state = _say(settings, state, "store repaired: a new one", now)
        return state, next_write(state)
    if isinstance(effect, Show):
        panel = Panel(shown=(effect.match, effect.status))
        if state.fault("display") is not None:
            state = state.with_fault("display", None)
        return replace(state, panel=panel), []
    if isinstance(effect, Notify):
        return replace(state, notified=effect.status), []
    return state, []


def failed(settings: Settings, state: BoxState, effect: Effect, error: DeviceError,
           now: float) -> Step:
    """The shell could not perform ``effect``: what that means for the box, in one place."""
    t = settings.timing
    if isinstance(effect, Write | Repair):
        log.error("%s", error)
        words = error.words if isinstance(error, StoreError) else "store: cannot write"
        led = state.ledger
        damaged = led.damaged or isinstance(error, StoreDamaged)
        stuck = not damaged and isinstance(error, StoreError) and not error.retry
        retry_at = None if damaged or stuck else now + t.store_retry_s
        state = replace(state, ledger=replace(led, retry_at=retry_at, damaged=damaged,
                                                  stuck=stuck))
        return state.with_fault(STORE, words), []
    if isinstance(effect, Show):
        # back off: each attempt rebuilds the panel's driver, which is not free
        panel = state.panel
        wait = min(panel.wait_s * 2 or t.display_retry_s, t.display_retry_max_s)
        log.warning("display: %s (next try in %.0f s)", error, wait)
        state = replace(state, panel=replace(panel, retry_at=now + wait, wait_s=wait))
        if not isinstance(error, DisplayError):
            log.error("showing a frame failed: %s", error)
        return state.with_fault("display", "display: retrying"), []
    if isinstance(effect, AskReading | CancelReading | ReaderNewMatch | ReadingChecked):
        return _fault(state, "camera", f"camera: {error}"), []
    log.warning("%s failed: %s", type(effect).__name__, error)
    return state, []


# --- the frame -----------------------------------------------------------------------------------

def refresh(state: BoxState, now: float) -> list[Effect]:
    """Ends a step: the store's next write, the frame to show and systemd's status line, each
    only if due or changed."""
    effects: list[Effect] = []
    status = state.status(now)
    shown = state.panel.shown
    panel_due = state.panel.retry_at is None or now >= state.panel.retry_at
    if panel_due and (shown is None or shown[0] is not state.match or shown[1] != status):
        effects.append(Show(state.match, status))
    line = state.status_line()
    if line != state.notified:
        effects.append(Notify(line, ready=state.notified is None))
    return effects


def _fault(state: BoxState, part: str, message: str | None) -> BoxState:
    if message is None:
        if state.fault(part) is not None:
            log.info("%s recovered", part)
    elif state.fault(part) != message:
        log.warning("%s", message)
    return state.with_fault(part, message)


def _say(settings: Settings, state: BoxState, text: str, now: float) -> BoxState:
    return replace(state, message=(text, now + settings.timing.message_s))
