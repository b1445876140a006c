"""The players' hands at the simulated table: each moment of a match, done to the hardware.

A scenario (:mod:`hw_sim.scenario`) says what happens and when; the stage makes it happen on a
:class:`~hw_sim.table.SimTable`: a touch on a shooting line goes to the simulated Pico, a drop
blocks the 20-hole beam, a settled board is what the camera sees from then on. After each item the
``cue`` is called, so whoever runs the stage can wait for the daemon to take the event and play
the operator (who is not a sensor: fouls and checks are his).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from hw_sim.errors import StageError
from hw_sim.table import SimTable
from hw_sim.timeline import BoardDue, FoulCall, HoleDrop, Moment, Settled, Stamped, Touch

Item = Moment | Stamped


def act(table: SimTable, item: Item) -> None:
    """Does one moment to the hardware (true events and foul calls need no hands)."""
    if isinstance(item, Touch):
        table.touch(item.quadrant, item.active)
    elif isinstance(item, HoleDrop):
        table.drop()
    elif isinstance(item, Settled | BoardDue):
        table.set_board(item.state)
    elif not isinstance(item, FoulCall | Stamped):
        raise StageError(f"the stage does not know how to play {item!r}")


def perform(table: SimTable, items: Iterable[Item], cue: Callable[[Item], None], *,
            speed: float = 0.0, sleep: Callable[[float], None] = time.sleep) -> None:
    """Plays ``items`` in order; ``speed`` > 0 keeps simulated time that many times faster than
    real time (0: no waiting beyond the cues)."""
    last = 0.0
    for item in items:
        if speed > 0 and item.t > last:
            sleep((item.t - last) / speed)
        last = max(last, item.t)
        act(table, item)
        cue(item)
