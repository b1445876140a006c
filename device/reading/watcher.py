"""Reading the board at the end of a round, off the main loop.

When the match waits for the board, the main loop asks the watcher for a reading and goes on
serving buttons and sensors. The watcher waits until the board has settled (several consecutive
small frames alike, so a disc still sliding or a hand over the board is not read), or until the
operator says "score now", then captures a full frame, has it read, and puts the result on the
queue. A request carries a token; a result whose token is stale is ignored by the loop.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from device.core.inputs import Input, ReadingDone, ReadingFailed
from device.errors import CameraError
from device.hardware.camera import Camera
from rules import BoardReading, CrokiscoreError

log = logging.getLogger(__name__)

Reader = Callable[[np.ndarray], tuple[BoardReading, str | None]]
"""Reads a frame: the board event (its discs and why the board must be checked, if it must),
and the path of an annotated picture if one was written."""


@dataclass(frozen=True)
class Settle:
    frames: int = 3
    interval_s: float = 0.3
    threshold: float = 8.0
    timeout_s: float = 15.0


PATCH = 3
"""Preview pixels across the patch whose change is measured: about a disc in a preview that is
PREVIEW_WIDTH wide (a disc is 3 to 5 of them)."""


def still(a: np.ndarray, b: np.ndarray, threshold: float) -> bool:
    """Two small greyscale frames show the same board: no patch about a disc across changed by
    more than ``threshold`` grey levels beyond the frame's overall change.

    A mean over the whole frame calls a disc sliding across the board still (it is a few
    hundredths of the picture), and the board would be read without it; a lamp's flicker
    changes the whole frame alike, which is why the overall change is taken away.
    """
    if a.shape != b.shape:
        return False
    patches = cv2.blur(a.astype(np.float32) - b.astype(np.float32), (PATCH, PATCH))
    return float(np.max(np.abs(patches - np.median(patches)))) <= threshold


class BoardWatcher:
    def __init__(self, camera: Camera, reader: Reader, put: Callable[[Input], None],
                 settle: Settle, clock: Callable[[], float] = time.monotonic) -> None:
        self.camera = camera
        self.reader = reader
        self.put = put
        self.settle = settle
        self.clock = clock
        self._wake = threading.Condition()
        self._token: int | None = None
        self._delivered: int | None = None  # the token of the reader's latest reading sent
        self._now = False
        self._stop = False
        self._thread = threading.Thread(target=self._run, name="board-watcher", daemon=True)
        self._thread.start()

    def request(self, token: int, now: bool = False) -> None:
        """Read the board for ``token``: after it settles, or at once if ``now``."""
        with self._wake:
            if self._token != token:
                self._token, self._now = token, now
            else:
                self._now = self._now or now
            self._wake.notify_all()

    def new_match(self) -> None:
        """Tells the reader a new match began (it may keep what it learnt per match)."""
        forget = getattr(self.reader, "new_match", None)
        if forget is not None:
            forget()

    def confirmed(self, token: int) -> None:
        """The operator accepted the reading made for ``token``: the reader may learn from it
        (the sides' colours), if it is the reading the reader made last."""
        learn = getattr(self.reader, "confirmed", None)
        with self._wake:
            latest = self._delivered == token
        if learn is not None and latest:
            learn()

    def cancel(self) -> None:
        with self._wake:
            self._token = None
            self._wake.notify_all()

    def _current(self) -> tuple[int | None, bool]:
        with self._wake:
            return self._token, self._now

    def _run(self) -> None:
        while True:
            with self._wake:
                while self._token is None and not self._stop:
                    self._wake.wait()
                if self._stop:
                    return
                token = self._token
            assert token is not None
            try:
                if self._wait_still(token):
                    frame = self.camera.capture()
                    board, picture = self.reader(frame)
                    with self._wake:
                        wanted = self._token == token
                        self._delivered = token if wanted else None
                    if wanted:
                        self.put(ReadingDone(token, board, self.clock(), picture))
            except CrokiscoreError as exc:
                # the whole message to the log, the few words the display has room for to it
                log.warning("board reading failed: %s", exc)
                self.put(ReadingFailed(token, getattr(exc, "words", None) or str(exc),
                                       self.clock()))
            except Exception as exc:  # a bug in reading must not kill the watcher
                log.exception("board reading crashed")
                self.put(ReadingFailed(token, f"reading the board failed: {exc!r}", self.clock()))
            with self._wake:
                if self._token == token:
                    self._token = None

    def _wait_still(self, token: int) -> bool:
        """True when the board has settled (or the operator said now); False if cancelled."""
        s = self.settle
        start = self.clock()
        prev: np.ndarray | None = None
        alike = 1
        while True:
            current, now = self._current()
            if current != token:
                return False
            if now:
                return True
            frame = self.camera.preview()
            if prev is not None and still(prev, frame, s.threshold):
                alike += 1
            else:
                alike = 1
            prev = frame
            if alike >= s.frames:
                return True
            if self.clock() - start > s.timeout_s:
                log.warning("the board did not settle in %.0f s; reading it anyway", s.timeout_s)
                return True
            with self._wake:
                if self._token == token and not self._now and not self._stop:
                    self._wake.wait(s.interval_s)
                if self._stop:
                    return False

    def close(self, timeout: float = 5.0) -> None:
        with self._wake:
            self._stop = True
            self._token = None
            self._wake.notify_all()
        self._thread.join(timeout)
        if self._thread.is_alive():
            log.warning("the board watcher did not stop within %.0f s", timeout)


__all__ = ["BoardWatcher", "CameraError", "Reader", "Settle", "still"]
