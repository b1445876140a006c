"""The Pi camera backend, with a stand-in for picamera2 (which exists only on a Pi) that lays out
its arrays as picamera2 does: a "RGB888" stream's pixels are [B, G, R] bytes, a "BGR888" one's
[R, G, B] (picamera2's ``Helpers.make_image`` reads them with PIL raw modes "BGR" and "RGB")."""

import sys
import types

import numpy as np
import pytest

from device.config import CameraConfig
from device.hardware.camera import PiCamera

# A frame as OpenCV holds it (BGR): left half pure red, right half pure blue.
H, W = 48, 64
SCENE = np.zeros((H, W, 3), np.uint8)
SCENE[:, : W // 2] = (0, 0, 255)
SCENE[:, W // 2 :] = (255, 0, 0)


class StandInPicamera2:
    """What PiCamera asks of picamera2, and the byte order its arrays come in."""

    def __init__(self) -> None:
        self.config: dict | None = None
        self.controls: dict = {}
        self.started = False

    def create_still_configuration(self, main: dict, lores: dict, buffer_count: int) -> dict:
        return {"main": main, "lores": lores, "buffer_count": buffer_count}

    def configure(self, config: dict) -> None:
        self.config = config

    def set_controls(self, controls: dict) -> None:
        self.controls.update(controls)

    def start(self) -> None:
        self.started = True

    def capture_array(self, stream: str = "main") -> np.ndarray:
        assert self.started and self.config is not None
        fmt = self.config[stream]["format"]
        if fmt == "RGB888":
            return SCENE.copy()              # [B, G, R]
        if fmt == "BGR888":
            return SCENE[..., ::-1].copy()   # [R, G, B]
        raise AssertionError(f"format {fmt} is not used for the main stream")

    def stop(self) -> None:
        self.started = False

    def close(self) -> None:
        pass


@pytest.fixture
def picamera2(monkeypatch):
    module = types.ModuleType("picamera2")
    module.Picamera2 = StandInPicamera2
    monkeypatch.setitem(sys.modules, "picamera2", module)
    return module


def test_the_pi_camera_hands_vision_a_bgr_frame(picamera2):
    with PiCamera(CameraConfig(width=W, height=H)) as cam:
        frame = cam.capture()
    assert frame.shape == (H, W, 3)
    assert tuple(frame[H // 2, W // 4]) == (0, 0, 255)       # red stays red in BGR
    assert tuple(frame[H // 2, 3 * W // 4]) == (255, 0, 0)   # blue stays blue


def test_the_pi_camera_is_held_in_a_fixed_still_configuration(picamera2):
    config = CameraConfig(width=W, height=H, exposure_us=12000, analogue_gain=2.0,
                          colour_gains=(1.5, 1.7), lens_position=0.8)
    with PiCamera(config) as cam:
        controls = cam._cam.controls
        assert cam._cam.config["main"]["size"] == (W, H)
    assert controls["AeEnable"] is False and controls["AwbEnable"] is False
    assert (controls["ExposureTime"], controls["AnalogueGain"], controls["ColourGains"],
            controls["LensPosition"]) == (12000, 2.0, (1.5, 1.7), 0.8)
