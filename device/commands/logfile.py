"""Opening an event log for the commands that read one (``replay``, ``oled``, ``run --feed``).

Logs are read as bytes, line by line, and each line is decoded on its own by
:func:`rules.replay.read_event`, so a line that is not UTF-8 is reported and skipped like any other
bad line instead of ending the command. The box's event store is an SQLite file that sits next to
the logs and is easily given by mistake; it is recognised by its header and named, with the command
that reads it, rather than replayed into a thousand "not JSON" lines.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import BinaryIO

from device.errors import DeviceError

SQLITE_HEADER = b"SQLite format 3\x00"


class NotALog(DeviceError, ValueError):
    """A file that is not an event log (JSON lines): the event store, most likely."""


class LogUnreadable(DeviceError, OSError):
    """A log that cannot be opened or read."""


def open_log(path: str | Path) -> BinaryIO:
    """The log at ``path`` (``-``: standard input) opened for reading bytes.

    Raises :class:`NotALog` for the box's SQLite event store, :class:`LogUnreadable` for a file
    that cannot be read."""
    if str(path) == "-":
        stream: BinaryIO = sys.stdin.buffer
        head = stream.peek(len(SQLITE_HEADER)) if hasattr(stream, "peek") else b""
    else:
        try:
            stream = open(path, "rb")  # noqa: SIM115 - the caller closes it
            head = stream.read(len(SQLITE_HEADER))
            stream.seek(0)
        except OSError as exc:
            raise LogUnreadable(f"cannot read {path}: {exc.strerror or exc}") from exc
    if head[: len(SQLITE_HEADER)] == SQLITE_HEADER:
        if str(path) != "-":
            stream.close()
        raise NotALog(f"{path} is the box's event store (an SQLite database), not an event log; "
                      f"read its matches with `crokiscore history --store {path}`")
    return stream
