"""Measuring a disc's rim on the full-resolution frame, with the parallax of its thickness undone.

Around a disc's estimated centre, short profiles across the rim are read from the frame, each
sample put on the plane of the disc's top face through the camera model, so the fitted circle's
centre is the disc's true position rather than its picture's (which leans away from the point
below the camera by up to a few mm). Colours are compared in logarithms: a shadow or a lamp's
falloff scales a colour rather than shifting it, so a dark disc's contact shadow or a light one's
bevel moves the steepest change far less than it would in plain levels.

Only the half of the rim facing away from the point below the camera gives the position: on the
near half the disc's side shows between its top face and the board, and where the side and the
face are both dark the top's rim cannot be told from the foot's. (A disc whose far half is
mostly spoilt, against a line, a numeral and a peg at once, is placed with its near half's clear
profiles too, and given the wider uncertainty of not knowing which edge they found.)

A disc's apparent radius differs a little from the true one (bevels, shadows, blur); the fit
first leaves it free, then :func:`refit` fixes it at the value measured over a side's discs,
which steadies discs whose rim is partly spoilt by a neighbour, a line or a peg.
"""

from __future__ import annotations

import logging
import math
import warnings
from dataclasses import dataclass, replace

import cv2
import numpy as np

from rules.board import STANDARD, Board
from vision.arrays import channel_sq, median
from vision.projection import CameraModel

log = logging.getLogger(__name__)

RAYS = 96
ARC_DEG = 95.0
DITCH_DEPTH_MM = 10.0    # assumed depth of the ditch, for discs lying in it (zone 0 regardless)
LOG_OFFSET = 8.0         # added before the logarithm, so sensor noise in black does not blow up
_ANGLES = (np.arange(RAYS) + 0.5) * (2 * np.pi / RAYS)


@dataclass(frozen=True, eq=False)
class Rim:
    """A disc's top face as measured. ``x_mm``, ``y_mm``: its centre on the board; the rim's
    points (on the half used for position) are kept so the fit can be redone with another
    radius."""

    x_mm: float
    y_mm: float
    z_mm: float
    radius_mm: float      # the apparent radius, fitted freely
    coverage: float       # share of all profiles whose rim lies on the circle
    points: int           # profiles of the far half that agree with the fit
    spread_mm: float      # robust scatter of those points about the circle
    sigma_mm: float       # standard error of the centre along the line to the board's centre
    contrast: float       # the rim's median colour step (log units x 100 per mm)
    in_ditch: bool
    edge_x: np.ndarray
    edge_y: np.ndarray
    use: np.ndarray       # bool per point: on the far half, with a clear edge
    near_half: bool = False  # placed with its near half's profiles too (its far half spoilt)
    wide_radius_mm: float = math.nan  # the radius fitted freely to the first, wider look's
    #                                   edges (3.5 mm either side of the disc's, not 2)


def to_log(prof: np.ndarray) -> np.ndarray:
    return (np.log(np.maximum(prof, 0.0) + LOG_OFFSET) * 100.0).astype(np.float32)


REMAP_ROWS = 32000  # rays read at once (cv2.remap's maps must have fewer than 32767 rows)


def profiles(frame: np.ndarray, camera: CameraModel, centres: np.ndarray, z: np.ndarray,
             rho: np.ndarray, angles: np.ndarray = _ANGLES) -> tuple[np.ndarray, np.ndarray]:
    """Log-colour profiles (n, rays, m, 3) along rays from each centre on the plane at height z,
    and which profiles leave the frame (n, rays)."""
    ca, sa = np.cos(angles), np.sin(angles)
    x = centres[:, 0, None, None] + ca[None, :, None] * rho[None, None, :]
    y = centres[:, 1, None, None] + sa[None, :, None] * rho[None, None, :]
    zz = np.broadcast_to(np.asarray(z, np.float64).reshape(-1, 1, 1), x.shape)
    u, v = camera.project_xyz(x, y, zz)
    n, k, m = x.shape
    u, v = u.astype(np.float32).reshape(n * k, m), v.astype(np.float32).reshape(n * k, m)
    prof = np.concatenate([cv2.remap(frame, u[i:i + REMAP_ROWS], v[i:i + REMAP_ROWS],
                                     cv2.INTER_CUBIC, borderMode=cv2.BORDER_CONSTANT,
                                     borderValue=(-1, -1, -1))
                           for i in range(0, max(n * k, 1), REMAP_ROWS)])
    prof = prof.reshape(n, k, m, -1).astype(np.float32)
    outside = (prof[..., 0] < 0).any(axis=-1)
    return to_log(prof), outside


