"""The board's own print: what repeats a quarter turn round the board.

From a bare photo nothing says which rings are the board's and which are discs: a painted
numeral, a peg or a crossing of lines can ring round a face that stands out from the board (a
cream "10" on a black board, at 1280x720 a blob of a disc's size). A board's print is laid
out the same in each quarter of its round, so what lies at a place lies again a quarter, a
half and three quarters of a turn round the centre, turned with it; a disc does not (another
disc would have to lie at each of those places, within a millimetre). A place whose look
matches its copies there, twice of three, is print; so is one that matches its copy half a
turn round closely (a board's "20" beside the hole is printed twice, either side of it).

The copies are compared as seen, in log colour less each patch's median (the light differs
across a board: a window's glare, a lamp's falloff), against how much the place itself
stands out from its own median: print matches its copies far better than it stands out,
a disc matches bare board or print no better than it stands out. Each copy is looked for a
millimetre either way, for the centre found and the print's own placing.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from rules.board import Board
from vision.empty import to_log
from vision.projection import CameraModel

PRINT_STEP_MM = 1.0    # the patches' sampling
PRINT_WINDOW = 0.8     # a patch's radius, in discs' radii: the face, not the board round it
#                        (a peg and a line beside a disc are print; a pale disc on a pale
#                        board against a peg matched its copies over 1.3 discs' radii)
PRINT_LIKE = 0.4       # a copy this near (its difference over the place's own contrast)
PRINT_COPIES = 2       # ... this many of the three copies: print
PRINT_OPPOSITE = 0.3   # ... or the copy half a turn round this near
PRINT_SHIFT_MM = 1.0   # each copy looked for this far either way
PRINT_INNER = 2.2      # ... nearer the centre than this many discs' radii the copies overlap
#                        the place itself (a disc over the hole looks like itself turned)


def printed(frame: np.ndarray, camera: CameraModel, board: Board, x: float, y: float) -> bool:
    """Whether the disc-sized place at board point (``x``, ``y``) (mm, on the board's plane)
    looks like the board's print: like its copies a quarter, a half and three quarters round
    the board (see the module's docstring)."""
    if math.hypot(x, y) < PRINT_INNER * board.disc_radius:
        return False
    half = PRINT_WINDOW * board.disc_radius
    reach = round(PRINT_SHIFT_MM / PRINT_STEP_MM)  # (a shift, in samples)
    n = math.floor(2 * half / PRINT_STEP_MM + 1e-9) + 1
    g = -half - PRINT_SHIFT_MM + PRINT_STEP_MM * np.arange(n + 2 * reach)
    gx, gy = np.meshgrid(g, -g)
    bx, by = x + gx, y + gy
    # the place and its three copies, each sampled over the place's window widened by the
    # shifts they are looked for at, in one pass
    turns = [(math.cos(k * math.pi / 2), math.sin(k * math.pi / 2)) for k in range(4)]
    wide = _patch(frame, camera, np.concatenate([c * bx - s * by for c, s in turns]),
                  np.concatenate([s * bx + c * by for c, s in turns])).reshape(
                      4, n + 2 * reach, n + 2 * reach, 3)
    inside = np.hypot(gx, gy)[reach:reach + n, reach:reach + n] <= half
    place = wide[0, reach:reach + n, reach:reach + n][inside]
    place = place - np.median(place, axis=0)
    own = float(np.sqrt(np.mean(place * place)))
    if own <= 0.0:
        return False

    def copy(k: int) -> float:  # how near copy k is, at its best shift
        best = math.inf
        for i in range(0, 2 * reach + 1, reach):
            for j in range(0, 2 * reach + 1, reach):
                d = place - wide[k, i:i + n, j:j + n][inside]
                d -= np.median(d, axis=0)
                best = min(best, float(np.sqrt(np.mean(d * d))))
        return best / own

    # (the half turn's first: most places are told by it alone)
    opposite = copy(2)
    if opposite < PRINT_OPPOSITE:
        return True
    near = int(opposite < PRINT_LIKE)
    for k, left in ((1, 1), (3, 0)):  # (left: the copies still to ask after this one)
        near += copy(k) < PRINT_LIKE
        if near >= PRINT_COPIES:
            return True
        if near + left < PRINT_COPIES:
            return False
    return False


def _patch(frame: np.ndarray, camera: CameraModel, bx: np.ndarray, by: np.ndarray
           ) -> np.ndarray:
    """The frame's log colour (float32, 3 channels) at board points (on the board's plane)."""
    px, py = camera.project_xyz(bx, by, np.zeros_like(bx))
    return to_log(cv2.remap(frame, px.astype(np.float32), py.astype(np.float32),
                            cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE))
