# Microseconds since boot that never wrap (MicroPython and CPython).
#
# MicroPython's ticks_us() wraps (every 2**30 us, about 18 minutes, on the Pico), and the protocol
# stamps events with a 64-bit time since boot, so the firmware folds tick differences into one
# growing count. now() must be called more often than half a tick period; the main loop does.


class McuClock:
    """Extends a ticks source (anything with ticks_us() and ticks_diff(), such as MicroPython's
    time module) into microseconds since the clock was made."""

    def __init__(self, ticks):
        self._ticks = ticks
        self._last = ticks.ticks_us()
        self.us = 0

    def now(self):
        t = self._ticks.ticks_us()
        step = self._ticks.ticks_diff(t, self._last)
        if step > 0:
            self.us += step
        self._last = t
        return self.us
