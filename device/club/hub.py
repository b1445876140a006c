"""The club's hub: every board's messages in, every match kept once, changes out to the page.

:class:`Hub` is the part without I/O of its own: it is handed each message (topic and payload)
and a ``publish`` function, keeps the hub's store, folds each match from its events in sequence
order, and tells its listeners what changed. It runs on one thread (the web server's event loop),
so it needs no locks; :mod:`device.club.service` wires it to the broker and the page.

Exactly once: an event is stored under (board, match, seq), so a copy changes nothing. Nothing
lost: a match whose events have a gap (an event with a higher number arrived, or the board's state
names a later event) is asked for again from the first missing number on the board's ``resend``
topic, after a short wait (the missing event is usually on its way) and again every few seconds
until the gap is filled.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from device.club.errors import MessageError
from device.club.hubstore import HubStore
from device.club.topics import (
    HUB_KINDS,
    Assignment,
    EventMessage,
    MatchKey,
    Resend,
    Topics,
    dumps,
    parse_event_message,
    parse_link,
    parse_picture,
    parse_state,
)
from rules import Match, NewMatch, RulesError, parse_event
from rules.stats import match_stats

log = logging.getLogger(__name__)

GAP_WAIT_S = 1.0      # a missing event is usually on its way: wait this long before asking
ASK_AGAIN_S = 5.0     # then ask again this often until it comes
Publish = Callable[[str, bytes, bool], None]   # topic, payload, retain
Listener = Callable[[str, dict[str, Any]], None]


@dataclass
class Fold:
    """A match as far as its events have come in order: ``next`` is the first missing seq."""

    key: MatchKey
    next: int = 0
    match: Match | None = None
    highest: int = -1             # the highest seq known to exist (stored, or named by a state)
    gap_since: float | None = None
    asked_at: float | None = None
    broken: str | None = None     # an event the rules refused: the match is not folded further

    def has_gap(self) -> bool:
        return self.broken is None and self.next <= self.highest


@dataclass
class Board:
    name: str
    state: dict[str, Any] | None = None
    online: bool | None = None
    picture: int = 0              # a version number for the picture's address
    seen: float = 0.0
    counts: Counter[str] = field(default_factory=Counter)


class Hub:
    def __init__(self, store: HubStore, topics: Topics, publish: Publish, *,
                 event: str | None = None, clock: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time) -> None:
        self.store = store
        self.topics = topics
        self.publish = publish
        self.default_event = event
        self.clock = clock
        self.wall = wall
        self.folds: dict[str, Fold] = {}
        self.boards: dict[str, Board] = {}
        self.listeners: list[Listener] = []
        self.counts: Counter[str] = Counter()
        self.results_version = 0   # goes up whenever a match finishes (or is reopened)
        for name, (state, online) in store.boards().items():
            self.boards[name] = Board(name, state, online,
                                      picture=1 if store.picture(name) else 0)

    # --- messages in ----------------------------------------------------------------------------

    def handle(self, topic: str, payload: bytes) -> None:
        """One message from the broker. Anything not ours is logged and ignored."""
        self.counts["messages"] += 1
        where = self.topics.split(topic)
        if where is None:
            self._ignore(topic, "not a topic of this club's layout (<prefix>/<club>/<board>/"
                         "<kind>)")
            return
        board, kind = where
        try:
            if kind == "event":
                self._event(parse_event_message(board, payload))
            elif kind == "state":
                self._state(board, payload)
            elif kind == "link":
                online = parse_link(board, payload)
                b = self._board(board)
                b.online = online
                self.store.set_online(board, online, self.wall())
                self._changed(board)
            elif kind == "picture":
                if not payload:
                    return
                jpeg = parse_picture(board, payload)
                self.store.set_picture(board, jpeg, self.wall())
                self._board(board).picture += 1
                self._changed(board)
            elif kind in HUB_KINDS:
                return  # the hub's own messages, heard back
            else:
                self._ignore(topic, f"unknown kind {kind!r}")
        except MessageError as exc:
            self._ignore(topic, str(exc))

    def _ignore(self, topic: str, why: str) -> None:
        self.counts["ignored"] += 1
        log.warning("ignored a message on %s: %s", topic, why)

    def _board(self, name: str) -> Board:
        b = self.boards.get(name)
        if b is None:
            b = self.boards[name] = Board(name)
        b.seen = self.wall()
        return b

    def _fold(self, key: MatchKey) -> Fold:
        f = self.folds.get(key.uuid)
        if f is None:
            f = self.folds[key.uuid] = Fold(key)
            for seq, body in self.store.bodies(key):
                f.highest = max(f.highest, seq)
                if seq == f.next and f.broken is None:
                    self._apply(f, body)
        return f

    def _apply(self, f: Fold, body: dict[str, Any]) -> None:
        try:
            ev = parse_event(body)
            f.match = Match.start(ev) if isinstance(ev, NewMatch) and f.next == 0 else (
                f.match.apply(ev) if f.match is not None else None)
        except RulesError as exc:
            f.broken = f"event {f.next} refused: {exc}"
            log.error("match %s of board %s: %s; its events are kept but not scored further",
                      f.key.match_id, f.key.board, f.broken)
            return
        f.next += 1

    def _event(self, msg: EventMessage) -> None:
        key = msg.key
        board = self._board(key.board)
        if msg.seq == 0 and not self.store.has_match(key):
            self._new_match(key, msg.body)
        if not self.store.add_event(key, msg.seq, msg.ts, msg.body, self.wall()):
            self.counts["copies"] += 1
            board.counts["copies"] += 1
            return
        self.counts["events"] += 1
        board.counts["events"] += 1
        f = self._fold(key)
        f.highest = max(f.highest, msg.seq)
        before = f.match.finished if f.match is not None else False
        while f.broken is None and f.next <= f.highest:
            body = msg.body if f.next == msg.seq else self.store.body(key, f.next)
            if body is None:
                break
            self._apply(f, body)
        if f.has_gap():
            f.gap_since = f.gap_since or self.clock()
        else:
            f.gap_since = f.asked_at = None
        after = f.match.finished if f.match is not None else False
        if after != before or after:
            self.store.set_result(key, self.store.last_ts(key) if after else None,
                                  self.result(f) if after else None)
        self._changed(key.board, results=after != before)

    def _new_match(self, key: MatchKey, body: dict[str, Any]) -> None:
        """Its first event: recorded, and linked to the organiser's assignment if it is that
        match (then the assignment is taken off the board's topic)."""
        try:
            ev = parse_event(body)
        except RulesError:
            return
        assert isinstance(ev, NewMatch)
        event, linked = self.default_event, None
        pending = self.store.pending(key.board)
        if pending is not None and (pending["rules"], tuple(pending["players"]),
                                    pending.get("options", {})) == (
                ev.rules, ev.players, dict(ev.options)):
            event, linked = pending.get("event") or self.default_event, pending["id"]
        self.store.add_match(key, ev.rules, ev.players, event, linked)
        if linked is not None:
            self.store.started_assignment(linked, key.uuid)
            self.publish(self.topics.of(key.board, "assign"), b"", True)
            log.info("board %s started the assigned match %s", key.board, " v ".join(ev.players))

    def _state(self, board: str, payload: bytes) -> None:
        key, seq, state = parse_state(board, payload)
        b = self._board(board)
        b.state = state
        self.store.set_state(board, state, self.wall())
        if key is not None:
            f = self._fold(key)
            if seq > f.highest:
                f.highest = seq
                if f.has_gap():
                    f.gap_since = f.gap_since or self.clock()
        self._changed(board)

    # --- time -----------------------------------------------------------------------------------

    def tick(self) -> None:
        """Asks the boxes for what is missing (call it a few times a second)."""
        now = self.clock()
        for f in self.folds.values():
            if not f.has_gap() or f.gap_since is None or now - f.gap_since < GAP_WAIT_S:
                continue
            if f.asked_at is not None and now - f.asked_at < ASK_AGAIN_S:
                continue
            f.asked_at = now
            self.counts["resends"] += 1
            log.info("board %s: match %d lacks event %d (has up to %d of %d); asking again",
                     f.key.board, f.key.match_id, f.next, f.next - 1, f.highest)
            self.publish(self.topics.of(f.key.board, "resend"),
                         dumps(Resend(f.key, f.next).to_json()), False)

    # --- assignments ----------------------------------------------------------------------------

    def assign(self, board: str, rules: str, players: list[str],
               options: dict[str, Any] | None = None, event: str | None = None) -> Assignment:
        """Raises :class:`RulesError` (a ValueError) if it is not a match that can be played."""
        ev = parse_event({"type": "match", "rules": rules, "players": players,
                          "options": options or {}})
        assert isinstance(ev, NewMatch)
        Match.start(ev)
        a = Assignment(str(uuid.uuid4()), board, ev.rules, ev.players, ev.options,
                       (event or "").strip() or self.default_event)
        self.store.add_assignment(a, self.wall())
        self.publish(self.topics.of(board, "assign"), dumps(a.to_json()), True)
        self._changed(board)
        return a

    def withdraw(self, board: str) -> bool:
        done = self.store.withdraw(board)
        self.publish(self.topics.of(board, "assign"), b"", True)
        self._changed(board)
        return done

    # --- what the page shows --------------------------------------------------------------------

    def _changed(self, board: str, results: bool = False) -> None:
        self.results_version += results
        view = self.board_view(board)
        for listener in list(self.listeners):
            listener("board", view)
            if results:
                listener("results", {"board": board})

    def board_view(self, name: str) -> dict[str, Any]:
        b = self.boards.get(name) or Board(name)
        state = b.state or {}
        received = None
        if state.get("match_id") is not None:
            key = MatchKey(name, state["match_id"], state["started"])
            f = self.folds.get(key.uuid)
            received = (f.next - 1) if f is not None else None
        pending = self.store.pending(name)
        return {"board": name, "online": b.online, "state": b.state, "received": received,
                "picture": f"/boards/{name}/picture.jpg?v={b.picture}" if b.picture else None,
                "next": pending}

    def boards_view(self) -> list[dict[str, Any]]:
        return [self.board_view(n) for n in sorted(self.boards)]

    def result(self, f: Fold) -> dict[str, Any] | None:
        if f.match is None:
            return None
        s = f.match.summary().to_json()
        s["stats"] = [p.to_json() for p in match_stats(f.match)]
        return s
