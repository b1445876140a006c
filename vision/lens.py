"""What vision assumes of the lens before it has seen the board.

A single picture of a flat board cannot tell a long lens far away from a short lens close by, yet
the camera's height is what sizes the parallax of a disc's thickness. The Pi camera modules the
appliance uses have known lenses, so a frame of one of their sensor modes (or the same picture
scaled) says its focal length; anything else gets a typical phone or webcam lens, held loosely.
A calibration can name the focal length outright (``crokiscore calibrate --focal-px``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class SensorMode:
    camera: str
    width: int
    height: int
    focal_px: float


# The stock lenses: focal length over the (binned) pixel pitch.
MODES: tuple[SensorMode, ...] = (
    SensorMode("HQ camera (IMX477), 6 mm lens, 2x2 binned", 2028, 1520, 6.0 / 0.00310),
    SensorMode("HQ camera (IMX477), 6 mm lens", 4056, 3040, 6.0 / 0.00155),
    SensorMode("Camera Module 3 (IMX708), 2x2 binned", 2304, 1296, 4.74 / 0.00280),
    SensorMode("Camera Module 3 (IMX708)", 4608, 2592, 4.74 / 0.00140),
    SensorMode("Camera Module 2 (IMX219), 2x2 binned", 1640, 1232, 3.04 / 0.00224),
    SensorMode("Camera Module 2 (IMX219)", 3280, 2464, 3.04 / 0.00112),
)

TYPICAL_HFOV_DEG = 66.0  # across the long side: phones, webcams and the Pi modules alike


@dataclass(frozen=True)
class FocalGuess:
    focal_px: float
    sigma: float    # relative uncertainty (0.03: within about 3 %)
    source: str


def focal_guess(width: int, height: int, focal_px: float | None = None) -> FocalGuess:
    """The focal length in pixels for a frame of this size, and how far to trust it."""
    if focal_px is not None:
        return FocalGuess(float(focal_px), 0.01, "given")
    for m in MODES:
        if (width, height) == (m.width, m.height):
            return FocalGuess(m.focal_px, 0.03, m.camera)
    # the same mode scaled: its shape tells the module family, the width the scale
    shapes = [m for m in MODES if abs(m.width / m.height - width / height) < 0.005]
    if shapes:
        per_width = [m.focal_px / m.width for m in shapes]
        mid = (max(per_width) + min(per_width)) / 2
        spread = (max(per_width) - min(per_width)) / 2 / mid
        return FocalGuess(mid * width, max(0.04, spread), "a scaled Pi camera mode")
    long_side = max(width, height)
    f = long_side / 2 / math.tan(math.radians(TYPICAL_HFOV_DEG / 2))
    return FocalGuess(f, 0.2, "a typical lens")
