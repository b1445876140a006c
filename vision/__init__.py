"""Frame to discs: board registration, disc detection, sides, zones with uncertainty.

The daemon loads a calibration once (:func:`load_calibration`) and calls :func:`read_board` on
each captured frame; :func:`annotate` draws a reading for the players, and
:meth:`Reading.to_rules` gives the rules engine's board event.
"""

from vision.annotate import annotate
from vision.calibration import Calibration, calibrate
from vision.calibration import load as load_calibration
from vision.calibration import save as save_calibration
from vision.errors import (
    BoardInDoubt,
    CalibrationError,
    CameraMoved,
    NoBoardFound,
    TooDark,
    TooManyColours,
    UnknownSeat,
    UnreadableImage,
    VisionError,
)
from vision.reading import DiscReading, Reading, confirmed_colours, read_board, to_discs

__all__ = [
    "BoardInDoubt", "Calibration", "CalibrationError", "CameraMoved", "DiscReading",
    "NoBoardFound", "Reading", "TooDark", "TooManyColours", "UnknownSeat", "UnreadableImage",
    "VisionError",
    "annotate", "calibrate", "confirmed_colours", "load_calibration", "read_board",
    "save_calibration", "to_discs",
]
