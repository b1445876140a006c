"""The simulator's errors, under the project's one root."""

from __future__ import annotations

from rules.errors import CrokiscoreError


class SimError(CrokiscoreError):
    """Base of the hardware simulator's errors."""


class PhysicsError(SimError):
    """The board's physics cannot do what was asked (a bad setting, a shot that never settles)."""


class PhysicsSettingError(PhysicsError, ValueError):
    """A physics setting out of its range; the message names the setting and the range."""


class PlayerError(SimError, ValueError):
    """Simulated players that cannot be: a skill outside 0 to 1, or not one per seat."""


class ScenarioError(SimError):
    """A simulated match that cannot go on: the engine waits for something players cannot give,
    or the match does not end."""


class SimSettingError(SimError, ValueError):
    """A simulator setting that cannot be drawn or played (a rig, a look, a layout, a frame
    plan); the message names the setting and what it takes."""


class SimCameraError(SimError, OSError):
    """The simulated camera failed on purpose (a fault injected by a test) or is closed."""


class StageError(SimError, TypeError):
    """Something given to the stage that no hand at the table can do."""
