"""Two discs stacked, told by the outline they make together.

A disc lying on another hides all of it but a crescent: the lower disc's face peeks out on one
side, up to a few mm wide and over half the round. The rim read is the top disc's, clean and
whole, so the reading counts one disc where two score. What gives the pair away is that the
face's colour (or the other side's) goes on past the top disc's rim along a circle of a disc's
size a few mm off its centre: a flat disc's outline ends at its rim, but for its own side on the
half toward the camera; a disc touching it meets it at a point, and a shadow darkens the board
without taking a disc's colour. Two discs of one colour show only in the pair's outline; a
lower disc of the board's colour does not show at all.

The same outline tells what is no disc at all: a fingertip, or the edges of a band of window
light, rings as round as a disc's rim, and its colour (skin, lit board: a disc's, seen from
scratch) runs on past that rim over more than a disc's breadth, where no disc read, peg, hole
or the surface's edge explains it. A disc touching another that was not read shows it over a
sixth of its round at most.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from rules.board import Board
from vision.projection import CameraModel
from vision.rims import profiles, to_log
from vision.sides import RGB

if TYPE_CHECKING:
    from vision.reading import DiscReading

RAYS = 72
STEP_MM = 0.5
INSIDE_MM = 6.0          # profiles start this far inside the rim read (on a face, whichever)
REACH_MM = 12.0          # ... and run this far beyond it
BOARD_MM = (10.0, 13.0)  # the board's colour round a disc: the median over this ring beyond the rim
LIKE_SHARE = 0.5   # a sample is a disc's colour nearer it than the board (each however
#                    shaded), within this share of its change from the board
SHADE_LOG = 90.0   # a shadow darkens a colour by this at most (log units x 100, every channel)
LEAST_CHANGE = 40.0  # a colour this near the board's cannot be told from it there: the
#                      disc's own, or the other side's as a lower disc's crescent (asking
#                      60 of the other side's left a black disc on a pink one over natural
#                      wood, the pink 43 from it, read as one disc: seen layouts-384 27)
GAP_MM = 2.0       # a seam between the two faces this wide breaks no outline
BEYOND_MM = 4.0    # ... and bare board shows from there to this far past where it ends
ON_MM = 0.75       # an outline point this near a disc's circle is on it
OUT_MM = 1.0       # ... and one this far outside the first disc's is another's
SPAN_RAYS = 12     # ... on this many profiles (60 degrees: a neighbour touches over 30)
SEEN_SHARE = 0.7  # ... over this share of where that circle shows past the first, and of
#                   where the outline does
OFFSET_MM = (3.0, 11.0)  # the lower disc's centre this far from the top one's
FIRST_MM = (0.0, 7.0)  # the top disc's centre within this of the disc read
TOP_SHARE = 0.5  # ... its circle followed by this share of its own colour's outline
FACE_IN_MM = 0.5  # a face that cannot be told from the board is taken to reach this far inside
#                   the rim read

STACK_DOUBT = ("another disc shows under its edge: two discs stacked, or one leaning on "
               "another, each of which scores")
RUN_ON_RAYS = 24  # a face's colour running on to the profiles' end over this many profiles in
#                   a row (a third of the round; a neighbour not read covers 12 at most) is
#                   something lying there: on the tuning frames and the retired pairs 317/318
#                   to 331/332, each read alone from scratch, 8 of 46 false discs read surely
#                   that score, and 5 of 7,449 discs truly there
BARE_RUN_ON_RAYS = 12  # ... from a bare photo, a sixth of the round (a disc beside it not read
#                        does that too, and then it is as well flagged): with no empty board
#                        to tell a hand by, a finger or the edge of a band of light over a
#                        black board ran on over 14 to 22 (on 1,300 of those frames read
#                        alone, 11 false discs read surely of 59 that score ran on over 12 or
#                        more, and 23 true ones of 5,271). Against the empty board this
#                        flagged 36 more true discs and changed no reading's outcome
BARE_LIKE = 20.0  # ... and a face this near (log units x 100) the board 10 to 13 mm round it:
#                   a patch of window light over a black board, its corner ringing like a
#                   rim, has the lit board round it too (on 800 tuning and retired frames read
#                   alone, 3 of 15 false discs read surely that score, 6 of 2,637 true ones)
LIKE_RING_DOUBT = ("whether it is a disc: its face is the colour of the board round it (a "
                   "patch of light?)")
RUN_ON_DOUBT = ("whether it is a disc: its colour runs on past its rim over more than a disc's "
                "breadth (a hand, a sleeve or a card?)")


def stacked(frame: np.ndarray, camera: CameraModel, board: Board, discs: list[DiscReading],
            colours: tuple[RGB | None, RGB | None], bare: bool = False) -> list[DiscReading]:
    """The discs, those that lie on another (or under one) flagged: the outline of the disc's
    face and the sides' colours round it is two circles of a disc's size a few mm apart, each
    followed over a good part of its round, where nothing else read or a peg lies; and those
    that score whose outline runs on past their rim over a third of its round flagged as
    perhaps no disc (:func:`_runs_on`). From a ``bare`` photo, over a sixth; and so is one
    whose face is the colour of the board round it (:data:`BARE_LIKE`)."""
    run_on = BARE_RUN_ON_RAYS if bare else RUN_ON_RAYS
    out = list(discs)
    # (a pair across the outer line may score, whichever of them was read)
    within = board.outer_radius + OFFSET_MM[1]
    # (a disc in doubt only of its side may be no disc at all, the graver doubt)
    todo = [i for i, d in enumerate(discs)
            if (not d.uncertain or d.in_doubt_of(d.SIDE)) and not d.in_ditch
            and (d.zone > 0 or math.hypot(d.x_mm, d.y_mm) < within)]
    if not todo:
        return out
    r = board.disc_radius
    rho = np.arange(r - INSIDE_MM, r + REACH_MM + STEP_MM / 2, STEP_MM)
    angles = (np.arange(RAYS) + 0.5) * (2 * np.pi / RAYS)
    ux, uy = np.cos(angles), np.sin(angles)
    centres = np.array([[discs[i].x_mm, discs[i].y_mm] for i in todo])
    prof, outside = profiles(frame, camera, centres, np.full(len(todo), board.disc_thickness),
                             rho, angles)
    sides = [None if c is None else to_log(np.asarray(c[::-1], np.float32)) for c in colours]
    faces = {i: [(f, n < 2) for n, f in enumerate(
        (to_log(np.asarray(discs[i].colour[::-1], np.float32)), sides[discs[i].team],
         sides[1 - discs[i].team])) if f is not None] for i in todo}
    # a side whose colour is not known (its only disc on the board may lie under another) may
    # show as any colour that is neither the board's nor the disc's, nor a blur of the two:
    # its outline is then asked about too, besides the one the colours known draw
    unknown = [sides[1 - discs[i].team] is None for i in todo]
    others = np.array([[d.x_mm, d.y_mm] for d in discs]).reshape(-1, 2)
    pegs = np.array(board.pegs()).reshape(-1, 2)
    ring = (rho >= r + BOARD_MM[0]) & (rho <= r + BOARD_MM[1])
    seen = []
    for k, i in enumerate(todo):
        d = discs[i]
        bare_ring = np.median(prof[k][:, ring].reshape(-1, 3), axis=0)
        # nearer a face's colour than the board's, each however shaded (a shadow scales a
        # colour, shifting its logarithm evenly; the top disc shades the lower one's crescent):
        # the outline lies where its rim blurs halfway
        board_far = _shaded(prof[k] - bare_ring)
        # (by how much: the outline then lies where that falls through zero, to a fraction of
        # a sample, not only at the last sample like a face)
        own = np.full(prof.shape[1:3], -np.inf)
        other = np.full(prof.shape[1:3], -np.inf)
        changes = [float(np.linalg.norm(f - bare_ring)) for f, _ in faces[i]]  # (own first)
        for (f, mine), change in zip(faces[i], changes, strict=True):
            if change >= LEAST_CHANGE:
                near = _shaded(prof[k] - f)
                got = np.minimum(board_far - near, LIKE_SHARE * change - near)
                if mine:
                    own = np.maximum(own, got)
                else:
                    other = np.maximum(other, got)
        told = bool(np.isfinite(own).any())
        run_whole = None if told else _extent(np.maximum(own, other), rho)
        if not told:
            # a face the board's own colour (a light disc on light paint, wood on wood) has no
            # outline of its own, but a lower disc of the other side's colour still shows past
            # it: the face is taken to be where its rim was read, to just inside it
            own[:, rho <= r - FACE_IN_MM] = 1.0
        rest = np.delete(others, i, axis=0)
        outlines = [_outlines(own, other, rho, ~outside[k], (d.x_mm, d.y_mm), (ux, uy), rest,
                              pegs, board)]
        if unknown[k]:
            anyhow = _off_blend(prof[k], bare_ring, faces[i][0][0]) - LEAST_CHANGE
            outlines.append(_outlines(own, np.maximum(other, anyhow), rho, ~outside[k],
                                      (d.x_mm, d.y_mm), (ux, uy), rest, pegs, board))
        whole = outlines[0][1]
        seen.append((outlines, told))
        ends = d.x_mm + rho[-1] * ux, d.y_mm + rho[-1] * uy
        # (a colour running on is judged without the face taken where none was told)
        reach = whole if run_whole is None else run_whole
        if d.zone > 0 and _runs_on(reach >= rho[-1] - STEP_MM, ~outside[k], ends, rest, pegs,
                                   board, run_on):
            out[i] = d.flagged(RUN_ON_DOUBT)
        elif bare and d.zone > 0 and changes[0] < BARE_LIKE:
            out[i] = d.flagged(LIKE_RING_DOUBT)
    # the faces' apparent radius, their rims blurred, as most discs' outlines show it
    typical = [float(np.median(e[c])) for ((e, _, c), *_), told in seen
               if told and c.sum() >= 2 * SPAN_RAYS]
    if not typical:
        return out
    radius = float(np.median(typical))
    # (an outline all round alike, from anywhere within a pair's, is one disc's)
    maybe = [(k, outline) for k, (outlines, _) in enumerate(seen)
             if not out[todo[k]].uncertain for outline in outlines
             if outline[2].sum() >= 2 * SPAN_RAYS
             and np.ptp(np.percentile(outline[1][outline[2]], (5, 95))) >= OFFSET_MM[0] / 2]
    for k, (extent, whole, clear) in maybe:
        i = todo[k]
        d = discs[i]
        if out[i].doubt == STACK_DOUBT:
            continue
        wall = _wall(camera, board, d.x_mm, d.y_mm)
        # the top disc: the circle most of the outline of its own colour follows (the disc
        # read is it, or lies between the two)
        ex, ey = extent[clear] * ux[clear], extent[clear] * uy[clear]
        top, held = _circle(ex, ey, np.zeros(2), FIRST_MM, radius, wall)
        if held < TOP_SHARE * clear.sum():
            continue  # (no one disc's face: a face worn or glared to two colours)
        wx, wy = whole[clear] * ux[clear], whole[clear] * uy[clear]
        rest = _residuals(wx, wy, top[None], radius, wall)[0] > OUT_MM
        if rest.sum() < SPAN_RAYS:
            continue
        low, count = _circle(wx[rest], wy[rest], top, OFFSET_MM, radius, wall)
        if count < SPAN_RAYS:
            continue
        # the lower disc's crescent is seen wherever that circle would show past the top
        # one's, not on a stretch of it (a line or a numeral's edge along the rim)
        along = ux * low[0] + uy * low[1]
        reach = along + np.sqrt(np.maximum(radius ** 2 - low @ low + along ** 2, 0.0))
        shows = _residuals((reach * ux)[clear], (reach * uy)[clear], top[None], radius,
                           wall)[0] > OUT_MM + ON_MM
        if shows.sum() >= SPAN_RAYS // 2 and count >= SEEN_SHARE * max(shows.sum(), rest.sum()):
            out[i] = d.flagged(STACK_DOUBT)
    return out


def _outlines(own: np.ndarray, other: np.ndarray, rho: np.ndarray, shown: np.ndarray,
              centre: tuple[float, float], rays: tuple[np.ndarray, np.ndarray],
              rest: np.ndarray, pegs: np.ndarray, board: Board
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The outline of a disc's own colour and of any disc's (``own``, ``other``: per profile
    and sample, by how much a sample is like one), and the profiles where both may be a stack's
    (``shown`` in the frame): where they part, the disc lies on another of the other colour."""
    either = np.maximum(own, other)
    extent, whole = _extent(own, rho), _extent(either, rho)
    like = either > 0
    # a disc's edge has bare board beyond it: a face that goes on after a break (a worn
    # neighbour's, a line's) is no lower disc's crescent
    after = (rho[None] > whole[:, None] + GAP_MM) & (rho[None] <= whole[:, None] + BEYOND_MM)
    clear = shown & ~(like & after).any(axis=1)
    (x, y), (ux, uy) = centre, rays
    for e in (extent, whole):
        # where the outline reaches another disc read or a peg (or the frame's edge), it is
        # theirs or unknown
        clear &= (e > rho[0]) & (e < rho[-1] - GAP_MM)
        clear &= _clear_of(x + e * ux, y + e * uy, rest, pegs, board)
    return extent, whole, clear


