"""Crokidarts' score sheet: legs and sets, the turn in play and its checkout, and how each
player's latest turn ended."""

from __future__ import annotations

from dataclasses import dataclass

from device.screen.sheet import awaited
from device.screen.view import DartsView

ENDINGS = {"bust": "BUST", "missed": "MISSED", "won": "WON LEG"}
"""The turns' endings worth telling the players, as the line under the scores says them."""


@dataclass(frozen=True)
class DartsSheet:
    view: DartsView

    def tally(self, side: int) -> str:
        v = self.view
        legs = f"L{v.legs[side]}"
        return legs if v.sets_to_win <= 1 else f"{legs} S{v.sets[side]}"

    def where(self) -> list[str]:
        v = self.view
        if v.finished:
            if v.sets_to_win <= 1:
                return [f"LEGS {v.legs[0]}-{v.legs[1]}"]
            return [f"SETS {v.sets[0]}-{v.sets[1]}"]
        if v.sets_to_win > 1:
            return [f"SET {v.set_no} LEG {v.leg_no}", f"S{v.set_no} L{v.leg_no}"]
        return [f"LEG {v.leg_no}", f"L{v.leg_no}"]

    def standing(self, where: list[str]) -> tuple[list[str], list[str], bool]:
        v = self.view
        if v.checkout and v.awaiting == "shot":
            return ["20 WINS", "20!"], ["CHECKOUT", "OUT"], True
        turn, last = v.turn, v.last
        if turn is not None and turn.start < v.target:
            where = [f"+{turn.value} = {turn.total}", f"+{turn.value}"]
        elif turn is None and last is not None and last.status in ENDINGS:
            what = ENDINGS[last.status]
            where = [f"{v.players[last.seat]} {what}", what]
        return awaited(v, where)

    def check_line(self) -> str:
        v = self.view
        totals = v.check_totals or (0, 0)
        side = v.side_up if v.side_up is not None else 0
        return f"TURN +{totals[side]}"

    def heading(self) -> str:
        v = self.view
        if v.finished:
            return "CROKIDARTS - FINAL"
        if v.sets_to_win > 1:
            return f"SET {v.set_no}  LEG {v.leg_no}"
        return f"LEG {v.leg_no}"

    def pips(self, side: int) -> tuple[int, int]:
        left = self.view.discs_left[side]
        return left, left

    def record(self, side: int) -> list[str]:
        v = self.view
        lines = [f"LEGS {v.legs[side]} OF {v.legs_to_win}"]
        if v.sets_to_win > 1:
            lines.append(f"SETS {v.sets[side]} OF {v.sets_to_win}")
        own = [t for t in v.history if t.seat == side]
        if own:
            t = own[-1]
            lines.append(f"LAST +{t.end - t.start}" if t.status == "scored"
                         else f"LAST {t.status.upper()}")
        return lines
