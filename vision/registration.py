"""Finding the board in a frame by itself, measuring its circles, and the camera that sees it.

1. :mod:`vision.coarse` finds the centre and, as a few hypotheses, the radius each circle seems
   to have (the three painted lines and the surface's edge, at whatever proportions this board
   has; the tournament board is only the prior for which circle is which).
2. From a straight-down guess at that centre and size, :mod:`vision.rings` fits the full camera
   to the lines and the surface's edge in narrowing searches, each circle's radius measured with
   it (the outer line's held: it sets the scale). Each fit is judged by how well it puts the
   painted lines where they are; a hypothesis whose fit loses them gives way to the next.
3. With the camera found, :mod:`vision.hole` measures the 20 hole (about 35 mm on every size
   of board, so not scaled with it).

Then :mod:`vision.seats` turns the board about its centre so the seats sit where they do.
"""

from __future__ import annotations

import itertools
import logging
import math
from collections.abc import Iterator
from dataclasses import dataclass, replace

import cv2
import numpy as np

from rules.board import STANDARD, Board
from vision import coarse as coarselib
from vision.errors import NoBoardFound, TooDark
from vision.hole import measure_hole
from vision.lens import FIT_SIGMA, focal_guess
from vision.projection import CameraModel, looking_down
from vision.rings import (
    Measure,
    Priors,
    RingFit,
    RingPoints,
    agreement,
    circles,
    find_points,
    fit_camera,
    ink_beside,
    line_contrast,
    line_hits,
    lines_between,
    weakest_line,
)

log = logging.getLogger(__name__)

GOOD_AGREEMENT = 0.6   # a fit this much in line with the painted lines needs no second try
MIN_AGREEMENT = 0.3    # ... and one less is not the board
SURE_AGREEMENT = 0.8   # ... one less is compared with a hypothesis of another size
OTHER_SIZE = 0.1       # (log of the outer circle's radius: another size than those tried)
MIN_COARSE = 0.6       # a hypothesis whose circles line up this little is not tried
CLOSE = 0.92           # ... and one scoring this share of the one before is tried too
FLIPS = 4              # the hypotheses that found no board tried again with the lines' other
#                        polarity, at most
# how far (mm, one standard deviation) each circle may stand from the tournament board's radius
# (scaled to this board's outer line) when the board is measured: real boards' 15 and 10 lines
# stand several per cent off, and the surface ends a little nearer or further
MEASURE_SIGMA = (9.0, 18.0, 0.0, 12.0)


def grey_of(frame: np.ndarray) -> np.ndarray:
    if frame.ndim == 2:
        return frame.astype(np.float32)
    return cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY).astype(np.float32)


DIM_TOP = 64  # a frame mostly dark is too dark (or mostly flat, too flat) only if its
#               brightest 1 % is below this too (or stands less than half of it above the rest)


def check_exposure(grey: np.ndarray, name: str = "the frame", step: int = 8) -> None:
    """Refuses a frame too dark or too flat to hold a board's lines (judged on every
    ``step``-th pixel: pass a grey already thinned out with ``step=1``). A navy or black board
    on a dark table is mostly dark however well lit, but its painted lines, pegs and discs
    are bright (retired unseen rig layouts-294 04: 95 % of the frame below grey 33, its white
    lines at 240): only a frame whose brightest parts are dim too is under-exposed, and only
    one whose brightest parts stand little above the rest is flat."""
    small = grey[::step, ::step]
    lo, hi, top = np.percentile(small, [5, 95, 99])
    if hi < 40 and top < DIM_TOP:
        raise TooDark(f"{name} is too dark to read the board (95% of it below grey level "
                      f"{hi:.0f} of 255, its brightest 1% below {top:.0f}): turn on the light "
                      "over the board or lengthen the camera's exposure")
    if hi - lo < 12 and top - lo < DIM_TOP / 2:
        raise TooDark(f"{name} is nearly uniform (grey levels {lo:.0f} to {hi:.0f}): the lens "
                      "may be covered or the picture washed out; check the camera and its "
                      "exposure")


@dataclass(frozen=True)
class Found:
    """A board found in a frame: the fitted camera (board turned arbitrarily about its centre
    until :mod:`vision.seats` sets it), the board as measured (its circles' radii), the fit,
    how sure the focal length is, and how well the fit puts the painted lines where they are."""

    camera: CameraModel
    fit: RingFit
    focal_sigma: float
    coverage: float       # share of the circles' profiles that found their circle
    board: Board = STANDARD
    agreement: float = 1.0
    polarity: float = -1.0  # the lines lighter (+1) or darker (-1) than the board
    doubt: str = ""         # why the board as found is not to be trusted as read, in words
    hole_measured: bool = False  # the 20 hole's diameter was measured in the picture


