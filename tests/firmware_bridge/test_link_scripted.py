"""The host link against an MCU scripted frame by frame on a raw pty: exact control over
sequence numbers, boot ids and protocol versions. Every frame the test writes is followed by a
status reply it waits for, so the link has handled everything before the test looks."""

import os
import queue
import select
import threading
import tty

import pytest

from firmware_bridge.codec import Decoder, encode
from firmware_bridge.events import (
    Incompatible,
    LinkDown,
    LinkUp,
    McuBooted,
    McuFound,
    McuLost,
    McuStatus,
    SensorState,
    Touch,
)
from firmware_bridge.link import Link, LinkTiming
from firmware_bridge.messages import (
    BarStatus,
    ChannelStatus,
    GetStatus,
    Heartbeat,
    Hello,
    HostHeartbeat,
    TouchChange,
)

TIMING = LinkTiming(heartbeat_s=0.05, mcu_timeout_s=5.0)
WAIT = 5.0


class ScriptedMcu:
    """A pty behind a fixed path, as /dev/serial/by-id/ gives: :meth:`unplug` closes the pty and
    removes the path, :meth:`replug` puts a new pty behind it."""

    def __init__(self, directory):
        self.path = os.path.join(directory, "usb-scripted-sensor-bar")
        self.marker = 0
        self.master = self.slave = None
        self.replug()

    def replug(self):
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        os.symlink(os.ttyname(self.slave), self.path)
        self.decoder = Decoder()

    def unplug(self):
        os.remove(self.path)
        self.close()

    def close(self):
        for fd in (self.master, self.slave):
            if fd is not None:
                os.close(fd)
        self.master = self.slave = None

    def write(self, message, seq):
        os.write(self.master, encode(message, seq))

    def read_frames(self):
        """The frames the host sent since the last call; waits up to WAIT for at least one."""
        got = []
        while not got:
            ready, _, _ = select.select([self.master], [], [], WAIT)
            assert ready, "the host sent nothing"
            got = self.decoder.feed(os.read(self.master, 4096))
        return got

    def read_host(self):
        return [f.message for f in self.read_frames()]


@pytest.fixture
def mcu(tmp_path):
    m = ScriptedMcu(str(tmp_path))
    yield m
    m.close()


@pytest.fixture
def link(mcu):
    with Link(mcu.path, timing=TIMING) as host:
        # Opening flushes the port's input: the script starts once the port is open.
        assert isinstance(host.events.get(timeout=WAIT), LinkUp)
        yield host


def events_until_marker(link, mcu, seq):
    """Write a status reply as a marker and return every event before it."""
    mcu.marker += 1
    mcu.write(BarStatus(mcu.marker, 0, 0, 3, 20, (ChannelStatus(12, 6),) * 4), seq)
    out = []
    while True:
        event = link.events.get(timeout=WAIT)
        if isinstance(event, McuStatus) and event.status.request == mcu.marker:
            return out
        out.append(event)


def test_sequence_gaps_are_counted_with_the_frames_they_skipped(link, mcu):
    mcu.write(Hello(1, (1, 0, 0), 0xAA, 1), 0)
    for seq in (1, 2, 5, 6, 200):
        mcu.write(Heartbeat(seq, 0xAA), seq)
    events_until_marker(link, mcu, 201)
    stats = link.stats()
    assert (stats.sequence_gaps, stats.frames_missed) == (2, 2 + 193)


def test_the_sequence_wraps_without_a_gap(link, mcu):
    mcu.write(Hello(1, (1, 0, 0), 0xAB, 1), 254)
    mcu.write(Heartbeat(1, 0xAB), 255)
    mcu.write(Heartbeat(2, 0xAB), 0)
    events_until_marker(link, mcu, 1)
    assert link.stats().sequence_gaps == 0


def test_touch_counters_give_the_changes_missed(link, mcu):
    mcu.write(Hello(1, (1, 0, 0), 0xAC, 1), 0)
    mcu.write(Hello(1, (1, 0, 0), 0xAD, 2), 0)  # a reset: counters restart from zero
    mcu.write(TouchChange(1, True, 10, 1), 1)
    mcu.write(TouchChange(1, False, 20, 4), 2)
    mcu.write(TouchChange(2, True, 30, 3), 3)
    touches = [e for e in events_until_marker(link, mcu, 4) if isinstance(e, Touch)]
    assert [(t.quadrant, t.counter, t.missed) for t in touches] == [(1, 1, 0), (1, 4, 2), (2, 3, 2)]
    assert all(t.boot_id == 0xAD for t in touches)


