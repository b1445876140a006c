"""The settled board as the simulator knows it: exact disc positions, the truth that sensors,
camera frames and the daemon's score are all checked against."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal

from rules.board import STANDARD, Board
from rules.events import BoardReading, Disc

Pose = Literal["flat", "leaning", "stacked"]


@dataclass(frozen=True)
class PlacedDisc:
    """A disc at rest, its centre in board millimetres (see :mod:`rules.board`), and its side.

    Most discs lie flat. A few do not, and no camera can be sure of them, so their truth asks for
    a flag: ``leaning`` (its lowest edge on the surface or the ditch floor, its raised side
    toward board angle ``tilt_toward_deg`` resting on a peg or the rail, ``tilt_deg`` from
    flat; x and y are then where its middle is, seen from above) and ``stacked`` (lying flat on
    top of another disc).
    """

    x_mm: float
    y_mm: float
    team: int
    pose: Pose = "flat"
    tilt_deg: float = 0.0
    tilt_toward_deg: float = 0.0

    @property
    def r(self) -> float:
        return math.hypot(self.x_mm, self.y_mm)

    def in_ditch(self, board: Board = STANDARD) -> bool:
        return not board.on_surface(self.r)

    def zone(self, board: Board = STANDARD) -> int:
        return 0 if self.in_ditch(board) else board.zone(self.r)

    def to_json(self, board: Board = STANDARD) -> dict[str, Any]:
        out: dict[str, Any] = {"x_mm": round(self.x_mm, 2), "y_mm": round(self.y_mm, 2),
                               "team": self.team, "zone": self.zone(board)}
        if self.pose != "flat":
            out.update(pose=self.pose, tilt_deg=round(self.tilt_deg, 2),
                       tilt_toward_deg=round(self.tilt_toward_deg, 2))
        return out

    def bottom_centre(self, board: Board, base_z: float) -> tuple[float, float, float]:
        """The centre of its bottom face, for a disc whose lowest point rests at ``base_z``
        (a stacked disc: on a disc lying there)."""
        if self.pose == "stacked":
            return self.x_mm, self.y_mm, base_z + board.disc_thickness
        a, f = math.radians(self.tilt_deg), math.radians(self.tilt_toward_deg)
        half = board.disc_thickness / 2
        z = base_z + board.disc_radius * math.sin(a) + half * math.cos(a)  # its middle
        return (self.x_mm + half * math.sin(a) * math.cos(f),
                self.y_mm + half * math.sin(a) * math.sin(f), z - half * math.cos(a))


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
