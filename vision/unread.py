"""What changed the empty board and is not a disc read.

A round's frame against the empty board shows every change; the discs read explain most of it.
What is left is looked at: a patch as large as a disc is something unread there (a disc leaning
on a peg, two stacked, one whose rim could not be followed, a card), a ring of change around a
disc read puts that disc in doubt (a hand's edge or shadow can pass for a rim), and a patch far
larger than the discs in it explain, reaching in over the surface's edge, is a hand or an arm
over the board, whose own rims are not discs. The discs here are ``vision.reading``'s
``DiscReading`` (anything with its fields).
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from rules.board import Board
from vision.arrays import channel_mean, channel_sq
from vision.empty import Difference, off_grey
from vision.sides import RGB

if TYPE_CHECKING:
    from vision.reading import DiscReading

MIN_CHANGE = 0.06         # log-colour change of a face from the empty board there, at least
CHANGE_PER_NOISE = 4.0    # ... and this many times the frame's own noise against it

SUSPECT_SHARE = 0.35   # a change this share of a disc's area, unread, is something to look at
SUSPECT_CHANGE = 3.0   # ... where the change is this many times the least a disc makes


BESIDE_MM = (7.0, 25.0)  # the ring around a disc read where something else may lie
BESIDE_SHARE = 0.3       # ... over this share of it, unexplained by the discs read


_CHANGES: dict[int, tuple[Difference, float, np.ndarray]] = {}


def changes(diff: Difference, view: Any, board: Board, least: float) -> np.ndarray:
    """Where the board changed within the playing surface's edge, enough to be looked at: by
    three times the least a disc makes, or in its colour (not its brightness: a shadow's or a
    lamp's) averaged over a few mm, three times what the frame's noise leaves once so
    averaged (a disc's face changes the board all over it alike, the noise pixel by pixel,
    large in logarithms on a dark board). Kept for the frame's next question."""
    got = _CHANGES.get(id(diff))
    if got is not None and got[0] is diff and got[1] == least:
        return got[2]
    rr = view.radius
    on = (rr < board.surface_radius) & view.inside
    changed = (diff.size > SUSPECT_CHANGE * least) & on
    mean = cv2.blur(diff.residual, (5, 5))
    mean -= channel_mean(mean)[..., None]
    hue = np.sqrt(channel_sq(mean))
    bare = (rr < board.surface_radius - 5.0) & view.inside
    noise = float(np.median(hue[bare][::2])) if bare.any() else 0.0
    hued = (hue > SUSPECT_CHANGE * max(MIN_CHANGE, CHANGE_PER_NOISE * noise)) & on
    unseen = diff.not_seen
    if unseen is not None:  # (the strict test only where the empty board was not clear)
        hued &= cv2.dilate(unseen.astype(np.uint8), np.ones((7, 7), np.uint8)) == 0
    changed |= hued
    _CHANGES.clear()
    _CHANGES[id(diff)] = (diff, least, changed)
    return changed


def unexplained(diff: Difference, view: Any, board: Board, discs: list,
                 least: float, within: float | None = None) -> np.ndarray:
    """Where the board changed (see :func:`changes`), on the playing surface (within the
    outer line, or ``within`` mm of the centre), beyond what the discs read explain (their
    faces, sides, feet and contact shadows)."""
    rr = view.radius
    reach = board.outer_radius - board.line_width if within is None else within
    on = (rr < reach) & (rr > board.hole_diameter / 2 + 3.0)
    changed = changes(diff, view, board, least) & on
    if discs:
        xy = np.array([[d.x_mm, d.y_mm] for d in discs])
        changed &= view.disc_mask(xy, board.disc_radius + BESIDE_MM[0]) == 0
    return changed


SHADOW_MM = 3.0  # a disc's shadow reaches this far past its rim: a disc's patch of change
OVER_AREA = 4.0  # a change unexplained by the discs read over this many discs' areas in one
#                 patch is something over the board: a hand, an arm, a sleeve
OVER_LIKE = 0.45  # a disc read there whose face is this near its colour (log) is a patch of it
SHADOW_HUE = 0.15  # ... and one beside it whose face darkened the empty board alike in all three
#                    channels within this share of the change is its shadow (on the tuning
#                    frames such faces beside a hand were shadows 14 times in 14, the discs
#                    beside one darkened it 0.36 or more off grey)
BEYOND_CHANGE = 0.5    # log change beyond the surface that is something there, at least
BEYOND_PER_NOISE = 4.0  # ... and this many times its median change there
BEYOND_GAP_MM = 18.0    # gaps in a patch this wide are closed (a hand the board's colour)
OVER_DOUBT = ("a hand, an arm or something else lies over the board here: take the picture "
              "again once it is clear, or check the discs near it")
OVER_BOARD_DOUBT = OVER_DOUBT.replace(" here", "")  # (nothing marked to say where)


def over_board(diff: Difference, view: Any, board: Board, discs: list,
               least: float) -> np.ndarray | None:
    """Where something other than discs lies over the playing surface (the view's labels,
    one per thing, 0 elsewhere), or None: a patch of change the discs read do not explain,
    larger than a few discs (a cluster of discs explains its own; a disc left unread is one
    disc's patch) and reaching in over the surface's edge, or across the ditch from beyond
    it. A hand's knuckles, a sleeve's folds and the arm's edge against the board ring like
    rims."""
    rr = view.radius
    area = math.pi * ((board.disc_radius + SHADOW_MM) * view.ppm) ** 2  # a disc and its shadow
    surface = changes(diff, view, board, least)
    labels, big = _big(surface, view, discs, area, (rr > board.surface_radius - 4.0) & (
        rr < board.surface_radius))
    # A hand the colour of the board changes it little over the surface, but its arm
    # crosses the ditch and the rail to reach it: a patch from well inside the surface's edge
    # to beyond the ditch's is no disc's (one in the ditch touching one at the edge spans
    # less), and is weighed whole. Beyond the surface the change is taken as it is, less its
    # median there (a cloud's): the light field is the surface's, and a dark rail beside
    # dark discs in the ditch would take their shade for the light's. The gaps a hand the
    # board's colour leaves in its own patch are closed.
    band = view.inside & (rr >= board.surface_radius)
    crossing, far = labels, []
    if band.any():
        raw = diff.residual + diff.light[..., None]
        raw -= np.median(raw[band], axis=0)
        size = np.sqrt(channel_sq(cv2.blur(raw, (5, 5))))
        beyond = (size > max(BEYOND_CHANGE, BEYOND_PER_NOISE * float(np.median(size[band])))
                  ) & band
        crossing, far = _big(surface | beyond, view, discs, area,
                             rr > board.ditch_radius + 2.0, rr < board.surface_radius - 4.0,
                             close=max(3, round(BEYOND_GAP_MM * view.ppm) | 1))
    if not big and not far:
        return None
    out = np.where(np.isin(labels, big), labels, 0)
    if far:
        top = int(labels.max()) + 1
        things = _spread(surface, np.where(np.isin(crossing, far), crossing, 0), view, discs,
                         board, max(3, round(BEYOND_GAP_MM * view.ppm) | 1))
        out = np.where((out == 0) & (things > 0), things + top, out)
    return out


def _spread(surface: np.ndarray, things: np.ndarray, view: Any, discs: list, board: Board,
            close: int) -> np.ndarray:
    """The things crossing the ditch (labels), each with the patches of change over the
    surface that touch it once their gaps are closed. A hand of about the board's colour
    changes it in streaks (the grain it hides, between its fingers' edges) a pixel or two
    wide, which the opening that keeps noise out of a patch erases: what is left of it is
    the arm and the palm's edge, and its fingers were marked as things unread, apart from it
    (retired play-317 25: four 5s on a natural board). The discs read are cut out, so none is
    joined to a hand beside it."""
    mask = cv2.morphologyEx(surface.astype(np.uint8), cv2.MORPH_CLOSE,
                            cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (close, close)))
    cut = round((board.disc_radius + SHADOW_MM) * view.ppm)
    for d in discs:
        row, col = cell(view, d.x_mm, d.y_mm, mask.shape)
        cv2.circle(mask, (col, row), cut, 0, -1)
    _, patches = cv2.connectedComponents(mask, connectivity=8)
    out = things.copy()
    for k in np.unique(things[things > 0]):
        joined = np.unique(patches[(things == k) & (patches > 0)])
        out[(out == 0) & np.isin(patches, joined)] = k
    return out


