"""Vision's errors: each says what went wrong with the picture and what to do about it.

The daemon shows the message on the OLED and asks the players to count by hand, so a message is a
sentence for a person at the board, not a stack trace.
"""

from __future__ import annotations

from rules.errors import CrokiscoreError


class VisionError(CrokiscoreError):
    """Base of vision's errors."""


class UnreadableImage(VisionError, OSError):
    """The file is missing, not an image, or cut short."""


class TooDark(VisionError, ValueError):
    """The frame is too dark (or too washed out) to see the board's lines and the discs."""


class NoBoardFound(VisionError, ValueError):
    """Nothing in the frame looks like a crokinole board: no rings around a centre."""


class TooManyColours(VisionError, ValueError):
    """The discs come in more than two colours, so the sides cannot be told apart."""


class CalibrationError(VisionError, ValueError):
    """A calibration file that cannot be used: unreadable, the wrong format, or made for a frame
    of another size."""


class UnknownSeat(VisionError, ValueError):
    """Seat 0 was said to sit at an edge of the frame that is not one of the four."""


class BoardInDoubt(VisionError, ValueError):
    """The board was found but cannot be read surely enough to score it as read (part of it
    out of view, lines followed only loosely, sides that cannot be told apart), and no disc
    shows the players where to look."""


class CameraMoved(VisionError, RuntimeError):
    """The fixed rig's camera (or the board under it) has moved since it was calibrated, too
    far to follow: its message is "camera moved: calibrate again"."""
