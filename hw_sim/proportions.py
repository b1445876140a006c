"""Boards of other sizes and proportions than the tournament board.

A tournament board's lines stand at one, two and three times the 15 line's radius on a 26 inch
playing surface. Club and home boards are not so exact: measured real boards put the 10 and outer
lines 6 to 8 % away from twice and three times the 15 line's radius, their playing surfaces run
from 20 to 32 inches, and holes and pegs come in several sizes. The simulator draws such boards as
:class:`rules.board.Board` values, so the physics, the zones in a frame's truth and the pictures
all follow the board that is really there.
"""

from __future__ import annotations

import math
import random
from typing import Literal

from hw_sim.errors import SimSettingError
from rules.board import STANDARD, Board

Proportions = Literal["tournament", "club"]
INCH = 25.4


def random_board(rng: random.Random, proportions: Proportions | None = None) -> Board:
    """A board a club might own: tournament proportions (half the time, unless
    ``proportions`` says) or a club's, on a playing surface of 20 to 32 inches."""
    kind = proportions or ("tournament" if rng.random() < 0.5 else "club")
    if kind not in ("tournament", "club"):
        raise SimSettingError(f"board proportions are 'tournament' or 'club', not {kind!r}")
    surface = rng.uniform(20.0, 32.0) * INCH / 2
    outer = surface * rng.uniform(0.9, 0.94)  # the tournament board's is 0.924 of the surface
    if kind == "tournament":
        fifteen, ten = outer / 3, outer * 2 / 3
    else:
        off_outer = rng.choice((-1, 1)) * rng.uniform(0.06, 0.08)
        off_ten = rng.choice((-1, 1)) * rng.uniform(0.06, 0.08)
        fifteen = outer / (3 * (1 + off_outer))
        ten = 2 * fifteen * (1 + off_ten)
    return Board(
        hole_diameter=round(rng.uniform(32.0, 40.0), 1),
        fifteen_radius=round(fifteen, 1), ten_radius=round(ten, 1), outer_radius=round(outer, 1),
        surface_radius=round(surface, 1),
        ditch_radius=round(surface + rng.uniform(40.0, 60.0), 1),
        peg_diameter=round(rng.uniform(6.0, 13.0), 1),
        line_width=round(rng.uniform(1.5, 3.0), 1),
        disc_diameter=STANDARD.disc_diameter, disc_thickness=STANDARD.disc_thickness)


def proportions_of(board: Board) -> Proportions:
    """Whether the lines stand at one, two and three times the 15 line's radius (within 1 %)."""
    f = board.fifteen_radius
    exact = (math.isclose(board.ten_radius, 2 * f, rel_tol=0.01)
             and math.isclose(board.outer_radius, 3 * f, rel_tol=0.01))
    return "tournament" if exact else "club"


def surface_inches(board: Board) -> float:
    """The playing surface's diameter in inches."""
    return 2 * board.surface_radius / INCH