def _big(changed: np.ndarray, view: Any, discs: list, area: float, *reach: np.ndarray,
         close: int = 0) -> tuple[np.ndarray, list[int]]:
    """The patches of ``changed`` (the view's labels) and those of them that touch each of
    the ``reach`` masks with over :data:`OVER_AREA` discs' areas the discs read in them do not
    explain (those rimmed on a hand too: they are counted, not masked, so they cannot cut the
    hand into pieces each too small to tell); gaps narrower than ``close`` pixels closed."""
    mask = cv2.morphologyEx(changed.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    if close:
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(
            cv2.MORPH_ELLIPSE, (close, close)))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    explained = np.zeros(n)
    for d in discs:
        explained[labels[cell(view, d.x_mm, d.y_mm, labels.shape)]] += area
    touching = set(range(1, n))
    for where in reach:
        hit = labels[where]
        touching &= set(np.unique(hit[hit > 0]).tolist())
    return labels, [k for k in sorted(touching)
                    if stats[k, cv2.CC_STAT_AREA] - explained[k] >= OVER_AREA * area]


def cell(view: Any, x: float, y: float, shape: tuple[int, ...]) -> tuple[int, int]:
    """The view's (row, column) of board point (x, y), clipped to ``shape``."""
    col = int(np.clip(round((x + view.extent) * view.ppm - 0.5), 0, shape[1] - 1))
    row = int(np.clip(round((view.extent - y) * view.ppm - 0.5), 0, shape[0] - 1))
    return row, col


