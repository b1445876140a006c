"""Per-player statistics: each player's match, and a club's season table over many matches.

Derived from the matches themselves (their shot records), so the numbers always agree with the
scores that were shown. A 20 counts for the player who shot the disc in; a disc of the other side
knocked in counts for that side but for no player.

**Open-board 20 attempts** count only the shots that certainly met an empty board, which is what
the event log can tell:

* round games read the board once, at the round's end, so a shot is known to meet an empty board
  only while every disc shot before it in the round went into the 20 hole (the round's first shot
  always does). A disc removed under the open-board rule, or knocked off by an earlier shot, may
  also leave the board empty, but the log cannot show it, so such shots are not counted;
* crokidarts reads the board after every shot: a turn's first shot meets an empty board, and so
  does a shot whose preceding reading showed no disc (a reading corrected by its value alone does
  not say where the discs were, so the shot after it is not counted).

An attempt succeeds when the shot's own disc drops (a valid 20 for the shooter during that shot).
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
    fouls: int = 0           # the player's shots called foul
    open_attempts: int = 0   # shots certainly on an empty board (see the module's docstring)
    open_twenties: int = 0   # of those, the ones that dropped in the 20 hole

    @property
    def points_per_round(self) -> float:
        return self.points / self.rounds if self.rounds else 0.0

    @property
    def open_rate(self) -> float:
        """Open-board 20s made, as a share of the attempts (0 without attempts)."""
        return self.open_twenties / self.open_attempts if self.open_attempts else 0.0

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "matches": self.matches, "wins": self.wins,
                "draws": self.draws, "rounds": self.rounds, "points": self.points,
                "points_per_round": round(self.points_per_round, 2), "twenties": self.twenties,
                "fouls": self.fouls, "open_attempts": self.open_attempts,
                "open_twenties": self.open_twenties, "open_rate": round(self.open_rate, 3)}


@dataclass(frozen=True)
class MatchStats:
    """One player's part in one match. ``totals`` are the side's round totals (20s included;
    crokidarts: the points each closed turn of the player added)."""

    name: str
    seat: int
    team: int
    totals: tuple[int, ...] = ()
    twenties: int = 0
    fouls: int = 0
    open_attempts: int = 0
    open_twenties: int = 0

    @property
    def points(self) -> int:
        return sum(self.totals)

    @property
    def open_rate(self) -> float:
        return self.open_twenties / self.open_attempts if self.open_attempts else 0.0

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "seat": self.seat, "team": self.team,
                "totals": list(self.totals), "points": self.points, "twenties": self.twenties,
                "fouls": self.fouls, "open_attempts": self.open_attempts,
                "open_twenties": self.open_twenties, "open_rate": round(self.open_rate, 3)}


def _bump(table: list[MatchStats], seat: int, **more: int) -> None:
    s = table[seat]
    table[seat] = replace(s, **{k: getattr(s, k) + v for k, v in more.items()})


def match_stats(m: Match) -> tuple[MatchStats, ...]:
    """Each player's statistics in ``m`` (finished or not), in seat order."""
    rules = m.rules
    table = [MatchStats(name, seat, rules.team_of(seat)) for seat, name in enumerate(m.players)]
    game = m.game
    if isinstance(game, RoundGame):
        for rnd in game.rounds:
            if rnd.count is not None:
                totals = rnd.totals(rules)
                for seat, s in enumerate(table):
                    table[seat] = replace(s, totals=s.totals + (totals[s.team],))
            in_hole = 0   # discs of this round known to be in the 20 hole
            for i, shot in enumerate(rnd.shots):
                team = rules.team_of(shot.seat)
                own = shot.valid_twenties(team)[team]
                _bump(table, shot.seat, twenties=own, fouls=int(shot.foul))
                if in_hole == i:  # every disc shot before this one dropped: the board is empty
                    _bump(table, shot.seat, open_attempts=1, open_twenties=int(own > 0))
                in_hole += sum(shot.twenties)
    elif isinstance(game, DartsGame):
        for leg in game.legs:
            for turn in leg.turns:
                st = turn.state(rules)
                if st.closed:
                    s = table[turn.seat]
                    table[turn.seat] = replace(s, totals=s.totals + (st.end - turn.start,))
                for i, shot in enumerate(turn.shots):
                    before = turn.shots[i - 1].count if i else None
                    empty = i == 0 or (before is not None and before.override is None
                                       and before.discs_of() == 0)
                    _bump(table, turn.seat, twenties=shot.valid_twenties, fouls=int(shot.foul))
                    if empty:
                        _bump(table, turn.seat, open_attempts=1,
                              open_twenties=int(shot.valid_twenties > 0))
    return tuple(table)


def _add(table: dict[str, PlayerStats], name: str, **more: int) -> None:
    s = table.get(name, PlayerStats(name))
    table[name] = replace(s, **{k: getattr(s, k) + v for k, v in more.items()})


def player_stats(matches: Iterable[Match]) -> list[PlayerStats]:
    """Statistics per player name over the finished ``matches``, best record first."""
    table: dict[str, PlayerStats] = {}
    for m in matches:
        if not m.finished:
            continue
        for s in match_stats(m):
            _add(table, s.name, matches=1, wins=int(m.winner == s.team),
                 draws=int(m.winner is None), rounds=len(s.totals), points=s.points,
                 twenties=s.twenties, fouls=s.fouls, open_attempts=s.open_attempts,
                 open_twenties=s.open_twenties)
    return sorted(table.values(), key=lambda s: (-s.wins, -s.points_per_round, s.name))
