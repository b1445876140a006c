"""The board's circles in a frame, and the camera that puts them there.

Every board has the same circles at known radii: the three painted scoring lines and the edge of
the playing surface. Given a camera guess, each circle is searched for along short radial profiles
(a thin painted line is found by the centre of its ink, the surface's edge by its steepest step),
and the camera (pose, focal length, lens centre and distortion) is then fitted so that every point
found lies on its circle. Repeating this with narrower profiles pulls a rough guess onto the board
to a fraction of a pixel. Pegs, numerals, discs and quadrant lines spoil some profiles; those
points are dropped by their poor contrast or down-weighted by the robust fit.
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from rules.board import Board
from vision.arrays import nanmedian_rows
from vision.fit import least_squares
from vision.projection import CameraModel, plane_maps

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Circle:
    """A circle of the board the fit holds the camera to."""

    name: str
    radius: float
    kind: str        # "line" (painted, found by its ink) or "edge" (found by its step)
    samples: int     # profiles taken around it


def circles(board: Board) -> tuple[Circle, ...]:
    return (Circle("15 line", board.fifteen_radius, "line", 180),
            Circle("10 line", board.ten_radius, "line", 270),
            Circle("outer line", board.outer_radius, "line", 360),
            Circle("surface edge", board.surface_radius, "edge", 360))


@dataclass(frozen=True)
class RingPoints:
    """Points found on the board's circles: their pixels, and the radius each must lie at."""

    pixels: np.ndarray    # (n, 2)
    radius: np.ndarray    # (n,)
    circle: np.ndarray    # (n,) index into circles()
    strength: np.ndarray  # (n,) contrast of the find, in grey levels
    steady: np.ndarray    # (n,) bool: agrees with its neighbours along the circle

    def __len__(self) -> int:
        return len(self.radius)


