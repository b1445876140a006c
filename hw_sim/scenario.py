"""Whole matches played on the simulated board: the sensor timeline and the true score.

A scenario is deterministic by its seed. Simulated players shoot whenever the rules engine says a
shot of theirs is due (``Match.expect()``), the physics plays the shot out, the players tidy the
board as the rules say, and every true event (shot, 20, foul, board reading from the exact disc
positions) is folded into a :class:`rules.Match` as it happens, so the engine checks the truth as
it is made. The timeline beside it holds what the board's hardware would report, in simulated
seconds from the match's start.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from hw_sim.discs import BoardState
from hw_sim.errors import PlayerError, ScenarioError
from hw_sim.physics import BoardSim, Physics, SimDisc
from hw_sim.players import Player, Situation, choose, flick
from hw_sim.referee import carry_out, judge
from hw_sim.timeline import BoardDue, FoulCall, HoleDrop, Moment, Settled, Stamped, Touch
from rules.board import STANDARD, Board
from rules.crokidarts import DartsGame
from rules.events import Event, Foul, NewMatch, Shot, Twenty
from rules.match import Match
from rules.rounds import RoundGame
from rules.rulesets import RuleSet, ruleset

log = logging.getLogger(__name__)

NAMES = ("Ann", "Bob", "Cat", "Dan")
MAX_SHOTS = 20_000


@dataclass(frozen=True)
class Pace:
    """How long players take between things, in simulated seconds (ranges drawn uniformly)."""

    think: tuple[float, float] = (2.0, 6.0)       # from the board settling to the hand on the line
    hold: tuple[float, float] = (0.4, 1.5)        # hand and disc on the line before the flick
    tidy: float = 1.5                             # moving discs to the ditch after a shot
    read: float = 0.5                             # from settled (and tidied) to the camera frame
    clear: float = 20.0                           # clearing the board between rounds or turns


@dataclass(frozen=True)
class Scenario:
    """One simulated match: its timeline, the true events and the match they fold into."""

    rules: RuleSet
    seed: int
    players: tuple[Player, ...]
    timeline: tuple[Moment, ...]
    truth: tuple[Stamped, ...]
    match: Match

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(s.event for s in self.truth)

    def boards(self) -> tuple[BoardDue, ...]:
        """The readings that scored a round (crokidarts: a turn)."""
        return tuple(m for m in self.timeline if isinstance(m, BoardDue) and m.scores)


class Runner:
    """Plays one match, yielding timeline moments and stamped true events as they happen.

    :attr:`match` is the match folded so far; after :meth:`run` is exhausted it is finished.
    """

    def __init__(self, rules: str, seed: int, *, options: dict[str, Any] | None = None,
                 skills: Sequence[float] | None = None, board: Board = STANDARD,
                 physics: Physics | None = None, pace: Pace | None = None,
                 names: Sequence[str] | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        rs = ruleset(rules, options)
        names = tuple(names) if names else NAMES[:rs.seats]
        start = NewMatch(rules, names, tuple(sorted((options or {}).items())))
        if skills is None:
            skills = [round(self.rng.uniform(0.4, 0.95), 2) for _ in range(rs.seats)]
        if len(skills) != rs.seats:
            raise PlayerError(f"{rules} has {rs.seats} seats: give one skill per seat, got "
                              f"{len(skills)}")
        self.players = tuple(Player(n, s) for n, s in zip(names, skills, strict=True))
        self.start = start
        self.match = Match.start(start)
        self.rules = self.match.rules
        self.board = board
        self.sim = BoardSim(board, physics)
        self.pace = pace or Pace()
        self.t = 0.0

    def _emit(self, ev: Event, t: float) -> Stamped:
        self.match = self.match.apply(ev)
        return Stamped(t, ev)

    def _uniform(self, span: tuple[float, float]) -> float:
        return self.rng.uniform(*span)

    def run(self) -> Iterator[Moment | Stamped]:
        yield Stamped(0.0, self.start)
        shots = 0
        while not self.match.finished:
            exp = self.match.expect()
            if exp.what != "shot":
                raise ScenarioError(f"the simulated players cannot answer {exp.what!r}")
            assert exp.seat is not None
            if self._new_round():
                if shots:
                    self.t += self.pace.clear
                self.sim.clear()
            yield from self._shot(exp.seat, exp.checkout)
            shots += 1
            if shots > MAX_SHOTS:
                raise ScenarioError(f"{self.rules.name} match (seed {self.seed}) did not end "
                                   f"within {MAX_SHOTS} shots")

    def _new_round(self) -> bool:
        game = self.match.game
        if isinstance(game, RoundGame):
            return not game.rounds or game.rounds[-1].count is not None
        assert isinstance(game, DartsGame)
        if not game.legs or game.legs[-1].winner(self.rules) is not None:
            return True
        return game.legs[-1].turns[-1].state(self.rules).closed

    def _need(self, seat: int) -> int | None:
        game = self.match.game
        if not isinstance(game, DartsGame):
            return None
        target = self.rules.target
        if self._new_round():
            leg = game.legs[-1] if game.legs and game.legs[-1].winner(self.rules) is None else None
            return target - (leg.scores(self.rules)[seat] if leg else 0)
        turn = game.legs[-1].turns[-1]
        return target - turn.start - 20 * turn.state(self.rules).twenties

    def _reuse_for_checkout(self) -> None:
        """A checkout with all the turn's discs still in sight reuses one of them (the rules'
        own provision): one from the ditch if any, else the outermost one on the board."""
        game = self.match.game
        if not isinstance(game, DartsGame) or self._new_round():
            return
        seen = self.sim.discs("surface", "ditch")
        if len(seen) < self.rules.discs:
            return
        ditch = [d for d in seen if d.where == "ditch"]
        pick = ditch[0] if ditch else max(seen, key=lambda d: d.r)
        self.sim.set_aside(pick.id)

    def _shot(self, seat: int, checkout: bool) -> Iterator[Moment | Stamped]:
        rules, sim, pace = self.rules, self.sim, self.pace
        if checkout:
            self._reuse_for_checkout()
        team = rules.team_of(seat)
        quadrant = rules.quadrant_of(seat)
        before: tuple[SimDisc, ...] = sim.discs("surface")
        situation = Situation(self.board, sim.physics, rules, seat, team, quadrant, before,
                              checkout, self._need(seat))
        player = self.players[seat]
        plan = choose(situation, player, self.rng)
        shot = flick(plan, player, self.rng)
        self.t += self._uniform(pace.think)
        yield Touch(self.t, quadrant, True)
        self.t += self._uniform(pace.hold)
        yield Touch(self.t, quadrant, False)
        t0 = self.t
        yield self._emit(Shot(seat), t0)
        outcome = sim.shoot(team, shot.x, shot.y, shot.vx, shot.vy)
        darts = rules.game == "crokidarts"
        for drop in outcome.drops:
            yield HoleDrop(t0 + drop.t, drop.team)
            credit = None if darts or drop.team == team else drop.team
            yield self._emit(Twenty(credit), t0 + drop.t)
        self.t = t0 + outcome.duration
        ruling = judge(sim, rules, outcome, before, checkout=checkout)
        log.debug("%s %s: %s, %.2f s, %d drop(s), struck %s%s", player.name, plan.kind,
                  shot, outcome.duration, len(outcome.drops), outcome.struck,
                  f", foul: {ruling.reason}" if ruling.foul else "")
        if ruling.foul:
            self.t += pace.tidy
            yield FoulCall(self.t, ruling.reason)
            yield self._emit(Foul(), self.t)
        if ruling.to_ditch or ruling.void:
            if not ruling.foul:
                self.t += pace.tidy
            carry_out(sim, ruling)
        state = sim.state()
        yield Settled(self.t, state)
        if self.match.expect().what == "board":
            self.t += pace.read
            ev = state.reading(self.board)
            stamped = self._emit(ev, self.t)
            yield BoardDue(self.t, state, self._new_round())
            yield stamped


def play(rules: str = "tournament-singles", seed: int = 1, *,
         options: dict[str, Any] | None = None, skills: Sequence[float] | None = None,
         board: Board = STANDARD, physics: Physics | None = None, pace: Pace | None = None,
         names: Sequence[str] | None = None) -> Scenario:
    """Plays a whole match of ``rules`` (a preset name) deterministically from ``seed``."""
    runner = Runner(rules, seed, options=options, skills=skills, board=board, physics=physics,
                    pace=pace, names=names)
    timeline: list[Moment] = []
    truth: list[Stamped] = []
    for item in runner.run():
        (truth if isinstance(item, Stamped) else timeline).append(item)
    return Scenario(runner.rules, seed, runner.players, tuple(timeline), tuple(truth),
                    runner.match)


@dataclass(frozen=True)
class RoundBoard:
    """An end-of-round board from simulated play, and the match it came from."""

    state: BoardState
    rules: str
    seed: int
    skills: tuple[float, ...]
    index: int          # which scoring reading of that match (1 = the first round or turn)


VARIETY = ("tournament-singles", "casual-100", "tournament-doubles", "casual-100-doubles",
           "crokidarts")


def end_of_round_boards(n: int, seed: int = 1, *, board: Board = STANDARD,
                        physics: Physics | None = None, per_match: int = 2) -> list[RoundBoard]:
    """``n`` end-of-round boards from simulated matches of varied rule sets, skills and seeds.

    At most ``per_match`` boards come from one match, so the boards differ in rule set and
    players; crokidarts turns that leave the board empty are skipped (nothing to see).
    """
    rng = random.Random(seed)
    out: list[RoundBoard] = []
    k = 0
    while len(out) < n:
        rules = VARIETY[k % len(VARIETY)]
        k += 1
        match_seed = rng.randrange(2 ** 31)
        seats = 4 if "doubles" in rules else 2
        skills = tuple(round(rng.uniform(0.2, 1.0), 2) for _ in range(seats))
        options = {"legs": 1, "sets": 1} if rules == "crokidarts" else None
        runner = Runner(rules, match_seed, options=options, skills=skills, board=board,
                        physics=physics)
        taken = index = 0
        for item in runner.run():
            if not isinstance(item, BoardDue) or not item.scores:
                continue
            index += 1
            if not any(d.zone(board) for d in item.state.discs) and rules == "crokidarts":
                continue
            out.append(RoundBoard(item.state, rules, match_seed, skills, index))
            taken += 1
            if taken >= per_match or len(out) >= n:
                break
    return out
