# Frames of the sensor-bar protocol, MCU side (docs/protocol.md).
#
# Written for MicroPython and CPython alike: no typing, no dataclasses, nothing a Pico lacks.
# The host has its own codec (firmware_bridge.codec); a test holds the two byte-identical.
#
#   7E | stuffed( LEN SEQ KIND PAYLOAD... CRC_HI CRC_LO ) | 7E
#
# CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) over LEN SEQ KIND PAYLOAD, high byte first.
# Stuffing: each of 01 02 03 04 05 7D 7E becomes 7D, byte ^ 0x20.

FLAG = 0x7E
ESCAPE = 0x7D
MIN_BODY = 5
MAX_BODY = 64
MAX_PAYLOAD = MAX_BODY - MIN_BODY


def _needs_escape(b):
    return b == FLAG or b == ESCAPE or 0x01 <= b <= 0x05


def _table():
    table = []
    for i in range(256):
        crc = i << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_CRC_TABLE = _table()


def crc16(data, crc=0xFFFF):
    table = _CRC_TABLE
    for b in data:
        crc = ((crc << 8) & 0xFF00) ^ table[(crc >> 8) ^ b]
    return crc


def encode(seq, kind, payload):
    """One whole frame (flags included) as bytes."""
    if len(payload) > MAX_PAYLOAD:
        raise ValueError("payload too long")
    body = bytearray(3 + len(payload) + 2)
    body[0] = len(body)
    body[1] = seq & 0xFF
    body[2] = kind
    body[3:3 + len(payload)] = payload
    crc = crc16(memoryview(body)[:len(body) - 2])
    body[-2] = crc >> 8
    body[-1] = crc & 0xFF
    out = bytearray()
    out.append(FLAG)
    for b in body:
        if _needs_escape(b):
            out.append(ESCAPE)
            out.append(b ^ 0x20)
        else:
            out.append(b)
    out.append(FLAG)
    return bytes(out)


class Deframer:
    """Collects frames from bytes fed one chunk at a time.

    feed(data) returns a list of (seq, kind, payload) for the good frames completed by data.
    Bad frames are counted (bad_crc, malformed) and dropped; the next flag starts afresh, so one
    damaged frame never costs the next.
    """

    def __init__(self):
        self._buf = bytearray()
        self._escaped = False
        self._broken = False
        self.frames = 0
        self.bad_crc = 0
        self.malformed = 0

    def feed(self, data):
        out = []
        for b in data:
            if b == FLAG:
                if self._buf or self._broken or self._escaped:
                    frame = self._finish()
                    if frame is not None:
                        out.append(frame)
                self._buf = bytearray()
                self._escaped = False
                self._broken = False
            elif self._broken:
                continue
            elif self._escaped:
                self._escaped = False
                original = b ^ 0x20
                if _needs_escape(original):
                    self._buf.append(original)
                else:
                    self._broken = True
            elif b == ESCAPE:
                self._escaped = True
            elif 0x01 <= b <= 0x05:
                self._broken = True
            else:
                self._buf.append(b)
                if len(self._buf) > MAX_BODY:
                    self._broken = True
        return out

    def _finish(self):
        body = self._buf
        if self._broken or self._escaped or len(body) < MIN_BODY or body[0] != len(body):
            self.malformed += 1
            return None
        crc = (body[-2] << 8) | body[-1]
        if crc16(memoryview(body)[:len(body) - 2]) != crc:
            self.bad_crc += 1
            return None
        self.frames += 1
        return (body[1], body[2], bytes(body[3:len(body) - 2]))