def _profiles(grey: np.ndarray, camera: CameraModel, radius: float, n: int, half_mm: float,
              step_mm: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Grey-level profiles (n, m) across a circle, the offsets (m,) from it in mm, and the
    angles (n,). Samples outside the frame are NaN."""
    theta = (np.arange(n) + 0.5) * (2 * np.pi / n)
    offsets = np.arange(-half_mm, half_mm + step_mm / 2, step_mm)
    rr = radius + offsets
    mapx, mapy = plane_maps(camera, ("across", radius, n, half_mm, step_mm), lambda: np.stack(
        [np.cos(theta)[:, None] * rr[None], np.sin(theta)[:, None] * rr[None]], -1))
    prof = cv2.remap(grey, mapx, mapy, cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_CONSTANT, borderValue=float("nan"))
    return prof, offsets, theta


def _smooth(prof: np.ndarray, width: int) -> np.ndarray:
    if width < 2:
        return prof
    k = np.ones(width, np.float32) / width
    return cv2.filter2D(prof, -1, k[None, :], borderType=cv2.BORDER_REPLICATE)


def _find_line(prof: np.ndarray, offsets: np.ndarray, step: float, polarity: float,
               line_width: float) -> tuple[np.ndarray, np.ndarray]:
    """Per profile: the offset of the line's ink centre (NaN if none) and its contrast.

    A line is a thin ridge: darker (or lighter) than the board on both sides. Asking for both
    sides keeps the search off steps such as the surface's edge or a disc's rim."""
    n, m = prof.shape
    level = float(np.nanmedian(prof)) if np.isfinite(prof).any() else 0.0
    filled = np.where(np.isnan(prof), level, prof).astype(np.float32)
    sm = _smooth(filled, max(1, round(line_width / step)))
    a = max(2, round(1.6 * line_width / step))
    left = np.full_like(sm, np.nan)
    right = np.full_like(sm, np.nan)
    left[:, a:] = sm[:, :-a]
    right[:, :-a] = sm[:, a:]
    ridge = np.fmin(polarity * (sm - left), polarity * (sm - right))
    ridge[np.isnan(prof)] = np.nan
    ridge = np.nan_to_num(ridge, nan=-1e3)
    j = np.argmax(ridge, axis=1)
    rows = np.arange(n)
    peak = ridge[rows, j]
    half = max(2, round(1.2 * line_width / step))
    idx = np.arange(m)
    near = np.abs(idx[None] - j[:, None])
    win = near <= half
    lo = np.clip(j - a, 0, m - 1)
    hi = np.clip(j + a, 0, m - 1)
    bg = 0.5 * (filled[rows, lo] + filled[rows, hi])
    w = np.clip(polarity * (filled - bg[:, None]), 0.0, None) * win
    total = w.sum(axis=1)
    with np.errstate(all="ignore"):
        centre = (w * offsets[None]).sum(axis=1) / total
    bad = (j < a) | (j >= m - a) | ~np.isfinite(centre) | (peak <= 0)
    centre[bad] = np.nan
    return centre, np.where(bad, 0.0, peak)


def _find_edge(prof: np.ndarray, offsets: np.ndarray, step: float,
               polarity: float) -> tuple[np.ndarray, np.ndarray]:
    """Per profile: the offset of the steepest step of the given polarity, and its height."""
    n, m = prof.shape
    d = np.gradient(np.nan_to_num(prof, nan=0.0), axis=1) * polarity
    d[np.isnan(prof)] = -1e3
    d = _smooth(d.astype(np.float32), max(1, round(0.8 / step)))
    j = np.clip(np.argmax(d, axis=1), 1, m - 2)
    rows = np.arange(n)
    a, b, c = d[rows, j - 1], d[rows, j], d[rows, j + 1]
    den = a - 2 * b + c
    with np.errstate(all="ignore"):
        frac = np.where(den < 0, 0.5 * (a - c) / den, 0.0)
    centre = offsets[j] + np.clip(frac, -1, 1) * step
    height = b * 4 * step  # gradient per sample times a few samples: roughly the step's height
    bad = (j < 3) | (j >= m - 3) | (b <= 0)
    centre[bad] = np.nan
    return centre, np.where(bad, 0.0, height)


def profiles_across(grey: np.ndarray, camera: CameraModel, radius: float, n: int,
                    half_mm: float, step_mm: float) -> tuple[np.ndarray, np.ndarray]:
    """Grey levels (n, m) on ``n`` rays across the circle of ``radius``, within ``half_mm``
    of it, and the offsets (m,) from it in mm; NaN outside the frame."""
    prof, offsets, _ = _profiles(grey, camera, radius, n, half_mm, step_mm)
    return prof, offsets


def find_points(grey: np.ndarray, camera: CameraModel, board: Board, half_mm: float,
                line_polarity: float | None = None, edge_polarity: float | None = None,
                which: tuple[int, ...] | None = None) -> tuple[RingPoints, float, float]:
    """Searches each circle within ``half_mm`` of where ``camera`` puts it. Returns the points
    and the polarities used (+1: lines lighter than the board; -1 darker)."""
    step = min(0.5, max(0.15, 0.4 * camera.mm_per_px()))
    found = []
    sets = circles(board)
    chosen = range(len(sets)) if which is None else which
    profs = {}
    for k in chosen:
        c = sets[k]
        profs[k] = _profiles(grey, camera, c.radius, c.samples, half_mm, step)
    with warnings.catch_warnings():  # profiles wholly outside the frame have no median
        warnings.simplefilter("ignore", RuntimeWarning)
        if line_polarity is None:
            votes = []
            for k, (prof, _, _) in profs.items():
                if sets[k].kind == "line":
                    dev = prof - nanmedian_rows(prof)[:, None]
                    votes.append(np.nanmedian(np.nanmax(dev, axis=1)) -
                                 np.nanmedian(-np.nanmin(dev, axis=1)))
            line_polarity = 1.0 if votes and float(np.nansum(votes)) > 0 else -1.0
        if edge_polarity is None:
            votes = []
            for k, (prof, _, _) in profs.items():
                if sets[k].kind == "edge":
                    d = np.gradient(prof, axis=1)
                    votes.append(np.nanmedian(np.nanmax(d, axis=1)) -
                                 np.nanmedian(-np.nanmin(d, axis=1)))
            edge_polarity = 1.0 if votes and float(np.nansum(votes)) > 0 else -1.0
    for k, (prof, offsets, theta) in profs.items():
        c = sets[k]
        if c.kind == "line":
            off, strength = _find_line(prof, offsets, step, line_polarity, board.line_width)
        else:
            off, strength = _find_edge(prof, offsets, step, edge_polarity)
        ok = np.isfinite(off) & (strength > 0)
        if not ok.any():
            continue
        # a point's strength must be a fair share of the circle's typical contrast
        typical = float(np.median(strength[ok]))
        ok &= strength > 0.35 * typical
        steady = _steady(np.where(ok, off, np.nan), max(1.0, half_mm / 10))[ok]
        r = c.radius + off[ok]
        xy = np.stack([r * np.cos(theta[ok]), r * np.sin(theta[ok])], -1)
        found.append((camera.project_plane(xy, 0.0), np.full(ok.sum(), c.radius),
                      np.full(ok.sum(), k), strength[ok], steady))
    if not found:
        empty = np.zeros((0,))
        return RingPoints(np.zeros((0, 2)), empty, empty.astype(int), empty,
                          empty.astype(bool)), line_polarity, edge_polarity
    pix, rad, idx, st, steady = (np.concatenate(v) for v in zip(*found, strict=True))
    return RingPoints(pix, rad, idx.astype(int), st, steady.astype(bool)), line_polarity, \
        edge_polarity


def _steady(offsets: np.ndarray, tol: float, span: int = 7) -> np.ndarray:
    """Whether each offset (NaN: none found) is within ``tol`` mm of the median of its
    neighbours around the circle: a camera bends a circle smoothly, a numeral or a disc does
    not."""
    n = len(offsets)
    idx = (np.arange(n)[:, None] + np.arange(-span, span + 1)[None]) % n
    with np.errstate(all="ignore"):
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            local = nanmedian_rows(offsets[idx])
    return np.abs(offsets - local) < tol


def agreement(grey: np.ndarray, camera: CameraModel, board: Board, polarity: float,
              within_mm: float = 0.75) -> float:
    """How well ``camera`` puts the painted lines where they are: the share of profiles across
    the three lines (those inside the frame) whose line lies within ``within_mm`` of where the
    camera says. Near 1 for a good fit (pegs, numerals and discs take a little), low for one
    that has slipped onto the wrong line."""
    hits = line_hits(grey, camera, board, polarity, within_mm)
    seen = sum(n for _, n in hits)
    return sum(h for h, _ in hits) / seen if seen else 0.0


def line_hits(grey: np.ndarray, camera: CameraModel, board: Board, polarity: float,
              within_mm: float = 0.75) -> list[tuple[int, int]]:
    """Per painted line (15, 10, outer): how many of its profiles inside the frame found it
    within ``within_mm`` of where ``camera`` puts it, and how many there were."""
    return [(int(np.sum(np.abs(off) < within_mm)), len(off))
            for off, _ in _line_finds(grey, camera, board, polarity)]


def line_contrast(grey: np.ndarray, camera: CameraModel, board: Board, polarity: float,
                  within_mm: float = 0.75) -> float:
    """The median contrast (grey levels) of the painted lines where ``camera`` puts them and
    they are found: a sharpened picture's dark halo beside a light line is a ridge too, of
    the other polarity, and much fainter than the line's ink."""
    got = [peak[np.abs(off) < within_mm] for off, peak in _line_finds(grey, camera, board,
                                                                        polarity)]
    found = np.concatenate(got) if got else np.zeros(0)
    return float(np.median(found)) if len(found) else 0.0


def _line_finds(grey: np.ndarray, camera: CameraModel, board: Board, polarity: float,
                half_mm: float = 5.0) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per painted line, over its profiles inside the frame: the line's offset from where
    ``camera`` puts it (99 where none is found, within ``half_mm``) and its ridge's
    contrast."""
    step = min(0.5, max(0.15, 0.4 * camera.mm_per_px()))
    out = []
    for c in circles(board):
        if c.kind != "line":
            continue
        prof, offsets, _ = _profiles(grey, camera, c.radius, c.samples, half_mm, step)
        inside = ~np.isnan(prof).any(axis=1)
        if not inside.any():
            out.append((np.zeros(0), np.zeros(0)))
            continue
        off, peak = _find_line(prof[inside], offsets, step, polarity, board.line_width)
        out.append((np.nan_to_num(off, nan=99.0), peak))
    return out


def ink_beside(grey: np.ndarray, camera: CameraModel, board: Board, polarity: float,
               half_mm: float = 12.0) -> float:
    """The median contrast of the strongest ridge of ``polarity`` within ``half_mm`` of each
    painted line where ``camera`` puts them: a fit that followed the faint halo a sharpened
    picture leaves beside a line of the other polarity has the line's own ink a few mm off,
    many times stronger."""
    peaks = [peak for _, peak in _line_finds(grey, camera, board, polarity, half_mm)]
    found = np.concatenate(peaks) if peaks else np.zeros(0)
    return float(np.median(found)) if len(found) else 0.0


def lines_between(grey: np.ndarray, camera: CameraModel, board: Board, polarity: float,
                  lo_mm: float, hi_mm: float, samples: int, step_mm: float = 3.0
                  ) -> list[tuple[float, float]]:
    """The circles between ``lo_mm`` and ``hi_mm`` from the centre, as ``camera`` has the
    board, on which a painted line is found: per circle (each ``step_mm`` apart, one band of
    profiles taken across them all) the share of its profiles inside the frame that found a
    line within half a step, and the line's radius (the circle's, moved by their median
    offset); the best first, none nearer another than a step. A fit that held a line at the
    wrong radius lost it; where the camera is right about the rest, the line is still there
    to be found round the centre."""
    step = min(0.5, max(0.15, 0.4 * camera.mm_per_px()))
    half = 5.0  # each circle's window either side, as wide as the fit's last searches
    mid = 0.5 * (lo_mm + hi_mm)
    prof, offsets, _ = _profiles(grey, camera, mid, samples, 0.5 * (hi_mm - lo_mm) + half,
                                 step)
    w = round(half / step)
    found = []
    for r in np.arange(lo_mm, hi_mm, step_mm):
        j = int(np.argmin(np.abs(offsets - (r - mid))))
        if j < w or j + w >= len(offsets):
            continue
        window = prof[:, j - w:j + w + 1]
        inside = ~np.isnan(window).any(axis=1)
        if inside.sum() < samples // 4:
            continue
        off, _ = _find_line(window[inside], offsets[j - w:j + w + 1] - offsets[j], step,
                            polarity, board.line_width)
        near = np.isfinite(off) & (np.abs(off) <= 0.5 * step_mm + step)
        if near.any():
            found.append((float(near.sum() / inside.sum()),
                          float(r + np.median(off[near]))))
    out: list[tuple[float, float]] = []
    for share, radius in sorted(found, key=lambda t: -t[0]):
        if all(abs(radius - r) >= step_mm for _, r in out):
            out.append((share, radius))
    return out


def weakest_line(grey: np.ndarray, camera: CameraModel, board: Board, polarity: float) -> float:
    """The least share of its profiles any painted line was found on where ``camera`` puts
    it: a fit holding the lines at the wrong radii puts one of them off while the others
    agree."""
    shares = [h / n for h, n in line_hits(grey, camera, board, polarity) if n > 0]
    return min(shares) if shares else 0.0


@dataclass(frozen=True)
class Priors:
    """What is known of the lens before the fit: the focal length (and how sure, as a fraction),
    the lens centre near the frame's centre, and mild distortion."""

    focal_px: float
    focal_sigma: float = 0.12
    centre_sigma: float = 0.005    # of the frame's width
    aspect_sigma: float = 0.003
    k1_sigma: float = 0.3
    k2_sigma: float = 0.1
    tangential_sigma: float = 0.002


