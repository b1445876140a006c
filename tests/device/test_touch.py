"""The daemon's view of the sensor bar, over a real pty with the simulated Pico."""

import queue

import pytest

from device.inputs import Fault, TouchChanged
from device.touch import SensorBar
from firmware_bridge.link import LinkTiming
from hw_sim.mcu import SimulatedPico

FAST = LinkTiming(heartbeat_s=0.05, mcu_timeout_s=0.3, reconnect_min_s=0.02,
                  reconnect_max_s=0.1, command_timeout_s=1.0)


def next_of(q, kind, timeout=5.0):
    """The next input of ``kind``, skipping others (e.g. fault-cleared notes)."""
    while True:
        item = q.get(timeout=timeout)
        if isinstance(item, kind):
            return item


@pytest.fixture
def pico():
    with SimulatedPico(seed=3, heartbeat_ms=50, host_timeout_ms=1000) as p:
        yield p


def test_a_touch_arrives_on_the_board_quadrant_its_channel_is_wired_to(pico):
    q = queue.Queue()
    # channel 2 is wired to quadrant 0 (seat 0's line), channel 0 to quadrant 2
    with SensorBar(pico.path, (2, 1, 0, 3), q.put, timing=FAST):
        pico.touch(2)
        assert next_of(q, TouchChanged).quadrant == 0
        pico.release(2)
        released = next_of(q, TouchChanged)
        assert (released.quadrant, released.active) == (0, False)
        pico.touch(0)
        assert next_of(q, TouchChanged).quadrant == 2


def test_unplugging_the_bar_is_a_fault_that_clears_when_it_is_back(pico):
    q = queue.Queue()
    with SensorBar(pico.path, (0, 1, 2, 3), q.put, timing=FAST):
        pico.touch(1)
        next_of(q, TouchChanged)
        pico.unplug()
        fault = next_of(q, Fault)
        assert fault.part == "touch" and fault.message in ("sensor bar unplugged",
                                                           "sensor bar silent")
        pico.replug()
        while next_of(q, Fault).message is not None:
            pass
        pico.release(1)
        pico.touch(3)
        assert next_of(q, TouchChanged).quadrant in (1, 3)


def test_thresholds_are_sent_again_after_each_boot(pico):
    q = queue.Queue()
    with SensorBar(pico.path, (0, 1, 2, 3), q.put, timing=FAST, thresholds=(20, 9)) as bar:
        next_of(q, Fault)                       # the first boot clears the fault
        status = bar.link.get_status()
        assert {(c.touch_threshold, c.release_threshold) for c in status.channels} == {(20, 9)}
        pico.reboot()
        while next_of(q, Fault).message is not None:
            pass
        status = bar.link.get_status()
        assert {(c.touch_threshold, c.release_threshold) for c in status.channels} == {(20, 9)}
