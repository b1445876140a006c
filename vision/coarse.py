"""The board's centre and its circles, roughly: where the camera fit starts from.

A board is a set of concentric circles: three thin painted lines (the 15, 10 and outer lines)
and the step where the playing surface meets the ditch. Their radii are what this step measures
rather than assumes, since real boards' lines stand several per cent off the tournament radii.

1. Every strong edge votes along its gradient; the rings' edges all point at the centre.
2. Thin lines are picked out as ridges (darker, or lighter, than the board just inside and just
   outside them, along the line to the centre), steps (the surface's edge) apart: a ridge
   detector does not answer to a step, so the surface's edge cannot pass for the outer line.
3. The centre is the point about which the ridges' radii pile up most sharply (concentric
   circles are sharp about their centre only); a tilted camera's ellipses are allowed for by
   also trying a few squashed metrics.
4. The ridges' radii, counted as a share of each circle's round, show a peak per line. Three
   peaks standing roughly as 1 : 2 : 3 (the tournament board's proportions are only the prior:
   each ratio may stray by 15 %) with a step a little beyond the outermost are the board's
   lines and edge; a few such hypotheses are returned, the likeliest first, for the camera fit
   to confirm or reject (:func:`vision.registration.find_board`).
"""

from __future__ import annotations

import itertools
import math
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace

import cv2
import numpy as np

from rules.board import Board

WORK_PX = 960          # long side of the picture the ridges are found in
_VOTE_PX = 320         # ... and of the one the centre vote looks at
_VOTE_SHARE = 94       # the edges above this percentile of strength vote
BROAD_SHARE = 80       # ... or above this one, when the strongest alone found no board
_VOTE_EDGES = 6400     # ... at most this many of them (never fewer than the strongest 6 %)
_NEAR_PX = 2.0         # a ridge is darker than the board this far (work pixels) either side
_SEARCH_POINTS = 8000  # the strongest ridge points the centre search weighs
_HIST_POINTS = 40000   # ... and the radius count
_BINS = 700            # log-radius bins from 3 px to the frame's size (about 0.9 % each)
_RATIO_SIGMA = 0.11    # the prior's spread of the lines' ratios (log)
_RATIO_MAX = 0.16      # ... and how far they may stray at most
SQUASH_GAIN = 1.1      # a squashed metric must sharpen the circles this much to be taken
DRIFT_GAIN = 1.05      # ... and a tilt's drift of their centres
DRIFT_INNER = 0.05     # ... judged on circles from this share of the picture out
REFEATURE = 0.01       # a centre found this far (share of the picture) from the vote's is
#                        looked about again, when no hypothesis about it scores STRONG
STRONG = 2.0           # (a hypothesis's score, 0 to about 8: three lines and an edge plain)


@dataclass(frozen=True)
class Coarse:
    """One hypothesis of where the board is: its centre (pixels of the full frame), the
    radius in pixels of each circle found (15, 10 and outer line, surface edge; the surface
    edge 0 when none was seen), how the picture squashes circles (``squash`` >= 1 along angle
    ``squash_deg``), which way the lines differ from the board (+1 lighter, -1 darker), and how
    well it all lines up (``score``: 0 to about 4)."""

    centre: tuple[float, float]
    radii_px: tuple[float, float, float, float]
    squash: float
    squash_deg: float
    polarity: float
    score: float
    edges: np.ndarray        # (n, 2) full-frame pixels near the three lines
    edge_circle: np.ndarray  # (n,) which line each is near (0, 1, 2)

    @property
    def px_per_mm(self) -> float:
        """Pixels per mm at the lines, taking the outer line at the tournament's radius."""
        return self.radii_px[2] / 304.8

    def radii_mm(self, board: Board) -> tuple[float, float, float, float]:
        """The circles' radii in mm with the outer line held at ``board``'s (the scale)."""
        k = board.outer_radius / self.radii_px[2]
        surface = self.radii_px[3] * k if self.radii_px[3] > 0 else board.surface_radius
        return (self.radii_px[0] * k, self.radii_px[1] * k, board.outer_radius, surface)


def centre_vote(grey: np.ndarray) -> tuple[float, float]:
    """Where the strong edges' gradient lines cross most (full-frame pixels)."""
    return centre_votes(grey, 1)[0]


VOTES = 4         # the centre search starts from this many of the vote's peaks
_VOTE_APART = 0.05  # ... lying at least this share of the frame's size apart


