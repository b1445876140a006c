"""The discs on the board as they count towards the score, and what the engine is waiting for.

"Reading" is what the camera made of a frame (``vision.Reading``, the ``board`` event); once the
match accepts it, with any override the operator typed in, it is the round's :class:`BoardCount`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from rules.events import Disc

Awaiting = Literal["shot", "board", "confirm"]


@dataclass(frozen=True, slots=True)
class BoardCount:
    """The discs the camera saw after a shot or round, as accepted by the match.

    ``override`` holds board values per side typed in by the operator (a correction by totals);
    it replaces the discs' sum. A count with an uncertain disc, or with the board as a whole in
    doubt (``check``: why), holds the match until the operator confirms or corrects it: the box
    never scores a guess silently.
    """

    discs: tuple[Disc, ...]
    override: tuple[int, int] | None = None
    confirmed: bool = False
    check: tuple[str, ...] = ()

    @property
    def uncertain(self) -> bool:
        return bool(self.check) or any(d.uncertain for d in self.discs)

    @property
    def needs_check(self) -> bool:
        return self.uncertain and not self.confirmed

    @property
    def corrected(self) -> bool:
        return self.override is not None

    def values(self) -> tuple[int, int]:
        """Board value per side (20s not included)."""
        if self.override is not None:
            return self.override
        v = [0, 0]
        for d in self.discs:
            v[d.team] += d.zone
        return (v[0], v[1])

    def held_for(self, why: str | None) -> BoardCount:
        """This count held for the operator's check for ``why`` too (None: as it is)."""
        return self if why is None else replace(self, check=(*self.check,
                                                             why + ": check the board"))

    def discs_of(self, team: int | None = None, scoring: bool = False) -> int:
        """How many discs of ``team`` (None: of both sides) are on the board; ``scoring``: only
        those that score (not in the ditch or on the outer line)."""
        return sum(1 for d in self.discs
                   if (team is None or d.team == team) and (not scoring or d.zone > 0))


@dataclass(frozen=True)
class Expect:
    """What the match needs next: a shot from ``seat``, the board read, or a confirmation.

    ``what`` is None once the match is over. ``checkout`` marks a crokidarts checkout shot.
    ``check``: while a confirmation is awaited, why the board as a whole is held, in words (a
    hand over it, more discs than a side shot); empty when a disc's own doubt holds it.
    """

    what: Awaiting | None
    seat: int | None = None
    checkout: bool = False
    check: tuple[str, ...] = ()
