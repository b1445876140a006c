"""An OLED panel on a simulated I2C bus, for the daemon's real luma.oled driver to talk to.

It takes what an SSD1306-class panel takes over smbus (``write_i2c_block_data`` with a command or
data control byte) and keeps count of it, so a test can count frames, and keeps the contrast level
the driver last set (command 0x81 and its level); pulled from the bus it answers as
the kernel does for a device that has gone (``OSError`` EREMOTEIO), so the daemon's display
retries run exactly as they would on a loose cable.
"""

from __future__ import annotations

import errno
import os
import threading

COMMAND, DATA = 0x00, 0x40
SET_CONTRAST = 0x81


class SimOledBus:
    def __init__(self, address: int = 0x3C) -> None:
        self.address = address
        self.connected = True
        self.commands = 0
        self.data_bytes = 0
        self.contrast: int | None = None
        self.failed_writes = 0
        self._lock = threading.Lock()

    def write_i2c_block_data(self, address: int, register: int, values: list[int]) -> None:
        with self._lock:
            if not self.connected or address != self.address:
                self.failed_writes += 1
                raise OSError(errno.EREMOTEIO, os.strerror(errno.EREMOTEIO))
            if register == COMMAND:
                self.commands += len(values)
                if len(values) >= 2 and values[0] == SET_CONTRAST:  # luma sends it on its own
                    self.contrast = values[1]
            elif register == DATA:
                self.data_bytes += len(values)

    def unplug(self) -> None:
        """The panel's cable comes loose."""
        with self._lock:
            self.connected = False

    def replug(self) -> None:
        with self._lock:
            self.connected = True

    def close(self) -> None:
        """smbus compatibility: the bus belongs to the table, which outlives the driver."""