# parameter order: see CameraModel.params()
_STEPS = np.array([1e-3, 1e-5, 0.05, 0.05, 1e-5, 1e-5, 1e-6, 1e-6, 1e-6, 1e-6, 1e-6,
                   1e-3, 1e-3, 1e-3])


def _prior_residuals(p: np.ndarray, priors: Priors, width: int, height: int) -> np.ndarray:
    return np.array([
        (p[0] - priors.focal_px) / (priors.focal_sigma * priors.focal_px),
        (p[1] - 1.0) / priors.aspect_sigma,
        (p[2] - width / 2) / (priors.centre_sigma * width),
        (p[3] - height / 2) / (priors.centre_sigma * width),
        p[4] / priors.k1_sigma, p[5] / priors.k2_sigma,
        p[6] / priors.tangential_sigma, p[7] / priors.tangential_sigma])


def radial_residuals(camera: CameraModel, points: RingPoints) -> np.ndarray:
    """How far (mm) each point lands from its circle, measured on the board."""
    xy = camera.to_board(points.pixels, 0.0)
    return np.hypot(xy[:, 0], xy[:, 1]) - points.radius


@dataclass(frozen=True)
class RingFit:
    camera: CameraModel
    residuals: np.ndarray   # mm, per point
    weights: np.ndarray     # robust weights, per point (0..1)
    rms_mm: float           # of the well-fitting points
    sigma_mm: float         # robust spread of the residuals
    radii: tuple[float, ...] = ()  # each circle's radius as fitted (circles() order), if measured

    @property
    def inliers(self) -> int:
        return int((self.weights > 0.5).sum())


