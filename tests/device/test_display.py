"""The display backends: luma.core's dummy device for the simulator, and a real luma.oled driver
over luma.core's I2C interface. Where a panel would be, an I2C bus stand-in (the smbus calls luma
makes) records the bytes or fails the way the kernel does."""

import errno
import os

import pytest
from PIL import Image

from device.errors import DeviceError, DisplayError, DisplaySettingsError
from device.hardware.display import DummyDisplay, OledDisplay, OledSettings
from device.screen.draw import render
from device.screen.view import build
from hw_sim.oled import SimOledBus
from rules.errors import CrokiscoreError
from tests.device import scenes


class Bus:
    """Stands in for ``smbus2.SMBus`` on a machine with no panel: keeps what luma writes to the
    I2C address, or raises ``OSError(fail)`` for the next ``failures`` writes."""

    def __init__(self, fail: int | None = None, failures: int = 1_000_000) -> None:
        self.fail = fail
        self.failures = failures
        self.commands: list[int] = []
        self.data = bytearray()
        self.closed = 0

    def write_i2c_block_data(self, address: int, register: int, values: list[int]) -> None:
        if self.fail is not None and self.failures > 0:
            self.failures -= 1
            raise OSError(self.fail, os.strerror(self.fail))
        (self.commands.extend if register == 0x00 else self.data.extend)(values)

    def close(self) -> None:
        self.closed += 1


def frame(width=128, height=64, mode="1"):
    return render(build(scenes.singles_mid()), width, height, mode)


def test_display_errors_belong_to_the_tree():
    assert issubclass(DisplayError, DeviceError) and issubclass(DeviceError, CrokiscoreError)
    assert issubclass(DisplaySettingsError, ValueError)


def test_the_dummy_device_receives_the_frame():
    with DummyDisplay() as panel:
        assert panel.image is None  # nothing is made before the first frame
        f = frame()
        panel.show(f)
        assert panel.image is not None and panel.image is not f
        assert panel.image.mode == "1" and panel.image.tobytes() == f.tobytes()
        panel.show(render(build(scenes.singles_board()[0])))
        assert panel.frames == 2 and panel.image.tobytes() != f.tobytes()


def test_the_greyscale_dummy_gets_rgb_like_an_ssd1322():
    with DummyDisplay(256, 64, "L") as panel:
        f = frame(256, 64, "L")
        panel.show(f)
        assert panel.image.mode == "RGB"
        assert panel.image.convert("L").tobytes() == f.tobytes()


def test_frames_of_the_wrong_size_are_refused():
    with DummyDisplay() as panel, pytest.raises(DisplayError, match=r"128x64.*256x64"):
        panel.show(frame(256, 64, "L"))


def test_a_greyscale_frame_on_a_mono_panel_is_thresholded_not_dithered():
    with DummyDisplay() as panel:
        grey = Image.new("L", (128, 64), 0)
        grey.paste(153, (0, 0, 64, 64))   # dim: lit
        grey.paste(68, (64, 0, 128, 64))  # faint: dark
        panel.show(grey)
        px = panel.image.convert("L").tobytes()
        assert set(px[:64]) == {255} and set(px[64:128]) == {0}


def test_close_is_safe_twice_and_show_after_close_is_refused():
    panel = DummyDisplay()
    panel.show(frame())
    panel.close()
    panel.close()
    with pytest.raises(DisplayError, match="closed"):
        panel.show(frame())