def measured(board: Board, radii: tuple[float, ...]) -> Board:
    """``board`` with its 15, 10 and outer lines and the surface's edge at ``radii`` (mm), the
    ditch's wall kept as far beyond the surface as it was."""
    beyond = board.ditch_radius - board.surface_radius
    return replace(board, fifteen_radius=round(radii[0], 2), ten_radius=round(radii[1], 2),
                   outer_radius=round(radii[2], 2), surface_radius=round(radii[3], 2),
                   ditch_radius=round(radii[3] + beyond, 2))


def scaled(board: Board, scale: float) -> Board:
    """``board`` with its lengths (lines, surface, ditch, hole, pegs, lines' width) ``scale``
    times what they were; its discs as they are."""
    return replace(board, hole_diameter=board.hole_diameter * scale,
                   fifteen_radius=board.fifteen_radius * scale,
                   ten_radius=board.ten_radius * scale, outer_radius=board.outer_radius * scale,
                   surface_radius=board.surface_radius * scale,
                   ditch_radius=board.ditch_radius * scale,
                   peg_diameter=board.peg_diameter * scale, line_width=board.line_width * scale)


def scaled_camera(camera: CameraModel, scale: float) -> CameraModel:
    """The camera seeing a board ``scale`` times as large from ``scale`` times as far: the same
    picture, in the larger board's millimetres."""
    p = camera.params()
    p[11:14] *= scale
    return camera.with_params(p)


# How far a board's 10 and outer lines may stand from the 15 line's, as multiples of its radius:
# real boards put them up to 8 % off twice and three times it, and a reading further off has
# taken another circle (the ditch's wall, a rail) for a line.
TEN_OF_FIFTEEN = (1.7, 2.3)
OUTER_OF_FIFTEEN = (2.6, 3.4)


def _plausible(radii: tuple[float, ...]) -> bool:
    """Whether circles (a coarse look's, rough) could be a board's lines and surface edge."""
    r15, r10, r5, rs = radii[:4]
    return 0.0 < r15 < r10 < r5 < rs and 1.4 < r10 / r15 < 2.8 and 1.02 < rs / r5 < 1.3


def _radii(board: Board) -> tuple[float, float, float, float]:
    return (*board.line_radii, board.surface_radius)


def _proportionate(radii: tuple[float, ...]) -> bool:
    """Whether lines measured by a fit stand as a real board's may."""
    r15, r10, r5 = radii[:3]
    return (_plausible(radii) and TEN_OF_FIFTEEN[0] < r10 / r15 < TEN_OF_FIFTEEN[1]
            and OUTER_OF_FIFTEEN[0] < r5 / r15 < OUTER_OF_FIFTEEN[1])


