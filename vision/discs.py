"""Finding the discs: where in the frame a circle of a disc's size shows.

The frame is resampled onto the plane of the discs' top faces (9.5 mm above the surface), where
every top face is a circle of the disc's radius. A ring filter over the colour gradients'
structure tensor scores, for every point and every sector of the circle of that radius around
it, how much edge energy runs across the circle (as a rim's does) rather than along it (as grain,
lines and numerals mostly do). A rim shows all round, so a point is ranked by its weaker sectors;
the local maxima are the candidates. Colour gradients (not grey) keep a red disc on cherry wood as
visible as a black one on maple.

Each candidate's rim is then measured on the full frame by :mod:`vision.rims`.
"""

from __future__ import annotations

import functools
import logging
import math
from dataclasses import dataclass

import cv2
import numpy as np

from rules.board import Board
from vision.projection import CameraModel

log = logging.getLogger(__name__)

PX_PER_MM = 0.5          # the top-face view's resolution: a disc is 16 pixels across
BURNT = 250.0            # a colour this light in every channel (RGB) is burnt out to white


@dataclass(frozen=True, eq=False)
class TopView:
    """The frame resampled onto the horizontal plane at ``z`` mm: pixel (col, row) of the view
    is board (x, y) = ((col + 0.5) / ppm - extent, extent - (row + 0.5) / ppm)."""

    image: np.ndarray     # float32 BGR
    z: float
    ppm: float
    extent: float
    seen: np.ndarray | None = None  # bool: the pixel comes from inside the frame

    @functools.cached_property
    def radius(self) -> np.ndarray:
        """Every pixel's distance (mm) from the board's centre (shared: not to be written to)."""
        return _geometry(self.image.shape[0], self.ppm, self.extent)[2]

    @functools.cached_property
    def inside(self) -> np.ndarray:
        """Which pixels the frame shows (all, if not known)."""
        if self.seen is None:
            return np.ones(self.image.shape[:2], bool)
        return self.seen

    def to_board(self, col: np.ndarray, row: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return (col + 0.5) / self.ppm - self.extent, self.extent - (row + 0.5) / self.ppm

    def to_view(self, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The view's (col, row), to a fraction of a pixel, of board points (mm)."""
        return (x + self.extent) * self.ppm - 0.5, (self.extent - y) * self.ppm - 0.5

    @functools.cached_property
    def burnt(self) -> np.ndarray:
        """Which pixels are burnt out to white in every channel (shared: not to be written
        to): a reading asks for the burnt share of the surface and for burnt patches both."""
        return (self.image >= BURNT).all(axis=2)

    @functools.cached_property
    def grid(self) -> tuple[np.ndarray, np.ndarray]:
        """Board x and y (mm) of every pixel: made once per view's size, for all that looks by
        place (shared: not to be written to)."""
        xx, yy, _ = _geometry(self.image.shape[0], self.ppm, self.extent)
        return xx, yy

    @functools.cached_property
    def tensors(self) -> dict[tuple[int, int], tuple[np.ndarray, Board, tuple[np.ndarray, ...]]]:
        """The structure tensors worked out on this view so far (see :func:`_tensor`): a look
        asks for the same picture's more than once (its rims, then the discs' size)."""
        return {}

    def disc_mask(self, discs: np.ndarray, radius_mm: float) -> np.ndarray:
        """1 on the view's pixels within ``radius_mm`` of a disc's centre (n, 2; mm), else 0."""
        mask = np.zeros(self.image.shape[:2], np.uint8)
        for x, y in discs:
            cv2.circle(mask, (round((x + self.extent) * self.ppm - 0.5),
                              round((self.extent - y) * self.ppm - 0.5)),
                       round(radius_mm * self.ppm), 1, -1)
        return mask


@functools.lru_cache(maxsize=8)
def _geometry(size: int, ppm: float, extent: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Board x, y and distance from the centre (mm) of every pixel of a top view of this size:
    the same for every frame a rig's view is made of, so made once (read-only arrays)."""
    coord = (np.arange(size) + 0.5) / ppm - extent
    xx, yy = np.meshgrid(coord, -coord)
    rr = np.sqrt(xx * xx + yy * yy)
    for a in (xx, yy, rr):
        a.flags.writeable = False
    return xx, yy, rr


@functools.lru_cache(maxsize=8)
def _thin_radius(size: int, ppm: float, extent: float) -> np.ndarray:
    """Every other pixel's (both ways) distance from the centre, as ``np.hypot`` gives it."""
    xx, yy, _ = _geometry(size, ppm, extent)
    out = np.hypot(xx[::2, ::2], yy[::2, ::2])
    out.flags.writeable = False
    return out


@dataclass(frozen=True, eq=False)
class ViewMaps:
    """Where each pixel of a top view comes from in the frame: computed once per camera (a
    calibration keeps them)."""

    mapx: np.ndarray
    mapy: np.ndarray
    z: float
    ppm: float
    extent: float


def view_maps(camera: CameraModel, board: Board, z: float, ppm: float = PX_PER_MM) -> ViewMaps:
    """The frame-pixel lookup of a top view covering the ditch. Rays are projected exactly on a
    grid every 8 view pixels and interpolated between (the mapping is smooth)."""
    extent = board.ditch_radius + 8.0
    size = math.ceil(2 * extent * ppm)
    extent = size / (2 * ppm)
    step = 8
    n = -(-size // step) + 2
    # grid sample k sits at view pixel (k - 0.5) * step - 0.5, one beyond each edge, which is
    # where cv2.resize's linear interpolation puts it; view pixel j is then resized pixel j + step
    k = np.arange(n, dtype=np.float64)
    c = ((k - 0.5) * step - 0.5 + 0.5) / ppm - extent
    xx, yy = np.meshgrid(c, -c)
    uv = camera.project_plane(np.stack([xx, yy], -1), z).astype(np.float32)
    full = cv2.resize(uv, (n * step, n * step), interpolation=cv2.INTER_LINEAR)
    full = full[step:step + size, step:step + size]
    return ViewMaps(np.ascontiguousarray(full[..., 0]), np.ascontiguousarray(full[..., 1]), z,
                    ppm, extent)


def top_view(frame: np.ndarray, maps: ViewMaps) -> TopView:
    img = cv2.remap(frame, maps.mapx, maps.mapy, cv2.INTER_LINEAR,
                    borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
    h, w = frame.shape[:2]
    seen = (maps.mapx >= 0) & (maps.mapx <= w - 1) & (maps.mapy >= 0) & (maps.mapy <= h - 1)
    return TopView(img.astype(np.float32), maps.z, maps.ppm, maps.extent, seen)


@dataclass(frozen=True)
class Candidate:
    x_mm: float
    y_mm: float
    score: float        # the ring's mean radial edge energy over the board's typical
    energy: float       # ... of its weakest sectors: the strength it is ranked by


SECTORS = 12
MAX_CANDIDATES = 120  # the strongest kept: more than any board holds discs
_WEAK_SECTORS = 3    # a rim may be hidden or spoilt over this many sectors (neighbours, lines)


def _sector_kernels(radius_px: float) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per sector of the ring: kernels picking the doubled-angle components of the edges on
    the ring of ``radius_px``, so that a rim's edges (across the ring) add up positive and
    edges along it (a line the ring touches) negative."""
    r = math.ceil(radius_px + 2)
    y, x = np.mgrid[-r:r + 1, -r:r + 1].astype(np.float32)
    rho = np.hypot(x, y)
    ring = np.clip(1.0 - np.abs(rho - radius_px) / 1.2, 0.0, None)
    phi = np.arctan2(y, x)
    sector = np.floor((phi % (2 * np.pi)) / (2 * np.pi / SECTORS)).astype(int)
    out = []
    for k in range(SECTORS):
        w = ring * (sector == k)
        w /= w.sum()
        out.append(((w * np.cos(2 * phi)).astype(np.float32),
                    (w * np.sin(2 * phi)).astype(np.float32)))
    return out


@functools.lru_cache(maxsize=2)
def _kernel_spectra(radius_px: float, rows: int, cols: int) -> tuple[np.ndarray, ...]:
    """The sector kernels' spectra (complex: cos + i sin of the doubled angle), conjugated for
    correlation, on a DFT grid of rows x cols."""
    out = []
    for kc, ks in _sector_kernels(radius_px):
        h = kc.shape[0] // 2
        pad = np.zeros((rows, cols, 2), np.float32)
        pad[:kc.shape[0], :kc.shape[1], 0] = kc
        pad[:kc.shape[0], :kc.shape[1], 1] = ks
        pad = np.roll(pad, (-h, -h), axis=(0, 1))  # the kernel's centre at the origin
        spec = cv2.dft(pad, flags=cv2.DFT_COMPLEX_OUTPUT)
        spec[..., 1] *= -1.0
        out.append(spec)
    return tuple(out)


@functools.lru_cache(maxsize=16)
def _ring_spectrum(radius_px: float, rows: int, cols: int) -> np.ndarray:
    """The whole ring's kernel spectrum (the sectors' mean), conjugated for correlation."""
    kernels = _sector_kernels(radius_px)
    kc = sum(k[0] for k in kernels) / SECTORS
    ks = sum(k[1] for k in kernels) / SECTORS
    h = kc.shape[0] // 2
    pad = np.zeros((rows, cols, 2), np.float32)
    pad[:kc.shape[0], :kc.shape[1], 0] = kc
    pad[:kc.shape[0], :kc.shape[1], 1] = ks
    pad = np.roll(pad, (-h, -h), axis=(0, 1))
    spec = cv2.dft(pad, flags=cv2.DFT_COMPLEX_OUTPUT)
    spec[..., 1] *= -1.0
    return spec


# how much larger (or smaller) than the board's scale says discs may look: the board is
# measured with its outer line at the tournament radius, and boards run from 20 to 32 inches
SCALES = (0.78, 0.81, 0.84, 0.87, 0.9, 0.93, 0.96, 1.0, 1.04, 1.08, 1.12, 1.17, 1.22, 1.28,
          1.34)
SCALE_GAIN = 1.3   # another size's rings must stand this much above the expected size's
SCALE_PEAKS = 8    # the strongest rings weighed
SCALE_FLOOR = 2.0  # ... above this (in the board's typical edge energy)


def disc_scale(view: TopView, board: Board, at: np.ndarray | None = None,
               image: np.ndarray | None = None, larger_gain: float | None = None) -> float:
    """How much larger than ``board``'s scale says the discs look (1: as it says): the ring
    size at which the view's strongest rings, on the playing surface, stand out most, if
    clearly more than at the expected size. A board read from scratch is measured with its
    outer line at the tournament radius; a smaller board's discs then look larger.

    ``at``: board points (n, 2 mm) of discs read; the size is then the one at which the rings
    there stand out most together (a disc or two, too few to outweigh the board's own rings
    over the whole surface, still say their size). ``image``: what to look for rings in
    instead of the view (its difference from the empty board, where the board's own pegs,
    print and grain, which ring at every size, are gone). ``larger_gain``: see
    :func:`scale_said`."""
    return scale_said(ring_scores(view, board, at, image), larger_gain)


def scale_said(scores: tuple[float, ...], larger_gain: float | None = None) -> float:
    """The size (one of ``SCALES``) rings scored per size (:func:`ring_scores`) say the discs
    are: the best, if clearly above the expected size's; 1 otherwise. ``larger_gain``: how far
    above the expected size's the best larger size's rings must stand for it to be said
    first, if at all (in the difference from the empty board a disc's edge rings broadly, and
    most of all at the smallest sizes)."""
    if not scores:
        return 1.0
    best = int(np.argmax(scores))
    at_one = scores[SCALES.index(1.0)]
    if larger_gain is not None:
        larger = max((i for i, k in enumerate(SCALES) if k > 1.0), key=lambda i: scores[i])
        if scores[larger] > larger_gain * at_one + 1.0:
            return SCALES[larger]
    if SCALES[best] != 1.0 and scores[best] > SCALE_GAIN * at_one + 1.0:
        return SCALES[best]
    return 1.0


def ring_scores(view: TopView, board: Board, at: np.ndarray | None = None,
                image: np.ndarray | None = None) -> tuple[float, ...]:
    """How strongly rings of each size in ``SCALES`` stand out on the playing surface (or at
    ``at``; see :func:`disc_scale`); empty when ``at`` falls outside the view."""
    a, b, _ = _tensor(view.image if image is None else image, view, board)
    h, w = a.shape
    on = (view.radius < board.outer_radius) & (view.radius > board.hole_diameter / 2 + 4.0)
    r_max = math.ceil(board.disc_radius * view.ppm * max(SCALES) + 2)
    rows, cols = cv2.getOptimalDFTSize(h + r_max), cv2.getOptimalDFTSize(w + r_max)
    z = np.zeros((rows, cols, 2), np.float32)
    z[:h, :w, 0] = a
    z[:h, :w, 1] = b
    fz = cv2.dft(z, flags=cv2.DFT_COMPLEX_OUTPUT)
    box = _box(on)
    cells: list[tuple[int, int]] = []
    if at is not None:
        for x, y in np.asarray(at, np.float64).reshape(-1, 2):
            c = int((x + view.extent) * view.ppm)
            r = int((view.extent - y) * view.ppm)
            if 0 <= r < h and 0 <= c < w:
                cells.append((r, c))
        if not cells:
            return ()
    scores = []
    for k in SCALES:
        radius = board.disc_radius * view.ppm * k
        resp = cv2.idft(cv2.mulSpectrums(fz, _ring_spectrum(round(radius, 2), rows, cols), 0),
                        flags=cv2.DFT_SCALE)[:h, :w, 0]
        span = int(2 * round(0.55 * radius) + 1)
        element = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (span, span))
        if at is not None:  # (the dilation's maximum at those cells only)
            scores.append(float(sum(_dilated_at(resp, element, r, c) for r, c in cells)))
            continue
        scores.append(_peak_score(resp, element, on, box))
    return tuple(scores)


def _box(mask: np.ndarray) -> tuple[int, int, int, int] | None:
    """The rows and columns (first, last + 1) a mask's pixels lie within; None if it has none."""
    rows, cols = np.flatnonzero(mask.any(axis=1)), np.flatnonzero(mask.any(axis=0))
    if not len(rows):
        return None
    return int(rows[0]), int(rows[-1]) + 1, int(cols[0]), int(cols[-1]) + 1


def _peak_score(resp: np.ndarray, element: np.ndarray, on: np.ndarray,
                box: tuple[int, int, int, int] | None) -> float:
    """How strongly the ring response's strongest local maxima stand on ``on``: the sum of
    the SCALE_PEAKS highest, in descending order, above SCALE_FLOOR. The maxima are found by
    dilating only ``on``'s bounding ``box`` and as much round it as the element reaches (its
    pixels see all they would in the whole), and the highest picked by a partition: the same
    values, added in the same order, as sorting all of them."""
    if box is None:
        return 0.0
    half = element.shape[0] // 2
    h, w = resp.shape
    r0, r1, c0, c1 = box
    a0, a1, b0, b1 = max(0, r0 - half), min(h, r1 + half), max(0, c0 - half), min(w, c1 + half)
    local = cv2.dilate(np.ascontiguousarray(resp[a0:a1, b0:b1]), element)
    part, mask = resp[r0:r1, c0:c1], on[r0:r1, c0:c1]
    found = part[(part >= local[r0 - a0:r1 - a0, c0 - b0:c1 - b0]) & mask & (part > SCALE_FLOOR)]
    if len(found) > SCALE_PEAKS:
        found = np.partition(found, len(found) - SCALE_PEAKS)[len(found) - SCALE_PEAKS:]
    peaks = np.sort(found)[::-1]
    return float(np.sum(peaks - SCALE_FLOOR))


def _dilated_at(image: np.ndarray, element: np.ndarray, row: int, col: int) -> np.floating:
    """``cv2.dilate(image, element)[row, col]`` (its default anchor and border: the element
    centred, pixels beyond the edge left out), for one pixel without dilating the whole."""
    h = element.shape[0] // 2
    r0, c0 = max(0, row - h), max(0, col - h)
    part = image[r0:row + h + 1, c0:col + h + 1]
    mask = element[r0 - (row - h):r0 - (row - h) + part.shape[0],
                   c0 - (col - h):c0 - (col - h) + part.shape[1]]
    return part[mask.astype(bool)].max()


def _sector_responses(a: np.ndarray, b: np.ndarray, radius_px: float) -> np.ndarray:
    """Per sector, the correlation of (a, b) with the sector's (cos, sin) kernels, summed:
    the real part of one complex correlation of a + ib, done through the DFT (one forward
    transform, one inverse per sector)."""
    h, w = a.shape
    r = math.ceil(radius_px + 2)
    rows, cols = cv2.getOptimalDFTSize(h + r), cv2.getOptimalDFTSize(w + r)
    z = np.zeros((rows, cols, 2), np.float32)
    z[:h, :w, 0] = a
    z[:h, :w, 1] = b
    fz = cv2.dft(z, flags=cv2.DFT_COMPLEX_OUTPUT)
    out = np.empty((SECTORS, h, w), np.float32)
    for k, spec in enumerate(_kernel_spectra(radius_px, rows, cols)):
        prod = cv2.mulSpectrums(fz, spec, 0)
        out[k] = cv2.idft(prod, flags=cv2.DFT_SCALE)[:h, :w, 0]
    return out


def _tensor(img: np.ndarray, view: TopView, board: Board
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The doubled-angle structure tensor (a, b) of an image's colour gradients, over the
    typical edge energy where each pixel lies (the surface's and, apart, the ditch's: often a
    rougher cloth or wood; a rim must stand out from what is around it).
    Worked out once per picture, view and board (the arrays returned are shared: not to be
    written to)."""
    key = (id(img), id(board))
    got = view.tensors.get(key)
    if got is not None and got[0] is img and got[1] is board:
        return got[2]
    out = _tensor_of(img, view, board)
    view.tensors[key] = (img, board, out)
    return out


def _tensor_of(img: np.ndarray, view: TopView, board: Board
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_tensor`, worked out."""
    img = cv2.GaussianBlur(img, (0, 0), 0.7)
    jxx = jyy = jxy = None
    for channel in (cv2.split(img) if img.ndim == 3 else (img,)):
        gx = cv2.Sobel(channel, cv2.CV_32F, 1, 0, ksize=3)
        gy = cv2.Sobel(channel, cv2.CV_32F, 0, 1, ksize=3)
        if jxx is None:
            jxx, jyy, jxy = gx * gx, gy * gy, gx * gy
        else:
            jxx += gx * gx
            jyy += gy * gy
            jxy += gx * gy
    rr = view.radius
    energy = jxx + jyy
    surface = (rr < board.surface_radius - 3.0) & view.inside
    ditch = (rr > board.surface_radius + 3.0) & (rr < board.ditch_radius - 3.0) & view.inside
    # (every other pixel of each: plenty for a median)
    thin = np.zeros_like(surface)
    thin[::2, ::2] = True
    typical = np.where(rr < board.surface_radius,
                       float(np.median(energy[surface & thin])) + 1.0,
                       float(np.median(energy[ditch & thin])) + 1.0 if ditch.any() else 1.0)
    typical = typical.astype(np.float32)
    return (jxx - jyy) / typical, 2 * jxy / typical, typical


MIN_STRENGTH = 4.0  # how far a candidate's ring stands above the board's typical edge energy


def candidates(view: TopView, board: Board, *, min_strength: float = MIN_STRENGTH,
               also: np.ndarray | None = None, dim: float | None = None) -> list[Candidate]:
    """Points of the top view circled by a rim of the disc's size (module docstring).

    A point's strength is the radial edge energy of its ring's weakest sectors (all but the
    few weakest), over the board's typical edge energy: a rim shows all round, while a line
    the ring touches, a numeral or a plank's edge fills a sector or two at most; a candidate's
    ring stands above ``min_strength`` in its mean and its weakest sectors. ``also``: another
    picture of the board to look for rims in at once, on the playing surface (its difference
    from the empty board, where the board's own lines and print are gone). ``dim``: a lower
    strength, down to which dimmer rings are listed too, after the candidates (the same ones
    as without it), each a local maximum of the strength that is not a candidate."""
    a, b, _ = _tensor(view.image, view, board)
    rr = view.radius
    if also is not None:
        a2, b2, _ = _tensor(also, view, board)
        on = (rr < board.surface_radius - board.disc_radius / 2).astype(np.float32)
        a, b = a + a2 * on, b + b2 * on
    sectors = _sector_responses(a, b, board.disc_radius * view.ppm)
    # the weak sectors' strength is only needed where a candidate can be: where no sector is
    # below the least strength, and the ring's mean is a local maximum
    score = sectors.mean(axis=0)
    on_board = (rr < board.ditch_radius - board.disc_radius + 3.0) & (
        rr > board.hole_diameter / 2 - 4.0) & wholly_seen(view, board.disc_radius + 2.0)
    span = int(2 * round(0.55 * board.disc_radius * view.ppm) + 1)
    element = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (span, span))
    floor = min_strength if dim is None else min(dim, min_strength)
    rows, cols = np.nonzero((score > floor) & on_board)
    # (each point's sectors along a contiguous row: the same order statistic)
    weak = np.partition(np.ascontiguousarray(sectors[:, rows, cols].T), _WEAK_SECTORS,
                        axis=1)[:, _WEAK_SECTORS]
    full = np.zeros_like(score)
    full[rows, cols] = weak
    strength = np.where(score > min_strength, full, 0.0)  # (with ``dim``: the candidates'
    #                                                         own, as without it)
    keep = (strength >= cv2.dilate(strength, element)) & (strength > min_strength)
    found = _ranked(view, score, strength, keep)
    if dim is not None:
        found += _ranked(view, score, full, (full >= cv2.dilate(full, element))
                         & (full > dim) & ~keep)
    return found


def _ranked(view: TopView, score: np.ndarray, strength: np.ndarray, keep: np.ndarray
            ) -> list[Candidate]:
    """The points ``keep`` marks, strongest first, MAX_CANDIDATES at most."""
    rows, cols = np.nonzero(keep)
    top = np.argsort(-strength[rows, cols], kind="stable")[:MAX_CANDIDATES]
    rows, cols = rows[top], cols[top]
    xs, ys = view.to_board(cols.astype(np.float64), rows.astype(np.float64))
    return [Candidate(float(x), float(y), float(score[r, c]), float(strength[r, c]))
            for x, y, r, c in zip(xs, ys, rows, cols, strict=True)]


def wholly_seen(view: TopView, radius_mm: float) -> np.ndarray:
    """Where a disc of ``radius_mm`` lies wholly inside the frame: one cut by the frame's edge
    cannot be read (the reading says part of the board is out of view instead)."""
    if view.seen is None or view.seen.all():
        return np.ones(view.image.shape[:2], bool)
    size = 2 * round(radius_mm * view.ppm) + 1
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    return cv2.erode(view.seen.astype(np.uint8), kernel, borderValue=0).astype(bool)


def board_light(view: TopView, discs: np.ndarray, board: Board, cell_mm: float = 40.0
                ) -> np.ndarray:
    """The playing surface's colour as lit, near each disc (n, 3; BGR): a coarse mean of the
    top view over the bare surface (discs masked), so a disc's colour can be taken relative to
    the light falling where it lies. Discs in the ditch get the surface's colour nearest them."""
    if len(discs) == 0:
        return np.zeros((0, 3))
    img = view.image
    size = img.shape[0]
    mask = view.disc_mask(discs, board.disc_radius + 6.0)
    bare = (view.radius < board.surface_radius - 8.0) & (mask == 0) & view.inside
    cell = max(2, round(cell_mm * view.ppm))
    n = -(-size // cell)
    pad = n * cell - size
    m = np.pad(bare.astype(np.float32), ((0, pad), (0, pad)))
    v = np.zeros((n * cell, n * cell, 3), np.result_type(img, bare))
    np.multiply(img, bare[..., None], out=v[:size, :size])
    count = m.reshape(n, cell, n, cell).sum(axis=(1, 3))
    # (each cell's pixels as rows, added one after another in the order numpy's sum over the
    # cell's two axes takes them, row by row: the same totals, in whole-row additions)
    total = np.add.reduce(v.reshape(n, cell, n, cell, 3).transpose(1, 3, 0, 2, 4)
                          .reshape(cell * cell, n * n * 3), axis=0).reshape(n, n, 3)
    grid = np.where(count[..., None] > cell * cell / 8, total / np.maximum(count, 1)[..., None],
                    np.nan)
    have = ~np.isnan(grid[..., 0])
    if not have.any():
        return np.full((len(discs), 3), float(np.median(img[bare]) if bare.any() else 128.0))
    ci, cj = np.nonzero(have)
    out = []
    for x, y in discs:
        r = math.hypot(x, y)
        if r > board.surface_radius - 30.0:  # pull ditch and edge discs onto the surface
            x, y = x * (board.surface_radius - 30.0) / r, y * (board.surface_radius - 30.0) / r
        col = (x + view.extent) * view.ppm / cell - 0.5
        row = (view.extent - y) * view.ppm / cell - 0.5
        d2 = (ci - row) ** 2 + (cj - col) ** 2
        near = np.argsort(d2)[:4]
        w = 1.0 / (np.sqrt(d2[near]) + 0.5)
        out.append((grid[ci[near], cj[near]] * w[:, None]).sum(axis=0) / w.sum())
    return np.array(out)


def ditch_colour(view: TopView, discs: np.ndarray, board: Board, sectors: int = 24
                 ) -> np.ndarray:
    """The ditch floor's colour as lit, at each disc's angle (n, 3; BGR): the median over a
    sector of the ditch, discs masked (every other pixel of it: plenty for a median)."""
    if len(discs) == 0:
        return np.zeros((0, 3))
    img = view.image[::2, ::2]
    xx, yy = (g[::2, ::2] for g in view.grid)
    rr = _thin_radius(view.image.shape[0], view.ppm, view.extent)
    mask = view.disc_mask(discs, board.disc_radius + 4.0)[::2, ::2]
    ring = ((rr > board.surface_radius + 6.0) & (rr < board.ditch_radius - 6.0) & (mask == 0)
            & view.inside[::2, ::2])
    sector = (np.arctan2(yy[ring], xx[ring]) % (2 * np.pi) * sectors / (2 * np.pi)).astype(int)
    sector %= sectors
    pixels = img[ring]
    med = _sector_medians(pixels, sector, sectors)
    have = ~np.isnan(med[:, 0])
    if not have.any():
        return np.full((len(discs), 3), 128.0)
    idx = np.flatnonzero(have)
    out = []
    for x, y in discs:
        k = int(math.atan2(y, x) % (2 * np.pi) * sectors / (2 * np.pi)) % sectors
        gap = np.minimum(np.abs(idx - k), sectors - np.abs(idx - k))
        out.append(med[idx[np.argmin(gap)]])
    return np.array(out)


def _sector_medians(pixels: np.ndarray, sector: np.ndarray, sectors: int) -> np.ndarray:
    """Per sector (sectors, 3), the median colour of its pixels (n, 3; NaN for a sector of
    two or fewer): each channel sorted within the sectors at once and its middle value (or
    the two middle values' mean, in the pixels' own precision) picked, the same numbers
    ``np.median`` gives each sector's pixels."""
    med = np.full((sectors, 3), np.nan)
    if not len(pixels) or np.isnan(pixels).any():  # (numpy's own answer for NaNs)
        for k in range(sectors):
            part = pixels[sector == k]
            if len(part) > 2:
                med[k] = np.median(part, axis=0)
        return med
    count = np.bincount(sector, minlength=sectors)[:sectors]
    start = np.concatenate([[0], np.cumsum(count)[:-1]])
    has = np.flatnonzero(count > 2)
    lo = start[has] + (count[has] - 1) // 2
    hi = start[has] + count[has] // 2
    odd = (count[has] % 2) == 1
    two = pixels.dtype.type(2)
    for c in range(pixels.shape[1]):
        v = pixels[np.lexsort((pixels[:, c], sector)), c]
        med[has, c] = np.where(odd, v[lo], (v[lo] + v[hi]) / two)
    return med


def surround_colour(view: TopView, discs: np.ndarray, board: Board, *, inner_mm: float = 3.0,
                    outer_mm: float = 9.0) -> tuple[np.ndarray, np.ndarray]:
    """The colour just around each disc (n, 3; BGR; NaN where too little of it is bare), and
    the ring's lighter quarter (its upper quartile, per channel).

    Taken over a ring a few mm outside the rim, other discs, the hole and the surface's edge
    masked: what a disc's face must differ from. Where discs touch in a cluster, the gap between
    them is ringed by rims too; its "face" is the board's own colour, lit, as is the bare board
    beside it where the discs' contact shadows do not fall, while a coarse average over the
    neighbourhood (print, lines, other discs) can differ from both."""
    discs = np.asarray(discs, np.float64).reshape(-1, 2)
    n = len(discs)
    out = np.full((n, 3), np.nan)
    lit = np.full((n, 3), np.nan)
    if n == 0:
        return out, lit
    ang = (np.arange(36) + 0.5) * (2 * np.pi / 36)
    rad = np.linspace(board.disc_radius + inner_mm, board.disc_radius + outer_mm, 3)
    ux, uy = (np.cos(ang)[:, None] * rad).ravel(), (np.sin(ang)[:, None] * rad).ravel()
    sx, sy = discs[:, 0, None] + ux[None], discs[:, 1, None] + uy[None]   # (n, samples)
    size = view.image.shape[0]
    col = np.round((sx + view.extent) * view.ppm - 0.5).astype(int)
    row = np.round((view.extent - sy) * view.ppm - 0.5).astype(int)
    covered = view.disc_mask(discs, board.disc_radius + 1.5)  # out to just beyond each rim
    inside = (col >= 0) & (col < size) & (row >= 0) & (row < size)
    col, row = np.clip(col, 0, size - 1), np.clip(row, 0, size - 1)
    keep = inside & (covered[row, col] == 0) & view.inside[row, col]
    ditch = np.hypot(discs[:, 0], discs[:, 1]) > board.surface_radius
    sr = np.hypot(sx, sy)
    keep &= np.where(ditch[:, None], (sr > board.surface_radius + 3.0)
                     & (sr < board.ditch_radius - 2.0),
                     (sr < board.surface_radius - 2.0) & (sr > board.hole_diameter / 2 + 2.0))
    colours = view.image[row, col]
    colours = np.sort(np.where(keep[..., None], colours, np.inf), axis=1)  # kept ones first
    count = keep.sum(axis=1)
    enough = count >= 12
    rows = np.flatnonzero(enough)
    out[enough] = colours[rows, (count[enough] - 1) // 2]  # their median
    lit[enough] = colours[rows, 3 * (count[enough] - 1) // 4]  # and upper quartile
    return out, lit
