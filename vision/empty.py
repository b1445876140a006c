"""The empty board: what a fixed rig's frame is compared with.

A rig's calibration keeps the empty board's look, resampled onto the plane of the discs' top
faces (board millimetres, like :class:`vision.discs.TopView`), so it stays right when the camera
is refitted. Each round's frame is resampled the same way and compared with it in logarithms:
a shadow, a cloud or a lamp's falloff scales the light, which in logarithms is a difference that
varies slowly across the board, while a disc changes the colour and texture over a round patch
its own size. The slow part (the light field) is taken out by a robust median over cells of the
board; what is left is near nothing on bare board, whatever its lines, numerals, grain, pegs or
hole, and stands out wherever a disc lies, a dark disc on a dark board included.

The same comparison says when the camera (or the board) has moved: the painted lines then no
longer sit where the calibration's camera puts them (see :func:`vision.reading.locate`).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.arrays import channel_mean, channel_sq, median
from vision.discs import TopView, ViewMaps

CELL_MM = 48.0        # the light field's cells: several discs wide, so a disc is an outlier
CHANGED = 0.25        # log difference beyond which a pixel is taken as changed (not bare)
MIN_BARE = 0.3        # ... a cell keeps its own light level with this share of it bare
LOG_OFFSET = 8.0
OUTLINE_TURNS = 24     # the directions a disc's outline is looked for in
OUTLINE_BAND_MM = 3.0  # ... within this of the circle (the rim's shade and side, the size's doubt)
OUTLINE_GAIN = 3.0     # ... standing out this many times the change inside and round it


def to_log(image: np.ndarray) -> np.ndarray:
    return np.log(image.astype(np.float32) + np.float32(LOG_OFFSET))


def shrink(reference: np.ndarray, size: int) -> np.ndarray:
    """The kept empty board (uint8 BGR) at a top view's size."""
    if reference.shape[0] == size:
        return reference.astype(np.float32)
    return cv2.resize(reference, (size, size), interpolation=cv2.INTER_AREA).astype(np.float32)


