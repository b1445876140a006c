"""Results in Crokinole Match Notation (CMN 1.0), and as CSV.

How each rule set maps (docs/club.md says the same for the club's records):

* tournament: each round is a CMN game (``winner`` the side with the higher round total, null on
  a tie; ``hammer`` the side that shot first; ``scores`` the round totals before cancelling, 20s
  included; ``twenties`` the valid 20s per side); ``gameFormat`` is ``fixed`` with the rule set's
  number of rounds (an extra-round tie-break adds games beyond it);
* casual (first to 100): each round likewise, with ``gameFormat`` ``first_to`` and the target;
* crokidarts: each leg is a CMN game (``winner`` the leg's winner, ``hammer`` its starter,
  ``scores`` the points each player stood on when it ended, ``twenties`` their valid 20s in it).
  CMN has no sets: with one set the match is ``first_to`` that many legs; with more, no
  ``gameFormat`` is given and the games are simply the legs in order.

Only finished matches are exported. Ids are stable (:attr:`MatchKey.uuid`), so an export made
twice gives the same ids.
"""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime
from typing import Any, assert_never

from device.club.hubstore import MatchRecord
from rules import DartsSummary, FirstTo, FixedRounds, Match, RoundsSummary
from rules.crokidarts import DartsGame

CMN_VERSION = "1.0"


def iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _round_winner(totals: tuple[int, int]) -> int | None:
    if totals[0] == totals[1]:
        return None
    return 0 if totals[0] > totals[1] else 1


def games(m: Match) -> list[dict[str, Any]]:
    """The CMN games: a round game's rounds read, or crokidarts' legs."""
    rules = m.rules
    match m.summary():
        case RoundsSummary(rounds=rounds):
            return [{"winner": _round_winner(r.totals), "hammer": rules.team_of(r.starter),
                     "scores": list(r.totals), "twenties": list(r.twenties)}
                    for r in rounds if r.decided]
        case DartsSummary():
            return _legs(m)
        case other:
            assert_never(other)


def _legs(m: Match) -> list[dict[str, Any]]:
    """Crokidarts' legs, from the game's records: the summary has turns, not legs, and its
    turns leave out the checkout's 20, which CMN counts."""
    rules, game = m.rules, m.game
    assert isinstance(game, DartsGame), "a crokidarts summary comes from its DartsGame"
    out: list[dict[str, Any]] = []
    for leg in game.legs:
        twenties = [0, 0]
        for turn in leg.turns:
            twenties[turn.seat] += sum(s.valid_twenties for s in turn.shots)
        out.append({"winner": leg.winner(rules), "hammer": leg.starter,
                    "scores": list(leg.scores(rules)), "twenties": twenties})
    return out


def game_format(m: Match) -> dict[str, Any] | None:
    """CMN's gameFormat: a tournament's fixed rounds, a casual match's target, or crokidarts'
    legs when there is one set (CMN has no sets: with more, none is given)."""
    match m.summary():
        case RoundsSummary(goal=goal):
            match goal:
                case FixedRounds(rounds=n):
                    return {"type": "fixed", "count": n}
                case FirstTo(target=n):
                    return {"type": "first_to", "target": n}
                case other:
                    assert_never(other)
        case DartsSummary():
            legs, sets = m.rules.legs, m.rules.sets
            return {"type": "first_to", "target": legs} if sets == 1 else None
        case other:
            assert_never(other)


def match_body(rec: MatchRecord) -> dict[str, Any]:
    m = rec.match
    assert m is not None
    teams: list[list[str]] = [[], []]
    for seat, name in enumerate(m.players):
        teams[m.rules.team_of(seat)].append(name)
    body: dict[str, Any] = {
        "date": iso(rec.key.started),
        "format": "doubles" if m.rules.seats == 4 else "singles",
        "teams": [{"players": [{"name": n} for n in t]} for t in teams],
    }
    fmt = game_format(m)
    if fmt is not None:
        body["gameFormat"] = fmt
    body["games"] = games(m)
    body["winner"] = m.winner
    return body


def exportable(rec: MatchRecord) -> bool:
    return rec.match is not None and rec.match.finished


def cmn_match(rec: MatchRecord, source: str) -> dict[str, Any]:
    out: dict[str, Any] = {"cmn": CMN_VERSION, "id": rec.uuid, "match": match_body(rec)}
    if rec.event:
        out["event"] = rec.event
    out["source"] = source
    return out


def cmn_batch(records: list[MatchRecord], source: str,
              event: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"cmn": CMN_VERSION, "batch": True}
    if event:
        out["event"] = event
    out["source"] = source
    out["matches"] = [{"id": r.uuid, "match": match_body(r)} for r in records if exportable(r)]
    return out


CSV_FIELDS = ("id", "event", "board", "started", "finished", "rules", "teams", "winner",
              "score", "games", "players")


def results_csv(records: list[MatchRecord]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(CSV_FIELDS)
    for r in records:
        if not exportable(r):
            continue
        m = r.match
        assert m is not None
        s = m.summary()
        winner = "draw" if s.winner is None else s.teams[s.winner]
        match s:
            case RoundsSummary():
                score = s.score
            case DartsSummary():  # legs (in the last set) or sets, not the 400s
                score = s.sets if m.rules.sets > 1 else s.legs
            case other:
                assert_never(other)
        w.writerow((r.uuid, r.event or "", r.key.board, iso(r.key.started),
                    iso(r.finished) if r.finished else "", m.rules.name,
                    " vs ".join(s.teams), winner, f"{score[0]}-{score[1]}",
                    len(games(m)), " / ".join(m.players)))
    return buf.getvalue()