def find_board(frame: np.ndarray, board: Board, *, focal_px: float | None = None,
               name: str = "the frame", measure: bool = True) -> Found:
    """Finds the board in ``frame``, measures its circles (unless ``measure`` is False: the
    installer stated them in ``board``) and fits the camera (module docstring)."""
    grey = grey_of(frame)
    check_exposure(grey, name)
    h, w = grey.shape
    guess = focal_guess(w, h, focal_px)
    hypotheses = [c for c in coarselib.find(grey, board) if c.score >= MIN_COARSE]
    if not hypotheses:  # (a figured board's grain may bury its lines in the plain count)
        hypotheses = [c for c in coarselib.find(grey, board, sectored=True)
                      if c.score >= MIN_COARSE]
    if not hypotheses:  # (the strongest edges may all vote elsewhere: a red board's thin
        # yellow lines beside a score sheet's ruled lines and a video's caption boxes, in
        # grey no stronger than its blue ditch; fainter edges vote too)
        hypotheses = [c for c in coarselib.find(grey, board, broad=True)
                      if c.score >= MIN_COARSE]
    if not hypotheses:
        raise NoBoardFound(
            f"no crokinole board in {name}: no rings around a centre; make sure the whole "
            "playing surface is in view and lit")
    total = sum(k.samples for k in circles(board))
    # An unknown lens: if the fit does not take from the typical focal length, start again
    # from shorter and longer ones (a phone held at an angle needs about the right one).
    known = guess.prior_sigma < FIT_SIGMA

    def good(b: tuple | None) -> bool:
        return b is not None and b[2] > GOOD_AGREEMENT and b[1].sigma_mm <= 1.5

    held = "edge" if measure else "none"

    fits: list[tuple] = []  # every fit made, for a rival reading of the lines

    lost_lines: list[tuple[coarselib.Coarse, Priors]] = []  # hypotheses that found no board

    def attempt(c: coarselib.Coarse, priors: Priors) -> tuple | None:
        got = _attempt(c, priors)
        if got is None or got[2] < MIN_AGREEMENT:
            lost_lines.append((c, priors))
        if got is not None:
            fits.append(got)
        return got

    def _attempt(c: coarselib.Coarse, priors: Priors) -> tuple | None:
        """The fit from hypothesis ``c``: first with the lines at the prior board's
        proportions (as most boards have them, and the lens's distortion then measured
        with them held), then, if that puts them less than well, with their radii measured,
        kept only if it puts them clearly better."""
        got = _fit_from(grey, c, board, board, priors, w, h, held)
        if not measure or (got is not None and got[2] >= HELD_GOOD and weakest_line(
                grey, got[0], got[3], got[4]) >= HELD_LINE):
            return got
        if not _plausible(c.radii_mm(board)):
            return got
        if got is not None:
            fits.append(got)
        free = _fit_from(grey, c, measured(board, c.radii_mm(board)), board, priors, w, h,
                         "radii")
        if (free is not None and _proportionate(_radii(free[3]))
                and (got is None or free[2] > got[2] + PRIOR_MARGIN)):
            return free
        return got

    # each hypothesis with the lens as expected, then the likeliest with other focal lengths
    expected = Priors(guess.focal_px, guess.prior_sigma)
    best: tuple[CameraModel, RingFit, float, Board, float] | None = None
    best_c = hypotheses[0]
    for i, c in enumerate(hypotheses):
        got = attempt(c, expected)
        if got is not None and (best is None or got[2] > best[2]):
            best, best_c = got, c
        # a close second hypothesis is tried even after a good fit: the one whose lines
        # agree better is the board
        close = i + 1 < len(hypotheses) and hypotheses[i + 1].score >= CLOSE * c.score
        if good(best) and not close:
            break
    tried = list(hypotheses[:i + 1])

    def untried(found: list[coarselib.Coarse]) -> Iterator[coarselib.Coarse]:
        """The hypotheses worth a fit that are unlike any tried, each taken as tried."""
        for c in found:
            if c.score >= MIN_COARSE and not any(_same(c, t) for t in tried):
                tried.append(c)
                yield c

    if best is not None and best[2] < SURE_AGREEMENT:
        # lines found over less of their round than an empty board shows them: the likeliest
        # hypothesis of another size (another set of circles taken for the lines: a black
        # board's hole and pegs ring like lines too) is tried as well
        other = next((c for c in hypotheses[i + 1:] if all(
            abs(math.log(c.radii_px[2] / t.radii_px[2])) > OTHER_SIZE for t in tried)), None)
        if other is not None:
            tried.append(other)
            got = attempt(other, expected)
            if got is not None and got[2] > best[2]:
                best, best_c = got, other
    if best is None or best[2] < SURE_AGREEMENT:
        # the hypotheses looked for more thoroughly (a tilt's drift of the circles' centres),
        # each unlike those tried
        for c in untried(coarselib.find(grey, board, thorough=True)):
            got = attempt(c, expected)
            if got is not None and (best is None or got[2] > best[2]):
                best, best_c = got, c
            if best is not None and best[2] >= SURE_AGREEMENT:
                break
    # other focal lengths only when the lens as expected found the lines barely or not at
    # all (a phone's unknown lens, a board near the frame's edge pulling the pose off)
    if best is None or best[2] < MIN_AGREEMENT + 0.15:
        for k in (0.73, 1.37, 0.55):
            got = attempt(best_c, Priors(guess.focal_px * k, guess.prior_sigma))
            if got is not None and known:
                # A known lens whose own fit went astray (a board near the frame's edge can
                # pull the first pose off): another focal length's fit is only a better start;
                # the lens is fitted again from there, held to what it is.
                mode = held if got[3].line_radii == board.line_radii else "radii"
                got = _stages(grey, got[0], got[3], board,
                              Priors(guess.focal_px, guess.prior_sigma), mode, got[4])
            if got is not None:
                fits.append(got)
            if got is not None and (best is None or got[2] > best[2]):
                best = got
            if good(best):
                break
    if best is not None and not _proportionate(_radii(best[3])):
        # the lines as measured stand as no board's: the fit took another circle for one
        fair = [f for f in fits if _proportionate(_radii(f[3]))]
        best = max(fair, key=lambda f: f[2]) if fair else None

    def lost(b: tuple | None) -> bool:
        return (b is None or b[2] < MIN_AGREEMENT or b[1].inliers < 0.15 * total
                or b[1].sigma_mm > 1.5)

    if lost(best):
        # no board about the centres the strongest edges voted for: fainter edges vote too;
        # or the lines were buried in the count by wood grain: counted sector by sector
        again = ({"broad": True}, {"sectored": True})
        for c in (c for how in again for c in untried(coarselib.find(grey, board, **how))):
            got = attempt(c, expected)
            if got is not None and _proportionate(_radii(got[3])) and (
                    lost(best) or got[2] > best[2]):
                best = got
            if good(best):
                break
    if best is None or best[2] < SURE_AGREEMENT:
        # a hypothesis's circles may be right and their polarity not: a thin light line's
        # flanks ring as dark ridges beside it, found where its own ridge was outscored. Tried
        # last, so a wrong board fitted the other way cannot outbid the right one's first fit
        for c, priors in lost_lines[:FLIPS]:
            got = _attempt(replace(c, polarity=-c.polarity), priors)
            if got is not None:
                fits.append(got)
                if _proportionate(_radii(got[3])) and (best is None or got[2] > best[2]):
                    best = got
    if lost(best):
        raise NoBoardFound(
            f"no crokinole board in {name}: its lines could not be followed around the "
            "centre; make sure the whole playing surface is in view, in focus and lit")
    priors = (Priors(guess.focal_px, guess.prior_sigma) if known
              else Priors(best[0].fx, guess.prior_sigma))
    if measure:
        inside = _outer_inside(grey, best, board, priors)
        if inside is not None:
            fits.append(inside)
    if _beside_ink(grey, best):
        # the fit followed the halo beside the lines: their ink is fitted too, for
        # _explaining to choose between the two
        got = _attempt(replace(best_c, polarity=-best[4]), expected)
        if got is not None:
            fits.append(got)
    best = _explaining(grey, best, fits)
    if measure:
        best = _snap(grey, _remeasured(grey, best, board, priors, fits), board, priors)
    cam, fit, score, found_board, polarity = best
    hole = measure_hole(grey, cam, found_board) if measure else None
    if hole is not None:
        found_board = replace(found_board, hole_diameter=hole)
    coverage = fit.inliers / total
    log.debug("board found: %d ring points, sigma %.3f mm, agreement %.2f, lines at %s",
              fit.inliers, fit.sigma_mm, score, found_board.line_radii)
    return Found(cam, fit, guess.sigma, coverage, found_board, score, polarity,
                 _doubt(best, fits, board, grey, lines=measure), hole is not None)


