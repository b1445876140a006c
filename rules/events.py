"""The event vocabulary: every input to a match, as values, and their JSON form.

The JSON form is the one written to the event store and read by ``crokiscore replay``; parsing is
strict (unknown fields and types are refused with the field's name) so a log that replays is a log
that means what it says. A few metadata keys (``ts``, ``source``, ``note``, ``picture``) may ride
along on any event for the record; the rules ignore them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from rules.errors import EventError, shown

META_KEYS = frozenset({"ts", "source", "note", "picture"})
BOARD_ZONES = frozenset({0, 5, 10, 15})


@dataclass(frozen=True)
class Disc:
    """One disc as read off the board: its side, its value and whether the reading is sure."""

    team: int
    zone: int
    uncertain: bool = False
    x_mm: float | None = None
    y_mm: float | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"team": self.team, "zone": self.zone}
        if self.uncertain:
            out["uncertain"] = True
        if self.x_mm is not None and self.y_mm is not None:
            out["x_mm"] = round(self.x_mm, 1)
            out["y_mm"] = round(self.y_mm, 1)
        return out


@dataclass(frozen=True)
class NewMatch:
    """Starts a match: the rule set, the players in seat order (clockwise) and variant options."""

    TYPE: ClassVar[str] = "match"
    rules: str
    players: tuple[str, ...]
    options: tuple[tuple[str, Any], ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.TYPE, "rules": self.rules,
                               "players": list(self.players)}
        if self.options:
            out["options"] = dict(self.options)
        return out


@dataclass(frozen=True)
class Shot:
    """A disc was shot from ``seat``'s quadrant."""

    TYPE: ClassVar[str] = "shot"
    seat: int

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "seat": self.seat}


@dataclass(frozen=True)
class Twenty:
    """The hole sensor saw a disc drop during the current shot; credited to ``team`` if given,
    otherwise to the shooter's side."""

    TYPE: ClassVar[str] = "twenty"
    team: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.TYPE}
        if self.team is not None:
            out["team"] = self.team
        return out


@dataclass(frozen=True)
class Foul:
    """The latest shot was invalid: the shooter's side's 20s made by it do not count."""

    TYPE: ClassVar[str] = "foul"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE}


@dataclass(frozen=True)
class BoardReading:
    """The settled board as read by the camera (ditch discs as zone 0). ``check`` says why the
    board as a whole must be checked (part of it out of view, a hand over it), apart from any
    disc's own doubt: the players look over the board, not at each disc."""

    TYPE: ClassVar[str] = "board"
    discs: tuple[Disc, ...]
    check: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.TYPE, "discs": [d.to_json() for d in self.discs]}
        if self.check:
            out["check"] = list(self.check)
        return out


@dataclass(frozen=True)
class Confirm:
    """The operator checked a reading flagged uncertain and accepts it as it is."""

    TYPE: ClassVar[str] = "confirm"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE}


@dataclass(frozen=True)
class Correction:
    """The operator's fix of a board reading: exactly one of ``discs`` (the board as it really
    was), ``totals`` (round-based games: the round's totals per side, 20s included) or ``value``
    (crokidarts: the turn's value so far, 20s included). ``round`` picks an earlier round's
    reading in round-based games; by default the latest reading is corrected."""

    TYPE: ClassVar[str] = "correct"
    discs: tuple[Disc, ...] | None = None
    totals: tuple[int, int] | None = None
    value: int | None = None
    round: int | None = None

    def __post_init__(self) -> None:
        given = [k for k in ("discs", "totals", "value") if getattr(self, k) is not None]
        if len(given) != 1:
            raise EventError(
                "correct: give exactly one of 'discs', 'totals' or 'value'"
                + (f" (got {', '.join(given)})" if given else ""))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.TYPE}
        if self.discs is not None:
            out["discs"] = [d.to_json() for d in self.discs]
        if self.totals is not None:
            out["totals"] = list(self.totals)
        if self.value is not None:
            out["value"] = self.value
        if self.round is not None:
            out["round"] = self.round
        return out


@dataclass(frozen=True)
class Undo:
    """Takes back the latest event still in effect."""

    TYPE: ClassVar[str] = "undo"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE}


@dataclass(frozen=True)
class Starter:
    """Names who starts the coming round or leg (drawn by lot), before its first shot."""

    TYPE: ClassVar[str] = "starter"
    seat: int

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "seat": self.seat}


Event = NewMatch | Shot | Twenty | Foul | BoardReading | Confirm | Correction | Undo | Starter
PlayEvent = Shot | Twenty | Foul | BoardReading | Confirm | Correction | Starter

# --- parsing ---------------------------------------------------------------------------------


def _fields(obj: Mapping[str, Any], kind: str, required: set[str], optional: set[str]) -> None:
    missing = required - obj.keys()
    if missing:
        raise EventError(f"{kind}: missing field {', '.join(repr(k) for k in sorted(missing))}")
    unknown = obj.keys() - required - optional - META_KEYS - {"type"}
    if unknown:
        allowed = sorted(required | optional)
        raise EventError(
            f"{kind}: unknown field {', '.join(repr(k) for k in sorted(unknown))}"
            + (f"; its fields are {', '.join(allowed)}" if allowed else "; it takes no fields"))


