"""Per-player statistics over finished matches: a club's season table.

Derived from the matches themselves (their shot records), so the numbers always agree with the
scores that were shown. A 20 counts for the player who shot the disc in; a disc of the other side
knocked in counts for that side but for no player.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from rules.crokidarts import DartsGame
from rules.match import Match
from rules.rounds import RoundGame


@dataclass(frozen=True)
class PlayerStats:
    name: str
    matches: int = 0
    wins: int = 0
    draws: int = 0
    rounds: int = 0          # rounds (crokidarts: turns) the player's side played
    points: int = 0          # the side's round totals (crokidarts: points scored in turns)
    twenties: int = 0        # valid 20s the player shot

    @property
    def points_per_round(self) -> float:
        return self.points / self.rounds if self.rounds else 0.0

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "matches": self.matches, "wins": self.wins,
                "draws": self.draws, "rounds": self.rounds, "points": self.points,
                "points_per_round": round(self.points_per_round, 2), "twenties": self.twenties}


def _add(table: dict[str, PlayerStats], name: str, **more: int) -> None:
    s = table.get(name, PlayerStats(name))
    table[name] = replace(s, **{k: getattr(s, k) + v for k, v in more.items()})


def player_stats(matches: Iterable[Match]) -> list[PlayerStats]:
    """Statistics per player name over the finished ``matches``, best record first."""
    table: dict[str, PlayerStats] = {}
    for m in matches:
        if not m.finished:
            continue
        rules = m.rules
        for seat, name in enumerate(m.players):
            team = rules.team_of(seat)
            won = m.winner == team
            _add(table, name, matches=1, wins=int(won), draws=int(m.winner is None))
        game = m.game
        if isinstance(game, RoundGame):
            for rnd in game.scored():
                totals = rnd.totals(rules)
                for seat, name in enumerate(m.players):
                    _add(table, name, rounds=1, points=totals[rules.team_of(seat)])
                for shot in rnd.shots:
                    team = rules.team_of(shot.seat)
                    _add(table, m.players[shot.seat],
                         twenties=shot.valid_twenties(team)[team])
        elif isinstance(game, DartsGame):
            for leg in game.legs:
                for turn in leg.turns:
                    st = turn.state(rules)
                    if st.closed:
                        _add(table, m.players[turn.seat], rounds=1,
                             points=st.end - turn.start, twenties=st.twenties)
    return sorted(table.values(), key=lambda s: (-s.wins, -s.points_per_round, s.name))
