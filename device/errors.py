"""The appliance's errors: one base for everything the device side raises on purpose.

Each piece of hardware turns its bus and driver failures (``OSError`` from I2C, a vendor library's
own exceptions) into one of these at its boundary, so the daemon can catch :class:`DeviceError`,
show the message in words and keep scoring with what still works.
"""

from __future__ import annotations

from rules.errors import CrokiscoreError


class DeviceError(CrokiscoreError):
    """Base of the appliance's errors (config, store, hardware backends)."""


class ConfigError(DeviceError, ValueError):
    """A config file that cannot be used; the message names the key and the fix."""


class StoreError(DeviceError):
    """The event store cannot take or give events (disk full, corrupt file, wrong schema)."""


class CameraError(DeviceError):
    """The camera did not deliver a usable frame."""


class DisplayError(DeviceError):
    """The OLED cannot be opened or written: wrong driver or address, a missing bus, a loose
    cable. The message names the display and what to check."""


class DisplaySettingsError(DisplayError, ValueError):
    """Display settings that cannot work (an unknown driver, a transport it lacks, a bad size);
    the message names the setting and the values it takes."""


class SensorError(DeviceError):
    """A sensor is missing or misbehaving (no GPIO, beam blocked, serial port gone)."""
