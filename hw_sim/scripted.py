"""Scripted players: legal, random matches at the level of events, without physics.

They answer whatever the match expects next (a shot from the right seat, the board after the last
disc, a confirmation) with plausible random values, so tests and benchmarks get any number of
complete matches of every rule set in milliseconds. Physical play, with sensor pulses and camera
frames, is the simulator's board; these are its quick stand-in at the event level.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from hw_sim.errors import ScenarioError
from rules import (
    BoardReading,
    Confirm,
    Correction,
    Disc,
    Event,
    Foul,
    Match,
    NewMatch,
    Shot,
    Twenty,
)
from rules.crokidarts import DartsGame
from rules.rounds import RoundGame

ZONE_ODDS = ((0, 0.25), (5, 0.3), (10, 0.27), (15, 0.18))


class Chooser(Protocol):
    """The randomness the players draw on: ``random.Random`` fits, and so does a test's adapter
    over hypothesis draws."""

    def random(self) -> float: ...

    def randint(self, a: int, b: int) -> int: ...


@dataclass(frozen=True)
class Style:
    """How often the scripted players do each thing."""

    twenty: float = 0.12
    opponent_twenty: float = 0.02
    foul: float = 0.03
    uncertain: float = 0.03
    correct: float = 0.3
    darts_twenty: float = 0.3
    exact: float = 0.35
    kept: float = 0.35


DEFAULT_NAMES = ("Ann", "Bob", "Cat", "Dan")


def _zone(rng: Chooser) -> int:
    x = rng.random()
    for zone, p in ZONE_ODDS:
        if x < p:
            return zone
        x -= p
    return 15


def _disc(rng: Chooser, team: int, zone: int, style: Style) -> Disc:
    return Disc(team, zone, uncertain=rng.random() < style.uncertain)


def _round_events(m: Match, rng: Chooser, style: Style) -> list[Event]:
    game = m.game
    assert isinstance(game, RoundGame)
    exp = m.expect()
    rules = m.rules
    if exp.what == "shot":
        assert exp.seat is not None
        out: list[Event] = [Shot(exp.seat)]
        rnd = game.rounds[-1] if game.rounds and game.rounds[-1].count is None else None
        team = rules.team_of(exp.seat)
        have = list(rnd.twenties(rules, valid=False)) if rnd else [0, 0]
        played = [rnd.played(rules, t) if rnd else 0 for t in (0, 1)]
        played[team] += 1
        if have[team] < played[team] and rng.random() < style.twenty:
            out.append(Twenty())
            have[team] += 1
        other = 1 - team
        if have[other] < played[other] and rng.random() < style.opponent_twenty:
            out.append(Twenty(other))
        if rng.random() < style.foul:
            out.append(Foul())
        return out
    if exp.what == "board":
        rnd = game.rounds[-1]
        raw = rnd.twenties(rules, valid=False)
        discs = []
        for team in (0, 1):
            room = rnd.played(rules, team) - raw[team]
            kept = sum(1 for _ in range(room) if rng.random() < style.kept)
            discs += [_disc(rng, team, _zone(rng), style) for _ in range(kept)]
        return [BoardReading(tuple(discs))]
    if exp.what == "confirm":
        if rng.random() < style.correct:
            totals = [t + 5 * rng.randint(0, 1) for t in m.latest_value()]
            return [Correction(totals=(totals[0], totals[1]))]
        return [Confirm()]
    return []


def _exact_discs(remaining: int, room: int) -> list[int] | None:
    """Zones of at most ``room`` discs adding up to ``remaining``, if that can be done."""
    if remaining < 0 or remaining % 5 or remaining > 15 * room:
        return None
    zones = [15] * (remaining // 15)
    rest = remaining % 15
    if rest:
        zones.append(rest)
    return zones if len(zones) <= room else None


def _darts_events(m: Match, rng: Chooser, style: Style) -> list[Event]:
    game = m.game
    assert isinstance(game, DartsGame)
    exp = m.expect()
    if exp.what == "shot":
        assert exp.seat is not None
        out: list[Event] = [Shot(exp.seat)]
        if rng.random() < (0.5 if exp.checkout else style.darts_twenty):
            out.append(Twenty())
        if rng.random() < style.foul:
            out.append(Foul())
        return out
    if exp.what == "board":
        turn = game.legs[-1].turns[-1]
        st = turn.state(m.rules)
        if exp.checkout or turn.start == m.rules.target:
            zones = [_zone(rng)] if rng.random() < 0.5 else []
        else:
            room = len(turn.shots) - sum(s.twenties for s in turn.shots)
            zones = [_zone(rng) for _ in range(rng.randint(0, room))]
            exact = _exact_discs(m.rules.target - turn.start - 20 * st.twenties, room)
            if exact is not None and rng.random() < style.exact:
                zones = exact
        return [BoardReading(tuple(_disc(rng, turn.seat, z, style) for z in zones))]
    if exp.what == "confirm":
        if rng.random() < style.correct:
            return [Correction(value=game.legs[-1].turns[-1].state(m.rules).value)]
        return [Confirm()]
    return []


def play(rules: str, rng: Chooser, *, style: Style = Style(),
         options: dict[str, Any] | None = None, players: tuple[str, ...] | None = None,
         max_events: int = 50_000) -> Iterator[Event]:
    """Yields the events of one complete match of ``rules``."""
    from rules import ruleset

    seats = ruleset(rules, options).seats
    start = NewMatch(rules, players or DEFAULT_NAMES[:seats],
                     tuple(sorted((options or {}).items())))
    m = Match.start(start)
    yield start
    events = 1
    step = _darts_events if m.rules.game == "crokidarts" else _round_events
    while not m.finished:
        for ev in step(m, rng, style):
            m = m.apply(ev)
            yield ev
            events += 1
        if events > max_events:
            raise ScenarioError(f"{rules} match did not end within {max_events} events")
