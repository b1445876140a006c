"""The daemon's view of the sensor bar, over a real pty with the simulated Pico."""

import os
import queue
import select
import tty

import pytest

from device.core.inputs import Fault, TouchChanged
from device.hardware.touch import SENSOR_FAULT, SensorBar
from firmware_bridge.codec import encode
from firmware_bridge.link import LinkTiming
from firmware_bridge.messages import Heartbeat, Hello
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


def faults_until(q, message):
    """Every fault message up to and including the first that is ``message``."""
    seen = []
    while not seen or seen[-1] != message:
        seen.append(next_of(q, Fault).message)
    return seen


def test_a_sensor_fault_is_shown_until_the_sensor_answers_again(pico):
    q = queue.Queue()
    with SensorBar(pico.path, (0, 1, 2, 3), q.put, timing=FAST):
        assert next_of(q, Fault).message is None   # booted, all well
        pico.unplug_sensor()
        fault = next_of(q, Fault)
        assert (fault.part, fault.message) == ("touch", SENSOR_FAULT)
        pico.reboot()  # the new boot starts afresh, and finds the sensor still missing
        assert faults_until(q, None)[-1] is None
        assert next_of(q, Fault).message == SENSOR_FAULT
        pico.replug_sensor()  # the MCU tries the sensor again every second
        assert set(faults_until(q, None)) <= {SENSOR_FAULT, None}
        pico.touch(2)
        assert next_of(q, TouchChanged).quadrant == 2


def test_a_bar_plugged_back_without_a_power_cycle_is_no_longer_unplugged(pico):
    q = queue.Queue()
    with SensorBar(pico.path, (0, 1, 2, 3), q.put, timing=FAST):
        assert next_of(q, Fault).message is None
        pico.unplug()
        assert "sensor bar unplugged" in faults_until(q, "sensor bar unplugged")
        pico.replug(power_cycle=False)  # the same boot carries on: no hello news for the host
        assert faults_until(q, None)[-1] is None
        pico.touch(1)
        assert next_of(q, TouchChanged).quadrant == 1


@pytest.fixture
def raw_mcu():
    """A pty whose far end the test writes frames to by hand."""
    master, slave = os.openpty()
    tty.setraw(slave)
    yield master, os.ttyname(slave)
    os.close(master)
    os.close(slave)


@pytest.mark.parametrize("boot_id, seq", [(0x5678, 0), (0x1234, 2)], ids=["reflashed", "same-boot"])
def test_an_incompatible_firmware_stays_on_the_display_until_a_compatible_hello(raw_mcu, boot_id,
                                                                                 seq):
    master, path = raw_mcu
    q = queue.Queue()
    patient = LinkTiming(heartbeat_s=0.05, mcu_timeout_s=5.0)
    with SensorBar(path, (0, 1, 2, 3), q.put, timing=patient):
        ready, _, _ = select.select([master], [], [], 5.0)  # the host's first heartbeat: open
        assert ready
        os.write(master, encode(Hello(2, (2, 0, 0), 0x1234, 1), 0))
        os.write(master, encode(Heartbeat(1000, 0x1234), 1))
        # Incompatible, then the boot itself: the boot must not clear the firmware fault.
        assert [next_of(q, Fault).message for _ in range(2)] == [
            "sensor bar firmware: update it"] * 2
        os.write(master, encode(Hello(1, (1, 0, 0), boot_id, 3), seq))
        assert next_of(q, Fault).message is None
