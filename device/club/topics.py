"""The club's topics and messages: what a box and the hub say to each other through the broker.

Everything lives under ``<prefix>/<club>/<board>/<kind>`` (docs/club.md):

=========  ==========  ========  =====================================================
kind       from        retained  payload
=========  ==========  ========  =====================================================
event      box         no        one committed event with its match and sequence number
state      box         yes       the board as it stands (players, score, whose shot...)
link       box         yes       online or offline (the broker says offline for a box
                                 that vanished: it is the box's last will)
picture    box         yes       the latest annotated board picture (JPEG)
assign     hub         yes       the board's next match, set by the organiser
resend     hub         no        "send match M again from sequence S": fills a gap
=========  ==========  ========  =====================================================

A match is named by its board, the box's store match id and its start time: a box's store can be
replaced (its ids start again at 1), the start time tells those matches apart. Parsing is strict;
a message that is not ours raises :class:`MessageError` naming what is wrong.
"""

from __future__ import annotations

import json
import math
import uuid
from dataclasses import dataclass
from typing import Any

from device.club.errors import MessageError
from rules import NewMatch, RulesError, parse_event
from rules.errors import shown

VERSION = 1
BOX_KINDS = ("event", "state", "link", "picture")
HUB_KINDS = ("assign", "resend")
NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "urn:crokiscore:match")
MAX_PICTURE = 4 * 1024 * 1024


@dataclass(frozen=True)
class Topics:
    prefix: str
    club: str

    @property
    def base(self) -> str:
        return f"{self.prefix}/{self.club}"

    def of(self, board: str, kind: str) -> str:
        return f"{self.base}/{board}/{kind}"

    def everything(self) -> str:
        return f"{self.base}/#"

    def split(self, topic: str) -> tuple[str, str] | None:
        """(board, kind) of a topic under this club, or None if it is not shaped like ours."""
        head = self.base + "/"
        if not topic.startswith(head):
            return None
        rest = topic[len(head):].split("/")
        if len(rest) != 2 or not rest[0] or not rest[1]:
            return None
        return rest[0], rest[1]


@dataclass(frozen=True)
class MatchKey:
    """A match as the club knows it: board, the box's store match id, its start (epoch s)."""

    board: str
    match_id: int
    started: float

    @property
    def uuid(self) -> str:
        """Stable: the same match exported twice has the same id."""
        return str(uuid.uuid5(NAMESPACE, f"{self.board}/{self.match_id}/{self.started:.3f}"))


@dataclass(frozen=True)
class EventMessage:
    key: MatchKey
    seq: int
    ts: float
    body: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"v": VERSION, "board": self.key.board, "match_id": self.key.match_id,
                "started": self.key.started, "seq": self.seq, "ts": self.ts, "body": self.body}


@dataclass(frozen=True)
class Assignment:
    """The organiser's next match for a board: started on the box when the operator says OK."""

    id: str
    board: str
    rules: str
    players: tuple[str, ...]
    options: tuple[tuple[str, Any], ...] = ()
    event: str | None = None

    def new_match(self) -> NewMatch:
        return NewMatch(self.rules, self.players, self.options)

    def label(self) -> str:
        return " v ".join(self.players)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"v": VERSION, "id": self.id, "board": self.board,
                               "rules": self.rules, "players": list(self.players)}
        if self.options:
            out["options"] = dict(self.options)
        if self.event:
            out["event"] = self.event
        return out


@dataclass(frozen=True)
class Resend:
    key: MatchKey
    start: int

    def to_json(self) -> dict[str, Any]:
        return {"v": VERSION, "match_id": self.key.match_id, "started": self.key.started,
                "from": self.start}


# --- reading --------------------------------------------------------------------------------


def dumps(obj: dict[str, Any]) -> bytes:
    return json.dumps(obj, separators=(",", ":")).encode("utf-8")


def _object(payload: bytes, what: str) -> dict[str, Any]:
    try:
        obj = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise MessageError(f"{what}: not JSON ({exc})") from None
    if not isinstance(obj, dict):
        raise MessageError(f"{what}: a JSON object was expected, got {shown(obj)}")
    if obj.get("v") != VERSION:
        raise MessageError(f"{what}: version {shown(obj.get('v'))}, this hub reads {VERSION}")
    return obj


