"""The messages of the sensor-bar protocol, as values, with their payload layouts.

Each message is a frozen dataclass with a one-byte ``KIND`` and a fixed big-endian layout
(docs/protocol.md is the reference; the two must agree, and a test checks the page's examples).
Constructing a message checks every field, so a bad value is refused where it is made (with the
field's name) rather than turning into a frame the other side rejects. Decoding accepts payloads
longer than the layout and ignores the extra bytes: that is how a later protocol revision can add
fields without breaking an older host.

Kinds 0x10-0x1F travel from the MCU to the host, 0x20-0x2F from the host to the MCU.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import ClassVar

from firmware_bridge.errors import FrameError

PROTOCOL_VERSION = 1
QUADRANTS = 4
ALL_QUADRANTS = 0xFF
MAX_DETAIL = 40

RESET_CAUSES = {0: "unknown", 1: "power-on", 2: "watchdog", 3: "commanded"}
ERROR_CODES = {
    1: "bad-frame",
    2: "unknown-command",
    3: "bad-payload",
    4: "bad-value",
    5: "sensor-fault",
    6: "firmware-fault",
}
FLAG_SENSOR_OK = 0x01
FLAG_HOST_SEEN = 0x02


def _check(name: str, value: int, low: int, high: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise FrameError(f"{name} must be an integer from {low} to {high}, not {value!r}")


def _check_mask(name: str, value: int) -> None:
    _check(name, value, 0, (1 << QUADRANTS) - 1)


class Message:
    """Base of every message: a kind byte, a layout, and packing to and from a payload."""

    KIND: ClassVar[int]
    LAYOUT: ClassVar[struct.Struct]

    def pack(self) -> bytes:
        raise NotImplementedError

    @classmethod
    def unpack(cls, payload: bytes) -> Message:
        raise NotImplementedError

    @classmethod
    def _fields(cls, payload: bytes) -> tuple[int, ...]:
        if len(payload) < cls.LAYOUT.size:
            raise FrameError(f"{cls.__name__} payload needs {cls.LAYOUT.size} bytes, "
                             f"got {len(payload)}")
        return cls.LAYOUT.unpack_from(payload)


# ---- MCU to host -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Hello(Message):
    """Sent by the MCU at boot and when the host speaks again after a silence.

    ``boot_id`` is random at every boot, so a changed id means the MCU was reset.
    """

    KIND: ClassVar[int] = 0x10
    LAYOUT: ClassVar[struct.Struct] = struct.Struct(">BBBBIBBH")

    protocol: int
    firmware: tuple[int, int, int]
    boot_id: int
    reset_cause: int = 0
    channels: int = QUADRANTS
    heartbeat_ms: int = 500

    def __post_init__(self) -> None:
        _check("protocol", self.protocol, 0, 255)
        if len(self.firmware) != 3:
            raise FrameError(f"firmware must be (major, minor, patch), not {self.firmware!r}")
        for part in self.firmware:
            _check("firmware version part", part, 0, 255)
        _check("boot_id", self.boot_id, 0, 0xFFFFFFFF)
        _check("reset_cause", self.reset_cause, 0, 255)
        _check("channels", self.channels, 0, 255)
        _check("heartbeat_ms", self.heartbeat_ms, 0, 0xFFFF)

    @property
    def firmware_version(self) -> str:
        return ".".join(str(p) for p in self.firmware)

    @property
    def reset_cause_name(self) -> str:
        return RESET_CAUSES.get(self.reset_cause, f"cause-{self.reset_cause}")

    def pack(self) -> bytes:
        return self.LAYOUT.pack(self.protocol, *self.firmware, self.boot_id, self.reset_cause,
                                self.channels, self.heartbeat_ms)

    @classmethod
    def unpack(cls, payload: bytes) -> Hello:
        p, a, b, c, boot, cause, ch, hb = cls._fields(payload)
        return cls(p, (a, b, c), boot, cause, ch, hb)


@dataclass(frozen=True)
class Heartbeat(Message):
    """The MCU's sign of life, with its clock, boot id and the debounced touch state."""

    KIND: ClassVar[int] = 0x11
    LAYOUT: ClassVar[struct.Struct] = struct.Struct(">QIBB")

    mcu_time_us: int
    boot_id: int
    touched: int = 0
    flags: int = FLAG_SENSOR_OK

    def __post_init__(self) -> None:
        _check("mcu_time_us", self.mcu_time_us, 0, 2**64 - 1)
        _check("boot_id", self.boot_id, 0, 0xFFFFFFFF)
        _check_mask("touched", self.touched)
        _check("flags", self.flags, 0, 255)

    def pack(self) -> bytes:
        return self.LAYOUT.pack(self.mcu_time_us, self.boot_id, self.touched, self.flags)

    @classmethod
    def unpack(cls, payload: bytes) -> Heartbeat:
        return cls(*cls._fields(payload))


