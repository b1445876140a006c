"""A fixed rig's calibration: the camera fitted once, on a frame of the empty board.

The appliance's camera hangs over the same board for months, so the board is found once, on an
empty board where nothing hides its lines, and every round's frame is read with that camera:
quicker (no search) and steadier (no disc spoils the fit). The calibration is a small JSON file
(see :data:`FORMAT`); ``crokiscore calibrate EMPTY.jpg --out CAL`` writes it, with a picture of the
board's circles drawn back onto the frame so an installer can see at a glance that they sit on the
painted lines.

Seat 0's place: the board looks the same turned a quarter, so the calibration assumes seat 0 sits
at the frame's bottom edge unless told (``--seat0 bottom|left|top|right``), and records it.
"""

from __future__ import annotations

import functools
import json
import logging
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from rules.board import STANDARD, Board
from vision.discs import PX_PER_MM, ViewMaps, view_maps
from vision.empty import reference_of
from vision.errors import BoardInDoubt, CalibrationError, UnknownSeat
from vision.projection import CameraModel
from vision.registration import find_board, grey_of
from vision.rims import clutter
from vision.seats import SIDES, find_turn, lines_turn, pegs_turn, place_seats

log = logging.getLogger(__name__)

VERSION = 2
READS = (1, 2)  # versions this crokiscore reads (version 1: no empty board kept)
FORMAT = """\
{"format": "crokiscore-calibration", "version": 2,
 "camera": {"width", "height", "matrix" (3x3, pixels), "distortion" ([k1, k2, p1, p2]),
            "rvec", "tvec" (board-to-camera pose, mm, as cv2.projectPoints takes them)},
 "board": {the rules.board.Board fields, mm: the radii measured on the empty board, or the
           ones the installer stated},
 "board_from": "measured" | "stated" | "tournament" (measured, and within a per cent or two of
               the tournament board's lines, so held at them),
 "seat0": "bottom" | "right" | "top" | "left"   (the frame edge seat 0 sits at),
 "focal_sigma": relative uncertainty of the focal length (0.03: about 3 %),
 "fit": {"sigma_mm": scatter of the circles' points about the fit, "points": how many,
         "agreement": share of the painted lines' profiles that found them where the camera
                      puts them, "turn_from": "quadrant lines" | "pegs" | "none",
         "turns_seen": {"quadrant lines": degrees, "pegs": degrees} (the turn each cue that
                       stood out shows on the empty board with this camera: a round's is
                       taken from these, as the board's print can pass for either),
         "line_polarity": 1 (lines lighter than the board) | -1 (darker),
         "clutter": [the bare surface's and the ditch's typical edge strength]},
 "empty": {"image": the empty board's look, a PNG beside this file (the frame resampled onto
           the discs' top faces' plane, board mm: pixel (col, row) is (x, y) =
           ((col + 0.5) / ppm - extent, extent - (row + 0.5) / ppm)),
           "ppm": pixels per mm, "extent": mm, "z": mm},
 "made_from": the empty-board image's name}"""


