"""One frame to the board's discs: the pipeline the daemon calls once per round.

    camera (calibration, or the board found in the frame)
      -> candidates (circles of a disc's size, on the top faces' plane)     vision.discs
      -> rims measured on the full frame, parallax undone                   vision.rims
      -> sides by colour                                                    vision.sides
      -> each side's rims fitted again with the side's own apparent radius
      -> zones, with each disc's uncertainty                                vision.zones

A reading is a frozen value; :func:`annotate <vision.annotate.annotate>` draws it, and
:meth:`Reading.to_rules` gives the rules engine's ``board`` event.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from rules.board import STANDARD, Board
from rules.events import BoardReading, Disc
from vision import rims as rimlib
from vision.calibration import Calibration, check_frame
from vision.camera import CameraModel
from vision.discs import (
    PX_PER_MM,
    board_light,
    candidates,
    ditch_colour,
    surround_colour,
    top_view,
    view_maps,
)
from vision.errors import UnreadableImage
from vision.registration import find_board, grey_of
from vision.seats import find_turn, place_seats
from vision.sides import RGB, assign
from vision.zones import Registration, judge

log = logging.getLogger(__name__)

# what a measured rim must look like to count as a disc (bench/vision.py shows the effect)
MIN_COVERAGE = 0.4        # share of the profiles all round that find the rim on the circle
MIN_BOLD_COVERAGE = 0.25  # ... for a face that stands out boldly from the board around it
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

    def to_json(self) -> dict[str, Any]:
        return {"x_mm": round(self.x_mm, 1), "y_mm": round(self.y_mm, 1), "team": self.team,
                "zone": self.zone, "uncertain": self.uncertain}

    def to_disc(self) -> Disc:
        return Disc(self.team, self.zone, self.uncertain, self.x_mm, self.y_mm)


@dataclass(frozen=True, eq=False)
class Reading:
    """Every disc found, the board values per side, and what the reading was made with."""

    discs: tuple[DiscReading, ...]
    colours: tuple[RGB | None, RGB | None]
    camera: CameraModel
    board: Board
    calibrated: bool
    seat0: str

    @property
    def totals(self) -> tuple[int, int]:
        """The board's value per side (20s are the hole sensor's, not the camera's)."""
        t = [0, 0]
        for d in self.discs:
            t[d.team] += d.zone
        return t[0], t[1]

    @property
    def uncertain(self) -> bool:
        return any(d.uncertain for d in self.discs)

    @property
    def sides_seen(self) -> tuple[RGB, RGB] | None:
        """The two sides' colours, when this reading told both sides apart surely: what the
        next readings of the match decide a board showing one side only by (on its own, a lone
        colour could be either side's)."""
        a, b = self.colours
        if a is None or b is None:
            return None
        sure = [any(d.side_sure and d.team == k for d in self.discs) for k in (0, 1)]
        return (a, b) if all(sure) else None

    def to_json(self) -> dict[str, Any]:
        return {"discs": [d.to_json() for d in self.discs], "totals": list(self.totals)}

    def to_rules(self) -> BoardReading:
        """The rules engine's ``board`` event for this reading."""
        return BoardReading(tuple(d.to_disc() for d in self.discs))


def confirmed_colours(known: tuple[RGB | None, RGB | None] | None,
                      reading: Reading) -> tuple[RGB | None, RGB | None]:
    """The sides' colours known once the players confirm ``reading`` (sides and all): its own,
    and for a side it showed no disc of, what was known before. A board showing one side only
    so teaches that side's colour, and the next such board need not be asked about."""
    old = known or (None, None)
    return reading.colours[0] or old[0], reading.colours[1] or old[1]


def to_discs(reading: Reading) -> tuple[Disc, ...]:
    """The reading as the rules engine's discs."""
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
    """The camera for this frame and the board it sees: the calibration's, or the board found
    in the frame (measured, unless ``board`` states it)."""
    if calibration is not None:
        check_frame(calibration, frame, name)
        from vision.registration import check_exposure

        check_exposure(grey_of(np.ascontiguousarray(frame[::8, ::8])), name, step=1)
        return Registration(calibration.camera, calibration.focal_sigma, calibration.sigma_mm,
                            True, calibration.seat0), board or calibration.board
    found = find_board(frame, board or STANDARD, focal_px=focal_px, name=name,
                       measure=board is None)
    grey = grey_of(frame)
    turn = find_turn(grey, found.camera, found.board, found.polarity)
    camera = place_seats(found.camera, turn, found.board, seat0)
    return Registration(camera, found.focal_sigma, found.fit.sigma_mm, False, seat0), found.board