def test_at_first_contact_nothing_is_called_missed(link, mcu):
    mcu.write(Hello(1, (1, 0, 0), 0xAE, 1), 0)
    mcu.write(TouchChange(0, False, 10, 40), 1)
    mcu.write(TouchChange(0, True, 20, 41), 2)
    touches = [e for e in events_until_marker(link, mcu, 3) if isinstance(e, Touch)]
    assert [t.missed for t in touches] == [0, 0]


def test_a_heartbeat_from_an_unknown_boot_brings_a_host_heartbeat_at_once(mcu):
    slow = LinkTiming(heartbeat_s=30.0, mcu_timeout_s=60.0)
    with Link(mcu.path, timing=slow) as link:
        assert isinstance(link.events.get(timeout=WAIT), LinkUp)
        assert mcu.read_host() == [HostHeartbeat()]  # sent when the port opened
        mcu.write(Heartbeat(1, 0xBEEF), 0)
        # The next one comes at once, not after the 30 s period.
        assert mcu.read_host() == [HostHeartbeat()]


def test_an_incompatible_mcu_is_reported_and_its_touches_ignored(link, mcu):
    mcu.write(Hello(2, (9, 0, 0), 0xB0, 1), 0)
    mcu.write(TouchChange(0, True, 10, 1), 1)
    mcu.write(Hello(1, (1, 0, 0), 0xB1, 3), 0)
    mcu.write(TouchChange(3, True, 10, 1), 1)
    seen = events_until_marker(link, mcu, 2)
    (bad,) = [e for e in seen if isinstance(e, Incompatible)]
    assert (bad.protocol, bad.supported) == (2, 1)
    assert [e.boot_id for e in seen if isinstance(e, McuBooted)] == [0xB0, 0xB1]
    assert [e.quadrant for e in seen if isinstance(e, Touch)] == [3]


def test_the_sensor_flag_is_reported_when_it_changes(link, mcu):
    mcu.write(Hello(1, (1, 0, 0), 0xC0, 1), 0)
    mcu.write(Heartbeat(1, 0xC0, 0, 3), 1)   # the sensor answers from the start: not news
    mcu.write(Heartbeat(2, 0xC0, 0, 2), 2)   # it stopped answering
    mcu.write(Heartbeat(3, 0xC0, 0, 2), 3)
    mcu.write(Heartbeat(4, 0xC0, 0, 3), 4)   # back
    mcu.write(Hello(1, (1, 0, 0), 0xC1, 2), 0)
    mcu.write(Heartbeat(1, 0xC1, 0, 0), 1)   # a boot whose sensor is dead from the start
    seen = [(e.ok, e.boot_id) for e in events_until_marker(link, mcu, 2)
            if isinstance(e, SensorState)]
    # the marker, a status reply, says the sensor answers
    assert seen == [(False, 0xC0), (True, 0xC0), (False, 0xC1), (True, 0xC1)]


def test_a_request_gets_its_own_answer_even_after_others(link, mcu):
    mcu.write(Hello(1, (1, 0, 0), 0xC0, 1), 0)
    events_until_marker(link, mcu, 1)
    answers = queue.Queue()

    def ask():
        answers.put(link.get_status(timeout=WAIT))

    t = threading.Thread(target=ask)
    t.start()
    request = None
    while request is None:
        request = next((m.request for m in mcu.read_host() if isinstance(m, GetStatus)), None)
    mcu.write(BarStatus((request + 1) % 256, 0, 0, 0, 0, (ChannelStatus(1, 0),) * 4), 2)
    mcu.write(BarStatus(request, 5, 0b1000, 3, 20, (ChannelStatus(30, 15),) * 4), 3)
    got = answers.get(timeout=WAIT)
    t.join(WAIT)
    assert (got.request, got.touched, got.channels[0].touch_threshold) == (request, 0b1000, 30)


def test_the_host_numbers_its_frames_from_zero_each_time_it_opens_the_port(link, mcu):
    seqs = []
    while len(seqs) < 3:
        seqs += [f.seq for f in mcu.read_frames()]
    assert seqs[:3] == [0, 1, 2]
    mcu.unplug()
    while not isinstance(link.events.get(timeout=WAIT), LinkDown):
        pass
    mcu.replug()
    while not isinstance(link.events.get(timeout=WAIT), LinkUp):
        pass
    first = mcu.read_frames()[0]
    assert (first.seq, first.message) == (0, HostHeartbeat())
    assert link.stats().reconnects == 1


