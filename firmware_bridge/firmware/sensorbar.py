# The sensor bar's main logic (MicroPython and CPython): read the touch channels, debounce,
# report changes, heartbeat, and obey the host. docs/protocol.md is the reference for every byte.
#
# Everything the Pico provides comes in from outside (the serial port, the sensor, the ticks
# source, the watchdog, the reset), so that pico.py wires the real machine to it and the
# simulator wires its stand-ins; no line here knows which one it is running on.

import struct

from .clock import McuClock
from .debounce import Debouncer
from .framing import Deframer, encode

FIRMWARE = (1, 0, 1)
PROTOCOL = 1
CHANNELS = 4
ALL = 0xFF

HELLO = 0x10
HEARTBEAT = 0x11
TOUCH = 0x12
STATUS = 0x13
ERROR = 0x14
HOST_HEARTBEAT = 0x20
GET_STATUS = 0x21
SET_THRESHOLDS = 0x22
SET_DEBOUNCE = 0x23
REBOOT = 0x24

ERR_BAD_FRAME = 1
ERR_UNKNOWN_COMMAND = 2
ERR_BAD_PAYLOAD = 3
ERR_BAD_VALUE = 4
ERR_SENSOR_FAULT = 5
ERR_FIRMWARE_FAULT = 6

FLAG_SENSOR_OK = 0x01
FLAG_HOST_SEEN = 0x02

CAUSE_UNKNOWN = 0
CAUSE_POWER_ON = 1
CAUSE_WATCHDOG = 2
CAUSE_COMMANDED = 3

DEFAULT_THRESHOLDS = (12, 6)
MAX_DETAIL = 40
SENSOR_RETRY_US = 1000000


