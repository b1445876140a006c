"""Shot geometry for the simulated players: where a seat may shoot from and what lies in the way.

Everything is in board millimetres (see :mod:`rules.board`). A player places a disc on the
shooting (outer) line with its centre inside the seat's quadrant, and flicks it along a straight
line; before choosing a shot it checks that the disc's path clears the pegs and the other discs.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from functools import lru_cache

from rules.board import Board

Point = tuple[float, float]

MARGIN = 1.0   # mm of clearance a player wants between a passing disc and an obstacle


@lru_cache(maxsize=8)
def peg_centres(board: Board) -> tuple[Point, ...]:
    """The board's peg centres, worked out once per board."""
    return board.pegs()


def quadrant_angle(quadrant: int) -> float:
    """Direction (radians) from the centre to the middle of a quadrant's shooting line.

    Quadrants as in :meth:`rules.board.Board.quadrant`: 0 bottom, 1 left, 2 top, 3 right.
    """
    return math.radians(270.0 - 90.0 * quadrant)


def spots(board: Board, quadrant: int, discs: Iterable[Point], n: int = 11,
          spread_deg: float = 40.0) -> list[Point]:
    """Free places on the shooting line inside ``quadrant``, from one side to the other.

    A spot is free when no disc on the surface overlaps a disc placed there.
    """
    centre = quadrant_angle(quadrant)
    r = board.outer_radius
    gap = board.disc_diameter + MARGIN
    others = list(discs)
    out = []
    for k in range(n):
        a = centre + math.radians(spread_deg) * (2 * k / (n - 1) - 1 if n > 1 else 0.0)
        p = (r * math.cos(a), r * math.sin(a))
        if all(math.dist(p, o) >= gap for o in others):
            out.append(p)
    return out


def distance_to_segment(p: Point, a: Point, b: Point) -> float:
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / length2))
    return math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy)


def blockers(board: Board, a: Point, b: Point, discs: Sequence[Point],
             pegs: Sequence[Point] | None = None) -> int:
    """How many pegs and discs a disc sliding from ``a`` to ``b`` would touch on the way.

    ``pegs`` defaults to all of the board's; a shot meant to stop against a peg leaves that one
    out.
    """
    peg_gap = board.disc_radius + board.peg_diameter / 2 + MARGIN
    disc_gap = board.disc_diameter + MARGIN
    n = sum(1 for p in (peg_centres(board) if pegs is None else pegs)
            if distance_to_segment(p, a, b) < peg_gap)
    return n + sum(1 for d in discs if distance_to_segment(d, a, b) < disc_gap)


def touching(start: Point, obstacle: Point, reach: float) -> Point:
    """Where a disc coming straight from ``start`` stops just touching ``obstacle`` (a disc or
    peg centre ``reach`` mm away at contact)."""
    ux, uy = unit(start, obstacle)
    return (obstacle[0] - reach * ux, obstacle[1] - reach * uy)


def unit(a: Point, b: Point) -> Point:
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = math.hypot(dx, dy)
    return (dx / n, dy / n) if n else (0.0, 1.0)


def contact_point(start: Point, aim: Point, target: Point, reach: float) -> Point | None:
    """Where the shot disc's centre is when it first touches ``target`` (a disc or peg centre
    ``reach`` mm away at contact), travelling from ``start`` towards ``aim``; None if it misses."""
    ux, uy = unit(start, aim)
    fx, fy = target[0] - start[0], target[1] - start[1]
    along = fx * ux + fy * uy
    side2 = fx * fx + fy * fy - along * along
    if side2 > reach * reach or along <= 0:
        return None
    s = along - math.sqrt(reach * reach - side2)
    return (start[0] + s * ux, start[1] + s * uy)


def exit_distance(board: Board, p: Point, direction: Point) -> float:
    """How far a disc at ``p`` must slide along ``direction`` for its centre to leave the
    playing surface."""
    px, py = p
    ux, uy = direction
    b = px * ux + py * uy
    c = px * px + py * py - board.surface_radius ** 2
    return -b + math.sqrt(max(b * b - c, 0.0))
