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
from hw_sim.errors import SimSettingError
from rules.board import STANDARD, Board

MAX_DISCS = 24
GAP = 0.05  # mm left between touching discs, so rounding never makes them overlap

# how often each kind of placement is tried
HABITS: tuple[tuple[str, float], ...] = (
    ("open", 0.34), ("cluster", 0.2), ("line", 0.2), ("peg", 0.1), ("hole", 0.04),
    ("ditch", 0.12))
# real rounds' habits besides: discs lying right across a line, and against a peg and a disc
VARIED_HABITS: tuple[tuple[str, float], ...] = HABITS + (("across", 0.12), ("peg and disc", 0.08))
POSES = ("leaning on a peg", "leaning on the rail", "stacked")


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


def _across(rng: random.Random, board: Board, placed: list[PlacedDisc]) -> tuple[float, float]:
    """Lying across a scoring line: the line runs under the disc, out of sight."""
    radius = rng.choice(board.line_radii)
    return _polar(radius + rng.uniform(-0.8, 0.8) * board.disc_radius, rng.uniform(0, 2 * math.pi))


def _peg_and_disc(rng: random.Random, board: Board, placed: list[PlacedDisc]
                  ) -> tuple[float, float]:
    """Against a peg and touching a disc that rests against it too (or anywhere by a peg)."""
    pegs = board.pegs()
    reach = board.peg_diameter / 2 + board.disc_radius + GAP
    near = [(d, p) for d in placed for p in pegs
            if abs(math.hypot(d.x_mm - p[0], d.y_mm - p[1]) - reach) < 0.6]
    if not near:
        return _peg(rng, board, placed)
    d, (px, py) = rng.choice(near)
    # the point at `reach` from the peg and a disc's width (and a hair) from the disc
    a = math.atan2(d.y_mm - py, d.x_mm - px)
    gap = board.disc_diameter + GAP
    turn = math.acos(max(-1.0, min(1.0, 1 - gap * gap / (2 * reach * reach))))
    x, y = _polar(reach, a + rng.choice((-1, 1)) * turn)
    return px + x, py + y


PLACERS: dict[str, Callable[[random.Random, Board, list[PlacedDisc]], tuple[float, float]]] = {
    "open": _open, "cluster": _cluster, "line": _line, "peg": _peg, "hole": _hole,
    "ditch": _ditch, "across": _across, "peg and disc": _peg_and_disc}


def end_of_round(rng: random.Random, board: Board = STANDARD, *, discs: int | None = None,
                 habits: tuple[tuple[str, float], ...] = HABITS, poses: float = 0.0
                 ) -> BoardState:
    """A settled board with ``discs`` discs (default: 0 to 24 at random, at most 12 a side) and a
    few 20s, placed with the habits of real rounds (``habits``: names of :data:`PLACERS` and
    how often each is tried). With chance ``poses`` one of the discs does not lie flat: it
    leans on a peg or the rail, or lies on another disc (:data:`POSES`)."""
    n = rng.randint(0, MAX_DISCS) if discs is None else discs
    if not 0 <= n <= MAX_DISCS:
        raise SimSettingError(f"a round leaves 0 to {MAX_DISCS} discs, not {n}")
    dark = rng.randint(max(0, n - 12), min(12, n))
    teams = [0] * dark + [1] * (n - dark)
    rng.shuffle(teams)
    posed = None
    if poses > 0 and teams and rng.random() < poses:
        posed = (teams.pop(), rng.choice(POSES))
    names, weights = zip(*habits, strict=True)
    placed: list[PlacedDisc] = []
    for team in teams:
        for attempt in range(500):
            habit = rng.choices(names, weights)[0] if attempt < 400 else "open"
            x, y = PLACERS[habit](rng, board, placed)
            if _fits(x, y, placed, board):
                placed.append(PlacedDisc(x, y, team))
                break
        else:  # 24 discs always fit on a 660 mm board; this guards a changed geometry
            raise SimSettingError(f"could not fit {n} discs of {board.disc_diameter} mm on a board "
                             f"of {board.surface_radius} mm radius; ask for fewer discs")
    if posed is not None:
        disc = _posed(rng, board, placed, *posed)
        if disc is not None:
            placed.append(disc)
    twenties = (rng.choice((0, 0, 0, 1, 1, 2)), rng.choice((0, 0, 0, 1, 1, 2)))
    return BoardState(tuple(placed), twenties)


def _clear(x: float, y: float, placed: list[PlacedDisc], board: Board,
           skip_peg: tuple[float, float] | None = None) -> bool:
    """Whether a disc's footprint about (x, y) keeps clear of the others and the pegs."""
    if any(math.hypot(x - d.x_mm, y - d.y_mm) < board.disc_diameter + GAP for d in placed):
        return False
    reach = board.peg_diameter / 2 + board.disc_radius + GAP
    return all(math.hypot(x - px, y - py) >= reach for px, py in board.pegs()
               if (px, py) != skip_peg)


def _posed(rng: random.Random, board: Board, placed: list[PlacedDisc], team: int, pose: str
           ) -> PlacedDisc | None:
    """A disc that does not lie flat (None when none fits this board as it is)."""
    radius, half = board.disc_radius, board.disc_thickness / 2
    for _ in range(200):
        if pose == "stacked":
            flat = [d for d in placed if not d.in_ditch(board) and d.pose == "flat"
                    and d.r > board.hole_diameter / 2 + radius + 2]
            if not flat:
                return None
            under = rng.choice(flat)
            dx, dy = _polar(rng.uniform(0.0, 8.0), rng.uniform(0, 2 * math.pi))
            x, y = under.x_mm + dx, under.y_mm + dy
            others = [d for d in placed if d is not under]
            if _clear(x, y, others, board) and board.on_surface(math.hypot(x, y)):
                return PlacedDisc(x, y, team, pose="stacked")
            continue
        tilt = rng.uniform(10.0, 25.0) if pose == "leaning on a peg" else rng.uniform(25.0, 45.0)
        a = math.radians(tilt)
        out = radius * math.cos(a) + half * math.sin(a)  # middle to its raised edge, seen above
        if pose == "leaning on a peg":
            px, py = rng.choice(board.pegs())
            toward = rng.uniform(0, 2 * math.pi)  # from the disc to the peg
            d = board.peg_diameter / 2 + out
            x, y = px - d * math.cos(toward), py - d * math.sin(toward)
            r = math.hypot(x, y)
            if (r < board.hole_diameter / 2 + radius + 1 or r + radius > board.surface_radius
                    or not _clear(x, y, placed, board, skip_peg=(px, py))):
                continue
        else:  # in the ditch, its raised edge against the rail's inner wall
            toward = rng.uniform(0, 2 * math.pi)
            r = board.ditch_radius - out - 0.2
            x, y = _polar(r, toward)
            if r - radius < board.surface_radius or not _clear(x, y, placed, board):
                continue
        return PlacedDisc(x, y, team, pose="leaning", tilt_deg=tilt,
                          tilt_toward_deg=math.degrees(toward) % 360.0)
    return None
