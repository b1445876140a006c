"""The serial bridge's errors: one base under the project's root, specific kinds beneath it.

Errors that are plainly a bad value also subclass :class:`ValueError`, and the ones that are about
the serial port also subclass :class:`OSError`, so callers that only know the builtins still catch
them.
"""

from __future__ import annotations

from rules.errors import CrokiscoreError


class BridgeError(CrokiscoreError):
    """Base of every error raised by the serial bridge to the sensor bar."""


class FrameError(BridgeError, ValueError):
    """A message that cannot be put in a frame: a field out of its range, a payload too long."""


class PortError(BridgeError, OSError):
    """The serial port cannot be opened, read or written (missing, unplugged, busy)."""


class NotConnected(BridgeError):
    """A command was sent while the link has no open port (unplugged, or not yet opened)."""


class LinkClosed(BridgeError):
    """The link was used after :meth:`~firmware_bridge.link.Link.close`."""


class CommandTimeout(BridgeError, TimeoutError):
    """The sensor bar did not answer a command within the time allowed."""


class McuRefused(BridgeError):
    """The sensor bar answered a command with an error message (bad value, unknown command).

    ``code`` and ``detail`` are the MCU's own (see docs/protocol.md, "Error codes").
    """

    def __init__(self, message: str, code: int, detail: str) -> None:
        super().__init__(message)
        self.code = code
        self.detail = detail


class BadSetting(BridgeError, ValueError):
    """A link setting out of its range (the message names it)."""
