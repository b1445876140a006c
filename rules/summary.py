"""A match's state as typed values: what the scoreboard, the menu, the history and the replay read.

:meth:`rules.Match.summary` gives a :class:`RoundsSummary` (tournament and casual) or a
:class:`DartsSummary` (crokidarts); ``to_json()`` on either is the replay's ``--json`` output and
the result the store keeps, field for field (docs/events.md). Callers tell the two apart with one
``match`` on the type instead of comparing the game's name, and read fields instead of string keys,
so a field renamed here is a type error there rather than a ``KeyError`` on the box.

The per-round (crokidarts: per-turn) entries are read from the match when asked for, newest
first: a scoreboard that shows the last four rounds makes four entries, not one per round of a
match that has run all evening.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, overload

from rules.count import Awaiting

T = TypeVar("T")


class Entries(Sequence[T], Generic[T]):
    """A read-only sequence made from the match on demand, newest entry first.

    ``newest`` yields the entries from the latest backwards; reading from the end only makes the
    entries it reaches. Compares equal to any sequence with the same entries."""

    __slots__ = ("_newest", "_size")

    def __init__(self, size: int, newest: Callable[[], Iterator[T]]) -> None:
        self._size = size
        self._newest = newest

    def __len__(self) -> int:
        return self._size

    def __reversed__(self) -> Iterator[T]:
        return self._newest()

    def __iter__(self) -> Iterator[T]:
        items = list(self._newest())
        items.reverse()
        return iter(items)

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...

    def __getitem__(self, index: int | slice) -> T | tuple[T, ...]:
        if isinstance(index, slice):
            wanted = range(*index.indices(self._size))
            if not wanted:
                return ()
            lowest = min(wanted)
            tail = self._tail(self._size - lowest)
            return tuple(tail[i - lowest] for i in wanted)
        i = index + self._size if index < 0 else index
        if not 0 <= i < self._size:
            raise IndexError(f"entry {index} out of range for {self._size} entries")
        return self._tail(self._size - i)[0]

    def _tail(self, count: int) -> list[T]:
        """The last ``count`` entries, oldest first."""
        out = []
        for item in self._newest():
            if len(out) == count:
                break
            out.append(item)
        out.reverse()
        return out

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str | bytes):
            return NotImplemented
        return len(other) == self._size and tuple(self) == tuple(other)

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"Entries({list(self)!r})"


def _pair(v: tuple[int, int] | None) -> list[int] | None:
    return None if v is None else [v[0], v[1]]


@dataclass(frozen=True)
class RoundSummary:
    """One round of a round game. ``board``, ``points`` and the reading's flags are None until
    the round's board is read (``decided``)."""

    number: int
    starter: int
    shots: int
    twenties: tuple[int, int]
    fouls: int
    board: tuple[int, int] | None
    totals: tuple[int, int]
    points: tuple[int, int] | None
    uncertain: bool | None = None
    confirmed: bool | None = None
    corrected: bool | None = None

    @property
    def decided(self) -> bool:
        return self.board is not None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"number": self.number, "starter": self.starter,
                               "shots": self.shots, "twenties": _pair(self.twenties),
                               "fouls": self.fouls, "board": _pair(self.board),
                               "totals": _pair(self.totals), "points": _pair(self.points)}
        if self.board is not None:
            out.update(uncertain=self.uncertain, confirmed=self.confirmed,
                       corrected=self.corrected)
        return out


@dataclass(frozen=True)
class TurnSummary:
    """One crokidarts turn: its leg, seat, the leg score before (``start``) and after it
    (``end``; while open, what it would be now), its ``status`` and ``totals``, the points it
    added per side (0 while open or when busted)."""

    set_no: int
    leg_no: int
    seat: int
    start: int
    end: int
    status: str
    shots: int
    twenties: int
    board: int
    totals: tuple[int, int]

    @property
    def closed(self) -> bool:
        return self.status in CLOSED

    @property
    def value(self) -> int:
        """What the turn is worth so far: its valid 20s and the board it leaves."""
        return 20 * self.twenties + self.board

    def to_json(self) -> dict[str, Any]:
        return {"set": self.set_no, "leg": self.leg_no, "seat": self.seat, "start": self.start,
                "end": self.end, "status": self.status, "shots": self.shots,
                "twenties": self.twenties, "board": self.board, "totals": _pair(self.totals)}


