"""One frame to the board's discs: the pipeline the daemon calls once per round.

    camera (calibration, or the board found in the frame)
      -> candidates (circles of a disc's size, on the top faces' plane)     vision.discs
      -> rims measured on the full frame, parallax undone                   vision.rims
      -> against the empty board, a hand over it: its patches and shadow    vision.unread
      -> sides by colour                                                    vision.sides
      -> each side's rims fitted again with the side's own apparent radius
      -> zones, with each disc's uncertainty                                vision.zones
      -> against the empty board, what changed it and is no disc read       vision.unread
      -> from a bare photo, the board's print a quarter turn round: no disc vision.printed

A reading is a frozen value; :func:`annotate <vision.annotate.annotate>` draws it, and
:meth:`Reading.to_rules` gives the rules engine's ``board`` event.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

import numpy as np

from rules.board import STANDARD, Board
from rules.events import BoardReading, Disc
from vision import rims as rimlib
from vision.calibration import Calibration, check_frame
from vision.discs import (
    BURNT,
    MIN_STRENGTH,
    PX_PER_MM,
    SCALES,
    board_light,
    candidates,
    disc_scale,
    ditch_colour,
    ring_scores,
    scale_said,
    surround_colour,
    top_view,
    view_maps,
)
from vision.empty import Difference, compare, moved_difference, off_grey, toward
from vision.errors import BoardInDoubt, CameraMoved, UnreadableImage
from vision.glare import BURNT_SURFACE, burnt_discs, burnt_out, burnt_share
from vision.hole import hidden_by
from vision.hole import size_said as hole_size_said
from vision.printed import printed
from vision.projection import CameraModel
from vision.registration import (
    MIN_AGREEMENT,
    find_board,
    grey_of,
    refit_camera,
    scaled,
    scaled_camera,
)
from vision.rings import agreement
from vision.seats import find_turn, place_seats, since
from vision.sides import RGB, agreed_colour, assign, greyed, luma_of, middle_colour, of_any_set
from vision.stacks import stacked
from vision.unread import (
    BESIDE_DOUBT,
    CHANGE_PER_NOISE,
    MIN_CHANGE,
    OVER_BOARD_DOUBT,
    OVER_DOUBT,
    SUSPECT_CHANGE,
    beside,
    cell,
    colours_away,
    label_at,
    like_over,
    marked_over,
    over_board,
    part_of,
    patch_of,
    unread_places,
)
from vision.zones import FLAG_SIGMAS, Registration, judge, put_back

log = logging.getLogger(__name__)

# what a measured rim must look like to count as a disc (bench/vision.py shows the effect)
MIN_COVERAGE = 0.4        # share of the profiles all round that find the rim on the circle
MIN_BOLD_COVERAGE = 0.33  # ... a third of it, for a face that stands out boldly from the board
MIN_ARC_COVERAGE = 0.3    # ... or three tenths, seen as one long tight arc round an even face:
ARC_POINTS = 24           #     far-half profiles agreeing with the fit
ARC_SPREAD_MM = 0.35      #     their scatter about it
EVEN_FACE = 0.1           #     the face's unevenness
BOLD_CONTRAST = 0.8       # (log-colour distance): a disc's face alone then says it is one
MIN_POINTS = 8            # far-half profiles agreeing with the fit
MAX_SPREAD_MM = 0.8       # their scatter about it
MIN_FACE_CONTRAST = 0.2   # log-colour distance of the top face from the bare board around it
MIN_DITCH_CONTRAST = 0.095  # ... from the ditch's floor (a disc there scores nothing either way)
MIN_LIT_CONTRAST = 0.12  # ... and from its lighter quarter (a gap's face is the lit board)
MAX_FACE_UNEVEN = 0.2     # median log-colour distance of the face's samples from its colour
UNEVEN_PER_CONTRAST = 0.1  # ... or this share of its contrast (a dark face's noise is large in
#                            logarithms, yet small beside its difference from a light board)
MAX_RADIUS_OFF_MM = 1.6  # apparent radius against the disc's
ROUND_COVERAGE = 0.7     # against the empty board, a rim followed over this share of its round,
ROUND_RADIUS_MM = 1.0    # ... at the disc's radius within this (and as tightly as ALL_ROUND_*),
ROUND_UNEVEN = 0.5       # ... is a disc's round a face up to this uneven, where it changed
BARE_ROUND_COVERAGE = 0.8  # ... and from scratch, followed over this share, round a face that
#                            stands out boldly (a board's cream numerals on black, at 1280x720,
#                            were followed round 0.71 to 0.81 of their round; worn discs, most
#                            round 0.8 or more)
HOLE_ITSELF = 1.0  # a rim centred within the 20 hole's radius is the hole's own (a red or
#                   pale bottom looks a disc's face): a disc whose centre lies over the hole
#                   falls in, and a deep hole's bottom shows off its centre under a camera
#                   not straight above it
HOLE_CHANGED = 0.5  # ... against the empty board, within half of it: the hole's bottom
#                    changes nothing there, a disc in it is centred within a few mm, and a
#                    hole not measured is the prior's scaled with the board (a 32-inch
#                    board's 35.7 mm hole taken as 40 mm lost a 15 beside it, 19.5 mm out)
FACE_PER_NOISE = 5.0      # ... or, for a whole face's change, this many times a bare patch's
#                           of its size (a face averages its pixels' noise away)
FAINT_CHANGE = 2.0  # a face that changed the empty board less than this many times the least a
#                    face does, and looks like the board round it in the frame, may be bare
#                    board lit otherwise, ringed by lines and discs beside it: checked (on the
#                    tuning and a retired pair, none of 2529 discs kept fell within both,
#                    3 of the 168 rims kept where no disc lay did)
FAINT_DOUBT = ("whether it is a disc: it changed the empty board little and looks like the "
               "board round it")
SURFACE_SEEN = 0.98       # share of the playing surface the frame must show
CUT_MM = 2.0  # how far the frame's edge may cut into the scoring area (inside the outer line)
#               before a disc there is said to be unreadable: a disc cut by the frame's edge is
#               never a candidate (its rim is not wholly in view), so one lying against the
#               outer line there scores with nothing found (a 5 half out of a phone photo of a
#               27-inch board, the cut 1.4 % of the scoring area, read 5 short with nothing
#               said); the share above leaves cuts up to a disc's width deep on large boards
SMALLEST_DISC_PX = 20.0   # a disc fewer pixels across than this is too small to be sure of:
#                           its rim is a few pixels of blur and a worn or dark face a smudge


@dataclass(frozen=True)
class DiscReading:
    """One disc as read: board position (mm, parallax undone), side, zone and how sure."""

    x_mm: float
    y_mm: float
    team: int
    zone: int
    uncertain: bool
    margin_mm: float          # how far the disc is from changing value (mm)
    sigma_mm: float           # standard uncertainty of its distance from the centre (mm)
    pixel: tuple[float, float]  # its top face's centre in the frame
    radius_px: float          # and the face's radius there
    in_ditch: bool
    side_sure: bool
    colour: RGB               # its top face's colour as seen
    confidence: float = 1.0   # 0 to 1: how sure the reading is of this disc (below 0.5: check)
    doubt: str = ""           # what is in doubt, in words, when it is uncertain: its kind,
    #                           a colon, then the case ("its side: the colours cannot tell ...")

    SIDE: ClassVar[str] = "its side"  # (the kinds that other steps weigh apart)
    DISC: ClassVar[str] = "whether it is a disc"

    def in_doubt_of(self, kind: str) -> bool:
        """Whether the disc's doubt is of ``kind`` (the doubt's words before its colon)."""
        return self.doubt.split(":", 1)[0] == kind

    def to_json(self) -> dict[str, Any]:
        return {"x_mm": round(self.x_mm, 1), "y_mm": round(self.y_mm, 1), "team": self.team,
                "zone": self.zone, "uncertain": self.uncertain}

    def to_disc(self) -> Disc:
        return Disc(self.team, self.zone, self.uncertain, self.x_mm, self.y_mm)

    def flagged(self, doubt: str) -> DiscReading:
        """This disc to be checked, for ``doubt``: its confidence below a check's."""
        return replace(self, uncertain=True, confidence=min(self.confidence, 0.3), doubt=doubt)


@dataclass(frozen=True, eq=False)
class Reading:
    """Every disc found, the board values per side, and what the reading was made with."""

    discs: tuple[DiscReading, ...]
    colours: tuple[RGB | None, RGB | None]
    camera: CameraModel
    board: Board
    calibrated: bool
    seat0: str
    doubts: tuple[str, ...] = ()   # why the board as a whole must be checked, in words
    notes: tuple[str, ...] = ()    # what the players or the installer should know
    board_confidence: float = 1.0  # 0 to 1: how sure the board itself was found and seen
    # how much larger than a tournament board's the discs looked, when enough of them were seen
    # cleanly to measure it: what the next readings of the match take the board's size by
    # (``read_board(size=)``), a round with one or two discs being too few to measure it
    size_seen: float | None = None
    # what of the board the picture leaves out (among the doubts too: see out_of_picture): a
    # disc there is not read, but what the discs read say of the board's size and the sides'
    # colours holds, so it alone does not keep them from the next readings
    cut_off: str | None = None

    @property
    def confidence(self) -> float:
        """The reading's confidence: its board's, or its least sure disc's if lower."""
        return min([self.board_confidence, *(d.confidence for d in self.discs)])

    @property
    def check(self) -> bool:
        """Whether the players must look before the reading scores: a disc or the board in
        doubt."""
        return bool(self.doubts) or any(d.uncertain for d in self.discs)

    @property
    def totals(self) -> tuple[int, int]:
        """The board's value per side (20s are the hole sensor's, not the camera's)."""
        t = [0, 0]
        for d in self.discs:
            t[d.team] += d.zone
        return t[0], t[1]

    @property
    def uncertain(self) -> bool:
        return self.check

    @property
    def sides_seen(self) -> tuple[RGB, RGB] | None:
        """The two sides' colours, when this reading told both sides apart surely: what the
        next readings of the match decide a board showing one side only by (on its own, a lone
        colour could be either side's). A board in doubt says nothing sure: its discs may be
        marks, and their colours would mislead every later reading (a picture that leaves
        part of the board out, ``cut_off``, says as much of the discs it shows). Each side
        must show on the playing surface, on a disc read surely, and nothing on the board left
        unexplained: a colour seen only in the ditch may be another set's discs put there, and
        one seen beside changes not read as discs may be no disc's (an arm's patches, one of
        them read as a disc); taken for a side, it would side every later round by a set not
        in play."""
        a, b = self.colours
        if a is None or b is None or _held_back(self.doubts, self.cut_off):
            return None
        if any(d.doubt in UNEXPLAINED for d in self.discs):
            return None  # (a hand over the board: its patches were read beside the discs)
        sure = [any(d.side_sure and d.team == k and not d.in_ditch and not d.uncertain
                    for d in self.discs) for k in (0, 1)]
        return (a, b) if all(sure) else None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"discs": [d.to_json() for d in self.discs],
                               "totals": list(self.totals),
                               "confidence": round(self.confidence, 2)}
        if self.doubts:
            out["check"] = list(self.doubts)
        if self.notes:
            out["notes"] = list(self.notes)
        return out

    def to_rules(self) -> BoardReading:
        """The rules engine's ``board`` event for this reading: its discs (:func:`to_discs`)
        and why the board as a whole must be checked."""
        return BoardReading(to_discs(self), self.doubts)


def confirmed_colours(known: tuple[RGB | None, RGB | None] | None,
                      reading: Reading) -> tuple[RGB | None, RGB | None]:
    """The sides' colours known once the players confirm ``reading`` (sides and all): its own,
    and for a side it showed no scoring disc of, what was known before. A board showing one
    side only so teaches that side's colour, and the next such board need not be asked about.
    The discs that score teach it: the players check the totals, and a disc that scores
    nothing goes unchecked whatever its side. Those sure of their side teach it alone; failing
    them, the side's scoring discs in doubt of it (a board of one colour) only if two or more
    agree on one colour, since a lone disc in doubt may be a black greyed by glare, and only
    where the other side's scoring discs are not sure of theirs: beside them, discs unsure of
    their side were so for their own colour, not for want of another (three dark wood discs
    glared alike to a grey-brown, confirmed, had the next round read a pink 5 as the dark
    side, sure). Discs in
    the ditch teach nothing, however alike: a third set kept there is as alike (a green set
    in the ditch beside a dark red and a red one, confirmed for one dark red's 5, was taken
    for the other side, and the next rounds' reds were all read as one side, sure)."""
    old = known or (None, None)
    out: list[RGB | None] = []
    for k in (0, 1):
        scoring = [d for d in reading.discs if d.team == k and d.zone > 0 and not d.in_ditch]
        other_sure = any(d.team != k and d.zone > 0 and not d.in_ditch and d.side_sure
                         for d in reading.discs)
        sure = [d.colour for d in scoring if d.side_sure]
        colour = (middle_colour(sure) if sure else
                  None if other_sure else agreed_colour([d.colour for d in scoring]))
        out.append(colour or old[k])
    # (a middling grey beside a side of a hue may be the dark side greyed by glare: a dark
    # wood 5 glared grey, confirmed, taught the dark side grey, and the next rounds read a
    # dark wood disc, nearer the red side's colour than that grey, as the red side's, sure)
    kept = [old[k] if c is not None and c != old[k] and greyed(c, out[1 - k]) else c
            for k, c in enumerate(out)]
    return kept[0], kept[1]


def to_discs(reading: Reading) -> tuple[Disc, ...]:
    """The reading as the rules engine's discs, each flagged for its own doubt only (the
    board's doubts ride on the ``board`` event, :meth:`Reading.to_rules`: part of the board out
    of view asks the players to look there, not at every disc). A board in doubt with no disc
    read cannot be scored as read (an empty board is not to be taken on trust then), so
    :class:`BoardInDoubt` says why, for the players to count by hand."""
    if reading.doubts and not reading.discs:
        raise BoardInDoubt("the board could not be read surely: " + "; ".join(reading.doubts)
                           + "; count this round by hand")
    return tuple(d.to_disc() for d in reading.discs)


def _check_frame(frame: object, name: str) -> np.ndarray:
    if not isinstance(frame, np.ndarray) or frame.ndim not in (2, 3) or frame.size == 0:
        raise UnreadableImage(f"{name} is not a picture (expected an image array, got "
                              f"{type(frame).__name__})")
    if frame.ndim == 3 and frame.shape[2] not in (3, 4):
        raise UnreadableImage(f"{name} has {frame.shape[2]} channels; expected a colour picture")
    if frame.dtype != np.uint8:
        raise UnreadableImage(f"{name} has {frame.dtype} pixels; expected 8-bit")
    if frame.ndim == 2:
        import cv2

        return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    return frame[..., :3] if frame.shape[2] == 4 else frame


