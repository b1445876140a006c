"""The firmware's logic, stepped millisecond by millisecond on a manual clock: the same code the
Pico runs, against the simulator's MPR121 model and an in-memory serial line."""

import pytest

from firmware_bridge.codec import Decoder, encode
from firmware_bridge.firmware import sensorbar
from firmware_bridge.firmware.clock import McuClock
from firmware_bridge.firmware.debounce import Debouncer
from firmware_bridge.firmware.mpr121 import MPR121
from firmware_bridge.messages import (
    ALL_QUADRANTS,
    FLAG_HOST_SEEN,
    FLAG_SENSOR_OK,
    BarStatus,
    Error,
    GetStatus,
    Heartbeat,
    Hello,
    HostHeartbeat,
    Reboot,
    SetDebounce,
    SetThresholds,
    TouchChange,
    Unknown,
)
from hw_sim.mcu import TICKS_PERIOD, BytePort, ManualTicks, SimWatchdog
from hw_sim.mpr121 import ADDRESS, SimI2C, SimMPR121


class Bench:
    """A firmware boot on the bench: step it, touch it, talk to it, read what it said."""

    def __init__(self, sensor_present=True, **settings):
        self.ticks = ManualTicks()
        self.port = BytePort()
        self.chip = SimMPR121()
        self.bus = SimI2C()
        if sensor_present:
            self.bus.attach(ADDRESS, self.chip)
        self.fed = 0
        self.reboots = []
        self.decoder = Decoder()
        self.host_seq = 0
        bench = self

        class Watchdog:
            def feed(self):
                bench.fed += 1

        self.bar = sensorbar.Firmware(self.port, MPR121(self.bus), self.ticks, Watchdog(),
                                       boot_id=0xB007, reset_cause=sensorbar.CAUSE_POWER_ON,
                                       reboot=self.reboots.append, **settings)

    def run_ms(self, ms):
        for _ in range(ms):
            self.ticks.advance(1000)
            self.bar.service()

    def send(self, message):
        self.port.inject(encode(message, self.host_seq))
        self.host_seq = (self.host_seq + 1) % 256

    def said(self):
        return [f.message for f in self.decoder.feed(self.port.take())]


def of(kind, messages):
    return [m for m in messages if isinstance(m, kind)]


def test_boot_says_hello_with_its_identity():
    b = Bench(heartbeat_ms=250)
    (hello,) = b.said()
    assert hello == Hello(1, sensorbar.FIRMWARE, 0xB007, 1, 4, 250)


def test_a_touch_is_reported_once_it_held_for_the_debounce_time_stamped_when_it_began():
    b = Bench(debounce_ms=20)
    b.said()
    b.run_ms(10)
    t0 = b.bar.clock.us
    b.chip.touch(2)
    b.run_ms(15)
    assert of(TouchChange, b.said()) == []
    b.run_ms(10)
    (touch,) = of(TouchChange, b.said())
    assert touch.quadrant == 2 and touch.active and touch.counter == 1
    assert t0 < touch.mcu_time_us <= t0 + 3000
    b.chip.release(2)
    b.run_ms(30)
    (release,) = of(TouchChange, b.said())
    assert (release.quadrant, release.active, release.counter) == (2, False, 2)
    assert release.mcu_time_us > touch.mcu_time_us + 15000


def test_a_glitch_shorter_than_the_debounce_time_is_not_reported():
    b = Bench(debounce_ms=20)
    b.run_ms(5)
    for _ in range(5):
        b.chip.touch(0)
        b.run_ms(8)
        b.chip.release(0)
        b.run_ms(8)
    assert of(TouchChange, b.said()) == []
    assert b.bar.debouncer.counters == [0, 0, 0, 0]


def test_counters_are_per_quadrant_and_odd_while_active():
    b = Bench(debounce_ms=5)
    for q in (0, 1, 1, 3, 0, 1):
        b.chip.touch(q)
        b.run_ms(10)
        b.chip.release(q)
        b.run_ms(10)
    touches = of(TouchChange, b.said())
    assert [t.counter % 2 == 1 for t in touches] == [t.active for t in touches]
    assert b.bar.debouncer.counters == [4, 6, 0, 2]