@dataclass(frozen=True)
class TouchChange(Message):
    """A quadrant's debounced touch state changed.

    ``counter`` counts the quadrant's changes since boot (the first touch is 1), so an odd counter
    means active and a jump shows changes that were lost on the way.
    """

    KIND: ClassVar[int] = 0x12
    LAYOUT: ClassVar[struct.Struct] = struct.Struct(">BBQI")

    quadrant: int
    active: bool
    mcu_time_us: int
    counter: int

    def __post_init__(self) -> None:
        _check("quadrant", self.quadrant, 0, QUADRANTS - 1)
        if not isinstance(self.active, bool):
            raise FrameError(f"active must be a bool, not {self.active!r}")
        _check("mcu_time_us", self.mcu_time_us, 0, 2**64 - 1)
        _check("counter", self.counter, 0, 0xFFFFFFFF)

    def pack(self) -> bytes:
        return self.LAYOUT.pack(self.quadrant, int(self.active), self.mcu_time_us, self.counter)

    @classmethod
    def unpack(cls, payload: bytes) -> TouchChange:
        q, active, t, counter = cls._fields(payload)
        if active > 1:
            raise FrameError(f"active must be 0 or 1, not {active}")
        return cls(q, bool(active), t, counter)


@dataclass(frozen=True)
class ChannelStatus:
    """One quadrant's sensor settings and readings, as the MPR121 reports them (raw counts)."""

    touch_threshold: int
    release_threshold: int
    filtered: int = 0
    baseline: int = 0
    counter: int = 0

    LAYOUT: ClassVar[struct.Struct] = struct.Struct(">BBHHI")

    def __post_init__(self) -> None:
        _check("touch_threshold", self.touch_threshold, 0, 255)
        _check("release_threshold", self.release_threshold, 0, 255)
        _check("filtered", self.filtered, 0, 0xFFFF)
        _check("baseline", self.baseline, 0, 0xFFFF)
        _check("counter", self.counter, 0, 0xFFFFFFFF)


