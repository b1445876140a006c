"""The settled board as the simulator knows it: exact disc positions, the truth that sensors,
camera frames and the daemon's score are all checked against."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from rules.board import STANDARD, Board
from rules.events import BoardReading, Disc


@dataclass(frozen=True)
class PlacedDisc:
    """A disc at rest, its centre in board millimetres (see :mod:`rules.board`), and its side."""

    x_mm: float
    y_mm: float
    team: int

    @property
    def r(self) -> float:
        return math.hypot(self.x_mm, self.y_mm)

    def in_ditch(self, board: Board = STANDARD) -> bool:
        return not board.on_surface(self.r)

    def zone(self, board: Board = STANDARD) -> int:
        return 0 if self.in_ditch(board) else board.zone(self.r)

    def to_json(self, board: Board = STANDARD) -> dict[str, Any]:
        return {"x_mm": round(self.x_mm, 2), "y_mm": round(self.y_mm, 2), "team": self.team,
                "zone": self.zone(board)}


@dataclass(frozen=True)
class BoardState:
    """Every disc on the surface or in the ditch, and the 20s each side has sunk this round."""

    discs: tuple[PlacedDisc, ...] = ()
    twenties: tuple[int, int] = (0, 0)

    def board_values(self, board: Board = STANDARD) -> tuple[int, int]:
        v = [0, 0]
        for d in self.discs:
            v[d.team] += d.zone(board)
        return (v[0], v[1])

    def totals(self, board: Board = STANDARD) -> tuple[int, int]:
        v = self.board_values(board)
        return (v[0] + 20 * self.twenties[0], v[1] + 20 * self.twenties[1])

    def reading(self, board: Board = STANDARD) -> BoardReading:
        """The board event a perfect camera would send: every disc with its exact position,
        ditch discs as zone 0, none uncertain."""
        return BoardReading(tuple(Disc(d.team, d.zone(board), x_mm=d.x_mm, y_mm=d.y_mm)
                                  for d in self.discs))

    def to_json(self, board: Board = STANDARD) -> dict[str, Any]:
        return {"discs": [d.to_json(board) for d in self.discs],
                "twenties": list(self.twenties), "totals": list(self.totals(board))}
