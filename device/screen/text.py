"""The scoreboard as plain text, for terminals and logs.

It reads only :meth:`rules.Match.summary`, the same data the replay prints as JSON, so what a
terminal shows and what a log says can never disagree; it reads the latest rounds only, so a
scoreboard drawn after every round of a long log costs the same each time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, assert_never

from rules import DartsSummary, FirstTo, FixedRounds, Match, RoundsSummary, Summary

if TYPE_CHECKING:
    from device.core.status import Status


def _title(s: Summary) -> str:
    return s.rules.replace("-", " ").upper()


def _next_line(m: Match, s: Summary) -> str:
    if s.finished:
        w = s.winner
        return "match over: " + ("a draw" if w is None else f"{s.teams[w]} wins")
    if s.awaiting == "board":
        return "waiting for the board to be read"
    if s.awaiting == "confirm":
        why = s.check[0] if s.check else "the camera is not sure of a disc"
        return f"CHECK: {why}; confirm or correct"
    assert s.seat is not None
    extra = " (checkout)" if isinstance(s, DartsSummary) and s.checkout else ""
    return f"next: {m.players[s.seat]}{extra}"


def as_text(m: Match) -> str:
    s = m.summary()
    t0, t1 = s.teams
    a, b = s.score
    width = max(len(t0), len(t1), 8)
    lines = []
    match s:
        case DartsSummary(turn=turn):
            lines.append(f"{_title(s)}  set {s.set_no} leg {s.leg_no}   "
                         f"legs {s.legs[0]}-{s.legs[1]}  sets {s.sets[0]}-{s.sets[1]}")
            lines.append(f"  {t0:<{width}} {a:>4}  :  {b:<4} {t1:>{width}}")
            if turn:
                lines.append(f"  turn: {m.players[turn.seat]} from {turn.start}: "
                             f"{turn.twenties} x 20 + board {turn.board} = "
                             f"{turn.total}, discs left {turn.discs_left}")
            elif s.turns:
                last = s.turns[-1]
                lines.append(f"  last turn: {m.players[last.seat]} {last.start} -> "
                             f"{last.end} ({last.status})")
        case RoundsSummary(goal=goal):
            match goal:
                case FixedRounds(rounds=n):
                    of = f" of {n}"
                case FirstTo(target=n):
                    of = f", to {n}"
                case other:
                    assert_never(other)
            lines.append(f"{_title(s)}   round {s.round}{of}")
            lines.append(f"  {t0:<{width}} {a:>4}  :  {b:<4} {t1:>{width}}")
            r = next(s.decided_rounds(), None)
            if r is not None:
                assert r.points is not None
                flags = " (corrected)" if r.corrected else ""
                lines.append(f"  round {r.number}: {r.totals[0]} - {r.totals[1]}, "
                             f"points {r.points[0]} - {r.points[1]}{flags}")
            if s.awaiting == "shot":
                left = " ".join(str(n) for n in s.discs_left)
                lines.append(f"  discs left by seat: {left}")
        case other:
            assert_never(other)
    lines.append("  " + _next_line(m, s))
    return "\n".join(lines)


class TextScreen:
    """A screen that prints the scoreboard as text: for a terminal, or the journal of a box
    running without its OLED."""

    def __init__(self, write: Callable[[str], object] = print) -> None:
        self.write = write

    def show(self, match: Match | None, status: Status) -> None:
        lines = [as_text(match)] if match is not None else ["no match"]
        if status.twenty is not None and match is not None:
            lines.append(f"  *** 20 for {match.team_names()[status.twenty]} ***")
        for text in (*status.errors, status.message):
            if text:
                lines.append(f"  ! {text}")
        self.write("\n".join(lines))