def test_an_ssd1306_on_i2c_gets_its_start_up_and_the_frame():
    bus = Bus()
    with OledDisplay(OledSettings("ssd1306"), bus=bus) as panel:
        assert bus.commands == []  # no bus traffic before the first frame
        f = frame()
        panel.show(f)
        assert 0xAF in bus.commands  # display on
        # the first frame after start-up clears the panel (1024 bytes), then ours: one bit a pixel
        ours = bus.data[-1024:]
        assert sum(bin(b).count("1") for b in ours) == sum(bin(b).count("1")
                                                           for b in f.tobytes())
    assert 0xAE in bus.commands  # switched off on close


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106", "ssd1309"])
def test_the_configured_contrast_is_set_each_time_the_panel_starts(driver):
    bus = SimOledBus()
    with OledDisplay(OledSettings(driver, contrast=40), bus=bus) as panel:
        panel.show(frame())
        assert bus.contrast == 40           # not the driver's own start-up level
        bus.unplug()
        with pytest.raises(DisplayError):
            panel.show(frame())
        bus.replug()
        bus.contrast = None
        panel.show(frame())                 # made again: its start-up and our level again
        assert bus.contrast == 40


def test_a_bus_error_becomes_a_display_error_and_the_next_frame_retries():
    bus = Bus(fail=errno.ETIMEDOUT, failures=1)
    panel = OledDisplay(OledSettings("sh1106", address=0x3D), bus=bus)
    with pytest.raises(DisplayError, match=r"sh1106 display on I2C bus 1 address 0x3d.*cable") \
            as caught:
        panel.show(frame())
    assert isinstance(caught.value.__cause__, OSError)
    panel.show(frame())  # the panel is back: made again, start-up sent again
    assert panel.frames == 1 and 0xAF in bus.commands
    panel.close()
    panel.close()


def test_nothing_answering_at_the_address_says_what_to_check():
    panel = OledDisplay(OledSettings("ssd1309", port=3), bus=Bus(fail=errno.EREMOTEIO))
    with pytest.raises(DisplayError, match=r"0x3C.*wiring.*i2cdetect -y 3"):
        panel.show(frame())
    panel.close()


def test_a_missing_i2c_bus_says_how_to_enable_it():
    panel = OledDisplay(OledSettings(port=97))  # smbus2 opens /dev/i2c-97 for real
    with pytest.raises(DisplayError, match=r"/dev/i2c-97.*raspi-config"):
        panel.show(frame())
    panel.close()


def test_spi_without_its_drivers_is_a_display_error():
    panel = OledDisplay(OledSettings("ssd1322", "spi"))
    assert (panel.width, panel.height, panel.mode) == (256, 64, "L")
    with pytest.raises(DisplayError) as caught:
        panel.show(frame(256, 64, "L"))
    assert "SPI" in str(caught.value)
    panel.close()


@pytest.mark.parametrize("kw,words", [
    ({"driver": "ssd9999"}, "ssd1306, sh1106, ssd1309, ssd1322"),
    ({"interface": "usb"}, "interface must be one of i2c, spi"),
    ({"address": 0x100}, "7-bit"),
    ({"rotate": 5}, "quarter turns"),
    ({"width": 96, "height": 16}, "at least 128x64"),
    ({"width": 64}, "at least 128x64"),
    ({"contrast": 256}, "contrast must be a whole number from 0 to 255"),
])
def test_impossible_settings_are_refused_by_name(kw, words):
    with pytest.raises(DisplaySettingsError, match=words):
        OledSettings(**kw)


def test_each_backend_makes_the_configured_panel_or_the_simulators():
    from device.config import parse
    from device.hardware.pi import PiHardware

    s = OledSettings("ssd1322")
    sim = DummyDisplay.like(s)
    assert (sim.width, sim.height, sim.mode) == (256, 64, "L")
    pi = PiHardware(parse({})).display(OledSettings())
    assert isinstance(pi, OledDisplay) and pi.mode == "1"
    assert isinstance(PiHardware(parse({})).display(OledSettings("dummy")), DummyDisplay)
    assert OledSettings("ssd1322", greyscale=False).mode == "1"
    sim.close()
    pi.close()


def test_importing_the_display_loads_no_driver():
    import subprocess
    import sys

    code = ("import sys, device.hardware.display, device.screen.draw, device.screen.view; "
            "print(sorted(m for m in sys.modules if m.startswith(('luma.oled', 'smbus2', "
            "'spidev', 'RPi'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