def centre_votes(grey: np.ndarray, count: int = VOTES, share: float = _VOTE_SHARE
                 ) -> list[tuple[float, float]]:
    """The ``count`` points where the strong edges' gradient lines cross most, the most
    first (full-frame pixels), at least ``_VOTE_APART`` of the frame apart: a straight edge
    as strong as the rings' (a frame's side, a bar of light across the board) spreads its
    votes along a band, and where bands cross they can outvote the centre itself. The edges
    above the ``share`` percentile of strength vote: the strongest alone, unless asked for
    more (a square frame's sides and a video's captions against a pale table can take all
    the strongest edges, a navy board's thin lines none)."""
    h0, w0 = grey.shape
    s = _VOTE_PX / max(h0, w0)
    g = cv2.GaussianBlur(cv2.resize(grey, None, fx=s, fy=s, interpolation=cv2.INTER_AREA),
                         (0, 0), 1.0)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1)
    mag = cv2.magnitude(gx, gy)
    thr = float(np.percentile(mag, share))
    ys, xs = np.nonzero(mag > max(thr, 1e-3))
    if len(xs) > _VOTE_EDGES:  # (drawn evenly: the cost kept when many vote)
        keep = np.random.default_rng(len(xs)).choice(len(xs), _VOTE_EDGES, replace=False)
        ys, xs = ys[keep], xs[keep]
    m = mag[ys, xs]
    ux, uy = gx[ys, xs] / m, gy[ys, xs] / m
    wgt = np.minimum(m / max(thr, 1e-3), 3.0).astype(np.float64)
    h, w = g.shape
    d = np.arange(int(0.04 * max(h, w)), int(0.6 * max(h, w)), 1.0, dtype=np.float32)
    acc = np.zeros(h * w, np.float64)
    for sign in (1.0, -1.0):
        px = (xs[:, None] + sign * ux[:, None] * d[None]).astype(np.int32)
        py = (ys[:, None] + sign * uy[:, None] * d[None]).astype(np.int32)
        ok = (px >= 0) & (px < w) & (py >= 0) & (py < h)
        acc += np.bincount((py * w + px)[ok], np.broadcast_to(wgt[:, None], ok.shape)[ok],
                           minlength=h * w)
    acc = cv2.GaussianBlur(acc.reshape(h, w).astype(np.float32), (0, 0), 1.0)
    apart = max(3, round(_VOTE_APART * max(h, w)))
    local = cv2.dilate(acc, np.ones((2 * apart + 1, 2 * apart + 1), np.uint8))
    ys, xs = np.nonzero((acc >= local) & (acc > 0))
    if not len(xs):
        return [(w / 2 / s, h / 2 / s)]
    order = np.argsort(-acc[ys, xs], kind="stable")[:count]
    return [(float(xs[i]) / s, float(ys[i]) / s) for i in order]


@dataclass(frozen=True)
class _Points:
    x: np.ndarray   # work pixels
    y: np.ndarray
    w: np.ndarray   # strength, 1 to 3

    def some(self, n: int) -> _Points:
        """``n`` of the points, picked evenly at random (the same every time): the strongest
        alone would be wood grain's on a figured board, where the lines' are many but
        fainter."""
        if len(self.w) <= n:
            return self
        keep = np.random.default_rng(len(self.w)).choice(len(self.w), n, replace=False)
        return _Points(self.x[keep], self.y[keep], self.w[keep])


