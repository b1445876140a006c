"""The OLED: a panel that shows a frame, on the board or in the simulator.

Every backend is a luma device behind the same :class:`Display`: a real panel (SSD1306, SH1106,
SSD1309 on I2C, or an SSD1322 usually on SPI) or luma.core's ``dummy`` device, which only keeps the
last frame, for the simulator. Both go through the same ``show()``, so what the simulator records is
exactly what a panel would have been sent.

The device is made on the first ``show()``, not when the display is created, so building the
appliance (or importing this module) touches no bus; after a failure it is dropped and made again
on the next frame, which re-sends the panel's start-up sequence to an OLED that was unplugged and
plugged back. Bus failures (``OSError`` from I2C or SPI, luma.core's own errors, a missing driver
module) become :class:`DisplayError` here, with words saying what to check.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from types import TracebackType
from typing import Any, ClassVar

from PIL import Image

from device.errors import BadSetting, DisplayError, DisplaySettingsError
from device.settings import Checked, setting

log = logging.getLogger(__name__)

DRIVERS: dict[str, tuple[int, int, str]] = {
    # driver: default width, height and the frame mode it is drawn in
    "ssd1306": (128, 64, "1"),
    "sh1106": (128, 64, "1"),
    "ssd1309": (128, 64, "1"),
    "ssd1322": (256, 64, "L"),
}
TRANSPORTS = ("i2c", "spi")


class Display:
    """A panel that shows frames drawn by :func:`device.render.render`.

    A backend overrides :meth:`_make` to return a luma device (anything with ``display(image)``,
    ``cleanup()`` and a ``mode``); ``width``, ``height`` and ``mode`` ("1" monochrome or "L"
    greyscale) tell the renderer what to draw. ``close()`` may be called any number of times.
    """

    def __init__(self, name: str, width: int, height: int, mode: str) -> None:
        self.name = name
        self.width = width
        self.height = height
        self.mode = mode
        self._device: Any = None
        self._closed = False
        self.frames = 0

    @property
    def size(self) -> tuple[int, int]:
        return (self.width, self.height)

    def _make(self) -> Any:
        raise NotImplementedError

    def _trouble(self, exc: BaseException) -> str:
        """What to check, in words, when the device failed with ``exc``."""
        return str(exc) or type(exc).__name__

    def show(self, image: Image.Image) -> None:
        """Puts ``image`` on the panel; raises :class:`DisplayError` if the panel cannot be
        reached (the next call tries again from scratch)."""
        if self._closed:
            raise DisplayError(f"{self.name} is closed")
        if image.size != self.size:
            raise DisplayError(f"{self.name} is {self.width}x{self.height}, "
                               f"got a {image.width}x{image.height} frame")
        import luma.core.error

        try:
            device = self._device
            if device is None:
                device = self._device = self._make()
            device.display(_as_mode(image, device.mode))
        except (OSError, ImportError, luma.core.error.Error) as exc:
            self._drop()
            raise DisplayError(f"{self.name}: {self._trouble(exc)}") from exc
        self.frames += 1

    def _drop(self) -> None:
        device, self._device = self._device, None
        if device is None:
            return
        import luma.core.error

        try:
            device.cleanup()
        except (OSError, luma.core.error.Error) as exc:
            log.warning("%s: could not switch the panel off cleanly: %s", self.name, exc)

    def close(self) -> None:
        self._closed = True
        self._drop()

    def __enter__(self) -> Display:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} {self.width}x{self.height} mode {self.mode}>"


def _as_mode(image: Image.Image, mode: str) -> Image.Image:
    """The frame in the device's own mode: greyscale panels take RGB; a greyscale frame on a
    monochrome panel keeps every pixel brighter than half (no dithering, which would speckle)."""
    if image.mode == mode:
        return image
    if mode == "1":
        return image.convert("L").convert("1", dither=Image.Dither.NONE)
    return image.convert(mode)


# --- the simulator's panel ------------------------------------------------------------------------

class DummyDisplay(Display):
    """luma.core's ``dummy`` device: keeps the last frame, exactly as a panel would get it."""

    def __init__(self, width: int = 128, height: int = 64, mode: str = "1") -> None:
        if mode not in ("1", "L"):
            raise DisplaySettingsError(f"display mode must be '1' or 'L', got {mode!r}", "mode")
        super().__init__(f"simulated {width}x{height} display", width, height, mode)

    @classmethod
    def like(cls, settings: OledSettings) -> DummyDisplay:
        """A dummy device of the panel's size and mode: draws exactly what it would get."""
        w, h = settings.size
        return cls(w, h, settings.mode)

    def _make(self) -> Any:
        from luma.core.device import dummy

        return dummy(width=self.width, height=self.height,
                     mode="1" if self.mode == "1" else "RGB")

    @property
    def image(self) -> Image.Image | None:
        """The last frame shown (in the device's mode), or None before the first."""
        return None if self._device is None else self._device.image