def test_heartbeats_carry_time_boot_id_touch_state_and_flags():
    b = Bench(heartbeat_ms=100, debounce_ms=0)
    b.chip.touch(1)
    b.chip.touch(3)
    b.run_ms(350)
    beats = of(Heartbeat, b.said())
    assert len(beats) == 3
    assert [h.mcu_time_us // 100_000 for h in beats] == [1, 2, 3]
    assert all(h.boot_id == 0xB007 and h.touched == 0b1010 for h in beats)
    assert beats[-1].flags == FLAG_SENSOR_OK
    b.send(HostHeartbeat())
    b.run_ms(100)
    assert of(Heartbeat, b.said())[-1].flags == FLAG_SENSOR_OK | FLAG_HOST_SEEN


def test_the_watchdog_is_fed_on_every_pass():
    b = Bench()
    b.run_ms(50)
    assert b.fed == 50


def test_the_clock_runs_on_across_the_tick_counter_wrap():
    ticks = ManualTicks(start_us=TICKS_PERIOD - 500)
    clock = McuClock(ticks)
    times = []
    for _ in range(5):
        ticks.advance(300)
        times.append(clock.now())
    assert times == [300, 600, 900, 1200, 1500]


def test_status_answers_with_the_request_id_settings_readings_and_counters():
    b = Bench(debounce_ms=0)
    b.chip.touch(1, delta=50)
    b.run_ms(5)
    b.said()
    b.send(GetStatus(42))
    b.run_ms(1)
    (status,) = of(BarStatus, b.said())
    assert status.request == 42 and status.touched == 0b0010 and status.debounce_ms == 0
    assert status.flags & FLAG_SENSOR_OK
    assert [c.counter for c in status.channels] == [0, 1, 0, 0]
    assert status.channels[1].filtered == 720 - 50
    assert status.channels[1].baseline == 720
    assert (status.channels[0].touch_threshold, status.channels[0].release_threshold) == (12, 6)


def test_the_first_host_frame_gets_a_hello_and_so_does_one_after_a_silence():
    b = Bench(host_timeout_ms=1000)
    b.said()
    b.send(HostHeartbeat())
    b.run_ms(1)
    assert len(of(Hello, b.said())) == 1
    b.run_ms(500)
    b.send(HostHeartbeat())
    b.run_ms(1)
    assert of(Hello, b.said()) == []
    b.run_ms(1500)
    b.send(HostHeartbeat())
    b.run_ms(1)
    assert len(of(Hello, b.said())) == 1


def test_a_host_frame_numbered_0_gets_a_hello_however_recent_the_last_one():
    # A host that has just opened the port numbers its first frame 0; the host before it may
    # have spoken a moment ago, so the host timeout alone would leave it without a hello.
    b = Bench(host_timeout_ms=60_000)
    b.said()
    b.send(HostHeartbeat())
    b.send(HostHeartbeat())
    b.run_ms(1)
    assert len(of(Hello, b.said())) == 1
    b.host_seq = 0
    b.send(GetStatus(3))
    b.run_ms(1)
    said = b.said()
    assert [type(m) for m in said] == [Hello, BarStatus]
    assert said[0] == Hello(1, sensorbar.FIRMWARE, 0xB007, 1, 4, 500)


def test_set_thresholds_reaches_the_chip_in_stop_mode_and_answers_with_status():
    b = Bench()
    b.run_ms(2)
    b.said()
    b.send(SetThresholds(5, 2, 30, 15))
    b.run_ms(1)
    (status,) = of(BarStatus, b.said())
    assert status.request == 5
    assert (status.channels[2].touch_threshold, status.channels[2].release_threshold) == (30, 15)
    assert b.chip.thresholds(2) == (30, 15)
    assert b.chip.thresholds(0) == (12, 6)
    assert b.chip.running and b.chip.ignored_writes == 0
    b.send(SetThresholds(6, ALL_QUADRANTS, 25, 8))
    b.run_ms(1)
    assert [b.chip.thresholds(q) for q in range(4)] == [(25, 8)] * 4
    # A light touch (delta 20) is now below the touch threshold of 25.
    b.chip.touch(0, delta=20)
    b.run_ms(50)
    assert of(TouchChange, b.said()) == []


@pytest.mark.parametrize("command, code, request_id", [
    (SetThresholds(7, 1, 6, 12), 4, 7),
    (SetThresholds(7, 1, 10, 0), 4, 7),
    (Unknown(SetThresholds.KIND, b"\x07\x01"), 3, 7),
    (Unknown(0x2F, b"\x07"), 2, 0),
    (Unknown(Reboot.KIND, b"\x07\x05"), 3, 7),
])
def test_bad_commands_get_an_error_naming_the_request(command, code, request_id):
    b = Bench()
    b.run_ms(2)
    b.said()
    b.send(command)
    b.run_ms(1)
    (error,) = of(Error, b.said())
    assert (error.code, error.request) == (code, request_id)
    assert error.detail
    assert b.chip.thresholds(1) == (12, 6)


def test_a_damaged_host_frame_is_reported():
    b = Bench()
    b.said()
    frame = bytearray(encode(GetStatus(1), 0))
    frame[-2] ^= 0x01
    b.port.inject(bytes(frame))
    b.run_ms(1)
    (error,) = of(Error, b.said())
    assert error.code == 1


def test_set_debounce_changes_the_hold_time():
    b = Bench(debounce_ms=20)
    b.send(SetDebounce(3, 50))
    b.run_ms(1)
    (status,) = of(BarStatus, b.said())
    assert status.debounce_ms == 50
    b.chip.touch(0)
    b.run_ms(40)
    assert of(TouchChange, b.said()) == []
    b.run_ms(15)
    assert len(of(TouchChange, b.said())) == 1


def test_reboot_asks_the_board_to_reset_in_the_mode_requested():
    b = Bench()
    b.send(Reboot(1, False))
    b.send(Reboot(2, True))
    b.run_ms(1)
    assert b.reboots == [False, True]


def test_a_missing_sensor_is_reported_once_and_picked_up_when_it_answers():
    b = Bench(sensor_present=False, heartbeat_ms=100)
    said = b.said()
    errors = of(Error, said)
    assert [e.code for e in errors] == [5]
    assert "ENODEV" in errors[0].detail or "19" in errors[0].detail
    b.run_ms(500)
    said = b.said()
    assert of(Error, said) == []
    assert all(not h.flags & FLAG_SENSOR_OK for h in of(Heartbeat, said))
    b.bus.attach(ADDRESS, b.chip)
    b.run_ms(1100)
    assert of(Heartbeat, b.said())[-1].flags & FLAG_SENSOR_OK
    b.chip.touch(3)
    b.run_ms(30)
    assert [t.quadrant for t in of(TouchChange, b.said())] == [3]


def test_a_sensor_lost_mid_run_is_reported():
    b = Bench()
    b.run_ms(5)
    b.said()
    b.bus.detach(ADDRESS)
    b.run_ms(5)
    assert [e.code for e in of(Error, b.said())] == [5]


def test_a_crash_is_reported_on_the_way_down():
    b = Bench()
    b.said()
    b.bar.fault(RuntimeError("boom"))
    (error,) = of(Error, b.said())
    assert error.code == 6 and "boom" in error.detail


def test_debouncer_reports_each_channel_on_its_own():
    d = Debouncer(4, debounce_us=1000)
    assert d.update(0b0011, 0) == []
    assert d.update(0b0001, 500) == []
    assert d.update(0b0001, 1000) == [(0, True, 0, 1)]
    assert d.update(0b0011, 1200) == []
    assert d.update(0b0011, 2200) == [(1, True, 1200, 1)]
    assert d.state == 0b0011


def test_sim_watchdog_expires_only_when_not_fed():
    now = [0.0]
    wdt = SimWatchdog(100, clock=lambda: now[0])
    now[0] = 0.09
    wdt.feed()
    now[0] = 0.15
    assert not wdt.expired()
    now[0] = 0.2
    assert wdt.expired()
