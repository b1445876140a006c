"""Config keys reach the parts they set: the daemon opened on the simulated table."""

import os
import termios

import pytest

from device.config import parse
from device.core.inputs import Fault
from device.daemon import Daemon
from device.hardware.sim import SimHardware
from hw_sim.table import SimTable, Wiring


@pytest.fixture
def daemon(tmp_path):
    cfg = parse({"backend": "sim", "store": str(tmp_path / "events.db"),
                 "camera": {"kind": "none"},
                 "touch": {"baudrate": 57600},
                 "display": {"driver": "ssd1306", "contrast": 40}})
    table = SimTable(seed=4, wiring=Wiring(), width=320, height=240, heartbeat_ms=100)
    with Daemon(cfg, hardware=SimHardware(cfg, table)) as d:
        yield d
    table.close()


def test_the_display_contrast_reaches_the_panel(daemon):
    daemon.begin()   # shows the first frame: the panel's driver starts
    assert daemon.hardware.table.oled_bus.contrast == 40


def test_the_touch_baudrate_is_the_serial_port_speed(daemon):
    while True:  # the sensor bar's first boot: the port is open and set up
        item = daemon.inputs.get(timeout=10)
        if isinstance(item, Fault) and item.part == "touch":
            break
    fd = os.open(daemon.hardware.table.port, os.O_RDWR | os.O_NOCTTY)
    try:
        ispeed, ospeed = termios.tcgetattr(fd)[4:6]
    finally:
        os.close(fd)
    assert ispeed == ospeed == termios.B57600