def locate(frame: np.ndarray, calibration: Calibration | None, board: Board | None, *,
           focal_px: float | None = None, seat0: str = "bottom",
           name: str = "the frame") -> tuple[Registration, Board]:
    """The camera for this frame and the board it sees: the calibration's (followed if the
    camera has moved a little), or the board found in the frame (measured, unless ``board``
    states it)."""
    if calibration is not None:
        check_frame(calibration, frame, name)
        from vision.registration import check_exposure

        check_exposure(grey_of(np.ascontiguousarray(frame[::8, ::8])), name, step=1)
        reg = Registration(calibration.camera, calibration.focal_sigma, calibration.sigma_mm,
                           True, calibration.seat0)
        if calibration.reference is not None:
            reg = still(frame, calibration, reg, name)
        return reg, board or calibration.board
    found = find_board(frame, board or STANDARD, focal_px=focal_px, name=name,
                       measure=board is None)
    grey = grey_of(frame)
    turn = find_turn(grey, found.camera, found.board, found.polarity)
    camera = place_seats(found.camera, turn, found.board, seat0)
    confidence = float(np.clip((found.agreement - MIN_AGREEMENT) / (0.6 - MIN_AGREEMENT),
                               0.0, 1.0))
    return Registration(camera, found.focal_sigma, found.fit.sigma_mm, False, seat0,
                        0.5 + 0.5 * confidence, doubt=found.doubt,
                        hole_measured=found.hole_measured), found.board


MOVED_AGREEMENT = 0.6  # a frame whose lines agree less than this share of the empty board's
MOVED_TURN_DEG = 0.5   # ... or whose board is turned this far from it: the camera has moved
HIDDEN_AGREEMENT = 0.3  # ... unless no camera fits them better, and this share still agree


def still(frame: np.ndarray, cal: Calibration, reg: Registration, name: str) -> Registration:
    """The rig's camera for this frame: the calibration's if the painted lines still sit where
    it puts them and the board is not turned; else fitted again from it (the board's radii as
    calibrated), if that puts the lines back where they were; else :class:`CameraMoved`."""
    grey = grey_of(frame)
    polarity = cal.polarity
    board = cal.board
    now = agreement(grey, cal.camera, board, polarity)
    turn = since(find_turn(grey, cal.camera, board, polarity), cal.turns_seen, board)
    turned = turn.source != "none" and abs(turn.degrees) > MOVED_TURN_DEG
    if now >= MOVED_AGREEMENT * cal.agreement and not turned:
        return replace(reg, confidence=min(1.0, now / max(cal.agreement, 1e-6)))
    refit = refit_camera(grey, cal.camera, board, cal.focal_sigma, polarity)
    if refit is not None:
        camera, score = refit
        turn = since(find_turn(grey, camera, board, polarity), cal.turns_seen, board)
        camera = place_seats(camera, turn, board, cal.seat0) if turn.source != "none" \
            else camera
        score = agreement(grey, camera, board, polarity)
        if score >= 0.8 * cal.agreement and (turned or score > now + 0.05):
            shift = float(np.hypot(*(camera.nadir() - cal.camera.nadir())))
            log.warning("%s: the camera has moved since it was calibrated (%.0f mm); followed "
                        "it", name, shift)
            return replace(reg, camera=camera, confidence=min(1.0, score / cal.agreement),
                           notes=("the camera has moved since it was calibrated; the reading "
                                  "followed it, but calibrate again when the board is empty",))
    if not turned and now >= HIDDEN_AGREEMENT * cal.agreement:
        # the lines that show are where the calibration has them, and no other camera puts
        # them better: the rest are hidden (an arm over the board, discs on the lines)
        return replace(reg, confidence=min(1.0, now / max(cal.agreement, 1e-6)),
                       notes=("much of the board's lines is hidden in this frame (an arm or "
                              "a hand over the board?)",))
    raise CameraMoved(f"camera moved: calibrate again ({name}: the board's lines are no "
                      "longer where the calibration has them)")


def read_board(frame: np.ndarray, calibration: Calibration | None = None, *,
               colours: tuple[RGB | None, RGB | None] | None = None,
               board: Board | None = None,
               focal_px: float | None = None, seat0: str = "bottom",
               size: float | None = None, name: str = "the frame") -> Reading:
    """Reads every disc of a BGR frame (the module docstring's steps).

    ``calibration``: the fixed rig's (see :mod:`vision.calibration`); without one the board is
    found in the frame, seat 0 taken to sit at the frame's ``seat0`` edge. ``board``: the board
    the installer stated (config ``[board]``), used instead of measuring it. ``colours``: the
    two sides' disc colours (RGB, team 0 first) when named in the config or seen in an earlier
    reading of the match (``Reading.sides_seen``), or one side's (the other None) once an
    operator confirmed a reading that showed that side only; otherwise team 0 is the darker.
    ``size``: how much larger than a tournament board's the discs looked in an earlier reading
    of the match (``Reading.size_seen``): the board is taken at that size to begin with, so a
    round with too few discs to measure it is not read at the tournament board's (a size no
    board of 20 to 32 inches gives is not taken). A calibration whose 20 hole measured wider
    than boards' holes are made says a smaller board (:func:`vision.hole.size_said`): taken
    at a size a tenth or more off that, the board's size is as uncertain as the two differ.
    """
    frame = _check_frame(frame, name)
    stated = board is not None
    reg, board = locate(frame, calibration, board, focal_px=focal_px, seat0=seat0, name=name)
    doubts: list[str] = [reg.doubt] if reg.doubt else []
    notes: list[str] = list(reg.notes)
    scale = 1.0
    if not stated and calibration is not None and calibration.board_from == "stated":
        stated = True
    prior = 1.0  # the board's lengths as an earlier round measured them
    carried = (not stated and size is not None and math.isfinite(size)
               and SIZES[0] <= size <= SIZES[1])
    if carried and abs(size - 1.0) > 0.01:
        prior = 1.0 / size
        reg, board = _rescaled(reg, board, prior)
    seen_ = _look(frame, calibration, reg, board)
    made = [seen_]  # every look at the frame, at whatever size (see _better_followed)
    size_seen = None
    tie: tuple[_Seen, _Seen, float] | None = None  # the look taken, the other size's, and
    # how much larger its discs look, when both found as many discs
    size_doubt: tuple[set[int], str] | None = None  # the discs (of the look's kept, in
    # order) whose zone the board's size, not surely known, decides, and why
    if not stated:
        # the board's scale is its outer line's tournament radius unless stated: discs that
        # look another size say the board is another size, one crokinole is played on
        def board_size(s: float) -> bool:
            return _a_board_size(board, s)

        def look_at(s: float) -> _Seen:
            """The frame looked at with the board's lengths ``s`` times, kept in ``made``."""
            got = _look(frame, calibration, *_rescaled(reg, board, s))
            made.append(got)
            return got

        if seen_.diff is None:
            scores = ring_scores(seen_.view, board)
            k = scale_said(scores)
        else:
            scores = ring_scores(seen_.view, board, image=seen_.diff.rings_image)
            k = scale_said(scores, larger_gain=CHANGES_LARGER_GAIN)
            if k == 1.0:
                k = _wide_size(seen_)
        k, other = _best_followed(seen_, k, scores, board_size, look_at)
        if k != 1.0 and board_size(1.0 / k):  # taken only if more discs are found at that
            # size, within the same outer line (a larger board taken reaches onto the table),
            # their radii agreeing; against the empty board the rings are the changes' own,
            # not the board's print, and a larger size they say is taken unless clearly fewer
            # discs are found at it
            # (discs larger than the size looked at can ring twice, inflating its count)
            if other is None:
                other = look_at(1.0 / k)
            if _more_discs(seen_, other, k, board, least=3,
                           share=CHANGES_SIZE_SHARE if seen_.diff is not None and k > 1.0
                           else 1.0):
                scale, seen_ = 1.0 / k, other
            elif _more_discs(seen_, other, k, board, least=3, tie=True):
                # as many discs found at both sizes, their radii agreeing with either (a rim
                # is looked for near the size taken, and fitted a little toward it): the
                # size whose rims were followed round more of their round is taken, and a
                # disc whose zone the other size changes is in doubt
                if _rounder(other, seen_):
                    scale, seen_, other, k = 1.0 / k, other, seen_, 1.0 / k
                tie = (seen_, other, k)
        swept = False
        if seen_.diff is None and _sized_count(seen_) < 3:
            # too few discs to measure: on a board of another size than taken (a 20-inch
            # one is taken a quarter too large) its discs may not be found at all, the
            # board's own rings outweighing theirs; so each other size is looked at. (Against
            # the empty board, a disc not found still shows as a change, and is flagged.)
            def sweep(sizes: tuple[float, ...], best: tuple[float, _Seen] | None
                      ) -> tuple[float, _Seen] | None:
                for k in sizes:
                    if not board_size(scale / k):
                        continue
                    other = look_at(scale / k)
                    than = best[1] if best else seen_
                    if _more_discs(than, other, k, board, least=1) or (
                            _more_discs(than, other, k, board, least=3, tie=True)
                            and _rounder(other, than)):
                        best = (k, other)
                return best

            best = sweep(SWEEP, None)
            if best is None and not _on_surface(seen_, seen_.board.surface_radius):
                # (looking for discs a fifth smaller, the 20 hole itself can pass for one:
                # only where no disc was found nearer the size)
                best = sweep(SWEEP_FAR, None)
            if best is not None:
                scale, seen_, swept = scale / best[0], best[1], True
        # (a size carried from an earlier round was measured, and is refined as one measured
        # here would be: the wider edges measure a much larger disc a few per cent short, and
        # a 21.5-inch board begun at 1.15 times missed a 15 beside the hole at 1.19)
        refine = carried and seen_.diff is None
        measured_at: _Seen | None = None  # the look whose discs moved the board's size
        for _ in range(2):  # the discs' own size, measured, settles it
            k = _disc_size(seen_)
            if abs(k - 1.0) <= (RESCALE / 3 if scale != 1.0 or refine
                                else BARE_RESCALE if seen_.diff is None else RESCALE):
                break
            if not board_size(scale / k):
                # no board is that size: what was read as discs is something else (painted
                # numerals and a hand's edges measured a 20.4-inch board as a 39-inch one)
                if carried:
                    # ... begun at the size an earlier round measured, that round's size is
                    # the wrong one (a board's numerals, read as its one round's discs, had a
                    # 20.7-inch board taken as a 34-inch one; the next round's 17 discs, begun
                    # there, found numerals again): this round is read at its own
                    own = read_board(frame, calibration, colours=colours, focal_px=focal_px,
                                     seat0=seat0, name=name)
                    return replace(own, notes=(*own.notes, (
                        f"an earlier round measured the board as a {_inches(board):.0f}"
                        "-inch one, "
                        "which this round's discs cannot be: read at its own")))
                said = f"the discs look the size of a {_inches(board, scale / k):.0f}-inch board's"
                other = (_board_sized(made, seen_, board, board_size) if seen_.diff is None
                         else None)
                if other is not None:
                    # ... and another look's discs measure a board's size: the board is read
                    # at it, in doubt all the same (a 20.3-inch board's numerals, read as
                    # discs at one size, measured a 36-inch board; at another, a 32-inch one)
                    doubts.append(f"{said} at one size and of a {_inches(board, other):.0f}-inch "
                                  "one's at another: check the board, or state it in the "
                                  "config's [board]")
                    scale = other
                    seen_ = look_at(scale)
                    continue
                doubts.append(f"{said}, and crokinole boards are 20 to 32 inches: something else "
                              "was read as discs; check the board, or state it in the config's "
                              "[board]")
                break
            measured_at = seen_
            scale /= k
            seen_ = look_at(scale)
        if seen_.diff is None and reg.hole_measured and not _hole_size(seen_.board):
            # the hole, measured, says another size than the discs do: the board is looked
            # at the size it says too, and taken below if its discs are followed round
            # clearly better (a 20.6-inch board's discs, a light ring inside each face,
            # were read a fifth their size and the board taken 59 % too large: its hole
            # read 58 mm across; at the hole's size every disc was followed 0.9 round)
            hole = scale * STANDARD.hole_diameter / seen_.board.hole_diameter
            if board_size(hole):
                look_at(hole)
        better = _better_followed(seen_, made) if seen_.diff is None else None
        if better is not None:
            scale, seen_ = better.board.outer_radius / board.outer_radius, better
        if (measured_at is not None and _sized_count(seen_) < 3
                and _lost(seen_, measured_at)):
            # the size the discs measured, too few of them at it to measure it again, loses a
            # scoring disc the look they were measured in found: that size is as much in
            # doubt as the disc (a stream's caption letters beyond the outer line, read as
            # discs, measured a board 12 % small; at that size its 15 was not found at all)
            doubts.append(LOST_AT_SIZE_DOUBT)
        few = _few_discs_size(seen_)
        if few is not None:
            # the board read at the size its few discs' rings say too: the discs whose zone
            # is the same either way are sure whichever it is; the others, or any disc found
            # at one size only, are in doubt
            said = (f"the discs look {few - 1:+.0%} the size the board is taken at, too few "
                    "of them to be sure of its size: check the board, or state it in the "
                    "config's [board]")
            sizes = _size_dependent(seen_, look_at(scale / few))
            if sizes is None:
                doubts.append(said)
            elif sizes:
                size_doubt = (sizes, "its zone: " + said.replace("the discs look", "the discs "
                                                                  "on the board look"))
        elif swept and _sized_count(seen_) < 3:
            doubts.append("its discs were found only on taking the board for another size, "
                          "too few of them to be sure of it: check the board, or state it in "
                          "the config's [board]")
        elif scale != 1.0 and _sized_count(seen_) >= 3:
            # (only a size the discs moved the reading to says anything: rims are looked for
            # near the size taken, so at the size begun with they agree with it either way)
            size_seen = 1.0 / (prior * scale)
        if few is None and tie is not None and tie[0] is seen_:
            # (the two looks found as many discs: one the other size alone finds means one
            # it does not find, which is flagged)
            sizes = _size_dependent(seen_, tie[1], extra=False)
            if sizes:
                size_doubt = (sizes, f"its zone: the discs fit a board {1 / tie[2] - 1:+.0%} "
                              "the size it is taken at as well: check the board, or state it "
                              "in the config's [board]")
        if carried and abs(1.0 / scale - 1.0) > SIZE_JUMP:
            # a board keeps its size through a match: one of the two readings is wrong (an
            # arm's patches read as discs measured a 30-inch board a fifth smaller, and the
            # next round, begun at that size, found none of its discs)
            doubts.append(f"the discs look {1 / scale - 1:+.0%} the size an earlier round of "
                          "the match measured, and a board keeps its size: check the board, "
                          "or state it in the config's [board]")
    scale *= prior
    reg, board = seen_.reg, seen_.board
    if not stated:
        size_sigma = _size_sigma(seen_)
        hole = hole_size_said(calibration.board) if calibration is not None else None
        gap = abs(scale * hole - 1.0) if hole is not None else 0.0
        if gap > SIZE_JUMP:
            # the 20 hole, measured on the empty board, says a smaller board than the size
            # taken, and against the empty board the discs hardly say theirs (rims are fitted
            # near the radius expected): the size is as uncertain as the two differ (a 20-inch
            # board read at the tournament's had a 10 touching the 15 line read 15, by 6 mm)
            size_sigma = max(size_sigma, gap)
            notes.append(f"the 20 hole says a board {1 / (scale * hole) - 1:+.0%} the size it "
                         "is taken at: discs near a line are flagged; state the board in the "
                         "config's [board]")
        reg = replace(reg, size_sigma=size_sigma)
    if scale != 1.0:
        notes.append(f"the discs look {1 / scale - 1:+.0%} the size a tournament board's would; "
                     f"the board is taken as a {_inches(board):.1f}-inch playing surface "
                     "(state the board in the config's [board] to be sure)")
    view, diff, least = seen_.view, seen_.diff, seen_.least
    left_out = out_of_picture(view, board)
    if left_out is not None:
        doubts.append(left_out)
    across = disc_pixels(reg.camera, board)
    if across < SMALLEST_DISC_PX:
        doubts.append(too_small(across))
    burnt = burnt_share(view, board)
    if burnt >= BURNT_SURFACE:
        doubts.append(burnt_out(burnt))
    rims, faces, light, change, keep = (seen_.rims, seen_.faces, seen_.light, seen_.change,
                                        seen_.keep)
    faint = [_faint(seen_, i) for i in keep]
    # a faint face that scores nothing is left out: asked about for nothing, its colour (the
    # board's) would be taken for a side's (the black band between a black board's outer
    # line and its ditch, ringed by both, taught a match's rounds a black side: a dark wood
    # disc then fell to the yellow side, sure of it, round after round)
    idle = [f and not rims[i].in_ditch and board.zone(math.hypot(rims[i].x_mm, rims[i].y_mm)) == 0
            for f, i in zip(faint, keep, strict=True)]
    # so are a hand's own patches and shadow, where it lies over the board, before the sides
    # are told: their colours are no side's (a hand's skin beside a board's red and yellow
    # discs had every disc read as one side, none sure of it). Whose they are when the sides
    # are known is asked again below, with what the sides say.
    over, hands = _hands(seen_, keep, idle, colours)
    idle = [x or h for x, h in zip(idle, hands, strict=True)]
    if any(idle):
        if size_doubt is not None:  # (its places among the kept rims, renumbered)
            place = np.cumsum([not x for x in idle]) - 1
            size_doubt = ({int(place[k]) for k in size_doubt[0] if not idle[k]}, size_doubt[1])
        keep = [i for i, x in zip(keep, idle, strict=True) if not x]
        faint = [f for f, x in zip(faint, idle, strict=True) if not x]
    seen = [_rim_confidence(rims[i], None if change is None else float(change[i]), least)
            for i in keep]
    rims, faces, light = [rims[i] for i in keep], faces[keep], light[keep]
    scoring = np.array([board.zone(math.hypot(r.x_mm, r.y_mm)) > 0 for r in rims], bool)
    sides = assign(faces, colours, light, scoring)
    if sides.doubt:
        doubts.append(sides.doubt)
    rims = _side_radius(rims, sides.teams, board)
    discs = []
    for rim, team, sure, face, well in zip(rims, sides.teams, sides.sure, faces, seen,
                                           strict=True):
        pix = reg.camera.project(np.array([rim.x_mm, rim.y_mm, rim.z_mm]))
        edge = reg.camera.project(np.array([rim.x_mm + board.disc_radius, rim.y_mm, rim.z_mm]))
        rim = put_back(rim, reg)
        zone, margin, sigma, _ = judge(rim, reg, board)
        confidence, doubt = _disc_confidence(zone, margin, sigma, sure, well)
        discs.append(DiscReading(
            rim.x_mm, rim.y_mm, team, zone, confidence < 0.5, margin, sigma,
            (float(pix[0]), float(pix[1])), float(np.hypot(*(edge - pix))), rim.in_ditch,
            sure, (round(float(face[0])), round(float(face[1])), round(float(face[2]))),
            round(confidence, 3), doubt))
    if size_doubt is not None:  # (the discs are the look's kept rims, in order)
        at, why = size_doubt
        discs = [d.flagged(why) if k in at else d for k, d in enumerate(discs)]
    discs = [d.flagged(FAINT_DOUBT) if f and d.zone > 0 and not d.in_ditch else d
             for d, f in zip(discs, faint, strict=True)]
    discs = _crowded(discs, board)
    discs = stacked(frame, reg.camera, board, discs, sides.colours, bare=diff is None)
    printed_out: list[DiscReading] = []
    if diff is not None:  # what changed the board and is not a disc read, flagged there
        # (``over``: found above, with the discs read and those set aside as its patches)
        if over is not None:  # a hand or an arm: its own patches are not discs
            known = colours_away(over, view, board, [(d.x_mm, d.y_mm, d.colour)
                                                     for d in discs], colours)
            discs = [d for d in discs if not part_of(d, over, view, board, known, diff)]
        discs = beside(diff, view, board, discs, least)
        unread = [_unread_disc(x, y, view, board, reg, sides.colours)
                  for x, y in unread_places(diff, view, board, discs, least)]
        unread += [_unread_disc(x, y, view, board, reg, sides.colours)
                   for x, y in _rejected(seen_, discs + unread)]
        unread += [_unread_disc(x, y, view, board, reg, sides.colours)
                   for x, y in _changed_patches(seen_, discs + unread)]
        unread = _unseen_print(frame, reg.camera, board, diff, view, unread)
        if over is not None:  # a disc read in doubt on it is more likely the hand's own
            # rim (a knuckle, a fingertip) than a disc: said once with the rest of its marks
            on = [d.uncertain and not d.in_ditch and label_at(
                over, view, d.x_mm, d.y_mm, board.disc_radius) is not None for d in discs]
            unread = marked_over([d for d, o in zip(discs, on, strict=True) if o] + unread,
                                 over, view, board)
            discs = [d for d, o in zip(discs, on, strict=True) if not o]
            discs = [d.flagged(BESIDE_DOUBT) if not d.uncertain and like_over(
                d, over, view, board) else d for d in discs]
            if not any(d.uncertain for d in discs + unread):
                doubts.append(OVER_BOARD_DOUBT)
        discs += unread
    else:  # from scratch: a disc not read shows only as a clean rim; and the board's print
        # rings too, where no empty board shows it was there before
        discs, printed_out = _unprinted(frame, reg.camera, board, discs)
        discs += [replace(_unread_disc(x, y, view, board, reg, sides.colours), doubt=CLEAN_DOUBT)
                  for x, y in _rejected(_quiet_rims(frame, seen_), discs)
                  if not printed(frame, reg.camera, board, x, y)]
    # (and with the empty board or without, a white disc a glare burns out shows no change,
    # no colour and little rim, but its face's white patch)
    discs += [replace(_unread_disc(x, y, view, board, reg, sides.colours), doubt=BURNT_DOUBT)
              for x, y in burnt_discs(view, board, [(d.x_mm, d.y_mm) for d in discs])]
    discs = _against_doubtful(discs, colours, printed_out)
    discs.sort(key=lambda d: (-d.zone, math.hypot(d.x_mm, d.y_mm)))
    log.info("%s: %d discs, totals %s%s", name, len(discs),
             [sum(d.zone for d in discs if d.team == k) for k in (0, 1)],
             f", to check: {'; '.join(doubts)}" if doubts else "")
    return Reading(tuple(discs), sides.colours, reg.camera, board, reg.calibrated, reg.seat0,
                   tuple(doubts), tuple(notes), reg.confidence if not doubts else 0.3,
                   None if _held_back(doubts, left_out) else size_seen, left_out)


