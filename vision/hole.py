"""The 20 hole, measured in the picture.

Real holes are about 35 mm across on boards of every size (32 to 40 mm on the boards the
simulator draws), so a board found larger or smaller than the tournament board does not have
a hole larger or smaller in step; taken so, a 15 lying beside a 32-inch board's hole was the
hole's own rim. The hole's edge is a step all round the centre: its bottom (a cup, felt, the
floor below) against the surface. A pale bottom on pale wood stands only a few grey levels
off the surface, less than the grain's own steps on any one ray; but the grain, a numeral and
a disc beside the hole each cross a few rays at other radii, while the hole's edge lies at one
radius on all of them. So the rays' profiles are taken together (their median at each radius),
and the hole's edge is the steepest step of that: if it stands well clear of every other step,
most rays step the same way there, and it is a step, not a slope (a pale cup's shading rises
steadily to a bottom as light as the surface; a blurred dark cup on a black board does too).
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from rules.board import Board
from vision.empty import to_log
from vision.projection import CameraModel
from vision.rings import profiles_across

WIDEST_MM = 41.0  # boards' 20 holes are made 35 to 38 mm across (1 3/8, 1 1/2 inch), the
#                   simulator's 32 to 40: one measured wider at the tournament board's scale is
#                   a smaller board's (on 250 of the bench's rigs: 40 of them, 38 of those
#                   boards 12 % or more smaller, none within 5 % of the size)
MADE_MM = 36.5    # ... and the size such a hole says is the one that makes it the middle of
#                   those (on those 40 rigs within 10 % of the board's size but one, where the
#                   tournament's size is 9 to 31 % off)

RAYS = 120          # rays round the centre
STEP_MM = 0.25      # sample spacing along a ray
NEAR = (0.5, 1.7)   # where the hole's edge is looked for, times the board's hole radius
SPAN_MM = 1.0       # a step is taken over this much of a ray
CLEAR = 2.0         # the hole's step must be this many times any other step of the median
ALIKE = 0.7         # ... and this share of the rays (in view) must step the same way there
WHOLE_MM = 2.5      # ... and over this much either side of it, it must rise
RAMP = 1.6          # ... less than this many times as much as over SPAN_MM either side


def measure_hole(grey: np.ndarray, camera: CameraModel, board: Board) -> float | None:
    """The hole's diameter (mm, in the board's own lengths) as the picture shows it, or None
    when no step round the centre stands out (a bottom of the board's own colour, the centre
    out of view): the board's is then kept."""
    r0 = board.hole_diameter / 2
    mid = r0 * (NEAR[0] + NEAR[1]) / 2
    prof, offsets = profiles_across(grey, camera, mid, RAYS, r0 * (NEAR[1] - NEAR[0]) / 2,
                                    STEP_MM)
    seen = np.isfinite(prof).all(axis=1)
    if seen.sum() < RAYS / 2:
        return None
    prof = prof[seen]
    k = max(1, round(SPAN_MM / STEP_MM))
    steps = prof[:, 2 * k:] - prof[:, :-2 * k]  # rise outward over 2 SPAN_MM, per ray
    typical = np.median(steps, axis=0)
    at = int(np.argmax(np.abs(typical)))
    height = float(typical[at])
    others = np.abs(typical).copy()
    others[max(0, at - 3 * k):at + 3 * k + 1] = 0.0  # the step's own flanks
    centre, w = at + k, max(k + 1, round(WHOLE_MM / STEP_MM))
    if (at < k or at >= len(typical) - k or abs(height) < CLEAR * float(others.max())
            or float(np.mean(np.sign(steps[:, at]) == np.sign(height))) < ALIKE
            or centre < w or centre + w >= prof.shape[1]):
        return None
    whole = float(np.median(prof[:, centre + w] - prof[:, centre - w]))
    if abs(whole) > RAMP * abs(height):  # a slope (a cup's shading, a blur), not an edge
        return None
    # the step's middle, to a fraction of a sample
    a, b, c = np.abs(typical[at - 1:at + 2])
    den = a - 2 * b + c
    frac = 0.5 * (a - c) / den if den < 0 else 0.0
    radius = mid + float(offsets[at + k]) + float(np.clip(frac, -1, 1)) * STEP_MM
    return round(2 * radius, 2)


def size_said(board: Board) -> float | None:
    """How much larger than a tournament board's the discs will look, as a hole measured at the
    tournament board's scale (``board``, a calibration's) says: None unless it is wider than
    boards' holes are made. The empty board shows its lines' proportions, not its size; the
    hole is the one length it shows."""
    if board.hole_diameter < WIDEST_MM:
        return None
    return board.hole_diameter / MADE_MM


EDGE_RAYS = 72    # rays round the hole's edge where a disc may hide it (an eighth of them at
#                   least, 45 degrees of it: a ring's edge grazing the hole's hides too little)
EDGE_SIDE_MM = 3.0  # ... its inside taken this far within the edge, its step against as far out
EDGE_CLEAR_MM = 1.5  # ... each sample this far within the disc's face, or clear of it
EDGE_STEP = 0.4     # ... where the hole's inside stands out from the board this much (log
#                     colour; a pale bottom on pale wood says nothing of what covers it)
HIDDEN_STEP = 0.5   # ... and the hole's inside hidden where it differs from the rest of it by
#                     this share of that step


def hidden_by(view: Any, board: Board, x: float, y: float) -> bool:
    """Whether a disc centred at board point (``x``, ``y``) mm lies over the hole's edge as the
    picture shows it: where its face would cover the hole's inside, just within the edge,
    that differs from the inside round the rest of the edge by half the edge's own step or
    more (a glare across the disc's face steps across the edge too, so the step itself says
    little). A numeral or a line printed beside the hole leaves its inside whole. ``view``:
    the frame on the board's plane (:class:`vision.discs.TopView`)."""
    hole, r = board.hole_diameter / 2, board.disc_radius
    a = (np.arange(EDGE_RAYS) + 0.5) * (2 * np.pi / EDGE_RAYS)
    ca, sa = np.cos(a), np.sin(a)
    # (the inside's samples on the disc's face; and the steps both of whose samples are clear)
    gaps = [np.hypot(k * ca - x, k * sa - y) for k in (hole - EDGE_SIDE_MM, hole + EDGE_SIDE_MM)]
    under = gaps[0] < r - EDGE_CLEAR_MM
    free = (gaps[0] > r + EDGE_CLEAR_MM) & (gaps[1] > r + EDGE_CLEAR_MM)
    if under.sum() < EDGE_RAYS // 8 or free.sum() < EDGE_RAYS // 4:
        return False

    def at(radius: float) -> np.ndarray:
        col, row = view.to_view(radius * ca, radius * sa)
        return to_log(cv2.remap(view.image, col.astype(np.float32)[None],
                                row.astype(np.float32)[None], cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE)[0])

    inside, outside = at(hole - EDGE_SIDE_MM), at(hole + EDGE_SIDE_MM)
    bottom = np.median(inside[free], axis=0)
    step = float(np.median(np.linalg.norm(inside[free] - outside[free], axis=-1)))
    if step < EDGE_STEP:
        return False
    off = float(np.median(np.linalg.norm(inside[under] - bottom, axis=-1)))
    return off > HIDDEN_STEP * step
