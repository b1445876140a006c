"""A match: the pure fold of its events.

``Match.start(new_match_event)`` then ``match.apply(event)`` for each later event gives a new
``Match``; nothing is ever changed in place. Each state keeps the one before it, so ``undo`` hands
back exactly the previous state (and undo after undo keeps going back). That costs little: a state
shares all but its latest round (crokidarts: leg) with the one before it, so a match holds a few
small objects per event, however long it runs. Equality compares the game only, not the path that
led to it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import assert_never

from rules.count import Expect
from rules.crokidarts import DartsGame
from rules.errors import IllegalEvent, NothingToUndo, RuleSetError
from rules.events import Event, NewMatch, Shot, Starter, Twenty, Undo
from rules.rounds import RoundGame
from rules.rulesets import RuleSet, ruleset
from rules.summary import DartsSummary, RoundsSummary, RoundSummary, Summary, TurnSummary

Game = RoundGame | DartsGame


@dataclass(frozen=True, slots=True)
class Match:
    rules: RuleSet
    players: tuple[str, ...]
    game: Game
    parent: Match | None = field(default=None, compare=False, repr=False)
    depth: int = field(default=0, compare=False, repr=False)

    @classmethod
    def start(cls, ev: NewMatch) -> Match:
        rules = ruleset(ev.rules, dict(ev.options))
        if len(ev.players) != rules.seats:
            raise RuleSetError(
                f"{rules.name} is played by {rules.seats} players in seat order (clockwise), "
                f"got {len(ev.players)}: {', '.join(ev.players)}")
        game: Game
        if rules.game == "crokidarts":
            game = DartsGame(rules, ev.players)
        else:
            game = RoundGame(rules, ev.players)
        return cls(rules, ev.players, game)

    def apply(self, ev: Event) -> Match:
        """The state after ``ev``; raises a :class:`RulesError` and changes nothing if ``ev`` is
        impossible now."""
        if isinstance(ev, Undo):
            if self.parent is None:
                raise NothingToUndo("nothing to undo: only the match's start is left")
            return self.parent
        if isinstance(ev, NewMatch):
            raise IllegalEvent("a match is already in progress; one match per event log")
        if isinstance(ev, Shot | Starter) and ev.seat >= self.rules.seats:
            raise IllegalEvent(f"there is no seat {ev.seat}: {self.rules.name} has seats 0 to "
                               f"{self.rules.seats - 1}")
        return Match(self.rules, self.players, self.game.apply(ev), self, self.depth + 1)

    def apply_all(self, events: Iterable[Event]) -> Match:
        m = self
        for ev in events:
            m = m.apply(ev)
        return m

    # --- what the display and the daemon ask -----------------------------------------------------

    def expect(self) -> Expect:
        return self.game.expect()

    @property
    def finished(self) -> bool:
        return self.game.finished()

    @property
    def winner(self) -> int | None:
        return self.game.winner()

    def decided(self) -> int:
        """How many rounds (crokidarts: turns) have been decided so far."""
        return self.game.decided()

    def team_names(self) -> tuple[str, str]:
        names: list[list[str]] = [[], []]
        for seat, name in enumerate(self.players):
            names[self.rules.team_of(seat)].append(name)
        return (" & ".join(names[0]), " & ".join(names[1]))

    def summary(self) -> Summary:
        """The state as typed values; ``summary().to_json()`` is the output of ``crokiscore
        replay --json``. Cheap however long the match: its rounds are made when read."""
        head = (self.rules.name, tuple(self.rules.options().items()), self.players,
                self.team_names())
        return self.game.summary(*head)

    def decided_rounds(self) -> Iterator[RoundSummary | TurnSummary]:
        """The rounds whose boards have been read (crokidarts: the closed turns), latest first;
        lazy, so ``next(m.decided_rounds(), None)`` is the latest one at the cost of one."""
        match self.summary():
            case RoundsSummary(rounds=rounds):
                return (r for r in reversed(rounds) if r.decided)
            case DartsSummary(turns=turns):
                return (t for t in reversed(turns) if t.closed)
            case other:
                assert_never(other)

    def twenty_side(self, event: Twenty) -> int:
        """The side ``event`` credits if applied now: the side it names, or else the side of the
        shot in play. Raises :class:`NotAwaited` when no shot is in play."""
        return self.game.twenty_side(event.team)

    def last_twenty_side(self) -> int | None:
        """The side the latest event still in effect credited a 20 to, if it was a 20 of a round
        game (the beam cannot tell whose disc dropped, so the operator may give it to the other
        side); None otherwise, and always in crokidarts, where every 20 is the shooter's."""
        if self.parent is None:
            return None
        now, then = self.game, self.parent.game
        if isinstance(now, RoundGame) and isinstance(then, RoundGame):
            return now.twenty_added(then)
        return None

    def latest_value(self) -> tuple[int, int]:
        """The value the operator checks and a ``correct`` event replaces: round games, the
        totals per side of the round awaiting its board, else of the latest round read;
        crokidarts, the latest turn's value so far, as side 0's figure. (0, 0) before any."""
        return self.game.correctable()


def fold(events: Iterable[Event]) -> Match:
    """The match made by a complete, valid event sequence starting with its ``match`` event."""
    it = iter(events)
    first = next(it, None)
    if not isinstance(first, NewMatch):
        raise IllegalEvent("an event log starts with a 'match' event")
    return Match.start(first).apply_all(it)