def label_at(over: np.ndarray, view: Any, x: float, y: float, reach_mm: float) -> int | None:
    """Which thing over the board (its label) lies within ``reach_mm`` of board point
    (x, y), or None."""
    r = max(0, round(reach_mm * view.ppm))
    row, col = cell(view, x, y, over.shape)
    part = over[max(0, row - r):row + r + 1, max(0, col - r):col + r + 1]
    return int(part.max()) if part.any() else None


BESIDE_OVER_MM = 7.0  # a face this far beyond a disc's radius from something over the board
#                      is beside it (its patch or its shadow may be)


def beside_over(over: np.ndarray, view: Any, board: Board, x: float, y: float) -> bool:
    """Whether a disc-sized face at board point (x, y) lies beside something over the board."""
    return label_at(over, view, x, y, board.disc_radius + BESIDE_OVER_MM) is not None


def colours_away(over: np.ndarray, view: Any, board: Board,
                 faces: list[tuple[float, float, RGB]],
                 colours: tuple[RGB | None, RGB | None] | None) -> list[RGB]:
    """The colours a side's may be judged by beside something over the board: the faces (x,
    y, colour) away from it, and the sides' colours the match knows (one learnt from the
    thing's own patch read as a disc is no side's)."""
    away = [c for x, y, c in faces if not beside_over(over, view, board, x, y)]
    return away + [c for c in colours or () if c is not None]


MARK_OVER_RADII = 2.0  # a mark of what is unread this many discs' radii from something over
#                        the board is its own (a hand the board's colour: see marked_over)


def marked_over(marks: list[DiscReading], over: np.ndarray, view: Any,
                board: Board) -> list[DiscReading]:
    """The marks of what is unread, those over the board said to be what they most likely
    are, once for each thing over it and scoring nothing: a hand seldom hides a disc (if one
    does, the players add it), and the mark holds the round for a look.

    A mark up to two discs' radii from the thing is taken for its own: what is told as over
    the board is a patch of clear change, and a hand's fingers or a sleeve's edge can change
    the board less than that, their marks apart from it. Of 246 marks on six of the tuning
    and retired sets (calibrated), none within 30 mm of a thing over the board lay on a disc
    (33 marks); at 30 to 60 mm, 2 of 23 did."""
    said: set[int] = set()
    out = []
    for d in marks:
        k = label_at(over, view, d.x_mm, d.y_mm, MARK_OVER_RADII * board.disc_radius)
        if k is None:
            out.append(d)
        elif k not in said:
            said.add(k)
            out.append(replace(d, zone=0, doubt=OVER_DOUBT))
    return out


PATCH_AROUND_MM = 40.0  # the colour a thing over the board has round a disc, within this