def gradient(prof: np.ndarray, step: float) -> np.ndarray:
    """How fast the colour changes along each profile (log units x 100 per mm)."""
    shape = prof.shape
    sm = cv2.blur(prof.reshape(-1, shape[-2], shape[-1]), (3, 1)).reshape(shape)
    d = np.zeros(shape[:-1], np.float32)
    diff = sm[..., 2:, :] - sm[..., :-2, :]
    d[..., 1:-1] = np.sqrt(channel_sq(diff)) / (2 * step)
    return d


def _subpixel(d: np.ndarray, j: np.ndarray, rho: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    step = float(rho[1] - rho[0])
    j = np.clip(j, 1, d.shape[-1] - 2)
    a = np.take_along_axis(d, (j - 1)[..., None], -1)[..., 0]
    b = np.take_along_axis(d, j[..., None], -1)[..., 0]
    c = np.take_along_axis(d, (j + 1)[..., None], -1)[..., 0]
    den = a - 2 * b + c
    with np.errstate(all="ignore"):
        frac = np.where(den < 0, 0.5 * (a - c) / den, 0.0)
    return rho[j] + np.clip(frac, -1, 1) * step, b


def steepest(d: np.ndarray, rho: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per profile: the position and strength of the steepest change."""
    return _subpixel(d, np.argmax(d, axis=-1), rho)


def nearest(d: np.ndarray, rho: np.ndarray, target: float,
            share: float = 0.3) -> tuple[np.ndarray, np.ndarray]:
    """Per profile: the local maximum of the change nearest ``target`` among those at least
    ``share`` of the profile's steepest: the rim rather than a line or a neighbour beyond it."""
    top = d.max(axis=-1, keepdims=True)
    peak = np.zeros(d.shape, bool)
    peak[..., 1:-1] = ((d[..., 1:-1] >= d[..., :-2]) & (d[..., 1:-1] > d[..., 2:])
                       & (d[..., 1:-1] >= share * top))
    dist = np.where(peak, np.abs(rho - target), np.inf)
    j = np.argmin(dist, axis=-1)
    pos, strength = _subpixel(d, j, rho)
    return pos, np.where(np.isfinite(dist.min(axis=-1)), strength, 0.0)


def masked_median(values: np.ndarray, use: np.ndarray) -> np.ndarray:
    """Per row, the median of the values in use (NaN for a row with none): a sort with the
    rest pushed to the end, quicker than NaN-aware medians on many short rows."""
    v = np.sort(np.where(use, values, np.inf), axis=-1)
    count = use.sum(axis=-1)
    if v.ndim == 2:  # (rows picked by index: the same values, without take_along_axis's setup)
        at = np.arange(len(v))
        lo, hi = v[at, np.maximum((count - 1) // 2, 0)], v[at, np.maximum(count // 2, 0)]
    else:
        lo = np.take_along_axis(v, np.maximum((count - 1) // 2, 0)[..., None], -1)[..., 0]
        hi = np.take_along_axis(v, np.maximum(count // 2, 0)[..., None], -1)[..., 0]
    return np.where(count > 0, 0.5 * (lo + hi), np.nan)


def fit_circles(px: np.ndarray, py: np.ndarray, w: np.ndarray, cx: np.ndarray,
                cy: np.ndarray, radius: np.ndarray | None
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Weighted Gauss-Newton circle fits, one per row of the points (n, k), all at once (radius
    free when None): centres, radii and residuals."""
    free = radius is None
    cx, cy = cx.astype(np.float64).copy(), cy.astype(np.float64).copy()
    wsum = w.sum(axis=1) + 1e-12
    r = ((w * np.hypot(px - cx[:, None], py - cy[:, None])).sum(axis=1) / wsum if free
         else np.asarray(radius, np.float64) * np.ones_like(cx))
    terms = np.empty((8, *px.shape))
    for _ in range(6):
        dx, dy = px - cx[:, None], py - cy[:, None]
        d = np.hypot(dx, dy) + 1e-9
        ux, uy = dx / d, dy / d
        res = d - r[:, None]
        # d res / d cx = -ux, d res / d cy = -uy, d res / d r = -1
        # (the eight weighted sums the normal equations take, as rows of one array summed at
        # once: each row's sum the same as its own, in one call instead of eight)
        wux = np.multiply(w, ux, out=terms[3])
        wuy = np.multiply(w, uy, out=terms[4])
        np.multiply(wux, ux, out=terms[0])
        np.multiply(wux, uy, out=terms[1])
        np.multiply(wuy, uy, out=terms[2])
        np.multiply(wux, res, out=terms[5])
        np.multiply(wuy, res, out=terms[6])
        np.multiply(w, res, out=terms[7])
        sums = terms.sum(axis=2)
        a = np.empty((len(cx), 3, 3))
        a[:, 0, 0] = sums[0]
        a[:, 0, 1] = a[:, 1, 0] = sums[1]
        a[:, 1, 1] = sums[2]
        a[:, 0, 2] = a[:, 2, 0] = sums[3]
        a[:, 1, 2] = a[:, 2, 1] = sums[4]
        a[:, 2, 2] = wsum
        b = sums[5:8].T
        k = 3 if free else 2
        step = np.linalg.solve(a[:, :k, :k] + 1e-9 * np.eye(k), b[:, :k, None])[..., 0]
        cx += step[:, 0]
        cy += step[:, 1]
        if free:
            r = r + step[:, 2]
        if float(np.abs(step).max(initial=0.0)) < 1e-4:
            break
    return cx, cy, r, np.hypot(px - cx[:, None], py - cy[:, None]) - r[:, None]


def robust_circles(px: np.ndarray, py: np.ndarray, use: np.ndarray, cx: np.ndarray,
                   cy: np.ndarray, radius: np.ndarray | None
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Circle fits that down-weight points off the circle (Cauchy weights, re-estimated)."""
    w = use.astype(np.float64)
    r = radius
    res = np.zeros_like(px)
    for _ in range(4):
        cx, cy, r, res = fit_circles(px, py, w, cx, cy, radius)
        with warnings.catch_warnings():  # a row with no point in use has no median
            warnings.simplefilter("ignore", RuntimeWarning)
            mad = masked_median(np.abs(res), use)
        scale = np.maximum(0.08, 1.4826 * np.nan_to_num(mad, nan=1.0))
        w = use / (1.0 + (res / (2.5 * scale[:, None])) ** 2)
    return cx, cy, r, res, w


def _far_half(cx: np.ndarray, cy: np.ndarray, nadir: np.ndarray) -> np.ndarray:
    out = np.arctan2(cy - nadir[1], cx - nadir[0])
    return np.cos(_ANGLES[None, :] - out[:, None]) > math.cos(math.radians(ARC_DEG))


def spoilt(camera: CameraModel, board: Board, centres: np.ndarray, z: np.ndarray,
           radius: float, reach: tuple[float, float] = (-0.8, 2.5)) -> np.ndarray:
    """Which profiles (n, rays) cross one of the board's own edges just beside the rim: a
    painted line, the hole's or the surface's edge, a peg. There the steepest change may be the
    board's rather than the disc's, so those profiles do not place the disc. Where the board
    feature lies is known from the camera: each sample just outside the rim is followed down its
    ray to the playing surface."""
    rho = np.arange(radius + reach[0], radius + reach[1] + 1e-9, 0.25)
    ca, sa = np.cos(_ANGLES), np.sin(_ANGLES)
    x = centres[:, 0, None, None] + ca[None, :, None] * rho[None, None, :]
    y = centres[:, 1, None, None] + sa[None, :, None] * rho[None, None, :]
    c = camera.centre_mm
    scale = (c[2] / np.maximum(c[2] - np.asarray(z, np.float64), 1.0)).reshape(-1, 1, 1)
    gx = c[0] + (x - c[0]) * scale  # where the ray through each sample meets the surface
    gy = c[1] + (y - c[1]) * scale
    gr = np.hypot(gx, gy)
    near = 1.0 + board.line_width / 2
    bad = np.zeros(gr.shape, bool)
    for r in board.line_radii:
        bad |= np.abs(gr - r) < near
    for r in (board.surface_radius, board.hole_diameter / 2):
        bad |= np.abs(gr - r) < 1.0
    for px, py in board.pegs():  # the peg's top leans outward too: allow for its height
        close = np.hypot(centres[:, 0] - px, centres[:, 1] - py) < radius + 12.0
        if close.any():
            bad[close] |= np.hypot(gx[close] - px, gy[close] - py) < board.peg_diameter / 2 + 3.0
    return bad.any(axis=-1)


AGAIN_MM = 2.0  # a rim found this far from where it was looked for is measured again from there


def measure(frame: np.ndarray, camera: CameraModel, centres: np.ndarray, board: Board,
            levels: tuple[float, float], floors: np.ndarray | None = None) -> list[Rim | None]:
    """Measures the rim around each estimated centre (n, 2) in mm; None where there is no
    disc-sized rim. ``levels``: the surface's and the ditch's clutter (see :func:`clutter`): a
    rim's edges must stand above that of where it lies. All candidates are measured together,
    as arrays. A rim found some way from where it was looked for is measured again from where
    it was found, and the better followed of the two kept if the second stays where the first
    was found: the profiles are read about the centre given, and a candidate a few mm off
    reads them slanting across the rim, which then shows over part of its round only.
    ``floors``: each rim's own level instead (n), where the board round it is known."""
    rims = _measure(frame, camera, centres, board, levels, floors)
    again = [i for i, r in enumerate(rims) if r is not None
             and math.hypot(r.x_mm - centres[i][0], r.y_mm - centres[i][1]) > AGAIN_MM]
    if again:
        redone = _measure(frame, camera, np.array([[rims[i].x_mm, rims[i].y_mm]
                                                   for i in again]), board, levels,
                          None if floors is None else floors[again])
        for i, r in zip(again, redone, strict=True):
            # (a disc's rim, measured from its own centre, finds it again; an arc of a
            # shadow's edge or of print, no circle's, wanders off once more)
            if (r is not None and r.coverage > rims[i].coverage
                    and math.hypot(r.x_mm - rims[i].x_mm, r.y_mm - rims[i].y_mm) <= AGAIN_MM):
                rims[i] = r
    return rims


def _measure(frame: np.ndarray, camera: CameraModel, centres: np.ndarray, board: Board,
             levels: tuple[float, float], floors: np.ndarray | None = None
             ) -> list[Rim | None]:
    """One measurement of the rims about the centres given (see :func:`measure`)."""
    n = len(centres)
    if n == 0:
        return []
    centres = np.asarray(centres, np.float64).copy()
    radius = board.disc_radius
    top = board.disc_thickness
    r_c = np.hypot(centres[:, 0], centres[:, 1])
    z = np.where(r_c > board.surface_radius + radius * 0.5, top - DITCH_DEPTH_MM, top)
    floor = (np.where(r_c > board.surface_radius - radius, levels[1], levels[0]) if floors is None
             else np.asarray(floors, np.float64))[:, None]
    step = min(0.25, 0.4 * camera.mm_per_px(top))
    nadir = camera.nadir()
    ca, sa = np.cos(_ANGLES)[None], np.sin(_ANGLES)[None]
    # pass 1: the steepest change within 3.5 mm of the rim, a circle of the disc's radius
    rho = np.arange(radius - 3.5, radius + 3.5 + step / 2, step)
    prof, outside = profiles(frame, camera, centres, z, rho)
    pos, strength = steepest(gradient(prof, step), rho)
    cx, cy = centres[:, 0], centres[:, 1]
    use = _far_half(cx, cy, nadir) & ~outside & (strength > floor)
    ok = use.sum(axis=1) >= 8
    px, py = cx[:, None] + ca * pos, cy[:, None] + sa * pos
    fx, fy, *_ = robust_circles(px, py, use, cx, cy, np.full(n, radius))
    # (and freely: a disc a fifth larger than the board says has its rim 3 mm out, beyond
    # the second look's reach, which then fits whatever edge lies near the expected radius)
    loose = robust_circles(px, py, use, fx, fy, None)[2]
    centres = np.where(ok[:, None], np.stack([fx, fy], -1), centres)
    # pass 2: the edge nearest the rim within 2 mm, the radius left free
    rho = np.arange(radius - 2.0, radius + 2.0 + step / 2, step)
    prof, outside = profiles(frame, camera, centres, z, rho)
    pos, strength = nearest(gradient(prof, step), rho, radius, 0.5)
    cx, cy = centres[:, 0], centres[:, 1]
    far = _far_half(cx, cy, nadir)
    typical = masked_median(strength, far)
    clear = ~outside & (strength > np.maximum(floor, 0.3 * typical[:, None]))
    unspoilt = clear & ~spoilt(camera, board, centres, z, radius)
    use = far & unspoilt
    few = use.sum(axis=1) < 12  # a disc lying along a line: its clear rays will have to do
    use[few] = (far & clear)[few]
    px, py = cx[:, None] + ca * pos, cy[:, None] + sa * pos
    start_x, start_y = cx.copy(), cy.copy()
    # Where a dark disc meets a dark numeral or line, its rim does not show and those profiles
    # find some other edge; they can be a third of the half rim, too many for a weighted fit
    # to shrug off. So the circle (of the disc's radius) is the one most profiles agree with,
    # found by trying circles through pairs of them; the rest are dropped.
    cx, cy, agree = _consensus(px, py, use, cx, cy, radius)
    # A disc against a line, a numeral and a peg at once may keep too few far-half profiles
    # that agree. Its near half's clear profiles then place it too: there the edge found may be
    # the foot's rather than the top's, up to the disc's lean further in, which its uncertainty
    # then allows for (Rim.near_half).
    near_half = ((use & agree).sum(axis=1) < 12) & (unspoilt.sum(axis=1) >= 20)
    if near_half.any():
        idx = np.flatnonzero(near_half)
        nx, ny, nagree = _consensus(px[idx], py[idx], unspoilt[idx], start_x[idx], start_y[idx],
                                    radius)
        better = (unspoilt[idx] & nagree).sum(axis=1) > (use[idx] & agree[idx]).sum(axis=1)
        near_half[idx[~better]] = False
        take = idx[better]
        use[take], agree[take] = unspoilt[take], nagree[better]
        cx[take], cy[take] = nx[better], ny[better]
    use = use & agree
    _, _, fr, _, _ = robust_circles(px, py, use, cx, cy, None)
    fr = np.where(np.isfinite(fr), fr, 0.0)
    fx, fy, _, res, w = robust_circles(px, py, use, cx, cy, np.full(n, radius))
    good = use & (w > 0.5)
    # all round, the rim lies on the circle or, on the near half, out to the foot's edge
    lean = np.hypot(fx - nadir[0], fy - nadir[1]) * top / max(camera.centre_mm[2] - top, 1.0)
    out_dir = np.arctan2(fy - nadir[1], fx - nadir[0])
    band = lean[:, None] * np.clip(-np.cos(_ANGLES[None] - out_dir[:, None]), 0, None)
    onrim = _on_circle(px, py, fx, fy, np.full(n, radius), band) & clear
    # ... or on the circle fitted freely to the clear profiles all round: on a board taken a
    # few per cent too large or small, a disc's rim lies a millimetre inside or outside the
    # disc's radius all round
    ux, uy, ur, _, _ = robust_circles(px, py, clear, fx, fy, None)
    own = (np.isfinite(ur) & (np.abs(ur - radius) < FREE_RADIUS_MM)
           & (np.hypot(ux - fx, uy - fy) < FREE_RADIUS_MM))  # (the same disc's rim, not its
    # shadow's or a neighbour's)
    free = _on_circle(px, py, ux, uy, np.where(own, ur, radius), band) & clear & own[:, None]
    onrim = np.where((free.sum(axis=1) > onrim.sum(axis=1))[:, None], free, onrim)
    # a far half's few profiles can fit a wild radius where the rim all round says the disc's
    fr = np.where(np.abs(fr - radius) < 2.5, fr, np.where(own, ur, fr))
    # (each rim's medians over its good points, all rims at once: finite values, so the
    # same as np.median's of each row's)
    spreads = masked_median(np.abs(res), good)
    contrasts = masked_median(strength, good)
    result: list[Rim | None] = []
    for i in range(n):
        if use[i].sum() < 10 or not abs(fr[i] - radius) < 2.5 or not good[i].any():
            result.append(None)
            continue
        spread = 1.4826 * float(spreads[i])
        sigma = _centre_sigma(px[i], py[i], float(fx[i]), float(fy[i]), w[i], spread)
        result.append(Rim(float(fx[i]), float(fy[i]), float(z[i]), float(fr[i]),
                          float(onrim[i].mean()), int(good[i].sum()), spread, sigma,
                          float(contrasts[i]),
                          bool(math.hypot(fx[i], fy[i]) > board.surface_radius),
                          px[i], py[i], use[i], bool(near_half[i]), float(loose[i])))
    return result


FREE_RADIUS_MM = 1.6  # a free fit's radius this near the disc's, and its centre this near the
#                       disc's, can say where its rim lies


def _on_circle(px: np.ndarray, py: np.ndarray, cx: np.ndarray, cy: np.ndarray,
               r: np.ndarray, band: np.ndarray) -> np.ndarray:
    """Which rim points lie on each circle, or on the near half out to the foot's edge."""
    allres = np.hypot(px - cx[:, None], py - cy[:, None]) - r[:, None]
    return (allres > -0.8) & (allres < band + 0.8)


CONSENSUS_MM = 0.5   # a profile's rim this close to a trial circle agrees with it


def _consensus(px: np.ndarray, py: np.ndarray, use: np.ndarray, cx: np.ndarray,
               cy: np.ndarray, radius: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per disc, the circle of ``radius`` through a pair of its rim points that most of its
    points lie on (within CONSENSUS_MM), nearest the estimate among equals; returns its centre
    and which points agree. The pairs are every used point with those a third and a half of
    the way round the used ones from it: the same pairs every time, all of them usable.

    All discs at once: each disc's used points first, padded to the most any has (the padding
    neither votes nor is chosen), its pairs in the same order as one disc's alone, so that the
    first best pair is the same one."""
    bx, by = cx.astype(np.float64).copy(), cy.astype(np.float64).copy()
    agree = np.ones(px.shape, bool)
    count = use.sum(axis=1)
    rows = np.flatnonzero(count >= 3)
    if not len(rows):
        return bx, by, agree
    m = count[rows]
    most = int(m.max())
    order = np.argsort(~use[rows], axis=1, kind="stable")[:, :most]  # used points first
    ar = np.arange(most)
    real = ar[None] < m[:, None]  # (rows, most): which of the padded points are used ones
    mm = m[:, None]
    third = np.take_along_axis(order, (ar[None] + mm // 3) % mm, axis=1)
    half = np.take_along_axis(order, (ar[None] + mm // 2) % mm, axis=1)
    a = np.concatenate([order, order], axis=1)
    b = np.concatenate([third, half], axis=1)
    paired = np.concatenate([real, real], axis=1)
    x, y = px[rows], py[rows]
    x1, y1 = np.take_along_axis(x, a, axis=1), np.take_along_axis(y, a, axis=1)
    x2, y2 = np.take_along_axis(x, b, axis=1), np.take_along_axis(y, b, axis=1)
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    dx, dy = x2 - x1, y2 - y1
    d = np.hypot(dx, dy) + 1e-9
    h = np.sqrt(np.clip(radius**2 - (d / 2) ** 2, 0.0, None))
    # of the two centres, the one on the side of the current estimate
    nx, ny = -dy / d, dx / d
    ccx, ccy = cx[rows][:, None], cy[rows][:, None]
    side = np.sign((ccx - mx) * nx + (ccy - my) * ny)
    side[side == 0] = 1.0
    hx, hy = mx + side * h * nx, my + side * h * ny
    ux, uy = np.take_along_axis(x, order, axis=1), np.take_along_axis(y, order, axis=1)
    dist = np.abs(np.hypot(ux[:, None, :] - hx[:, :, None], uy[:, None, :] - hy[:, :, None])
                  - radius)
    votes = ((dist < CONSENSUS_MM) & real[:, None, :]).sum(axis=2)
    drift = np.hypot(hx - ccx, hy - ccy)
    score = np.where((d > 0.6 * radius) & (drift < 4.0), votes - 0.01 * drift, -1.0)
    score = np.where(paired, score, -np.inf)
    best = np.argmax(score, axis=1)
    at = np.arange(len(rows))
    won = score[at, best] > 0
    rows, best, at = rows[won], best[won], at[won]
    bx[rows], by[rows] = hx[at, best], hy[at, best]
    agree[rows] = np.abs(np.hypot(px[rows] - bx[rows][:, None], py[rows] - by[rows][:, None])
                         - radius) < CONSENSUS_MM
    return bx, by, agree


def _centre_sigma(px: np.ndarray, py: np.ndarray, cx: float, cy: float, w: np.ndarray,
                  spread: float) -> float:
    """Standard error of the centre along the line from the board's centre (the direction zones
    depend on), from the points' scatter and how they are spread round the rim."""
    dx, dy = px - cx, py - cy
    d = np.hypot(dx, dy) + 1e-9
    a = np.stack([dx / d, dy / d], 1) * np.sqrt(w)[:, None]
    try:
        cov = np.linalg.inv(a.T @ a) * spread**2
    except np.linalg.LinAlgError:
        return 9.9
    r = math.hypot(cx, cy)
    u = np.array([cx / r, cy / r]) if r > 1e-6 else np.array([1.0, 0.0])
    return float(math.sqrt(max(float(u @ cov @ u), 0.0)))


def refit(rims: list[Rim], radius: float) -> list[Rim]:
    """The rims' circles fitted again with the radius fixed (a side's measured radius)."""
    if not rims:
        return []
    px = np.stack([r.edge_x for r in rims])
    py = np.stack([r.edge_y for r in rims])
    use = np.stack([r.use for r in rims])
    cx = np.array([r.x_mm for r in rims])
    cy = np.array([r.y_mm for r in rims])
    fx, fy, _, res, w = robust_circles(px, py, use, cx, cy, np.full(len(rims), radius))
    out = []
    for i, rim in enumerate(rims):
        good = rim.use & (w[i] > 0.5)
        spread = (1.4826 * float(np.median(np.abs(res[i][good]))) if good.any()
                  else rim.spread_mm)
        out.append(replace(rim, x_mm=float(fx[i]), y_mm=float(fy[i]), spread_mm=spread,
                           points=int(good.sum())))
    return out


def clutter_round(frame: np.ndarray, camera: CameraModel, centres: np.ndarray,
                  board: Board) -> np.ndarray:
    """The board's typical steepest change (as :func:`clutter`'s) just beyond each disc-sized
    rim about ``centres`` (n, 2 mm on the playing surface), 3 to 9 mm out: the median over
    rays all round. A black board's sensor noise is steep in log colour, and sets the
    surface's clutter, where a window's glare lifting part of it is calm."""
    step = min(0.25, 0.4 * camera.mm_per_px())
    rho = np.arange(board.disc_radius + 3.0, board.disc_radius + 9.0, step)
    prof, outside = profiles(frame, camera, np.asarray(centres, np.float64),
                             np.zeros(len(centres)), rho)
    _, strength = steepest(gradient(prof, step), rho)
    return masked_median(strength, ~outside)


def clutter(frame: np.ndarray, camera: CameraModel, board: Board) -> tuple[float, float]:
    """The bare board's typical steepest change along a short profile (grain, print, sensor
    noise), in the units of :func:`gradient`: on the playing surface, and in the ditch (often
    rougher). A rim must stand above the level of where it lies."""
    rng = np.random.default_rng(0)
    n = 48
    step = min(0.25, 0.4 * camera.mm_per_px())
    rho = np.arange(0.0, 6.0, step)
    out = []
    # the surface from beyond the middle as the tournament board's hole, scaled, leaves it:
    # the same sample whatever the hole measured (48 profiles drawn over another annulus move
    # the median by a few per cent, and every rim's test with it)
    middle = STANDARD.hole_diameter / 2 * board.outer_radius / STANDARD.outer_radius
    for lo, hi, z in ((middle + 5, board.surface_radius - 5, 0.0),
                      (board.surface_radius + 4, board.ditch_radius - 10, -DITCH_DEPTH_MM)):
        r = np.sqrt(rng.uniform(lo ** 2, hi ** 2, n))
        a = rng.uniform(0, 2 * np.pi, n)
        centres = np.stack([r * np.cos(a), r * np.sin(a)], -1)
        prof, outside = profiles(frame, camera, centres, np.full(n, z), rho,
                                 np.array([0.0, math.pi / 2]))
        _, strength = steepest(gradient(prof, step), rho)
        inside = strength[~outside]
        out.append(float(np.median(inside)) if inside.size else 0.0)
    return out[0], max(out)


def face_colours(frame: np.ndarray, camera: CameraModel, rims: list[Rim],
                 radius: float) -> tuple[np.ndarray, np.ndarray]:
    """Each disc's top-face colour (n, 3; RGB): the median over its middle, clear of the rim's
    bevel and shadow; and how even that middle is (the median log-colour distance of its
    samples from that colour: small for a disc's face, large for print or grain)."""
    if not rims:
        return np.zeros((0, 3)), np.zeros(0)
    r = np.array([0.0, 0.2, 0.4, 0.6]) * radius
    a = np.arange(12) * (2 * np.pi / 12)
    pts = np.concatenate([[[0.0, 0.0]], (r[1:, None, None] * np.stack(
        [np.cos(a), np.sin(a)], -1)[None]).reshape(-1, 2)])
    xy = np.array([[k.x_mm, k.y_mm] for k in rims])[:, None, :] + pts[None]
    z = np.array([k.z_mm for k in rims])[:, None].repeat(len(pts), 1)
    uv = camera.project(np.concatenate([xy, z[..., None]], -1)).astype(np.float32)
    got = cv2.remap(frame, uv[..., 0], uv[..., 1], cv2.INTER_LINEAR,
                    borderMode=cv2.BORDER_REPLICATE).astype(np.float64)
    colour = median(got, axis=1)
    spread = median(np.linalg.norm(np.log(got + 8.0) - np.log(colour[:, None] + 8.0),
                                   axis=-1), axis=1)
    return colour[:, ::-1], spread
