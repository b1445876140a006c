"""What the scoreboard shows, as a plain value.

The daemon rebuilds a :class:`ScoreView` on every event from the match and its own
:class:`Status`, and the renderer draws nothing but this value. Keeping the two apart means the
picture depends only on data that can be compared, stored in a test, or printed, and that the
layouts never reach into the rules engine's internals. Building one reads
:meth:`rules.Match.summary` exactly once and only its latest rounds, so it stays cheap however
long the match has run.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, ClassVar, assert_never

from device.core.status import Status
from rules import DartsSummary, FirstTo, FixedRounds, Match, RoundsSummary

KEEP = 4
"""Decided rounds (or closed turns) a view keeps, latest last: what the wide layout lists."""


@dataclass(frozen=True)
class Turn:
    """The crokidarts turn in progress: where it started and what it is worth so far."""

    seat: int
    start: int
    twenties: int
    board: int
    value: int
    discs_left: int

    @property
    def total(self) -> int:
        """The leg score if the turn ended now."""
        return self.start + self.value


@dataclass(frozen=True)
class LastRound:
    """A decided round: its totals per side and the round points (casual: the points won)."""

    number: int
    totals: tuple[int, int]
    points: tuple[int, int]


@dataclass(frozen=True)
class LastTurn:
    """A closed crokidarts turn: its seat, its outcome and the leg score before and after it."""

    seat: int
    status: str
    start: int
    end: int


@dataclass(frozen=True, kw_only=True)
class ScoreView:
    """Everything one frame of the scoreboard shows that every game has; a frame is one of its
    two kinds, :class:`RoundsView` or :class:`DartsView`, which add their game's figures.

    ``score`` is what goes in the big digits: round points (tournament), game points (casual) or
    the leg score (crokidarts). ``side_up`` is the side whose shot (or board) is awaited, and
    ``shooter`` that seat's name. ``discs_left`` is per seat: the round's discs still to shoot, or
    in crokidarts the turn's (a whole turn's for the seat due to start one); ``discs`` is how many
    each seat has in a round (crokidarts: in a turn). ``check`` holds the match for the operator;
    ``check_totals`` is the reading waiting for that check (round games: the round's totals per
    side; crokidarts: the turn's value for its side). ``game`` is the rule set's game, as a name
    to print: code tells the kinds apart by type.
    """

    game: str
    rules: str
    sides: tuple[str, str]
    players: tuple[str, ...]
    score: tuple[int, int]
    discs: int = 0
    awaiting: str | None = None
    seat: int | None = None
    side_up: int | None = None
    shooter: str | None = None
    discs_left: tuple[int, ...] = (0, 0)
    finished: bool = False
    winner: int | None = None
    check: bool = False
    check_totals: tuple[int, int] | None = None
    twenty: int | None = None
    errors: tuple[str, ...] = ()
    message: str | None = None

    @property
    def doubles(self) -> bool:
        return len(self.players) == 4

    def side_discs(self, side: int) -> int:
        """Discs the side still has to shoot (both partners' in doubles)."""
        return sum(self.discs_left[side::2])

    @classmethod
    def build(cls, match: Match, status: Status | None = None) -> View:
        return build(match, status)


@dataclass(frozen=True, kw_only=True)
class RoundsView(ScoreView):
    """A frame of a tournament or casual match. ``round`` is the round in play (or next);
    ``rounds`` a tournament's rounds and ``target`` a casual match's target, 0 in the other;
    ``round_twenties`` the 20s per side in the round in play; ``history`` the latest decided
    rounds, latest last."""

    round: int = 0
    rounds: int = 0
    target: int = 0
    round_twenties: tuple[int, int] = (0, 0)
    history: tuple[LastRound, ...] = ()

    # A round game has no turn, checkout, legs or sets: saying so lets any frame be asked.
    turn: ClassVar[None] = None
    checkout: ClassVar[bool] = False
    legs: ClassVar[tuple[int, int]] = (0, 0)
    sets: ClassVar[tuple[int, int]] = (0, 0)

    @property
    def last(self) -> LastRound | None:
        """The latest decided round."""
        return self.history[-1] if self.history else None


@dataclass(frozen=True, kw_only=True)
class DartsView(ScoreView):
    """A frame of a crokidarts match. ``legs`` are the legs won in the set in play, ``set_no``
    and ``leg_no`` number the leg in play, ``legs_to_win`` and ``sets_to_win`` are the rule
    set's; ``turn`` is the turn in play, ``checkout`` marks the shot due as a checkout, and
    ``history`` holds the latest closed turns, latest last."""

    target: int = 0
    legs: tuple[int, int] = (0, 0)
    sets: tuple[int, int] = (0, 0)
    set_no: int = 0
    leg_no: int = 0
    legs_to_win: int = 0
    sets_to_win: int = 0
    turn: Turn | None = None
    checkout: bool = False
    history: tuple[LastTurn, ...] = ()

    @property
    def last(self) -> LastTurn | None:
        """The latest closed turn."""
        return self.history[-1] if self.history else None


View = RoundsView | DartsView
"""A frame's content: what :func:`build` makes and the drawing tells apart with one ``match``."""


def build(match: Match, status: Status | None = None) -> View:
    """The frame's content for ``match`` as the daemon sees it now."""
    status = status or Status()
    s = match.summary()
    rules = match.rules
    seat = s.seat
    common: dict[str, Any] = {
        "game": rules.game, "rules": rules.name,
        "sides": match.team_names(), "players": match.players,
        "score": s.score, "discs": rules.discs, "awaiting": s.awaiting, "seat": seat,
        "side_up": None if seat is None else rules.team_of(seat),
        "shooter": None if seat is None else match.players[seat],
        "finished": s.finished, "winner": s.winner,
        "check": s.awaiting == "confirm",
        "twenty": status.twenty, "errors": status.errors, "message": status.message,
    }
    match s:
        case RoundsSummary():
            return _rounds(s, common)
        case DartsSummary():
            return _darts(s, common, rules.legs, rules.sets, rules.target, rules.discs)
        case other:
            assert_never(other)


def _rounds(s: RoundsSummary, common: dict[str, Any]) -> RoundsView:
    done = []
    for r in itertools.islice(s.decided_rounds(), KEEP):
        assert r.points is not None
        done.append(LastRound(r.number, r.totals, r.points))
    done.reverse()
    current = s.rounds[-1] if s.rounds and not s.rounds[-1].decided else None
    match s.goal:
        case FixedRounds(rounds=n):
            rounds, target = n, 0
        case FirstTo(target=n):
            rounds, target = 0, n
        case other:
            assert_never(other)
    check_totals = s.rounds[-1].totals if s.awaiting == "confirm" and s.rounds else None
    return RoundsView(
        **common, discs_left=s.discs_left, round=s.round, rounds=rounds, target=target,
        round_twenties=current.twenties if current else (0, 0), history=tuple(done),
        check_totals=check_totals)


def _darts(s: DartsSummary, common: dict[str, Any], legs: int, sets: int, target: int,
           discs: int) -> DartsView:
    t = s.turn
    turn = None if t is None else Turn(t.seat, t.start, t.twenties, t.board, t.value,
                                       t.discs_left)
    done = [LastTurn(r.seat, r.status, r.start, r.end) for r in s.turns[-KEEP - 1:] if r.closed]
    check_totals = None
    if s.awaiting == "confirm" and turn is not None:
        value = [0, 0]
        value[turn.seat] = turn.value
        check_totals = (value[0], value[1])
    return DartsView(
        **common, target=target, legs=s.legs, sets=s.sets, set_no=s.set_no, leg_no=s.leg_no,
        legs_to_win=legs, sets_to_win=sets, turn=turn, checkout=s.checkout,
        history=tuple(done[-KEEP:]), discs_left=_darts_discs(s, turn, target, discs),
        check_totals=check_totals)


def _darts_discs(s: DartsSummary, turn: Turn | None, target: int, discs: int
                 ) -> tuple[int, int]:
    left = [0, 0]
    if turn is not None:
        left[turn.seat] = turn.discs_left
    elif s.awaiting == "shot" and s.seat is not None:
        # between turns: a whole turn, or the single checkout shot of a player on the target
        left[s.seat] = 1 if s.score[s.seat] == target else discs
    return (left[0], left[1])