@dataclass(frozen=True, eq=False)
class Difference:
    """A round's top view against the empty board's: per pixel the log-colour difference with
    the light field taken out (3 channels; near 0 on bare board), the light field itself (the
    log brightness change per cell, its median over the board), and how large the difference
    is (its norm over the channels)."""

    residual: np.ndarray   # (size, size, 3) float32
    light: np.ndarray      # (size, size) float32: log brightness change the light made
    size: np.ndarray       # (size, size) float32: norm of the residual
    rough: np.ndarray | None = None  # bool: where something lay on the empty board, so that
    #                                  the board's round look was compared with too (roughly)
    still: np.ndarray | None = None  # bool: of ``rough``, where the frame shows it still (see
    #                                  :func:`_still_there`)

    @functools.cached_property
    def rings_image(self) -> np.ndarray:
        """The residual in hundredths of a log unit: the picture the ring filters look for
        rims in. Made once, so that a look's filters find it the same picture (and reuse
        what they worked out on it, see :func:`vision.discs._tensor`)."""
        return self.residual * 100.0

    @functools.cached_property
    def not_seen(self) -> np.ndarray | None:
        """Where the empty board was not seen bare: something lay on it when it was taken and
        the frame no longer shows it (a hand gone); None where nothing lay on it. A shadow or a
        band of window light the room casts on the board at every round is still there, and
        there the empty board was seen after all (the fresh pair's play-385 63: a maroon 10 in
        a black board's band of light, its change weighed as nothing, was missed with nothing
        said). Made once: the unread places and their check against the print ask it."""
        if self.rough is None:
            return None
        return self.rough if self.still is None else self.rough & ~self.still

    def at(self, view: TopView, xy: np.ndarray, radius_mm: float) -> np.ndarray:
        """Per disc centre (n, 2; mm), the median residual (n, 3) over the middle of a disc of
        ``radius_mm``: what its face changed of the empty board."""
        xy = np.asarray(xy, np.float64).reshape(-1, 2)
        if len(xy) == 0:
            return np.zeros((0, 3))
        r = np.array([0.0, 0.25, 0.5]) * radius_mm
        a = np.arange(8) * (2 * math.pi / 8)
        pts = np.concatenate([[[0.0, 0.0]], (r[1:, None, None] * np.stack(
            [np.cos(a), np.sin(a)], -1)[None]).reshape(-1, 2)])
        sx = xy[:, None, 0] + pts[None, :, 0]
        sy = xy[:, None, 1] + pts[None, :, 1]
        n = self.residual.shape[0]
        col = np.clip(np.round((sx + view.extent) * view.ppm - 0.5).astype(int), 0, n - 1)
        row = np.clip(np.round((view.extent - sy) * view.ppm - 0.5).astype(int), 0, n - 1)
        return median(self.residual[row, col], axis=1)

    def outline(self, view: TopView, xy: np.ndarray, radius_mm: float, least: float
                ) -> np.ndarray:
        """Per centre (n, 2; mm), the share of its round along which the change stands out at
        a circle of ``radius_mm`` (within ``OUTLINE_BAND_MM``): ``least`` at least, and
        ``OUTLINE_GAIN`` times what changed inside it and round it. A disc the board's own
        colour changes the board by its outline alone (its rim's shade and its side); the
        board's lines, print and grain change nothing, and a light's or a shadow's edge runs
        straight across, rounding no disc-sized circle."""
        xy = np.asarray(xy, np.float64).reshape(-1, 2)
        if len(xy) == 0:
            return np.zeros(0)
        a = np.arange(OUTLINE_TURNS) * (2 * math.pi / OUTLINE_TURNS)
        way = np.stack([np.cos(a), np.sin(a)], -1)

        def sampled(radii: np.ndarray) -> np.ndarray:  # (n, turns, radii)
            sx = xy[:, None, None, 0] + way[None, :, None, 0] * radii[None, None, :]
            sy = xy[:, None, None, 1] + way[None, :, None, 1] * radii[None, None, :]
            n = self.size.shape[0]
            col = np.clip(np.round((sx + view.extent) * view.ppm - 0.5).astype(int), 0, n - 1)
            row = np.clip(np.round((view.extent - sy) * view.ppm - 0.5).astype(int), 0, n - 1)
            return self.size[row, col]

        step = 1.0 / view.ppm / 2
        rim = sampled(radius_mm + np.arange(-OUTLINE_BAND_MM, OUTLINE_BAND_MM + 1e-6, step))
        inside = sampled(radius_mm * np.array([0.2, 0.4, 0.6]))
        outside = sampled(radius_mm + OUTLINE_BAND_MM + np.array([3.0, 5.0, 7.0]))
        around = np.maximum(np.median(inside.reshape(len(xy), -1), axis=1),
                            np.median(outside.reshape(len(xy), -1), axis=1))
        floor = np.maximum(least, OUTLINE_GAIN * around)
        return np.mean(rim.max(axis=2) >= floor[:, None], axis=1)


def off_grey(res: np.ndarray) -> float:
    """How far a face's change from the empty board (one residual, 3; log colour) is from
    changing every channel alike: light and shade change them alike, a disc in its own
    colour."""
    return float(np.linalg.norm(res - res.mean()))


_LOGS: dict[int, tuple[np.ndarray, int, tuple[np.ndarray, np.ndarray | None,
                                               np.ndarray | None]]] = {}

STRAY = 0.15          # log-colour distance from the board's own look that marks a stray thing
STRAY_MM = 18.0       # ... over a patch at least this wide (lines, numerals and pegs are less)
ROUND_WINDOW = 120.0  # degrees of the board's round whose median is its own look at a radius
ROUND_STEPS = 24      # ... taken at this many turns, interpolated between


def _log_of(reference: np.ndarray, size: int, ppm: float
            ) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None]:
    """The empty board's look in logarithms at a view's size, with where something lay on the
    empty board when it was taken (a hand, a disc) and the board's own look there (see
    :func:`board_round`); kept for the next frame of the same rig (one rig's reference is
    compared with every frame it reads)."""
    key = id(reference)
    got = _LOGS.get(key)
    if got is not None and got[0] is reference and got[1] == size:
        return got[2]
    log_ref = to_log(shrink(reference, size))
    stray, own = strays(log_ref, ppm)
    out = (log_ref, stray, own)
    while len(_LOGS) >= 3:  # (a few rigs' at once, as a benchmark reads them)
        del _LOGS[next(iter(_LOGS))]
    _LOGS[key] = (reference, size, out)
    return out


