"""The round games' score sheet (tournament and casual): rounds, their totals and the discs of
the round in play; a tournament counts its rounds, a casual match names its target."""

from __future__ import annotations

from dataclasses import dataclass

from device.screen.sheet import awaited
from device.screen.view import RoundsView


@dataclass(frozen=True)
class RoundsSheet:
    view: RoundsView

    def tally(self, side: int) -> str:
        return ""

    def where(self) -> list[str]:
        v = self.view
        if v.finished:
            return ["FINAL"]
        if v.round > v.rounds > 0:
            return [f"RD {v.round} EXTRA", f"R{v.round}+"]
        if v.rounds:
            return [f"RD {v.round}/{v.rounds}", f"R{v.round}/{v.rounds}"]
        return [f"RD {v.round} TO {v.target}", f"R{v.round} TO {v.target}", f"R{v.round}"]

    def standing(self, where: list[str]) -> tuple[list[str], list[str], bool]:
        v = self.view
        last = v.last
        if v.awaiting != "board" and v.seat is not None and last is not None and \
                last.number == v.round - 1 and \
                sum(v.discs_left) == len(v.discs_left) * v.discs_left[v.seat]:
            # a new round not yet begun: the one just played is what people ask about
            a, b = last.totals
            where = [f"R{last.number} {a}-{b}", *where]
        return awaited(v, where)

    def check_line(self) -> str:
        totals = self.view.check_totals or (0, 0)
        return f"{totals[0]} : {totals[1]}"

    def heading(self) -> str:
        v = self.view
        if v.finished:
            return "FINAL"
        if v.rounds:
            return f"ROUND {v.round} OF {v.rounds}" if v.round <= v.rounds \
                else f"ROUND {v.round} (EXTRA)"
        return f"ROUND {v.round} - TO {v.target}"

    def pips(self, side: int) -> tuple[int, int]:
        v = self.view
        return v.side_discs(side), len(v.discs_left) // 2 * v.discs

    def record(self, side: int) -> list[str]:
        v = self.view
        lines = []
        for r in v.history:
            pts = r.points[side]
            lines.append(f"R{r.number} {r.totals[side]}" + (f" +{pts}" if pts else ""))
        if v.round_twenties[side]:
            lines.append(f"R{v.round}: {v.round_twenties[side]}x20")
        return lines
