"""Crokidarts: crokinole scored like darts.

Each player in turn shoots up to five discs (``rules.discs``) on an empty board. A turn is worth
its 20s plus the discs it leaves on the board, added to the player's leg score, which must land on
exactly the target (400):

* 20s cannot be taken back, so a 20 that carries the player past the target busts the turn at once;
* discs on the board can still be knocked off, so being past the target with discs in hand is not
  yet a bust, but still being past it after the last disc is;
* a bust leaves the score where the turn started;
* landing exactly on the target stops the turn and earns an immediate checkout shot: a disc in the
  20 hole wins the leg. A missed checkout passes the turn, and each later turn of that player is a
  single checkout attempt on an empty board.

The board is read after every shot (that is how an exact landing on the target is noticed), and
legs and sets are counted like darts, the starting player alternating by leg and by set.

Only the latest shot of the latest turn of the latest leg ever changes, so each turn carries the
leg scores before it and each leg the tally before it: a state answers what it expects, its scores
and its tally without walking the match, and shares every earlier leg and turn with its parent
(:mod:`rules.chain`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal

from rules.chain import EMPTY, Chain
from rules.count import BoardCount, Expect
from rules.errors import EventError, IllegalEvent, MatchOver, NotAwaited, OutOfTurn
from rules.events import BoardReading, Correction, Shot, Starter, Twenty
from rules.game import Game
from rules.rulesets import RuleSet
from rules.summary import DartsSummary, Entries, OpenTurn, TurnSummary

Status = Literal["shoot", "board", "checkout", "checkout-board", "won", "bust", "scored", "missed"]
OPEN: frozenset[str] = frozenset({"shoot", "board", "checkout", "checkout-board"})


@dataclass(frozen=True, slots=True)
class DartShot:
    twenties: int = 0
    foul: bool = False
    count: BoardCount | None = None

    @property
    def valid_twenties(self) -> int:
        return 0 if self.foul else self.twenties


@dataclass(frozen=True, slots=True)
class TurnState:
    """Where a turn stands: ``status`` and the score it leaves (``end``) if it closed now."""

    status: Status
    end: int
    twenties: int = 0
    board: int = 0

    @property
    def closed(self) -> bool:
        return self.status not in OPEN

    @property
    def value(self) -> int:
        return 20 * self.twenties + self.board


@dataclass(frozen=True, slots=True)
class Turn:
    """A player's turn. ``before`` (the leg scores before it) and ``closed_before`` (the closed
    turns of the match before it) are carried from the earlier turns; equality ignores them."""

    seat: int
    start: int
    shots: tuple[DartShot, ...] = ()
    before: tuple[int, int] = field(default=(0, 0), compare=False)
    closed_before: int = field(default=0, compare=False)
    memo: TurnState | None = field(default=None, compare=False, repr=False, init=False)

    def state(self, rules: RuleSet) -> TurnState:
        """Replays the turn's shots against the crokidarts rules.

        Remembered on the turn: a turn is immutable and belongs to one match, so its state never
        changes, and it is asked for many times (after every event, and by every summary).
        """
        known = self.memo
        if known is None:
            known = self._replay(rules)
            object.__setattr__(self, "memo", known)
        return known

    def with_shots(self, shots: tuple[DartShot, ...]) -> Turn:
        return Turn(self.seat, self.start, shots, self.before, self.closed_before)

    def scores(self, rules: RuleSet) -> tuple[int, int]:
        """The leg scores after this turn (its seat's start while it is open)."""
        st = self.state(rules)
        score = list(self.before)
        score[self.seat] = st.end if st.closed else self.start
        return (score[0], score[1])

    def closed_after(self, rules: RuleSet) -> int:
        """The closed turns of the match up to and with this one."""
        return self.closed_before + self.state(rules).closed

    def _replay(self, rules: RuleSet) -> TurnState:
        target, s = rules.target, self.start
        reached = s == target
        t20 = board = 0
        for i, shot in enumerate(self.shots):
            if reached:  # this is the checkout shot
                if shot.valid_twenties > 0:
                    return TurnState("won", target, t20, board)
                if shot.count is None:
                    return TurnState("checkout-board", target, t20, board)
                return TurnState("missed", target, t20, board)
            t20 += shot.valid_twenties
            if s + 20 * t20 > target:
                return TurnState("bust", s, t20, board)
            if shot.count is None:
                return TurnState("board", s + 20 * t20 + board, t20, board)
            board = shot.count.values()[0] + shot.count.values()[1]
            total = s + 20 * t20 + board
            if total == target:
                reached = True
            elif i == rules.discs - 1:
                return (TurnState("bust", s, t20, board) if total > target
                        else TurnState("scored", total, t20, board))
        if reached:
            return TurnState("checkout", target, t20, board)
        return TurnState("shoot", s + 20 * t20 + board, t20, board)

    def latest_count(self) -> BoardCount | None:
        return self.shots[-1].count if self.shots else None


@dataclass(frozen=True, slots=True)
class Tally:
    legs: tuple[int, int]   # legs won in the set in play
    sets: tuple[int, int]
    winner: int | None      # of the match

    def after(self, rules: RuleSet, won_by: int | None) -> Tally:
        """The tally once a leg won by ``won_by`` (None: not won) is counted."""
        if self.winner is not None or won_by is None:
            return self
        legs, sets = list(self.legs), list(self.sets)
        legs[won_by] += 1
        if legs[won_by] == rules.legs:
            sets[won_by] += 1
            if sets[won_by] == rules.sets:
                return Tally((legs[0], legs[1]), (sets[0], sets[1]), won_by)
            legs = [0, 0]
        return Tally((legs[0], legs[1]), (sets[0], sets[1]), None)


NO_TALLY = Tally((0, 0), (0, 0), None)


@dataclass(frozen=True, slots=True)
class Leg:
    """A leg. ``tally`` (the match's tally before it), ``set_starter`` (who started its set's
    first leg) and ``turns_before`` (the match's turns before it) are carried; equality ignores
    them."""

    set_no: int
    leg_no: int
    starter: int
    turns: Chain[Turn] = EMPTY
    tally: Tally = field(default=NO_TALLY, compare=False)
    set_starter: int = field(default=0, compare=False)
    turns_before: int = field(default=0, compare=False)

    def winner(self, rules: RuleSet) -> int | None:
        if self.turns and self.turns.last.state(rules).status == "won":
            return self.turns.last.seat
        return None

    def scores(self, rules: RuleSet) -> tuple[int, int]:
        """Each player's leg score as it stands after their latest closed turn."""
        return self.turns.last.scores(rules) if self.turns else (0, 0)


@dataclass(frozen=True, slots=True)
class DartsGame(Game):
    rules: RuleSet
    players: tuple[str, ...]
    legs: Chain[Leg] = EMPTY
    next_starter: int | None = None

    # --- derived -------------------------------------------------------------------------------

    def tally(self) -> Tally:
        if not self.legs:
            return NO_TALLY
        last = self.legs.last
        return last.tally.after(self.rules, last.winner(self.rules))

    def turns(self) -> int:
        """How many turns the match has begun."""
        return self.legs.last.turns_before + len(self.legs.last.turns) if self.legs else 0

    def _next_leg(self) -> tuple[int, int, int]:
        """Set number, leg number and starter of the leg to be started next."""
        if not self.legs:
            return 1, 1, self.next_starter if self.next_starter is not None else 0
        last = self.legs[-1]
        if self.tally().legs == (0, 0):  # the last leg closed its set
            set_no, leg_no, starter = last.set_no + 1, 1, 1 - last.set_starter
        else:
            set_no, leg_no, starter = last.set_no, last.leg_no + 1, 1 - last.starter
        if self.next_starter is not None:
            starter = self.next_starter
        return set_no, leg_no, starter

    def expect(self) -> Expect:
        if not self.legs:
            return Expect("shot", self._next_leg()[2])
        leg = self.legs[-1]
        turn = leg.turns[-1]
        board_count = turn.latest_count()
        if board_count is not None and board_count.needs_check:
            return Expect("confirm", check=board_count.check)
        st = turn.state(self.rules)
        if st.status == "shoot":
            return Expect("shot", turn.seat)
        if st.status == "checkout":
            return Expect("shot", turn.seat, checkout=True)
        if st.status in ("board", "checkout-board"):
            return Expect("board", turn.seat, checkout=st.status == "checkout-board")
        if st.status == "won":
            if self.tally().winner is not None:
                return Expect(None)
            return Expect("shot", self._next_leg()[2])
        other = 1 - turn.seat
        return Expect("shot", other, checkout=leg.scores(self.rules)[other] == self.rules.target)

    def decided(self) -> int:
        return self.legs.last.turns.last.closed_after(self.rules) if self.legs else 0

    def finished(self) -> bool:
        return self.expect().what is None

    def winner(self) -> int | None:
        return self.tally().winner if self.finished() else None

    # --- events --------------------------------------------------------------------------------

    def _refuse_unless_shot_due(self, exp: Expect, doing: str) -> None:
        if exp.what == "board":
            raise NotAwaited(f"cannot {doing}: the board after the last shot is waiting to be read")
        if exp.what == "confirm":
            raise NotAwaited(f"cannot {doing}: the last reading has a disc too close to call; "
                             "confirm or correct it first")
        if exp.what is None:
            raise MatchOver(f"cannot {doing}: the match is over")

    def _shot(self, ev: Shot) -> DartsGame:
        exp = self.expect()
        self._refuse_unless_shot_due(exp, "shoot")
        assert exp.seat is not None
        if ev.seat != exp.seat:
            raise OutOfTurn(f"it is {self._name(exp.seat)}'s turn, not {self._name(ev.seat)}'s")
        rules = self.rules
        if not self.legs or self.legs[-1].winner(rules) is not None:
            set_no, leg_no, starter = self._next_leg()
            closed, begun = self.decided(), self.turns()
            first = Turn(ev.seat, 0, (DartShot(),), closed_before=closed)
            set_starter = starter if leg_no == 1 else self.legs.last.set_starter
            leg = Leg(set_no, leg_no, starter, EMPTY.push(first), self.tally(), set_starter,
                      begun)
            return replace(self, legs=self.legs.push(leg), next_starter=None)
        leg = self.legs[-1]
        turn = leg.turns[-1]
        if turn.state(rules).closed:
            scores = turn.scores(rules)
            turns = leg.turns.push(Turn(ev.seat, scores[ev.seat], (DartShot(),), scores,
                                        turn.closed_after(rules)))
        else:
            turns = leg.turns.with_last(turn.with_shots(turn.shots + (DartShot(),)))
        return self._with_turns(turns)

    def _with_turns(self, turns: Chain[Turn]) -> DartsGame:
        # constructors, not dataclasses.replace: this runs for nearly every event
        g = self.legs.last
        leg = Leg(g.set_no, g.leg_no, g.starter, turns, g.tally, g.set_starter, g.turns_before)
        return DartsGame(self.rules, self.players, self.legs.with_last(leg), self.next_starter)

    def _with_last_shot(self, shot: DartShot) -> DartsGame:
        turn = self.legs.last.turns.last
        turn = turn.with_shots(turn.shots[:-1] + (shot,))
        return self._with_turns(self.legs.last.turns.with_last(turn))

    def _last_turn(self, doing: str) -> Turn:
        if not self.legs:
            raise NotAwaited(f"cannot {doing}: no shot has been played")
        return self.legs[-1].turns[-1]

    def _twenty(self, ev: Twenty) -> DartsGame:
        turn = self._last_turn("count a 20")
        shot = turn.shots[-1]
        if shot.count is not None:
            raise NotAwaited("cannot count a 20: no shot is in play (the last one was read)")
        if ev.team is not None and ev.team != turn.seat:
            raise IllegalEvent(f"in crokidarts every disc is the shooter's: a 20 now belongs to "
                               f"seat {turn.seat}, not side {ev.team}")
        have = sum(s.twenties for s in turn.shots)
        if have + 1 > len(turn.shots):
            raise IllegalEvent(f"this turn has shot {len(turn.shots)} disc(s) and already has "
                               f"{have} 20(s): another 20 is impossible")
        return self._with_last_shot(replace(shot, twenties=shot.twenties + 1))

    def _foul(self) -> DartsGame:
        turn = self._last_turn("call a foul")
        shot = turn.shots[-1]
        if shot.foul:
            raise IllegalEvent("the latest shot is already marked foul")
        return self._with_last_shot(replace(shot, foul=True))

    def _overcount(self, turn: Turn, count: BoardCount, scoring: bool) -> str | None:
        """Why ``count`` cannot be the board after the turn's latest shot: more discs on it than
        the turn can have left (``scoring``: its scoring discs only)."""
        if turn.start == self.rules.target:  # a later checkout: one disc on an empty board
            room = 1
        elif turn.state(self.rules).status == "checkout-board":  # may reuse any disc
            room = self.rules.discs
        else:
            room = len(turn.shots) - sum(s.twenties for s in turn.shots)
        n = count.discs_of(scoring=scoring)
        if n > room:
            what = "reading shows" if scoring else "correction gives"
            return (f"the {what} {n} {'scoring ' if scoring else ''}disc(s) on the board, but "
                    f"the turn can have left at most {room}")
        return None

    def _board(self, ev: BoardReading) -> DartsGame:
        """A reading that cannot be is held for the operator's check, not thrown away (as in
        round games, :meth:`rules.rounds.RoundGame._board`)."""
        exp = self.expect()
        if exp.what != "board":
            raise NotAwaited("no board reading is due now: in crokidarts the board is read once "
                             "after each shot")
        turn = self.legs[-1].turns[-1]
        board_count = BoardCount(ev.discs, check=ev.check)
        board_count = board_count.held_for(self._overcount(turn, board_count, scoring=True))
        return self._with_last_shot(replace(turn.shots[-1], count=board_count))

    def _confirm(self) -> DartsGame:
        if self.expect().what != "confirm":
            raise NotAwaited("nothing to confirm: no reading is waiting for a check")
        shot = self.legs[-1].turns[-1].shots[-1]
        assert shot.count is not None
        return self._with_last_shot(replace(shot, count=replace(shot.count, confirmed=True)))

    def _correct(self, ev: Correction) -> DartsGame:
        if ev.totals is not None or ev.round is not None:
            raise EventError("correct: in crokidarts give 'value' (the turn so far, 20s "
                             "included) or 'discs'; 'totals' and 'round' are for round games")
        turn = self._last_turn("correct")
        shot = turn.shots[-1]
        if shot.count is None and self.expect().what != "board":
            raise NotAwaited("nothing to correct: the board after the latest shot is not read and "
                             "not awaited")
        if ev.discs is not None:
            board_count = BoardCount(ev.discs, confirmed=True)
            why = self._overcount(turn, board_count, scoring=False)
            if why is not None:
                raise IllegalEvent(why)
        else:
            assert ev.value is not None
            t20 = sum(s.valid_twenties for s in turn.shots)
            board = ev.value - 20 * t20
            if board < 0 or board % 5:
                raise IllegalEvent(f"a turn value of {ev.value} cannot be made with its {t20} "
                                   "20(s) and discs worth 5, 10 or 15; to take away a 20, call a "
                                   "foul or undo it")
            discs = shot.count.discs if shot.count else ()
            board_count = BoardCount(discs, (board, 0), confirmed=True)
        return self._with_last_shot(replace(shot, count=board_count))

    def _starter(self, ev: Starter) -> DartsGame:
        exp = self.expect()
        self._refuse_unless_shot_due(exp, "name the starter")
        if self.legs and self.legs[-1].winner(self.rules) is None:
            raise NotAwaited("the starter can only be named before a leg's first shot")
        if ev.seat >= self.rules.seats:
            raise IllegalEvent(f"there is no seat {ev.seat}: seats are 0 and 1")
        return replace(self, next_starter=ev.seat)

    # --- report --------------------------------------------------------------------------------

    def twenty_side(self, team: int | None) -> int:
        """The side a ``twenty`` naming ``team`` (None: nobody) credits now: the shooter's."""
        if team is not None:
            return team
        if not self.legs:
            raise NotAwaited("a 20 can only drop during a shot, and no shot is in play")
        return self.rules.team_of(self.legs.last.turns.last.seat)

    def correctable(self) -> tuple[int, int]:
        """The value a ``correct`` would replace: the latest turn's so far, as side 0's figure
        ((0, 0) before any)."""
        if not self.legs:
            return (0, 0)
        return (self.legs.last.turns.last.state(self.rules).value, 0)

    def _entry(self, leg: Leg, turn: Turn) -> TurnSummary:
        st = turn.state(self.rules)
        gained = [0, 0]
        gained[turn.seat] = st.end - turn.start if st.closed else 0
        return TurnSummary(leg.set_no, leg.leg_no, turn.seat, turn.start, st.end, st.status,
                           len(turn.shots), st.twenties, st.board, (gained[0], gained[1]))

    def summary(self, rules: str, options: tuple[tuple[str, Any], ...], players: tuple[str, ...],
                teams: tuple[str, str]) -> DartsSummary:
        exp = self.expect()
        tally = self.tally()
        legs = self.legs
        score, set_no, leg_no, open_turn = (0, 0), 0, 0, None
        if legs:
            leg = legs.last
            score, set_no, leg_no = leg.scores(self.rules), leg.set_no, leg.leg_no
            turn = leg.turns.last
            st = turn.state(self.rules)
            if not st.closed:
                left = self.rules.discs - len(turn.shots) if turn.start < self.rules.target else 0
                open_turn = OpenTurn(turn.seat, turn.start, st.twenties, st.board, st.value,
                                     st.status, max(left, 0))
        turns = Entries(self.turns(), lambda: (self._entry(leg, turn) for leg in reversed(legs)
                                               for turn in reversed(leg.turns)))
        return DartsSummary(
            rules=rules, options=options, players=players, teams=teams,
            finished=self.finished(), winner=self.winner(), score=score, awaiting=exp.what,
            seat=exp.seat, legs=tally.legs, sets=tally.sets, set_no=set_no, leg_no=leg_no,
            checkout=exp.checkout, turn=open_turn, turns=turns, check=exp.check)
