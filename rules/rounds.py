"""Round-based games: tournament (round points) and casual (race to a target by difference).

Both play the same way: seats shoot in turn clockwise until every disc of the round is played, the
settled board is read, and the round's totals are turned into points. They differ only in how
totals become points and when the game ends, which is all :func:`_points` and
:meth:`RoundGame.end_round` decide.

The state keeps what happened (each round's shots and reading), and everything else is derived
from it, so a foul or a correction only edits a record and the scores follow.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from rules.errors import EventError, IllegalEvent, MatchOver, NotAwaited, OutOfTurn
from rules.events import BoardReading, Correction, Shot, Starter, Twenty
from rules.game import Game
from rules.reading import Expect, Reading
from rules.rulesets import RuleSet


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class Round:
    number: int
    starter: int
    shots: tuple[ShotRecord, ...] = ()
    reading: Reading | None = None

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
        board = self.reading.values() if self.reading else (0, 0)
        return (20 * tw[0] + board[0], 20 * tw[1] + board[1])


def _points(rules: RuleSet, totals: tuple[int, int]) -> tuple[int, int]:
    a, b = totals
    if rules.game == "casual":
        return (a - b, 0) if a > b else (0, b - a)
    win, tie, loss = rules.round_points
    if a == b:
        return (tie, tie)
    return (win, loss) if a > b else (loss, win)


@dataclass(frozen=True)
class RoundGame(Game):
    rules: RuleSet
    players: tuple[str, ...]
    rounds: tuple[Round, ...] = ()
    next_starter: int | None = None

    # --- derived -------------------------------------------------------------------------------

    def scored(self) -> tuple[Round, ...]:
        return tuple(r for r in self.rounds if r.reading is not None)

    def decided(self) -> int:
        return len(self.scored())

    def points(self) -> list[tuple[int, int]]:
        return [_points(self.rules, r.totals(self.rules)) for r in self.scored()]

    def end_round(self) -> int | None:
        """The number of the round that decided the game, if one has."""
        rules = self.rules
        score = [0, 0]
        for rnd, pts in zip(self.scored(), self.points(), strict=True):
            score[0] += pts[0]
            score[1] += pts[1]
            if rules.game == "casual":
                if max(score) >= rules.target:
                    return rnd.number
            elif rnd.number >= rules.rounds and (
                    rules.tiebreak == "none" or score[0] != score[1]):
                return rnd.number
        return None

    def score(self) -> tuple[int, int]:
        pts = self.points()
        return (sum(p[0] for p in pts), sum(p[1] for p in pts))

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
        if last.reading is None:
            n = len(last.shots)
            if n < self.round_size():
                return Expect("shot", (last.starter + n) % rules.seats)
            return Expect("board")
        if last.reading.needs_check:
            return Expect("confirm")
        if self.end_round() is not None:
            return Expect(None)
        starter = self.next_starter
        return Expect("shot", starter if starter is not None else (last.starter + 1) % rules.seats)

    def discs_left(self) -> tuple[int, ...]:
        """Discs each seat has still to shoot in the round in play (all of them between rounds)."""
        full = [self.rules.discs] * self.rules.seats
        if self.rounds and self.rounds[-1].reading is None:
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
        if not rounds or rounds[-1].reading is not None:
            new = Round(len(rounds) + 1, ev.seat, (ShotRecord(ev.seat),))
            return replace(self, rounds=rounds + (new,), next_starter=None)
        last = rounds[-1]
        last = replace(last, shots=last.shots + (ShotRecord(ev.seat),))
        return replace(self, rounds=rounds[:-1] + (last,))

    def _current_round(self, doing: str) -> Round:
        if not self.rounds or self.rounds[-1].reading is not None:
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
        shots = rnd.shots[:-1] + (replace(shot, twenties=(tw[0], tw[1])),)
        return replace(self, rounds=self.rounds[:-1] + (replace(rnd, shots=shots),))

    def _foul(self) -> RoundGame:
        if not self.rounds:
            raise NotAwaited("cannot call a foul: no shot has been played")
        rnd = self.rounds[-1]
        shot = rnd.shots[-1]
        if shot.foul:
            raise IllegalEvent("the latest shot is already marked foul")
        shots = rnd.shots[:-1] + (replace(shot, foul=True),)
        return self._with_round(replace(rnd, shots=shots))

    def _check_board(self, rnd: Round, discs_by_team: tuple[int, int]) -> None:
        raw = rnd.twenties(self.rules, valid=False)
        for team in (0, 1):
            played = rnd.played(self.rules, team)
            if discs_by_team[team] + raw[team] > played:
                raise IllegalEvent(
                    f"the reading shows {discs_by_team[team]} disc(s) of side {team} on the board "
                    f"and it has {raw[team]} 20(s), but it shot only {played} in round "
                    f"{rnd.number}")

    def _board(self, ev: BoardReading) -> RoundGame:
        exp = self.expect()
        if exp.what != "board":
            if exp.what == "shot" and self.rounds and self.rounds[-1].reading is None:
                left = self.round_size() - len(self.rounds[-1].shots)
                raise NotAwaited(f"the board is read after the round's last disc; {left} disc(s) "
                                 "are still to be shot")
            raise NotAwaited("no board reading is due now")
        rnd = self.rounds[-1]
        reading = Reading(ev.discs)
        self._check_board(rnd, (reading.count(0), reading.count(1)))
        return replace(self, rounds=self.rounds[:-1] + (replace(rnd, reading=reading),))

    def _confirm(self) -> RoundGame:
        if self.expect().what != "confirm":
            raise NotAwaited("nothing to confirm: no reading is waiting for a check")
        rnd = self.rounds[-1]
        assert rnd.reading is not None
        return replace(self, rounds=self.rounds[:-1] + (
            replace(rnd, reading=replace(rnd.reading, confirmed=True)),))

    def _correct(self, ev: Correction) -> RoundGame:
        if ev.value is not None:
            raise EventError("correct: 'value' is for crokidarts; in a round game give 'totals' "
                             "or 'discs'")
        scored = self.scored()
        awaited = self.expect().what == "board"
        if not scored and not awaited:
            raise NotAwaited("nothing to correct: no round has been read yet")
        if ev.round is None:
            # while the board is awaited the operator's count stands in for the camera
            rnd = self.rounds[-1] if awaited else scored[-1]
        else:
            if ev.round > len(self.rounds) or self.rounds[ev.round - 1].reading is None:
                read = f"1 to {scored[-1].number}" if scored else "none"
                raise IllegalEvent(f"cannot correct round {ev.round}: it has not been read; "
                                   f"rounds read so far: {read}")
            rnd = self.rounds[ev.round - 1]
        if ev.discs is not None:
            reading = Reading(ev.discs, confirmed=True)
            self._check_board(rnd, (reading.count(0), reading.count(1)))
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
            reading = Reading(rnd.reading.discs if rnd.reading else (), board, confirmed=True)
        return self._with_round(replace(rnd, reading=reading))

    def _with_round(self, rnd: Round) -> RoundGame:
        """Replaces a round's record, refusing an edit that would have ended the game before
        rounds that were since played."""
        rounds = list(self.rounds)
        rounds[rnd.number - 1] = rnd
        new = replace(self, rounds=tuple(rounds))
        end = new.end_round()
        if end is not None and end < len(new.rounds):
            raise IllegalEvent(f"this change would have ended the match after round {end}, but "
                               f"round {end + 1} has been played since; undo back to it first")
        return new

    def _starter(self, ev: Starter) -> RoundGame:
        exp = self.expect()
        self._refuse_unless_shot_due(exp, "name the starter")
        if self.rounds and self.rounds[-1].reading is None:
            raise NotAwaited("the starter can only be named before a round's first shot")
        if ev.seat >= self.rules.seats:
            raise IllegalEvent(f"there is no seat {ev.seat}: seats are 0 to {self.rules.seats - 1}")
        return replace(self, next_starter=ev.seat)

    # --- report --------------------------------------------------------------------------------

    def summary(self) -> dict[str, Any]:
        rules = self.rules
        exp = self.expect()
        rounds = []
        for rnd in self.rounds:
            entry: dict[str, Any] = {
                "number": rnd.number, "starter": rnd.starter,
                "shots": len(rnd.shots), "twenties": list(rnd.twenties(rules)),
                "fouls": sum(1 for s in rnd.shots if s.foul),
            }
            if rnd.reading is not None:
                entry.update(
                    board=list(rnd.reading.values()), totals=list(rnd.totals(rules)),
                    points=list(_points(rules, rnd.totals(rules))),
                    uncertain=rnd.reading.uncertain, confirmed=rnd.reading.confirmed,
                    corrected=rnd.reading.corrected)
            else:
                entry.update(board=None, totals=list(rnd.totals(rules)), points=None)
            rounds.append(entry)
        between = not self.rounds or self.rounds[-1].reading is not None
        return {
            "finished": self.finished(),
            "winner": self.winner(),
            "score": list(self.score()),
            "round": len(self.rounds) + (1 if between and exp.what == "shot" else 0),
            "awaiting": exp.what,
            "seat": exp.seat,
            "discs_left": list(self.discs_left()),
            "rounds": rounds,
        }
