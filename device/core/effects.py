"""What the scorekeeper asks the shell to do.

The scorekeeper (:mod:`device.core.keeper`) never touches a file, a bus or a thread: each step
returns the new state and a list of these values, and the shell (:mod:`device.shell`) performs
them in order, reporting each one's outcome back. A failure of any of them (a
:class:`~device.errors.DeviceError`) comes back the same way, so what it means for the box (a fault
on the display, a retry) is decided in one place, the scorekeeper, and never escapes the loop.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from device.core.status import Status
from rules import Event, Match, NewMatch

Meta = tuple[tuple[str, Any], ...]
"""An event's metadata for the store (``source``, ``ts``, ``picture``), frozen."""


@dataclass(frozen=True)
class Record:
    """One write to the store, waiting its turn: a match's start, an event, the match's result
    once it is over, or its reopening after an undo. Records are written strictly in order; an
    event belongs to the match of the latest start written before it."""

    kind: Literal["begin", "event", "finish", "reopen"]
    ts: float
    event: Event | None = None
    meta: Meta = ()
    result: dict[str, Any] | None = field(default=None, compare=False)
    keep_id: int | None = None
    """For a start written again into a rebuilt store: the match's id in the damaged one."""

    def body(self) -> dict[str, Any]:
        """The event as stored: its JSON form with the metadata beside it."""
        assert self.event is not None
        return {**self.event.to_json(), **dict(self.meta)}


@dataclass(frozen=True)
class Write:
    """Write ``record`` to the store; ``match_id`` is the store's match it belongs to (for a
    start: the id to keep, or None for a new one). The outcome is the match's id (start) or the
    event's sequence number in its match."""

    record: Record
    match_id: int | None


@dataclass(frozen=True)
class Reject:
    """Keep a refused event for the record (best effort: its failure is only logged)."""

    match_id: int | None
    body: dict[str, Any]
    reason: str
    ts: float


@dataclass(frozen=True)
class Repair:
    """Move the damaged store aside and open a new one; what the box still holds of the match
    is then written again (the scorekeeper queues it)."""

    ts: float


@dataclass(frozen=True)
class Show:
    """Draw the match (or the menu) and the status on the display."""

    match: Match | None
    status: Status


@dataclass(frozen=True)
class AskReading:
    """Read the board for ``token`` (once it has settled, or at once if ``now``)."""

    token: int
    now: bool = False


@dataclass(frozen=True)
class CancelReading:
    """The board no longer needs reading (the round was scored another way)."""


@dataclass(frozen=True)
class ReaderNewMatch:
    """A new match began: the reader forgets what it learnt of the last one's discs."""


@dataclass(frozen=True)
class ReadingChecked:
    """The operator confirmed the reading made for ``token``: the reader may learn from it."""

    token: int


@dataclass(frozen=True)
class Notify:
    """Tell systemd the box's status line (what ``systemctl status`` shows); the first one of a
    run also says the box is ready."""

    status: str
    ready: bool = False


@dataclass(frozen=True)
class Taken:
    """An event was taken into the match (the display is about to show it); for whoever
    watches the box: counters, waiting tests, the club's publisher."""

    source: str
    event: Event
    match: Match


@dataclass(frozen=True)
class Refused:
    """An event the rules refused: the reason is shown for a moment."""

    reason: str
    event: Event | None = None


@dataclass(frozen=True)
class Written:
    """A record reached the store (``seq`` of an event in match ``match_id``); for whoever
    follows the store, such as the club's publisher."""

    match_id: int
    seq: int
    record: Record


Effect = (Write | Reject | Repair | Show | AskReading | CancelReading | ReaderNewMatch
          | ReadingChecked | Notify | Taken | Refused | Written)

__all__ = ["AskReading", "CancelReading", "Effect", "Meta", "NewMatch", "Notify",
           "ReaderNewMatch", "ReadingChecked", "Record", "Refused", "Reject", "Repair", "Show",
           "Taken", "Write", "Written"]
