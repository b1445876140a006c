"""Finished matches out of the store: CSV and JSON for a club's records, and the player table."""

from __future__ import annotations

import csv
import io
import logging
from datetime import UTC, datetime
from typing import Any, assert_never

from device.store import EventStore, StoredMatch
from rules import DartsSummary, Match, RoundsSummary, RulesError, Summary, fold
from rules.stats import match_stats, player_stats

log = logging.getLogger(__name__)

CSV_FIELDS = ("id", "started", "finished", "rules", "players", "teams", "outcome", "winner",
              "score", "rounds")


def _when(ts: object) -> str:
    """The time in ISO 8601; blank for none, or for one a spoilt row holds (text, or a number
    no calendar reaches)."""
    if not isinstance(ts, int | float) or isinstance(ts, bool):
        return ""
    try:
        return datetime.fromtimestamp(ts, UTC).isoformat(timespec="seconds")
    except (OverflowError, OSError, ValueError):
        return ""


def matches(store: EventStore, include_unfinished: bool = False
            ) -> list[tuple[StoredMatch, Match]]:
    """Each kept match with its state replayed from its events (the truth, not the cached
    result), skipping with a warning any that no longer replays."""
    out = []
    for record in store.matches():
        if record.outcome != "finished" and not include_unfinished:
            continue
        try:
            out.append((record, fold(store.events(record.id))))
        except RulesError as exc:
            log.warning("match %d does not replay: %s", record.id, exc)
    return out


def as_json(store: EventStore) -> dict[str, Any]:
    done = matches(store)
    return {
        "matches": [{"id": r.id, "started": _when(r.started), "finished": _when(r.finished),
                     **m.summary().to_json(), "stats": [s.to_json() for s in match_stats(m)]}
                    for r, m in done],
        "players": [s.to_json() for s in player_stats(m for _, m in done)],
    }


def as_csv(store: EventStore) -> str:
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(CSV_FIELDS)
    for r, m in matches(store):
        s = m.summary()
        winner = "" if s.winner is None else s.teams[s.winner]
        w.writerow([r.id, _when(r.started), _when(r.finished), s.rules, " / ".join(m.players),
                     " vs ".join(s.teams), r.outcome, winner or "draw",
                     f"{s.score[0]}-{s.score[1]}", _played(s)])
    return buf.getvalue()


def _played(s: Summary) -> int:
    """Rounds begun (crokidarts: turns), the CSV's ``rounds`` column."""
    match s:
        case RoundsSummary(rounds=rounds):
            return len(rounds)
        case DartsSummary(turns=turns):
            return len(turns)
        case other:
            assert_never(other)


def players_csv(store: EventStore) -> str:
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(("name", "matches", "wins", "draws", "rounds", "points", "points_per_round",
                "twenties", "fouls", "open_attempts", "open_twenties", "open_rate"))
    for s in player_stats(m for _, m in matches(store)):
        w.writerow((s.name, s.matches, s.wins, s.draws, s.rounds, s.points,
                    f"{s.points_per_round:.2f}", s.twenties, s.fouls, s.open_attempts,
                    s.open_twenties, f"{s.open_rate:.3f}"))
    return buf.getvalue()


STATS_FIELDS = ("match", "started", "rules", "player", "seat", "side", "rounds", "points",
                "round_totals", "twenties", "fouls", "open_attempts", "open_twenties")


def stats_csv(store: EventStore) -> str:
    """Each player of each finished match: the counts a club used to keep by hand."""
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(STATS_FIELDS)
    for r, m in matches(store):
        for s in match_stats(m):
            w.writerow((r.id, _when(r.started), m.rules.name, s.name, s.seat, s.team,
                        len(s.totals), s.points, " ".join(str(t) for t in s.totals),
                        s.twenties, s.fouls, s.open_attempts, s.open_twenties))
    return buf.getvalue()
