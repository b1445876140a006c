"""What arrives on the daemon's queue: sensor edges, button presses, board readings, faults.

Background threads (GPIO callbacks, the serial reader, the board watcher) only ever put these on
the queue; the main loop turns them into rules events. Each is a small frozen value carrying the
host's monotonic time at which it happened, so latency can be measured end to end.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules import BoardReading, Event, NewMatch


@dataclass(frozen=True)
class TouchChanged:
    """A shooting-line sensor changed: ``quadrant`` is the board quadrant (0 = seat 0's side,
    then clockwise), already mapped from the sensor channel."""

    quadrant: int
    active: bool
    at: float


@dataclass(frozen=True)
class HoleDrop:
    """The 20-hole beam saw a disc fall (a pulse that passed the filter)."""

    at: float
    width_ms: float


@dataclass(frozen=True)
class ButtonPressed:
    button: str
    held: bool
    at: float


@dataclass(frozen=True)
class ReadingDone:
    """The camera's reading of the settled board, for the request ``token``."""

    token: int
    board: BoardReading
    at: float
    picture: str | None = None


@dataclass(frozen=True)
class ReadingFailed:
    token: int
    reason: str
    at: float


@dataclass(frozen=True)
class Fault:
    """A part went wrong (``message``) or recovered (``message`` is None)."""

    part: str
    message: str | None
    at: float


@dataclass(frozen=True)
class Operator:
    """A rules event given directly (the menu's result, a test, a remote command)."""

    event: Event
    at: float
    source: str = "operator"


@dataclass(frozen=True)
class Assigned:
    """The club's organiser set this board's next match (None: withdrew it). The box shows it,
    and starts it when the operator presses ok on the finished match."""

    match: NewMatch | None
    at: float
    label: str = ""


@dataclass(frozen=True)
class Tick:
    """Time passes: flashes expire, retries are due."""

    at: float


Input = (TouchChanged | HoleDrop | ButtonPressed | ReadingDone | ReadingFailed | Fault | Operator
         | Assigned | Tick)


def describe(inp: Input) -> dict[str, Any]:
    """A JSON-ready description, for the record of refused inputs and the journal."""
    out: dict[str, Any] = {"input": type(inp).__name__}
    for k, v in inp.__dict__.items():
        if k == "event":
            out[k] = v.to_json()
        elif k == "discs":
            out[k] = [d.to_json() for d in v]
        else:
            out[k] = v
    return out