def _same(a: coarselib.Coarse, b: coarselib.Coarse) -> bool:
    """Whether two hypotheses put the board's centre and circles in the same places (within
    a per cent of the outer circle) and see its lines the same way."""
    near = 0.01 * b.radii_px[2]
    return (a.polarity == b.polarity
            and math.hypot(a.centre[0] - b.centre[0], a.centre[1] - b.centre[1]) < near
            and all(abs(x - y) < near for x, y in zip(a.radii_px[:3], b.radii_px[:3],
                                                     strict=True)))


RIVAL = 0.05      # another reading of the lines whose agreement comes this near puts it in doubt
RIVAL_MM = 3.0    # ... if it takes a line for a circle this far from where the best has it
DOUBT_AGREEMENT = GOOD_AGREEMENT  # a board whose lines agree less than this is in doubt
DOUBT_LINE = 0.5  # ... or one of whose lines is found on less than this share of its round
LINE_NAMES = ("15", "10", "outer")


def _doubt(best: tuple, fits: list[tuple], prior: Board, grey: np.ndarray | None = None,
           lines: bool = True) -> str:
    """Why the board as found is in doubt, or "": its lines followed over too little of
    their round (all of them, or one), or another reading of them (another circle taken for
    one of the lines) explaining them about as well. Circles alone do not say which is the
    outer line, and a guess between two readings that both fit is a guess: the players look,
    or the installer states the board. With the picture (``grey``), a rival that leaves a line
    the best reading follows lying on its own playing surface, between its lines, is no
    board's reading (a board has no other painted circle there: the rival took the surface's
    edge or the ditch's wall for the outer line), unless the best leaves one of the rival's so
    too. ``lines``: whether each line is asked to be followed too (not for a board the
    installer stated, which is taken as stated; ``calibrate`` warns of its lines instead)."""
    cam, _, score, board, polarity = best
    if score < DOUBT_AGREEMENT:
        return (f"the board's lines were found on only {score:.0%} of their round where the "
                "camera puts them")
    if grey is not None and lines:
        # the lines agree well as a whole, one of them not: the fit put that line off (a
        # board of other proportions held at the tournament's: a 10 read as a 15 by 6 mm)
        for line, (hits, seen) in zip(LINE_NAMES, line_hits(grey, cam, board, polarity),
                                      strict=True):
            if seen and hits < DOUBT_LINE * seen:
                return (f"its {line} line was found on only {hits / seen:.0%} of its round "
                        "where the camera puts it")
    for other in fits:
        if other[2] < score - RIVAL or other[0] is cam:
            continue
        apart = _lines_apart(cam, board, other[0], other[3])
        if apart <= RIVAL_MM * board.outer_radius / prior.outer_radius:
            continue
        if grey is not None and _refuted(grey, other, best):
            continue
        radii = "/".join(f"{r:.0f}" for r in other[3].line_radii)
        return ("the board's lines can be read two ways (another reading puts its 15, 10 "
                f"and outer lines at {radii} mm, {apart:.0f} mm off)")
    return ""