def part_of(d: DiscReading, over: np.ndarray, view: Any, board: Board,
            colours: list[RGB], diff: Difference) -> bool:
    """Whether a disc read that scores is a patch of what lies over the board
    (:func:`patch_of`)."""
    return not (d.in_ditch or d.zone == 0) and patch_of(
        d.x_mm, d.y_mm, d.colour, d.side_sure, over, view, board, colours, diff)


def patch_of(x_mm: float, y_mm: float, colour: RGB | np.ndarray, sure: bool, over: np.ndarray,
             view: Any, board: Board, colours: list[RGB], diff: Difference) -> bool:
    """Whether a face at (``x_mm``, ``y_mm``) is a patch of what lies over the board: beside
    it, its face of the colour that thing has round it, and nearer that than any of the discs'
    ``colours`` seen elsewhere (a disc under a hand's edge, or in a crowd of its own side's,
    is its side's colour; a fingertip may be as near a shaded disc in the ditch as to the
    hand, not nearer); or its shadow: beside it, a face that only darkened the empty board,
    alike in every channel (a hand's soft shadow over a black board, ringed by a fingertip's
    edge, was read as a black disc; a disc changes the board in its own colour). A disc so
    lost beside a hand is not lost silently: the hand flags the board
    (:func:`vision.reading.read_board`).
    ``sure``: whether the face is surely one side's (True before the sides are told)."""
    if not beside_over(over, view, board, x_mm, y_mm):
        return False
    res = diff.at(view, np.array([[x_mm, y_mm]]), 0.8 * board.disc_radius)[0]
    if float(res.mean()) < 0.0 and off_grey(res) < SHADOW_HUE * float(np.linalg.norm(res)):
        return True
    face = np.log(np.asarray(colour, np.float64) + 8.0)
    side = min((float(np.linalg.norm(face - np.log(np.array(c) + 8.0))) for c in colours),
               default=math.inf)
    if not sure and side >= OVER_LIKE and label_at(over, view, x_mm, y_mm, 0.0) is not None:
        return True  # in the middle of it, and of neither side's colour surely
    thing = _from_thing(face, x_mm, y_mm, over, view)
    return thing < OVER_LIKE and thing < side


def like_over(d: DiscReading, over: np.ndarray, view: Any, board: Board) -> bool:
    """Whether a disc read that scores lies beside what is over the board with its face of the
    colour that thing has round it: kept for lying nearer a side's colour still, it is as
    likely the thing's own patch (a thumb beside worn dark red discs whose wear is the hand's
    tan) as a disc under its edge, and either way not to be taken surely."""
    if d.in_ditch or d.zone == 0 or not beside_over(over, view, board, d.x_mm, d.y_mm):
        return False
    face = np.log(np.asarray(d.colour, np.float64) + 8.0)
    return _from_thing(face, d.x_mm, d.y_mm, over, view) < OVER_LIKE


def _from_thing(face: np.ndarray, x_mm: float, y_mm: float, over: np.ndarray,
                view: Any) -> float:
    """How far a face (log colour) is from the colour the thing over the board has within
    PATCH_AROUND_MM of it (inf if none of it lies there)."""
    r = int(np.ceil(PATCH_AROUND_MM * view.ppm)) + 1  # (a window round the disc, not the view)
    row, col = cell(view, x_mm, y_mm, over.shape)
    win = (slice(max(0, row - r), row + r + 1), slice(max(0, col - r), col + r + 1))
    xx, yy = view.grid
    near = (over[win] > 0) & (np.hypot(xx[win] - x_mm, yy[win] - y_mm) < PATCH_AROUND_MM)
    if not near.any():
        return math.inf
    thing_colour = np.median(view.image[win][near], axis=0)[::-1]  # RGB
    return float(np.linalg.norm(face - np.log(thing_colour + 8.0)))


BESIDE_DOUBT = "something beside it changed the board and is not a disc read (a hand over it?)"