CLOSED = frozenset({"scored", "bust", "missed", "won"})


@dataclass(frozen=True)
class OpenTurn:
    """The crokidarts turn in play: where it started, what it is worth so far and the discs its
    player still has."""

    seat: int
    start: int
    twenties: int
    board: int
    value: int
    status: str
    discs_left: int

    @property
    def total(self) -> int:
        """The leg score if the turn ended now."""
        return self.start + self.value

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "start": self.start, "twenties": self.twenties,
                "board": self.board, "value": self.value, "status": self.status,
                "discs_left": self.discs_left}


@dataclass(frozen=True)
class FixedRounds:
    """A tournament's goal: the most round points after ``rounds`` rounds (a tie-break may add
    rounds beyond them)."""

    rounds: int


@dataclass(frozen=True)
class FirstTo:
    """A casual match's goal: the first side to ``target`` game points."""

    target: int


Goal = FixedRounds | FirstTo
"""How a round game is won; what a tournament and a casual match differ in, as a type."""


@dataclass(frozen=True)
class RoundsSummary:
    """A tournament or casual match, told apart by ``goal``. ``score`` is round points
    (tournament) or game points (casual); ``round`` is the round in play, or the next to start
    (the last once finished); ``discs_left`` is per seat in the round in play; ``rounds`` has one
    entry per round begun. ``goal`` is not in ``to_json()``: the options say it."""

    rules: str
    options: tuple[tuple[str, Any], ...]
    players: tuple[str, ...]
    teams: tuple[str, str]
    finished: bool
    winner: int | None
    score: tuple[int, int]
    awaiting: Awaiting | None
    seat: int | None
    round: int
    discs_left: tuple[int, ...]
    rounds: Sequence[RoundSummary]
    goal: Goal
    check: tuple[str, ...] = ()  # why the reading awaiting confirmation is held, if as a whole

    def decided_rounds(self) -> Iterator[RoundSummary]:
        """The rounds whose boards have been read, newest first."""
        return (r for r in reversed(self.rounds) if r.decided)

    def to_json(self) -> dict[str, Any]:
        return {"rules": self.rules, "options": dict(self.options),
                "players": list(self.players), "teams": list(self.teams),
                "finished": self.finished, "winner": self.winner, "score": _pair(self.score),
                "round": self.round, "awaiting": self.awaiting, "seat": self.seat,
                "discs_left": list(self.discs_left),
                "rounds": [r.to_json() for r in self.rounds], **_check(self.check)}


@dataclass(frozen=True)
class DartsSummary:
    """A crokidarts match. ``score`` is the leg score; ``legs`` are legs won in the set in play
    (in the final set once finished); ``set_no`` and ``leg_no`` number the leg in play (after a
    checkout, the leg just won until the next leg's first shot); ``checkout`` marks the expected
    shot as a checkout; ``turn`` is the open turn; ``turns`` has one entry per turn begun."""

    rules: str
    options: tuple[tuple[str, Any], ...]
    players: tuple[str, ...]
    teams: tuple[str, str]
    finished: bool
    winner: int | None
    score: tuple[int, int]
    awaiting: Awaiting | None
    seat: int | None
    legs: tuple[int, int]
    sets: tuple[int, int]
    set_no: int
    leg_no: int
    checkout: bool
    turn: OpenTurn | None
    turns: Sequence[TurnSummary]
    check: tuple[str, ...] = ()  # why the reading awaiting confirmation is held, if as a whole

    def to_json(self) -> dict[str, Any]:
        return {"rules": self.rules, "options": dict(self.options),
                "players": list(self.players), "teams": list(self.teams),
                "finished": self.finished, "winner": self.winner, "score": _pair(self.score),
                "legs": _pair(self.legs), "sets": _pair(self.sets), "set": self.set_no,
                "leg": self.leg_no, "awaiting": self.awaiting, "seat": self.seat,
                "checkout": self.checkout,
                "turn": None if self.turn is None else self.turn.to_json(),
                "rounds": [t.to_json() for t in self.turns], **_check(self.check)}


def _check(check: tuple[str, ...]) -> dict[str, Any]:
    """The held reading's reasons, in a summary's JSON only when there are any: a summary with
    none reads as it always has."""
    return {"check": list(check)} if check else {}


Summary = RoundsSummary | DartsSummary
