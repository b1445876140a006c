"""A game's score sheet: what a scoreboard frame says and shows differently for each game.

:func:`device.screen.draw.render` picks a :class:`ScoreSheet` once per frame, by the kind of view
(:class:`~device.screen.rounds.RoundsSheet` for a tournament or casual match,
:class:`~device.screen.crokidarts.DartsSheet` for crokidarts), and the layout asks it for the
few things that differ: the drawing itself never asks which game it is drawing.
"""

from __future__ import annotations

from typing import Protocol

from device.screen.view import ScoreView


class ScoreSheet(Protocol):
    def tally(self, side: int) -> str:
        """What the name band shows at the side's inner end ("" for nothing)."""
        ...

    def where(self) -> list[str]:
        """Where the game stands (the round, or the set and leg), in fewer and fewer letters."""
        ...

    def standing(self, where: list[str]) -> tuple[list[str], list[str], bool]:
        """While the match goes on: wordings, longest first, of where the game stands
        (``where`` unless there is more to say) and of what is awaited, and whether the latter
        must stand out."""
        ...

    def check_line(self) -> str:
        """The reading held for the operator's check, under CHECK."""
        ...

    def heading(self) -> str:
        """The wide layout's line at the top."""
        ...

    def pips(self, side: int) -> tuple[int, int]:
        """The side's discs still to shoot and the row's length, for the wide layout's pips."""
        ...

    def record(self, side: int) -> list[str]:
        """The wide layout's lines of what the side has done, oldest first."""
        ...


def awaited(view: ScoreView, where: list[str]) -> tuple[list[str], list[str], bool]:
    """``where``, and what the box waits for: the board being read, nothing, or the shooter
    with the discs they have left."""
    if view.awaiting == "board":
        return where, ["READING", "READ"], False
    if view.seat is None:
        return where, [""], False
    return where, up(view, view.discs_left[view.seat]), False


def up(view: ScoreView, left: int) -> list[str]:
    """The shooter and the discs they have left, in fewer and fewer letters."""
    who = view.shooter or ""
    return [f"{who} {left} left", f"{who} {left}", who]
