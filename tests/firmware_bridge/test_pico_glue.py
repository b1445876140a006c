"""pico.py, the firmware's only MicroPython-only file, run under CPython with small stand-ins for
``machine``, ``micropython`` and the MicroPython parts of ``time``, ``sys`` and ``select``.

A stand-in ``time.sleep_ms`` cuts the power (raises :class:`PowerOff`, which no ``except
Exception`` catches) after a given number of loop passes, so ``main()`` returns to the test.
"""

import contextlib
import importlib
import sys
import types

import pytest

from firmware_bridge.codec import Decoder, encode
from firmware_bridge.messages import BarStatus, Error, GetStatus, Hello, Reboot, TouchChange
from hw_sim.mcu import BytePort, ManualTicks
from hw_sim.mpr121 import ADDRESS, SimI2C, SimMPR121


class PowerOff(BaseException):
    pass


class Board:
    """The stand-ins, and what the firmware did with them."""

    def __init__(self, loops=50, cause=1, jumper=1):
        self.loops = loops
        self.cause = cause
        self.jumper = jumper
        self.chip = SimMPR121()
        self.bus = SimI2C()
        self.bus.attach(ADDRESS, self.chip)
        self.ticks = ManualTicks()
        self.port = BytePort()
        self.kbd_intr = []
        self.wdt = []
        self.fed = 0
        self.i2c = []
        self.resets = 0
        self.sleeps = 0
        self.on_loop = {}

    def modules(self):
        board = self
        machine = types.ModuleType("machine")

        class Pin:
            IN, PULL_UP = 0, 1

            def __init__(self, pin, mode=None, pull=None):
                self.pin = pin

            def value(self):
                return board.jumper if self.pin == 22 else 1

        class WDT:
            def __init__(self, timeout):
                board.wdt.append(timeout)

            def feed(self):
                board.fed += 1

        def i2c(bus_id, sda, scl, freq):
            board.i2c.append((bus_id, sda.pin, scl.pin, freq))
            return board.bus

        def reset():
            board.resets += 1
            raise PowerOff

        machine.Pin, machine.WDT, machine.I2C, machine.reset = Pin, WDT, i2c, reset
        machine.reset_cause = lambda: board.cause
        machine.PWRON_RESET, machine.WDT_RESET = 1, 3
        micropython = types.ModuleType("micropython")
        micropython.kbd_intr = board.kbd_intr.append
        return machine, micropython

    def sleep_ms(self, ms):
        self.sleeps += 1
        self.ticks.advance(ms * 1000)
        action = self.on_loop.get(self.sleeps)
        if action:
            action()
        if self.sleeps >= self.loops:
            raise PowerOff

    def said(self):
        return [f.message for f in Decoder().feed(self.port.take())]


@pytest.fixture
def run(monkeypatch, tmp_path):
    def start(board, marker=None):
        machine, micropython = board.modules()
        monkeypatch.setitem(sys.modules, "machine", machine)
        monkeypatch.setitem(sys.modules, "micropython", micropython)
        monkeypatch.delitem(sys.modules, "firmware_bridge.firmware.pico", raising=False)
        pico = importlib.import_module("firmware_bridge.firmware.pico")
        path = tmp_path / "reset_cause"
        if marker:
            path.write_text(marker)
        monkeypatch.setattr(pico, "MARKER", str(path))
        monkeypatch.setattr(pico, "time", types.SimpleNamespace(
            ticks_us=board.ticks.ticks_us, ticks_diff=board.ticks.ticks_diff,
            sleep_ms=board.sleep_ms))

        class Poll:
            def register(self, stream, mask):
                pass

            def poll(self, timeout):
                return [1] if board.port._incoming else []

        class In:
            def read(self, n):
                data = bytes(board.port._incoming[:n])
                del board.port._incoming[:n]
                return data

        monkeypatch.setattr(pico, "select", types.SimpleNamespace(poll=Poll, POLLIN=1))
        monkeypatch.setattr(pico, "sys", types.SimpleNamespace(
            stdin=types.SimpleNamespace(buffer=In()),
            stdout=types.SimpleNamespace(buffer=board.port)))
        with contextlib.suppress(PowerOff):
            pico.main()
        return path

    return start


def test_a_normal_boot_silences_ctrl_c_arms_the_watchdog_and_reports_touches(run):
    board = Board(loops=60)
    board.on_loop[10] = lambda: board.chip.touch(3)
    run(board)
    assert board.kbd_intr == [-1]
    assert board.wdt == [2000]
    assert board.i2c == [(0, 4, 5, 400_000)]
    assert board.fed == 60
    said = board.said()
    hello = said[0]
    assert isinstance(hello, Hello) and hello.reset_cause_name == "power-on"
    assert [(t.quadrant, t.active) for t in said if isinstance(t, TouchChange)] == [(3, True)]


def test_a_watchdog_reset_is_reported_as_such(run):
    board = Board(loops=1, cause=3)
    run(board)
    assert board.said()[0].reset_cause_name == "watchdog"


def test_the_host_gets_answers_through_the_usb_port(run):
    board = Board(loops=20)
    board.port.inject(encode(GetStatus(77), 0))
    run(board)
    assert [s.request for s in board.said() if isinstance(s, BarStatus)] == [77]


def test_a_commanded_reboot_leaves_a_marker_and_resets(run):
    board = Board(loops=20)
    board.port.inject(encode(Reboot(1, True), 0))
    marker = run(board)
    assert board.resets == 1
    assert marker.read_text() == "maintenance"


def test_maintenance_mode_keeps_the_repl_free(run, capsys):
    board = Board(loops=5)
    marker = run(board, marker="maintenance")
    assert board.kbd_intr == [] and board.wdt == [] and board.said() == []
    assert not marker.exists()
    assert "maintenance" in capsys.readouterr().out


def test_the_jumper_keeps_the_repl_free(run):
    board = Board(loops=5, jumper=0)
    run(board)
    assert board.kbd_intr == [] and board.wdt == []


def test_after_a_commanded_reboot_the_cause_is_commanded(run):
    board = Board(loops=1, cause=3)
    run(board, marker="commanded")
    assert board.said()[0].reset_cause_name == "commanded"


def test_a_crash_is_reported_and_the_watchdog_left_to_bite(run):
    board = Board(loops=40)

    def break_the_bus():
        board.bus.readfrom_mem = None  # the next read raises TypeError, not OSError

    board.on_loop[5] = break_the_bus
    run(board)
    errors = [e for e in board.said() if isinstance(e, Error)]
    assert [e.code_name for e in errors] == ["firmware-fault"]
    assert "TypeError" in errors[0].detail
    # The bus broke after pass 5 and the sensor is polled every 2 ms: the crash comes within two
    # passes, and from then on the board sleeps without feeding the watchdog.
    assert board.fed <= 7
    assert board.sleeps == 40