def read_board(frame: np.ndarray, calibration: Calibration | None = None, *,
               colours: tuple[RGB | None, RGB | None] | None = None,
               board: Board | None = None,
               focal_px: float | None = None, seat0: str = "bottom",
               name: str = "the frame") -> Reading:
    """Reads every disc of a BGR frame (the module docstring's steps).

    ``calibration``: the fixed rig's (see :mod:`vision.calibration`); without one the board is
    found in the frame, seat 0 taken to sit at the frame's ``seat0`` edge. ``colours``: the two
    sides' disc colours (RGB, team 0 first) when named in the config or seen in an earlier
    reading of the match (``Reading.sides_seen``), or one side's (the other None) once an
    operator confirmed a reading that showed that side only; otherwise team 0 is the darker.
    """
    frame = _check_frame(frame, name)
    reg, board = locate(frame, calibration, board, focal_px=focal_px, seat0=seat0, name=name)
    same = calibration is not None and board is calibration.board
    maps = calibration.maps if same else view_maps(reg.camera, board, board.disc_thickness,
                                                   PX_PER_MM)
    view = top_view(frame, maps)
    cands = candidates(view, board)
    levels = rimlib.clutter(frame, reg.camera, board)
    centres = np.array([[c.x_mm, c.y_mm] for c in cands]).reshape(-1, 2)
    rims = [r for r in rimlib.measure(frame, reg.camera, centres, board, levels)
            if r is not None]
    xy = np.array([[r.x_mm, r.y_mm] for r in rims]).reshape(-1, 2)
    faces, even = rimlib.face_colours(frame, reg.camera, rims, board.disc_radius)
    light = board_light(view, xy, board)[:, ::-1]
    around = np.where((np.hypot(xy[:, 0], xy[:, 1]) < board.surface_radius)[:, None], light,
                      ditch_colour(view, xy, board)[:, ::-1])
    ring, lit = surround_colour(view, xy, board)
    around = np.where(np.isnan(ring), around, ring[:, ::-1])
    lit = np.where(np.isnan(lit), around, lit[:, ::-1])
    keep = [i for i, r in enumerate(rims)
            if _is_disc(r, faces[i], even[i], around[i], lit[i], board)]
    keep = _distinct([rims[i] for i in keep], keep, board)
    rims, faces, light = [rims[i] for i in keep], faces[keep], light[keep]
    sides = assign(faces, colours, light)
    rims = _side_radius(rims, sides.teams, board)
    discs = []
    for rim, team, sure, face in zip(rims, sides.teams, sides.sure, faces, strict=True):
        zone, margin, sigma, unsure = judge(rim, reg, board)
        pix = reg.camera.project(np.array([rim.x_mm, rim.y_mm, rim.z_mm]))
        edge = reg.camera.project(np.array([rim.x_mm + board.disc_radius, rim.y_mm, rim.z_mm]))
        # a doubt about the side matters only where the disc scores
        discs.append(DiscReading(
            rim.x_mm, rim.y_mm, team, zone, unsure or (not sure and zone > 0), margin, sigma,
            (float(pix[0]), float(pix[1])), float(np.hypot(*(edge - pix))), rim.in_ditch,
            sure, (round(float(face[0])), round(float(face[1])), round(float(face[2])))))
    discs.sort(key=lambda d: (-d.zone, math.hypot(d.x_mm, d.y_mm)))
    log.info("%s: %d discs, totals %s", name, len(discs),
             [sum(d.zone for d in discs if d.team == k) for k in (0, 1)])
    return Reading(tuple(discs), sides.colours, reg.camera, board, reg.calibrated, reg.seat0)


def _is_disc(rim: rimlib.Rim, face: np.ndarray, even: float, around: np.ndarray,
             lit: np.ndarray, board: Board) -> bool:
    """Whether a measured rim is a disc's: a circle of the disc's size found over enough of its
    round, around an even top face of another colour than the bare board (or ditch) just
    around it, and than the lit part of it. A ring of the board's print (a numeral's 0), grain,
    a line's curve or the gap between touching discs has the board's colour inside, or print
    and board mixed; a gap's inside is lit board, darker around only where the discs' contact
    shadows fall."""
    log_face = np.log(face + 8.0)
    contrast = float(np.linalg.norm(log_face - np.log(around + 8.0)))
    least = MIN_DITCH_CONTRAST if rim.in_ditch else MIN_FACE_CONTRAST
    unlike_lit = rim.in_ditch or float(
        np.linalg.norm(log_face - np.log(lit + 8.0))) >= MIN_LIT_CONTRAST
    return (rim.points >= MIN_POINTS and rim.spread_mm <= MAX_SPREAD_MM
            and abs(rim.radius_mm - board.disc_radius) <= MAX_RADIUS_OFF_MM
            and rim.coverage >= (MIN_COVERAGE if contrast < BOLD_CONTRAST else MIN_BOLD_COVERAGE)
            and contrast >= least and unlike_lit
            and even <= max(MAX_FACE_UNEVEN, UNEVEN_PER_CONTRAST * contrast))


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
