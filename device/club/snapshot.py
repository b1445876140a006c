"""The board's state as the club sees it: the retained ``state`` message.

The main loop hands over a :class:`BoardSnapshot` (the immutable match, its store id, the faults
in words), which costs it nothing; the publisher's thread turns it
into JSON. The game is read through :meth:`rules.Match.summary` and the latest reading.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from device.club.topics import VERSION
from rules import Match
from rules.count import BoardCount
from rules.crokidarts import DartsGame
from rules.rounds import RoundGame


@dataclass(frozen=True)
class BoardSnapshot:
    match_id: int | None
    match: Match | None
    faults: tuple[str, ...] = ()


def latest_count(match: Match) -> BoardCount | None:
    """The board as last read (the latest round's, or the latest crokidarts shot's)."""
    game = match.game
    if isinstance(game, RoundGame):
        for rnd in reversed(game.rounds):
            if rnd.count is not None:
                return rnd.count
        return None
    if isinstance(game, DartsGame):
        for leg in reversed(game.legs):
            for turn in reversed(leg.turns):
                for shot in reversed(turn.shots):
                    if shot.count is not None:
                        return shot.count
    return None


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
    s = m.summary().to_json()
    seat = s.get("seat")
    out.update(
        match_id=snap.match_id, started=started, seq=seq, rules=s["rules"],
        players=s["players"], teams=s["teams"], score=s["score"], finished=s["finished"],
        winner=s["winner"], awaiting=s["awaiting"], seat=seat,
        shooter=s["players"][seat] if seat is not None else None,
        reading=reading_json(latest_count(m)))
    if m.rules.game == "crokidarts":
        out.update(legs=s["legs"], sets=s["sets"], set=s["set"], leg=s["leg"], turn=s["turn"],
                   round=len(s["rounds"]) + (1 if s["turn"] is None else 0))
        fouls = [0, 0]
        for leg in m.game.legs:  # type: ignore[union-attr]
            for turn in leg.turns:
                fouls[turn.seat] += sum(shot.foul for shot in turn.shots)
        out["fouls"] = fouls
    else:
        out.update(round=s["round"], discs_left=s["discs_left"],
                   rounds=[{"totals": r["totals"], "points": r["points"]}
                           for r in s["rounds"] if r["points"] is not None])
        fouls = [0, 0]
        for rnd in m.game.rounds:  # type: ignore[union-attr]
            for shot in rnd.shots:
                fouls[m.rules.team_of(shot.seat)] += shot.foul
        out["fouls"] = fouls
    return out
