"""The one seam between the box and its hardware, chosen once from the config's ``backend``.

A :class:`Hardware` hands out the parts the daemon needs: gpiozero's pin factory (for the 20-hole
beam and the buttons), the sensor bar's serial port, the camera and the display. The Pi's
(:mod:`device.hardware.pi`) opens the real buses; the simulator's (:mod:`device.hardware.sim`)
opens the same classes on a simulated table (gpiozero's mock pins, the simulated Pico's pty, the
table's camera, an I2C bus carrying a real luma driver). Nothing else in the box knows which it
runs on, the way gpiozero's devices do not know which pin factory they were given.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from device.config import CameraConfig, Config
    from device.hardware.camera import Camera
    from device.hardware.display import Display, OledSettings


class Hardware(ABC):
    """Base of the backends. A backend sets ``name``, ``pin_factory`` (None: gpiozero's own
    choice, lgpio on a Pi) and ``sensor_port``, and makes the camera and the display. Context
    manager; ``close()`` is safe twice."""

    name: str
    pin_factory: object | None = None
    sensor_port: str

    @abstractmethod
    def camera(self, settings: CameraConfig) -> Camera | None:
        """The camera the settings name (None for ``kind = "none"``); raises
        :class:`~device.errors.CameraError` with the fix when it cannot be opened."""

    @abstractmethod
    def display(self, settings: OledSettings) -> Display:
        """The display (not yet started: it touches its bus on the first frame)."""

    def close(self) -> None:  # noqa: B027 (a backend holding nothing has nothing to close)
        """Lets go of what the backend holds."""

    def __enter__(self) -> Hardware:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_hardware(config: Config) -> Hardware:
    """The backend the config's ``backend`` names."""
    if config.backend == "sim":
        from device.hardware.sim import SimHardware

        return SimHardware(config)
    from device.hardware.pi import PiHardware

    return PiHardware(config)