def _explaining(grey: np.ndarray, best: tuple, fits: list[tuple]) -> tuple:
    """The best fit, or a rival reading of the lines nearly as good that explains every line
    the best follows when the best leaves one of the rival's lying on its playing surface
    (it took the surface's edge, or a line drawn round it, for the outer line: the real outer
    line then lies in its 5 zone, where no board has one), or when the best follows only the
    halo a sharpened picture leaves beside the rival's lines."""
    fair = [f for f in fits if f[2] >= best[2] - RIVAL and f[0] is not best[0]
            and _proportionate(_radii(f[3])) and not _halo(grey, f, best)
            and _refuted(grey, best, f)]
    return max(fair, key=lambda f: f[2]) if fair else best


def _refuted(grey: np.ndarray, reading: tuple, by: tuple) -> bool:
    """Whether reading ``by`` shows ``reading`` is no board's: ``reading`` follows only the
    halo beside ``by``'s lines, or leaves one of them on its own playing surface while ``by``
    leaves none of its so."""
    return _halo(grey, reading, by) or (_unexplained(grey, reading, by)
                                        and not _unexplained(grey, by, reading))


HALO = 0.5  # a rival of the other polarity whose lines show this little of the best's contrast


def _halo(grey: np.ndarray, reading: tuple, by: tuple) -> bool:
    """Whether ``reading`` follows the halo a sharpened picture leaves beside the lines
    ``by`` follows: ridges of the other polarity, much fainter than the lines' ink."""
    return reading[4] != by[4] and (
        line_contrast(grey, reading[0], reading[3], reading[4])
        < HALO * line_contrast(grey, by[0], by[3], by[4]))


def _beside_ink(grey: np.ndarray, best: tuple) -> bool:
    """Whether ``best`` follows the halo a sharpened picture leaves beside the painted lines,
    not their ink: a ridge of the other polarity within a centimetre of each line is many
    times stronger than the ridges it follows. A black board's white lines, sharpened, are
    ringed by dark halos that a fit of dark lines follows all round (agreeing as well as the
    lines would), the 15 line's inner halo and the others' outer ones: 1 : 1.85 : 2.82 then
    reads as the tournament's 1 : 2 : 3, and every zone near a line is off by the halo's
    distance from it."""
    cam, _, _, board, polarity = best
    return (HALO * ink_beside(grey, cam, board, -polarity)
            > line_contrast(grey, cam, board, polarity))


def _unexplained(grey: np.ndarray, reading: tuple, by: tuple) -> bool:
    """Whether a painted line that reading ``by`` follows (over HELD_LINE of its round) lies,
    as ``reading`` has the board, on its playing surface away from each of its own lines."""
    cam, board = reading[0], reading[3]
    other_cam, other = by[0], by[3]
    shares = line_hits(grey, other_cam, other, by[4])
    tol = RIVAL_MM * board.outer_radius / STANDARD.outer_radius
    for radius, (hits, seen) in zip(other.line_radii, shares, strict=True):
        if seen == 0 or hits < HELD_LINE * seen:
            continue
        at = _circle_at(cam, other_cam, radius)
        if not math.isfinite(at):
            continue
        if (board.hole_diameter / 2 + tol < at < board.outer_radius - tol
                and min(abs(at - mine) for mine in board.line_radii) > tol):
            return True
    return False


def _lines_apart(cam: CameraModel, board: Board, other_cam: CameraModel, other: Board
                 ) -> float:
    """How far (mm, ``cam``'s board) the circles ``other_cam`` takes for the painted lines
    lie from those ``cam`` takes for them, at the most: near 0 when both readings put the
    lines on the same circles of the picture, whatever radii each measured them at."""
    most = 0.0
    for mine, theirs in zip(board.line_radii, other.line_radii, strict=True):
        at = _circle_at(cam, other_cam, theirs)
        if math.isfinite(at):
            most = max(most, abs(at - mine))
    return most


