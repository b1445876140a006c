"""The host link and the firmware logic talking over a real pty pair, with faults injected.

Short heartbeats and timeouts keep these fast; every wait is on the link's queue with a timeout.
"""

import queue
import threading
import time

import pytest

from firmware_bridge.errors import BadSetting, CommandTimeout, LinkClosed, McuRefused, NotConnected
from firmware_bridge.events import (
    LinkDown,
    LinkUp,
    McuBooted,
    McuError,
    McuFound,
    McuLost,
    McuStatus,
    Touch,
)
from firmware_bridge.link import Link, LinkStats, LinkTiming
from firmware_bridge.messages import TouchChange
from hw_sim.mcu import SimulatedPico

TIMING = LinkTiming(heartbeat_s=0.05, mcu_timeout_s=0.3, reconnect_min_s=0.02,
                    reconnect_max_s=0.1, command_timeout_s=1.0)
WAIT = 5.0


class Events:
    """The link's queue, read in order; what a wait skips over is kept for inspection."""

    def __init__(self, q):
        self.q = q
        self.seen = []

    def wait_for(self, kind, where=lambda e: True, timeout=WAIT):
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            try:
                event = self.q.get(timeout=max(left, 0.0))
            except queue.Empty:
                raise AssertionError(f"no {kind.__name__} within {timeout} s; "
                                     f"saw {self.seen[-10:]}") from None
            self.seen.append(event)
            if isinstance(event, kind) and where(event):
                return event

    def of(self, kind):
        return [e for e in self.seen if isinstance(e, kind)]


@pytest.fixture
def pico():
    with SimulatedPico(seed=7, heartbeat_ms=50, debounce_ms=5, host_timeout_ms=300,
                       watchdog_ms=None) as sim:
        yield sim


@pytest.fixture
def link(pico):
    with Link(pico.path, timing=TIMING) as host:
        yield host


@pytest.fixture
def events(link):
    return Events(link.events)


def touch_and_release(pico, events, quadrant):
    pico.touch(quadrant)
    on = events.wait_for(Touch, lambda e: e.quadrant == quadrant and e.active)
    pico.release(quadrant)
    off = events.wait_for(Touch, lambda e: e.quadrant == quadrant and not e.active)
    return on, off


def test_touch_events_arrive_for_every_quadrant_in_order(pico, link, events):
    booted = events.wait_for(McuBooted)
    assert booted.boot_id == pico.boot_id
    assert (booted.firmware, booted.protocol, booted.reset_cause) == ("1.0.1", 1, "power-on")
    assert booted.previous_boot_id is None
    for q in range(4):
        on, off = touch_and_release(pico, events, q)
        assert (on.counter, off.counter) == (1, 2)
        assert on.mcu_time_us < off.mcu_time_us
        assert on.at <= off.at
        assert on.boot_id == off.boot_id == pico.boot_id
        assert on.missed == off.missed == 0
    stats = link.stats()
    assert isinstance(stats, LinkStats) and stats.connected
    assert stats.bad_crc == stats.malformed == stats.sequence_gaps == 0
    assert stats.frames_good > 8 and stats.frames_sent > 0
    with pytest.raises(AttributeError):
        stats.frames_good = 0


def test_noise_on_the_line_is_skipped_and_costs_no_event(pico, link, events):
    events.wait_for(McuBooted)
    for _ in range(5):
        pico.noise(n=300)
    touch_and_release(pico, events, 1)
    stats = link.stats()
    assert stats.bytes_skipped >= 1000
    assert len(events.of(Touch)) == 2
    assert not events.of(McuBooted)[1:]