def _prior_jacobian(p: np.ndarray, priors: Priors, width: int) -> np.ndarray:
    j = np.zeros((8, 14))
    j[0, 0] = 1.0 / (priors.focal_sigma * priors.focal_px)
    j[1, 1] = 1.0 / priors.aspect_sigma
    j[2, 2] = j[3, 3] = 1.0 / (priors.centre_sigma * width)
    j[4, 4] = 1.0 / priors.k1_sigma
    j[5, 5] = 1.0 / priors.k2_sigma
    j[6, 6] = j[7, 7] = 1.0 / priors.tangential_sigma
    return j


def _residuals(cam: CameraModel, base: np.ndarray, mask: np.ndarray, points: RingPoints,
               sw: np.ndarray, priors: Priors, measure: Measure | None
               ) -> Callable[..., Any]:
    """The fit's residuals and their Jacobian as a function of the free parameters: the
    camera's (``mask`` of its 14) and, when ``measure`` is given, how far each measured
    circle's radius moves from where its points were searched.

    Each point keeps the board angle it has under the current camera; the fit moves the
    circle's projection across it. The offset along the circle's image normal, in mm, is the
    radial residual to first order; ``cv2.projectPoints`` gives its derivatives, and a circle's
    radius moves every offset of its points by minus its change.
    """
    xy = cam.to_board(points.pixels, 0.0)
    theta = np.arctan2(xy[:, 1], xy[:, 0])
    ring = np.stack([np.cos(theta), np.sin(theta)], -1)
    on = cam.project_plane(ring * points.radius[:, None], 0.0)
    grad = cam.project_plane(ring * (points.radius[:, None] + 1.0), 0.0) - on
    normal = grad / np.maximum(np.sum(grad * grad, axis=1, keepdims=True), 1e-12)
    ok = np.isfinite(normal).all(axis=1) & np.isfinite(points.pixels).all(axis=1)
    normal = np.where(ok[:, None], normal, 0.0)
    pixels = np.where(ok[:, None], points.pixels, 0.0)
    free_r = measure.free() if measure is not None else np.zeros(0, int)
    k = int(mask.sum())
    # per point, which measured radius moves it (-1: none)
    which = np.full(len(points), -1)
    for j, c in enumerate(free_r):
        which[points.circle == c] = j
    if measure is not None:
        start = np.array([measure.start[c] for c in free_r])
        prior = np.array([measure.prior[c] for c in free_r])
        spread = np.array([measure.sigma[c] for c in free_r])

    flat = np.zeros(len(ring))  # (the points' height: on the surface)
    ring_x, ring_y = ring[:, 0].copy(), ring[:, 1].copy()
    pixels_x, pixels_y = pixels[:, 0].copy(), pixels[:, 1].copy()
    normal_x, normal_y = normal[:, 0].copy(), normal[:, 1].copy()

    def radii_of(q: np.ndarray) -> np.ndarray:
        r = points.radius
        if len(free_r):
            r = r + np.where(which >= 0, q[k:][np.maximum(which, 0)], 0.0)
        return r

    def rim_of(q: np.ndarray) -> np.ndarray:
        return np.concatenate([ring * radii_of(q)[:, None], np.zeros((len(ring), 1))], 1)

    def radius_prior(q: np.ndarray) -> np.ndarray:
        if not len(free_r):
            return np.zeros(0)
        return (start + q[k:] - prior) / spread

    def fun(q: np.ndarray, want_jacobian: bool = True) -> Any:
        p = base.copy()
        p[mask] = q[:k]
        c = cam.with_params(p)
        if not want_jacobian:  # a trial step: the quick projection will do (the points'
            # coordinates apart, and the offsets' two terms added as np.sum adds them)
            r = radii_of(q)
            u, v = c.project_xyz(ring_x * r, ring_y * r, flat)
            off = ((pixels_x - u) * normal_x + (pixels_y - v) * normal_y) * sw
            return np.concatenate([off, _prior_residuals(p, priors, cam.width, cam.height),
                                   radius_prior(q)])
        rim = rim_of(q)
        uv, dj = cv2.projectPoints(rim, np.asarray(c.rvec), np.asarray(c.tvec), c.matrix(),
                                   c.distortion())
        uv = uv.reshape(-1, 2)
        off = np.sum((pixels - uv) * normal, axis=1) * sw
        # dj columns: rvec (3), tvec (3), fx, fy, cx, cy, k1, k2, p1, p2
        dj = dj.reshape(-1, 2, dj.shape[1])
        d = -np.einsum("nk,nkj->nj", normal, dj) * sw[:, None]
        jac = np.empty((len(off), 14))
        jac[:, 0] = d[:, 6] + p[1] * d[:, 7]      # f moves fx and fy = f * aspect
        jac[:, 1] = p[0] * d[:, 7]                # aspect moves fy
        jac[:, 2:4] = d[:, 8:10]
        jac[:, 4:8] = d[:, 10:14]
        jac[:, 8:14] = d[:, 0:6]
        r = np.concatenate([off, _prior_residuals(p, priors, cam.width, cam.height),
                            radius_prior(q)])
        j = np.concatenate([jac, _prior_jacobian(p, priors, cam.width)])[:, mask]
        if len(free_r):
            jr = np.zeros((len(r), len(free_r)))
            rows = np.flatnonzero(which >= 0)
            jr[rows, which[rows]] = -sw[rows]
            jr[len(off) + 8 + np.arange(len(free_r)), np.arange(len(free_r))] = 1.0 / spread
            j = np.concatenate([np.concatenate([j, np.zeros((len(free_r), k))]), jr], 1)
        return r, j

    return fun


