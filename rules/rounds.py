"""Round-based games: tournament (round points) and casual (race to a target by difference).

Both play the same way: seats shoot in turn clockwise until every disc of the round is played, the
settled board is read, and the round's totals are turned into points. They differ only in how
totals become points and when the game ends, which is all :func:`_points` and
:meth:`RoundGame.end_round` decide.

The state keeps what happened (each round's shots and reading), and everything else is derived
from it, so a foul or a correction only edits a record and the scores follow. Each round also
carries what the rounds before it add up to (points, and whether one of them decided the game), so
asking a state for its score or what it expects next does not walk the match, and a new state
shares every earlier round with its parent (:mod:`rules.chain`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from rules.chain import EMPTY, Chain
from rules.count import BoardCount, Expect
from rules.errors import EventError, IllegalEvent, MatchOver, NotAwaited, OutOfTurn
from rules.events import BoardReading, Correction, Shot, Starter, Twenty
from rules.game import Game
from rules.rulesets import RuleSet
from rules.summary import Entries, FirstTo, FixedRounds, Goal, RoundsSummary, RoundSummary


@dataclass(frozen=True, slots=True)
class ShotRecord:
    """One shot of a round and the 20s the hole sensor credited to each side during it."""

    seat: int
    twenties: tuple[int, int] = (0, 0)
    foul: bool = False

    def valid_twenties(self, shooter_team: int) -> tuple[int, int]:
        """A foul voids the shooter's side's 20s; an opponent's disc knocked in still counts."""
        if not self.foul:
            return self.twenties
        t = list(self.twenties)
        t[shooter_team] = 0
        return (t[0], t[1])


@dataclass(frozen=True, slots=True)
class Round:
    """One round's record. ``before`` (the points of the rounds before it) and ``ended`` (the
    round that decided the game before this one, if any) are carried from the earlier rounds and
    are not part of what the round is: equality ignores them."""

    number: int
    starter: int
    shots: Chain[ShotRecord] = EMPTY
    count: BoardCount | None = None
    before: tuple[int, int] = field(default=(0, 0), compare=False)
    ended: int | None = field(default=None, compare=False)

    def played(self, rules: RuleSet, team: int) -> int:
        return sum(1 for s in self.shots if rules.team_of(s.seat) == team)

    def twenties(self, rules: RuleSet, valid: bool = True) -> tuple[int, int]:
        t = [0, 0]
        for s in self.shots:
            got = s.valid_twenties(rules.team_of(s.seat)) if valid else s.twenties
            t[0] += got[0]
            t[1] += got[1]
        return (t[0], t[1])

    def totals(self, rules: RuleSet) -> tuple[int, int]:
        tw = self.twenties(rules)
        board = self.count.values() if self.count else (0, 0)
        return (20 * tw[0] + board[0], 20 * tw[1] + board[1])

    def points(self, rules: RuleSet) -> tuple[int, int] | None:
        """The round's points, once its board is read."""
        return None if self.count is None else _points(rules, self.totals(rules))

    def score(self, rules: RuleSet) -> tuple[int, int]:
        """The game's score after this round."""
        pts = self.points(rules)
        if pts is None:
            return self.before
        return (self.before[0] + pts[0], self.before[1] + pts[1])

    def end(self, rules: RuleSet) -> int | None:
        """The number of the round that decided the game, this one or an earlier one, if any."""
        if self.ended is not None or self.count is None:
            return self.ended
        score = self.score(rules)
        if rules.game == "casual":
            return self.number if max(score) >= rules.target else None
        if self.number >= rules.rounds and (rules.tiebreak == "none" or score[0] != score[1]):
            return self.number
        return None

    def with_shots(self, shots: Chain[ShotRecord]) -> Round:
        # the constructor, not dataclasses.replace: this runs for nearly every event
        return Round(self.number, self.starter, shots, self.count, self.before, self.ended)

    def with_count(self, count: BoardCount | None) -> Round:
        return Round(self.number, self.starter, self.shots, count, self.before, self.ended)

    def after(self, rules: RuleSet, number: int, starter: int) -> Round:
        """The round that follows this one (which must have been read)."""
        return Round(number, starter, before=self.score(rules), ended=self.end(rules))


def _goal(rules: RuleSet) -> Goal:
    return FirstTo(rules.target) if rules.game == "casual" else FixedRounds(rules.rounds)


