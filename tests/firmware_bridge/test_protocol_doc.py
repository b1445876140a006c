"""docs/protocol.md must stay true: its hex frames are what the codec produces, its table of
kinds and payload sizes is the codec's, and each example decodes back to its message."""

import re
from pathlib import Path

import pytest

from firmware_bridge.codec import Frame, crc16, decode_all, encode
from firmware_bridge.firmware import framing
from firmware_bridge.messages import (
    BY_KIND,
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
)

PAGE = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()
CHANNELS = tuple(ChannelStatus(12, 6, 700 + i, 720, c) for i, c in enumerate((2, 1, 0, 0)))
EXAMPLES = [
    (0, Hello(1, (1, 0, 0), 0x5EED1234, 1, 4, 500)),
    (1, Heartbeat(500_000, 0x5EED1234, 0, 3)),
    (2, TouchChange(2, True, 1_234_567, 1)),
    (3, TouchChange(2, False, 1_734_567, 2)),
    (4, BarStatus(7, 2_000_000, 0b0100, 3, 20, CHANNELS)),
    (5, Error(4, 9, "need 0 < release < touch")),
    (0, HostHeartbeat()),
    (1, GetStatus(7)),
    (2, SetThresholds(9, 255, 20, 10)),
    (3, SetDebounce(3, 30)),
    (4, Reboot(5, True)),
]


def hex_of(data: bytes) -> str:
    return data.hex(" ").upper()


def code_text() -> str:
    blocks = re.findall(r"```[a-z]*\n(.*?)```", PAGE, re.S)
    return " ".join(" ".join(b.split()) for b in blocks)


@pytest.mark.parametrize("seq, message", EXAMPLES, ids=lambda v: type(v).__name__)
def test_every_example_frame_on_the_page_is_exact(seq, message):
    frame = encode(message, seq)
    assert hex_of(frame) in code_text()
    assert decode_all(frame) == [Frame(seq, message)]


def test_the_page_shows_an_example_of_every_kind():
    assert {type(m).KIND for _, m in EXAMPLES} == set(BY_KIND)


def test_the_kind_table_matches_the_codec():
    rows = re.findall(r"^\| `0x([0-9A-F]{2})` \| ([a-z ]+) \| (MCU|host) -> (?:MCU|host) \| "
                      r"([0-9+. ]+) \|", PAGE, re.M)
    assert {int(k, 16) for k, *_ in rows} == set(BY_KIND)
    for kind, _, _, size in rows:
        cls = BY_KIND[int(kind, 16)]
        expected = BarStatus.LAYOUT.size + 4 * ChannelStatus.LAYOUT.size if cls is BarStatus \
            else cls.LAYOUT.size
        assert int(size.split()[0]) == expected, cls.__name__


def test_the_page_states_the_crc_check_value_and_the_firmware_agrees():
    check = crc16(b"123456789")
    assert f"`0x{check:04X}`" in PAGE
    assert framing.crc16(b"123456789") == check