def _features(g: np.ndarray, cx: float, cy: float) -> dict[str, _Points]:
    """The ridge points of each polarity and the step points, about a rough centre."""
    gs = cv2.GaussianBlur(g, (0, 0), 0.7)
    h, w = g.shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    dx, dy = xx - np.float32(cx), yy - np.float32(cy)
    rho = np.sqrt(dx * dx + dy * dy) + np.float32(1e-3)
    ux, uy = dx / rho, dy / rho
    out = cv2.remap(gs, xx + _NEAR_PX * ux, yy + _NEAR_PX * uy, cv2.INTER_LINEAR,
                    borderMode=cv2.BORDER_REPLICATE) - gs
    inn = cv2.remap(gs, xx - _NEAR_PX * ux, yy - _NEAR_PX * uy, cv2.INTER_LINEAR,
                    borderMode=cv2.BORDER_REPLICATE) - gs
    gx = cv2.Sobel(gs, cv2.CV_32F, 1, 0) / 8
    gy = cv2.Sobel(gs, cv2.CV_32F, 0, 1) / 8
    step = np.abs(gx * ux + gy * uy) - 2 * np.abs(gy * ux - gx * uy)
    # a circle's line runs across the line to the centre: its curvature there is all radial
    # (wood grain and print crossing at other angles are left out)
    hb = cv2.GaussianBlur(g, (0, 0), 1.0)
    hxx = cv2.Sobel(hb, cv2.CV_32F, 2, 0)
    hyy = cv2.Sobel(hb, cv2.CV_32F, 0, 2)
    hxy = cv2.Sobel(hb, cv2.CV_32F, 1, 1)
    drr = hxx * ux * ux + 2 * hxy * ux * uy + hyy * uy * uy
    dtt = hxx * uy * uy - 2 * hxy * ux * uy + hyy * ux * ux
    across = np.abs(dtt) < 0.35 * np.abs(drr)
    dark = np.where(across & (drr > 0), np.minimum(out, inn), 0.0)
    light = np.where(across & (drr < 0), -np.maximum(out, inn), 0.0)
    found = {}
    for name, resp in (("dark", dark), ("light", light), ("step", step)):
        small = resp[::4, ::4]
        thr = max(float(np.percentile(small, 93)), 1.0)
        ys, xs = np.nonzero(resp > thr)
        found[name] = _Points(xs.astype(np.float32), ys.astype(np.float32),
                              np.minimum(resp[ys, xs] / thr, 3.0)).some(_HIST_POINTS)
    return found


def _radius(p: _Points, cx: float | np.ndarray, cy: float | np.ndarray,
            squash: float | np.ndarray, angle: float | np.ndarray,
            drift: tuple[float | np.ndarray, float | np.ndarray] = (0.0, 0.0)) -> np.ndarray:
    """The points' radii about a centre, in a metric that undoes a squash of the picture
    along ``angle`` and a camera's tilt, which moves each circle's centre in the picture by
    ``drift`` times the square of its radius (a phone held a few degrees off straight down:
    the 15 line's ellipse and the outer line's are centred pixels apart); given arrays
    (trials,) of centres or shapes, one row per trial."""
    cx = np.asarray(cx, np.float32)[..., None]
    cy = np.asarray(cy, np.float32)[..., None]
    q = np.asarray(squash, np.float32)[..., None]
    c = np.cos(np.asarray(angle, np.float32))[..., None]
    s = np.sin(np.asarray(angle, np.float32))[..., None]
    dx, dy = p.x - cx, p.y - cy
    kx, ky = (np.asarray(k, np.float32)[..., None] for k in drift)
    if kx.any() or ky.any():
        r2 = dx * dx + dy * dy
        dx, dy = dx - kx * r2, dy - ky * r2
    u, v = c * dx + s * dy, (c * dy - s * dx) * q
    return np.sqrt(u * u + v * v) / np.sqrt(q) + np.float32(1e-3)


def _sharpness(p: _Points, cx: np.ndarray, cy: np.ndarray, squash: np.ndarray,
               angle: np.ndarray, inner: float, outer: float, bins: int = _BINS,
               drift: tuple = (0.0, 0.0)) -> np.ndarray:
    """For each trial (centre and shape), how sharply the points' radii pile up: the sum of
    squared counts per bin of log radius (each point weighted as its share of its circle's
    round). Fewer, wider bins make the peak as broad as a coarse search's steps."""
    r = np.atleast_2d(_radius(p, cx, cy, squash, angle, drift))
    n = r.shape[0]
    scale = bins / math.log(outer / inner)
    b = ((np.log(np.clip(r, inner, outer)) - math.log(inner)) * scale).astype(np.int32)
    b = np.minimum(b, bins - 1)
    keep = (r > inner) & (r < outer)
    idx = (b + (np.arange(n, dtype=np.int32) * bins)[:, None])[keep]
    counts = np.bincount(idx, (p.w[None] / r)[keep], minlength=n * bins).reshape(n, bins)
    return np.einsum("ij,ij->i", counts, counts)


_SHAPES = np.array([(1.0, 0.0)] + [(q, math.radians(a)) for q in (1.04, 1.1, 1.2, 1.35)
                                   for a in range(0, 180, 15)], np.float32)


_DRIFTS = (0.24, 0.03), (0.03, 0.01)  # how far (share of the picture's size, at a circle as
#                                     large as it) a tilt's drift is searched, in what steps


