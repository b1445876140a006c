import queue

import pytest
from gpiozero.pins.mock import MockFactory

from device.core.inputs import ButtonPressed, Fault, HoleDrop
from device.errors import SensorError
from device.hardware.buttons import Buttons
from device.hardware.hole import HoleSensor, PulseFilter, PulseLimits

LIMITS = PulseLimits(min_ms=0.5, max_ms=200.0, refractory_ms=40.0)


def pulses(f, edges):
    out = []
    for at, blocked in edges:
        r = f.edge(at, blocked)
        if r is not None:
            out.append(r)
    return out


def test_a_drop_is_a_pulse_of_a_few_milliseconds():
    f = PulseFilter(LIMITS)
    [drop] = pulses(f, [(1.0, True), (1.004, False)])
    assert isinstance(drop, HoleDrop) and drop.width_ms == pytest.approx(4.0)


def test_glitches_shorter_than_the_minimum_are_ignored():
    f = PulseFilter(LIMITS)
    assert pulses(f, [(1.0, True), (1.0001, False)]) == []
    assert f.glitches == 1


def test_a_bounce_within_the_refractory_time_is_the_same_drop():
    f = PulseFilter(LIMITS)
    out = pulses(f, [(1.0, True), (1.003, False), (1.010, True), (1.012, False),
                     (1.2, True), (1.204, False)])
    assert [type(o) for o in out] == [HoleDrop, HoleDrop]
    assert f.glitches == 1


def test_a_blocked_beam_is_a_fault_not_a_twenty():
    f = PulseFilter(LIMITS)
    assert pulses(f, [(1.0, True)]) == []
    assert f.check_blocked(1.1) is None
    fault = f.check_blocked(1.5)
    assert isinstance(fault, Fault) and "blocked" in fault.message
    [cleared] = pulses(f, [(3.0, False)])
    assert cleared == Fault("hole", None, 3.0)


def test_the_sensor_reads_a_mock_pin_through_gpiozero():
    factory = MockFactory()
    q = queue.Queue()
    ticks = iter([10.0, 10.005, 11.0, 11.00001])
    with HoleSensor(17, LIMITS, q, pin_factory=factory, clock=lambda: next(ticks)) as sensor:
        pin = factory.pin(17)
        assert pin.state == 1                     # pulled up: the beam is clear
        pin.drive_low()
        pin.drive_high()                          # 5 ms: a disc
        pin.drive_low()
        pin.drive_high()                          # 0.01 ms: a glitch
        assert q.get_nowait() == HoleDrop(10.005, pytest.approx(5.0))
        assert q.empty() and sensor.glitches == 1
        sensor.close()


def test_a_pin_in_use_is_a_sensor_error():
    factory = MockFactory()
    q = queue.Queue()
    first = HoleSensor(17, LIMITS, q, pin_factory=factory)
    with first, pytest.raises(SensorError, match="GPIO 17"):
        HoleSensor(17, LIMITS, q, pin_factory=factory)


def test_buttons_report_presses_and_holds_once():
    factory = MockFactory()
    q = queue.Queue()
    with Buttons({"ok": 6, "back": 13, "menu": None}, q, pin_factory=factory, hold_s=0.05):
        ok = factory.pin(6)
        ok.drive_low()
        ok.drive_high()
        press = q.get(timeout=2)
        assert isinstance(press, ButtonPressed) and (press.button, press.held) == ("ok", False)
        back = factory.pin(13)
        back.drive_low()
        held = q.get(timeout=2)                   # gpiozero's hold timer fires
        assert (held.button, held.held) == ("back", True)
        back.drive_high()                         # the release of a hold is not a press
        assert q.empty()
