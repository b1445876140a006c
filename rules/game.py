"""What every game (round-based or crokidarts) shares: turning an event into the method that
plays it, and naming a seat in messages."""

from __future__ import annotations

from typing import Any, Self

from rules.errors import EventError
from rules.events import BoardReading, Confirm, Correction, Foul, PlayEvent, Shot, Starter, Twenty

_HANDLERS: dict[type, str] = {
    Shot: "_shot", Twenty: "_twenty", Foul: "_foul", BoardReading: "_board",
    Confirm: "_confirm", Correction: "_correct", Starter: "_starter",
}


class Game:
    """Base of the games: a game overrides ``_shot``, ``_twenty``, ``_foul``, ``_board``,
    ``_confirm``, ``_correct`` and ``_starter`` (each returning the new game, or raising a
    :class:`~rules.errors.RulesError`), and has ``players``."""

    __slots__ = ()
    players: tuple[str, ...]

    def apply(self, ev: PlayEvent) -> Self:
        name = _HANDLERS.get(type(ev))
        if name is None:
            raise EventError(f"{type(ev).__name__} is not a play event")
        handler: Any = getattr(self, name)
        result: Self = handler(ev) if not isinstance(ev, Foul | Confirm) else handler()
        return result

    def _name(self, seat: int) -> str:
        return f"{self.players[seat]} (seat {seat})"