def _circle_at(cam: CameraModel, other_cam: CameraModel, radius: float, count: int = 48
               ) -> float:
    """The radius (mm) at which ``cam`` has the board's circle that ``other_cam`` has at
    ``radius``, over the part of it in the picture (beyond the frame the two cameras are held
    by nothing, and a board partly cut off differs there only); NaN if none of it is."""
    a = (np.arange(count) + 0.5) * (2 * np.pi / count)
    uv = other_cam.project_plane(np.stack([np.cos(a), np.sin(a)], -1) * radius, 0.0)
    inside = ((uv[:, 0] >= 0) & (uv[:, 0] < other_cam.width) & (uv[:, 1] >= 0)
              & (uv[:, 1] < other_cam.height))
    if not inside.any():
        return math.nan
    xy = cam.to_board(uv[inside], 0.0)
    r = np.hypot(xy[:, 0], xy[:, 1])
    return float(np.nanmedian(r)) if np.isfinite(r).any() else math.nan


SNAP = 0.015  # a board measured this near the prior's proportions is tried at them
PRIOR_MARGIN = 0.03  # ... and one further off kept only if its lines agree this much better
HELD_GOOD = 0.75     # a fit at the prior's proportions this much in line needs no measuring,
HELD_LINE = 0.6      # ... if every line of it is found on this share of its round


REMEASURE_TRIES = 2  # the radii a lost line is found at best, each tried as a new start
NARROW = 8.0  # (mm) ... by the fit's narrower searches only: the camera is nearly right


def _remeasured(grey: np.ndarray, best: tuple[CameraModel, RingFit, float, Board, float],
                prior: Board, priors: Priors, fits: list[tuple]
                ) -> tuple[CameraModel, RingFit, float, Board, float]:
    """The fit again from where the lines it lost are found, if that puts them clearly
    better. A board whose 10 line stands 13 % inside twice the 15 line's radius is fitted
    from the coarse look's circles, and a numeral's ring or the grain taken for its 10 line
    holds the fit there: the outer line and the surface's edge agree, the 10 line is found on
    a tenth of its round. With the outer line followed the camera is nearly right, and the
    lost line is looked for round the centre between the radii a real board may have it at
    (:data:`TEN_OF_FIFTEEN`, :data:`OUTER_OF_FIFTEEN`); the fit starts again from each of the
    likeliest. Each fit made is kept in ``fits``, for a rival reading."""
    cam, _, _, board, polarity = best
    shares = [hits / seen if seen else 1.0
              for hits, seen in line_hits(grey, cam, board, polarity)]
    if shares[2] < HELD_LINE or min(shares[:2]) >= HELD_LINE:
        return best
    outer = board.outer_radius
    bounds = ((outer / OUTER_OF_FIFTEEN[1], outer / OUTER_OF_FIFTEEN[0]),
              (outer * TEN_OF_FIFTEEN[0] / OUTER_OF_FIFTEEN[1],
               outer * TEN_OF_FIFTEEN[1] / OUTER_OF_FIFTEEN[0]))
    options = []
    for k, (lo, hi) in enumerate(bounds):
        now = board.line_radii[k]
        if shares[k] >= HELD_LINE:
            options.append((now,))
            continue
        found = lines_between(grey, cam, board, polarity, lo, hi, circles(board)[k].samples)
        options.append((*(r for _, r in found[:REMEASURE_TRIES]), now))
    start = best
    for r15, r10 in itertools.product(*options):
        radii = (r15, r10, outer, board.surface_radius)
        if (r15, r10) == board.line_radii[:2] or not _proportionate(radii):
            continue
        got = _stages(grey, cam, measured(board, radii), prior, priors, "radii", polarity,
                      widest=NARROW)
        if got is None or not _proportionate(_radii(got[3])):
            continue
        fits.append(got)
        if got[2] > max(best[2], start[2] + PRIOR_MARGIN):
            best = got
    return best


BESIDE_LINE = 8.0  # (mm) a circle looked at for another line keeps this far from the lines read


