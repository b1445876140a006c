"""The appliance's errors: one base for everything the device side raises on purpose.

Each piece of hardware turns its bus and driver failures (``OSError`` from I2C, a vendor library's
own exceptions) into one of these at its boundary, so the daemon can catch :class:`DeviceError`,
show the message in words and keep scoring with what still works. The store's troubles are types,
not words in a message: the main loop decides what to show and whether to retry from the type, and
each type carries the few words the OLED has room for (``words``).
"""

from __future__ import annotations

from typing import ClassVar

from rules.errors import CrokiscoreError


class DeviceError(CrokiscoreError):
    """Base of the appliance's errors (config, store, hardware backends)."""


class ConfigError(DeviceError, ValueError):
    """A config file that cannot be used; the message names the key and the fix."""


class BadSetting(ConfigError):
    """One setting's value is refused; ``key`` names it so the config can say which section and
    key it was in."""

    def __init__(self, message: str, key: str | None = None) -> None:
        super().__init__(message)
        self.key = key


# --- the event store -----------------------------------------------------------------------------

class StoreError(DeviceError):
    """The event store cannot take or give events. ``words`` is what the OLED shows."""

    words: ClassVar[str] = "store: cannot write"
    retry: ClassVar[bool] = True
    """Whether writing may work again by itself (space freed, a card that answers again)."""


class StoreFull(StoreError):
    """No space left for the store: nothing is lost, what waits is written once there is room."""

    words = "STORE FULL: free space"


class StoreReadOnly(StoreError):
    """The store's filesystem went read-only (a failing SD card does this) or its file or folder
    is not writable by the service's user."""

    words = "STORE READ-ONLY: check card"


class StoreDamaged(StoreError):
    """The store's file is damaged (a corrupt page, an event whose checksum is wrong, a file cut
    to nothing). It is never written over or started afresh by itself: the operator moves it
    aside (menu, "Repair store") or ``crokiscore doctor --repair`` does."""

    words = "STORE DAMAGED: menu, Repair"
    retry = False


class StoreMissing(StoreError, FileNotFoundError):
    """A command that only reads was pointed at a store that does not exist."""


class NotAStore(StoreError):
    """The file is something else than a crokiscore event store (or a newer one's), or the
    path cannot hold one: the config must change."""

    words = "STORE: fix its path"
    retry = False


# --- hardware ------------------------------------------------------------------------------------

class CameraError(DeviceError):
    """The camera did not deliver a usable frame."""


class DisplayError(DeviceError):
    """The OLED cannot be opened or written: wrong driver or address, a missing bus, a loose
    cable. The message names the display and what to check."""


class DisplaySettingsError(DisplayError, BadSetting):
    """Display settings that cannot work (an unknown driver, a transport it lacks, a bad size);
    the message names the setting and the values it takes."""


class SensorError(DeviceError):
    """A sensor is missing or misbehaving (no GPIO, beam blocked, serial port gone)."""


class BadStatus(DeviceError, ValueError, TypeError):
    """A status the display cannot show (a side that is not 0 or 1, faults that are not
    words): a mistake in the code that made it."""


# --- commands ------------------------------------------------------------------------------------

class UsageError(DeviceError, ValueError):
    """A command-line argument that cannot be used; the message names the option."""


class FeedError(DeviceError):
    """A feed file that cannot be read or does not start with a match."""


class SimulationError(DeviceError):
    """The daemon did not take what the simulated board did, in time."""
