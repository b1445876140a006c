"""Cameras: whatever gives the daemon a frame of the board.

A backend overrides :meth:`Camera.capture` (a full-resolution BGR frame as a numpy array) and may
override :meth:`Camera.preview` (a small greyscale frame, cheap enough to take several a second
while waiting for the board to settle; by default the capture, shrunk). Backends: the Pi camera
through picamera2 (imported only when opened, it exists only on a Pi), a folder of image files
(bench tests, replaying a session), and the simulator's renderer.
"""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from device.errors import CameraError

if TYPE_CHECKING:
    from device.config import CameraConfig

log = logging.getLogger(__name__)
PREVIEW_WIDTH = 160
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp")


def shrink(frame: np.ndarray, width: int = PREVIEW_WIDTH) -> np.ndarray:
    grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    h, w = grey.shape
    return cv2.resize(grey, (width, max(1, round(h * width / w))), interpolation=cv2.INTER_AREA)


class Camera(ABC):
    """Base of the camera backends. Context manager; ``close()`` is safe twice."""

    _closed = False

    @abstractmethod
    def capture(self) -> np.ndarray:
        """A full-resolution BGR frame; raises :class:`CameraError` if none can be had."""

    def preview(self) -> np.ndarray:
        """A small greyscale frame for settle detection."""
        return shrink(self.capture())

    def close(self) -> None:
        self._closed = True

    def __enter__(self) -> Camera:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def check_frame(frame: object, source: str) -> np.ndarray:
    """Refuses what is not a usable picture: wrong type or shape, or black (lens cap, dead
    sensor, lights off)."""
    if not isinstance(frame, np.ndarray) or frame.ndim not in (2, 3) or frame.size == 0:
        raise CameraError(f"{source} gave no picture")
    if float(frame.mean()) < 8.0:
        raise CameraError(f"{source} gave a black frame: check the lens cap, the cable and the "
                          "lights")
    return frame


class FolderCamera(Camera):
    """Frames from image files, in name order, one per capture, wrapping round at the end."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        files = sorted(p for p in self.folder.glob("*") if p.suffix.lower() in IMAGE_SUFFIXES)
        if not files:
            raise CameraError(f"no pictures ({', '.join(IMAGE_SUFFIXES)}) in camera folder "
                              f"{self.folder}; check [camera] folder")
        self.files = files
        self._next = 0

    def capture(self) -> np.ndarray:
        path = self.files[self._next % len(self.files)]
        self._next += 1
        frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if frame is None:
            raise CameraError(f"cannot read picture {path}")
        return check_frame(frame, f"picture {path.name}")


class PiCamera(Camera):
    """The Pi camera module through picamera2, started once in a still configuration with
    exposure, gain, white balance and focus fixed, so a capture costs about one frame period and
    frames of the same board compare equal."""

    def __init__(self, config: CameraConfig) -> None:
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found]
        except ImportError as exc:
            raise CameraError("picamera2 is not installed: on Raspberry Pi OS run "
                              "'sudo apt install python3-picamera2' and create the venv with "
                              "--system-site-packages") from exc
        try:
            cam = Picamera2()
            # picamera2 names formats as libcamera does (DRM style: the pixel word's high byte
            # first, stored little-endian), so "RGB888" arrays come out ordered [B, G, R] per
            # pixel, OpenCV's BGR that vision reads, and "BGR888" ones [R, G, B].
            still = cam.create_still_configuration(
                main={"size": (config.width, config.height), "format": "RGB888"},
                lores={"size": (320, 240), "format": "YUV420"}, buffer_count=2)
            cam.configure(still)
            controls: dict[str, object] = {
                "AeEnable": False, "AwbEnable": False, "ExposureTime": config.exposure_us,
                "AnalogueGain": config.analogue_gain, "ColourGains": config.colour_gains}
            if config.lens_position is not None:
                controls.update(AfMode=0, LensPosition=config.lens_position)
            cam.set_controls(controls)
            cam.start()
        except Exception as exc:  # picamera2 raises plain RuntimeError/IndexError/OSError
            raise CameraError(f"cannot start the camera: {exc}; check the ribbon cable and "
                              "that 'rpicam-hello --list-cameras' lists it") from exc
        self._cam = cam

    def capture(self) -> np.ndarray:
        try:
            frame = self._cam.capture_array("main")
        except Exception as exc:
            raise CameraError(f"the camera stopped delivering frames: {exc}") from exc
        return check_frame(frame, "the camera")

    def preview(self) -> np.ndarray:
        try:
            yuv = self._cam.capture_array("lores")
        except Exception as exc:
            raise CameraError(f"the camera stopped delivering frames: {exc}") from exc
        h = yuv.shape[0] * 2 // 3
        return shrink(np.ascontiguousarray(yuv[:h]))

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            try:
                self._cam.stop()
                self._cam.close()
            except Exception as exc:
                log.warning("closing the camera: %s", exc)


class TableCamera(Camera):
    """The simulated table's camera (:class:`hw_sim.camera.SimCamera`), behind the same checks
    as a real one: its failures become :class:`CameraError`, a black frame is refused."""

    def __init__(self, sim_camera: object) -> None:
        self._cam = sim_camera

    def capture(self) -> np.ndarray:
        try:
            frame = self._cam.capture()  # type: ignore[attr-defined]
        except OSError as exc:
            raise CameraError(f"the camera failed: {exc}") from exc
        return check_frame(frame, "the camera")


def open_camera(config: CameraConfig, table: object | None = None) -> Camera | None:
    """The camera the config names (None for ``kind = "none"``); raises :class:`CameraError`
    with the fix when it cannot be opened."""
    if config.kind == "none":
        return None
    if config.kind == "folder":
        assert config.folder is not None
        return FolderCamera(config.folder)
    if config.kind == "sim":
        if table is None:
            raise CameraError("[camera] kind = \"sim\" needs the simulator: set backend = \"sim\"")
        return TableCamera(table.camera)  # type: ignore[attr-defined]
    return PiCamera(config)