@dataclass(frozen=True, eq=False)
class Calibration:
    camera: CameraModel
    board: Board = STANDARD
    seat0: str = "bottom"
    focal_sigma: float = 0.03
    sigma_mm: float = 0.0
    points: int = 0
    turn_from: str = "quadrant lines"
    made_from: str = ""
    reference: np.ndarray | None = None  # the empty board's look (uint8 BGR top view)
    agreement: float = 0.0              # how well the lines sat on the camera's circles
    board_from: str = "tournament"
    line_polarity: float = 0.0          # +1 lines lighter than the board, -1 darker, 0 unknown
    clutter: tuple[float, float] = ()   # the bare board's edge level, surface and ditch
    turns_seen: tuple[tuple[str, float], ...] = ()  # per cue, the turn the empty board shows
    #                                                 with this camera (see seats.since)

    @functools.cached_property
    def polarity(self) -> float:
        """Whether the board's lines are lighter (+1) or darker (-1) than it."""
        return self.line_polarity or -1.0

    @functools.cached_property
    def maps(self) -> ViewMaps:
        """The top-face view's lookup for this camera, worked out once per calibration."""
        return view_maps(self.camera, self.board, self.board.disc_thickness, PX_PER_MM)

    def to_json(self, empty_name: str | None = None) -> dict[str, Any]:
        out = {"format": "crokiscore-calibration", "version": VERSION,
               "camera": self.camera.to_json(), "board": asdict(self.board),
               "board_from": self.board_from,
               "seat0": self.seat0, "focal_sigma": self.focal_sigma,
               "fit": {"sigma_mm": round(self.sigma_mm, 4), "points": self.points,
                       "agreement": round(self.agreement, 3), "turn_from": self.turn_from,
                       "line_polarity": self.line_polarity,
                       "clutter": [round(v, 3) for v in self.clutter],
                       "turns_seen": {k: round(v, 3) for k, v in self.turns_seen}},
               "made_from": self.made_from}
        if empty_name is not None and self.reference is not None:
            m = self.maps
            out["empty"] = {"image": empty_name, "ppm": m.ppm, "extent": m.extent, "z": m.z}
        return out

    @classmethod
    def from_json(cls, data: Any, source: str = "the calibration",
                  folder: Path | None = None) -> Calibration:
        if not isinstance(data, dict) or data.get("format") != "crokiscore-calibration":
            raise CalibrationError(f"{source} is not a crokiscore calibration; make one with "
                                   "'crokiscore calibrate EMPTY.jpg --out CAL'")
        if data.get("version") not in READS:
            raise CalibrationError(f"{source} is calibration format version "
                                   f"{data.get('version')!r}, this crokiscore reads versions "
                                   f"{', '.join(str(v) for v in READS)}; calibrate again")
        try:
            camera = CameraModel.from_json(data["camera"])
            names = {f.name for f in fields(Board)}
            board = Board(**{k: v for k, v in data.get("board", {}).items() if k in names})
            seat0 = data.get("seat0", "bottom")
            if seat0 not in SIDES:
                raise CalibrationError(f"seat0 must be one of {', '.join(SIDES)}, not {seat0!r}")
            fit = data.get("fit", {})
            cal = cls(camera, board, seat0, float(data.get("focal_sigma", 0.03)),
                      float(fit.get("sigma_mm", 0.0)), int(fit.get("points", 0)),
                      str(fit.get("turn_from", "")), str(data.get("made_from", "")),
                      None, float(fit.get("agreement", 0.0)),
                      str(data.get("board_from", "tournament")),
                      float(fit.get("line_polarity", 0.0)),
                      tuple(float(v) for v in fit.get("clutter", ()))[:2])
            if cal.clutter and len(cal.clutter) != 2:
                raise CalibrationError("clutter must be two numbers")
            seen = fit.get("turns_seen", {})
            if not isinstance(seen, dict) or not set(seen) <= {"quadrant lines", "pegs"}:
                raise CalibrationError("turns_seen must map 'quadrant lines' or 'pegs' to "
                                       "degrees")
            cal = replace(cal, turns_seen=tuple((str(k), float(v)) for k, v in seen.items()))
        except (AttributeError, KeyError, TypeError, ValueError) as exc:
            raise CalibrationError(f"{source} is damaged ({exc}); calibrate again") from None
        empty = data.get("empty")
        if empty is None:
            if data.get("version") == 1:
                log.warning("%s is an older calibration without the empty board's look: "
                            "rounds are read without comparing them with the empty board; "
                            "calibrate again to compare them", source)
            return cal
        return replace(cal, reference=_read_reference(cal, empty, source, folder))


def _read_reference(cal: Calibration, empty: Any, source: str,
                    folder: Path | None) -> np.ndarray:
    """The empty board's look named in a calibration, checked against its camera's view."""
    try:
        name = str(empty["image"])
        ppm, extent = float(empty["ppm"]), float(empty["extent"])
    except (KeyError, TypeError, ValueError) as exc:
        raise CalibrationError(f"{source}: its 'empty' entry is damaged ({exc}); calibrate "
                               "again") from None
    path = (folder or Path(".")) / name
    image = cv2.imread(str(path), cv2.IMREAD_COLOR) if path.is_file() else None
    if image is None:
        raise CalibrationError(f"{source}: the empty board's picture {path} is missing or "
                               "not a picture; keep it beside the calibration, or calibrate "
                               "again")
    m = cal.maps
    if image.shape[:2] != m.mapx.shape or abs(ppm - m.ppm) > 1e-6 or abs(extent - m.extent) > 1e-3:
        raise CalibrationError(f"{source}: the empty board's picture {path} does not match the "
                               "calibration (another size); calibrate again")
    return image


EMPTY_AGREEMENT = 0.8  # share of the lines' round an empty board must show them on


def calibrate(frame: np.ndarray, *, seat0: str = "bottom", focal_px: float | None = None,
              board: Board | None = None, name: str = "the frame") -> Calibration:
    """Finds the board on an empty-board frame, measures its circles (unless ``board`` states
    them), fits the camera to it and keeps the empty board's look for comparing rounds with."""
    if seat0 not in SIDES:
        raise UnknownSeat(f"seat 0 sits at one of {', '.join(SIDES)}, not {seat0!r}")
    found = find_board(frame, board or STANDARD, focal_px=focal_px, name=name,
                       measure=board is None)
    if found.agreement < EMPTY_AGREEMENT and board is None:
        # Each round is checked against the agreement found here, so a board found badly
        # would read every round by circles beside the lines, nothing flagged. An empty,
        # lit board shows its lines nearly all round; the installer is there to fix it. (A
        # board the installer stated is taken as stated; `calibrate` warns.)
        raise BoardInDoubt(f"{name}: the board's lines were found on only "
                           f"{found.agreement:.0%} of their round where the camera puts them "
                           f"({EMPTY_AGREEMENT:.0%} needed on an empty board); make sure the "
                           "whole board is in view, in focus and evenly lit, or state the "
                           "board's radii in the config's [board] and calibrate with it")
    if found.doubt:
        # two readings of the lines that fit alike: every round would be read by a guess
        # between them
        raise BoardInDoubt(f"{name}: {found.doubt}; make sure the whole board is in view and "
                           "lit, or state the board's radii in the config's [board] and "
                           "calibrate with it")
    grey = grey_of(frame)
    turn = find_turn(grey, found.camera, found.board, found.polarity)
    camera = place_seats(found.camera, turn, found.board, seat0)
    seen = tuple((t.source, round(t.degrees, 3)) for t in (
        lines_turn(grey, camera, found.board, found.polarity),
        pegs_turn(grey, camera, found.board)) if t.source != "none")
    if board is not None:
        source = "stated"
    elif found.board.line_radii == STANDARD.line_radii:
        source = "tournament"
    else:
        source = "measured"
    cal = Calibration(camera, found.board, seat0, found.focal_sigma, found.fit.sigma_mm,
                      found.fit.inliers, turn.source, name, None, found.agreement, source,
                      found.polarity)
    bgr = frame if frame.ndim == 3 else cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    return replace(cal, reference=reference_of(bgr[..., :3], cal.maps),
                   clutter=clutter(bgr[..., :3], camera, found.board), turns_seen=seen)