def _outer_inside(grey: np.ndarray, best: tuple[CameraModel, RingFit, float, Board, float],
                  prior: Board, priors: Priors
                  ) -> tuple[CameraModel, RingFit, float, Board, float] | None:
    """The reading that takes a painted circle found in the best's 5 zone for the outer line,
    the best's outer line for the surface's edge, if there is such a circle (found over
    HELD_LINE of its round). A 20-inch board's outer line stands at 2.76 times its 15 line's
    radius, its surface's edge 1.1 times further: taken as the outer line, that edge makes the
    lines stand nearer the tournament board's 1 : 2 : 3 than the board's own do, and the fit
    follows it all round; no coarse look offered the true reading to compare with. Which of the
    two explains the lines is then for :func:`_explaining` to say (a board has no painted
    circle in its 5 zone)."""
    cam, _, _, board, polarity = best
    found = lines_between(grey, cam, board, polarity, board.ten_radius + BESIDE_LINE,
                          board.outer_radius - BESIDE_LINE, circles(board)[0].samples)
    if not found or found[0][0] < HELD_LINE:
        return None
    k = board.outer_radius / found[0][1]
    radii = (board.fifteen_radius * k, board.ten_radius * k, board.outer_radius,
             board.outer_radius * k)
    if not _proportionate(radii):
        return None
    got = _stages(grey, scaled_camera(cam, k), measured(scaled(board, k), radii), prior,
                  priors, "radii", polarity, widest=NARROW)
    return got if got is not None and _proportionate(_radii(got[3])) else None


def _snap(grey: np.ndarray, best: tuple[CameraModel, RingFit, float, Board, float],
          prior: Board, priors: Priors) -> tuple[CameraModel, RingFit, float, Board, float]:
    """The fit again with the circles held at the prior board's radii, if the measured ones
    stand within a per cent or two of them and the held fit puts the lines where they are as
    well: a lens's distortion and a board's proportions both move the circles' radii apart,
    and where the lines are what the prior board says, the camera is then measured with them
    held, as on any tournament board. (Either way the zones come out the same: the lines
    are where the camera puts them.)"""
    cam, fit, score, board, polarity = best
    now = np.array(board.line_radii)
    want = np.array(prior.line_radii)
    if np.max(np.abs(now / want - 1.0)) > SNAP or np.array_equal(now, want):
        return best
    # the lines held at the prior's radii, the surface's edge still measured
    start = measured(prior, (*prior.line_radii, board.surface_radius))
    edge = Measure(tuple(c.radius for c in circles(start)),
                   tuple(c.radius for c in circles(prior)), (0.0, 0.0, 0.0, MEASURE_SIGMA[3]))
    # the lens starts again from what is known of it: measuring the radii leaves the focal
    # length and the distortion freer than they are
    cam = refocused(cam, priors.focal_px)
    pts, lp, _ = find_points(grey, cam, start, 8.0, polarity, None, None)
    if len(pts) < 40:
        return best
    held = fit_camera(pts, cam, priors, free="lens", rounds=3, scale_mm=2.0, measure=edge)
    start = measured(prior, held.radii)
    pts, lp, _ = find_points(grey, held.camera, start, 5.0, lp, None, None)
    if len(pts) < 40:
        return best
    edge = Measure(tuple(c.radius for c in circles(start)), edge.prior, edge.sigma)
    held = fit_camera(pts, held.camera, priors, free="all", rounds=2, scale_mm=0.5,
                      measure=edge)
    start = measured(prior, held.radii)
    held_score = agreement(grey, held.camera, start, lp)
    if held_score >= score - 0.02 and held.sigma_mm <= 1.15 * fit.sigma_mm + 0.02:
        return held.camera, held, held_score, start, lp
    return best


def refocused(cam: CameraModel, focal_px: float) -> CameraModel:
    """The camera with focal length ``focal_px``, moved along its axis so the board looks the
    same size, its distortion undone: a start for a fit that holds the lens to its prior."""
    p = cam.params()
    k = focal_px / p[0]
    p[0] = focal_px
    p[4:8] = 0.0
    p[11:14] *= k
    return cam.with_params(p)


def _measure(board: Board, prior: Board, mode: str) -> Measure | None:
    """What the fit may measure of ``board`` (its circles as they stand now), held to
    ``prior`` (the tournament board's proportions at this board's scale): "radii", the lines
    and the surface's edge; "edge", the surface's edge only; "none", nothing."""
    if mode == "none":
        return None
    now = tuple(c.radius for c in circles(board))
    k = board.outer_radius / prior.outer_radius
    expect = tuple(c.radius * k for c in circles(prior))
    sigma = MEASURE_SIGMA if mode == "radii" else (0.0, 0.0, 0.0, MEASURE_SIGMA[3])
    return Measure(now, expect, sigma)