def beside(diff: Difference, view: Any, board: Board, discs: list[DiscReading],
           least: float) -> list[DiscReading]:
    """The discs read, those that score flagged when much of the ring just around them changed
    the board and is no disc read: a hand or an arm over the board (whose edge or shadow can
    pass for a rim), or a disc that could not be read touching it. A disc so flagged explains
    nothing around it, so the rims found all over a hand are flagged one from the next."""
    out = list(discs)
    xx, yy = view.grid
    r0, r1 = (board.disc_radius + m for m in BESIDE_MM)
    for _ in range(3):
        trusted = [d for d in out if d.doubt != BESIDE_DOUBT]
        changed = unexplained(diff, view, board, trusted, least, board.surface_radius)
        if not changed.any():
            break
        more = False
        for k, d in enumerate(out):
            if d.zone == 0 or d.uncertain:
                continue
            lo = max(0, int((view.extent - d.y_mm - r1) * view.ppm))
            hi = int((view.extent - d.y_mm + r1) * view.ppm) + 2
            le = max(0, int((d.x_mm + view.extent - r1) * view.ppm))
            ri = int((d.x_mm + view.extent + r1) * view.ppm) + 2
            dist = np.hypot(xx[lo:hi, le:ri] - d.x_mm, yy[lo:hi, le:ri] - d.y_mm)
            ring = ((dist >= r0) & (dist <= r1) & view.inside[lo:hi, le:ri]
                    & (view.radius[lo:hi, le:ri] < board.surface_radius))
            share = float(changed[lo:hi, le:ri][ring].mean()) if ring.any() else 0.0
            if share > BESIDE_SHARE:
                out[k] = d.flagged(BESIDE_DOUBT)
                more = True
        if not more:
            break
    return out


