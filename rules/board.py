"""Board geometry in millimetres, and the zone a disc scores.

The board is described once here and shared by the rules, the vision code (which needs the same
line radii to decide a zone) and the simulator (which builds its physics and pictures from it), so
the three can never disagree about where a line is.

Coordinates: millimetres from the centre of the 20 hole, x to the right and y up as seen from
above, with seat 0 sitting at the bottom (negative y).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import pairwise

from rules.errors import BoardError

# Zone values, from the centre outwards. 0 is the ditch, or a disc touching the outer line.
ZONES: tuple[int, ...] = (15, 10, 5, 0)


@dataclass(frozen=True)
class Board:
    """A crokinole board. Radii are to the middle of each painted line.

    The defaults are the tournament dimensions (a 26 inch playing surface); ``line_width``,
    ``disc_diameter`` and ``disc_thickness`` vary between boards and disc sets and are settings.
    """

    hole_diameter: float = 35.0
    fifteen_radius: float = 101.6
    ten_radius: float = 203.2
    outer_radius: float = 304.8
    surface_radius: float = 330.0
    ditch_radius: float = 380.0
    peg_count: int = 8
    peg_diameter: float = 9.5
    peg_offset_deg: float = 22.5
    line_width: float = 2.0
    disc_diameter: float = 32.0
    disc_thickness: float = 9.5

    def __post_init__(self) -> None:
        radii = (self.hole_diameter / 2, self.fifteen_radius, self.ten_radius, self.outer_radius,
                 self.surface_radius, self.ditch_radius)
        if any(b <= a for a, b in pairwise(radii)):
            raise BoardError(
                "board radii must grow outwards: hole < 15 line < 10 line < outer line "
                f"< playing surface < ditch, got {radii}")
        for name in ("line_width", "disc_diameter", "disc_thickness", "peg_diameter"):
            if getattr(self, name) <= 0:
                raise BoardError(f"board {name} must be positive, got {getattr(self, name)}")

    @property
    def disc_radius(self) -> float:
        return self.disc_diameter / 2

    @property
    def line_radii(self) -> tuple[float, float, float]:
        """The three scoring lines: 15, 10 and the outer (shooting) line."""
        return (self.fifteen_radius, self.ten_radius, self.outer_radius)

    def thresholds(self) -> tuple[float, float, float]:
        """Radii that a disc's outermost point must stay below to keep each zone's value.

        A disc touching a line counts the lower value, so the deciding radius is the inner edge of
        each line, compared with the far edge of the disc.
        """
        half = self.line_width / 2
        return tuple(r - half for r in self.line_radii)  # type: ignore[return-value]

    def zone(self, r: float) -> int:
        """The value of a disc whose centre lies ``r`` mm from the centre (15, 10, 5 or 0)."""
        reach = r + self.disc_radius
        for value, limit in zip(ZONES, self.thresholds(), strict=False):
            if reach < limit:
                return value
        return 0

    def zone_at(self, x: float, y: float) -> int:
        return self.zone(math.hypot(x, y))

    def zone_margin(self, r: float) -> float:
        """Distance in mm the disc would have to move radially to change value.

        Vision compares this with its measurement uncertainty to decide when a disc is too close
        to call.
        """
        reach = r + self.disc_radius
        return min(abs(reach - limit) for limit in self.thresholds())

    def on_surface(self, r: float) -> bool:
        """Whether a disc centred at ``r`` still rests on the playing surface (not in the ditch)."""
        return r <= self.surface_radius

    def pegs(self) -> tuple[tuple[float, float], ...]:
        """Centres of the pegs, evenly spaced on the 15 line, none straight in front of a seat."""
        step = 360.0 / self.peg_count
        return tuple(
            (self.fifteen_radius * math.cos(math.radians(self.peg_offset_deg + k * step)),
             self.fifteen_radius * math.sin(math.radians(self.peg_offset_deg + k * step)))
            for k in range(self.peg_count))

    def quadrant(self, x: float, y: float) -> int:
        """The quadrant (0 bottom, 1 left, 2 top, 3 right; clockwise seen from above) a point is in.

        Quadrant lines run along the diagonals; quadrant q is the one in front of the seat whose
        shooting line it holds.
        """
        angle = math.degrees(math.atan2(y, x)) % 360.0
        # bottom is centred on 270 degrees, then clockwise: left (180), top (90), right (0).
        return int(((270.0 - angle + 45.0) % 360.0) // 90.0)


STANDARD = Board()