@dataclass(frozen=True)
class BarStatus(Message):
    """The MCU's answer to :class:`GetStatus` and to every accepted setting command."""

    KIND: ClassVar[int] = 0x13
    LAYOUT: ClassVar[struct.Struct] = struct.Struct(">BQBBB")

    request: int
    mcu_time_us: int
    touched: int
    flags: int
    debounce_ms: int
    channels: tuple[ChannelStatus, ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        _check("request", self.request, 0, 255)
        _check("mcu_time_us", self.mcu_time_us, 0, 2**64 - 1)
        _check_mask("touched", self.touched)
        _check("flags", self.flags, 0, 255)
        _check("debounce_ms", self.debounce_ms, 0, 255)
        if len(self.channels) != QUADRANTS:
            raise FrameError(f"status needs {QUADRANTS} channels, got {len(self.channels)}")

    def pack(self) -> bytes:
        head = self.LAYOUT.pack(self.request, self.mcu_time_us, self.touched, self.flags,
                                self.debounce_ms)
        return head + b"".join(
            ChannelStatus.LAYOUT.pack(c.touch_threshold, c.release_threshold, c.filtered,
                                      c.baseline, c.counter) for c in self.channels)

    @classmethod
    def unpack(cls, payload: bytes) -> BarStatus:
        size = cls.LAYOUT.size + QUADRANTS * ChannelStatus.LAYOUT.size
        if len(payload) < size:
            raise FrameError(f"BarStatus payload needs {size} bytes, got {len(payload)}")
        request, t, touched, flags, debounce = cls.LAYOUT.unpack_from(payload)
        channels = tuple(
            ChannelStatus(*ChannelStatus.LAYOUT.unpack_from(
                payload, cls.LAYOUT.size + i * ChannelStatus.LAYOUT.size))
            for i in range(QUADRANTS))
        return cls(request, t, touched, flags, debounce, channels)


@dataclass(frozen=True)
class Error(Message):
    """Something the MCU could not do: a bad command, a sensor fault, a crash on its way down."""

    KIND: ClassVar[int] = 0x14
    LAYOUT: ClassVar[struct.Struct] = struct.Struct(">BB")

    code: int
    request: int = 0
    detail: str = ""

    def __post_init__(self) -> None:
        _check("code", self.code, 0, 255)
        _check("request", self.request, 0, 255)
        if not self.detail.isascii() or len(self.detail) > MAX_DETAIL:
            raise FrameError(f"detail must be ASCII text of at most {MAX_DETAIL} characters")

    @property
    def code_name(self) -> str:
        return ERROR_CODES.get(self.code, f"error-{self.code}")

    def pack(self) -> bytes:
        return self.LAYOUT.pack(self.code, self.request) + self.detail.encode("ascii")

    @classmethod
    def unpack(cls, payload: bytes) -> Error:
        code, request = cls._fields(payload)
        detail = payload[cls.LAYOUT.size:cls.LAYOUT.size + MAX_DETAIL]
        return cls(code, request, detail.decode("ascii", "replace").replace("\ufffd", "?"))


# ---- host to MCU -------------------------------------------------------------------------------

@dataclass(frozen=True)
class HostHeartbeat(Message):
    """The host's sign of life; after a silence it also makes the MCU say :class:`Hello` again."""

    KIND: ClassVar[int] = 0x20
    LAYOUT: ClassVar[struct.Struct] = struct.Struct(">")

    def pack(self) -> bytes:
        return b""

    @classmethod
    def unpack(cls, payload: bytes) -> HostHeartbeat:
        return cls()


@dataclass(frozen=True)
class GetStatus(Message):
    """Ask for a :class:`BarStatus`; ``request`` is echoed so the answer can be matched."""

    KIND: ClassVar[int] = 0x21
    LAYOUT: ClassVar[struct.Struct] = struct.Struct(">B")

    request: int

    def __post_init__(self) -> None:
        _check("request", self.request, 0, 255)

    def pack(self) -> bytes:
        return self.LAYOUT.pack(self.request)

    @classmethod
    def unpack(cls, payload: bytes) -> GetStatus:
        return cls(*cls._fields(payload))


@dataclass(frozen=True)
class SetThresholds(Message):
    """Set the MPR121 touch and release thresholds of one quadrant (or 255: all of them).

    The MCU refuses ``touch <= release`` and zero thresholds with a ``bad-value`` error.
    """

    KIND: ClassVar[int] = 0x22
    LAYOUT: ClassVar[struct.Struct] = struct.Struct(">BBBB")

    request: int
    quadrant: int
    touch: int
    release: int

    def __post_init__(self) -> None:
        _check("request", self.request, 0, 255)
        if self.quadrant != ALL_QUADRANTS:
            _check("quadrant", self.quadrant, 0, QUADRANTS - 1)
        _check("touch", self.touch, 0, 255)
        _check("release", self.release, 0, 255)

    def pack(self) -> bytes:
        return self.LAYOUT.pack(self.request, self.quadrant, self.touch, self.release)

    @classmethod
    def unpack(cls, payload: bytes) -> SetThresholds:
        return cls(*cls._fields(payload))


@dataclass(frozen=True)
class SetDebounce(Message):
    """Set how long (ms) a quadrant's new state must hold before it is reported."""

    KIND: ClassVar[int] = 0x23
    LAYOUT: ClassVar[struct.Struct] = struct.Struct(">BB")

    request: int
    debounce_ms: int

    def __post_init__(self) -> None:
        _check("request", self.request, 0, 255)
        _check("debounce_ms", self.debounce_ms, 0, 255)

    def pack(self) -> bytes:
        return self.LAYOUT.pack(self.request, self.debounce_ms)

    @classmethod
    def unpack(cls, payload: bytes) -> SetDebounce:
        return cls(*cls._fields(payload))


@dataclass(frozen=True)
class Reboot(Message):
    """Reset the MCU; with ``maintenance`` it comes back with its REPL free for mpremote."""

    KIND: ClassVar[int] = 0x24
    LAYOUT: ClassVar[struct.Struct] = struct.Struct(">BB")

    request: int
    maintenance: bool = False

    def __post_init__(self) -> None:
        _check("request", self.request, 0, 255)
        if not isinstance(self.maintenance, bool):
            raise FrameError(f"maintenance must be a bool, not {self.maintenance!r}")

    def pack(self) -> bytes:
        return self.LAYOUT.pack(self.request, int(self.maintenance))

    @classmethod
    def unpack(cls, payload: bytes) -> Reboot:
        request, mode = cls._fields(payload)
        if mode > 1:
            raise FrameError(f"maintenance must be 0 or 1, not {mode}")
        return cls(request, bool(mode))


@dataclass(frozen=True)
class Unknown(Message):
    """A well-formed frame of a kind this host does not know (from a newer protocol revision)."""

    kind: int
    payload: bytes

    def pack(self) -> bytes:
        return self.payload


FROM_MCU: tuple[type[Message], ...] = (Hello, Heartbeat, TouchChange, BarStatus, Error)
FROM_HOST: tuple[type[Message], ...] = (HostHeartbeat, GetStatus, SetThresholds, SetDebounce,
                                        Reboot)
BY_KIND: dict[int, type[Message]] = {cls.KIND: cls for cls in FROM_MCU + FROM_HOST}
