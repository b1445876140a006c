"""The daemon's board reader: the vision package with the rig's calibration, and the annotated
picture of each reading kept for the players to look at later."""

from __future__ import annotations

import logging
import time
from pathlib import Path

import cv2
import numpy as np

from device.config import Config
from device.errors import CameraError
from rules import Disc
from rules.errors import CrokiscoreError

log = logging.getLogger(__name__)


class VisionReader:
    """Called by the board watcher with each frame to read. The calibration is loaded once."""

    def __init__(self, config: Config) -> None:
        import vision

        self._vision = vision
        self.colours = config.vision.team_colours
        path = config.camera.calibration
        try:
            self.calibration = vision.load_calibration(path) if path else None
        except CrokiscoreError as exc:
            raise CameraError(f"camera calibration: {exc}") from exc
        self.pictures = Path(config.camera.pictures) if config.camera.pictures else None
        self.count = 0
        self.learnt: tuple[tuple[int, int, int], tuple[int, int, int]] | None = None

    def new_match(self) -> None:
        """The colours seen belong to the discs of the match that ended."""
        self.learnt = None

    def __call__(self, frame: np.ndarray) -> tuple[tuple[Disc, ...], str | None]:
        v = self._vision
        # Colours seen in an earlier round of the match decide the sides of a board that shows
        # one side only (on its own, a lone colour could be either side's).
        reading = v.read_board(frame, self.calibration, colours=self.colours or self.learnt)
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
        return v.to_discs(reading), picture