LOST_AT_SIZE_DOUBT = ("a disc found with the board taken at one size is not found at the size "
                      "the discs measured, too few of them there to be sure of it: check the "
                      "board, or state it in the config's [board]")
UNREAD_DOUBT = "something here changed the board but could not be read as a disc"
BURNT_DOUBT = ("a patch of a disc's size burnt out to white: a white disc under a glare? (less "
               "light on the board, or a shorter exposure, shows it)")
PRINT_DOUBT = ("it looks like the board's own print, the same a quarter turn round the board "
               "(a numeral?)")


def _unprinted(frame: np.ndarray, camera: CameraModel, board: Board,
               discs: list[DiscReading]) -> tuple[list[DiscReading], list[DiscReading]]:
    """From a bare photo, the discs read less those in doubt that look like the board's print
    (:func:`vision.printed.printed`: a numeral ringed as a disc), and those sure of themselves
    that do flagged (a black board's cream numerals, a navy one's yellow: on the tuning
    frames and the retired pairs 317/318 to 331/332, 35 sure discs read where none lay were
    so flagged, and no disc truly there); and the discs left out so (the sides were told with
    them)."""
    out, left = [], []
    for d in discs:
        if d.zone > 0 and not d.in_ditch and printed(frame, camera, board, d.x_mm, d.y_mm):
            if d.uncertain:
                left.append(d)
                continue
            d = d.flagged(PRINT_DOUBT)
        out.append(d)
    return out, left


def _unseen_print(frame: np.ndarray, camera: CameraModel, board: Board, diff: Difference,
                  view: Any, unread: list[DiscReading]) -> list[DiscReading]:
    """The places flagged as unread less those where the empty board was not seen bare (a
    hand lay on it, and is gone) that look like the board's print (:func:`printed`): there
    the round is compared with the board's look round its circles, which holds no numerals,
    and a numeral the hand had covered changed it as a disc would (a cream 5 on a black
    board, 6.9 times the least change a disc's face makes: retired layouts-318 86, flagged
    where nothing lay). A bare photo's print is left out so, and there the reading is a bare
    photo's."""
    if diff.rough is None or diff.still is None or not unread:
        return unread
    xy = np.array([[d.x_mm, d.y_mm] for d in unread])
    gone = _touches(diff.not_seen, view, xy, 0.0)
    return [d for d, g in zip(unread, gone, strict=True)
            if not (g and printed(frame, camera, board, d.x_mm, d.y_mm))]


def _unread_disc(x: float, y: float, view: Any, board: Board, reg: Registration,
                 colours: tuple[RGB | None, RGB | None]) -> DiscReading:
    """An uncertain disc where something changed the board and could not be read as one: most
    often a disc after all (dark on dark, leaning, stacked), so it is put where it lies with the
    zone it would have and the side its colour is nearer, for the players to check."""
    z = board.disc_thickness
    colour = view.image[cell(view, x, y, view.image.shape)][::-1]  # RGB of what is there
    d = [np.linalg.norm(np.log(colour + 8.0) - np.log(np.array(c) + 8.0)) if c is not None
         else np.inf for c in colours]
    team = int(np.argmin(d)) if np.isfinite(min(d)) else 0 if float(luma_of(colour)) < 100 else 1
    pix = reg.camera.project(np.array([x, y, z]))
    edge = reg.camera.project(np.array([x + board.disc_radius, y, z]))
    return DiscReading(x, y, team, board.zone(math.hypot(x, y)), True, 0.0, 9.9,
                       (float(pix[0]), float(pix[1])), float(np.hypot(*(edge - pix))), False,
                       False, (round(float(colour[0])), round(float(colour[1])),
                               round(float(colour[2]))),
                       0.2, UNREAD_DOUBT)


AGAINST_DOUBTFUL = ("its side: the only discs of another colour may not be discs at all, so "
                    "the colours cannot tell which side it is")


def _maybe_not_disc(d: DiscReading) -> bool:
    """Whether a disc read is in doubt of being a disc at all (not of its zone or side)."""
    return (d.doubt in (UNREAD_DOUBT, CLEAN_DOUBT, BESIDE_DOUBT)
            or d.in_doubt_of(d.DISC))


def _against_doubtful(discs: list[DiscReading], colours: tuple[RGB | None, RGB | None] | None,
                      printed_out: Sequence[DiscReading] = ()) -> list[DiscReading]:
    """The discs, those sure of their side only against discs that may not be discs (or are
    unsure of their own side) flagged. With no side's colour known, a side is told by
    contrast: the darker colour is team 0. When every disc of the other colour turned out in
    doubt of being a disc (a score sheet's corner and a hand's patches over a black and red
    board showing its reds only), the reds were read as the darker side, sure; without those,
    one colour says no side (black and white apart: they are the dark and the light side of
    any set). A disc of the other colour itself unsure of its side (a glared one in the
    ditch) does not tell them either, nor does the colour of discs in the ditch where all of
    it that would score may be no discs (a red and dark red set beside a third set's pinks in
    the ditch, a false blue disc on the board: every red read as one side, sure, seen
    layouts-350 31 from scratch; a black board's own patch read as the darker side beside
    dark red discs, tuning play-11 37). ``printed_out``: discs read, then left out as the
    board's print, that the sides were told with: no discs, they count as discs in doubt of
    it (the same frame turned a quarter had both of that black patch's rings left out as the
    board's numerals, and its dark red 10s read as the lighter side, sure of it)."""
    if colours is not None and any(c is not None for c in colours):
        return discs
    for k in (0, 1):
        theirs = [d for d in discs if d.team == k]
        scoring = [d for d in theirs if d.zone > 0 and not d.in_ditch]
        aside = [d for d in printed_out if d.team == k]
        tells = any(d.side_sure and not _maybe_not_disc(d) for d in theirs)
        # (a colour that shows surely only in the ditch tells no more where all of it that
        # would score may be no disc: another set's discs lie there as often)
        if not (theirs or aside) or (tells and not ((scoring or aside)
                                                    and all(map(_maybe_not_disc, scoring)))):
            continue
        out = []
        for d in discs:
            if (d.team != k and d.side_sure and d.zone > 0 and not d.in_ditch
                    and not of_any_set(d.team, luma_of(d.colour))):
                d = replace(d, side_sure=False)
                d = d if d.uncertain else d.flagged(AGAINST_DOUBTFUL)
            out.append(d)
        return out
    return discs


REJECTED_COVERAGE = 0.15  # a rim followed over this share of its round, around a face that
#                          changed the board as a disc's does, is looked at even if not read


CLEAN_DOUBT = ("a clean rim round a face that could not be read (like the board, or uneven "
               "under glare or wear): a disc?")