def board_round(log_ref: np.ndarray) -> np.ndarray:
    """The board's own look (log colour) at every pixel of a top view: per radius, the median
    over a third of the board's round about the pixel's turn. Crokinole boards look the same all
    round a circle (lines, rings of colour, the ditch), so what stands out from it over a
    patch wider than lines or numerals is something that lay on the board."""
    n = log_ref.shape[0]
    centre = (n / 2.0, n / 2.0)
    radius = n / 2.0
    turns = 720
    polar = cv2.warpPolar(log_ref, (n // 2, turns), centre, radius,
                          cv2.WARP_POLAR_LINEAR | cv2.INTER_LINEAR)
    half = round(ROUND_WINDOW / 360.0 * turns / 2)
    at = np.arange(ROUND_STEPS) * (turns // ROUND_STEPS)
    rows = (at[:, None] + np.arange(-half, half + 1, 2)[None, :]) % turns
    medians = np.median(polar[rows], axis=1)  # (steps, radii, 3)
    wrap = np.concatenate([medians, medians[:1]], axis=0)
    full = cv2.resize(wrap, (n // 2, turns + turns // ROUND_STEPS),
                      interpolation=cv2.INTER_LINEAR)[:turns]
    # cv2.resize puts the step samples at half-cell offsets: undo by shifting half a step
    full = np.roll(full, (turns // ROUND_STEPS) // 2, axis=0)
    return cv2.warpPolar(full, (n, n), centre, radius,
                         cv2.WARP_POLAR_LINEAR | cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR)


def strays(log_ref: np.ndarray, ppm: float
           ) -> tuple[np.ndarray | None, np.ndarray | None]:
    """Where the empty board's picture shows something that is not the board (a hand over it,
    a disc left on it: a patch standing out from the board's round look, see
    :func:`board_round`), and the board's own look to compare with there; (None, None) where
    nothing does. Without this every round would show a change where the hand was."""
    n = log_ref.shape[0]
    own = board_round(log_ref)
    # (the corners beyond the round are left unset by OpenCV)
    own = np.where(np.isfinite(own) & (np.abs(own) < 16.0), own, log_ref).astype(np.float32)
    off = np.sqrt(channel_sq(log_ref - own))
    mask = (off > STRAY).astype(np.uint8)
    k = max(3, round(STRAY_MM * ppm) | 1)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN,
                            cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    if not mask.any():
        return None, None
    grow = max(3, round(8.0 * ppm) * 2 + 1)  # its blurred edge and shadow too
    mask = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (grow, grow)))
    yy, xx = np.mgrid[0:n, 0:n]
    mask[np.hypot(xx + 0.5 - n / 2, yy + 0.5 - n / 2) > n / 2 - 2] = 0  # the corners: no round
    return mask.astype(bool), own


def compare(view: TopView, reference: np.ndarray, surface_radius: float) -> Difference:
    """The round's top view against the empty board's (``reference``, uint8 BGR, any size: it
    is brought to the view's). The light field is the per-cell median of the difference's
    brightness over bare board, found twice: the second time leaving out what the first showed
    changed (discs), where enough of the cell is left."""
    n = view.image.shape[0]
    log_ref, stray, own = _log_of(reference, n, view.ppm)
    log_view = to_log(view.image)
    diff = log_view - log_ref
    still = None
    if stray is not None:  # where something lay on the empty board, the board's own look is
        # compared with too, and the nearer taken: a hand gone is bare board again, a lamp's
        # glare kept in both is no change, and a disc there differs from either
        other = log_view - own
        to_own, to_ref = channel_sq(other), channel_sq(diff)
        nearer = stray & (to_own < to_ref)
        diff[nearer] = other[nearer]
        still = stray & _still_there(stray, log_ref, own, to_ref, to_own, view.ppm)
    bright = channel_mean(diff)
    on = (view.radius < surface_radius + 40.0) & view.inside
    field = _field(bright, on, view.ppm, None)
    changed = np.abs(bright - field) > CHANGED
    field = _field(bright, on & ~changed, view.ppm, on)
    residual = diff - field[..., None]
    residual[~view.inside] = 0.0
    size = np.sqrt(channel_sq(residual))
    return Difference(residual.astype(np.float32), field.astype(np.float32),
                      size.astype(np.float32), stray, still)


STILL_SHARE = 0.8   # round a place, the share of what stood out on the empty board that the
#                     frame still shows as it was, for the empty board to count as seen there
STILL_MM = 50.0     # ... over a patch this wide (a disc and the board round it)
STILL_FIT = 4.0     # a pixel shows one look rather than the other when it is this much nearer
#                     it (squared distances): a disc differs from both, and counts for neither


def _still_there(stray: np.ndarray, log_ref: np.ndarray, own: np.ndarray, to_ref: np.ndarray,
                 to_own: np.ndarray, ppm: float) -> np.ndarray:
    """Where what stood out on the empty board is there still: a shadow or a glare band the
    room casts on the board at every round, not a hand gone since. There the empty board was
    seen after all, and a disc may be told by what it changed of it too: judged on a bare
    photo's terms alone, a worn grey disc lying across a window bar's shadow was too like the
    board round it (the fresh pair's play-375 95, missed with nothing said). Round each place,
    of the pixels where the empty board stood out from its round look, those the frame shows
    as the empty board did (much nearer it than the round look) against those it shows as
    the board's round look (a thing gone)."""
    core = stray & (channel_sq(log_ref - own) > STRAY * STRAY)
    held = (core & (STILL_FIT * to_ref < to_own)).astype(np.float32)
    gone = (core & (STILL_FIT * to_own < to_ref)).astype(np.float32)
    k = max(3, round(STILL_MM * ppm) | 1)
    held = cv2.boxFilter(held, -1, (k, k), normalize=False)
    gone = cv2.boxFilter(gone, -1, (k, k), normalize=False)
    return (held >= STILL_SHARE * (held + gone)) & (held >= 0.25 * k * k)


def _field(bright: np.ndarray, use: np.ndarray, ppm: float, fallback: np.ndarray | None
           ) -> np.ndarray:
    """The light field: per cell, the median brightness difference over the pixels in use
    (cells with too few of them take their neighbours'), smoothed back to full size."""
    n = bright.shape[0]
    cell = max(4, round(CELL_MM * ppm))
    k = -(-n // cell)
    pad = k * cell - n
    # every other pixel of each cell is plenty for its median
    b = np.pad(bright, ((0, pad), (0, pad)), constant_values=np.nan)[::2, ::2]
    u = np.pad(use, ((0, pad), (0, pad)), constant_values=False)[::2, ::2]
    c = cell // 2
    k2 = b.shape[0] // c
    b, u = b[:k2 * c, :k2 * c], u[:k2 * c, :k2 * c]
    blocks = np.where(u, b, np.inf).reshape(k2, c, k2, c).transpose(0, 2, 1, 3)
    blocks = np.sort(blocks.reshape(k2, k2, c * c), axis=2)  # the bare pixels first
    count = np.sum(np.isfinite(blocks), axis=2)
    med = np.full((k2, k2), np.nan, np.float32)
    have = count >= (MIN_BARE if fallback is not None else 0.15) * c * c
    if not have.any():
        return np.zeros_like(bright)
    rows, cols = np.nonzero(have)
    med[have] = blocks[rows, cols, (count[have] - 1) // 2]
    k = k2
    # cells without enough bare board take the mean of their neighbours that have one, the
    # nearest first
    known = np.isfinite(med)
    values = np.where(known, med, 0.0).astype(np.float32)
    weight = known.astype(np.float32)
    for _ in range(k):
        if known.all():
            break
        total = cv2.boxFilter(values, -1, (3, 3), normalize=False,
                              borderType=cv2.BORDER_CONSTANT)
        count = cv2.boxFilter(weight, -1, (3, 3), normalize=False,
                              borderType=cv2.BORDER_CONSTANT)
        grow = ~known & (count > 0)
        values = np.where(grow, total / np.maximum(count, 1e-6), values)
        weight = np.where(grow, 1.0, weight).astype(np.float32)
        known = known | grow
    med = np.where(known, values, float(values[known].mean()) if known.any() else 0.0)
    med = med.astype(np.float32)
    full = cv2.resize(med, (k * cell, k * cell), interpolation=cv2.INTER_LINEAR)
    if full.shape[0] < n:
        full = np.pad(full, ((0, n - full.shape[0]), (0, n - full.shape[1])), mode="edge")
    return full[:n, :n].astype(np.float32)


def reference_of(frame: np.ndarray, maps: ViewMaps) -> np.ndarray:
    """The empty board's look to keep: the frame resampled exactly as a round's frame will be
    (the same view, the same lookup), as 8-bit BGR, so the two differ only where the board
    does."""
    return cv2.remap(frame, maps.mapx, maps.mapy, cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))


def toward(scale: float, extent: float, new_extent: float, ppm: float,
           lens: tuple[float, float, float] | None = None, z: float = 0.0) -> np.ndarray:
    """The affine map (2 x 3, view pixel to pixel, for ``cv2.warpAffine`` with
    ``WARP_INVERSE_MAP``) from a view of a board taken ``scale`` times as large (board mm
    ``scale`` times what they were; ``new_extent``) to the view kept at ``extent``: the same
    picture. Both views are of the plane of the discs' top faces, ``z`` mm up, which the
    larger board's mm put ``scale`` times as high: with the ``lens`` centre (the larger
    board's mm) given, each view pixel is taken along the ray through it to the kept view's
    plane, so that the board's print lines up in both (else a numeral away from the point
    below the lens lands beside itself)."""
    k, bx, by = 1.0 / scale, 0.0, 0.0
    if lens is not None and lens[2] != z:
        t = (z * scale - lens[2]) / (z - lens[2])  # along the ray, from the new plane
        k, bx, by = t / scale, (1.0 - t) * lens[0] / scale, (1.0 - t) * lens[1] / scale
    # a new view pixel (c, r) sits at board x = (c + 0.5) / ppm - new_extent, y = new_extent -
    # (r + 0.5) / ppm, which the kept view shows at k x + bx, k y + by: its pixel there
    ox = k * 0.5 - k * new_extent * ppm + (bx + extent) * ppm - 0.5
    oy = k * 0.5 + (extent - k * new_extent - by) * ppm - 0.5
    return np.array([[k, 0.0, ox], [0.0, k, oy]])


def moved(image: np.ndarray, m: np.ndarray, size: int, nearest: bool = False) -> np.ndarray:
    """``image`` (a kept view's) brought to another view by :func:`toward`'s map ``m``."""
    flags = (cv2.INTER_NEAREST if nearest else cv2.INTER_LINEAR) | cv2.WARP_INVERSE_MAP
    return cv2.warpAffine(image, m, (size, size), flags=flags,
                          borderMode=cv2.BORDER_CONSTANT, borderValue=0)


def moved_difference(diff: Difference, m: np.ndarray, size: int) -> Difference:
    """A difference found in one view brought to another by :func:`toward`'s map ``m``. The
    frame is compared with the empty board where both are sampled alike (the calibration's
    view), the board's print cancelling there; the difference, near nothing on bare board,
    is then what is resampled, not the print."""
    # (each pixel takes the nearest one's: interpolating would smooth the frame's noise,
    # which says how much change is enough to be a disc's)
    rough = (None if diff.rough is None else
             moved(diff.rough.astype(np.uint8), m, size, nearest=True).astype(bool))
    still = (None if diff.still is None else
             moved(diff.still.astype(np.uint8), m, size, nearest=True).astype(bool))
    return Difference(moved(diff.residual, m, size, nearest=True), moved(diff.light, m, size),
                      moved(diff.size, m, size, nearest=True), rough, still)
