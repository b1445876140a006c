"""What happens at a simulated board, moment by moment, in simulated seconds from the match start.

A scenario's timeline holds what a real board's hardware would report (touch sensors on the
shooting lines, the 20 hole's break-beam, the moments the camera must read the board) and a few
markers that no sensor reports but a test needs (a foul the players call, the board settled after
each shot). Each moment carries the truth beside it, so whatever reads the sensors can be checked.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hw_sim.discs import BoardState
from rules.events import Event


@dataclass(frozen=True)
class Touch:
    """A quadrant's shooting-line touch sensor went active (hand and disc on the line) or
    inactive (the disc has left: the shot starts now)."""

    t: float
    quadrant: int
    active: bool

    def to_json(self) -> dict[str, Any]:
        return {"t": round(self.t, 3), "moment": "touch", "quadrant": self.quadrant,
                "active": self.active}


@dataclass(frozen=True)
class HoleDrop:
    """A disc fell through the 20 hole's break-beam. ``team`` is truth: the sensor cannot tell."""

    t: float
    team: int

    def to_json(self) -> dict[str, Any]:
        return {"t": round(self.t, 3), "moment": "hole", "team": self.team}


@dataclass(frozen=True)
class FoulCall:
    """The players call the last shot invalid. No sensor sees this: an operator enters it."""

    t: float
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"t": round(self.t, 3), "moment": "foul", "reason": self.reason}


@dataclass(frozen=True)
class Settled:
    """Every disc is at rest after a shot and the players have moved what the rules say."""

    t: float
    state: BoardState

    def to_json(self) -> dict[str, Any]:
        return {"t": round(self.t, 3), "moment": "settled", **self.state.to_json()}


@dataclass(frozen=True)
class BoardDue:
    """The match needs the board read now; ``state`` is what the camera should see.

    ``scores`` is true when the reading ends a round (crokidarts: a turn), i.e. it is an
    end-of-round board.
    """

    t: float
    state: BoardState
    scores: bool

    def to_json(self) -> dict[str, Any]:
        return {"t": round(self.t, 3), "moment": "board", "scores": self.scores,
                **self.state.to_json()}


Moment = Touch | HoleDrop | FoulCall | Settled | BoardDue


@dataclass(frozen=True)
class Stamped:
    """A true event of the match and when it happened."""

    t: float
    event: Event

    def to_json(self) -> dict[str, Any]:
        """The event's own JSON line, with its time as the ``ts`` metadata key."""
        return {"ts": round(self.t, 3), **self.event.to_json()}