LIKE_COVERAGE = 0.8  # from scratch, a rim followed over this share of its round
LIKE_SPREAD_MM = 0.3  # ... this tightly, round a face this even, is a disc's whatever its colour
LIKE_POINTS = 20
LIKE_EVEN = 0.15  # (the board's grain shows through a natural disc's face too)
TIGHT_SPREAD_MM = 0.2  # ... or followed over ALL_ROUND_COVERAGE of its round, from UNEVEN_POINTS
#                        profiles, this tightly, at the disc's radius within ALL_ROUND_RADIUS_MM,
#                        round a face that even (a pale disc on a natural board lying on a line
#                        between two pegs, the line's profiles spoilt: followed 0.09 mm tightly
#                        over 76 % of its round by 12, missed with nothing said, retired
#                        play-317 16; of 7,100 rims not read on 1,200 tuning and retired frames
#                        from scratch, none but discs was so tight)
LIKE_CHANGE = 0.5  # against the empty board, such a rim round a face that changed it this share
#                    of the least a disc's face does
UNEVEN_COVERAGE = 0.7  # ... or over this share, this tightly, round a face standing out this
UNEVEN_SPREAD_MM = 0.45  # much from the board around it, however uneven (glare, wear: a worn
UNEVEN_CONTRAST = 0.5    # pale disc on a light board, its rim scattered 0.4 mm by the wear's
#                          edges and followed round 0.71, was missed with nothing said)
STANDS_OUT_COVERAGE = 0.65  # (the share that round a face standing out so asks: a worn pale 5
#                            touching the outer line on an orange natural board, its rim followed
#                            0.36 mm tightly over 0.69 of its round, the line spoiling the rest,
#                            its face 0.58 from the board round it and a hair too uneven to read,
#                            0.203 where 0.2 is asked, was missed with nothing said: play-397 79)
UNEVEN_POINTS = 12  # ... from this many far-half profiles (where a face like the board's asks
#                     LIKE_POINTS: a worn navy disc on a natural board, ringed 0.72 round by
#                     16, was left out with no flag, retired layouts-318 28)
BOLD_RIM_COVERAGE = 0.5  # ... or over half its round, less tightly, round a face standing out
BOLD_RIM_SPREAD_MM = 0.5  # this boldly (e ** 1: 2.7 times), however uneven: a worn dark red disc
BOLD_RIM_CONTRAST = 1.0  # on a pale board, a grained one whose rim a line beside it blurs
STRONG_STEP = 100.0  # ... or over UNEVEN_COVERAGE of its round, that tightly, at the disc's own
#                      radius, from LIKE_POINTS profiles, stepping this sharply (log units x 100
#                      per mm; a disc's median 88) round any face: a worn dark red disc on a
#                      dark wood board, its pale worn edge ringed 0.35 mm tightly over 0.79 of
#                      its round stepping 130, its face patched and as dark as the board, was
#                      missed with nothing said (layouts-392 48, from scratch)
FEW_BOLD_CONTRAST = 1.2  # ... from UNEVEN_POINTS profiles, round a face standing out this boldly
FEW_BOLD_UNEVEN = 0.4    # and no more uneven than this (a worn dark red disc on a black board,
#                          ringed 0.64 round by 13 profiles, its face 1.5 from the board and 0.24
#                          uneven, was missed with nothing said: retired layouts-330 11)
BOLD_FACE_SIZE = 0.2  # ... or a rim this near a disc's radius (a board's size is measured within
#                        a fifth), round an even face standing out boldly
ALL_ROUND_COVERAGE = 0.7  # a ring beside the 20 hole says a disc only if followed over this
ALL_ROUND_RADIUS_MM = 0.5  # share of its round, at the disc's own radius within this (as a
#                            tight arc's must be, below); two worn discs beside the hole on a
#                            natural board, ringed 0.74 and 0.76 round, were left out with no
#                            flag at 0.9 (tuning layouts-12 28)
ALL_ROUND_SPREAD_MM = 0.45  # ... less tightly than a disc read: a pale disc's grain blurs its
#                             rim (a rim followed BARE_ROUND_COVERAGE round this tightly, at the
#                             disc's radius within ROUND_RADIUS_MM, is flagged round any face)


def _hands(seen: _Seen, keep: list[int], idle: list[bool],
           colours: tuple[RGB | None, RGB | None] | None) -> tuple[np.ndarray | None, list[bool]]:
    """Where something lies over the board (:func:`vision.unread.over_board`, with the discs
    to be read: the kept rims not ``idle``), and which of those rims that score are patches
    of it or its shadow (:func:`vision.unread.patch_of`), judged before the sides are told: by
    their faces, and the colours of those away from it or known."""
    if seen.diff is None:
        return None, [False] * len(keep)
    board, view = seen.board, seen.view
    rims = [seen.rims[i] for i in keep]
    over = over_board(seen.diff, seen.view, board,
                      [r for r, x in zip(rims, idle, strict=True) if not x], seen.least)
    if over is None:
        return None, [False] * len(keep)
    known = colours_away(over, view, board, [(r.x_mm, r.y_mm, tuple(seen.faces[i]))
                                             for i, r in zip(keep, rims, strict=True)], colours)
    return over, [not r.in_ditch and board.zone(math.hypot(r.x_mm, r.y_mm)) > 0
                  and patch_of(r.x_mm, r.y_mm, seen.faces[i], True, over, view, board, known,
                               seen.diff)
                  for i, r in zip(keep, rims, strict=True)]


QUIET_FLOOR = 0.25  # a rim's edges measured against the board just round it stand above at
#                   least this share of the surface's clutter
QUIET_COVERAGE = 0.6  # ... and it is kept so only if followed over this share of its round:
#                       a disc's goes round (0.62 to 1 for the 14 discs it found on the
#                       tuning and retired frames it changed); a window's glare, its corner or
#                       a bar's shadow across it, a numeral or fingers ring over half of
#                       theirs at most (0.22 to 0.55 for the 46 such things there)


def _quiet_rims(frame: np.ndarray, seen: _Seen) -> _Seen:
    """From scratch, the look with each rim not read as a disc, on the playing surface where
    it would score, measured again against the board just round it where that is calmer than
    the surface's clutter (:func:`vision.rims.clutter_round`; not below ``QUIET_FLOOR`` of
    it), and kept where followed so round more of its round, and most of it
    (``QUIET_COVERAGE``); and so is each candidate about which no rim stood above the
    surface's clutter at all (``_Seen.lost``), clear of the rims measured, added to the
    look's rims where kept. The surface's clutter is set by its darkest parts on a black or
    navy board, whose sensor noise is steep in log colour: a dark red disc under a window's
    glare there, its rim a soft step from a lifted grey, stood above it over a fifth of its
    round and was missed with nothing said (tuning play-11 38; against its glare, over nine
    tenths), and a red disc on a black board lifted blue-grey stood above it nowhere
    (retired play-325 45; against the board round it, over four fifths). Such a rim is only
    ever flagged where it lies (:func:`_rejected`), never read: what counts as a disc, and
    the size its discs say, are settled against the surface's clutter as before."""
    board, camera = seen.board, seen.reg.camera
    kept = set(seen.keep)
    todo = [i for i, r in enumerate(seen.rims) if i not in kept and not r.in_ditch
            and board.zone(math.hypot(r.x_mm, r.y_mm)) > 0]
    measured = np.array([[r.x_mm, r.y_mm] for r in seen.rims]).reshape(-1, 2)
    lost = [c for c in (seen.lost if seen.lost is not None else ())
            if board.zone(math.hypot(c[0], c[1])) > 0
            and not (np.hypot(measured[:, 0] - c[0], measured[:, 1] - c[1])
                     < board.disc_radius).any()]
    if not todo and not lost:
        return seen
    centres = np.concatenate([measured[todo], np.reshape(lost, (-1, 2))])
    level = seen.levels[0]
    round_ = rimlib.clutter_round(frame, camera, centres, board)
    calmer = np.isfinite(round_) & (round_ < level)
    if not calmer.any():
        return seen
    floors = np.maximum(round_[calmer], QUIET_FLOOR * level)
    again = rimlib.measure(frame, camera, centres[calmer], board, (level, level), floors)
    rims = list(seen.rims)
    at = []
    for k, r in zip(np.flatnonzero(calmer), again, strict=True):
        if r is None or r.coverage < QUIET_COVERAGE:
            continue
        if k < len(todo):  # (a rim measured before: kept so where followed round more)
            if r.coverage > seen.rims[todo[k]].coverage:
                rims[todo[k]] = r
                at.append(todo[k])
        else:  # (a candidate whose rim stood above the surface's clutter nowhere)
            rims.append(r)
            at.append(len(rims) - 1)
    if not at:
        return seen
    more = len(rims) - len(seen.rims)
    faces = np.concatenate([seen.faces, np.zeros((more, *seen.faces.shape[1:]))])
    even = np.concatenate([seen.even, np.zeros(more)])
    faces[at], even[at] = rimlib.face_colours(frame, camera, [rims[i] for i in at],
                                              board.disc_radius)
    xy = np.array([[r.x_mm, r.y_mm] for r in rims])
    light, around, _ = _surroundings(seen.view, xy, board)
    contrast = np.concatenate([seen.contrast, np.zeros(more)])
    contrast[at] = _face_contrast(faces[at], around[at])
    light = np.concatenate([seen.light, light[len(seen.rims):]])
    pad = np.zeros(more, bool)
    return replace(seen, rims=rims, faces=faces, even=even, contrast=contrast, light=light,
                   light_only=np.concatenate([seen.light_only, pad]),
                   unseen=np.concatenate([seen.unseen, pad]), lost=None)


def _rejected(seen: _Seen, discs: list[DiscReading]) -> list[tuple[float, float]]:
    """Where a rim was found that was not read as a disc but says one may lie there, on the
    playing surface where it would score and away from the discs read (board mm), to be
    flagged rather than left out of the count.

    Against the empty board: a rim round a face that changed it as much as a disc's does (a
    disc whose face a lamp's glare or the wood's grain makes uneven, or whose rim shows over
    little of its round; too faint a change to stand out as a patch, :func:`unread_places`).
    From scratch: a rim followed cleanly over most of its round, round an even face of about
    the board's colour (a natural disc on a natural board), or round a face that stands out
    from the board but is too uneven to be read (a window's sheen across it, a worn disc): the
    board's own print rings over a part of a round at most, or round print and board mixed."""
    if seen.diff is not None:
        return _rims_unread(seen, discs, _unread_face) if seen.change is not None else []
    return _rims_unread(seen, discs, _clean_rim)


def _unread_face(seen: _Seen, i: int) -> bool:
    """Against the empty board, a rim not read that says a disc may lie there: its face's
    change (:func:`_changed_face`), or, where the empty board was not seen bare (a hand lay
    on it), a bare photo's terms (:func:`_clean_rim`), or that change round a face unlike the
    board round it as a bare photo's disc must be (a bare patch a fingertip's outline framed
    is the board's own colour; a navy disc on a black board where an arm lay is not); either
    round a face that changed the board at all (see :func:`_look`). Where it was seen bare, a
    rim clean on a bare photo's terms round a face that changed it half as much as a disc's
    must says one too (a natural disc on a pale board, its rim followed 0.23 mm tightly over
    86 % of its round at the disc's own radius, changed it 0.85 times as much: retired
    play-327 38, missed with nothing said); the board's own print is on the empty board too,
    and changes nothing. And a rim round a face a glare burns out to white, which shows no
    change at all (:func:`_burnt_rim`)."""
    if _burnt_rim(seen, i):
        return True
    change = float(seen.change[i])
    if not seen.unseen[i]:
        return _changed_face(seen, i) or (change >= LIKE_CHANGE * seen.face_least
                                          and _clean_rim(seen, i)) or _outlined(seen, i)
    if change < seen.face_least:
        return False
    # (or a rim followed as a read disc's is, round a face that changed the board many times
    # more than a disc must, against the board's round look too: a pale disc on a pale board
    # over a veneer seam the empty board's picture had marked as something lying there,
    # retired layouts-318 9, changed it 6.5 times as much and was missed with nothing said)
    return _clean_rim(seen, i) or (
        (float(seen.contrast[i]) >= MIN_FACE_CONTRAST
         or (seen.rims[i].coverage >= MIN_COVERAGE and change >= UNSEEN_CHANGE * seen.face_least))
        and _changed_face(seen, i))


OUTLINED = 0.6  # against the empty board, a circle of the disc's size round which the change
#                 stands out over this share of its round is a disc's outline (a pale natural
#                 disc on a natural board changed it 0.2 times as much as a disc's face must,
#                 inside; its rim's shade ringed the change over 0.79 of its round, the side
#                 toward the light less: fresh play-387 93, missed with nothing said)
OUTLINE_COVERAGE = 0.6  # ... where the frame's rim is followed over this share of its round, as
#                         tightly as LIKE_SPREAD_MM, at the disc's size


def _outlined(seen: _Seen, i: int) -> bool:
    """Whether rim ``i`` is a disc's outline: followed round most of its round in the frame,
    tightly, at the disc's size, and ringed so by the change from the empty board
    (:meth:`vision.empty.Difference.outline`) where its face changed the board too little to
    be read."""
    r = seen.rims[i]
    if (r.points < LIKE_POINTS or r.coverage < OUTLINE_COVERAGE or r.spread_mm > LIKE_SPREAD_MM
            or abs(r.radius_mm - seen.board.disc_radius) > MAX_RADIUS_OFF_MM):
        return False
    share = seen.diff.outline(seen.view, np.array([[r.x_mm, r.y_mm]]), seen.board.disc_radius,
                              seen.face_least)
    return bool(share[0] >= OUTLINED)


def _rims_unread(seen: _Seen, discs: list[DiscReading],
                 says_disc: Callable[[_Seen, int], bool]) -> list[tuple[float, float]]:
    """The rims not read as discs that ``says_disc`` takes for one, best seen first, each on
    the playing surface where it would score and clear of the discs read and of each other."""
    board, out = seen.board, []
    taken = [(d.x_mm, d.y_mm) for d in discs]
    kept = set(seen.keep)
    for i in sorted(range(len(seen.rims)), key=lambda i: -seen.rims[i].coverage):
        r = seen.rims[i]
        d = math.hypot(r.x_mm, r.y_mm)
        if (i in kept or r.in_ditch or board.zone(d) == 0
                or (_beside_hole(seen, r, d) and not _all_round(r, board))):
            continue
        if any(math.hypot(r.x_mm - x, r.y_mm - y) <= 1.6 * board.disc_radius for x, y in taken):
            continue
        if says_disc(seen, i):
            out.append((r.x_mm, r.y_mm))
            taken.append((r.x_mm, r.y_mm))
    return out


HOLE_EDGE_MM = 4.0  # a ring centred within this of where a disc would touch the 20 hole's edge
#                    from outside lies against it


