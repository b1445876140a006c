"""The scoreboard as plain text, for terminals and logs.

It reads only :meth:`rules.Match.summary`, the same data the replay prints as JSON, so what a
terminal shows and what a log says can never disagree.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rules import Match

if TYPE_CHECKING:
    from device.appliance import DaemonStatus


def _title(s: dict[str, Any]) -> str:
    return s["rules"].replace("-", " ").upper()


def _next_line(m: Match, s: dict[str, Any]) -> str:
    if s["finished"]:
        w = s["winner"]
        return "match over: " + ("a draw" if w is None else f"{s['teams'][w]} wins")
    what, seat = s["awaiting"], s["seat"]
    if what == "board":
        return "waiting for the board to be read"
    if what == "confirm":
        return "CHECK: a disc is too close to call; confirm or correct"
    name = m.players[seat]
    extra = " (checkout)" if s.get("checkout") else ""
    return f"next: {name}{extra}"


def render(m: Match) -> str:
    s = m.summary(last=2)  # the latest decided round is one of the last two
    t0, t1 = s["teams"]
    a, b = s["score"]
    width = max(len(t0), len(t1), 8)
    lines = []
    if m.rules.game == "crokidarts":
        lines.append(f"{_title(s)}  set {s['set']} leg {s['leg']}   "
                     f"legs {s['legs'][0]}-{s['legs'][1]}  sets {s['sets'][0]}-{s['sets'][1]}")
        lines.append(f"  {t0:<{width}} {a:>4}  :  {b:<4} {t1:>{width}}")
        turn = s["turn"]
        if turn:
            lines.append(f"  turn: {m.players[turn['seat']]} from {turn['start']}: "
                         f"{turn['twenties']} x 20 + board {turn['board']} = "
                         f"{turn['start'] + turn['value']}, discs left {turn['discs_left']}")
        elif s["rounds"]:
            last = s["rounds"][-1]
            lines.append(f"  last turn: {m.players[last['seat']]} {last['start']} -> "
                         f"{last['end']} ({last['status']})")
    else:
        of = f" of {m.rules.rounds}" if m.rules.game == "tournament" else f", to {m.rules.target}"
        lines.append(f"{_title(s)}   round {s['round']}{of}")
        lines.append(f"  {t0:<{width}} {a:>4}  :  {b:<4} {t1:>{width}}")
        done = [r for r in s["rounds"] if r["board"] is not None]
        if done:
            r = done[-1]
            flags = " (corrected)" if r["corrected"] else ""
            lines.append(f"  round {r['number']}: {r['totals'][0]} - {r['totals'][1]}, "
                         f"points {r['points'][0]} - {r['points'][1]}{flags}")
        if s["awaiting"] == "shot":
            left = " ".join(str(n) for n in s["discs_left"])
            lines.append(f"  discs left by seat: {left}")
    lines.append("  " + _next_line(m, s))
    return "\n".join(lines)


class TextScreen:
    """A screen that prints the scoreboard as text: for a terminal, or the journal of a box
    running without its OLED."""

    def __init__(self, write: Callable[[str], object] = print) -> None:
        self.write = write

    def show(self, match: Match | None, status: DaemonStatus) -> None:
        lines = [render(match)] if match is not None else ["no match"]
        if status.twenty is not None and match is not None:
            lines.append(f"  *** 20 for {match.team_names()[status.twenty]} ***")
        for text in (*status.errors, status.message):
            if text:
                lines.append(f"  ! {text}")
        self.write("\n".join(lines))