def _off_blend(samples: np.ndarray, board: np.ndarray, face: np.ndarray) -> np.ndarray:
    """How far log colours (..., 3) lie from every blend of the board's and a face's colour
    (a rim's blur between them), once any darkening alike in every channel is taken off: a
    colour of neither and no mix of the two, such as an unknown side's crescent."""
    way = face - board
    t = np.clip(((samples - board) @ way) / max(float(way @ way), 1e-6), 0.0, 1.0)
    return _shaded(samples - (board + t[..., None] * way))


def _clear_of(x: np.ndarray, y: np.ndarray, others: np.ndarray, pegs: np.ndarray,
              board: Board, beyond: float = 0.0) -> np.ndarray:
    """Which board points lie clear of the other discs read (past their rim by ``GAP_MM``
    and ``beyond``) and of the pegs: an outline reaching them there is theirs."""
    clear = np.ones(np.shape(x), bool)
    for ox, oy in others:
        clear &= np.hypot(x - ox, y - oy) > board.disc_radius + GAP_MM + beyond
    for gx, gy in pegs:
        clear &= np.hypot(x - gx, y - gy) > board.peg_diameter / 2 + 2 * GAP_MM
    return clear


def _runs_on(reach: np.ndarray, seen: np.ndarray, ends: tuple[np.ndarray, np.ndarray],
             others: np.ndarray, pegs: np.ndarray, board: Board, rays: int) -> bool:
    """Whether a disc's colour (either side's) reaches the profiles' ``ends`` (``reach``)
    over ``rays`` profiles in a row, ``seen`` in the frame, where no other disc read, peg,
    the hole or the surface's edge lies."""
    x, y = ends
    on = reach & seen & (np.hypot(x, y) > board.hole_diameter / 2 + GAP_MM + 1)
    on &= np.hypot(x, y) < board.surface_radius
    on &= _clear_of(x, y, others, pegs, board, beyond=1.0)
    if on.all():
        return True
    # the longest run round the circle, counted from just after a profile where it breaks
    best = run = 0
    for v in np.roll(on, -int(np.argmin(on))):
        run = run + 1 if v else 0
        best = max(best, run)
    return best >= rays