def _beside_hole(seen: _Seen, r: rimlib.Rim, d: float) -> bool:
    """Whether a ring centred ``d`` mm from the board's centre may be the 20 hole's edge or
    the print beside it, and says a disc only if followed over most of its round
    (:func:`_all_round`): centred over the hole (a disc whose centre lies there falls in; the
    hole's bottom shows off its centre under a camera not straight above it), against its
    edge from outside (a nudge of the camera shifts the edge, and a ring of a disc's size
    follows its arc; a worn navy 15 2.6 mm off the edge, followed all round, was missed with
    nothing said, retired play-317 54), or crossing it where the picture shows the hole's
    inside whole under the ring's face (the "20" printed either side of the hole rings as
    round and as tightly as a disc, centred 23 to 32 mm out). A disc lying over the edge
    hides the hole's inside there (:func:`vision.hole.hidden_by`): one half over the
    hole, its rim followed over 0.66 of its round 0.18 mm tightly round a face a glare made
    uneven, was passed over and the round read 15 short with nothing said (layouts-392 63,
    from scratch)."""
    board = seen.board
    hole = board.hole_diameter / 2
    if d < hole or abs(d - hole - board.disc_radius) < HOLE_EDGE_MM:
        return True
    return d < hole + board.disc_radius and not hidden_by(seen.view, board, r.x_mm, r.y_mm)


UNSEEN_CHANGE = 5.0  # where the empty board was not seen bare, a face changed this many times the
#                      least a disc's face does is looked at as a disc may be, like the board or not
LIGHTER_CHANGE = 1.5   # a face lighter than the empty board by this many times the least a
#                        disc changes it, by brightness alone, is looked at as a disc may be
LIGHT_HUE = 0.05       # a face's change from the empty board this near grey, by its amount,
LIGHT_CONTRAST = 0.4   # ... lighter, round a face this near the board round it in the frame,
#                        seen over less than LIKE_COVERAGE of its round: the light's doing


def _light_only(rim: rimlib.Rim, res: np.ndarray, contrast: float) -> bool:
    """Whether what a rim encloses is the bare board lit otherwise than the empty board was,
    not a disc: lighter by the same in every channel, the board's own colour in the frame as
    round it, and ringed over part of its round only (the light field is evened out in coarse
    cells, and beside a shadow's edge it leaves the bare board a little light, the edge's arc
    passing for a rim). A disc changes the board in its own colour, or shows a clean rim."""
    amount = float(np.linalg.norm(res))
    return (float(res.mean()) > 0.0 and off_grey(res) < LIGHT_HUE * amount
            and contrast < LIGHT_CONTRAST and rim.coverage < LIKE_COVERAGE)


PATCH_STEP_MM = 6.0  # the grid disc-sized patches of the surface are looked at on
PATCH_CHANGE = 4.0  # ... a patch whose middle changed this many times the least a face does,
PATCH_HUE = 0.06    # ... lighter, and not grey within this share of it (beside a shadow's edge
#                     the light field, evened out in coarse cells, leaves bare board lighter
#                     alike in all three channels within 0.05 to 0.07 of it, here and there;
#                     a navy disc on a navy board changed it 0.07 to 0.12 off grey)
PATCH_POINTS = 4    # ... with this many such patches within a disc's radius (a disc's face is
#                     one patch of change; the light's leavings beside a shadow are specks)


def _changed_patches(seen: _Seen, discs: list[DiscReading]) -> list[tuple[float, float]]:
    """Against the empty board: where a disc-sized patch's middle was made lighter, well
    beyond the least change a face makes and not by grey light alone, where it would score
    and clear of the discs read, each place once (board mm). A navy disc on a navy board
    rings so faintly that it may be no candidate at all, its change from the empty board a
    third of a log unit all the same; whether it was found hung on the last bit of a filter's
    arithmetic, which differs between processors. (A shadow darkens, in the light's tint: a
    darker patch is left to the rims.)"""
    diff, view, board, least = seen.diff, seen.view, seen.board, seen.face_least
    if diff is None or least is None:
        return []
    pts = _grid(board.outer_radius, PATCH_STEP_MM,
                board.hole_diameter / 2 + board.disc_radius + 4,
                board.outer_radius - board.disc_radius / 2)
    taken = np.array([[d.x_mm, d.y_mm] for d in discs]).reshape(-1, 2)
    if len(taken):
        near = np.hypot(pts[:, None, 0] - taken[None, :, 0], pts[:, None, 1] - taken[None, :, 1])
        pts = pts[near.min(axis=1) > 2.2 * board.disc_radius]
    if not len(pts):
        return []
    res = diff.at(view, pts, 0.8 * board.disc_radius)
    change = np.linalg.norm(res, axis=1)
    hue = np.linalg.norm(res - res.mean(axis=1, keepdims=True), axis=1)
    strong = ((change >= PATCH_CHANGE * least) & (res.mean(axis=1) > 0)
              & (hue >= PATCH_HUE * change))
    if diff.rough is not None:  # where the empty board was not seen bare, only a patch that
        # stands out from the board round it in the frame, as a bare photo's disc must (its
        # change is from the board's round look: see :func:`vision.unread.unread_places`; a
        # pale disc on a natural board where a hand had lain, its rim not read, stood 0.22 to
        # 0.26 from the board round it, bare board there 0.16 at most: retired play-313 12,
        # tuning play-11 96 and 97)
        for k in np.flatnonzero(strong & _touches(diff.rough, view, pts, 0.0)):
            ring, _ = surround_colour(view, pts[k:k + 1], board)
            face = np.median(view.image[_cells(view, pts[k:k + 1], 0.5 * board.disc_radius,
                                               view.image.shape)], axis=1)
            strong[k] = bool(np.linalg.norm(np.log(face + 8.0) - np.log(ring + 8.0))
                             >= MIN_FACE_CONTRAST)
    out: list[tuple[float, float]] = []
    at = pts[strong]
    for k in np.argsort(-np.where(strong, change, 0.0)):
        if not strong[k]:
            break
        x, y = float(pts[k, 0]), float(pts[k, 1])
        if (np.hypot(at[:, 0] - x, at[:, 1] - y) <= board.disc_radius).sum() < PATCH_POINTS:
            continue
        if all(math.hypot(x - u, y - v) > 2.0 * board.disc_radius for u, v in out):
            out.append((x, y))
    return out


def _changed_face(seen: _Seen, i: int) -> bool:
    """Against the empty board: a rim over some of its round round a face that changed the
    board as a disc's does, in its colour and not only its brightness (a shadow's soft edge can
    be ringed too, and the light field evens out only a coarse shadow), or made it lighter."""
    r, change, least = seen.rims[i], float(seen.change[i]), seen.least
    if r.coverage < REJECTED_COVERAGE or change < least or r.spread_mm > MAX_SPREAD_MM:
        return False
    if seen.light_only[i]:
        return False
    res = seen.residual[i]
    hue = off_grey(res)
    # (a shadow darkens; a face lighter than the board was, by its brightness alone, and not
    # the board's own colour, is a disc of the board's hue: navy on a navy board)
    lighter = float(res.mean()) > 0.0 and change >= LIGHTER_CHANGE * least
    return hue >= 0.5 * least or change >= SUSPECT_CHANGE * least or lighter


def _all_round(r: rimlib.Rim, board: Board) -> bool:
    """Whether a rim was followed over most of its round at the disc's own radius (less
    tightly than a disc read: a pale disc's grain blurs it): the hole's edge rings over its
    own arc only."""
    return (r.coverage >= ALL_ROUND_COVERAGE and r.spread_mm <= ALL_ROUND_SPREAD_MM
            and abs(r.radius_mm - board.disc_radius) <= ALL_ROUND_RADIUS_MM)


BURNT_COVERAGE = 0.25  # a rim round a face burnt out to white (BURNT) followed over this share
BURNT_SPREAD_MM = 0.4  # ... this tightly says a disc lies there (a quarter of a disc's round
#                        this tight is no straight edge of a glare, no painted line, no peg;
#                        a white disc in a video frame's glare band, on a natural board 13 %
#                        smaller than taken, was followed over 0.30 and 0.33 of its round, 0.39
#                        and 0.24 mm tightly, and missed with nothing said: seen play-349 84
#                        and 85. On 600 tuning and seen frames, nothing else changed)


def _burnt_rim(seen: _Seen, i: int) -> bool:
    """Against the empty board, a rim of about a disc's size followed tightly over a quarter
    of its round or more, round a face a glare burns out to white in every channel. Such a
    face shows neither its colour nor any change from the empty board (burnt out there too),
    so no other rule hears of it; but the disc's edge and its shadow still ring it, and a board
    prints no circle of a disc's size: a white 10 in such a patch on a pale wood board, its
    rim followed 0.1 mm tightly over 0.69 of its round, was missed with nothing said
    (retired play-363 54), and so was a 5 in a varnish's glare on a natural board, 0.14 mm
    over 0.68 (retired play-365 56). In a stream frame's glare band, where the white face
    and the board round it are one white, the disc's edge shows on its shadow's side alone:
    it was followed over a third of its round (see ``BURNT_COVERAGE``)."""
    r = seen.rims[i]
    return (bool((seen.faces[i] >= BURNT).all()) and r.coverage >= BURNT_COVERAGE
            and r.points >= MIN_POINTS and r.spread_mm <= BURNT_SPREAD_MM
            and abs(r.radius_mm - seen.board.disc_radius) <= MAX_RADIUS_OFF_MM)


WORN_RIM = (0.78, 0.9)  # a rim this share of a disc's radius, ...
WORN_COVERAGE = 0.7     # ... followed over this share of its round, tightly, round a face
#                         standing out boldly, even up to ROUND_UNEVEN: a worn disc's rubbed
#                         edge, the board's own wood colour, ringed at its paint's edge


def _worn_rim(r: rimlib.Rim, board: Board, even: float, contrast: float) -> bool:
    """From scratch: a ring well inside a disc's radius, followed round most of its round,
    tightly, round a face standing out boldly from the board: a worn disc whose paint is
    rubbed through along its edge to wood of the board's colour, so that the edge that shows
    is its paint's, 2 to 3 mm in. On the tuning, retired and seen frames read from scratch,
    worn discs on wooden boards were missed 2.6 times in 100, unworn ones 0.4 (46 of the 88
    scoring discs missed were worn ones on wooden boards); such a one measured 13.6 mm
    against 16, followed over 84 % of its round, 0.28 mm tightly, round a navy face 2.4 from
    the board (seen layouts-324 4). Only ever flagged where it lies (:func:`_rejected`),
    never read."""
    return (r.points >= MIN_POINTS and r.coverage >= WORN_COVERAGE
            and r.spread_mm <= ALL_ROUND_SPREAD_MM and contrast >= BOLD_CONTRAST
            and even <= ROUND_UNEVEN
            and WORN_RIM[0] <= r.radius_mm / board.disc_radius <= WORN_RIM[1])


def _clean_rim(seen: _Seen, i: int) -> bool:
    """From scratch: a rim of the disc's size followed cleanly over most of its round, round
    an even face, or round a face unlike the board around it however uneven; or a rim seen
    over a little of its round, of about a disc's size, round an even face standing out
    boldly from the board (a pale disc across a line between two pegs, on a board of another
    size than taken: its rim is looked for at the wrong radius and broken where it touches,
    its face is plain to see); or a rim followed over half its round round a face that stands
    out more boldly still, however uneven (a worn dark red disc on a pale board, its face
    patched with bare wood); or a rim at the disc's radius followed over eight tenths of its
    round, less tightly (a cream disc's grain on a white board blurs it), round any face (a
    shadow's edge across a red disc made its face uneven; a natural disc on a natural board,
    its face as the board's); or a tight arc over a third of its round at
    the disc's own radius, round an even face standing out from the board (a worn dark wood
    disc by a black board's outer line, its arc 0.2 mm tight over 35 % of its round, too few
    profiles for a disc read); or a rim followed very tightly over seven tenths of its round at
    the disc's own radius, from fewer profiles, round an even face (a pale disc on a natural
    board, lying on a line that spoilt its profiles there); or a rim at the disc's own radius
    followed over seven tenths of its round, stepping sharply, round any face (a worn disc's
    pale edge round a face patched as dark as the board): a board prints no circle of a
    disc's size, and its print and grain ring over part of a round at most."""
    r = seen.rims[i]
    even, contrast = float(seen.even[i]), float(seen.contrast[i])
    if (r.coverage >= REJECTED_COVERAGE and r.points >= MIN_POINTS
            and r.spread_mm <= MAX_SPREAD_MM and even <= EVEN_FACE
            and contrast >= BOLD_CONTRAST
            and abs(r.radius_mm / seen.board.disc_radius - 1.0) <= BOLD_FACE_SIZE):
        return True
    if r.points >= MIN_POINTS and _tight_round(r, seen.board, BARE_ROUND_COVERAGE):
        return True
    if (r.coverage >= MIN_BOLD_COVERAGE and r.points >= MIN_POINTS
            and r.spread_mm <= ARC_SPREAD_MM and even <= EVEN_FACE
            and abs(r.radius_mm - seen.board.disc_radius) <= ALL_ROUND_RADIUS_MM
            and contrast >= UNEVEN_CONTRAST):
        return True
    if _worn_rim(r, seen.board, even, contrast):
        return True
    if abs(r.radius_mm - seen.board.disc_radius) > MAX_RADIUS_OFF_MM:
        return False
    bold_rim = r.coverage >= BOLD_RIM_COVERAGE and r.spread_mm <= BOLD_RIM_SPREAD_MM
    if r.points >= UNEVEN_POINTS and (
            (r.coverage >= STANDS_OUT_COVERAGE and r.spread_mm <= UNEVEN_SPREAD_MM
             and contrast >= UNEVEN_CONTRAST)
            or (bold_rim and contrast >= FEW_BOLD_CONTRAST and even <= FEW_BOLD_UNEVEN)):
        return True
    if (r.points >= UNEVEN_POINTS and r.coverage >= ALL_ROUND_COVERAGE
            and r.spread_mm <= TIGHT_SPREAD_MM and even <= LIKE_EVEN
            and abs(r.radius_mm - seen.board.disc_radius) <= ALL_ROUND_RADIUS_MM):
        return True
    if r.points < LIKE_POINTS:
        return False
    if (r.coverage >= UNEVEN_COVERAGE and r.spread_mm <= UNEVEN_SPREAD_MM
            and r.contrast >= STRONG_STEP
            and abs(r.radius_mm - seen.board.disc_radius) <= ALL_ROUND_RADIUS_MM):
        return True
    return ((r.coverage >= LIKE_COVERAGE and r.spread_mm <= LIKE_SPREAD_MM and even <= LIKE_EVEN)
            or (bold_rim and contrast >= BOLD_RIM_CONTRAST))

