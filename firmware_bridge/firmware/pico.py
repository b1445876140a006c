# The Raspberry Pi Pico itself: wires machine, USB serial and the watchdog to the Firmware (sensorbar.py).
#
# This is the only firmware file that needs MicroPython; everything it calls is plain Python that
# the tests and the simulator run too. Pins and timings are at the top so a club can change them
# (docs/sensor-bar.md has the wiring).

import os
import select
import sys
import time

import machine
import micropython

from . import mpr121, sensorbar

I2C_ID = 0
SDA_PIN = 4          # GP4, physical pin 6
SCL_PIN = 5          # GP5, physical pin 7
I2C_FREQ = 400000
MPR121_ADDRESS = 0x5A
MAINTENANCE_PIN = 22  # GP22, physical pin 29: tie to GND at power-on to keep the REPL free
WATCHDOG_MS = 2000    # the RP2040 allows at most 8388
LOOP_MS = 1
MARKER = "/reset_cause"


class UsbPort:
    """The USB CDC serial line as a non-blocking byte port."""

    def __init__(self):
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer

    def read(self):
        data = bytearray()
        while len(data) < 256 and self._poll.poll(0):
            data.extend(self._in.read(1))
        return bytes(data)

    def write(self, data):
        self._out.write(data)


def _take_marker():
    try:
        with open(MARKER) as f:
            text = f.read().strip()
        os.remove(MARKER)
        return text
    except OSError:
        return ""


def _reset_cause(marker):
    if marker:
        return sensorbar.CAUSE_COMMANDED
    cause = machine.reset_cause()
    if cause == machine.WDT_RESET:
        return sensorbar.CAUSE_WATCHDOG
    if cause == machine.PWRON_RESET:
        return sensorbar.CAUSE_POWER_ON
    return sensorbar.CAUSE_UNKNOWN


def _reboot(maintenance):
    with open(MARKER, "w") as f:
        f.write("maintenance" if maintenance else "commanded")
    machine.reset()


def _boot_id():
    try:
        return int.from_bytes(os.urandom(4), "big")
    except AttributeError:
        import random
        return random.getrandbits(32)


def main():
    marker = _take_marker()
    jumper = machine.Pin(MAINTENANCE_PIN, machine.Pin.IN, machine.Pin.PULL_UP)
    if marker == "maintenance" or jumper.value() == 0:
        print("sensor bar: maintenance mode, the REPL is free (machine.reset() to run again)")
        return
    # From here on the line carries frames only: Ctrl-C must not stop the firmware.
    micropython.kbd_intr(-1)
    watchdog = machine.WDT(timeout=WATCHDOG_MS)
    i2c = machine.I2C(I2C_ID, sda=machine.Pin(SDA_PIN), scl=machine.Pin(SCL_PIN), freq=I2C_FREQ)
    bar = sensorbar.Firmware(UsbPort(), mpr121.MPR121(i2c, MPR121_ADDRESS), time, watchdog,
                              boot_id=_boot_id(), reset_cause=_reset_cause(marker),
                              reboot=_reboot)
    try:
        while True:
            bar.service()
            time.sleep_ms(LOOP_MS)
    except Exception as exc:
        # Say why on the way down; the watchdog, no longer fed, resets the board.
        bar.fault(exc)
        while True:
            time.sleep_ms(100)