def _circle(px: np.ndarray, py: np.ndarray, around: np.ndarray, within: tuple[float, float],
            radius: float, wall: tuple[float, float, float]) -> tuple[np.ndarray, int]:
    """The flat disc whose outline most of the points lie on, its centre ``within`` (least,
    most mm) of ``around``, and how many: on a millimetre grid, each point taken within half a
    millimetre more, then on a finer one round the best (a few hundred circles, not
    thousands)."""
    def grid(base: np.ndarray, reach: float, step: float) -> np.ndarray:
        g = np.arange(-reach, reach + step / 2, step)
        xx, yy = np.meshgrid(g, g)
        cand = base + np.stack([xx.ravel(), yy.ravel()], -1)
        off = np.hypot(*(cand - around).T)
        return cand[(off >= within[0]) & (off <= within[1])]

    centre, count = around, 0
    for cand, tol in ((grid(around, within[1], 1.0), ON_MM + 0.5), (None, ON_MM)):
        if cand is None:
            cand = grid(centre, 1.0, 0.25)
        if not len(cand):
            break
        on = (np.abs(_residuals(px, py, cand, radius, wall)) <= tol).sum(axis=1)
        centre, count = cand[int(on.argmax())], int(on.max())
    return centre, count


def _residuals(px: np.ndarray, py: np.ndarray, offsets: np.ndarray, radius: float,
               wall: tuple[float, float, float]) -> np.ndarray:
    """How far each outline point lies outside (positive) a flat disc at each offset: outside its
    top face's circle and its side's foot seen past it (candidates x points)."""
    vx, vy, foot = wall
    dx, dy = px[None] - offsets[:, :1], py[None] - offsets[:, 1:]
    return np.minimum(np.hypot(dx, dy) - radius, np.hypot(dx - vx, dy - vy) - foot)


