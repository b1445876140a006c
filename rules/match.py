"""A match: the pure fold of its events.

``Match.start(new_match_event)`` then ``match.apply(event)`` for each later event gives a new
``Match``; nothing is ever changed in place. Each state keeps the one before it, so ``undo`` hands
back exactly the previous state (and undo after undo keeps going back). That costs little: a state
shares all but its latest round (crokidarts: leg) with the one before it, so a match holds a few
small objects per event, however long it runs. Equality compares the game only, not the path that
led to it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from rules.crokidarts import DartsGame
from rules.errors import IllegalEvent, NothingToUndo, RuleSetError
from rules.events import Event, NewMatch, Shot, Starter, Undo
from rules.reading import Expect
from rules.rounds import RoundGame
from rules.rulesets import RuleSet, ruleset

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

    def summary(self, last: int | None = None) -> dict[str, Any]:
        """The state as JSON-ready data: the output of ``crokiscore replay --json``. With
        ``last``, its ``rounds`` hold only the latest ``last`` rounds (crokidarts: turns)."""
        out: dict[str, Any] = {
            "rules": self.rules.name,
            "options": self.rules.options(),
            "players": list(self.players),
            "teams": list(self.team_names()),
        }
        out.update(self.game.summary(last))
        return out


def fold(events: Iterable[Event]) -> Match:
    """The match made by a complete, valid event sequence starting with its ``match`` event."""
    it = iter(events)
    first = next(it, None)
    if not isinstance(first, NewMatch):
        raise IllegalEvent("an event log starts with a 'match' event")
    return Match.start(first).apply_all(it)
