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
from typing import Any

from device.club.hubstore import MatchRecord
from rules import Match
from rules.crokidarts import DartsGame
from rules.rounds import RoundGame

CMN_VERSION = "1.0"


def iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _round_winner(totals: tuple[int, int]) -> int | None:
    if totals[0] == totals[1]:
        return None
    return 0 if totals[0] > totals[1] else 1


def games(m: Match) -> list[dict[str, Any]]:
    rules = m.rules
    out: list[dict[str, Any]] = []
    game = m.game
    if isinstance(game, RoundGame):
        for rnd in game.scored():
            totals = rnd.totals(rules)
            out.append({"winner": _round_winner(totals), "hammer": rules.team_of(rnd.starter),
                        "scores": list(totals), "twenties": list(rnd.twenties(rules))})
    elif isinstance(game, DartsGame):
        for leg in game.legs:
            twenties = [0, 0]
            for turn in leg.turns:
                twenties[turn.seat] += sum(s.valid_twenties for s in turn.shots)
            out.append({"winner": leg.winner(rules), "hammer": leg.starter,
                        "scores": list(leg.scores(rules)), "twenties": twenties})
    return out


def game_format(m: Match) -> dict[str, Any] | None:
    rules = m.rules
    if rules.game == "tournament":
        return {"type": "fixed", "count": rules.rounds}
    if rules.game == "casual":
        return {"type": "first_to", "target": rules.target}
    if rules.sets == 1:
        return {"type": "first_to", "target": rules.legs}
    return None


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
        s = m.summary().to_json()
        winner = "draw" if m.winner is None else s["teams"][m.winner]
        score = s["score"]
        if m.rules.game == "crokidarts":  # legs (in the last set) or sets, not the 400s
            score = s["sets"] if m.rules.sets > 1 else s["legs"]
        w.writerow((r.uuid, r.event or "", r.key.board, iso(r.key.started),
                    iso(r.finished) if r.finished else "", m.rules.name,
                    " vs ".join(s["teams"]), winner, f"{score[0]}-{score[1]}",
                    len(games(m)), " / ".join(m.players)))
    return buf.getvalue()
