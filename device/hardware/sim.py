"""The simulator's hardware: the parts of a :class:`hw_sim.table.SimTable`, opened exactly as
the Pi's are, so the daemon runs the same code on both."""

from __future__ import annotations

from typing import TYPE_CHECKING

from device.hardware import Hardware
from device.hardware.camera import Camera, FolderCamera, TableCamera
from device.hardware.display import Display, DummyDisplay, OledDisplay, OledSettings

if TYPE_CHECKING:
    from device.config import CameraConfig, Config
    from hw_sim.table import SimTable


def table_for(config: Config, *, heartbeat_ms: int = 500) -> SimTable:
    """The simulated table wired as the config says the box is."""
    from hw_sim.table import SimTable, Wiring

    return SimTable(seed=config.sim.seed, wiring=Wiring(
        hole_pin=config.hole.pin, channels=config.touch.channels,
        blocked_s=config.hole.max_pulse_ms / 1000, refractory_s=config.hole.refractory_ms / 1000,
        buttons=tuple((k, v) for k in ("menu", "ok", "back")
                      if (v := getattr(config.buttons, k)) is not None)),
        width=config.camera.width, height=config.camera.height, heartbeat_ms=heartbeat_ms)


class SimHardware(Hardware):
    """``table``: a table the caller made and keeps (a test, ``crokiscore sim``, whose players
    act on it); else one is made from the config and closed with the hardware."""

    name = "sim"

    def __init__(self, config: Config, table: SimTable | None = None) -> None:
        self._own = table is None
        self.table = table if table is not None else table_for(config)
        self.pin_factory = self.table.pin_factory
        self.sensor_port = self.table.port

    def camera(self, settings: CameraConfig) -> Camera | None:
        if settings.kind == "none":
            return None
        if settings.kind == "folder":
            assert settings.folder is not None
            return FolderCamera(settings.folder)
        return TableCamera(self.table.camera)

    def display(self, settings: OledSettings) -> Display:
        """A real luma driver over the table's I2C bus, or luma's dummy device for
        ``driver = "dummy"`` and SPI panels."""
        if settings.driver == "dummy" or settings.interface != "i2c":
            return DummyDisplay.like(settings)
        return OledDisplay(settings, bus=self.table.oled_bus)

    def close(self) -> None:
        if self._own:
            self.table.close()
