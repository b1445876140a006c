# Driver for the NXP MPR121 capacitive touch controller on I2C (MicroPython and CPython).
#
# Takes any object with machine.I2C's readfrom_mem/writeto_mem, so the simulator can put a model
# of the chip behind the same calls. The chip only accepts configuration writes in stop mode
# (ECR = 0), which is why every settings change stops it, writes, and starts it again.

ADDRESS = 0x5A
TOUCH_STATUS = 0x00
FILTERED = 0x04
BASELINE = 0x1E
TOUCH_THRESHOLD = 0x41  # electrode n: 0x41 + 2n; its release threshold follows at 0x42 + 2n
DEBOUNCE = 0x5B
CONFIG1 = 0x5C
CONFIG2 = 0x5D
ECR = 0x5E
SOFT_RESET = 0x80
SOFT_RESET_VALUE = 0x63
CONFIG2_AFTER_RESET = 0x24
OVER_CURRENT = 0x8000

# Baseline filter settings from NXP's application note AN3944 (rising, falling, touched).
FILTER = (
    (0x2B, 0x01), (0x2C, 0x01), (0x2D, 0x0E), (0x2E, 0x00),
    (0x2F, 0x01), (0x30, 0x05), (0x31, 0x01), (0x32, 0x00),
    (0x33, 0x00), (0x34, 0x00), (0x35, 0x00),
)


class MPR121:
    """The first `electrodes` electrodes of one MPR121; electrode n is quadrant n."""

    def __init__(self, i2c, address=ADDRESS, electrodes=4):
        self.i2c = i2c
        self.address = address
        self.electrodes = electrodes
        self._mask = (1 << electrodes) - 1

    def _write(self, register, value):
        self.i2c.writeto_mem(self.address, register, bytes((value,)))

    def _read(self, register, n):
        return self.i2c.readfrom_mem(self.address, register, n)

    def setup(self, thresholds):
        """Reset the chip and start it with thresholds [(touch, release), ...] per electrode.

        Raises OSError when nothing answers at the address or the chip is not an MPR121.
        """
        self._write(SOFT_RESET, SOFT_RESET_VALUE)
        self._write(ECR, 0x00)
        if self._read(CONFIG2, 1)[0] != CONFIG2_AFTER_RESET:
            raise OSError("device at 0x%02x is not an MPR121" % self.address)
        for register, value in FILTER:
            self._write(register, value)
        self._write_thresholds(thresholds)
        self._write(DEBOUNCE, 0x00)
        self._write(CONFIG1, 0x10)  # 16 uA charge current, 6 samples for the first filter
        self._write(CONFIG2, 0x20)  # 0.5 us charge time, 4 samples, 1 ms sample interval
        self._run()

    def _run(self):
        # CL = 10: baseline tracking starts from the first readings (5 high bits); ELE = electrodes.
        self._write(ECR, 0x80 | self.electrodes)

    def _write_thresholds(self, thresholds):
        for n in range(self.electrodes):
            touch, release = thresholds[n]
            self._write(TOUCH_THRESHOLD + 2 * n, touch)
            self._write(TOUCH_THRESHOLD + 2 * n + 1, release)

    def set_thresholds(self, thresholds):
        self._write(ECR, 0x00)
        self._write_thresholds(thresholds)
        self._run()

    def touched(self):
        """Bit n set while electrode n is touched, as the chip judges it."""
        data = self._read(TOUCH_STATUS, 2)
        status = data[0] | (data[1] << 8)
        if status & OVER_CURRENT:
            raise OSError("MPR121 reports over-current: check the REXT resistor")
        return status & self._mask

    def readings(self):
        """(filtered, baseline) lists of raw counts, one per electrode (10-bit values)."""
        data = self._read(FILTERED, 2 * self.electrodes)
        filtered = [data[2 * n] | ((data[2 * n + 1] & 0x03) << 8) for n in range(self.electrodes)]
        base = self._read(BASELINE, self.electrodes)
        return filtered, [b << 2 for b in base]
