"""The device subsystem's errors: one base under the project's root, one class per part."""

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
    """The display could not be driven (gone from the bus, wrong driver)."""


class SensorError(DeviceError):
    """A sensor is missing or misbehaving (no GPIO, beam blocked, serial port gone)."""