def _extent(margin: np.ndarray, rho: np.ndarray) -> np.ndarray:
    """Per profile, how far from the centre a disc's colour runs on without a break wider than
    a seam (a face's print or wear, or the seam between two faces, does not end it), to a
    fraction of a sample: where the margin by which a sample is like a disc falls through
    zero between the last such sample and the next."""
    like = margin > 0
    gap = round(GAP_MM / STEP_MM)
    miss = np.pad(~like, ((0, 0), (0, gap + 1)), constant_values=True).astype(np.int32)
    run = np.cumsum(miss, axis=1)
    # where gap + 1 samples in a row are not a disc's: the first such break
    n = like.shape[1]
    broken = (run[:, gap:gap + n + 1] - np.pad(run, ((0, 0), (1, 0)))[:, :n + 1]) == gap + 1
    stop = np.argmax(broken, axis=1)
    at = np.arange(n)[None]
    last = np.where(like & (at < stop[:, None]), at, -1).max(axis=1)
    rows, ok = np.arange(len(last)), (last >= 0) & (last < n - 1)
    end = np.where(ok, last, 0)
    inside = np.where(ok, margin[rows, end], 0.0)
    beyond = np.where(ok, margin[rows, end + 1], -1.0)
    part = np.clip(inside / np.maximum(inside - beyond, 1e-6), 0.0, 1.0)
    return np.where(last >= 0, rho[np.maximum(last, 0)] + part * STEP_MM, rho[0])


def _shaded(diff: np.ndarray) -> np.ndarray:
    """Log-colour distances (..., 3) once any darkening alike in every channel, up to a deep
    shadow's, is taken off."""
    grey = np.clip(diff.mean(axis=-1, keepdims=True), -SHADE_LOG, 0.0)
    return np.linalg.norm(diff - grey, axis=-1)


def _wall(camera: CameraModel, board: Board, x: float, y: float) -> tuple[float, float, float]:
    """Where a flat disc's foot shows on the plane of its top, from its centre: the shift toward
    the point below the camera and its radius there (its side shows between)."""
    cam = camera.centre_mm
    t = board.disc_thickness
    k = t / max(float(cam[2]), t + 1.0)
    return (float(cam[0]) - x) * k, (float(cam[1]) - y) * k, board.disc_radius * (1.0 - k)
