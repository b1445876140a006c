"""Serial bridge: codec throughput, and touch latency from the MCU to the host over a pty.

Decode: a stream of typical sensor-bar traffic (touches, heartbeats, a few status replies) fed to
the host decoder in 4 KiB reads, as the link would read it. Latency: the simulated Pico (the real
firmware logic) on a pty and the real host link; for each touch change, the time from the
firmware's write of the frame to the link putting the Touch event on its queue, and from the
simulated hand on the sensor to that event (adds the firmware's sensor poll and debounce).

    python bench/bridge.py [--frames N] [--events N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from firmware_bridge.codec import Decoder, encode
from firmware_bridge.events import McuBooted, Touch
from firmware_bridge.firmware import framing
from firmware_bridge.link import Link
from firmware_bridge.messages import ChannelStatus, Heartbeat, Status, TouchChange
from hw_sim.mcu import SimulatedPico


def traffic(n: int) -> list[bytes]:
    rng = random.Random(1)
    frames = []
    counters = [0] * 4
    for i in range(n):
        roll = rng.random()
        if roll < 0.6:
            q = rng.randrange(4)
            counters[q] += 1
            msg = TouchChange(q, counters[q] % 2 == 1, rng.getrandbits(36), counters[q])
        elif roll < 0.95:
            msg = Heartbeat(rng.getrandbits(36), 0xC0FFEE, rng.randrange(16), 3)
        else:
            msg = Status(rng.randrange(256), rng.getrandbits(36), 0, 3, 20,
                         tuple(ChannelStatus(12, 6, 700, 720, c) for c in counters))
        frames.append(encode(msg, i % 256))
    return frames


def codec(n: int) -> None:
    frames = traffic(n)
    stream = b"".join(frames)
    t0 = time.perf_counter()
    decoder = Decoder()
    got = 0
    for pos in range(0, len(stream), 4096):
        got += len(decoder.feed(stream[pos:pos + 4096]))
    t1 = time.perf_counter()
    assert got == n, (got, n)
    deframer = framing.Deframer()
    fw = 0
    for pos in range(0, len(stream), 4096):
        fw += len(deframer.feed(stream[pos:pos + 4096]))
    t2 = time.perf_counter()
    assert fw == n
    print(f"frames {n}, {len(stream) / n:.1f} bytes each on average")
    print(f"host decode       {n / (t1 - t0):>12,.0f} frames/s  "
          f"{len(stream) / (t1 - t0) / 1e6:6.1f} MB/s")
    print(f"firmware deframe  {n / (t2 - t1):>12,.0f} frames/s  (the MCU logic, under CPython)")
    msgs = [TouchChange(i % 4, True, i, i) for i in range(min(n, 50_000))]
    t3 = time.perf_counter()
    for i, m in enumerate(msgs):
        encode(m, i % 256)
    t4 = time.perf_counter()
    print(f"host encode       {len(msgs) / (t4 - t3):>12,.0f} frames/s")


def percentiles(name: str, values: list[float]) -> None:
    ms = sorted(v * 1000 for v in values)
    q = statistics.quantiles(ms, n=100)
    print(f"{name:<28} p50 {q[49]:6.3f} ms  p90 {q[89]:6.3f} ms  p99 {q[98]:6.3f} ms  "
          f"max {ms[-1]:6.3f} ms")


def latency(n: int) -> None:
    tapped: list[tuple[float, bytes]] = []  # appended by the simulator before each write
    written: dict[tuple[int, int], float] = {}
    tap_decoder = Decoder()

    def when_written(quadrant: int, counter: int) -> float:
        while tapped:
            t, data = tapped.pop(0)
            for frame in tap_decoder.feed(data):
                if isinstance(frame.message, TouchChange):
                    written[(frame.message.quadrant, frame.message.counter)] = t
        return written[(quadrant, counter)]

    wire, hand = [], []
    record = tapped.append
    with SimulatedPico(seed=9, debounce_ms=0, tap=lambda t, d: record((t, d))) as pico, \
            Link(pico.path) as link:
        while not isinstance(link.events.get(timeout=5), McuBooted):
            pass
        for i in range(n):
            q = i % 4
            active = (i // 4) % 2 == 0
            touched_at = time.monotonic()
            if active:
                pico.touch(q)
            else:
                pico.release(q)
            while True:
                event = link.events.get(timeout=5)
                if isinstance(event, Touch):
                    break
            assert (event.quadrant, event.active) == (q, active)
            wrote = when_written(event.quadrant, event.counter)
            wire.append(event.at - wrote)
            hand.append(event.at - touched_at)
        stats = link.stats()
    print(f"touch events {n} over a pty (bad CRC {stats.bad_crc}, gaps {stats.sequence_gaps})")
    percentiles("MCU write -> host event", wire)
    percentiles("sensor change -> host event", hand)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--frames", type=int, default=200_000, help="frames to decode")
    p.add_argument("--events", type=int, default=4000, help="touch events over the pty")
    args = p.parse_args()
    codec(args.frames)
    latency(args.events)


if __name__ == "__main__":
    main()
