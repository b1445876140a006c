"""What vision assumes of the lens before it has seen the board.

A single picture of a flat board cannot tell a long lens far away from a short lens close by, yet
the camera's height is what sizes the parallax of a disc's thickness. The Pi camera modules the
appliance uses have known lenses, so a frame of one of their sensor modes says its focal length;
the same picture scaled is likely one of them, and anything else gets a typical phone or webcam
lens. A calibration can name the focal length outright (``crokiscore calibrate --focal-px``).

Two numbers say how far to trust a guess. ``prior_sigma`` is how far the board fit may move the
focal length from it: a fit held near a likely lens finds the board more often. ``sigma`` is how
far the truth may lie from it, which sizes each disc's parallax uncertainty: a frame that only
has a Pi mode's shape may come from any camera (an overhead stream's 1280x720 frames, from a long
lens 2 to 3 m up, share the Camera Module 3's 16:9; taken as that wide lens, the discs' tops were
read a millimetre or two toward the centre at the outer line), and looking straight down the
fit cannot tell (the board's lines look the same from any height with the focal length to
match). So a 16:9 frame at another size than the module's (:func:`lean_share`) has its discs'
tops put back halfway: the parallax of a disc's thickness lies anywhere from the module's wide
lens's, hung about a metre up, to none (a long lens far off); half of it is wrong by at most
that half either way, the guessed lens's uncertainty as before. The camera itself stays the
module's lens as fitted: the board's plane looks the same either way, and the fit holds best to
it. A 4:3 frame at another size is most likely a phone's photo, whose lens is as wide.
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
UNKNOWN_LENS_SIGMA = 0.25  # how far any camera's lens may lie from a guess by the frame's shape
VIDEO_SHAPE = 16 / 9  # video's frames (a stream's 1280x720 or 1920x1080) and the Camera Module 3's
STREAM_SHARE = 0.5  # of the guessed wide lens's parallax, taken for a 16:9 frame at another size
FIT_SIGMA = 0.1  # the most a board fit is let move a guessed focal length (relative), looser
#                  than that it wanders; a guess held tighter is taken as the lens's own


@dataclass(frozen=True)
class FocalGuess:
    focal_px: float
    sigma: float        # relative uncertainty (0.03: within about 3 %)
    source: str
    prior_sigma: float  # how far the board fit may move it (relative)


def focal_guess(width: int, height: int, focal_px: float | None = None) -> FocalGuess:
    """The focal length in pixels for a frame of this size, and how far to trust it."""
    if focal_px is not None:
        return FocalGuess(float(focal_px), 0.01, "given", 0.01)
    for m in MODES:
        if (width, height) == (m.width, m.height):
            return FocalGuess(m.focal_px, 0.03, m.camera, 0.03)
    # the same mode scaled: its shape tells the module family, the width the scale
    shapes = [m for m in MODES if abs(m.width / m.height - width / height) < 0.005]
    if shapes:
        per_width = [m.focal_px / m.width for m in shapes]
        mid = (max(per_width) + min(per_width)) / 2
        spread = (max(per_width) - min(per_width)) / 2 / mid
        return FocalGuess(mid * width, max(UNKNOWN_LENS_SIGMA, spread), "a scaled Pi camera mode",
                          max(0.04, spread))
    long_side = max(width, height)
    f = long_side / 2 / math.tan(math.radians(TYPICAL_HFOV_DEG / 2))
    return FocalGuess(f, UNKNOWN_LENS_SIGMA, "a typical lens", FIT_SIGMA)


def lean_share(width: int, height: int, focal_sigma: float) -> float:
    """The share of the fitted camera's parallax that a disc's top is put back by: all of it
    for a lens known or guessed near its truth, half for a guessed lens of a frame with video's
    shape at another size than the module's (a stream's camera may hang far higher)."""
    if focal_sigma < UNKNOWN_LENS_SIGMA or abs(width / height - VIDEO_SHAPE) >= 0.005:
        return 1.0
    if any((width, height) == (m.width, m.height) for m in MODES):
        return 1.0
    return STREAM_SHARE
