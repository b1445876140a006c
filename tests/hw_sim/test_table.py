"""The simulated table as the daemon's own parts see it: the 20-hole beam and the camera."""

import itertools
import queue
import time

from device.core.inputs import HoleDrop
from device.hardware.camera import TableCamera
from device.hardware.hole import HoleSensor, PulseLimits
from device.reading.watcher import Settle, still
from hw_sim.table import SimTable, Wiring


def test_two_drops_in_a_row_are_two_twenties_even_when_the_daemon_stamps_late():
    """A busy machine can run the daemon's edge callback well after the pin changed. The table
    keeps its next drop clear of the refractory time counted from the daemon's stamp, so the
    second disc is never taken for a bounce of the first."""
    wiring = Wiring()
    table = SimTable(seed=2, wiring=wiring, width=160, height=120)
    late = {"first": True}

    def clock() -> float:
        if late["first"]:  # the first edge's callback is held, as a loaded machine does
            late["first"] = False
            time.sleep(wiring.refractory_s)
        return time.monotonic()

    limits = PulseLimits(max_ms=wiring.blocked_s * 1000, refractory_ms=wiring.refractory_s * 1000)
    q: queue.Queue = queue.Queue()
    try:
        with HoleSensor(wiring.hole_pin, limits, q, pin_factory=table.pin_factory,
                        clock=clock) as sensor:
            table.drop()
            table.drop()
            got = [q.get_nowait() for _ in range(q.qsize())]
            assert [type(g) for g in got] == [HoleDrop, HoleDrop], got
            assert sensor.glitches == 0
    finally:
        table.close()


def test_the_board_never_looks_settled_while_a_shot_slides():
    """From the disc leaving its line until the players set the board, the camera sees it slide:
    a watcher waiting for still frames waits for the shot, however slow the physics is, and
    never reads the board without its last disc."""
    table = SimTable(seed=2, width=1014, height=760)
    camera = TableCamera(table.camera)
    threshold = Settle().threshold
    try:
        before = table.state()
        assert still(camera.preview(), camera.preview(), threshold)
        table.touch(0, True)
        table.touch(0, False)
        sliding = [camera.preview() for _ in range(6)]
        assert not any(still(a, b, threshold) for a, b in itertools.pairwise(sliding))
        assert table.state() == before, "the discs at rest are the truth, not what slides"
        table.set_board(before)
        assert still(camera.preview(), camera.preview(), threshold)
    finally:
        table.close()
