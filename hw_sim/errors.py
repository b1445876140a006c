"""The simulator's errors, under the project's one root."""

from __future__ import annotations

from rules.errors import CrokiscoreError


class SimError(CrokiscoreError):
    """Base of the hardware simulator's errors."""


class PhysicsError(SimError):
    """The board's physics cannot do what was asked (a bad setting, a shot that never settles)."""


class PhysicsSettingError(PhysicsError, ValueError):
    """A physics setting out of its range; the message names the setting and the range."""
