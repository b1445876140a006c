"""The board's state as the club sees it: the retained ``state`` message.

The main loop hands over a :class:`BoardSnapshot` (the immutable match, its store id, the faults
in words), which costs it nothing; the publisher's thread turns it
into JSON. The game is read through :meth:`rules.Match.summary`, and the game's records for what
the summary does not hold (the latest reading, the fouls); each is one ``match`` on the kind.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, assert_never

from device.club.topics import VERSION
from rules import DartsSummary, Match, RoundsSummary
from rules.count import BoardCount
from rules.crokidarts import DartsGame
from rules.rounds import RoundGame


@dataclass(frozen=True)
class BoardSnapshot:
    match_id: int | None
    match: Match | None
    faults: tuple[str, ...] = ()


def _records(match: Match) -> tuple[BoardCount | None, list[int]]:
    """The board as last read (the latest round's, or the latest crokidarts shot's) and each
    side's fouls: what the summary does not hold, so read from the game's records."""
    rules, game = match.rules, match.game
    count: BoardCount | None = None
    fouls = [0, 0]
    match game:
        case RoundGame():
            for rnd in game.rounds:
                for shot in rnd.shots:
                    fouls[rules.team_of(shot.seat)] += shot.foul
            count = next((r.count for r in reversed(game.rounds) if r.count is not None), None)
        case DartsGame():
            for leg in game.legs:
                for turn in leg.turns:
                    fouls[turn.seat] += sum(shot.foul for shot in turn.shots)
            count = next((shot.count for leg in reversed(game.legs)
                          for turn in reversed(leg.turns) for shot in reversed(turn.shots)
                          if shot.count is not None), None)
        case other:
            assert_never(other)
    return count, fouls


def reading_json(reading: BoardCount | None) -> dict[str, Any] | None:
    if reading is None:
        return None
    return {"discs": [d.to_json() for d in reading.discs], "values": list(reading.values()),
            "uncertain": reading.uncertain, "checked": reading.confirmed,
            "corrected": reading.corrected, "needs_check": reading.needs_check}


def state_json(snap: BoardSnapshot, board: str, started: float | None, seq: int,
               now: float | None = None) -> dict[str, Any]:
    """``seq`` is the latest event of the match the publisher has read from the store."""
    out: dict[str, Any] = {"v": VERSION, "board": board, "ts": round(now or time.time(), 3),
                           "faults": list(snap.faults), "match_id": None}
    m = snap.match
    if m is None or snap.match_id is None or started is None:
        return out
    s = m.summary()
    seat = s.seat
    count, fouls = _records(m)
    out.update(
        match_id=snap.match_id, started=started, seq=seq, rules=s.rules,
        players=list(s.players), teams=list(s.teams), score=list(s.score), finished=s.finished,
        winner=s.winner, awaiting=s.awaiting, seat=seat,
        shooter=s.players[seat] if seat is not None else None,
        reading=reading_json(count))
    match s:
        case DartsSummary(turn=turn):
            out.update(scoring="legs", legs=list(s.legs), sets=list(s.sets), set=s.set_no,
                       leg=s.leg_no,
                       turn=None if turn is None else turn.to_json(),
                       round=len(s.turns) + (1 if turn is None else 0))
        case RoundsSummary():
            out.update(scoring="rounds", round=s.round, discs_left=list(s.discs_left),
                       rounds=[{"totals": list(r.totals), "points": list(r.points)}
                               for r in s.rounds if r.points is not None])
        case other:
            assert_never(other)
    out["fouls"] = fouls
    return out
