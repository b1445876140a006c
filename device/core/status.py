"""What the display shows beside the match: one value, made by the scorekeeper, drawn by the
screen."""

from __future__ import annotations

from dataclasses import dataclass

from device.core.menu import CLOSED, MenuState
from device.errors import BadStatus


@dataclass(frozen=True)
class Status:
    """The moments and troubles the players must see, beside the match itself.

    ``twenty`` is the side credited with a 20 that has just dropped, for as long as the flash is
    on (None: no flash). ``errors`` are short words for what is broken right now ("camera lost",
    "STORE FULL: free space"), in a fixed order. ``message`` is a passing note ("undone", a
    refusal's reason). ``menu`` is the operator's menu, when it is open.

    A reading waiting for the operator's check is not here: the match itself says so
    (``expect().what == "confirm"``), and a second copy of that fact could only disagree with it.
    """

    twenty: int | None = None
    errors: tuple[str, ...] = ()
    message: str | None = None
    menu: MenuState = CLOSED

    def __post_init__(self) -> None:
        if self.twenty not in (None, 0, 1):
            raise BadStatus(f"Status.twenty is a side, 0 or 1 (or None), got {self.twenty!r}")
        if not isinstance(self.errors, tuple) or not all(isinstance(e, str) for e in self.errors):
            raise BadStatus(f"Status.errors must be a tuple of strings, got {self.errors!r}")
