"""What the physics reports: discs as they are now, and what a shot did."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

Where = Literal["surface", "ditch", "hole", "aside"]


@dataclass(frozen=True)
class SimDisc:
    """A disc of the simulation as it is now: an id that stays with it, its side and where it is."""

    id: int
    team: int
    x: float
    y: float
    where: Where

    @property
    def r(self) -> float:
        return math.hypot(self.x, self.y)


@dataclass(frozen=True)
class Drop:
    """A disc that fell into the 20 hole, ``t`` seconds after its shot began."""

    disc: int
    team: int
    t: float


@dataclass(frozen=True)
class Outcome:
    """What one shot did, until every disc was at rest again.

    ``struck`` is the shot's chain of contact in order, shot disc first: every surface disc that
    was hit by the shot disc or by a disc the shot had already set moving. The rules' "did the
    shot hit an opposing disc, directly or through own discs" and "own discs it struck" read it.
    """

    disc: int
    team: int
    duration: float
    steps: int
    drops: tuple[Drop, ...]
    fell: tuple[int, ...]
    struck: tuple[int, ...]
