"""Frames of the sensor-bar protocol: bytes to messages and back, with no I/O.

A frame on the wire (docs/protocol.md has the full story)::

    7E | stuffed( LEN  SEQ  KIND  PAYLOAD...  CRC_HI  CRC_LO ) | 7E

``LEN`` counts the unstuffed bytes from ``LEN`` to the CRC; the CRC is CRC-16/CCITT-FALSE
(``binascii.crc_hqx(data, 0xFFFF)``) over ``LEN SEQ KIND PAYLOAD``. Stuffing replaces each byte of
``01 02 03 04 05 7D 7E`` with ``7D, byte ^ 0x20``, so the flag byte only ever marks frame edges and
the MicroPython REPL's control keys (Ctrl-A..Ctrl-E) never cross the wire.

Because every frame starts *and* ends with a flag, garbage before a frame is cut off by that
frame's own opening flag: the decoder loses only the damaged bytes, never the next good frame.
"""

from __future__ import annotations

import binascii
import re
from dataclasses import dataclass

from firmware_bridge.errors import FrameError
from firmware_bridge.messages import BY_KIND, Message, Unknown

FLAG = 0x7E
ESCAPE = 0x7D
ESCAPE_XOR = 0x20
ESCAPED = bytes([0x01, 0x02, 0x03, 0x04, 0x05, ESCAPE, FLAG])
CRC_INIT = 0xFFFF
MIN_BODY = 5
MAX_BODY = 64
MAX_PAYLOAD = MAX_BODY - MIN_BODY
# Every byte of a body may be stuffed: anything longer between two flags is not a frame.
MAX_STUFFED = 2 * MAX_BODY

_FLAG = bytes([FLAG])
_ESCAPE = bytes([ESCAPE])
_RAW_FORBIDDEN = re.compile(b"[\x01-\x05]")
_UNESCAPE = {b ^ ESCAPE_XOR: bytes([b]) for b in ESCAPED}


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE: polynomial 0x1021, initial value 0xFFFF, no reflection, no final xor."""
    return binascii.crc_hqx(data, CRC_INIT)


def stuff(body: bytes) -> bytes:
    out = body.replace(_ESCAPE, bytes([ESCAPE, ESCAPE ^ ESCAPE_XOR]))
    for b in ESCAPED:
        if b != ESCAPE:
            out = out.replace(bytes([b]), bytes([ESCAPE, b ^ ESCAPE_XOR]))
    return out


def unstuff(segment: bytes) -> bytes | None:
    """The body inside a stuffed segment, or None when the segment breaks the stuffing rules
    (a raw control byte, an escape at the end, an escape of a byte that needs none)."""
    if _RAW_FORBIDDEN.search(segment):
        return None
    if ESCAPE not in segment:
        return segment
    pieces = segment.split(_ESCAPE)
    out = [pieces[0]]
    for piece in pieces[1:]:
        if not piece:
            return None
        original = _UNESCAPE.get(piece[0])
        if original is None:
            return None
        out.append(original)
        out.append(piece[1:])
    return b"".join(out)


def kind_of(message: Message) -> int:
    return message.kind if isinstance(message, Unknown) else message.KIND


def encode(message: Message, seq: int) -> bytes:
    """One complete frame, flags included, ready to write to the port."""
    if not 0 <= seq <= 255:
        raise FrameError(f"sequence number must be 0..255, not {seq}")
    payload = message.pack()
    if len(payload) > MAX_PAYLOAD:
        raise FrameError(f"{type(message).__name__} payload of {len(payload)} bytes is longer "
                         f"than the {MAX_PAYLOAD} a frame can carry")
    head = bytes([len(payload) + MIN_BODY, seq, kind_of(message)]) + payload
    return _FLAG + stuff(head + crc16(head).to_bytes(2, "big")) + _FLAG


@dataclass(frozen=True)
class Frame:
    """A good frame: its sequence number and the message it carried."""

    seq: int
    message: Message


@dataclass(frozen=True)
class DecoderStats:
    """What the decoder has seen so far.

    ``bytes_skipped`` counts every byte (flags aside) that did not end up in a good frame;
    ``bad_crc`` the segments of the right length whose CRC did not match; ``malformed`` the other
    rejected segments (too long, broken stuffing, wrong length, a payload too short for its kind),
    each once however the reads split it;
    ``unknown`` the good frames of a kind this decoder does not know (they are still delivered).
    """

    frames: int = 0
    bad_crc: int = 0
    malformed: int = 0
    unknown: int = 0
    bytes_skipped: int = 0


class Decoder:
    """Turns a byte stream, fed in pieces of any size, into :class:`Frame` values.

    It holds only the bytes of the frame in progress, so it never grows past a frame's size
    whatever garbage it is fed.
    """

    def __init__(self) -> None:
        self._pending = b""
        self._discarding = False
        self._frames = self._bad_crc = self._malformed = self._unknown = self._skipped = 0

    def stats(self) -> DecoderStats:
        return DecoderStats(self._frames, self._bad_crc, self._malformed, self._unknown,
                            self._skipped)

    def feed(self, data: bytes) -> list[Frame]:
        parts = (self._pending + bytes(data)).split(_FLAG)
        self._pending = parts.pop()
        frames: list[Frame] = []
        for i, segment in enumerate(parts):
            if i == 0 and self._discarding:
                # The end of a segment already found too long: one malformed segment in all,
                # as it would be had it come in one read.
                self._reject(segment)
                self._discarding = False
            elif segment:
                frame = self._segment(segment)
                if frame is not None:
                    frames.append(frame)
        if parts:
            self._discarding = False
        if len(self._pending) > MAX_STUFFED:
            self._skipped += len(self._pending)
            self._pending = b""
            self._discarding = True
        return frames

    def _reject(self, segment: bytes) -> None:
        self._malformed += 1
        self._skipped += len(segment)

    def _segment(self, segment: bytes) -> Frame | None:
        if len(segment) > MAX_STUFFED:
            self._reject(segment)
            return None
        body = unstuff(segment)
        if body is None or not MIN_BODY <= len(body) <= MAX_BODY or body[0] != len(body):
            self._reject(segment)
            return None
        if crc16(body[:-2]) != int.from_bytes(body[-2:], "big"):
            self._bad_crc += 1
            self._skipped += len(segment)
            return None
        seq, kind, payload = body[1], body[2], body[3:-2]
        cls = BY_KIND.get(kind)
        if cls is None:
            self._unknown += 1
            self._frames += 1
            return Frame(seq, Unknown(kind, payload))
        try:
            message = cls.unpack(payload)
        except FrameError:
            self._reject(segment)
            return None
        self._frames += 1
        return Frame(seq, message)


def decode_all(data: bytes) -> list[Frame]:
    """Every good frame in a complete byte string (a convenience for tests and tools)."""
    decoder = Decoder()
    return decoder.feed(data + _FLAG)