# --- a real panel ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class OledSettings(Checked):
    """Which panel, and how it is wired: the config file's ``[display]`` section, key for key.

    ``port`` is the I2C bus number (``/dev/i2c-1`` is 1) or the SPI port; ``address`` the I2C
    address (0x3C, sometimes 0x3D); ``spi_device`` the SPI chip select; ``dc_pin`` and
    ``reset_pin`` the SPI panel's data/command and reset GPIOs (BCM numbers).
    ``width``/``height`` default to the driver's panel; ``greyscale`` (SSD1322) draws in 16
    levels of grey; ``contrast`` (0-255) is sent to the panel each time its driver starts (luma's
    drivers start at their own level). ``dummy`` is luma.core's device that only keeps the last
    frame (a box without a panel, the simulator).
    """

    error: ClassVar[type[BadSetting]] = DisplaySettingsError

    driver: str = setting("ssd1306", str, choices=(*DRIVERS, "dummy"))
    interface: str = setting("i2c", str, choices=TRANSPORTS)
    port: int = setting(1, int, low=0, high=255)
    address: int = setting(0x3C, int, low=0x03, high=0x77,
                           hint=" (a 7-bit I2C address; `i2cdetect -y 1` shows the panel's, "
                                "usually 0x3c)")
    spi_device: int = setting(0, int, low=0, high=2)
    dc_pin: int = setting(24, int, low=0, high=27)
    reset_pin: int = setting(25, int, low=0, high=27)
    bus_speed_hz: int = setting(8_000_000, int, low=50_000, high=64_000_000)
    width: int | None = setting(None, int, low=1, high=512, optional=True)
    height: int | None = setting(None, int, low=1, high=256, optional=True)
    rotate: int = setting(0, int, low=0, high=3, hint=" (quarter turns)")
    greyscale: bool = setting(True, bool)
    contrast: int = setting(255, int, low=0, high=255)

    def _check(self) -> None:
        w, h = self.size
        if w < 128 or h < 64:
            raise DisplaySettingsError(
                f"display size {w}x{h}: the scoreboard needs at least 128x64",
                "width" if w < 128 else "height")

    @property
    def panel(self) -> str:
        """The luma driver drawn for (the dummy device draws like an SSD1306)."""
        return "ssd1306" if self.driver == "dummy" else self.driver

    @property
    def size(self) -> tuple[int, int]:
        dw, dh, _ = DRIVERS[self.panel]
        w, h = self.width or dw, self.height or dh
        return (h, w) if self.rotate % 2 else (w, h)

    @property
    def mode(self) -> str:
        return "L" if DRIVERS[self.panel][2] == "L" and self.greyscale else "1"

    @property
    def where(self) -> str:
        if self.interface == "i2c":
            return f"I2C bus {self.port} address {self.address:#04x}"
        return (f"SPI {self.port}.{self.spi_device} (DC GPIO{self.dc_pin}, "
                f"RST GPIO{self.reset_pin})")


class OledDisplay(Display):
    """A luma.oled panel chosen by :class:`OledSettings`.

    ``bus`` is for an I2C bus the caller already holds (any smbus-compatible object); without it
    luma.core opens ``/dev/i2c-<port>`` itself through smbus2.
    """

    def __init__(self, settings: OledSettings, bus: Any = None) -> None:
        w, h = settings.size
        super().__init__(f"{settings.driver} display on {settings.where}", w, h, settings.mode)
        self.settings = settings
        self._bus = bus

    def _serial(self) -> Any:
        from luma.core.interface import serial

        s = self.settings
        if s.interface == "i2c":
            return serial.i2c(bus=self._bus, port=s.port, address=s.address)
        return serial.spi(port=s.port, device=s.spi_device, gpio_DC=s.dc_pin,
                          gpio_RST=s.reset_pin, bus_speed_hz=s.bus_speed_hz)

    def _make(self) -> Any:
        import luma.oled.device

        s = self.settings
        dw, dh, _ = DRIVERS[s.panel]
        kind = getattr(luma.oled.device, s.panel)
        extra = {"mode": "RGB" if self.mode == "L" else "1"} if s.panel == "ssd1322" else {}
        device = kind(self._serial(), width=s.width or dw, height=s.height or dh,
                      rotate=s.rotate, **extra)
        device.contrast(s.contrast)
        return device

    def _trouble(self, exc: BaseException) -> str:
        import luma.core.error

        s = self.settings
        if isinstance(exc, ImportError):
            return (f"{exc.name or 'a driver module'} is not installed; SPI panels need spidev "
                    "and RPi.GPIO (rpi-lgpio on a Raspberry Pi 5): "
                    "`sudo apt install python3-spidev python3-rpi-lgpio`")
        if isinstance(exc, luma.core.error.DevicePermissionError):
            return (f"{exc}: add the service's user to the i2c/spi and gpio groups")
        if isinstance(exc, luma.core.error.DeviceNotFoundError):
            if s.interface == "i2c" and "address" not in str(exc):
                return (f"{exc}: enable I2C (`sudo raspi-config`, Interface Options) or set "
                        "the display port to the bus the panel is on")
            return (f"{exc}: nothing answers there; check the panel's wiring and power, and its "
                    "address with `i2cdetect -y " + str(s.port) + "`")
        if isinstance(exc, luma.core.error.DeviceDisplayModeError):
            return f"{exc}: set the display width and height to a size the {s.driver} supports"
        if isinstance(exc, OSError):
            return (f"bus error ({exc.strerror or exc}): check the panel's cable; the next frame "
                    "tries again")
        return str(exc)
