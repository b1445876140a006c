"""The scorekeeper's state: everything the main loop knows, as frozen values.

It is split by concern, each part small enough to read at once: the ledger (what is in the store
and what waits to go in), the camera's request, the display's last frame and back-off, the passing
moments (a 20's flash, a message), the faults, and the menu.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from device.core.effects import Record
from device.core.menu import CLOSED, MenuState
from device.core.status import Status
from rules import Match, NewMatch


@dataclass(frozen=True)
class Timing:
    flash_s: float = 1.5
    message_s: float = 4.0
    display_retry_s: float = 2.0
    display_retry_max_s: float = 60.0
    board_timeout_s: float = 30.0
    store_retry_s: float = 2.0


@dataclass(frozen=True)
class Settings:
    """What the scorekeeper is told once: the match to start when nobody picks one, the name
    lists the menu offers, whether there is a camera to read the board, and its timings."""

    default_match: NewMatch
    player_sets: tuple[tuple[str, ...], ...] = ()
    camera: bool = True
    timing: Timing = Timing()


@dataclass(frozen=True)
class Ledger:
    """The commit protocol. ``queue`` holds records accepted but not yet in the store, in
    order; the head is written first, and the rest only after it. ``history`` is what the store
    holds of the current match (from its start), so a damaged store can be rewritten whole.
    ``match_id`` is the store's id of the latest match started there. While ``retry_at`` is set
    the store failed and is tried again then; while ``damaged``, not until it is repaired.
    """

    match_id: int | None = None
    queue: tuple[Record, ...] = ()
    history: tuple[Record, ...] = ()
    retry_at: float | None = None
    damaged: bool = False
    stuck: bool = False
    """The store cannot be used until the config is fixed (its path is a folder, say)."""

    @property
    def writing(self) -> bool:
        """A write is due now (the head of the queue goes out when a step ends)."""
        return (bool(self.queue) and self.retry_at is None and not self.damaged
                and not self.stuck)


@dataclass(frozen=True)
class Request:
    """The board reading the match waits for: its token (the match's depth when it began to
    wait), when it was asked for, and the token of the camera reading last taken."""

    token: int | None = None
    asked_at: float = 0.0
    taken: int | None = None


@dataclass(frozen=True)
class Panel:
    """The display: what it last showed, and when to try it again after a failure."""

    shown: tuple[Match | None, Status] | None = field(default=None, compare=False)
    retry_at: float | None = None
    wait_s: float = 0.0


@dataclass(frozen=True)
class BoxState:
    match: Match | None = None
    ledger: Ledger = Ledger()
    request: Request = Request()
    panel: Panel = Panel()
    faults: tuple[tuple[str, str], ...] = ()
    touching: frozenset[int] = frozenset()
    flash: tuple[int, float] | None = None
    message: tuple[str, float] | None = None
    menu: MenuState = CLOSED
    notified: str | None = None
    assigned: NewMatch | None = None
    """The club's next match for this board, started by ok once the match in play is over."""

    def fault(self, part: str) -> str | None:
        return dict(self.faults).get(part)

    def with_fault(self, part: str, message: str | None) -> BoxState:
        faults = dict(self.faults)
        if message is None:
            faults.pop(part, None)
        else:
            faults[part] = message
        return replace(self, faults=tuple(sorted(faults.items())))

    def status(self, now: float) -> Status:
        message = self.message[0] if self.message and self.message[1] > now else None
        twenty = self.flash[0] if self.flash and self.flash[1] > now else None
        return Status(twenty, tuple(m for _, m in self.faults), message, self.menu)

    def status_line(self) -> str:
        """What ``systemctl status`` shows: the match in play, then the faults on the display."""
        line = f"scoring {self.match.rules.name}" if self.match else "ready"
        return "; ".join((line, *(m for _, m in self.faults)))


def meta_of(body: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    """The metadata riding along on a stored event's body."""
    from rules.events import META_KEYS

    return tuple(sorted((k, v) for k, v in body.items() if k in META_KEYS))
