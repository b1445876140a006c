"""A disc's zone, and whether the reading can be trusted with it.

The zone is the rules' own :meth:`Board.zone <rules.board.Board.zone>` of the disc's distance from
the centre (a disc touching a line counts the lower value; the outer line or the ditch, 0). What
vision adds is how sure it is: a disc whose distance to the deciding line edge is within a few
standard uncertainties of its measured position is marked uncertain, for the players to look at,
rather than guessed.

The uncertainty of a disc's distance from the centre is put together from what moves it:

* the rim: a fraction of a pixel for a rim seen cleanly, more as its points scatter about the
  circle (a contact shadow, a bevel, a line or numeral beside it), and more again when fewer of
  its profiles found it (a disc in a cluster, against a peg, on a line). The sizes of these were
  measured on the simulator's frames so that errors beyond three uncertainties are rare
  (``bench/vision.py`` prints the errors against the uncertainties given);
* the board fit: how well the camera holds the board's circles;
* the parallax: the disc's lean (its top face's shift in the picture) times how unsure the
  focal length is, and a little for where the point below the camera is;
* the line's deciding edge: half its width in from its middle, and a board's lines are 1.5 to
  3 mm wide where the board taken says 2 (the picture does not show the width at the
  resolutions the appliance reads: a line is three or four pixels of blur). On the retired
  unseen pair 317/318 that was the largest part of the scoring discs' edges read more than
  three uncertainties off (9.6 % of them; 4.4 % with this counted);
* the board's size as taken (``Registration.size_sigma``): a size off by a share puts each
  disc's edge off the lines by that share of its radius (on 317/318, with this counted too,
  1.8 % of those edges were beyond three uncertainties);
* a face whose edges, looked for widely, lie inside the disc's radius (``inside_mm``): a disc
  worn to the board's colour round its rim, or glared across, shows a smaller circle, and the
  circle of the disc's radius through the half of it the reading uses lies off its centre by
  up to the gap (retired layouts-330 58: 1.5 mm inside, read 3 mm inward). Half the gap counts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from rules.board import Board
from vision.lens import lean_share
from vision.projection import CameraModel
from vision.rims import Rim

SIGMA_RIM_PX = 0.25        # a well seen rim's centre, in pixels of the frame
SIGMA_PER_SPREAD = 2.0     # ... plus this many times the scatter of its points (mm)
FULL_RIM_POINTS = 30       # fewer points than this widen it in proportion
SIGMA_BOARD_MM = 0.05      # the board fit's own error at the lines
SIGMA_NADIR_MM = 0.05      # the point below the lens, a few mm out, times thickness over height
SIGMA_LINE_MM = 0.25       # the deciding edge of a line, its width known only roughly
FLAG_SIGMAS = 3.0          # a disc closer than this many uncertainties to a decision is flagged
WORN_SHARE = 0.5           # a face whose widest edges lie inside the disc's radius: this share
#                            of the gap, as an uncertainty of where its rim was placed


@dataclass(frozen=True)
class Registration:
    """The camera a frame is read with, and how far to trust it."""

    camera: CameraModel
    focal_sigma: float       # relative uncertainty of the focal length
    ring_sigma_mm: float     # scatter of the board's circles about the fit
    calibrated: bool
    seat0: str
    confidence: float = 1.0  # how sure the board was found where the camera puts it (0 to 1)
    notes: tuple[str, ...] = ()  # what the installer should know (a camera refitted)
    doubt: str = ""              # why the board as found must be checked, in words ("": none)
    hole_measured: bool = False  # the 20 hole's diameter was measured in this frame: holes
    #                              are about 35 mm on boards of every size, so it says the
    #                              board's size apart from the discs
    size_sigma: float = 0.0      # relative uncertainty of the board's size as taken (its scale
    #                              against the discs'): each disc's edge is off by that share
    #                              of its radius against the lines

    @property
    def lean_share(self) -> float:
        """The share of the camera's parallax a disc's top is put back by: the frame's shape
        and how sure its lens is say it (:func:`vision.lens.lean_share`)."""
        return lean_share(self.camera.width, self.camera.height, self.focal_sigma)


def lean_mm(camera: CameraModel, x: float, y: float, height: float) -> float:
    """How far a point ``height`` mm up appears shifted outward (mm on the board)."""
    nad = camera.nadir()
    return math.hypot(x - nad[0], y - nad[1]) * height / max(camera.centre_mm[2] - height, 1.0)


def sigma_mm(rim: Rim, reg: Registration, board: Board) -> float:
    """Standard uncertainty (mm) of the disc's measured distance from the board's centre."""
    lean = lean_mm(reg.camera, rim.x_mm, rim.y_mm, board.disc_thickness)
    board_fit = max(SIGMA_BOARD_MM, 0.5 * reg.ring_sigma_mm)
    parallax = math.hypot(lean * reg.focal_sigma, SIGMA_NADIR_MM)
    if rim.near_half:  # its near-half edges may be the foot's, up to the lean further in
        parallax = math.hypot(parallax, 0.5 * lean)
    rim_part = math.hypot(SIGMA_RIM_PX * reg.camera.mm_per_px(board.disc_thickness),
                          SIGMA_PER_SPREAD * rim.spread_mm) * max(
                              1.0, FULL_RIM_POINTS / max(rim.points, 1))
    size = board.disc_radius * reg.size_sigma
    worn = WORN_SHARE * inside_mm(rim, board)
    return math.sqrt(rim_part**2 + board_fit**2 + parallax**2 + SIGMA_LINE_MM**2 + size**2
                     + worn**2)


def inside_mm(rim: Rim, board: Board) -> float:
    """How far inside the disc's radius its face's edges lie, looked for widely: a face worn
    to the board's colour round its rim, or a glare across it, shows a smaller circle, and a
    circle of the disc's radius through half of it lies off its centre by up to the gap."""
    gap = board.disc_radius - rim.wide_radius_mm
    return gap if gap > 0.0 else 0.0  # (NaN, no wider look: none)


def judge(rim: Rim, reg: Registration, board: Board) -> tuple[int, float, float, bool]:
    """The disc's zone, its margin to the nearest decision (mm), its uncertainty (mm) and
    whether the margin is within the uncertainty."""
    r = math.hypot(rim.x_mm, rim.y_mm)
    zone = board.zone(r)
    margin = board.zone_margin(r)
    sigma = sigma_mm(rim, reg, board)
    return zone, margin, sigma, margin < FLAG_SIGMAS * sigma


def put_back(rim: Rim, reg: Registration) -> Rim:
    """The rim with its centre where its disc lies when the camera's parallax is only partly
    the truth (``reg.lean_share`` below 1): moved out from the point below the lens by the
    rest of its lean. The rim is measured on the top face as the fitted camera sees it; only
    where it is said to lie moves."""
    share = reg.lean_share
    if share >= 1.0:
        return rim
    cam = reg.camera
    nad = cam.nadir()
    height = float(cam.centre_mm[2])
    k = (1.0 - share) * rim.z_mm / max(height - rim.z_mm, 1.0)
    return replace(rim, x_mm=rim.x_mm + (rim.x_mm - nad[0]) * k,
                   y_mm=rim.y_mm + (rim.y_mm - nad[1]) * k)