def test_unplug_and_replug_reconnects_to_the_same_path_and_carries_on(pico, link, events):
    first = events.wait_for(McuBooted)
    touch_and_release(pico, events, 0)
    pico.unplug()
    down = events.wait_for(LinkDown)
    assert pico.path in down.reason and "unplugged" in down.reason
    with pytest.raises(NotConnected):
        link.get_status()
    pico.replug()
    events.wait_for(LinkUp)
    again = events.wait_for(McuBooted)
    assert again.previous_boot_id == first.boot_id != again.boot_id
    on, off = touch_and_release(pico, events, 0)
    assert (on.counter, off.counter, on.missed) == (1, 2, 0)
    stats = link.stats()
    assert stats.reconnects == 1 and stats.mcu_reboots == 1 and stats.connected


def test_a_replug_that_kept_power_carries_on_with_the_same_boot(pico, link, events):
    events.wait_for(McuBooted)
    touch_and_release(pico, events, 3)
    pico.unplug()
    events.wait_for(LinkDown)
    pico.touch(3)  # while the host is away
    pico.replug(power_cycle=False)
    events.wait_for(LinkUp)
    pico.release(3)
    off = events.wait_for(Touch, lambda e: e.quadrant == 3 and not e.active)
    assert off.counter == 4 and off.missed == 1  # the touch made while unplugged was lost
    assert len(events.of(McuBooted)) == 1
    assert link.stats().mcu_reboots == 0


def test_a_host_that_opens_the_port_right_after_another_hears_the_hello():
    # A daemon restarted at once: the bar heard the last host a moment ago, and says hello
    # because the new host's first frame is numbered 0.
    with SimulatedPico(seed=5, heartbeat_ms=50, host_timeout_ms=60_000, watchdog_ms=None) as pico:
        with Link(pico.path, timing=TIMING) as first:
            booted = Events(first.events).wait_for(McuBooted)
        with Link(pico.path, timing=TIMING) as second:
            again = Events(second.events).wait_for(McuBooted)
        assert again.boot_id == booted.boot_id == pico.boot_id
        assert again.previous_boot_id is None


def test_a_reboot_mid_stream_is_reported(pico, link, events):
    first = events.wait_for(McuBooted)
    pico.touch(2)
    events.wait_for(Touch, lambda e: e.active)
    pico.reboot()
    booted = events.wait_for(McuBooted, lambda e: e.previous_boot_id is not None)
    assert booted.previous_boot_id == first.boot_id
    assert booted.boot_id == pico.boot_id != first.boot_id
    assert booted.reset_cause == "watchdog"
    # The new boot sees the hand still there and counts from zero again.
    on = events.wait_for(Touch, lambda e: e.active and e.boot_id == booted.boot_id)
    assert (on.quadrant, on.counter, on.missed) == (2, 1, 0)
    assert link.stats().sequence_gaps == 0


def test_a_silent_mcu_is_reported_lost_within_the_timeout_and_found_again(pico, link, events):
    booted = events.wait_for(McuBooted)
    pico.hang()
    hung_at = time.monotonic()
    lost = events.wait_for(McuLost)
    assert lost.boot_id == booted.boot_id
    assert TIMING.mcu_timeout_s <= lost.silent_s < TIMING.mcu_timeout_s + 0.5
    assert lost.at - hung_at < TIMING.mcu_timeout_s + 0.5
    pico.resume()
    found = events.wait_for(McuFound)
    assert found.boot_id == booted.boot_id and found.silent_s >= TIMING.mcu_timeout_s
    assert link.stats().mcu_lost == 1


def test_a_silent_mcu_is_found_again_after_the_port_was_reopened(pico, link, events):
    booted = events.wait_for(McuBooted)
    pico.hang()
    events.wait_for(McuLost)
    pico.unplug()
    events.wait_for(LinkDown)
    pico.replug(power_cycle=False)  # a bar powered on its own: the same boot carries on
    events.wait_for(LinkUp)
    pico.resume()
    found = events.wait_for(McuFound)
    assert found.boot_id == booted.boot_id and found.silent_s >= TIMING.mcu_timeout_s
    assert len(events.of(McuLost)) == 1 and len(events.of(McuBooted)) == 1


