"""Which way the board is turned: where the seats sit in the picture.

Circles look the same turned, so the board fit leaves the board's turn about its centre open.
The quadrant lines (on the diagonals, between the 10 and outer lines) fix it to a quarter turn;
on a board without them the pegs (on the 15 line, 22.5 degrees off the seat axes) fix it to an
eighth, and the seat axis nearest the frame's axes is taken. Which quarter holds seat 0 the board
cannot tell (it is symmetric): the caller says which edge of the frame seat 0 sits at (for a
fixed rig the calibration records it; a bare photo is read as if seat 0 sat at its bottom).
"""

from __future__ import annotations

import logging
import math
import warnings
from dataclasses import dataclass

import cv2
import numpy as np

from rules.board import Board
from vision.arrays import nanmedian_rows
from vision.errors import UnknownSeat
from vision.projection import CameraModel, plane_maps

log = logging.getLogger(__name__)

SIDES = ("bottom", "right", "top", "left")
_SIDE_ANGLE = {"right": 0.0, "bottom": 90.0, "left": 180.0, "top": 270.0}  # picture angles, y down
_BINS = 1440  # a quarter of a degree


@dataclass(frozen=True)
class Turn:
    degrees: float       # the board's turn found, folded into [-45, 45)
    source: str          # "quadrant lines", "pegs" or "none"
    strength: float      # how clearly (peak over noise)


def _ring_samples(grey: np.ndarray, camera: CameraModel, radii: np.ndarray) -> np.ndarray:
    a = (np.arange(_BINS) + 0.5) * (2 * np.pi / _BINS)
    mapx, mapy = plane_maps(camera, ("round", *radii.tolist()), lambda: np.stack(
        [np.cos(a)[:, None] * radii[None], np.sin(a)[:, None] * radii[None]], -1))
    return cv2.remap(grey, mapx, mapy, cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_CONSTANT, borderValue=float("nan"))


def _fold_peak(profile: np.ndarray, period_bins: int) -> tuple[float, float]:
    """The position (in bins, within one period) of the profile's repeating peak, and its
    height over the folded profile's spread. Each bin's highest period is left out of the fold:
    a line or peg shows in every period (or most, some under discs), while a row of discs along
    one radius, a strong ridge in one period only, must not outweigh them."""
    stack = profile.reshape(-1, period_bins)
    with warnings.catch_warnings():  # a bin no period saw stays NaN
        warnings.simplefilter("ignore", RuntimeWarning)
        top = np.nanmax(stack, axis=0)
    seen = np.sum(~np.isnan(stack), axis=0)
    folded = np.where(seen > 1, (np.nansum(stack, axis=0) - top) / np.maximum(seen - 1, 1), top)
    folded = np.nan_to_num(folded, nan=float(np.nanmedian(folded)))
    j = int(np.argmax(folded))
    a, b, c = folded[j - 1], folded[j], folded[(j + 1) % period_bins]
    den = a - 2 * b + c
    frac = 0.5 * (a - c) / den if den < 0 else 0.0
    noise = float(np.median(np.abs(folded - np.median(folded)))) * 1.4826 + 1e-6
    return j + float(np.clip(frac, -1, 1)) + 0.5, float((b - np.median(folded)) / noise)


def _ridge(profile: np.ndarray, width_bins: int) -> np.ndarray:
    """A narrow feature's contrast along the circle, against both neighbours."""
    left = np.roll(profile, width_bins)
    right = np.roll(profile, -width_bins)
    return np.fmin(profile - left, profile - right)


def find_turn(grey: np.ndarray, camera: CameraModel, board: Board,
              line_polarity: float) -> Turn:
    """The turn (degrees, counter-clockwise seen from above) that puts the board's quadrant
    lines on the diagonals, or its pegs on their places."""
    lines = lines_turn(grey, camera, board, line_polarity)
    return lines if lines.source != "none" else pegs_turn(grey, camera, board)


