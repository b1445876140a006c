"""What a glare burns out to white.

A lamp or a window reflected in the varnish lifts the board's light; where it lifts a white or
pale disc past what the camera can hold, its face is white in every channel and shows neither
its colour nor any change from the empty board, and its rim shows only where its edge's shade
falls. The board round it is lit as much, but wood and paint stay short of white: a disc-sized
round patch burnt to white where the board is not is what a white disc under a glare looks
like. On 586 of the bench's frames with discs (tuning and retired), every such patch on the
playing surface was a disc; the two elsewhere were spare discs beside the board. And where the
picture is burnt out over a good part of the surface, a pale disc may lie anywhere in it: the
board as a whole is in doubt.
"""

from __future__ import annotations

import math
from typing import Any

import cv2
import numpy as np

from rules.board import Board

BURNT_SURFACE = 0.15  # a picture burnt out to white (every channel discs.BURNT) over this share
#                      of the playing surface in view is in doubt as a whole: a pale disc
#                      there shows nothing, neither its face nor its rim (a stream frame of a
#                      cream board with a white 15, its light raised a third, burnt out over
#                      55 % of it and read with no disc and nothing said; real photos as taken
#                      burnt out over 3 % at most, the bench's frames over 18 % at most: a glare
#                      spot over a natural board, fresh play-389 50 and 51, held for a check)
BURNT_AREA = (0.5, 1.3)  # a patch burnt to white this many times a disc's face's area (the
#                          view's edge pixels mix with the board round it), ...
BURNT_ROUND = 0.6  # ... filling this share of the circle its farthest pixel reaches, is a disc's


def burnt_out(share: float) -> str:
    """The doubt on a picture burnt out to white over ``share`` of the playing surface."""
    return (f"the picture is burnt out to white over {share:.0%} of the playing surface, where a "
            "pale disc cannot be told from the board: take it with less light on the board or a "
            "shorter exposure")


def burnt_share(view: Any, board: Board) -> float:
    """The share of the playing surface in view that is burnt out to white."""
    on = (view.radius < board.surface_radius) & view.inside
    if not on.any():
        return 0.0
    return float(view.burnt[on].mean())


def burnt_discs(view: Any, board: Board, taken: list[tuple[float, float]]
                ) -> list[tuple[float, float]]:
    """Where on the playing surface a round patch of a disc's size is burnt to white, clear of
    the discs read (``taken``, board mm) and where it would score (board mm): a white disc in a
    glare that nothing else found. ``view``: the frame on the plane of the discs' tops
    (:class:`vision.discs.TopView`)."""
    on = view.inside & (view.radius < board.outer_radius + board.disc_radius)
    burnt = (view.burnt & on).astype(np.uint8)
    if not burnt.any():
        return []
    face = math.pi * (board.disc_radius * view.ppm) ** 2
    count, labels, stats, centres = cv2.connectedComponentsWithStats(burnt, connectivity=8)
    out: list[tuple[float, float]] = []
    for k in range(1, count):
        area = float(stats[k, cv2.CC_STAT_AREA])
        if not BURNT_AREA[0] * face <= area <= BURNT_AREA[1] * face:
            continue
        rows, cols = np.nonzero(labels == k)
        col, row = centres[k]
        far = float(np.hypot(cols - col, rows - row).max()) + 0.5
        if area < BURNT_ROUND * math.pi * far * far:
            continue
        x, y = (float(v) for v in view.to_board(np.float64(col), np.float64(row)))
        if board.zone(math.hypot(x, y)) == 0 or any(
                math.hypot(x - tx, y - ty) <= 1.6 * board.disc_radius for tx, ty in taken):
            continue
        out.append((x, y))
        taken = [*taken, (x, y)]
    return out