# which parameters a fit may move: the pose and focal length; and the main radial distortion;
# and everything (lens centre, aspect, the other distortion terms too)
_FREE = {"pose": np.array([True] + [False] * 7 + [True] * 6),
         "lens": np.array([True, False, False, False, True] + [False] * 3 + [True] * 6),
         "all": np.ones(14, bool)}


@dataclass(frozen=True)
class Measure:
    """Which of the board's circles (by index into :func:`circles`) a fit measures rather than
    holds, and what is known of each: where its points were searched (``start``), the radius
    expected of it (``prior``, the tournament board's unless the installer stated the board)
    and how far it may stray from that (``sigma``, mm; 0 holds it). The outer line is held:
    circles alone cannot tell a small board near the camera from a large one further off, so
    one radius sets the scale and the others are measured against it."""

    start: tuple[float, ...]
    prior: tuple[float, ...]
    sigma: tuple[float, ...]

    def free(self) -> np.ndarray:
        return np.flatnonzero(np.asarray(self.sigma) > 0)


def fit_camera(points: RingPoints, camera: CameraModel, priors: Priors, *,
               free: str = "all", rounds: int = 3, scale_mm: float = 0.3,
               measure: Measure | None = None) -> RingFit:
    """Fits ``camera`` to the points (robustly: Cauchy weights re-estimated each round).
    ``free``: "pose" fits the pose and focal length, "lens" the radial distortion too, "all"
    everything (see ``_FREE``). ``measure``: the circles whose radii are fitted too."""
    base = camera.params()
    mask = _FREE[free]
    weights = np.where(points.steady, 1.0, 0.02)
    sigma = scale_mm
    cam = camera
    nfree = len(measure.free()) if measure is not None else 0
    radius = points.radius.copy()
    moved = np.zeros(nfree)
    for _ in range(rounds):
        pts = RingPoints(points.pixels, radius, points.circle, points.strength, points.steady)
        fun = _residuals(cam, base, mask, pts, np.sqrt(weights) / sigma, priors,
                         _moved(measure, moved))
        x0 = np.concatenate([base[mask], np.zeros(nfree)])
        steps = np.concatenate([_STEPS[mask], np.full(nfree, 1e-3)])
        res = least_squares(fun, x0, steps, max_iter=10, tol=1e-5, with_jacobian=True)
        p = base.copy()
        p[mask] = res.x[:int(mask.sum())]
        cam = cam.with_params(p)
        base = p
        if nfree:
            moved = moved + res.x[int(mask.sum()):]
            radius = _radii_of(points, measure, moved)
        pts = RingPoints(points.pixels, radius, points.circle, points.strength, points.steady)
        r = radial_residuals(cam, pts)
        mad = float(np.nanmedian(np.abs(r - np.nanmedian(r)))) * 1.4826
        sigma = max(mad, 0.05)
        c = 2.5 * sigma
        weights = 1.0 / (1.0 + (np.nan_to_num(r, nan=1e3) / c) ** 2)
    pts = RingPoints(points.pixels, radius, points.circle, points.strength, points.steady)
    r = radial_residuals(cam, pts)
    good = weights > 0.5
    rms = float(np.sqrt(np.mean(r[good] ** 2))) if good.any() else float("inf")
    radii = ()
    if measure is not None:
        radii = tuple(float(v) for v in _moved(measure, moved).start)
    return RingFit(cam, r, weights, rms, sigma, radii)


def _moved(measure: Measure | None, moved: np.ndarray) -> Measure | None:
    """``measure`` with its free circles' starting radii moved by ``moved``."""
    if measure is None:
        return None
    start = list(measure.start)
    for j, c in enumerate(measure.free()):
        start[c] = start[c] + float(moved[j])
    return Measure(tuple(start), measure.prior, measure.sigma)


def _radii_of(points: RingPoints, measure: Measure | None, moved: np.ndarray) -> np.ndarray:
    """Each point's circle's radius with the measured circles moved."""
    radius = points.radius.copy()
    if measure is None:
        return radius
    for j, c in enumerate(measure.free()):
        radius[points.circle == c] += moved[j]
    return radius
