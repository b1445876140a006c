# Debouncing of the four touch channels (MicroPython and CPython).
#
# The MPR121 already applies its own thresholds; this adds a hold time so a hand brushing the
# shooting line, or a glitch on one sample, does not report a shot. A quadrant's new state is
# reported once it has been seen continuously for debounce_us, and is stamped with the time it was
# first seen: that instant is when the player touched the line, which is what the host wants.


class Debouncer:
    """Reported touch state of each channel, with a change counter per channel."""

    def __init__(self, channels=4, debounce_us=20000):
        self.channels = channels
        self.debounce_us = debounce_us
        self.state = 0
        self.counters = [0] * channels
        self._since = [None] * channels

    def update(self, raw, now_us):
        """Feed one raw reading (a bit mask) taken at now_us.

        Returns the changes it completes, each (channel, active, time_us, counter).
        """
        changes = []
        for ch in range(self.channels):
            bit = 1 << ch
            if (raw & bit) == (self.state & bit):
                self._since[ch] = None
                continue
            since = self._since[ch]
            if since is None:
                since = self._since[ch] = now_us
            if now_us - since >= self.debounce_us:
                self.state ^= bit
                self.counters[ch] = (self.counters[ch] + 1) & 0xFFFFFFFF
                self._since[ch] = None
                changes.append((ch, bool(raw & bit), since, self.counters[ch]))
        return changes