def unread_places(diff: Difference, view: Any, board: Board, discs: list[DiscReading],
                  least: float) -> list[tuple[float, float]]:
    """Where something changed the empty board where it would score, and is not a disc read:
    a disc leaning on a peg or the rim, two stacked, one whose rim could not be followed, or a
    hand or a stray object (board mm, each change's middle). The reading is then not to be
    trusted without a look there. Where the empty board was not seen bare (a hand lay on it)
    its change weighs nothing: it is taken from the board's round look there, which has none
    of its numerals, grain or seams, and a window's light gone from it changed it all over
    (a disc there is left to its rim, :func:`vision.reading._rejected`, or to a patch that
    stands out in the frame, :func:`vision.reading._changed_patches`). A patch reaching out
    of there is weighed by its part on board seen bare, and put at its whole middle."""
    changed = unexplained(diff, view, board, discs, least)
    mask = cv2.morphologyEx(changed.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, labels, stats, centroids = cv2.connectedComponentsWithStats(mask, connectivity=8)
    area = math.pi * (board.disc_radius * view.ppm) ** 2
    unseen = diff.not_seen
    bare = stats[:, cv2.CC_STAT_AREA] if unseen is None else np.bincount(
        labels[~unseen], minlength=n)
    whole = unexplained(diff, view, board, [], least)
    held = [(d.x_mm, d.y_mm) for d in discs]
    out = []
    for k in range(1, n):
        if bare[k] < SUSPECT_SHARE * area:
            continue
        for x, y in _laid(whole, labels == k, view, board, held, centroids[k]):
            if board.zone(math.hypot(x, y)) > 0:
                out.append((x, y))
    return out


LAID_MAX = 3  # discs laid in one patch of change at most (more is a hand's, not discs')
LAID_TWO = 1.7  # a patch of its own this many discs' areas may be two discs
LAID_RING_MM = (2.0, 6.0)  # the ring past a laid disc's rim whose change counts against it
LAID_MORE = 0.6  # a disc laid after the first takes this share of a disc's area at least (what
#                  the kernel makes of it: a disc's own patch 0.76 to 0.89 in the tests' rig,
#                  the shadow left between two laid 0.45)
LAID_TIE = 0.02  # places whose disc covers the change within this share of a disc's area of
#                  the best are alike: a disc is laid at their middle


def _laid(whole: np.ndarray, patch: np.ndarray, view: Any, board: Board,
          held: list[tuple[float, float]], middle: np.ndarray) -> list[tuple[float, float]]:
    """Where unread discs would lie in ``patch`` (board mm). The patch is what the discs read
    do not explain, their faces and a margin round them taken out, so a disc left unread
    beside one read shows as a crescent whose middle lies off its own, and two touching make
    one patch: on the tuning, retired and seen frames, 12 unread discs were flagged 0.57 to
    0.95 of a radius off in the picture, where the players see no disc. In a patch that
    reaches a disc read's margin, or that is large enough for two discs, a disc is laid
    where it makes the most of the change (:func:`_laying_kernel`; ``whole``: the change with
    the discs read not taken out), clear of the discs read and of those laid before it, and
    again while what is left is enough to look at and holds a disc's patch. A patch of its
    own that holds one disc's patch at most (a disc with its shadow) is put at its middle
    (``middle``, view pixels), as before."""
    r = board.disc_radius * view.ppm
    pad = math.ceil(r + LAID_RING_MM[1] * view.ppm) + 1
    rows, cols = np.nonzero(patch)
    r0, r1 = max(rows.min() - pad, 0), min(rows.max() + pad + 1, patch.shape[0])
    c0, c1 = max(cols.min() - pad, 0), min(cols.max() + pad + 1, patch.shape[1])
    kernel = _laying_kernel(r, view.ppm)
    left = patch[r0:r1, c0:c1].copy()
    area = math.pi * r * r
    margin = board.disc_radius + BESIDE_MM[0] + 1.5 / view.ppm  # (a pixel and a half past it)
    cut = bool(held) and bool((left & (_mask(view, held, margin, r0, r1, c0, c1) > 0)).any())
    mx, my = view.to_board(np.array(middle[0]), np.array(middle[1]))
    own = [(float(mx), float(my))]
    if not cut and left.sum() < LAID_TWO * area:  # a patch of its own, one disc's at most
        return own
    cover = cv2.filter2D(whole[r0:r1, c0:c1].astype(np.float32), -1, kernel,
                         borderType=cv2.BORDER_CONSTANT)
    near = cv2.dilate(left.astype(np.uint8), (kernel > 0).astype(np.uint8)) > 0
    laid: list[tuple[float, float]] = []
    while len(laid) < LAID_MAX and left.sum() >= SUSPECT_SHARE * area:
        free = near & (_mask(view, held + laid, 2 * board.disc_radius - 1.0, r0, r1, c0, c1)
                       == 0)
        if not free.any():
            break
        score = np.where(free, cover, -np.inf)
        best = np.unravel_index(int(np.argmax(score)), score.shape)
        if laid and score[best] < LAID_MORE * area:  # what is left is no disc's (a shadow's)
            break
        _, ties = cv2.connectedComponents(
            (score >= float(score[best]) - LAID_TIE * area).astype(np.uint8))
        rows, cols = np.nonzero(ties == ties[best])  # (two discs' places are two rounds)
        x, y = view.to_board(np.array(c0 + cols.mean()), np.array(r0 + rows.mean()))
        laid.append((float(x), float(y)))
        left &= _mask(view, laid[-1:], board.disc_radius + BESIDE_MM[0], r0, r1, c0, c1) == 0
    return own if len(laid) < (1 if cut else 2) else laid  # (a patch of its own that is
    #                                                          one thing: its middle)


def _laying_kernel(r: float, ppm: float) -> np.ndarray:
    """What a disc laid at the kernel's middle makes of the change round it: each changed pixel
    within its round for it, and each in a ring just past it (:data:`LAID_RING_MM`) against it,
    the ring weighing half the round in all. A disc's own patch of change ends near its rim
    (its shadow aside), so a place between two touching discs, whose round takes in half of
    each and the shadow between them, has much of them again just past it."""
    outer = r + LAID_RING_MM[1] * ppm
    size = 2 * math.ceil(outer) + 1
    c = size // 2
    yy, xx = np.mgrid[0:size, 0:size]
    d = np.hypot(xx - c, yy - c)
    inside = d <= r
    ring = (d > r + LAID_RING_MM[0] * ppm) & (d <= outer)
    kernel = inside.astype(np.float32)
    kernel[ring] = -0.5 * inside.sum() / max(int(ring.sum()), 1)
    return kernel


def _mask(view: Any, xy: list[tuple[float, float]], radius_mm: float, r0: int, r1: int,
          c0: int, c1: int) -> np.ndarray:
    """:meth:`TopView.disc_mask` within a window of the view (rows r0:r1, cols c0:c1)."""
    if not xy:
        return np.zeros((r1 - r0, c1 - c0), np.uint8)
    return view.disc_mask(np.array(xy), radius_mm)[r0:r1, c0:c1]
