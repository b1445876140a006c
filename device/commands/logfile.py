"""Opening an event log for the commands that read one (``replay``, ``oled``, ``run --feed``).

Logs are read as bytes, line by line, and each line is decoded on its own by
:func:`rules.replay.read_event`, so a line that is not UTF-8 is reported and skipped like any other
bad line instead of ending the command. The box's event store is an SQLite file that sits next to
the logs and is easily given by mistake; it is recognised by its header and named, with the command
that reads it, rather than replayed into a thousand "not JSON" lines.

A log is a file or a pipe (``-``, or ``<(zcat match.jsonl.gz)``), never a device: ``/dev/zero``
and ``/dev/urandom`` never end. No line is held whole beyond :data:`rules.replay.MAX_LINE`
bytes, so a file of gigabytes without a newline is one bad line, not the machine's memory.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from device.errors import DeviceError
from rules.replay import MAX_LINE

SQLITE_HEADER = b"SQLite format 3\x00"
CHUNK = 1 << 16


class NotALog(DeviceError, ValueError):
    """A file that is not an event log (JSON lines): the event store, most likely."""


class LogUnreadable(DeviceError, OSError):
    """A log that cannot be opened or read."""


class Log:
    """An open log: its lines as bytes, each cut at ``MAX_LINE + 1`` bytes (the rest of a longer
    line is read past, not kept). A read that fails half-way raises :class:`LogUnreadable`."""

    def __init__(self, stream: BinaryIO, name: str, owned: bool) -> None:
        self.stream = stream
        self.name = name
        self._owned = owned

    def __iter__(self) -> Iterator[bytes]:
        try:
            while True:
                line = self.stream.readline(MAX_LINE + 1)
                if not line:
                    return
                if len(line) > MAX_LINE and not line.endswith(b"\n"):
                    while (rest := self.stream.readline(CHUNK)) and not rest.endswith(b"\n"):
                        pass
                yield line
        except OSError as exc:
            raise LogUnreadable(f"cannot read {self.name}: {exc.strerror or exc}") from exc

    def close(self) -> None:
        if self._owned:
            self.stream.close()

    def __enter__(self) -> Log:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _device(mode: int) -> bool:
    return stat.S_ISCHR(mode) or stat.S_ISBLK(mode) or stat.S_ISSOCK(mode)


def open_log(path: str | Path) -> Log:
    """The log at ``path`` (``-``: standard input) opened for reading bytes.

    Raises :class:`NotALog` for the box's SQLite event store, :class:`LogUnreadable` for a file
    that cannot be read."""
    name = str(path)
    if not name.strip():
        raise LogUnreadable("no file named: give the event log's file, or - for standard input")
    try:
        if name == "-":
            stream: BinaryIO = sys.stdin.buffer
            if _device(os.fstat(stream.fileno()).st_mode) and not stream.isatty():
                raise LogUnreadable("standard input is a device, not a log: give the event "
                                    "log's file, or send one in (< match.jsonl)")
        else:
            mode = os.stat(path).st_mode
            if _device(mode):
                raise LogUnreadable(f"{path} is a device, not a log: give the event log's file "
                                    "(or - for standard input)")
            stream = open(path, "rb")  # noqa: SIM115 - Log closes it
        head = stream.peek(len(SQLITE_HEADER)) if hasattr(stream, "peek") else b""
    except LogUnreadable:
        raise
    except OSError as exc:
        raise LogUnreadable(f"cannot read {path}: {exc.strerror or exc}") from exc
    except ValueError as exc:  # a path with a NUL byte, from code rather than a command line
        raise LogUnreadable(f"cannot read {path!r}: {exc}") from exc
    log = Log(stream, name, owned=name != "-")
    if head[: len(SQLITE_HEADER)] == SQLITE_HEADER:
        log.close()
        raise NotALog(f"{path} is the box's event store (an SQLite database), not an event log; "
                      f"read its matches with `crokiscore history --store {path}`")
    return log