def test_a_hung_mcu_is_reset_by_its_watchdog():
    with SimulatedPico(seed=3, heartbeat_ms=50, host_timeout_ms=300, watchdog_ms=400) as pico, \
            Link(pico.path, timing=TIMING) as link:
        events = Events(link.events)
        first = events.wait_for(McuBooted)
        pico.hang()
        events.wait_for(McuLost)
        booted = events.wait_for(McuBooted, lambda e: e.previous_boot_id is not None)
        assert booted.previous_boot_id == first.boot_id
        assert booted.reset_cause == "watchdog"


def test_commands_answer_and_refusals_are_typed(pico, link, events):
    events.wait_for(McuBooted)
    status = link.set_thresholds(30, 12, quadrant=1)
    assert (status.channels[1].touch_threshold, status.channels[1].release_threshold) == (30, 12)
    assert pico.sensor.thresholds(1) == (30, 12)
    assert link.set_debounce(10).debounce_ms == 10
    assert link.get_status().request != status.request
    with pytest.raises(McuRefused) as info:
        link.set_thresholds(6, 12)
    assert info.value.code == 4 and "release < touch" in info.value.detail
    assert events.wait_for(McuError).name == "bad-value"
    answers = events.of(McuStatus)
    assert [a.status.request for a in answers] == [1, 2, 3]
    assert answers[0].status.channels[1].touch_threshold == 30


def test_commands_from_many_threads_each_get_their_own_answer(pico, link, events):
    events.wait_for(McuBooted)
    results, failures = [], []

    def ask():
        try:
            results.append(link.get_status().request)
        except Exception as exc:  # collected and asserted on below
            failures.append(exc)

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(WAIT)
    assert failures == []
    assert len(set(results)) == 8


def test_a_command_to_a_hung_mcu_times_out(pico, link, events):
    events.wait_for(McuBooted)
    pico.hang()
    with pytest.raises(CommandTimeout, match="did not answer"):
        link.get_status(timeout=0.1)


def test_a_missing_port_is_reported_and_the_link_waits_for_it(tmp_path):
    path = str(tmp_path / "usb-crokiscore-sensor-bar")
    with Link(path, timing=TIMING) as link:
        events = Events(link.events)
        down = events.wait_for(LinkDown)
        assert path in down.reason and "plugged in" in down.reason
        with SimulatedPico(seed=1, heartbeat_ms=50, directory=str(tmp_path),
                           watchdog_ms=None) as pico:
            events.wait_for(LinkUp)
            assert events.wait_for(McuBooted).boot_id == pico.boot_id
        assert len(events.of(LinkDown)) == 1
        assert link.stats().reconnects == 0


def test_close_is_idempotent_and_the_link_refuses_work_after_it(pico):
    link = Link(pico.path, timing=TIMING)
    events = Events(link.events)
    events.wait_for(McuBooted)
    link.close()
    link.close()
    assert events.wait_for(LinkDown).reason == "closed"
    assert not link.connected
    with pytest.raises(LinkClosed):
        link.get_status()
    with pytest.raises(LinkClosed):
        link.send(TouchChange(0, True, 0, 1))


def test_a_pyserial_url_works_too():
    # loop:// echoes the host's own frames: the link counts them as unexpected and stays calm.
    with Link("loop://", timing=TIMING) as link:
        events = Events(link.events)
        events.wait_for(LinkUp)
        # Lost after 0.3 s of host heartbeats every 0.05 s, each read back at once.
        lost = events.wait_for(McuLost)
        assert lost.boot_id is None
        assert link.stats().unexpected > 0
        assert link.stats().frames_good == link.stats().unexpected


def test_bad_timing_is_refused_by_name():
    with pytest.raises(BadSetting, match="heartbeat_s"):
        LinkTiming(heartbeat_s=0)
    with pytest.raises(BadSetting, match="mcu_timeout_s"):
        LinkTiming(heartbeat_s=1.0, mcu_timeout_s=0.5)