def _int(obj: dict[str, Any], key: str, what: str, low: int) -> int:
    v = obj.get(key)
    if isinstance(v, bool) or not isinstance(v, int) or v < low:
        raise MessageError(f"{what}: {key!r} must be a whole number of at least {low}, "
                           f"got {shown(v)}")
    return v


def _number(obj: dict[str, Any], key: str, what: str) -> float:
    v = obj.get(key)
    if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v) or v < 0:
        raise MessageError(f"{what}: {key!r} must be a time in seconds, got {shown(v)}")
    return float(v)


def _key(obj: dict[str, Any], board: str, what: str) -> MatchKey:
    if obj.get("board", board) != board:
        raise MessageError(f"{what}: it names board {shown(obj.get('board'))} on board {board}'s "
                           "topic")
    return MatchKey(board, _int(obj, "match_id", what, 1), _number(obj, "started", what))


def parse_event_message(board: str, payload: bytes) -> EventMessage:
    what = f"event from {board}"
    obj = _object(payload, what)
    body = obj.get("body")
    try:
        parse_event(body)
    except RulesError as exc:
        raise MessageError(f"{what}: its body is not an event: {exc}") from None
    assert isinstance(body, dict)
    seq = _int(obj, "seq", what, 0)
    if (seq == 0) != (body.get("type") == "match"):
        raise MessageError(f"{what}: a match's event 0, and only it, is its 'match' event")
    return EventMessage(_key(obj, board, what), seq, _number(obj, "ts", what), body)


def parse_state(board: str, payload: bytes) -> tuple[MatchKey | None, int, dict[str, Any]]:
    """The state's match (None before any), its latest sequence number, and the whole object."""
    what = f"state of {board}"
    obj = _object(payload, what)
    if obj.get("match_id") is None:
        return None, -1, obj
    return _key(obj, board, what), _int(obj, "seq", what, 0), obj


def parse_link(board: str, payload: bytes) -> bool:
    obj = _object(payload, f"link of {board}")
    online = obj.get("online")
    if not isinstance(online, bool):
        raise MessageError(f"link of {board}: 'online' must be true or false, got {shown(online)}")
    return online


def parse_picture(board: str, payload: bytes) -> bytes:
    if not payload.startswith(b"\xff\xd8") or len(payload) > MAX_PICTURE:
        raise MessageError(f"picture of {board}: not a JPEG picture of at most "
                           f"{MAX_PICTURE // 2**20} MB")
    return payload


def parse_assignment(board: str, payload: bytes) -> Assignment | None:
    """None for the empty retained message that clears an assignment."""
    if not payload:
        return None
    what = f"assignment for {board}"
    obj = _object(payload, what)
    ident = obj.get("id")
    if not isinstance(ident, str) or not ident:
        raise MessageError(f"{what}: 'id' must be a text, got {shown(ident)}")
    if obj.get("board", board) != board:
        raise MessageError(f"{what}: it names board {shown(obj.get('board'))}")
    try:
        ev = parse_event({"type": "match", "rules": obj.get("rules"),
                          "players": obj.get("players"), "options": obj.get("options", {})})
    except RulesError as exc:
        raise MessageError(f"{what}: {exc}") from None
    assert isinstance(ev, NewMatch)
    event = obj.get("event")
    if event is not None and not isinstance(event, str):
        raise MessageError(f"{what}: 'event' must be a text, got {shown(event)}")
    return Assignment(ident, board, ev.rules, ev.players, ev.options, event or None)


def parse_resend(board: str, payload: bytes) -> Resend:
    what = f"resend for {board}"
    obj = _object(payload, what)
    return Resend(_key(obj, board, what), _int(obj, "from", what, 0))


@dataclass(frozen=True)
class Assigned:
    """On the daemon's input queue: the club set (or, with None, withdrew) the board's next
    match."""

    assignment: Assignment | None
    at: float
