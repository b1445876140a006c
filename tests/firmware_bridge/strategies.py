"""Hypothesis strategies for every message of the sensor-bar protocol, and a few examples."""

from hypothesis import strategies as st

from firmware_bridge.messages import (
    ALL_QUADRANTS,
    BarStatus,
    ChannelStatus,
    Error,
    GetStatus,
    Heartbeat,
    Hello,
    HostHeartbeat,
    Reboot,
    SetDebounce,
    SetThresholds,
    TouchChange,
    Unknown,
)

u8 = st.integers(0, 255)
u16 = st.integers(0, 0xFFFF)
u32 = st.integers(0, 0xFFFFFFFF)
u64 = st.integers(0, 2**64 - 1)
mask = st.integers(0, 15)
quadrant = st.integers(0, 3)

channel = st.builds(ChannelStatus, u8, u8, u16, u16, u32)

hello = st.builds(Hello, u8, st.tuples(u8, u8, u8), u32, u8, u8, u16)
heartbeat = st.builds(Heartbeat, u64, u32, mask, u8)
touch = st.builds(TouchChange, quadrant, st.booleans(), u64, u32)
status = st.builds(BarStatus, u8, u64, mask, u8, u8, st.tuples(channel, channel, channel, channel))
error = st.builds(Error, u8, u8, st.text(st.characters(min_codepoint=32, max_codepoint=126),
                                         max_size=40))
host_heartbeat = st.just(HostHeartbeat())
get_status = st.builds(GetStatus, u8)
set_thresholds = st.builds(SetThresholds, u8, st.one_of(quadrant, st.just(ALL_QUADRANTS)), u8, u8)
set_debounce = st.builds(SetDebounce, u8, u8)
reboot = st.builds(Reboot, u8, st.booleans())

from_mcu = st.one_of(hello, heartbeat, touch, status, error)
from_host = st.one_of(host_heartbeat, get_status, set_thresholds, set_debounce, reboot)
known = st.one_of(from_mcu, from_host)
unknown = st.builds(Unknown, st.integers(0x30, 0xFF), st.binary(max_size=59))
message = st.one_of(known, unknown)

CHANNELS = tuple(ChannelStatus(12, 6, 700 + i, 720, i) for i in range(4))
EXAMPLES = (
    Hello(1, (1, 0, 0), 0xDEADBEEF, 1, 4, 500),
    Heartbeat(1_500_000, 0xDEADBEEF, 0b0101, 3),
    TouchChange(2, True, 1_234_567, 1),
    TouchChange(2, False, 1_734_567, 2),
    BarStatus(7, 2_000_000, 0b0100, 3, 20, CHANNELS),
    Error(4, 9, "need 0 < release < touch, got 5/10"),
    HostHeartbeat(),
    GetStatus(7),
    SetThresholds(9, ALL_QUADRANTS, 20, 10),
    SetDebounce(3, 30),
    Reboot(5, True),
    Unknown(0x3F, b"\x01\x7e\x7d later"),
)
