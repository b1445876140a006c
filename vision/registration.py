"""Finding the board in a frame by itself, and the camera that sees it.

Three steps, each seeding the next:

1. The centre: every strong edge votes along its gradient; the rings' edges all point at the
   board's centre, so their votes pile up there (discs, pegs and the room scatter theirs).
2. The size: around that centre, edges that face it are counted by radius as a share of the
   circle's circumference; the board's circles (its three lines, the surface's edge, the ditch's
   outer wall) stand at fixed ratios, so one scale lines all five up.
3. The camera: from a straight-down guess at that centre and size, :mod:`vision.rings` fits the
   full camera to the lines and the surface's edge, with narrowing search windows.

Then :mod:`vision.seats` turns the board about its centre so the seats sit where they do.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

import cv2
import numpy as np

from rules.board import Board
from vision.camera import CameraModel, looking_down
from vision.errors import NoBoardFound, TooDark
from vision.lens import focal_guess
from vision.rings import (
    Priors,
    RingFit,
    RingPoints,
    agreement,
    circles,
    find_points,
    fit_camera,
)

log = logging.getLogger(__name__)

WORK_PX = 480          # long side of the picture the coarse search looks at
GOOD_AGREEMENT = 0.6   # a fit this much in line with the painted lines needs no second try
MIN_AGREEMENT = 0.3    # ... and one less is not the board
_VOTE_PX = 320         # ... and the centre vote


@dataclass(frozen=True)
class Coarse:
    """The board's centre (pixels of the full frame), its scale (pixels per mm at the rings)
    and how well the circles lined up (their mean share of a full circle, 0..2)."""

    centre: tuple[float, float]
    px_per_mm: float
    score: float
    edges: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))  # (n, 2) full-frame px
    edge_radius: np.ndarray = field(default_factory=lambda: np.zeros(0))  # circle of each, mm


def grey_of(frame: np.ndarray) -> np.ndarray:
    if frame.ndim == 2:
        return frame.astype(np.float32)
    return cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY).astype(np.float32)


def check_exposure(grey: np.ndarray, name: str = "the frame", step: int = 8) -> None:
    """Refuses a frame too dark or too flat to hold a board's lines (judged on every
    ``step``-th pixel: pass a grey already thinned out with ``step=1``)."""
    small = grey[::step, ::step]
    lo, hi = np.percentile(small, [5, 95])
    if hi < 40:
        raise TooDark(f"{name} is too dark to read the board (95% of it below grey level "
                      f"{hi:.0f} of 255): turn on the light over the board or lengthen the "
                      "camera's exposure")
    if hi - lo < 12:
        raise TooDark(f"{name} is nearly uniform (grey levels {lo:.0f} to {hi:.0f}): the lens "
                      "may be covered or the picture washed out; check the camera and its "
                      "exposure")


def _centre_votes(grey: np.ndarray) -> tuple[float, float]:
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1)
    mag = cv2.magnitude(gx, gy)
    thr = float(np.percentile(mag, 94))
    ys, xs = np.nonzero(mag > max(thr, 1e-3))
    m = mag[ys, xs]
    ux, uy = gx[ys, xs] / m, gy[ys, xs] / m
    wgt = np.minimum(m / max(thr, 1e-3), 3.0).astype(np.float64)
    h, w = grey.shape
    d = np.arange(int(0.04 * max(h, w)), int(0.6 * max(h, w)), 1.0, dtype=np.float32)
    acc = np.zeros(h * w, np.float64)
    for sign in (1.0, -1.0):
        px = (xs[:, None] + sign * ux[:, None] * d[None]).astype(np.int32)
        py = (ys[:, None] + sign * uy[:, None] * d[None]).astype(np.int32)
        ok = (px >= 0) & (px < w) & (py >= 0) & (py < h)
        acc += np.bincount((py * w + px)[ok], np.broadcast_to(wgt[:, None], ok.shape)[ok],
                           minlength=h * w)
    acc = cv2.GaussianBlur(acc.reshape(h, w).astype(np.float32), (0, 0), 1.0)
    cy, cx = np.unravel_index(int(np.argmax(acc)), acc.shape)
    return float(cx), float(cy)


def _circle_features(board: Board) -> np.ndarray:
    return np.array([board.fifteen_radius, board.ten_radius, board.outer_radius,
                     board.surface_radius, board.ditch_radius])


def coarse(grey: np.ndarray, board: Board) -> Coarse:
    """The board's centre and scale, to a few per cent (see the module's steps 1 and 2)."""
    h0, w0 = grey.shape
    s = WORK_PX / max(h0, w0)
    g = cv2.resize(grey, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
    sv = _VOTE_PX / WORK_PX
    gv = cv2.GaussianBlur(cv2.resize(g, None, fx=sv, fy=sv, interpolation=cv2.INTER_AREA),
                          (0, 0), 1.0)
    cx, cy = _centre_votes(gv)
    cx, cy = cx / sv, cy / sv
    gb = cv2.GaussianBlur(g, (0, 0), 0.8)
    gx = cv2.Sobel(gb, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(gb, cv2.CV_32F, 0, 1)
    mag = cv2.magnitude(gx, gy)
    feats = _circle_features(board)
    lo_s = 0.08 * min(g.shape) / board.surface_radius
    hi_s = 0.75 * max(g.shape) / board.outer_radius
    best = Coarse((cx / s, cy / s), lo_s / s, 0.0)
    for _ in range(2):  # the scale, then the centre from the circles found, then the scale again
        ys, xs = np.nonzero(mag > np.percentile(mag, 85))
        dx, dy = xs - cx, ys - cy
        rho = np.hypot(dx, dy) + 1e-6
        facing = np.abs((gx[ys, xs] * dx + gy[ys, xs] * dy) / (mag[ys, xs] * rho)) > 0.92
        keep = facing & (rho > 4)
        nb = 400
        lo, hi = np.log(4.0), np.log(max(g.shape) * 1.2)
        bw = (hi - lo) / nb
        hist, _ = np.histogram(np.log(rho[keep]), bins=nb, range=(lo, hi),
                               weights=1.0 / rho[keep])
        hist = np.convolve(hist / (2 * np.pi), [0.25, 0.5, 0.25], mode="same")
        centres = lo + (np.arange(nb) + 0.5) * bw
        shifts = np.arange(np.log(lo_s), np.log(hi_s), bw / 2)
        pos = np.log(feats)[None, :] + shifts[:, None]
        v = np.interp(pos, centres, hist, left=0, right=0)
        for dd in (-bw, bw):
            v = np.maximum(v, np.interp(pos + dd, centres, hist, left=0, right=0))
        score = np.minimum(v, 2.0).sum(axis=1)
        i = int(np.argmax(score))
        scale = float(np.exp(shifts[i]))
        # the edges near each painted line, for a first fit that allows for tilt
        near = np.zeros(len(rho), bool)
        radius = np.zeros(len(rho))
        for r in feats[:3]:
            here = facing & (np.abs(rho - r * scale) < 0.06 * r * scale)
            near |= here
            radius[here] = r
        best = Coarse((cx / s, cy / s), scale / s, float(score[i]) / len(feats),
                      np.stack([xs[near], ys[near]], -1) / s, radius[near])
        # the centre, again: a common-centre circle fit to the edges near the circles found
        near = np.zeros(len(rho), bool)
        for r in feats * scale:
            near |= np.abs(rho - r) < 0.03 * r
        near &= facing
        if near.sum() < 30:
            break
        cx, cy = _common_centre(xs[near].astype(np.float64), ys[near].astype(np.float64),
                                rho[near], feats * scale, cx, cy)
    return best


def _common_centre(xs: np.ndarray, ys: np.ndarray, rho: np.ndarray, radii: np.ndarray,
                   cx: float, cy: float) -> tuple[float, float]:
    """Least-squares centre of points on concentric circles, each point on its nearest one."""
    for _ in range(3):
        r_of = radii[np.argmin(np.abs(rho[:, None] - radii[None]), axis=1)]
        dx, dy = xs - cx, ys - cy
        d = np.hypot(dx, dy) + 1e-9
        res = d - r_of
        keep = np.abs(res) < max(2.0, 2.5 * float(np.median(np.abs(res))))
        a = np.stack([-dx / d, -dy / d], axis=1)[keep]
        step, *_ = np.linalg.lstsq(a, -res[keep], rcond=None)
        cx, cy = cx + float(step[0]), cy + float(step[1])
        rho = np.hypot(xs - cx, ys - cy)
    return cx, cy


@dataclass(frozen=True)
class Found:
    """A board found in a frame: the fitted camera (board turned arbitrarily about its centre
    until :mod:`vision.seats` sets it), the fit, and how sure the focal length is."""

    camera: CameraModel
    fit: RingFit
    focal_sigma: float
    coverage: float       # share of the circles' profiles that found their circle


def find_board(frame: np.ndarray, board: Board, *, focal_px: float | None = None,
               name: str = "the frame") -> Found:
    """Finds the board in ``frame`` and fits the camera (module docstring)."""
    grey = grey_of(frame)
    check_exposure(grey, name)
    h, w = grey.shape
    guess = focal_guess(w, h, focal_px)
    c = coarse(grey, board)
    if c.score < 0.25:
        raise NoBoardFound(
            f"no crokinole board in {name}: no rings around a centre (line-up {c.score:.2f}); "
            "make sure the whole playing surface is in view and lit")
    total = sum(k.samples for k in circles(board))
    # An unknown lens: if the fit does not take from the typical focal length, start again
    # from shorter and longer ones (a phone held at an angle needs about the right one).
    known = guess.sigma < 0.1
    best: tuple[CameraModel, RingFit, float] | None = None
    for k in (1.0, 0.73, 1.37, 0.55):
        got = _fit_from(grey, c, board, Priors(guess.focal_px * k, min(guess.sigma, 0.1)), w, h)
        if got is not None and known and k != 1.0:
            # A known lens whose own fit went astray (a board near the frame's edge can pull
            # the first pose off): another focal length's fit is only a better start; the
            # lens is fitted again from there, held to what it is.
            got = _stages(grey, got[0], board, Priors(guess.focal_px, guess.sigma))
        if got is not None and (best is None or got[2] > best[2]):
            best = got
        if best is not None and best[2] > GOOD_AGREEMENT and best[1].sigma_mm <= 1.5:
            break
    if (best is None or best[2] < MIN_AGREEMENT or best[1].inliers < 0.15 * total
            or best[1].sigma_mm > 1.5):
        raise NoBoardFound(
            f"no crokinole board in {name}: its lines could not be followed around the "
            "centre; make sure the whole playing surface is in view, in focus and lit")
    cam, fit, _ = best
    coverage = fit.inliers / total
    log.debug("board found: centre %s, %.3f px/mm, %d ring points, sigma %.3f mm",
              c.centre, c.px_per_mm, fit.inliers, fit.sigma_mm)
    return Found(cam, fit, guess.sigma, coverage)


def _fit_from(grey: np.ndarray, c: Coarse, board: Board, priors: Priors, w: int, h: int
              ) -> tuple[CameraModel, RingFit, float] | None:
    """The camera fitted from the coarse find with these priors, with its line agreement (see
    :func:`vision.rings.agreement`), or None if it loses the lines. It starts from a first fit
    to the coarse edges (which allows for tilt) and, if that ends badly, from straight down."""
    down = looking_down(w, h, priors.focal_px, c.centre, c.px_per_mm)
    starts = []
    if len(c.edge_radius) >= 40:  # a first fit to the coarse edges: room for tilt and offset
        pick = np.linspace(0, len(c.edge_radius) - 1, min(len(c.edge_radius), 1500)).astype(int)
        n = len(pick)
        first = RingPoints(c.edges[pick], c.edge_radius[pick], np.zeros(n, int), np.ones(n),
                           np.ones(n, bool))
        starts.append(fit_camera(first, down, priors, free="pose", rounds=3,
                                 scale_mm=3.0).camera)
    starts.append(down)
    best = None
    for start in starts:
        got = _stages(grey, start, board, priors)
        if got is not None and (best is None or got[2] > best[2]):
            best = got
        if best is not None and best[2] > GOOD_AGREEMENT:
            break
    return best


def _stages(grey: np.ndarray, cam: CameraModel, board: Board, priors: Priors
            ) -> tuple[CameraModel, RingFit, float] | None:
    """Narrowing searches, each fit freer than the last; the surface's edge joins last (a wide
    search for it could land on the outer line). Each fit is judged by how well it puts the
    painted lines where they are (:func:`vision.rings.agreement`), and the best is kept: with a
    part of the board out of view, a freer lens can follow the points found and lose the
    lines."""
    best = None
    lp = ep = None
    lines = tuple(i for i, k in enumerate(circles(board)) if k.kind == "line")
    for half, free, rounds, which in ((25.0, "pose", 3, lines), (12.0, "pose", 2, lines),
                                      (8.0, "lens", 2, lines), (5.0, "lens", 2, lines),
                                      (5.0, "lens", 2, None), (5.0, "all", 2, None)):
        pts, lp, ep = find_points(grey, cam, board, half, lp, ep, which)
        if len(pts) < 40:
            break
        fit = fit_camera(pts, cam, priors, free=free, rounds=rounds,
                         scale_mm=max(0.3, half / 6))
        score = agreement(grey, fit.camera, board, lp)
        if best is None or score >= best[2] - 0.02:
            best = (fit.camera, fit, score)
        cam = best[0]
    return best