def _int(kind: str, key: str, value: Any, low: int, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (
            high is not None and value > high):
        span = f"from {low} to {high}" if high is not None else f"of at least {low}"
        raise EventError(f"{kind}: field {shown(key)} must be a whole number {span}, "
                         f"got {shown(value)}")
    return value


def _team(kind: str, key: str, value: Any) -> int:
    return _int(kind, key, value, 0, 1)


def _disc(kind: str, i: int, obj: Any) -> Disc:
    where = f"{kind}: disc {i}"
    if not isinstance(obj, Mapping):
        raise EventError(
            f"{where} must be an object like {{\"team\": 0, \"zone\": 15}}, got {shown(obj)}")
    _fields(obj, where, {"team", "zone"}, {"uncertain", "x_mm", "y_mm"})
    zone = obj["zone"]
    if isinstance(zone, bool) or zone not in BOARD_ZONES:
        raise EventError(f"{where}: 'zone' must be 0, 5, 10 or 15 (20s come from the hole sensor),"
                         f" got {shown(zone)}")
    uncertain = obj.get("uncertain", False)
    if not isinstance(uncertain, bool):
        raise EventError(f"{where}: 'uncertain' must be true or false, got {shown(uncertain)}")
    coords = []
    for key in ("x_mm", "y_mm"):
        v = obj.get(key)
        if v is not None and (isinstance(v, bool) or not isinstance(v, int | float)
                              or not math.isfinite(v)):
            raise EventError(f"{where}: {shown(key)} must be a number, got {shown(v)}")
        coords.append(None if v is None else float(v))
    if (coords[0] is None) != (coords[1] is None):
        raise EventError(f"{where}: give both 'x_mm' and 'y_mm' or neither")
    return Disc(_team(where, "team", obj["team"]), zone, uncertain, coords[0], coords[1])


def _discs(kind: str, value: Any) -> tuple[Disc, ...]:
    if not isinstance(value, list):
        raise EventError(f"{kind}: 'discs' must be a list of discs, got {shown(value)}")
    return tuple(_disc(kind, i, d) for i, d in enumerate(value))


def parse_event(obj: Any) -> Event:
    """Reads one event from its JSON object; raises :class:`EventError` naming what is wrong."""
    if not isinstance(obj, Mapping):
        raise EventError(f"an event must be a JSON object with a 'type', got {shown(obj)}")
    kind = obj.get("type")
    if kind == "match":
        _fields(obj, kind, {"rules", "players"}, {"options"})
        players = obj["players"]
        if (not isinstance(players, list) or not players
                or not all(isinstance(p, str) and p.strip() for p in players)):
            raise EventError(f"match: 'players' must be a list of names, got {shown(players)}")
        if not isinstance(obj["rules"], str):
            raise EventError(f"match: 'rules' must be a rule set's name, got {shown(obj['rules'])}")
        options = obj.get("options", {})
        if not isinstance(options, Mapping):
            raise EventError(f"match: 'options' must be an object, got {shown(options)}")
        return NewMatch(obj["rules"], tuple(p.strip() for p in players),
                        tuple(sorted(options.items())))
    if kind == "shot":
        _fields(obj, kind, {"seat"}, set())
        return Shot(_int(kind, "seat", obj["seat"], 0))
    if kind == "twenty":
        _fields(obj, kind, set(), {"team"})
        team = obj.get("team")
        return Twenty(None if team is None else _team(kind, "team", team))
    if kind == "foul":
        _fields(obj, kind, set(), set())
        return Foul()
    if kind == "board":
        _fields(obj, kind, {"discs"}, {"check"})
        check = obj.get("check", [])
        if not isinstance(check, list) or not all(isinstance(c, str) and c.strip()
                                                  for c in check):
            raise EventError(f"board: 'check' must be a list of reasons in words, got "
                             f"{shown(check)}")
        return BoardReading(_discs(kind, obj["discs"]), tuple(check))
    if kind == "confirm":
        _fields(obj, kind, set(), set())
        return Confirm()
    if kind == "correct":
        _fields(obj, kind, set(), {"discs", "totals", "value", "round"})
        discs = _discs(kind, obj["discs"]) if "discs" in obj else None
        totals = None
        if "totals" in obj:
            t = obj["totals"]
            if not isinstance(t, list) or len(t) != 2:
                raise EventError(f"correct: 'totals' must be [side 0, side 1], got {shown(t)}")
            totals = (_int(kind, "totals", t[0], 0), _int(kind, "totals", t[1], 0))
        value = _int(kind, "value", obj["value"], 0) if "value" in obj else None
        rnd = _int(kind, "round", obj["round"], 1) if "round" in obj else None
        return Correction(discs, totals, value, rnd)
    if kind == "undo":
        _fields(obj, kind, set(), set())
        return Undo()
    if kind == "starter":
        _fields(obj, kind, {"seat"}, set())
        return Starter(_int(kind, "seat", obj["seat"], 0))
    known = "match, shot, twenty, foul, board, confirm, correct, undo, starter"
    if kind is None:
        raise EventError(f"an event needs a 'type' (one of: {known})")
    raise EventError(f"unknown event type {shown(kind)}; known types: {known}")