def empty_path(path: str | Path) -> Path:
    """Where the empty board's look is kept, beside the calibration file."""
    p = Path(path)
    return p.with_name(p.stem + "-empty.png")


def save(cal: Calibration, path: str | Path) -> None:
    """Writes the calibration (JSON) and, beside it, the empty board's look (PNG)."""
    p = Path(path)
    name = None
    if cal.reference is not None:
        picture = empty_path(p)
        if not cv2.imwrite(str(picture), cal.reference):
            raise OSError(f"cannot write {picture}")
        name = picture.name
    p.write_text(json.dumps(cal.to_json(name), indent=1) + "\n", encoding="utf-8")


def load(path: str | Path) -> Calibration:
    """Reads a calibration file; cheap, and its result can be reused for every frame."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CalibrationError(f"calibration file {p} not found; make one with 'crokiscore "
                               "calibrate EMPTY.jpg --out CAL'") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CalibrationError(f"cannot read calibration file {p}: {exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CalibrationError(f"calibration file {p} is not valid JSON ({exc}); calibrate "
                               "again") from None
    return Calibration.from_json(data, f"calibration file {p}", p.parent)


def check_frame(cal: Calibration, frame: np.ndarray, name: str = "the frame") -> None:
    """Refuses a frame of another size than the calibration's camera."""
    h, w = frame.shape[:2]
    if (w, h) != (cal.camera.width, cal.camera.height):
        raise CalibrationError(
            f"{name} is {w}x{h} but the calibration was made for {cal.camera.width}x"
            f"{cal.camera.height} frames; use the camera mode it was made with, or calibrate "
            "again")


def draw_board(image: np.ndarray, camera: CameraModel, board: Board,
               colour: tuple[int, int, int] = (255, 0, 255)) -> np.ndarray:
    """The board's circles, hole, pegs and seat 0's mark drawn onto a copy of ``image``."""
    out = image.copy()
    thick = max(1, round(max(out.shape[:2]) / 900))
    a = np.linspace(0, 2 * np.pi, 721)
    ring = np.stack([np.cos(a), np.sin(a)], -1)
    for r in (board.hole_diameter / 2, *board.line_radii, board.surface_radius,
              board.ditch_radius):
        pts = camera.project_plane(ring * r, 0.0)
        cv2.polylines(out, [np.round(pts).astype(np.int32)], False, colour, thick, cv2.LINE_8)
    for px, py in board.pegs():
        pts = camera.project_plane(ring * board.peg_diameter / 2 + (px, py), 0.0)
        cv2.polylines(out, [np.round(pts).astype(np.int32)], False, colour, thick, cv2.LINE_8)
    # seat 0: an arrow from the outer line to the ditch, and its name
    a0, a1 = camera.project_plane(np.array([[0.0, -board.outer_radius],
                                            [0.0, -board.ditch_radius]]), 0.0)
    cv2.arrowedLine(out, tuple(int(v) for v in np.round(a0)), tuple(int(v) for v in np.round(a1)),
                    colour, thick * 2, cv2.LINE_8, tipLength=0.3)
    scale = max(out.shape[:2]) / 1500
    cv2.putText(out, "seat 0", tuple(int(v) for v in np.round(a1 + (8, 8))),
                cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thick * 2, cv2.LINE_8)
    return out


def check_picture(frame: np.ndarray, cal: Calibration) -> np.ndarray:
    """The calibration frame with what was found drawn back onto it."""
    bgr = frame if frame.ndim == 3 else cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    out = draw_board(bgr, cal.camera, cal.board)
    lines = [f"seat 0: {cal.seat0}   turn from {cal.turn_from}",
             f"fit: {cal.points} points, scatter {cal.sigma_mm:.2f} mm"]
    scale = max(out.shape[:2]) / 1800
    for i, text in enumerate(lines):
        org = (10, int(30 * scale * 1.6 * (i + 1)))
        cv2.putText(out, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0),
                    max(2, round(4 * scale)), cv2.LINE_8)
        cv2.putText(out, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, (255, 255, 255),
                    max(1, round(2 * scale)), cv2.LINE_8)
    return out