RESCALE = 0.06  # discs measured this much larger or smaller than the board says rescale it
BARE_RESCALE = 0.035  # ... and from a bare photo, at the size begun with, this much: the free
#                      fit to the wider edges measures the discs near as far off as they are
#                      (on 800 retired frames read from scratch, of the 94 settled with their
#                      discs measured 3.5 to 6 % off, 84 were off the way measured, 40 of
#                      them by 5 % or more; 16 lay within 2 % of their size. The measure's
#                      median share of the true offset: 0.9)
FEW_SIZE_OFF = 0.1  # one or two discs whose rings say this much another size: board in doubt
#                 (a third of it once their rings have already said the board is another size)


@dataclass(frozen=True, eq=False)
class _Seen:
    """One look at the frame with a camera and board: the view, its difference from the empty
    board, the rims measured and which of them are discs."""

    reg: Registration
    board: Board
    view: Any
    diff: Difference | None
    least: float | None
    face_least: float | None
    rims: list
    faces: np.ndarray
    light: np.ndarray
    change: np.ndarray | None
    keep: list[int]
    even: np.ndarray  # each rim's face's unevenness
    contrast: np.ndarray  # ... and its log-colour distance from the board around it
    residual: np.ndarray | None = None  # each rim's face's change from the empty board (n, 3)
    light_only: np.ndarray | None = None  # ... which of them are the light's (_light_only)
    unseen: np.ndarray | None = None  # ... which lie where the empty board was not seen bare
    levels: tuple[float, float] = (0.0, 0.0)  # the clutter a rim's edges stood above
    lost: np.ndarray | None = None  # candidates (n, 2 mm) whose rims stood above it nowhere


def _look(frame: np.ndarray, calibration: Calibration | None, reg: Registration,
          board: Board) -> _Seen:
    """The discs' candidates and rims measured with this camera and board, and which pass
    for discs (the module docstring's steps up to the sides)."""
    same = (calibration is not None and board is calibration.board
            and reg.camera is calibration.camera)
    maps = calibration.maps if same else view_maps(reg.camera, board, board.disc_thickness,
                                                   PX_PER_MM)
    view = top_view(frame, maps)
    diff = least = face_least = None
    if calibration is not None and calibration.reference is not None:
        if same or calibration.board.outer_radius == board.outer_radius:
            diff = compare(view, calibration.reference, board.surface_radius)
        else:  # the board taken at another size: compared where the frame is sampled as the
            # empty board was (the calibration's size), the difference then brought over
            s = board.outer_radius / calibration.board.outer_radius
            kept = calibration.board
            base = view_maps(scaled_camera(reg.camera, 1.0 / s), kept, kept.disc_thickness,
                             PX_PER_MM)
            found = compare(top_view(frame, base), calibration.reference, kept.surface_radius)
            diff = moved_difference(found, toward(
                s, base.extent, maps.extent, maps.ppm,
                tuple(float(v) for v in reg.camera.centre_mm), maps.z), maps.mapx.shape[0])
    if diff is not None:  # rims looked for in the difference too: the board's own lines and
        # print are gone from it
        least = max(MIN_CHANGE, CHANGE_PER_NOISE * _noise(diff, view, board))
        face_least = min(least, max(MIN_CHANGE,
                                    FACE_PER_NOISE * _face_noise(diff, view, board)))
        cands, dim = _changed(candidates(view, board, also=diff.rings_image), diff, view,
                              board, face_least)
    else:
        cands, dim = _with_dim(candidates(view, board, dim=DIM_STRENGTH), board)
    levels = (calibration.clutter if calibration is not None and calibration.clutter
              else rimlib.clutter(frame, reg.camera, board))

    def measured(found: list) -> tuple[list, np.ndarray]:
        """The rims about the candidates, and the candidates with none."""
        centres = np.array([[c.x_mm, c.y_mm] for c in found]).reshape(-1, 2)
        got = rimlib.measure(frame, reg.camera, centres, board, levels)
        return [r for r in got if r is not None], centres[[r is None for r in got]]

    # (the dim apart: measured together, each rim's fit is a hair off, and a loose one's may
    # settle elsewhere)
    rims, lost = measured(cands)
    dim_rims = [r for r in (measured(dim)[0] if dim else [])
                if r.coverage >= DIM_COVERAGE and r.spread_mm <= DIM_SPREAD_MM]
    dimmed = [False] * len(rims) + [True] * len(dim_rims)  # (a dim candidate's rim is never
    # read as a disc, only flagged where one may lie)
    rims += dim_rims
    xy = np.array([[r.x_mm, r.y_mm] for r in rims]).reshape(-1, 2)
    faces, even = rimlib.face_colours(frame, reg.camera, rims, board.disc_radius)
    light, around, lit = _surroundings(view, xy, board)
    if any(dimmed):  # (the others' surroundings as without them: masked by the others alone)
        sure = ~np.array(dimmed)
        light[sure], around[sure], lit[sure] = _surroundings(view, xy[sure], board)
    contrast = _face_contrast(faces, around)
    change = res = None
    light_only = np.zeros(len(rims), bool)
    if diff is not None:
        res = diff.at(view, xy, 0.8 * board.disc_radius)
        change = np.linalg.norm(res, axis=1)
        light_only = np.array([_light_only(r, res[i], float(contrast[i]))
                               for i, r in enumerate(rims)], bool).reshape(-1)
    # the empty board decides the playing surface's discs; the ditch's (scoring nothing, and
    # shaded by each other) are judged by their own colour against its floor, and so are
    # those where something lay on the empty board when it was taken (a hand: there the
    # board is compared with its own look round its circles, grain and all, and a bare patch
    # framed by a fingertip's outline changes it as much as a disc). But a face there that
    # changed neither the empty board nor that round look is bare board: a disc differs from
    # both (on a black board where a hand had lain, a bare patch ringed by lines stood 0.54
    # from the board round it, and was read as a black 5: retired layouts-312 25)
    # Where what lay there is there still round the disc (a shadow band the room casts at
    # every round, :func:`vision.empty._still_there`), the empty board was seen after all: a
    # face there is a disc on either terms (a worn grey disc across a window bar's shadow,
    # too like the board round it for a bare photo's, was missed with nothing said: the fresh
    # pair's play-375 95)
    unseen = (np.zeros(len(rims), bool) if diff is None or diff.rough is None else
              _touches(diff.rough, view, xy, board.disc_radius))
    still = (np.zeros(len(rims), bool) if diff is None or diff.still is None else
             _touches(diff.still, view, xy, 0.0))
    keep = [i for i, r in enumerate(rims)
            if not light_only[i] and not dimmed[i]
            and not (unseen[i] and not r.in_ditch and float(change[i]) < face_least)
            and (_is_disc(r, faces[i], even[i], float(contrast[i]), lit[i], board,
                          None if change is None or r.in_ditch or unseen[i]
                          else (float(change[i]), face_least))
                 or (unseen[i] and still[i] and not r.in_ditch
                     and _is_disc(r, faces[i], even[i], float(contrast[i]), lit[i], board,
                                  (float(change[i]), face_least))))]
    keep = _distinct([rims[i] for i in keep], keep, board)
    return _Seen(reg, board, view, diff, least, face_least, rims, faces, light, change, keep,
                 even, contrast, res, light_only, unseen, levels, lost)


DIM_STRENGTH = 2.0  # from a bare photo, dimmer rings than candidates are looked at down to
#                     this strength (:func:`vision.discs.candidates`): a natural disc on a
#                     natural board, its rim a thin shadow against strong grain (2.4 to 3.3 on
#                     retired 321/322)
DIM_MEAN = 15.0  # ... its ring's mean below this (a line or the hole's edge, touching a ring
#                  over a sector or two, makes its mean 36 to 94 where its weakest are dim)
DIM_COVERAGE = 0.7  # ... its rim followed over this share of its round
DIM_SPREAD_MM = 0.5  # ... this tightly: of 1,393 dim candidates on 317/318 and 321/322's
#                      wooden boards, 10 were discs nothing else found and 1 something else


def _with_dim(found: list, board: Board) -> tuple[list, list]:
    """From a bare photo, the candidates (strongest first) and the dim ones clear of them
    (``found`` lists them in that order, see :func:`vision.discs.candidates`): a dim one is
    measured as a rim and kept only if its rim is followed cleanly over most of its round,
    and then never read as a disc, only flagged where one may lie (as any rim not read is,
    see :func:`_rejected`): what it encloses is not sure enough to be counted, nor to teach
    the sides' colours."""
    strong = [c for c in found if c.score > MIN_STRENGTH and c.energy > MIN_STRENGTH]
    xy = np.array([[c.x_mm, c.y_mm] for c in strong]).reshape(-1, 2)
    return strong, [c for c in found[len(strong):] if c.score < DIM_MEAN
                    and not (np.hypot(xy[:, 0] - c.x_mm, xy[:, 1] - c.y_mm)
                             < 1.6 * board.disc_radius).any()]


def _face_contrast(faces: np.ndarray, around: np.ndarray) -> np.ndarray:
    """Each face's distance from the board round it (n; RGB in), in log colour: a shadow or a
    lamp scales both alike."""
    return np.linalg.norm(np.log(faces + 8.0) - np.log(around + 8.0), axis=1)