def test_a_compatible_hello_from_the_same_boot_lifts_the_refusal(link, mcu):
    mcu.write(Hello(2, (9, 0, 0), 0xB2, 1), 0)
    mcu.write(TouchChange(0, True, 10, 1), 1)
    mcu.write(Hello(1, (1, 0, 0), 0xB2, 1), 2)   # the same boot, now speaking version 1
    mcu.write(TouchChange(1, True, 20, 1), 3)
    seen = events_until_marker(link, mcu, 4)
    assert [e.protocol for e in seen if isinstance(e, Incompatible)] == [2]
    booted = [e for e in seen if isinstance(e, McuBooted)]
    assert [(e.boot_id, e.protocol) for e in booted] == [(0xB2, 2), (0xB2, 1)]
    assert [e.quadrant for e in seen if isinstance(e, Touch)] == [1]
    assert (link.stats().mcu_reboots, link.stats().sequence_gaps) == (0, 0)


def test_an_incompatible_hello_from_the_same_boot_is_refused(link, mcu):
    mcu.write(Hello(1, (1, 0, 0), 0xB3, 1), 0)
    mcu.write(TouchChange(0, True, 10, 1), 1)
    mcu.write(Hello(3, (9, 0, 0), 0xB3, 1), 2)
    mcu.write(TouchChange(1, True, 20, 1), 3)
    mcu.write(Hello(1, (1, 0, 0), 0xB4, 3), 0)   # reflashed: the marker is heard again
    seen = events_until_marker(link, mcu, 1)
    assert [e.protocol for e in seen if isinstance(e, Incompatible)] == [3]
    assert [e.quadrant for e in seen if isinstance(e, Touch)] == [0]


def test_the_mcu_is_lost_after_three_of_its_announced_heartbeat_periods(mcu):
    quick = LinkTiming(heartbeat_s=0.02, mcu_timeout_s=0.1)
    with Link(mcu.path, timing=quick) as link:
        def next_event():
            return link.events.get(timeout=WAIT)

        assert isinstance(next_event(), LinkUp)
        # Before any hello the configured timeout is all the link has to go on.
        lost = next_event()
        assert isinstance(lost, McuLost) and lost.boot_id is None
        assert lost.silent_s >= quick.mcu_timeout_s
        mcu.write(Hello(1, (1, 0, 0), 0xD0, 1, 4, 200), 0)
        assert isinstance(next_event(), McuBooted)
        lost = next_event()
        assert isinstance(lost, McuLost) and lost.boot_id == 0xD0
        assert lost.silent_s >= 3 * 0.200
        mcu.write(Heartbeat(1, 0xD0), 1)
        found = next_event()
        assert isinstance(found, McuFound) and found.silent_s >= 3 * 0.200
        # Three periods of a fast bar are shorter than the configured timeout: that one holds.
        mcu.write(Hello(1, (1, 0, 0), 0xD1, 1, 4, 10), 0)
        assert next_event().boot_id == 0xD1
        lost = next_event()
        assert isinstance(lost, McuLost) and lost.boot_id == 0xD1
        assert quick.mcu_timeout_s <= lost.silent_s < 3 * 0.200
        assert link.stats().mcu_lost == 3


def test_the_refusal_outlasts_a_reopening_of_the_port(link, mcu):
    mcu.write(Hello(2, (9, 0, 0), 0xB5, 1), 0)
    while not isinstance(link.events.get(timeout=WAIT), Incompatible):
        pass
    mcu.unplug()
    while not isinstance(link.events.get(timeout=WAIT), LinkDown):
        pass
    mcu.replug()
    while not isinstance(link.events.get(timeout=WAIT), LinkUp):
        pass
    mcu.write(TouchChange(0, True, 10, 1), 2)    # the same boot, no hello: still refused
    mcu.write(Hello(1, (1, 0, 0), 0xB6, 3), 0)   # reflashed
    mcu.write(TouchChange(1, True, 10, 1), 1)
    seen = events_until_marker(link, mcu, 2)
    assert [e.quadrant for e in seen if isinstance(e, Touch)] == [1]
