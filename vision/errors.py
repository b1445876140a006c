"""Vision's errors: each says what went wrong with the picture and what to do about it.

The daemon shows the message on the OLED and asks the players to count by hand, so a message is a
sentence for a person at the board, not a stack trace.
"""

from __future__ import annotations

from rules.errors import CrokiscoreError


class VisionError(CrokiscoreError):
    """Base of vision's errors. ``words``: the few the box's display has room for (after
    "camera: "), the message itself going to the log."""

    words = "cannot read the board"


class UnreadableImage(VisionError, OSError):
    """The file is missing, not an image, or cut short."""

    words = "no picture"


class TooDark(VisionError, ValueError):
    """The frame is too dark (or too washed out) to see the board's lines and the discs."""

    words = "too dark to read"


class NoBoardFound(VisionError, ValueError):
    """Nothing in the frame looks like a crokinole board: no rings around a centre."""

    words = "no board in view"


class TooManyColours(VisionError, ValueError):
    """The discs come in more than two colours, so the sides cannot be told apart."""

    words = "more than 2 colours"


class CalibrationError(VisionError, ValueError):
    """A calibration file that cannot be used: unreadable, the wrong format, or made for a frame
    of another size."""

    words = "calibrate again"


class UnknownSeat(VisionError, ValueError):
    """Seat 0 was said to sit at an edge of the frame that is not one of the four."""

    words = "seat 0 edge unknown"


class BoardInDoubt(VisionError, ValueError):
    """The board was found but cannot be read surely enough to score it as read (part of it
    out of view, lines followed only loosely, sides that cannot be told apart), and no disc
    shows the players where to look."""

    words = "board in doubt"


class CameraMoved(VisionError, RuntimeError):
    """The fixed rig's camera (or the board under it) has moved since it was calibrated, too
    far to follow: its message is "camera moved: calibrate again"."""

    words = "moved, calibrate again"
