"""The daemon's board reader: the vision package with the rig's calibration, and the annotated
picture of each reading kept for the players to look at later."""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from device.config import Config
from device.errors import CameraError
from rules import BoardReading
from rules.errors import CrokiscoreError

if TYPE_CHECKING:
    from vision import Reading

log = logging.getLogger(__name__)

RGB = tuple[int, int, int]


def rig(config: Config) -> tuple[Any, Any]:
    """The calibration the config names (or None) and the board to read with: the config's
    ``[board]`` without a calibration, else None (a calibration holds the board it was made
    with, measured or stated then). The camera was fitted to that board's radii, so a board
    stated since is refused with the fix, not mixed in."""
    import vision

    path = config.camera.calibration
    try:
        calibration = vision.load_calibration(path) if path else None
    except CrokiscoreError as exc:
        raise CameraError(f"camera calibration: {exc}") from exc
    stated = config.board.board()
    if calibration is None:
        return None, stated
    if stated is not None and stated != calibration.board:
        raise CameraError(f"the camera calibration {path} was made for another board than the "
                          "config's [board] states: calibrate again with 'crokiscore calibrate "
                          f"EMPTY --out {path} --config CONFIG'")
    return calibration, None


class VisionReader:
    """Called by the board watcher with each frame to read. The calibration is loaded once."""

    def __init__(self, config: Config) -> None:
        import vision

        self._vision = vision
        self.colours = config.vision.team_colours
        self.calibration, self.board = rig(config)
        self.pictures = Path(config.camera.pictures) if config.camera.pictures else None
        self.count = 0
        self.learnt: tuple[RGB | None, RGB | None] | None = None
        self.size: float | None = None  # the discs' size as a round of the match measured it
        self.last: Reading | None = None  # the latest reading
        self._lock = threading.Lock()  # confirmed() comes from the main loop

    def new_match(self) -> None:
        """The colours seen belong to the discs of the match that ended."""
        with self._lock:
            self.learnt = None
            self.size = None
            self.last = None

    def confirmed(self) -> None:
        """The operator checked the latest reading and accepted it, sides and all: its colours
        are each side's for the rest of the match. A board showing one side only teaches that
        side's colour, so the next such board is not asked about again."""
        with self._lock:
            if self.last is not None and self.colours is None:
                self.learnt = self._vision.confirmed_colours(self.learnt, self.last)

    def __call__(self, frame: np.ndarray) -> tuple[BoardReading, str | None]:
        v = self._vision
        # Colours seen in an earlier round of the match decide the sides of a board that shows
        # one side only (on its own, a lone colour could be either side's).
        # So does the discs' size: a round with one or two discs is too few to measure it.
        with self._lock:
            colours = self.colours or self.learnt
            size = self.size
        reading = v.read_board(frame, self.calibration, colours=colours, board=self.board,
                               size=size)
        with self._lock:
            self.last = reading
            if reading.size_seen is not None:
                self.size = reading.size_seen
            if self.colours is None and reading.sides_seen is not None:
                self.learnt = reading.sides_seen
        self.count += 1
        picture = None
        if self.pictures is not None:
            try:
                self.pictures.mkdir(parents=True, exist_ok=True)
                stamp = time.strftime("%Y%m%d-%H%M%S")
                path = self.pictures / f"board-{stamp}-{self.count:04d}.jpg"
                if cv2.imwrite(str(path), v.annotate(frame, reading)):
                    picture = str(path)
            except OSError as exc:  # a picture that cannot be kept must not cost the reading
                log.warning("cannot keep the board picture in %s: %s", self.pictures, exc)
        return reading.to_rules(), picture
