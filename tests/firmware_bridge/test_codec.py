import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from firmware_bridge.codec import (
    FLAG,
    MAX_STUFFED,
    Decoder,
    DecoderStats,
    Frame,
    crc16,
    decode_all,
    encode,
    stuff,
    unstuff,
)
from firmware_bridge.errors import BridgeError, FrameError
from firmware_bridge.messages import (
    BY_KIND,
    BarStatus,
    ChannelStatus,
    Error,
    Heartbeat,
    Hello,
    SetThresholds,
    TouchChange,
    Unknown,
)
from rules.errors import CrokiscoreError
from tests.firmware_bridge import strategies as s


def test_crc_is_ccitt_false_with_its_published_check_value():
    assert crc16(b"123456789") == 0x29B1


def test_every_kind_has_an_example_and_each_round_trips():
    kinds = {type(m).KIND for m in s.EXAMPLES if not isinstance(m, Unknown)}
    assert kinds == set(BY_KIND)
    for seq, message in enumerate(s.EXAMPLES):
        assert decode_all(encode(message, seq)) == [Frame(seq, message)]


def test_a_frame_never_carries_a_repl_control_key_or_a_stray_flag():
    message = Unknown(0x40, bytes(range(1, 6)) + b"\x7d\x7e" * 10)
    frame = encode(message, 3)
    assert frame[0] == FLAG and frame[-1] == FLAG
    inner = frame[1:-1]
    assert FLAG not in inner
    assert not any(b in inner for b in (1, 2, 3, 4, 5))
    assert decode_all(frame) == [Frame(3, message)]


def test_a_known_frame_in_bytes():
    # LEN=6 SEQ=0 KIND=0x21 request=1; the request byte 0x01 (Ctrl-A) goes stuffed as 7D 21.
    crc = crc16(bytes([6, 0, 0x21, 1]))
    assert crc == 0x86AF
    assert encode(BY_KIND[0x21](1), 0) == bytes.fromhex("7E 06 00 21 7D 21 86 AF 7E")
    assert stuff(bytes([6, 0, 0x21, 1, 0x86, 0xAF])) == bytes.fromhex("06 00 21 7D 21 86 AF")


@pytest.mark.parametrize("bad, name", [
    (lambda: TouchChange(4, True, 0, 1), "quadrant"),
    (lambda: TouchChange(0, 1, 0, 1), "active"),
    (lambda: Heartbeat(-1, 0), "mcu_time_us"),
    (lambda: Hello(1, (1, 0), 0), "firmware"),
    (lambda: SetThresholds(1, 7, 20, 10), "quadrant"),
    (lambda: Error(1, 0, "é"), "ASCII"),
    (lambda: BarStatus(0, 0, 0, 0, 0, ()), "channels"),
])
def test_bad_fields_are_refused_by_name(bad, name):
    with pytest.raises(FrameError, match=name) as info:
        bad()
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, BridgeError)
    assert isinstance(info.value, CrokiscoreError)


def test_bad_sequence_and_oversized_payload_are_refused():
    with pytest.raises(FrameError, match="sequence"):
        encode(Heartbeat(0, 0), 256)
    with pytest.raises(FrameError, match="longer"):
        encode(Unknown(0x40, bytes(60)), 0)


def test_decoding_ignores_extra_payload_bytes_from_a_later_revision():
    touch = TouchChange(1, True, 99, 1)
    longer = Unknown(TouchChange.KIND, touch.pack() + b"future")
    assert decode_all(encode(longer, 4)) == [Frame(4, touch)]


def test_a_payload_too_short_for_its_kind_is_malformed_not_delivered():
    short = Unknown(BarStatus.KIND, b"\x00" * 10)
    decoder = Decoder()
    assert decoder.feed(encode(short, 0)) == []
    assert decoder.stats().malformed == 1


def test_resynchronises_after_garbage_truncation_and_bad_crc():
    good = [encode(TouchChange(q, True, 1000 * q, 1), q) for q in range(4)]
    broken = bytearray(good[1])
    broken[broken.index(0x00, 3)] = 0x40  # a zero of the timestamp: same length, wrong CRC
    stream = (b"\x00\x55garbage\x7d" + good[0] + good[1][:7] + bytes(broken) + good[2]
              + b"\x7d" + good[3])
    decoder = Decoder()
    frames = decoder.feed(stream)
    assert [f.seq for f in frames] == [0, 2, 3]
    stats = decoder.stats()
    assert stats.frames == 3
    assert stats.bad_crc == 1
    assert stats.malformed >= 2
    assert stats.bytes_skipped >= len(b"\x00\x55garbage\x7d") + 6


