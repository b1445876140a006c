"""End-of-round boards made up directly, without playing: a stand-in for simulated play.

The hard boards for vision are the ones real rounds leave: discs in touching clusters, resting
against pegs, on a line or a hair away from it, leaning over the 20 hole, lying in the ditch. This
generator places discs with exactly those habits (and nothing physically impossible: no overlaps,
no disc through a peg, no disc centred over the hole), so the camera and vision can be worked on
before the physics exists, and so tests can ask for such boards in milliseconds.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from hw_sim.discs import BoardState, PlacedDisc
from rules.board import STANDARD, Board

MAX_DISCS = 24
GAP = 0.05  # mm left between touching discs, so rounding never makes them overlap

# how often each kind of placement is tried
HABITS: tuple[tuple[str, float], ...] = (
    ("open", 0.34), ("cluster", 0.2), ("line", 0.2), ("peg", 0.1), ("hole", 0.04),
    ("ditch", 0.12))


def _fits(x: float, y: float, placed: list[PlacedDisc], board: Board) -> bool:
    r = math.hypot(x, y)
    radius = board.disc_radius
    if board.on_surface(r):
        if r < board.hole_diameter / 2 + 0.5:
            return False
        reach = board.peg_diameter / 2 + radius + GAP
        if any(math.hypot(x - px, y - py) < reach for px, py in board.pegs()):
            return False
    elif not board.surface_radius + radius <= r <= board.ditch_radius - radius:
        return False
    return all(math.hypot(x - d.x_mm, y - d.y_mm) >= 2 * radius + GAP for d in placed)


def _polar(r: float, a: float) -> tuple[float, float]:
    return r * math.cos(a), r * math.sin(a)


def _open(rng: random.Random, board: Board, placed: list[PlacedDisc]) -> tuple[float, float]:
    """Anywhere on the surface, more often toward the middle, as draws aim there."""
    inner = board.hole_diameter / 2 + board.disc_radius
    r = inner + (board.surface_radius - inner) * rng.random() ** 1.3
    return _polar(r, rng.uniform(0, 2 * math.pi))


def _cluster(rng: random.Random, board: Board, placed: list[PlacedDisc]) -> tuple[float, float]:
    """Touching a disc already on the surface (or nearly: within half a mm)."""
    on = [d for d in placed if not d.in_ditch(board)]
    if not on:
        return _open(rng, board, placed)
    d = rng.choice(on)
    x, y = _polar(board.disc_diameter + GAP + rng.uniform(0, 0.5), rng.uniform(0, 2 * math.pi))
    return d.x_mm + x, d.y_mm + y


def _line(rng: random.Random, board: Board, placed: list[PlacedDisc]) -> tuple[float, float]:
    """Just touching a scoring line or just clear of it, from either side: within 2.5 mm of the
    contact that decides the zone."""
    radius, limit = rng.choice(list(zip(board.line_radii, board.thresholds(), strict=True)))
    if rng.random() < 0.7:
        r = limit - board.disc_radius + rng.uniform(-2.5, 2.5)
    else:  # outside the line, its inner edge near the line's outer edge
        r = radius + board.line_width / 2 + board.disc_radius + rng.uniform(-2.5, 2.5)
    return _polar(r, rng.uniform(0, 2 * math.pi))


def _peg(rng: random.Random, board: Board, placed: list[PlacedDisc]) -> tuple[float, float]:
    """Resting against a peg."""
    px, py = rng.choice(board.pegs())
    x, y = _polar(board.peg_diameter / 2 + board.disc_radius + GAP + rng.uniform(0, 0.4),
                  rng.uniform(0, 2 * math.pi))
    return px + x, py + y


def _hole(rng: random.Random, board: Board, placed: list[PlacedDisc]) -> tuple[float, float]:
    """Leaning over the edge of the 20 hole, its centre on the wood."""
    r = board.hole_diameter / 2 + rng.uniform(1.0, board.disc_radius - 1.0)
    return _polar(r, rng.uniform(0, 2 * math.pi))


def _ditch(rng: random.Random, board: Board, placed: list[PlacedDisc]) -> tuple[float, float]:
    r = rng.uniform(board.surface_radius + board.disc_radius,
                    board.ditch_radius - board.disc_radius)
    return _polar(r, rng.uniform(0, 2 * math.pi))


PLACERS: dict[str, Callable[[random.Random, Board, list[PlacedDisc]], tuple[float, float]]] = {
    "open": _open, "cluster": _cluster, "line": _line, "peg": _peg, "hole": _hole,
    "ditch": _ditch}


def end_of_round(rng: random.Random, board: Board = STANDARD, *, discs: int | None = None
                 ) -> BoardState:
    """A settled board with ``discs`` discs (default: 0 to 24 at random, at most 12 a side) and a
    few 20s, placed with the habits of real rounds."""
    n = rng.randint(0, MAX_DISCS) if discs is None else discs
    if not 0 <= n <= MAX_DISCS:
        raise ValueError(f"a round leaves 0 to {MAX_DISCS} discs, not {n}")
    dark = rng.randint(max(0, n - 12), min(12, n))
    teams = [0] * dark + [1] * (n - dark)
    rng.shuffle(teams)
    names, weights = zip(*HABITS, strict=True)
    placed: list[PlacedDisc] = []
    for team in teams:
        for attempt in range(500):
            habit = rng.choices(names, weights)[0] if attempt < 400 else "open"
            x, y = PLACERS[habit](rng, board, placed)
            if _fits(x, y, placed, board):
                placed.append(PlacedDisc(x, y, team))
                break
        else:  # 24 discs always fit on a 660 mm board; this guards a changed geometry
            raise ValueError(f"could not fit {n} discs of {board.disc_diameter} mm on a board "
                             f"of {board.surface_radius} mm radius; ask for fewer discs")
    twenties = (rng.choice((0, 0, 0, 1, 1, 2)), rng.choice((0, 0, 0, 1, 1, 2)))
    return BoardState(tuple(placed), twenties)
