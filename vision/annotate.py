"""The picture a player checks at a glance: each disc ringed in its side's colour with its value,
the discs to check marked, and the totals.

Everything is drawn without anti-aliasing, in OpenCV's stroke fonts, so the picture comes out the
same pixel for pixel wherever it is drawn (the tests hold it against stored pictures).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.reading import DiscReading, Reading

CHECK = (0, 215, 255)          # BGR: amber, for discs to check
_FALLBACK = ((40, 40, 40), (235, 235, 235))  # a side's colour when none was seen (BGR)
_FONT = cv2.FONT_HERSHEY_SIMPLEX


def _bgr(rgb: tuple[int, int, int] | None, team: int) -> tuple[int, int, int]:
    return (rgb[2], rgb[1], rgb[0]) if rgb is not None else _FALLBACK[team]


def _contrast(bgr: tuple[int, int, int]) -> tuple[int, int, int]:
    luma = 0.114 * bgr[0] + 0.587 * bgr[1] + 0.299 * bgr[2]
    return (0, 0, 0) if luma > 110 else (255, 255, 255)


def _text(img: np.ndarray, text: str, centre: tuple[int, int], scale: float,
          colour: tuple[int, int, int], thick: int) -> None:
    """Text centred on a point, with a dark or light halo so it reads on any background."""
    (w, h), _ = cv2.getTextSize(text, _FONT, scale, thick)
    org = (centre[0] - w // 2, centre[1] + h // 2)
    cv2.putText(img, text, org, _FONT, scale, _contrast(colour), thick + 2 * max(1, thick // 2),
                cv2.LINE_8)
    cv2.putText(img, text, org, _FONT, scale, colour, thick, cv2.LINE_8)


def _rim(reading: Reading, d: DiscReading, radius: float) -> np.ndarray:
    a = np.linspace(0.0, 2 * np.pi, 73)
    z = reading.board.disc_thickness - (10.0 if d.in_ditch else 0.0)
    xy = np.stack([d.x_mm + radius * np.cos(a), d.y_mm + radius * np.sin(a)], -1)
    return np.round(reading.camera.project_plane(xy, z)).astype(np.int32)


def annotate(frame: np.ndarray, reading: Reading) -> np.ndarray:
    """A copy of ``frame`` (BGR) with the reading drawn on it."""
    img = frame if frame.ndim == 3 else cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    # a little dimmer, so the marks stand out; a new picture (the frame stays as it was), and
    # only one: on the Pi the daemon's memory peaks here
    img = cv2.convertScaleAbs(img, alpha=0.8)
    scale_px = max(img.shape[:2]) / 1500.0
    thick = max(2, round(3 * scale_px))
    board = reading.board
    ring = np.stack([np.cos(np.linspace(0, 2 * np.pi, 361)),
                     np.sin(np.linspace(0, 2 * np.pi, 361))], -1)
    for r in board.line_radii:  # where the lines were taken to be: a check on the camera
        pts = np.round(reading.camera.project_plane(ring * r, 0.0)).astype(np.int32)
        cv2.polylines(img, [pts], True, (255, 255, 255), max(1, thick // 3), cv2.LINE_8)
    for d in reading.discs:
        check = d.uncertain or bool(reading.doubts)
        colour = _bgr(reading.colours[d.team], d.team)
        outline = _rim(reading, d, board.disc_radius + 1.5)
        cv2.polylines(img, [outline], True, _contrast(colour), thick * 2 + 2, cv2.LINE_8)
        cv2.polylines(img, [outline], True, colour, thick * 2, cv2.LINE_8)
        if check:
            cv2.polylines(img, [_rim(reading, d, board.disc_radius + 5.0)], True, CHECK,
                          thick + 1, cv2.LINE_8)
        label = f"{d.zone}?" if check else str(d.zone)
        cx, cy = round(d.pixel[0]), round(d.pixel[1])
        _text(img, label, (cx, cy), max(0.5, 0.042 * d.radius_px),
              CHECK if check else (255, 255, 255), max(1, round(0.12 * d.radius_px)))
    _banner(img, reading, scale_px)
    return img


def _banner(img: np.ndarray, reading: Reading, scale_px: float) -> None:
    """The totals in the frame's top-left corner, each on its side's colour."""
    totals = reading.totals
    unsure = sum(d.uncertain or bool(reading.doubts) for d in reading.discs)
    s = 1.2 * scale_px
    t = max(2, round(2.5 * scale_px))
    pad = round(14 * scale_px)
    h = round(56 * scale_px)
    x = pad
    for team in (0, 1):
        colour = _bgr(reading.colours[team], team)
        text = f"team {team}: {totals[team]}"
        (w, _), _ = cv2.getTextSize(text, _FONT, s, t)
        cv2.rectangle(img, (x, pad), (x + w + 2 * pad, pad + h), colour, -1, cv2.LINE_8)
        cv2.rectangle(img, (x, pad), (x + w + 2 * pad, pad + h), _contrast(colour), t,
                      cv2.LINE_8)
        _text(img, text, (x + pad + w // 2, pad + h // 2), s, _contrast(colour), t)
        x += w + 3 * pad
    if reading.doubts:
        text = "CHECK the board"
    elif unsure:
        text = f"CHECK {unsure} disc{'s' if unsure > 1 else ''}"
    else:
        return
    (w, _), _ = cv2.getTextSize(text, _FONT, s, t)
    cv2.rectangle(img, (x, pad), (x + w + 2 * pad, pad + h), CHECK, -1, cv2.LINE_8)
    _text(img, text, (x + pad + w // 2, pad + h // 2), s, (0, 0, 0), t)
    # the board's doubts in words, a line each under the banner
    small = max(0.45, 0.6 * s)
    thin = max(1, t - 1)
    y = pad + h
    for doubt in reading.doubts:
        (w, th), base = cv2.getTextSize(doubt, _FONT, small, thin)
        y += th + base + pad // 2
        cv2.rectangle(img, (pad, y - th - pad // 2), (pad + w + pad, y + base),
                      (0, 0, 0), -1, cv2.LINE_8)
        cv2.putText(img, doubt, (pad + pad // 2, y), _FONT, small, CHECK, thin, cv2.LINE_8)