def test_bad_stuffing_is_rejected():
    assert unstuff(b"\x10\x7d") is None          # escape at the end
    assert unstuff(b"\x10\x7d\x41") is None      # escape of a byte that needs none
    assert unstuff(b"\x10\x03\x11") is None      # a raw Ctrl-C
    assert unstuff(b"\x10\x7d\x23") == b"\x10\x03"


def test_a_flagless_flood_is_dropped_without_growing_and_the_next_frame_survives():
    decoder = Decoder()
    frame = encode(Heartbeat(5, 1), 9)
    for _ in range(100):
        assert decoder.feed(b"\x55" * 1000) == []
        assert len(decoder._pending) <= MAX_STUFFED
    assert decoder.feed(frame) == [Frame(9, Heartbeat(5, 1))]
    assert decoder.stats().bytes_skipped == 100_000
    assert decoder.stats().malformed == 1  # one segment, however long


def test_an_oversized_segment_counts_the_same_however_the_reads_split_it():
    frame = encode(Heartbeat(5, 1), 9)
    stream = b"\x7e" + b"\x55" * (MAX_STUFFED + 40) + frame
    whole = Decoder()
    assert whole.feed(stream) == [Frame(9, Heartbeat(5, 1))]
    assert whole.stats() == DecoderStats(frames=1, malformed=1, bytes_skipped=MAX_STUFFED + 40)
    for cut in range(len(stream) + 1):
        decoder = Decoder()
        frames = decoder.feed(stream[:cut]) + decoder.feed(stream[cut:])
        assert frames == [Frame(9, Heartbeat(5, 1))]
        assert decoder.stats() == whole.stats(), f"cut at {cut}"


@given(st.lists(st.tuples(st.integers(0, 255), s.message), max_size=30))
def test_any_message_list_survives_encoding(items):
    stream = b"".join(encode(m, seq) for seq, m in items)
    assert decode_all(stream) == [Frame(seq, m) for seq, m in items]


@given(st.lists(st.tuples(s.message, st.binary(max_size=80)), max_size=20))
def test_garbage_between_frames_costs_no_frame(items):
    for _, garbage in items:
        assume(decode_all(b"\x7e" + garbage) == [])
    stream = b"".join(garbage + encode(m, i % 256) for i, (m, garbage) in enumerate(items))
    decoder = Decoder()
    frames = decoder.feed(stream + b"\x7e")
    assert frames == [Frame(i % 256, m) for i, (m, _) in enumerate(items)]
    assert decoder.stats().frames == len(items)


@given(st.lists(s.known, min_size=1, max_size=20), st.data())
def test_any_split_of_the_stream_gives_the_same_frames(messages, data):
    stream = b"".join(encode(m, i) for i, m in enumerate(messages))
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=30)))
    decoder = Decoder()
    frames = []
    start = 0
    for cut in [*cuts, len(stream)]:
        frames += decoder.feed(stream[start:cut])
        start = cut
    assert frames == [Frame(i, m) for i, m in enumerate(messages)]
    assert decoder.stats().bytes_skipped == 0


@settings(max_examples=50)
@given(st.binary(max_size=2000))
def test_random_bytes_never_raise_and_every_byte_is_accounted_for(garbage):
    decoder = Decoder()
    frames = decoder.feed(garbage + b"\x7e")
    stats = decoder.stats()
    if not frames:
        assert stats.bytes_skipped == len(garbage) - garbage.count(0x7E)


def test_a_megabyte_of_noise_mixed_with_frames_gives_every_frame_and_nothing_else():
    rng = random.Random(20240601)
    sent = []
    chunks = []
    noise_bytes = 0
    counters = [0, 0, 0, 0]
    while noise_bytes < 1_000_000:
        noise = rng.randbytes(rng.choice((0, 1, 7, 64, 300, 1500)))
        noise_bytes += len(noise)
        chunks.append(noise)
        q = rng.randrange(4)
        counters[q] += 1
        message = rng.choice((
            TouchChange(q, counters[q] % 2 == 1, rng.getrandbits(40), counters[q]),
            Heartbeat(rng.getrandbits(40), 0xC0FFEE, rng.randrange(16), 3),
            BarStatus(rng.randrange(256), rng.getrandbits(40), rng.randrange(16), 3, 20,
                   tuple(ChannelStatus(12, 6, rng.randrange(1024), 720, c) for c in counters)),
        ))
        seq = len(sent) % 256
        sent.append(Frame(seq, message))
        chunks.append(encode(message, seq))
    stream = b"".join(chunks)
    decoder = Decoder()
    got = []
    pos = 0
    while pos < len(stream):
        step = rng.randrange(1, 5000)
        got += decoder.feed(stream[pos:pos + step])
        pos += step
    got += decoder.feed(b"\x7e")
    assert len(sent) > 1000
    assert got == sent
    stats = decoder.stats()
    assert stats.frames == len(sent)
    assert stats.bytes_skipped > 0.95 * noise_bytes