def _surroundings(view: Any, xy: np.ndarray, board: Board
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For discs at ``xy`` (n, 2 mm; RGB): the playing surface's light near each
    (:func:`vision.discs.board_light`), the colour round each that its face must differ from
    (just round it, else that light or the ditch floor's), and that ring's lighter quarter;
    the discs themselves masked from all three."""
    light = board_light(view, xy, board)[:, ::-1]
    around = np.where((np.hypot(xy[:, 0], xy[:, 1]) < board.surface_radius)[:, None], light,
                      ditch_colour(view, xy, board)[:, ::-1])
    ring, lit = surround_colour(view, xy, board)
    around = np.where(np.isnan(ring), around, ring[:, ::-1])
    return light, around, np.where(np.isnan(lit), around, lit[:, ::-1])


def _faint(seen: _Seen, i: int) -> bool:
    """Against the empty board, whether rim ``i``'s face changed it little and looks like the
    board round it in the frame: bare board lit otherwise, ringed by lines and discs beside
    it, more likely than a disc (see :data:`FAINT_CHANGE`)."""
    return (seen.change is not None and float(seen.change[i]) < FAINT_CHANGE * seen.face_least
            and float(seen.contrast[i]) < MIN_FACE_CONTRAST)


def _cells(view: Any, xy: np.ndarray, radius: float, shape: tuple[int, ...]
           ) -> tuple[np.ndarray, np.ndarray]:
    """The (rows, columns) in an array of ``shape`` over the view of each board point (n, 2)
    and of eight points ``radius`` round it (n, 9 each; each point's cell as
    :func:`vision.unread.cell` finds it, all at once)."""
    a = np.arange(8) * (math.pi / 4)
    xs = np.concatenate([xy[:, :1], xy[:, :1] + radius * np.cos(a)[None]], axis=1)
    ys = np.concatenate([xy[:, 1:], xy[:, 1:] + radius * np.sin(a)[None]], axis=1)
    col = np.clip(np.round((xs + view.extent) * view.ppm - 0.5), 0, shape[1] - 1)
    row = np.clip(np.round((view.extent - ys) * view.ppm - 0.5), 0, shape[0] - 1)
    return row.astype(int), col.astype(int)


def _touches(mask: np.ndarray, view: Any, xy: np.ndarray, radius: float) -> np.ndarray:
    """Whether a disc of ``radius`` at each board point (n, 2) covers any of ``mask`` (its
    centre or its rim's eight points)."""
    return mask[_cells(view, xy, radius, mask.shape)].any(axis=1)


SIZES = (0.7, 1.5)  # the discs' size against a tournament board's that read_board(size=) takes
SURFACE_IN = (18.5, 34.5)  # the playing surfaces (inches) the discs may say: boards are 20 to
#                          32 inches, and a bare photo's discs measure it within about 8 %
SIZE_JUMP = 0.1  # discs measured this much another size than an earlier round's: in doubt
#                  (and a board taken this much another size than its hole says)
SWEEP = (0.88, 1.1, 1.2, 1.3)  # the other sizes discs are looked for at, when too few are found
ROUNDER = 1.05  # of two sizes at which as many discs are found (three or more: with one or
#                 two the ditch's discs would decide), the other is taken only where its discs'
#                 rims were followed round this much more of their round, all told: at the
#                 discs' own size a rim is followed all round, at another in part (a 20-inch
#                 navy board's discs, a third larger than taken, were followed round 4.5 of
#                 their 14 rounds at 0.88 times and 13.3 at 1.3; at 0.88 two 10s were read as
#                 15s with 9 mm to spare). Of 20 pairs of sizes finding as many discs on the
#                 tuning and retired sets, the 12 whose other size was followed round 1.09 to
#                 2.3 times more were each nearer the truth at it; of the 8 others (0.64 to
#                 1.01 times), 5 were nearer at the size taken
SWEEP_FAR = (0.8,)  # ... and, when none is found at those, these (a 32-inch board's discs)


CHANGES_SIZE_SHARE = 0.75  # the share of the discs a look must keep at the size the changes say
CHANGES_LARGER_GAIN = 1.12  # how far above the expected size's the changes' rings must stand at
#                            a larger size (a smaller board's discs) for it to be looked at


def _more_discs(seen: _Seen, other: _Seen, k: float, board: Board, least: int,
                share: float = 1.0, tie: bool = False) -> bool:
    """Whether a look taking the discs ``k`` times larger than ``seen`` does finds more of
    them (at least ``least``; or more than ``share`` of as many) within the same outer line (a
    larger board taken reaches onto the table), their radii agreeing with that size and their
    rims followed round ``FOLLOWED`` of their round on average; with ``tie``, whether it finds
    as many instead (the rims' round then compared by :func:`_rounder`)."""
    within = min(1.0, k) * board.outer_radius
    more = _on_surface(other, within * other.board.outer_radius / board.outer_radius)
    than = _on_surface(seen, within * seen.board.outer_radius / board.outer_radius)
    return (more >= least
            and (more == than if tie else more > share * than and _followed(other) >= FOLLOWED)
            and abs(_disc_size(other) - 1.0) < 0.08)


def _round_followed(look: _Seen) -> float:
    """How much of their round a look's discs' rims were followed, all told (each disc's
    share summed)."""
    return sum(look.rims[i].coverage for i in look.keep)


SIZE_FOLLOWED = 0.75  # a size whose discs' rims were followed round less than this share of
#                      their round, on average, is in doubt: the size ringing best on the
#                      other side of the expected one is looked at too
SIZE_GAIN = 0.1  # ... and tried instead only if its discs' rims were followed round this much
#                  more of their round on average than at the expected size, and more in all
#                  (a 20.6-inch board's worn discs, a quarter larger than the tournament
#                  board's, rang in the difference from the empty board most at the smallest
#                  size looked for, each worn face ringing as several discs followed round 0.53
#                  of their round; at their own size, 0.89. Weighed on the looks alone, on 800
#                  tuning and retired frames against their empty boards the rule brought 14
#                  nearer their board's size and none farther; on 400 from scratch, 31 and none)


def _best_followed(seen: _Seen, k: float, scores: tuple[float, ...],
                   board_size: Callable[[float], bool], look_at: Callable[[float], _Seen]
                   ) -> tuple[float, _Seen | None]:
    """The size to try the discs at (``k`` as the rings, or against the empty board the
    rims, proposed it; 1 for none) and the look at it if one was taken. Rings stand out at
    other sizes than the discs' own too (a worn face rings within itself, a disc's soft edge
    in the difference broadly, a board's print at every size), so where the discs the
    proposal (or the expected size, with none) finds are followed round less than
    ``SIZE_FOLLOWED`` of their round, the sizes ringing best on the other side of the
    expected one (both sides, with no proposal) are looked at, and one whose discs are
    followed round clearly more, on average and in all, is tried instead: at their own size
    discs' rims are followed all round. Against the proposal's own look, clearly more on
    average is enough where as many discs are found as at the expected size: a board's print
    can pass for many discs at the size it rings at, more of them in all than the discs
    themselves. ``look_at(s)`` looks at the frame with the board's lengths ``s`` times."""
    at_one = SCALES.index(1.0)
    look = None
    if k != 1.0:
        if not board_size(1.0 / k):
            return k, None
        look = look_at(1.0 / k)
    if _followed(look or seen) >= SIZE_FOLLOWED:
        return k, look
    smaller, larger = range(at_one), range(at_one + 1, len(SCALES))
    sides = [smaller] if k > 1.0 else [larger] if k < 1.0 else [smaller, larger]
    best = (k, look)
    for side in sides:
        size = SCALES[max(side, key=lambda i: scores[i])]
        if not board_size(1.0 / size):
            continue
        cand = look_at(1.0 / size)
        if (_followed(cand) < _followed(seen) + SIZE_GAIN
                or _round_followed(cand) <= _round_followed(seen)):
            continue
        than = best[1]
        if than is None or (_followed(cand) > _followed(than)
                            and (_round_followed(cand) > _round_followed(than)
                                 or (_followed(cand) >= _followed(than) + SIZE_GAIN
                                     and len(cand.keep) >= len(seen.keep)))):
            best = (size, cand)
    return best


def _better_followed(seen: _Seen, looks: list[_Seen]) -> _Seen | None:
    """Of the looks taken at the frame from a bare photo, one at another board's size whose
    discs' rims are followed round ``SIZE_GAIN`` more of their round on average than the
    look the size's rules settled on, finding as many discs, as many of them on the surface
    (one at least), the best followed of such; None if none is. Each rule weighs a pair of
    looks by what it was made to settle (more discs, a proposal's rings, the discs' measured
    size), and a board whose discs are few or worn can be settled at the tournament's size
    by each in turn, where a look already taken followed its discs all round: on the tuning
    frames and the retired pairs 317/318 to 331/332 (1,600 frames from scratch), taking it
    brought 33 boards read more than 5 % off within 5 % of their size and moved none the
    other way.

    On the surface only discs followed round ``FOLLOWED`` of their round count: a size swept
    to for more discs there can owe them to rings of the board's print, followed round less
    than half (retired play-351 38, a 24.7-inch board taken 18 % large for three such rings,
    its one 10 found at the tournament's size lost; a look at its own size, followed round
    0.89 on average, found that 10 and no ring)."""
    def on_surface(look: _Seen) -> int:
        return _on_surface(look, look.board.outer_radius, FOLLOWED)

    least = max(1, on_surface(seen))
    fair = [look for look in looks if look is not seen
            and _a_board_size(look.board)
            and _followed(look) >= _followed(seen) + SIZE_GAIN
            and len(look.keep) >= len(seen.keep) and on_surface(look) >= least]
    return max(fair, key=_followed, default=None)


def _rounder(other: _Seen, than: _Seen) -> bool:
    """Whether a look followed its discs' rims round ``ROUNDER`` times more of their round,
    all told, than another look at the frame did."""
    return _round_followed(other) >= ROUNDER * _round_followed(than)


FOLLOWED = 0.5  # a size whose discs' rims were followed round less than this share of their
#                round, on average, is not the discs' own (a 20-inch black board's bold
#                numerals, their rings a fifth smaller than its discs', were read as nine
#                discs followed round 0.36 to 0.51 of their round; its discs, at their own
#                size, 0.78 to 1)


def _followed(look: _Seen) -> float:
    """How much of their round a look's discs' rims were followed, on average."""
    return _round_followed(look) / len(look.keep) if look.keep else 0.0


def _on_surface(seen: _Seen, within: float, followed: float = 0.0) -> int:
    """How many discs a look found within ``within`` mm of the centre (its board's mm), their
    rims followed round ``followed`` of their round or more."""
    return sum(math.hypot(seen.rims[i].x_mm, seen.rims[i].y_mm) < within
               and seen.rims[i].coverage >= followed for i in seen.keep)


def _sized(rim: rimlib.Rim) -> bool:
    """A rim seen well enough for its radius to say the discs' size: a third of its round,
    tightly, on the playing surface."""
    return rim.coverage >= 0.3 and rim.spread_mm < 0.4 and not rim.in_ditch


def _sized_count(seen: _Seen) -> int:
    """How many of a look's discs are seen well enough to say their size."""
    return sum(_sized(seen.rims[i]) for i in seen.keep)


def _few_discs_size(seen: _Seen) -> float | None:
    """With too few discs seen cleanly to settle the board's size (fewer than three), the
    size their rings stand out most at, when clearly another than the board is taken at; else
    None. A disc that looks a fifth larger than expected has its rim fitted with too small a
    circle (the rim is looked for near the expected radius), its centre and edge millimetres
    off with nothing else to say so; its rings at its own size still show it."""
    if _sized_count(seen) >= 3:
        return None
    board = seen.board
    scoring = [(seen.rims[i].x_mm, seen.rims[i].y_mm) for i in seen.keep
               if not seen.rims[i].in_ditch
               and board.zone(math.hypot(seen.rims[i].x_mm, seen.rims[i].y_mm)) > 0]
    if not scoring:
        return None
    k = disc_scale(seen.view, board, at=np.array(scoring))
    return k if abs(k - 1.0) > FEW_SIZE_OFF else None


def _size_dependent(seen: _Seen, other: _Seen, extra: bool = True) -> set[int] | None:
    """The discs of ``seen`` (their places among its kept rims) whose zone differs in
    ``other``, the same frame read with the board at another size, or that ``other`` does not
    find; None when ``other`` finds a scoring disc ``seen`` does not (then the board as a
    whole is in doubt), unless ``extra`` is False. Discs are paired by where they lie as a
    share of each look's board."""
    mine = [(x, y, zone) for x, y, zone, _ in _spots(seen)]
    theirs = [(x, y, zone) for x, y, zone, _ in _spots(other)]
    reach = 1.5 * seen.board.disc_radius / seen.board.outer_radius  # (discs lie 2 apart)
    paired: set[int] = set()
    out = set()
    for k, (x, y, zone) in enumerate(mine):
        near = [j for j, (u, v, _) in enumerate(theirs) if math.dist((x, y), (u, v)) < reach]
        j = min(near, key=lambda j: math.dist((x, y), theirs[j][:2]), default=None)
        if j is not None:
            paired.add(j)
        if (j is None and zone > 0) or (j is not None and theirs[j][2] != zone):
            out.add(k)
    if extra and any(zone > 0 and j not in paired for j, (_, _, zone) in enumerate(theirs)):
        return None
    return out


def _spots(look: _Seen) -> list[tuple[float, float, int, float]]:
    """Each kept disc of a look where it lies as a share of the look's board (x, y), its zone
    (0 in the ditch) and how much of its round its rim was followed: the terms two looks at
    the frame with the board at other sizes are compared in."""
    b = look.board
    return [(r.x_mm / b.outer_radius, r.y_mm / b.outer_radius,
             0 if r.in_ditch else b.zone(math.hypot(r.x_mm, r.y_mm)), r.coverage)
            for r in (look.rims[i] for i in look.keep)]


LOST_FOLLOWED = 0.6  # a disc lost at another size counts when followed round this much


def _lost(seen: _Seen, other: _Seen) -> bool:
    """Whether ``other``, the frame looked at with the board at another size, found a scoring
    disc, its rim followed round most of its round (``LOST_FOLLOWED``), that ``seen`` does not
    find: paired as :func:`_size_dependent` pairs them, one overlapping a disc of ``other``
    that ``seen`` found left out (two rims that overlap are one disc at most: a disc's shadow
    or a second ring beside it). (At a size a little off, a board's print and a glare's
    edges are read as discs followed round less than half their round.)"""
    mine = _spots(seen)
    theirs = [(x, y, zone > 0 and followed >= LOST_FOLLOWED)
              for x, y, zone, followed in _spots(other)]
    radius = other.board.disc_radius / other.board.outer_radius
    found = [any(math.dist((x, y), (u, v)) < 1.5 * radius for u, v, *_ in mine)
             for x, y, _ in theirs]
    return any(scores and not found[j] and not any(
        found[i] and math.dist((x, y), theirs[i][:2]) < 2 * radius
        for i in range(len(theirs)) if i != j) for j, (x, y, scores) in enumerate(theirs))


def _disc_size(look: _Seen) -> float:
    """How much larger than the board says the discs look: the median radius of the rims
    seen well enough (a third of their round, tightly), 1 when fewer than three are.

    From a bare photo each rim's radius is the one fitted freely to the edges found within
    3.5 mm of the radius expected: the radius fitted within 2 mm, which places the disc, stays
    near the expected one whatever the disc's (on a 28-inch board taken at the tournament's,
    discs 7 % smaller measured 1 % so by it, 8 % by the wider edges). Against the empty board
    the tighter one is kept: a board taken at another size than calibrated is compared with it
    less finely, and on the tuning frames the sizes the wider edges said lost more discs than
    they placed better."""
    return _size_said(look, wide=look.diff is None)


def _board_sized(looks: list[_Seen], seen: _Seen, board: Board,
                 board_size: Callable[[float], bool]) -> float | None:
    """Of the looks at the frame other than ``seen``, the best followed whose discs' measured
    size (three or more seen well enough) is one a board has, and not ``seen``'s own size:
    that size (``board``'s lengths times); None if none is. (``seen`` is often the look taken
    at the size another look's discs measured: that look says the size just found wanting.)"""
    here = seen.board.outer_radius / board.outer_radius
    best: tuple[float, _Seen] | None = None
    for look in looks:
        if look is seen or _sized_count(look) < 3:
            continue
        size = look.board.outer_radius / board.outer_radius / _disc_size(look)
        if abs(size / here - 1.0) <= RESCALE / 3:
            continue
        if board_size(size) and (best is None or _followed(look) > _followed(best[1])):
            best = (size, look)
    return None if best is None else best[0]


def _sized_radii(look: _Seen, wide: bool) -> list[float]:
    """The radii of a look's rims seen well enough to say their size (the free fit's to the
    wider edges if ``wide``, else the placing fit's), those measured."""
    radii = [(r.wide_radius_mm if wide else r.radius_mm)
             for r in (look.rims[i] for i in look.keep) if _sized(r)]
    return [v for v in radii if math.isfinite(v)]


def _size_said(look: _Seen, wide: bool) -> float:
    """The median radius of a look's rims seen well enough (see :func:`_sized_radii`) over
    the disc's, 1 when fewer than three are."""
    clean = _sized_radii(look, wide)
    if len(clean) < 3:
        return 1.0
    return float(np.median(clean)) / look.board.disc_radius


def _inches(board: Board, scale: float = 1.0) -> float:
    """The playing surface's diameter in inches, the board's lengths ``scale`` times."""
    return 2 * board.surface_radius * scale / 25.4


HOLE_SIZES = (30.0, 42.0)  # a hole measured outside these (mm) at the size the board is taken
#                            at says another size than the tournament board's 35 mm would
#                            (holes are about so on every board; the simulator's 32 to 40)


def _hole_size(board: Board) -> bool:
    """Whether the board's 20 hole, at the size the board is taken at, is a hole's size."""
    return HOLE_SIZES[0] <= board.hole_diameter <= HOLE_SIZES[1]


def _a_board_size(board: Board, scale: float = 1.0) -> bool:
    """Whether the board with its lengths ``scale`` times is a size a crokinole board has
    (its playing surface within ``SURFACE_IN``)."""
    return SURFACE_IN[0] <= _inches(board, scale) <= SURFACE_IN[1]


def _size_sigma(look: _Seen) -> float:
    """How uncertain the board's size as taken is (a share): how far the discs' rims fitted
    freely (three or more seen well enough) stand from it in their median, and how widely
    they scatter about it; 0 with fewer, whose size is judged apart (:func:`_few_discs_size`).
    """
    radii = np.array(_sized_radii(look, wide=True))
    if len(radii) < 3:
        return 0.0
    middle = float(np.median(radii))
    scatter = 1.4826 * float(np.median(np.abs(radii - middle))) / math.sqrt(len(radii))
    return math.hypot(middle / look.board.disc_radius - 1.0, scatter / look.board.disc_radius)


WIDE_OFF = 0.05  # discs whose rims, fitted freely, stand this much another size propose it


def _wide_size(look: _Seen) -> float:
    """The size the discs' rims fitted freely to the wider edges say, if at least three are
    seen well enough and their median stands WIDE_OFF or more from the size taken; else 1.
    Against the empty board each rim is placed by the edge nearest the radius expected, and
    its radius fitted there stays near it whatever the disc's: a 22-inch board taken at the
    tournament's had its discs, a sixth larger than taken, measured within 1 % of it, and a
    disc touching the 10 line read clear of it by 2 mm. Only a proposal: the frame is looked
    at again at that size, and the look that finds the discs better is kept."""
    k = _size_said(look, wide=True)
    return k if abs(k - 1.0) >= WIDE_OFF else 1.0


def _rescaled(reg: Registration, board: Board, scale: float) -> tuple[Registration, Board]:
    """The camera and board with the board's lengths (not the discs') ``scale`` times what
    they were: the same picture of a board that size."""
    return (replace(reg, camera=scaled_camera(reg.camera, scale),
                    ring_sigma_mm=reg.ring_sigma_mm * scale), scaled(board, scale))


LITTLE_RIM_DOUBT = "whether it is a disc: little of its rim could be followed"


def _disc_confidence(zone: int, margin: float, sigma: float, side_sure: bool,
                     seen: float) -> tuple[float, str]:
    """How sure the reading is of a disc, 0 to 1 (below a half it is to be checked), and what
    is in doubt: its zone when the deciding line's edge is within a few uncertainties of its
    rim (a half at FLAG_SIGMAS); where it scores, its side when the colours cannot say, and
    whether it is a disc at all when little of its rim was seen (``seen``)."""
    zone_conf = min(1.0, margin / (2.0 * FLAG_SIGMAS * max(sigma, 1e-6)))
    out, doubt = zone_conf, "its zone: it lies on or near a line" if zone_conf < 0.5 else ""
    if zone > 0 and seen < 0.5 and seen < out:
        out, doubt = seen, LITTLE_RIM_DOUBT
    if not side_sure and zone > 0 and out >= 0.3:
        out, doubt = min(out, 0.3), "its side: the colours cannot tell which side it is"
    return out, doubt


FAINT_STEP = 25.0  # a rim whose colour step (log units x 100 per mm) is below this, as one in
#                    twenty discs' are (their median 88), ...
FAINT_STEP_COVERAGE = 0.6  # ... followed over less than this share of its round, says little
#                           of a disc: from scratch on the tuning frames and 327/328, 16 sure
#                           discs were such, 14 of them no disc (a window's glare on a black
#                           board's varnish, its edge's arc passing for a rim: tuning play-11
#                           64 to 67), of 2,041 discs read
FAINT_STEP_SEEN = 0.4  # ... and its rim's confidence is at most this (below a half: flagged)
#                       From a bare photo, where no change from an empty board can say it is
#                       a disc, any rim followed over less than FAINT_STEP_COVERAGE is such: on
#                       600 frames of 317/318, 349/350 and 353/354 read alone from scratch, all
#                       7 false discs read surely that score were followed over 0.36 to 0.55 of
#                       their round (where a quadrant line meets a circle, a glare's edge), 4 of
#                       2,674 true ones


def _rim_confidence(rim: rimlib.Rim, change: float | None, least: float | None) -> float:
    """How surely its rim says a candidate is a disc, 0 to 1: the share of its round seen
    (six tenths is plenty) and how tightly it follows the circle, and not much where a faint
    rim (any rim, from a bare photo: ``change`` None) was followed over little of its round;
    a face that changed the empty board well beyond any noise says so too."""
    out = min(1.0, rim.coverage / 0.6) * float(np.clip((0.6 - rim.spread_mm) / 0.3, 0.0, 1.0))
    if rim.coverage < FAINT_STEP_COVERAGE and (rim.contrast < FAINT_STEP or change is None):
        out = min(out, FAINT_STEP_SEEN)
    if change is not None and least is not None and change >= 3.0 * least:
        out = max(out, 0.8)
    return out


def disc_pixels(camera: CameraModel, board: Board) -> float:
    """How many pixels across a disc's face is in the picture, near the board's centre."""
    return board.disc_diameter / camera.mm_per_px(board.disc_thickness)


def too_small(across: float) -> str:
    """Why discs this many pixels across are flagged, and the installer's fix."""
    return (f"the discs are only {across:.0f} pixels across in the picture, too few to be sure "
            f"of them ({SMALLEST_DISC_PX:.0f} or more): bring the camera closer or set a larger "
            "picture size")


def _held_back(doubts: Sequence[str], cut_off: str | None) -> bool:
    """Whether a reading's doubts keep what it saw (its size, its sides' colours) from the next
    readings of the match: any doubt of the board but what the picture leaves out
    (:func:`out_of_picture`), which says nothing of the discs it shows."""
    return any(d != cut_off for d in doubts)


def out_of_picture(view: object, board: Board) -> str | None:
    """What of the board the picture leaves out that puts every reading of it in doubt, said
    with the fix: too much of the playing surface, or any of the scoring area deeper than
    ``CUT_MM`` (a disc there is not read); None if nothing. ``calibrate`` warns of it too."""
    surface = _surface_seen(view, board)
    if surface < SURFACE_SEEN:
        return f"only {surface:.0%} of the playing surface is in the picture"
    cut = _cut_into(view, board)
    if cut >= CUT_MM:
        return (f"the picture's edge cuts {cut:.0f} mm into the scoring area: a disc there "
                "cannot be read (bring the whole board into the picture)")
    return None


def _surface_seen(view: object, board: Board) -> float:
    """The share of the playing surface (within the outer line) inside the frame."""
    inside = view.inside  # type: ignore[attr-defined]
    on = view.radius < board.outer_radius  # type: ignore[attr-defined]
    return float(inside[on].mean()) if on.any() else 0.0


def _cut_into(view: object, board: Board) -> float:
    """How far (mm, radially) the frame's edge cuts into the scoring area: 0 when the whole
    of it within the outer line is in the frame."""
    out = ~view.inside & (view.radius < board.outer_radius)  # type: ignore[attr-defined]
    if not out.any():
        return 0.0
    return float(board.outer_radius - view.radius[out].min())  # type: ignore[attr-defined]


def _noise(diff: Difference, view: object, board: Board) -> float:
    """The frame's own noise against the empty board: the median difference over the
    playing surface (mostly bare board)."""
    on = (view.radius < board.surface_radius - 5.0) & view.inside  # type: ignore
    on[1::2, :] = False  # every other row: plenty for a median
    return float(np.median(diff.size[on])) if on.any() else 0.0


def _grid(extent: float, step: float, inner: float, outer: float) -> np.ndarray:
    """Board points (n, 2; mm) on a square grid of ``step`` from ``-extent``, between
    ``inner`` and ``outer`` from the centre: where disc-sized patches are looked at."""
    g = np.arange(-extent, extent, step)
    xx, yy = np.meshgrid(g, g)
    rr = np.hypot(xx, yy)
    on = (rr < outer) & (rr > inner)
    return np.stack([xx[on], yy[on]], -1)


def _face_noise(diff: Difference, view: Any, board: Board) -> float:
    """The frame's noise against the empty board as a disc's face sees it: the median change
    of disc-sized patches on a grid over the playing surface (mostly bare board). A dark
    board's pixels are noisy in logarithms, but a face's change is its middle's median, in
    which that noise mostly cancels; a black disc on a black board changes it by less than
    the pixels' noise and still stands well above this."""
    pts = _grid(board.surface_radius, 12.0, board.hole_diameter / 2 + 20.0,
                board.surface_radius - 20.0)
    if not len(pts):
        return 0.0
    return float(np.median(np.linalg.norm(diff.at(view, pts, 0.8 * board.disc_radius),
                                          axis=1)))


def _changed(cands: list, diff: Difference, view: Any, board: Board, least: float
             ) -> tuple[list, list]:
    """The candidates where something changed the empty board (or in the ditch, which the
    empty board does not judge): on bare playing surface a ring of the board's own print is
    no disc, and its rim need not be measured. And, apart, those of the rest, clear of them,
    that the change rings as a disc's outline (:meth:`vision.empty.Difference.outline`): a
    disc the board's own colour changes it by its outline alone. Their rims are measured
    apart, never read as discs, only flagged where one may lie (as a bare photo's dim
    candidates are, see :func:`_with_dim`)."""
    if not cands:
        return cands, []
    xy = np.array([[c.x_mm, c.y_mm] for c in cands])
    change = np.linalg.norm(diff.at(view, xy, 0.6 * board.disc_radius), axis=1)
    edge = board.surface_radius - board.disc_radius / 2
    kept = (change >= 0.5 * least) | (np.hypot(xy[:, 0], xy[:, 1]) >= edge)
    ringed = np.zeros(len(cands), bool)
    if not kept.all():
        ringed[~kept] = diff.outline(view, xy[~kept], board.disc_radius, least) >= OUTLINED
    near = np.hypot(xy[:, None, 0] - xy[None, kept, 0], xy[:, None, 1] - xy[None, kept, 1])
    ringed &= ~(near < 1.6 * board.disc_radius).any(axis=1)
    return ([c for c, k in zip(cands, kept, strict=True) if k],
            [c for c, k in zip(cands, ringed, strict=True) if k])


def _is_disc(rim: rimlib.Rim, face: np.ndarray, even: float, contrast: float,
             lit: np.ndarray, board: Board,
             change: tuple[float, float] | None = None) -> bool:
    """Whether a measured rim is a disc's: a circle of the disc's size found over enough of its
    round, around an even top face that is not the bare board. Against the empty board
    (``change``: how much the face changed it there, and the least a disc changes it in this
    frame) that is the whole test of the face: the board's print, grain, lines and the gap
    between touching discs change nothing, a disc of any colour does. Without it, the face
    must differ from the bare board (or ditch) just around it and from the lit part of it: a
    ring of the board's print (a numeral's 0), grain, a line's curve or the gap between
    touching discs has the board's colour inside, or print and board mixed; a gap's inside is
    lit board, darker around only where the discs' contact shadows fall. A face as uneven as
    wear to bare wood makes one is a disc's there only round a rim followed round more of its
    round than print is, and standing out boldly. ``contrast``: the face's log-colour distance
    from the bare board just around it."""
    log_face = np.log(face + 8.0)
    if change is not None:
        amount, least = change
        bold = amount >= BOLD_CONTRAST or contrast >= BOLD_CONTRAST
        # (a face as uneven as grain, wear or a sheen across it make one is a disc's too when
        # its rim was followed round most of its round, tightly, at the disc's radius)
        face_ok = amount >= least and (
            even <= max(MAX_FACE_UNEVEN, UNEVEN_PER_CONTRAST * max(amount, contrast))
            or _round_worn(rim, even, board))
    else:
        least = MIN_DITCH_CONTRAST if rim.in_ditch else MIN_FACE_CONTRAST
        unlike_lit = rim.in_ditch or float(
            np.linalg.norm(log_face - np.log(lit + 8.0))) >= MIN_LIT_CONTRAST
        bold = contrast >= BOLD_CONTRAST
        face_ok = (contrast >= least and unlike_lit
                   and (even <= max(MAX_FACE_UNEVEN, UNEVEN_PER_CONTRAST * contrast)
                        or (bold and _round_worn(rim, even, board, BARE_ROUND_COVERAGE))))
    return (rim.points >= MIN_POINTS and rim.spread_mm <= MAX_SPREAD_MM
            and abs(rim.radius_mm - board.disc_radius) <= MAX_RADIUS_OFF_MM
            and math.hypot(rim.x_mm, rim.y_mm) >= (
                HOLE_ITSELF if change is None else HOLE_CHANGED) * board.hole_diameter / 2
            and face_ok and _rim_enough(rim, bold, even))


def _round_worn(rim: rimlib.Rim, even: float, board: Board,
                coverage: float = ROUND_COVERAGE) -> bool:
    """Whether a face as uneven as grain, wear or a sheen across it make one is a disc's: its
    rim followed round most of its round (``coverage``), tightly, at the disc's radius."""
    return _tight_round(rim, board, coverage) and even <= ROUND_UNEVEN


def _tight_round(rim: rimlib.Rim, board: Board, coverage: float) -> bool:
    """Whether a rim was followed over ``coverage`` of its round, tightly, at the disc's
    radius: a board's print and grain ring over part of a round at most."""
    return (rim.coverage >= coverage and rim.spread_mm <= ALL_ROUND_SPREAD_MM
            and abs(rim.radius_mm - board.disc_radius) <= ROUND_RADIUS_MM)


def _rim_enough(rim: rimlib.Rim, bold: bool, even: float) -> bool:
    """Whether enough of the rim was seen for its face to be a disc's: four tenths of its
    round; a third, for a face that stands out boldly from the board; or three tenths, if what
    was seen is one long tight arc around an even face (a disc beside a numeral or a peg,
    whose other profiles found the print)."""
    if rim.coverage >= MIN_COVERAGE or (bold and rim.coverage >= MIN_BOLD_COVERAGE):
        return True
    return (rim.coverage >= MIN_ARC_COVERAGE and rim.points >= ARC_POINTS
            and rim.spread_mm <= ARC_SPREAD_MM and even <= EVEN_FACE)


def _distinct(rims: list[rimlib.Rim], index: list[int], board: Board) -> list[int]:
    """The indices of the rims left when those that are the same disc found twice (or overlap:
    discs cannot) are dropped, the better seen of each kept."""
    order = sorted(range(len(rims)), key=lambda i: (-rims[i].coverage, rims[i].spread_mm))
    kept: list[int] = []
    for i in order:
        r = rims[i]
        if all(math.hypot(r.x_mm - rims[k].x_mm, r.y_mm - rims[k].y_mm) > 1.6 * board.disc_radius
               for k in kept):
            kept.append(i)
    return [index[i] for i in sorted(kept)]


CROWDED = 1.8  # two flat discs' centres lie a diameter apart at least; this many radii is less
CROWDED_DOUBT = ("it overlaps another disc read, which flat discs cannot: one leaning or "
                 "stacked, or one disc read as two")
# what a disc flagged for says something on the board is not explained by the discs read (a
# hand, an arm, a stack): a reading with one teaches the match no colours (Reading.sides_seen)
UNEXPLAINED = (OVER_DOUBT, BESIDE_DOUBT, UNREAD_DOUBT, CLEAN_DOUBT, CROWDED_DOUBT)


def _crowded(discs: list[DiscReading], board: Board) -> list[DiscReading]:
    """The discs, those that score flagged where two read overlap: touching discs are read
    a diameter apart within a millimetre or two, so nearer is a disc leaning on or lying on
    another, or a face's grain or glare read as a second rim, and neither is to be trusted."""
    near = CROWDED * board.disc_radius
    out = list(discs)
    for i, a in enumerate(discs):
        if a.zone == 0 or a.uncertain:
            continue
        if any(j != i and math.hypot(a.x_mm - b.x_mm, a.y_mm - b.y_mm) < near
               for j, b in enumerate(discs)):
            out[i] = a.flagged(CROWDED_DOUBT)
    return out


def _side_radius(rims: list[rimlib.Rim], teams: tuple[int, ...],
                 board: Board) -> list[rimlib.Rim]:
    """Each rim fitted again with its side's apparent radius: the median over the side's
    cleanly seen rims (a side's discs share their colour, hence their edges' look)."""
    out = list(rims)
    for team in (0, 1):
        idx = [i for i, t in enumerate(teams) if t == team]
        if not idx:
            continue
        clean = [rims[i].radius_mm for i in idx
                 if rims[i].coverage > 0.8 and rims[i].spread_mm < 0.35]
        radius = float(np.median(clean)) if clean else board.disc_radius
        radius = float(np.clip(radius, board.disc_radius - 0.8, board.disc_radius + 0.8))
        for i, rim in zip(idx, rimlib.refit([rims[i] for i in idx], radius), strict=True):
            out[i] = rim
    return out