def _fit_from(grey: np.ndarray, c: coarselib.Coarse, board: Board, prior: Board,
              priors: Priors, w: int, h: int, measure: str
              ) -> tuple[CameraModel, RingFit, float, Board, float] | None:
    """The camera fitted from a coarse hypothesis with these priors, with its line agreement
    (see :func:`vision.rings.agreement`), the board as measured and the lines' polarity, or
    None if it loses the lines. It starts from a first fit to the coarse edges (which allows
    for tilt) and, if that ends badly, from straight down."""
    down = looking_down(w, h, priors.focal_px, c.centre, c.radii_px[2] / board.outer_radius)
    starts = []
    if len(c.edge_circle) >= 40:  # a first fit to the coarse edges: room for tilt and offset
        pick = np.linspace(0, len(c.edge_circle) - 1, min(len(c.edge_circle), 800)).astype(int)
        n = len(pick)
        radius = np.array(board.line_radii)[c.edge_circle[pick]]
        first = RingPoints(c.edges[pick], radius, c.edge_circle[pick], np.ones(n),
                           np.ones(n, bool))
        starts.append(fit_camera(first, down, priors, free="pose", rounds=3,
                                 scale_mm=3.0).camera)
    starts.append(down)
    best = None
    for start in starts:
        got = _stages(grey, start, board, prior, priors, measure, c.polarity)
        if got is not None and (best is None or got[2] > best[2]):
            best = got
        if best is not None and best[2] > GOOD_AGREEMENT:
            break
    return best


def _stages(grey: np.ndarray, cam: CameraModel, board: Board, prior: Board, priors: Priors,
            measure: str, polarity: float | None = None, widest: float = 25.0
            ) -> tuple[CameraModel, RingFit, float, Board, float] | None:
    """Narrowing searches, each fit freer than the last, each circle's radius measured as it
    goes; the surface's edge joins last (a wide search for it could land on the outer line).
    Each fit is judged by how well it puts the painted lines where they are
    (:func:`vision.rings.agreement`), and the best is kept: with a part of the board out of
    view, a freer lens can follow the points found and lose the lines."""
    best = None
    lp, ep = polarity, None
    lines = tuple(i for i, k in enumerate(circles(board)) if k.kind == "line")
    # the wide searches only bring the circles near: a share of their points will do, and
    # they fit the pose alone, which cannot lose the lines the way a freer lens can
    for half, free, rounds, which, most in ((25.0, "pose", 3, lines, 600),
                                            (12.0, "pose", 2, lines, 600),
                                            (8.0, "lens", 2, lines, 900),
                                            (5.0, "lens", 2, lines, None),
                                            (5.0, "lens", 2, None, None),
                                            (5.0, "all", 2, None, None)):
        if half > widest:
            continue
        pts, lp, ep = find_points(grey, cam, board, half, lp, ep, which)
        if len(pts) < 40:
            break
        fit = fit_camera(_some(pts, most), cam, priors, free=free, rounds=rounds,
                         scale_mm=max(0.3, half / 6), measure=_measure(board, prior, measure))
        now = measured(board, fit.radii) if fit.radii and _plausible(fit.radii) else board
        if free == "pose":
            best = (fit.camera, fit, 0.0, now, lp)
        else:
            score = agreement(grey, fit.camera, now, lp)
            if best is None or best[2] == 0.0 or score >= best[2] - 0.02:
                best = (fit.camera, fit, score, now, lp)
        cam, board = best[0], best[3]
    if best is not None and best[2] == 0.0:  # lost before the lens was fitted
        best = (*best[:2], agreement(grey, best[0], best[3], lp), *best[3:])
    return best


def _some(points: RingPoints, most: int | None) -> RingPoints:
    """At most ``most`` of the points, spread evenly through them (all, if None)."""
    if most is None or len(points) <= most:
        return points
    pick = np.linspace(0, len(points) - 1, most).astype(int)
    return RingPoints(points.pixels[pick], points.radius[pick], points.circle[pick],
                      points.strength[pick], points.steady[pick])


def refit_camera(grey: np.ndarray, camera: CameraModel, board: Board, focal_sigma: float,
                 polarity: float) -> tuple[CameraModel, float] | None:
    """A calibrated camera fitted again to a frame's lines (the board as calibrated: its radii
    held), starting from where it was: a rig nudged since calibration. Returns the camera and
    its agreement with the lines, or None when the lines are lost. (The focal length is held
    as :func:`find_board` holds a guessed lens: its uncertainty, ``focal_sigma``, may be wider
    than a fit can be let move it.)"""
    priors = Priors(camera.fx, min(max(focal_sigma, 0.01), FIT_SIGMA))
    got = _stages(grey, camera, board, board, priors, "none", polarity)
    if got is None or got[1].sigma_mm > 1.5:
        return None
    return got[0], got[2]
