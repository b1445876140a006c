"""The appliance's errors: one base for everything the hardware side raises on purpose.

Each piece of hardware turns its bus and driver failures (``OSError`` from I2C, a vendor library's
own exceptions) into one of these at its boundary, so the daemon can catch :class:`DeviceError`,
show the message in words and keep scoring with what still works.
"""

from __future__ import annotations

from rules.errors import CrokiscoreError


class DeviceError(CrokiscoreError):
    """Base of the appliance's hardware and daemon errors."""


class DisplayError(DeviceError):
    """The OLED cannot be opened or written: wrong driver or address, a missing bus, a loose
    cable. The message names the display and what to check."""


class DisplaySettingsError(DisplayError, ValueError):
    """Display settings that cannot work (an unknown driver, a transport it lacks, a bad size);
    the message names the setting and the values it takes."""