class Firmware:
    """One boot of the firmware. Call service() in a loop, every millisecond or so.

    port: read() -> bytes available now (maybe empty), write(bytes).
    sensor: setup(thresholds), set_thresholds(thresholds), touched() -> mask,
            readings() -> (filtered, baseline); raises OSError when the sensor fails.
    ticks: ticks_us() and ticks_diff(a, b), as MicroPython's time module.
    watchdog: feed(), or None. reboot: reboot(maintenance) -> does not return on a Pico.
    """

    def __init__(self, port, sensor, ticks, watchdog=None, boot_id=0, reset_cause=CAUSE_UNKNOWN,
                 reboot=None, heartbeat_ms=500, debounce_ms=20, poll_ms=2, host_timeout_ms=2000):
        self.port = port
        self.sensor = sensor
        self.watchdog = watchdog
        self.boot_id = boot_id & 0xFFFFFFFF
        self.reset_cause = reset_cause
        self.reboot = reboot
        self.heartbeat_us = heartbeat_ms * 1000
        self.heartbeat_ms = heartbeat_ms
        self.poll_us = poll_ms * 1000
        self.host_timeout_us = host_timeout_ms * 1000
        self.clock = McuClock(ticks)
        self.debouncer = Debouncer(CHANNELS, debounce_ms * 1000)
        self.debounce_ms = debounce_ms
        self.deframer = Deframer()
        self.thresholds = [DEFAULT_THRESHOLDS] * CHANNELS
        self.seq = 0
        self.sensor_ok = False
        self.host_seen_us = None
        self.frames_sent = 0
        self._bad_seen = 0
        self._fault_reported = False
        now = self.clock.now()
        self._next_poll = now
        self._next_heartbeat = now + self.heartbeat_us
        self._next_sensor_retry = now
        self.hello()
        self._start_sensor(now)

    # ---- sending ----

    def send(self, kind, payload=b""):
        self.port.write(encode(self.seq, kind, payload))
        self.seq = (self.seq + 1) & 0xFF
        self.frames_sent += 1

    def hello(self):
        self.send(HELLO, struct.pack(">BBBBIBBH", PROTOCOL, FIRMWARE[0], FIRMWARE[1],
                                     FIRMWARE[2], self.boot_id, self.reset_cause, CHANNELS,
                                     self.heartbeat_ms))

    def error(self, code, request=0, detail=""):
        out = bytearray(struct.pack(">BB", code, request))
        for c in detail.encode()[:MAX_DETAIL]:
            out.append(c if 0x20 <= c < 0x7F else 0x3F)
        self.send(ERROR, bytes(out))

    def flags(self, now):
        flags = FLAG_SENSOR_OK if self.sensor_ok else 0
        if self.host_seen_us is not None and now - self.host_seen_us <= self.host_timeout_us:
            flags |= FLAG_HOST_SEEN
        return flags

    def heartbeat(self, now):
        self.send(HEARTBEAT, struct.pack(">QIBB", now, self.boot_id, self.debouncer.state,
                                         self.flags(now)))

    def status(self, request, now):
        try:
            filtered, baseline = self.sensor.readings()
        except OSError as exc:
            self._sensor_failed(exc)
            filtered = baseline = [0] * CHANNELS
        out = bytearray(struct.pack(">BQBBB", request, now, self.debouncer.state,
                                    self.flags(now), self.debounce_ms))
        for ch in range(CHANNELS):
            touch, release = self.thresholds[ch]
            out.extend(struct.pack(">BBHHI", touch, release, filtered[ch] & 0xFFFF,
                                   baseline[ch] & 0xFFFF, self.debouncer.counters[ch]))
        self.send(STATUS, bytes(out))

    # ---- the loop ----

    def service(self):
        now = self.clock.now()
        if self.watchdog is not None:
            self.watchdog.feed()
        data = self.port.read()
        if data:
            for seq, kind, payload in self.deframer.feed(data):
                self.command(seq, kind, payload, now)
            bad = self.deframer.bad_crc + self.deframer.malformed
            if bad != self._bad_seen:
                self.error(ERR_BAD_FRAME, 0, "%d bad frame(s) from host" % (bad - self._bad_seen))
                self._bad_seen = bad
        if now >= self._next_poll:
            self._next_poll = now + self.poll_us
            self.poll(now)
        if now >= self._next_heartbeat:
            self._next_heartbeat = now + self.heartbeat_us
            self.heartbeat(now)

    def poll(self, now):
        if not self.sensor_ok:
            if now < self._next_sensor_retry:
                return
            self._start_sensor(now)
            if not self.sensor_ok:
                return
        try:
            raw = self.sensor.touched()
        except OSError as exc:
            self._sensor_failed(exc)
            return
        for ch, active, since, counter in self.debouncer.update(raw, now):
            self.send(TOUCH, struct.pack(">BBQI", ch, 1 if active else 0, since, counter))

    def _start_sensor(self, now):
        self._next_sensor_retry = now + SENSOR_RETRY_US
        try:
            self.sensor.setup(self.thresholds)
        except OSError as exc:
            self._sensor_failed(exc)
            return
        self.sensor_ok = True
        self._fault_reported = False

    def _sensor_failed(self, exc):
        # One error per outage: the heartbeat's flags tell the host the rest of the story.
        if not self._fault_reported:
            self.error(ERR_SENSOR_FAULT, 0, "sensor: %s" % (exc,))
            self._fault_reported = True
        self.sensor_ok = False

    # ---- commands from the host ----

    def command(self, seq, kind, payload, now):
        # A host numbers its first frame after opening the port 0: it hears a hello even when
        # another host spoke a moment before (a daemon restarted at once).
        if seq == 0 or self.host_seen_us is None or \
                now - self.host_seen_us > self.host_timeout_us:
            self.hello()
        self.host_seen_us = now
        request = payload[0] if payload else 0
        if kind == HOST_HEARTBEAT:
            return
        if kind == GET_STATUS:
            if len(payload) < 1:
                return self.error(ERR_BAD_PAYLOAD, 0, "get-status needs 1 byte")
            return self.status(request, now)
        if kind == SET_THRESHOLDS:
            if len(payload) < 4:
                return self.error(ERR_BAD_PAYLOAD, request, "set-thresholds needs 4 bytes")
            return self.set_thresholds(request, payload[1], payload[2], payload[3], now)
        if kind == SET_DEBOUNCE:
            if len(payload) < 2:
                return self.error(ERR_BAD_PAYLOAD, request, "set-debounce needs 2 bytes")
            self.debounce_ms = payload[1]
            self.debouncer.debounce_us = payload[1] * 1000
            return self.status(request, now)
        if kind == REBOOT:
            if len(payload) < 2 or payload[1] > 1:
                return self.error(ERR_BAD_PAYLOAD, request, "reboot needs request and mode 0/1")
            if self.reboot is None:
                return self.error(ERR_UNKNOWN_COMMAND, request, "reboot not available")
            return self.reboot(payload[1] == 1)
        self.error(ERR_UNKNOWN_COMMAND, 0, "unknown command kind 0x%02x" % kind)

    def set_thresholds(self, request, quadrant, touch, release, now):
        if quadrant != ALL and quadrant >= CHANNELS:
            return self.error(ERR_BAD_VALUE, request, "quadrant %d is not 0-3 or 255" % quadrant)
        if not 0 < release < touch:
            return self.error(ERR_BAD_VALUE, request,
                              "need 0 < release < touch, got %d/%d" % (touch, release))
        chosen = range(CHANNELS) if quadrant == ALL else (quadrant,)
        for ch in chosen:
            self.thresholds[ch] = (touch, release)
        if self.sensor_ok:
            try:
                self.sensor.set_thresholds(self.thresholds)
            except OSError as exc:
                self._sensor_failed(exc)
        self.status(request, now)

    def fault(self, exc):
        """Report an uncaught exception on the way down (the watchdog resets the board next)."""
        try:
            self.error(ERR_FIRMWARE_FAULT, 0, "%s: %s" % (type(exc).__name__, exc))
        except Exception:  # the port itself may be what failed
            pass