@dataclass(frozen=True)
class _Metric:
    """Where the circles are centred in the work picture and how it bends them (see
    :func:`_radius`)."""

    cx: float
    cy: float
    squash: float
    angle: float
    drift: tuple[float, float] = (0.0, 0.0)


_LEVELS = ((0.07, 0.01, _SEARCH_POINTS // 4), (0.014, 0.0035, _SEARCH_POINTS // 2),
           (0.005, 0.00125, _SEARCH_POINTS))  # the centre search's spans and steps (share of
#                                                the picture's size) and points weighed


def _search(p: _Points, m: _Metric, size: float, steps: tuple, inner: float, outer: float
            ) -> tuple[_Metric, float]:
    """The centre about which the points' circles are sharpest in the metric ``m``, searched
    in narrowing steps from its centre, and that sharpness."""
    cx, cy, best = m.cx, m.cy, 0.0
    for span, step, n in steps:
        few = p.some(n)
        offsets = np.arange(-span, span + 1e-9, step) * size
        tx, ty = (v.ravel() for v in np.meshgrid(cx + offsets, cy + offsets))
        # bins about as wide as a step at the lines' radii: a coarse search's steps would
        # step over a narrow peak
        bins = int(min(_BINS, max(40, math.log(outer / inner) * 0.3 / step)))
        scores = _sharpness(few, tx, ty, np.float32(m.squash), np.float32(m.angle), inner,
                            outer, bins, m.drift)
        k = int(np.argmax(scores))
        cx, cy, best = float(tx[k]), float(ty[k]), float(scores[k])
    return replace(m, cx=cx, cy=cy), best


def _centre_search(p: _Points, starts: list[tuple[float, float]], size: float) -> _Metric:
    """The centre and squash that make the points' circles sharpest. The centre is searched
    in narrowing steps with round circles, the widest from each of ``starts`` and the rest
    from the sharpest of those; then a squashed metric is tried, and kept only if it sharpens
    them clearly (a tilted camera's ellipses), the centre then searched once more with it."""
    # the middle of the board left out: discs crowding round the hole ring themselves
    inner, outer = 0.09 * size, 0.75 * size
    m, _ = max((_search(p, _Metric(x, y, 1.0, 0.0), size, _LEVELS[:1], inner, outer)
                for x, y in starts), key=lambda t: t[1])
    m, _ = _search(p, m, size, _LEVELS[1:], inner, outer)
    few = p.some(_SEARCH_POINTS)
    scores = _sharpness(few, np.float32(m.cx), np.float32(m.cy), _SHAPES[:, 0],
                        _SHAPES[:, 1], inner, outer)
    k = int(np.argmax(scores))
    if k != 0 and scores[k] >= SQUASH_GAIN * scores[0]:
        m, _ = _search(p, replace(m, squash=float(_SHAPES[k, 0]), angle=float(_SHAPES[k, 1])),
                       size, _LEVELS[1:], inner, outer)
    return m


def _drift_search(p: _Points, m: _Metric, size: float) -> _Metric | None:
    """A tilt's drift of the circles' centres (see :func:`_radius`) that sharpens them
    clearly, with the centre then the board's (its smallest circles'); None if none does. It
    is searched about ``m``'s centre, the centre then searched again with it, the smaller
    circles in view too (a small board's 15 line lies within the middle the centre search
    leaves out, and it is the circle a drift moves from the others most)."""
    band, outer = DRIFT_INNER * size, 0.75 * size
    few = p.some(_SEARCH_POINTS // 2)
    before = float(_sharpness(few, np.float32(m.cx), np.float32(m.cy), np.float32(m.squash),
                              np.float32(m.angle), band, outer)[0])
    # the circles found so far are centred where the most of them (the outer ones) are: a
    # drift tried keeps the circles at their median radius where they are
    r = _radius(few, m.cx, m.cy, m.squash, m.angle)
    inside = (r > band) & (r < outer)
    r2 = float(np.median(r[inside] ** 2)) if inside.any() else 0.0
    at, sharp = m, before
    for span, step in _DRIFTS:
        e = np.arange(-span, span + 1e-9, step) / size
        kx, ky = (v.ravel().astype(np.float32) for v in np.meshgrid(at.drift[0] + e,
                                                                    at.drift[1] + e))
        tx, ty = at.cx - (kx - at.drift[0]) * r2, at.cy - (ky - at.drift[1]) * r2
        scores = _sharpness(few, tx, ty, np.float32(m.squash), np.float32(m.angle), band,
                            outer, _BINS, (kx, ky))
        j = int(np.argmax(scores))
        at, sharp = _search(p, replace(at, cx=float(tx[j]), cy=float(ty[j]),
                                       drift=(float(kx[j]), float(ky[j]))),
                            size, _LEVELS[1:], band, outer)
    return at if sharp >= DRIFT_GAIN * before else None


SECTORS = 8      # a sectored count takes each radius's share in this many sectors of its round
SECTOR_RANK = 3  # ... and the fourth least of them


def _histogram(p: _Points, cx: float, cy: float, squash: float, angle: float,
               lo: float, hi: float, drift: tuple[float, float] = (0.0, 0.0),
               sectored: bool = False) -> np.ndarray:
    """Per log-radius bin, the points' share of a full circle at that radius. ``sectored``:
    the share a circle has all round, as its fourth sector from the least of eight shows it. A
    painted circle's points lie in every sector; wood grain's run one way across the board, so
    they pass for a circle's only where they cross the radii squarely, in two or three sectors
    of eight, and there at every radius (a figured board's grain buries its lines' peaks in
    the plain count, not in this one)."""
    r = _radius(p, cx, cy, squash, angle, drift)
    b = ((np.log(r) - lo) / (hi - lo) * _BINS).astype(np.int64)
    ok = (b >= 0) & (b < _BINS)
    w = p.w / r / (2 * math.pi)
    if not sectored:
        return np.bincount(b[ok], w[ok], minlength=_BINS)
    sector = (((np.arctan2(p.y - cy, p.x - cx) + math.pi) / (2 * math.pi) * SECTORS)
              .astype(np.int64) % SECTORS)
    counts = np.bincount((sector * _BINS + b)[ok], w[ok] * SECTORS, minlength=SECTORS * _BINS)
    return np.sort(counts.reshape(SECTORS, _BINS), axis=0)[SECTOR_RANK]


@dataclass(frozen=True)
class _Peak:
    radius: float    # work pixels
    mass: float      # share of a circle's round
    snr: float       # over the count's level around it
    sides: float = 0.0  # how unlike the board is on its two sides (log grey; 0: alike)
    inside: float = 0.0   # the picture's log grey just inside it (median over its round)
    outside: float = 0.0  # ... and just outside it


LEVEL_FLOOR = 0.05  # the least count a peak is weighed against (share of a round)


def _peaks(hist: np.ndarray, radii: np.ndarray, first: int, count: int = 14) -> list[_Peak]:
    sm = np.convolve(hist, [0.25, 0.5, 0.25], mode="same").astype(np.float32)
    local = cv2.dilate(sm.reshape(1, -1), np.ones((1, 5), np.uint8)).ravel()
    idx = [i for i in np.flatnonzero((sm >= local) & (sm > 0)) if first <= i < len(sm) - 2]
    idx = sorted(idx, key=lambda i: -sm[i])[:count]
    out = []
    for i in sorted(idx):
        mass = float(hist[max(0, i - 2):i + 3].sum())
        level = max(float(np.median(hist[max(0, i - 25):i + 26])) * 5, LEVEL_FLOOR)
        out.append(_Peak(float(radii[i]), mass, mass / level))
    return out


def _strength(peak: _Peak) -> float:
    """A peak's worth, 0 to 2: how far it stands over the count around it (1 at twenty times,
    2 at four hundred: a crisp line stands far above a faint one, or an edge's shadow)."""
    return float(np.clip(math.log(max(peak.snr, 1e-9)) / math.log(20.0), 0.0, 2.0))


SIDES_APART = 0.25  # log grey: a painted line has the same board either side, an edge not


def _painted(peak: _Peak) -> float:
    """How much a ridge peak looks like a line painted on the board (1) rather than the edge
    between the playing surface and the ditch (the board's colour on one side only)."""
    return math.exp(-((peak.sides / SIDES_APART) ** 2))


BOARD_APART = 0.5  # log grey: the lines all lie on the board, whose colour is the same at each


def _on_board(a: _Peak, b: _Peak, c: _Peak, edge: _Peak | None) -> float:
    """How much three ridge peaks look like lines painted on one board (1) rather than a line
    or two of it and a circle beyond the board (the ditch's far wall, a frame's moulding, which
    have the ditch's or the frame's colour on both sides): the board's colour, taken about the
    15 line, is what lies either side of the 10 and outer lines too, and just inside the
    surface's edge."""
    if a.inside == 0.0 and a.outside == 0.0:
        return 1.0
    level = 0.5 * (a.inside + a.outside)
    others = [b.inside, b.outside, c.inside, c.outside]
    if edge is not None and (edge.inside or edge.outside):
        others.append(edge.inside)
    apart = max(abs(v - level) for v in others)
    return math.exp(-((apart / BOARD_APART) ** 2))


def _two_sides(g: np.ndarray, cx: float, cy: float, squash: float, angle: float,
               peaks: list[_Peak], drift: tuple[float, float] = (0.0, 0.0)) -> list[_Peak]:
    """The peaks with how unlike the picture is just inside and just outside each: the median
    over its round of the log grey difference 3 % of its radius either side."""
    a = np.linspace(0, 2 * np.pi, 180, endpoint=False)
    c, s = math.cos(angle), math.sin(angle)
    out = []
    for p in peaks:
        vals = []
        for k in (0.97, 1.03):
            r = p.radius * k
            # back from the unsquashed metric: u along ``angle``, v across it squashed
            u, v = r * np.cos(a) * math.sqrt(squash), r * np.sin(a) * math.sqrt(squash) / squash
            x = cx + c * u - s * v + drift[0] * r * r
            y = cy + s * u + c * v + drift[1] * r * r
            vals.append(cv2.remap(g, x.astype(np.float32).reshape(1, -1),
                                  y.astype(np.float32).reshape(1, -1), cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_CONSTANT, borderValue=-1.0).ravel())
        inside, outside = vals
        ok = (inside >= 0) & (outside >= 0)
        if ok.sum() > 20:
            li, lo = np.log(inside[ok] + 8.0), np.log(outside[ok] + 8.0)
            out.append(_Peak(p.radius, p.mass, p.snr, float(np.median(np.abs(li - lo))),
                             float(np.median(li)), float(np.median(lo))))
        else:
            out.append(_Peak(p.radius, p.mass, p.snr))
    return out


def _triples(lines: list[_Peak], steps: list[_Peak], board: Board
             ) -> list[tuple[float, tuple[_Peak, _Peak, _Peak], _Peak | None]]:
    """Every three ridge peaks standing roughly as the board's lines do, with the step peak
    that best passes for the surface's edge beyond them, scored (best first)."""
    k10 = board.ten_radius / board.fifteen_radius
    k30 = board.outer_radius / board.fifteen_radius
    ks = board.surface_radius / board.outer_radius
    out = []
    for a, b, c in itertools.combinations(lines, 3):
        d = (math.log(b.radius / a.radius / k10), math.log(c.radius / a.radius / k30),
             math.log(c.radius / b.radius / (k30 / k10)))
        if max(abs(v) for v in d) > _RATIO_MAX:
            continue
        prior = math.exp(-0.5 * sum((v / _RATIO_SIGMA) ** 2 for v in d[:2]))
        edge, edge_score = None, 0.0
        for s in steps:
            q = math.log(s.radius / c.radius)
            if 0.01 < q < 0.2:
                v = _strength(s) * math.exp(-0.5 * ((q - math.log(ks)) / 0.05) ** 2)
                if v > edge_score:
                    edge, edge_score = s, v
        painted = _painted(a) * _painted(b) * _painted(c) * _on_board(a, b, c, edge)
        score = ((_strength(a) + _strength(b) + _strength(c) + edge_score)
                 * (0.5 + 0.5 * prior) * (0.5 + 0.5 * painted))
        out.append((score, (a, b, c), edge))
    out.sort(key=lambda t: -t[0])
    return out


def find(grey: np.ndarray, board: Board, count: int = 4, thorough: bool = False,
         broad: bool = False, sectored: bool = False) -> list[Coarse]:
    """Up to ``count`` hypotheses of the board's centre and circles, the likeliest first
    (module docstring); none when nothing in the frame is ringed like a board. The centre is
    looked about again, and a tilt's drift searched for, when no hypothesis is plain to see
    about the centre first found; or always, if ``thorough`` (when no hypothesis's fit found
    the lines well). ``broad``: the centre voted for by fainter edges too (when no hypothesis
    from the strongest was the board). ``sectored``: the lines counted by the share of their
    round each sector shows (:func:`_histogram`; when the plain count found none)."""
    votes = centre_votes(grey, share=BROAD_SHARE if broad else _VOTE_SHARE)
    vx, vy = votes[0]  # the features' radial directions are taken about the likeliest
    h0, w0 = grey.shape
    s = min(1.0, WORK_PX / max(h0, w0))
    g = cv2.resize(grey, None, fx=s, fy=s, interpolation=cv2.INTER_AREA) if s < 1 else grey
    size = float(max(g.shape))
    first_feats = _features(g, vx * s, vy * s)
    inner = 0.04 * size
    lo, hi = math.log(3.0), math.log(size)
    radii = np.exp(lo + (np.arange(_BINS) + 0.5) * (hi - lo) / _BINS)
    first = int((math.log(inner) - lo) / (hi - lo) * _BINS)
    bins = (lo, hi, radii, first, sectored)
    most = max(2, count // 2)

    def one(polarity: str) -> list[Coarse]:
        """One polarity's best hypotheses (its share of them)."""
        feats = first_feats
        if len(feats[polarity].w) < 50:
            return []
        # from each of the vote's peaks: the circles' sharpness says which is the centre
        m = _centre_search(feats[polarity], [(x * s, y * s) for x, y in votes], size)
        got = _hypotheses(g, feats, polarity, m, board, bins, s, most)
        if thorough or max((c.score for c in got), default=0.0) < STRONG:
            # no board plain to see about that centre: a line's curvature may have been
            # judged about the wrong point (the vote's, not the centre found), which loses
            # the small circles (the 15 line) most; or a tilt blurs the small circles about
            # the large ones' centre
            again = (_features(g, m.cx, m.cy)
                     if math.hypot(m.cx - vx * s, m.cy - vy * s) > REFEATURE * size else None)
            if again is not None and len(again[polarity].w) >= 50:
                feats = again
                m = _centre_search(feats[polarity], [(m.cx, m.cy)], size)
                got += _hypotheses(g, feats, polarity, m, board, bins, s, most)
            tilted = _drift_search(feats[polarity], m, size)
            if tilted is not None:
                got += _hypotheses(g, feats, polarity, tilted, board, bins, s, most)
        return sorted(got, key=lambda c: -c.score)[:most]

    # the two polarities are searched side by side: each is a few hundred array operations
    # that release the interpreter, and a Pi has four cores
    with ThreadPoolExecutor(max_workers=2) as pool:
        out = [c for got in pool.map(one, ("dark", "light")) for c in got]
    out.sort(key=lambda c: -c.score)
    return out[:count]


def _hypotheses(g: np.ndarray, feats: dict[str, _Points], polarity: str, m: _Metric,
                board: Board, bins: tuple, s: float, most: int) -> list[Coarse]:
    """The best ``most`` hypotheses of one polarity's lines about one metric: the ridge and
    step peaks of the radius count, taken three and one at a time (:func:`_triples`)."""
    lo, hi, radii, first, sectored = bins
    pts = feats[polarity]
    cx, cy, squash, angle, drift = m.cx, m.cy, m.squash, m.angle, m.drift
    lines = _two_sides(g, cx, cy, squash, angle, _peaks(_histogram(
        pts, cx, cy, squash, angle, lo, hi, drift, sectored), radii, first), drift)
    steps = _two_sides(g, cx, cy, squash, angle, _peaks(_histogram(
        feats["step"], cx, cy, squash, angle, lo, hi, drift, sectored), radii, first), drift)
    r = _radius(pts, cx, cy, squash, angle, drift)
    out = []
    # the best few of each polarity: light ridges (grain, seams, a glare) can outscore a
    # dark-lined board's own lines, and the other way about
    for score, (a, b, c), edge in _triples(lines, steps, board)[:most]:
        rr = np.array([a.radius, b.radius, c.radius])
        which = np.argmin(np.abs(np.log(r[:, None] / rr[None])), axis=1)
        near = np.abs(np.log(r / rr[which])) < 0.04
        out.append(Coarse((cx / s, cy / s),
                          (a.radius / s, b.radius / s, c.radius / s,
                           edge.radius / s if edge is not None else 0.0),
                          squash, math.degrees(angle), 1.0 if polarity == "light" else -1.0,
                          score, np.stack([pts.x[near], pts.y[near]], -1) / s, which[near]))
    return out
