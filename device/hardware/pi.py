"""The Raspberry Pi's hardware: the real GPIO pins, USB serial, camera module and OLED bus."""

from __future__ import annotations

from typing import TYPE_CHECKING

from device.errors import CameraError
from device.hardware import Hardware
from device.hardware.camera import Camera, FolderCamera, PiCamera
from device.hardware.display import Display, DummyDisplay, OledDisplay, OledSettings

if TYPE_CHECKING:
    from device.config import CameraConfig, Config


class PiHardware(Hardware):
    name = "pi"

    def __init__(self, config: Config) -> None:
        self.pin_factory = None  # gpiozero picks the Pi's own (lgpio) when a pin is first used
        self.sensor_port = config.touch.port

    def camera(self, settings: CameraConfig) -> Camera | None:
        if settings.kind == "none":
            return None
        if settings.kind == "folder":
            assert settings.folder is not None
            return FolderCamera(settings.folder)
        if settings.kind == "sim":
            raise CameraError("[camera] kind = \"sim\" needs the simulator: set backend = \"sim\"")
        return PiCamera(settings)

    def display(self, settings: OledSettings) -> Display:
        if settings.driver == "dummy":
            return DummyDisplay.like(settings)
        return OledDisplay(settings)