def _points(rules: RuleSet, totals: tuple[int, int]) -> tuple[int, int]:
    a, b = totals
    if rules.game == "casual":
        return (a - b, 0) if a > b else (0, b - a)
    win, tie, loss = rules.round_points
    if a == b:
        return (tie, tie)
    return (win, loss) if a > b else (loss, win)


@dataclass(frozen=True, slots=True)
class RoundGame(Game):
    rules: RuleSet
    players: tuple[str, ...]
    rounds: Chain[Round] = EMPTY
    next_starter: int | None = None

    # --- derived -------------------------------------------------------------------------------

    def scored(self) -> tuple[Round, ...]:
        return tuple(r for r in self.rounds if r.count is not None)

    def last_scored(self) -> Round | None:
        """The latest round whose board has been read (only the latest round can be unread)."""
        rounds = self.rounds
        if not rounds:
            return None
        if rounds.last.count is not None:
            return rounds.last
        return rounds.rest.last if rounds.rest else None

    def decided(self) -> int:
        rounds = self.rounds
        if not rounds:
            return 0
        return len(rounds) - (rounds.last.count is None)

    def points(self) -> list[tuple[int, int]]:
        return [_points(self.rules, r.totals(self.rules)) for r in self.scored()]

    def end_round(self) -> int | None:
        """The number of the round that decided the game, if one has."""
        return self.rounds.last.end(self.rules) if self.rounds else None

    def score(self) -> tuple[int, int]:
        return self.rounds.last.score(self.rules) if self.rounds else (0, 0)

    def finished(self) -> bool:
        return self.end_round() is not None and self.expect().what is None

    def winner(self) -> int | None:
        if not self.finished():
            return None
        a, b = self.score()
        return None if a == b else (0 if a > b else 1)

    def round_size(self) -> int:
        return self.rules.seats * self.rules.discs

    def expect(self) -> Expect:
        rules = self.rules
        if not self.rounds:
            return Expect("shot", self.next_starter if self.next_starter is not None else 0)
        last = self.rounds[-1]
        if last.count is None:
            n = len(last.shots)
            if n < self.round_size():
                return Expect("shot", (last.starter + n) % rules.seats)
            return Expect("board")
        if last.count.needs_check:
            return Expect("confirm", check=last.count.check)
        if self.end_round() is not None:
            return Expect(None)
        starter = self.next_starter
        return Expect("shot", starter if starter is not None else (last.starter + 1) % rules.seats)

    def discs_left(self) -> tuple[int, ...]:
        """Discs each seat has still to shoot in the round in play (all of them between rounds)."""
        full = [self.rules.discs] * self.rules.seats
        if self.rounds and self.rounds[-1].count is None:
            for s in self.rounds[-1].shots:
                full[s.seat] -= 1
        return tuple(full)

    # --- events --------------------------------------------------------------------------------

    def _refuse_unless_shot_due(self, exp: Expect, doing: str) -> None:
        if exp.what == "board":
            raise NotAwaited(f"cannot {doing}: all discs of round {self.rounds[-1].number} are "
                             "played and the board is waiting to be read")
        if exp.what == "confirm":
            raise NotAwaited(f"cannot {doing}: round {self.rounds[-1].number} has a disc too close "
                             "to call; confirm or correct the reading first")
        if exp.what is None:
            raise MatchOver(f"cannot {doing}: the match is over")

    def _shot(self, ev: Shot) -> RoundGame:
        exp = self.expect()
        self._refuse_unless_shot_due(exp, "shoot")
        assert exp.seat is not None
        if ev.seat != exp.seat:
            raise OutOfTurn(f"it is {self._name(exp.seat)}'s shot, not {self._name(ev.seat)}'s")
        rounds = self.rounds
        if not rounds or rounds.last.count is not None:
            first = Round(1, ev.seat) if not rounds else rounds.last.after(
                self.rules, len(rounds) + 1, ev.seat)
            new = first.with_shots(EMPTY.push(ShotRecord(ev.seat)))
            return RoundGame(self.rules, self.players, rounds.push(new), None)
        last = rounds.last
        return self._with_last(last.with_shots(last.shots.push(ShotRecord(ev.seat))))

    def _with_last(self, rnd: Round) -> RoundGame:
        """The latest round's record replaced (no earlier round's sums change)."""
        return RoundGame(self.rules, self.players, self.rounds.with_last(rnd), self.next_starter)

    def _current_round(self, doing: str) -> Round:
        if not self.rounds or self.rounds[-1].count is not None:
            raise NotAwaited(f"cannot {doing}: no shot is in play")
        return self.rounds[-1]

    def _twenty(self, ev: Twenty) -> RoundGame:
        rnd = self._current_round("count a 20")
        rules = self.rules
        shot = rnd.shots[-1]
        team = ev.team if ev.team is not None else rules.team_of(shot.seat)
        have = rnd.twenties(rules, valid=False)[team]
        played = rnd.played(rules, team)
        if have + 1 > played:
            raise IllegalEvent(f"side {team} has shot {played} disc(s) this round and already has "
                               f"{have} 20(s): another 20 for it is impossible")
        tw = list(shot.twenties)
        tw[team] += 1
        shots = rnd.shots.with_last(ShotRecord(shot.seat, (tw[0], tw[1]), shot.foul))
        return self._with_last(rnd.with_shots(shots))

    def _foul(self) -> RoundGame:
        if not self.rounds:
            raise NotAwaited("cannot call a foul: no shot has been played")
        rnd = self.rounds[-1]
        shot = rnd.shots[-1]
        if shot.foul:
            raise IllegalEvent("the latest shot is already marked foul")
        return self._with_round(rnd.with_shots(rnd.shots.with_last(replace(shot, foul=True))))

    def _overcount(self, rnd: Round, count: BoardCount, scoring: bool) -> str | None:
        """Why ``count`` cannot be the round's board: a side with more discs on it, with its 20s,
        than it shot (``scoring``: its scoring discs only)."""
        raw = rnd.twenties(self.rules, valid=False)
        for team in (0, 1):
            played = rnd.played(self.rules, team)
            n = count.discs_of(team, scoring)
            if n + raw[team] > played:
                what = "reading shows" if scoring else "correction gives"
                return (f"the {what} {n} {'scoring ' if scoring else ''}disc(s) of side "
                        f"{team} on the board and it has {raw[team]} 20(s), but it shot only "
                        f"{played} in round {rnd.number}")
        return None

    def _board(self, ev: BoardReading) -> RoundGame:
        """The camera's reading is what it saw, so one that cannot be (a third set's disc or a
        patch of the board read as a side's, a disc read on the wrong side) is kept and held for
        the operator's check, not thrown away: the players then count from it, its picture at
        hand. Discs scoring nothing are not counted: they change no total, and the ditch, where
        a third set lies and discs pile up, is the camera's least sure count."""
        exp = self.expect()
        if exp.what != "board":
            if exp.what == "shot" and self.rounds and self.rounds[-1].count is None:
                left = self.round_size() - len(self.rounds[-1].shots)
                raise NotAwaited(f"the board is read after the round's last disc; {left} disc(s) "
                                 "are still to be shot")
            raise NotAwaited("no board reading is due now")
        rnd = self.rounds[-1]
        board_count = BoardCount(ev.discs, check=ev.check)
        board_count = board_count.held_for(self._overcount(rnd, board_count, scoring=True))
        return self._with_last(rnd.with_count(board_count))

    def _confirm(self) -> RoundGame:
        if self.expect().what != "confirm":
            raise NotAwaited("nothing to confirm: no reading is waiting for a check")
        rnd = self.rounds[-1]
        assert rnd.count is not None
        return self._with_last(rnd.with_count(replace(rnd.count, confirmed=True)))

    def _correct(self, ev: Correction) -> RoundGame:
        if ev.value is not None:
            raise EventError("correct: 'value' is for crokidarts; in a round game give 'totals' "
                             "or 'discs'")
        scored = self.last_scored()
        awaited = self.expect().what == "board"
        if scored is None and not awaited:
            raise NotAwaited("nothing to correct: no round has been read yet")
        if ev.round is None:
            # while the board is awaited the operator's count stands in for the camera
            rnd = self.rounds.last if awaited or scored is None else scored
        else:
            if ev.round > len(self.rounds) or self.rounds[ev.round - 1].count is None:
                read = f"1 to {scored.number}" if scored is not None else "none"
                raise IllegalEvent(f"cannot correct round {ev.round}: it has not been read; "
                                   f"rounds read so far: {read}")
            rnd = self.rounds[ev.round - 1]
        if ev.discs is not None:
            board_count = BoardCount(ev.discs, confirmed=True)
            why = self._overcount(rnd, board_count, scoring=False)
            if why is not None:
                raise IllegalEvent(why)
        else:
            assert ev.totals is not None
            tw = rnd.twenties(self.rules)
            board = (ev.totals[0] - 20 * tw[0], ev.totals[1] - 20 * tw[1])
            for team in (0, 1):
                if board[team] < 0 or board[team] % 5:
                    raise IllegalEvent(
                        f"round {rnd.number}: side {team}'s total {ev.totals[team]} cannot be "
                        f"made with its {tw[team]} 20(s) and discs worth 5, 10 or 15; to take "
                        "away a 20, call a foul or undo it")
            board_count = BoardCount(rnd.count.discs if rnd.count else (), board, confirmed=True)
        return self._with_round(rnd.with_count(board_count))

    def _with_round(self, rnd: Round) -> RoundGame:
        """Replaces a round's record, refusing an edit that would have ended the game before
        rounds that were since played."""
        rules, later, rounds = self.rules, [], self.rounds
        while len(rounds) > rnd.number:  # an earlier round: the later ones carry new sums
            later.append(rounds.last)
            rounds = rounds.rest
        rounds = rounds.with_last(rnd)
        for r in reversed(later):
            prev = rounds.last
            rounds = rounds.push(replace(r, before=prev.score(rules), ended=prev.end(rules)))
        new = RoundGame(rules, self.players, rounds, self.next_starter)
        end = new.end_round()
        if end is not None and end < len(new.rounds):
            raise IllegalEvent(f"this change would have ended the match after round {end}, but "
                               f"round {end + 1} has been played since; undo back to it first")
        return new

    def _starter(self, ev: Starter) -> RoundGame:
        exp = self.expect()
        self._refuse_unless_shot_due(exp, "name the starter")
        if self.rounds and self.rounds[-1].count is None:
            raise NotAwaited("the starter can only be named before a round's first shot")
        if ev.seat >= self.rules.seats:
            raise IllegalEvent(f"there is no seat {ev.seat}: seats are 0 to {self.rules.seats - 1}")
        return replace(self, next_starter=ev.seat)

    # --- report --------------------------------------------------------------------------------

    def twenty_side(self, team: int | None) -> int:
        """The side a ``twenty`` naming ``team`` (None: nobody) credits now."""
        if team is not None:
            return team
        if not self.rounds or self.rounds.last.count is not None:
            raise NotAwaited("a 20 can only drop during a shot, and no shot is in play")
        return self.rules.team_of(self.rounds.last.shots.last.seat)

    def twenty_added(self, before: RoundGame) -> int | None:
        """The side that has one 20 more than in ``before`` during the same shot, if one has."""
        now, then = self.rounds, before.rounds
        if not now or len(now) != len(then) or len(now.last.shots) != len(then.last.shots):
            return None
        a = now.last.twenties(self.rules, valid=False)
        b = then.last.twenties(self.rules, valid=False)
        return {(1, 0): 0, (0, 1): 1}.get((a[0] - b[0], a[1] - b[1]))

    def correctable(self) -> tuple[int, int]:
        """The totals a ``correct`` without a round would replace: those of the round awaiting
        its board, else of the latest round read ((0, 0) before any)."""
        rnd = self.rounds.last if self.expect().what == "board" else self.last_scored()
        return (0, 0) if rnd is None else rnd.totals(self.rules)

    def _entry(self, rnd: Round) -> RoundSummary:
        rules, count = self.rules, rnd.count
        totals = rnd.totals(rules)
        fouls = sum(1 for s in rnd.shots if s.foul)
        if count is None:
            return RoundSummary(rnd.number, rnd.starter, len(rnd.shots), rnd.twenties(rules),
                                fouls, None, totals, None)
        return RoundSummary(rnd.number, rnd.starter, len(rnd.shots), rnd.twenties(rules), fouls,
                            count.values(), totals, _points(rules, totals), count.uncertain,
                            count.confirmed, count.corrected)

    def summary(self, rules: str, options: tuple[tuple[str, Any], ...], players: tuple[str, ...],
                teams: tuple[str, str]) -> RoundsSummary:
        exp = self.expect()
        between = not self.rounds or self.rounds[-1].count is not None
        rounds = self.rounds
        return RoundsSummary(
            rules=rules, options=options, players=players, teams=teams,
            finished=self.finished(), winner=self.winner(), score=self.score(),
            awaiting=exp.what, seat=exp.seat,
            round=len(rounds) + (1 if between and exp.what == "shot" else 0),
            discs_left=self.discs_left(),
            rounds=Entries(len(rounds), lambda: (self._entry(r) for r in reversed(rounds))),
            goal=_goal(self.rules), check=exp.check)