def lines_turn(grey: np.ndarray, camera: CameraModel, board: Board,
               line_polarity: float) -> Turn:
    """The turn the quadrant lines show (source "none" if they do not stand out)."""
    r0 = board.ten_radius + 12.0
    r1 = board.outer_radius - 40.0
    if r1 > r0:
        samples = _ring_samples(grey, camera, np.linspace(r0, r1, 16))
        with np.errstate(all="ignore"):
            prof = nanmedian_rows(line_polarity * samples)
        ridge = _ridge(np.nan_to_num(prof, nan=float(np.nanmedian(prof))), 6)
        pos, strength = _fold_peak(ridge, _BINS // 4)
        if strength > 6.0:
            deg = pos * 360.0 / _BINS - 45.0
            return Turn(_fold(deg, 90.0), "quadrant lines", strength)
        return Turn(0.0, "none", strength)
    return Turn(0.0, "none", 0.0)


def pegs_turn(grey: np.ndarray, camera: CameraModel, board: Board) -> Turn:
    """The turn the pegs show (source "none" if they do not stand out)."""
    # on the 15 line and just either side of it; each ring's own departures from its usual
    # level, added up: a peg may be lighter than the wood on one side of the line and its
    # shadow darker on the other, which a mean over the rings would cancel
    half = board.line_width / 2 + board.peg_diameter / 4
    samples = _ring_samples(grey, camera, board.fifteen_radius + np.array([-half, 0.0, half]))
    width = max(2, round(board.peg_diameter / board.fifteen_radius * _BINS / (2 * np.pi)))
    dev = np.zeros(_BINS)
    for ring in samples.T:
        level = float(np.nanmedian(ring)) if np.isfinite(ring).any() else 0.0
        dev += np.abs(np.nan_to_num(ring, nan=level) - level)
    ridge = _ridge(cv2.blur(dev.reshape(1, -1), (width, 1)).ravel(), width)
    pos, strength = _fold_peak(ridge, _BINS // board.peg_count)
    if strength > 4.0:
        deg = pos * 360.0 / _BINS - board.peg_offset_deg
        return Turn(_fold(deg, 360.0 / board.peg_count), "pegs", strength)
    return Turn(0.0, "none", strength)


def _fold(deg: float, period: float) -> float:
    return (deg + period / 2) % period - period / 2


def since(turn: Turn, seen: tuple[tuple[str, float], ...], board: Board) -> Turn:
    """``turn`` less the turn the same cue showed on the empty board with the same camera
    (``seen``: cue and degrees, see :attr:`vision.calibration.Calibration.turns_seen`): how far
    the board has turned since. A board's print can pass for its quadrant lines or pegs (the
    5s on its axes, ringed at the lines' radii), the same way in every frame, and a rig
    calibrated on it must not take each round for a turned board (retired play-327 6: the
    calibration's camera sat 22 degrees from where the pegs put it, every round with its pegs
    in view was refitted, and the numerals, misplaced against the empty board, were marked as
    seven things unread)."""
    base = dict(seen).get(turn.source)
    if base is None:
        return turn
    period = 90.0 if turn.source == "quadrant lines" else 360.0 / board.peg_count
    return Turn(_fold(turn.degrees - base, period), turn.source, turn.strength)


def turned(camera: CameraModel, degrees: float) -> CameraModel:
    """The same camera with the board's coordinates turned: what sat at board angle
    ``degrees`` now sits at angle 0."""
    a = math.radians(degrees)
    rz = np.array([[math.cos(a), -math.sin(a), 0.0], [math.sin(a), math.cos(a), 0.0],
                   [0.0, 0.0, 1.0]])
    rvec = cv2.Rodrigues(camera.rotation @ rz)[0].reshape(3)
    p = camera.params()
    p[8:11] = rvec
    return camera.with_params(p)


def seat_side(camera: CameraModel, board: Board) -> float:
    """The picture angle (degrees; 0 right, 90 down the frame) in which seat 0 sits."""
    uv = camera.project(np.array([[0.0, 0.0, 0.0], [0.0, -board.outer_radius, 0.0]]))
    d = uv[1] - uv[0]
    return math.degrees(math.atan2(d[1], d[0]))


def place_seats(camera: CameraModel, turn: Turn, board: Board, seat0: str = "bottom",
                ) -> CameraModel:
    """The camera with the board turned by ``turn`` and then by the quarter turns that put
    seat 0 toward the frame's ``seat0`` edge."""
    if seat0 not in _SIDE_ANGLE:
        raise UnknownSeat(f"seat 0 sits at one of {', '.join(SIDES)}, not {seat0!r}")
    cam = turned(camera, turn.degrees)
    if turn.source == "pegs":  # an eighth turn is as likely: take the squarer of the two
        other = turned(camera, turn.degrees + 45.0)
        off = [abs(_fold(seat_side(c, board) - _SIDE_ANGLE[seat0], 90.0)) for c in (cam, other)]
        if off[1] < off[0]:
            cam = other
    best = min(range(4), key=lambda k: abs(_fold(
        seat_side(turned(cam, 90.0 * k), board) - _SIDE_ANGLE[seat0], 360.0)))
    return turned(cam, 90.0 * best)
