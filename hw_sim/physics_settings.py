"""The physical settings of the simulated board and its discs.

Units as everywhere in the simulator: millimetres, seconds and grams (speeds in mm/s, g = 9810
mm/s^2). Each setting is checked against its range so that a typo cannot give a board on which
discs never stop, or a sub-step long enough for a fast disc to jump a peg.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

from hw_sim.errors import PhysicsSettingError


@dataclass(frozen=True)
class Physics:
    """The physical settings of board and discs (mm, s, g)."""

    friction: float = 0.2            # Coulomb coefficient, disc on the playing surface
    ditch_friction: float = 0.6      # disc on the ditch's lining: it stops quickly there
    gravity: float = 9810.0          # mm/s^2
    disc_mass: float = 8.0           # g; all discs alike, so only matters for momentum figures
    disc_restitution: float = 0.8    # disc on disc
    peg_restitution: float = 0.62    # disc on peg
    rail_restitution: float = 0.45   # disc on the rail (and on the surface's edge, from the ditch)
    bounce_threshold: float = 150.0  # mm/s: contacts closing slower than this do not bounce
    step: float = 0.001              # s, the fixed sub-step
    drop_speed: float = 350.0        # mm/s: slower than this, centre over the hole, it falls
    max_shot_time: float = 60.0      # s: a shot still moving after this is an error

    def __post_init__(self) -> None:
        ranges = {
            "friction": (0.0, 2.0), "ditch_friction": (0.0, 5.0), "gravity": (1e-9, math.inf),
            "disc_mass": (1e-9, math.inf), "disc_restitution": (0.0, 1.0),
            "peg_restitution": (0.0, 1.0), "rail_restitution": (0.0, 1.0),
            "bounce_threshold": (0.0, math.inf), "step": (1e-6, 0.001),
            "drop_speed": (0.0, math.inf),
            "max_shot_time": (0.01, math.inf),
        }
        for f in fields(self):
            value = getattr(self, f.name)
            low, high = ranges[f.name]
            if not isinstance(value, int | float) or isinstance(value, bool) or not (
                    low <= value <= high):
                why = (" (pymunk has no tunnelling protection: sub-steps must stay at 1 ms or"
                       " less)" if f.name == "step" else "")
                raise PhysicsSettingError(
                    f"physics setting {f.name!r} must be a number from {low} to {high}, "
                    f"got {value!r}{why}")

    @property
    def deceleration(self) -> float:
        """mm/s^2 lost by a disc sliding on the playing surface."""
        return self.friction * self.gravity

    def stopping_distance(self, speed: float) -> float:
        """How far a disc at ``speed`` slides on the open surface before it stops (mm)."""
        if self.deceleration == 0:
            return math.inf
        return speed * speed / (2 * self.deceleration)

    def speed_for(self, distance: float) -> float:
        """The speed that slides a disc exactly ``distance`` mm on the open surface."""
        return math.sqrt(2 * self.deceleration * max(distance, 0.0))
