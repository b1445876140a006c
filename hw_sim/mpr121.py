"""A model of the MPR121 touch controller and of the I2C bus it sits on.

The firmware's own driver (``firmware_bridge/firmware/mpr121.py``) talks to this through the same
calls it makes on a Pico (``machine.I2C.readfrom_mem``/``writeto_mem``), so the simulator tests
the driver as well as the logic above it. Only what the driver relies on is modelled: the register
map, soft reset, stop mode (configuration writes are ignored while electrodes run, as on the
chip), thresholds with hysteresis, filtered data and baseline. A touch is a drop of the filtered
value below the baseline, set by the caller: deterministic, no noise unless asked for.
"""

from __future__ import annotations

import errno
import threading

ADDRESS = 0x5A
REGISTERS = 0x100
ECR = 0x5E
CONFIG1 = 0x5C
CONFIG2 = 0x5D
SOFT_RESET = 0x80
BASELINE_COUNTS = 720
TOUCH_DELTA = 40
ELECTRODES = 12


class SimMPR121:
    """One MPR121 with 12 electrodes; electrode n's capacitance is set by :meth:`touch`."""

    def __init__(self, baseline: int = BASELINE_COUNTS) -> None:
        self._lock = threading.Lock()
        self._baseline = baseline
        self._delta = [0] * ELECTRODES
        self._touched = [False] * ELECTRODES
        self.ignored_writes = 0
        self.resets = 0
        self._power_on()

    def _power_on(self) -> None:
        self._regs = bytearray(REGISTERS)
        self._regs[CONFIG1] = 0x10
        self._regs[CONFIG2] = 0x24
        self._touched = [False] * ELECTRODES

    # ---- what a test or scenario does ----

    def touch(self, electrode: int, delta: int = TOUCH_DELTA) -> None:
        """A hand on the electrode: its filtered value drops ``delta`` counts below baseline."""
        with self._lock:
            self._delta[electrode] = delta

    def release(self, electrode: int) -> None:
        with self._lock:
            self._delta[electrode] = 0

    def thresholds(self, electrode: int) -> tuple[int, int]:
        with self._lock:
            return self._regs[0x41 + 2 * electrode], self._regs[0x42 + 2 * electrode]

    @property
    def running(self) -> bool:
        with self._lock:
            return bool(self._regs[ECR] & 0x3F)

    # ---- the chip's side of the bus ----

    def _electrodes(self) -> int:
        return min(self._regs[ECR] & 0x0F, ELECTRODES)

    def _update_status(self) -> None:
        n = self._electrodes()
        status = 0
        for e in range(ELECTRODES):
            if e >= n:
                self._touched[e] = False
                continue
            touch_th, release_th = self._regs[0x41 + 2 * e], self._regs[0x42 + 2 * e]
            delta = self._delta[e]
            if not self._touched[e] and delta > touch_th:
                self._touched[e] = True
            elif self._touched[e] and delta < release_th:
                self._touched[e] = False
            if self._touched[e]:
                status |= 1 << e
        self._regs[0x00] = status & 0xFF
        self._regs[0x01] = status >> 8
        for e in range(ELECTRODES):
            filtered = max(0, self._baseline - self._delta[e]) if e < n else 0
            self._regs[0x04 + 2 * e] = filtered & 0xFF
            self._regs[0x05 + 2 * e] = filtered >> 8
            self._regs[0x1E + e] = (self._baseline >> 2) if e < n else 0

    def read(self, register: int, n: int) -> bytes:
        with self._lock:
            self._update_status()
            return bytes(self._regs[(register + i) % REGISTERS] for i in range(n))

    def write(self, register: int, data: bytes) -> None:
        with self._lock:
            for i, value in enumerate(data):
                reg = (register + i) % REGISTERS
                if reg == SOFT_RESET:
                    if value == 0x63:
                        self.resets += 1
                        self._power_on()
                elif reg == ECR or not self._regs[ECR] & 0x3F:
                    self._regs[reg] = value
                else:
                    self.ignored_writes += 1


class SimI2C:
    """Stands in for ``machine.I2C``: the calls the firmware makes, routed to simulated chips.

    An address with nothing attached (or a chip unplugged with :meth:`detach`) raises
    ``OSError(ENODEV)``, as MicroPython does when a device does not acknowledge.
    """

    def __init__(self) -> None:
        self._devices: dict[int, SimMPR121] = {}

    def attach(self, address: int, device: SimMPR121) -> None:
        self._devices[address] = device

    def detach(self, address: int) -> None:
        self._devices.pop(address, None)

    def scan(self) -> list[int]:
        return sorted(self._devices)

    def _device(self, address: int) -> SimMPR121:
        device = self._devices.get(address)
        if device is None:
            raise OSError(errno.ENODEV, "ENODEV")
        return device

    def readfrom_mem(self, address: int, register: int, n: int) -> bytes:
        return self._device(address).read(register, n)

    def readfrom_mem_into(self, address: int, register: int, buf: bytearray) -> None:
        buf[:] = self._device(address).read(register, len(buf))

    def writeto_mem(self, address: int, register: int, data: bytes) -> None:
        self._device(address).write(register, bytes(data))
