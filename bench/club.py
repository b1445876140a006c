"""The club network under load: many boxes, one Mosquitto broker, one hub, on this machine.

Each box is its own process replaying an example match at a steady pace. By default (``--boxes
store``) a box is the box's publishing path itself: the event store (device.store, WAL,
synchronous=FULL), each event applied to the match, appended, then the daemon's two calls to the
real publisher thread (device.club.publisher), which reads the store and publishes. With
``--boxes daemon`` each box is a whole ``crokiscore run --feed LOG --pace S`` (the daemon on the
simulated table): faithful too, but a simulated box costs about 7% of a core even idle (its
simulated sensor bar and pins), so 32 of them saturate a 2-core machine by themselves. The hub is a
``crokiscore club`` process; the page is a client of the hub's live stream (``GET /live``, what
the browser reads). Figures:

* event to page: from an event's commit on its box (the store's time stamp) to the first
  ``board`` message on the live stream whose state includes it, p50, p99 and max;
* the hub's CPU (user + system, over the whole run) and its peak memory (VmHWM);
* events lost: every event of every box's store must be in the hub's store, once.

    python bench/club.py [--boards 32] [--pace 0.3] [--boxes store|daemon]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[0] = str(ROOT)   # not bench/ (its vision.py would hide the package)

from tests.club.mosquitto import Mosquitto, free_port, wait_port  # noqa: E402

LOGS = ("tournament-singles", "tournament-doubles", "casual-100")
EXE = Path(sys.executable).with_name("crokiscore")
TICKS = os.sysconf("SC_CLK_TCK")


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))]


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def hwm_kb(pid: int) -> int:
    found = re.search(r"VmHWM:\s+(\d+)", Path(f"/proc/{pid}/status").read_text())
    return int(found.group(1)) if found else 0


async def follow(port: int, seen: dict[tuple[str, int, int], float], online: dict[str, float],
                 stop: asyncio.Event) -> None:
    """The page: reads /live and notes when each (board, match, seq) first showed, and when
    each board first showed online; like a browser, it connects again if the stream ends."""
    while not stop.is_set():
        await _follow(port, seen, online, stop)


async def _follow(port: int, seen: dict[tuple[str, int, int], float],
                  online: dict[str, float], stop: asyncio.Event) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET /live HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n")
    await writer.drain()
    kind = None
    while not stop.is_set():
        try:
            line = await asyncio.wait_for(reader.readline(), 0.5)
        except TimeoutError:
            continue
        if not line:
            break
        text = line.decode().strip()
        if text.startswith("event: "):
            kind = text[7:]
        elif text.startswith("data: ") and kind == "board":
            now = time.time()
            view = json.loads(text[6:])
            if view.get("online"):
                online.setdefault(view["board"], now)
            state = view.get("state") or {}
            if state.get("match_id") is not None:
                key = (view["board"], state["match_id"], state["seq"])
                seen.setdefault(key, now)
    writer.close()


def store_events(path: Path) -> list[tuple[int, int, float]]:
    db = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    try:
        return db.execute("SELECT match_id, seq, ts FROM events ORDER BY match_id, seq").fetchall()
    finally:
        db.close()


def hub_keys(path: Path) -> list[tuple[str, int, int]]:
    db = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    try:
        return db.execute("SELECT board, match_id, seq FROM events").fetchall()
    finally:
        db.close()


def box_child(store: str, board: str, log: str, pace: float, broker: str) -> None:
    """A box's publishing path: commit each event, then tell the publisher, as the daemon does."""
    from device.club.publisher import Publisher
    from device.club.settings import parse_club
    from device.club.snapshot import BoardSnapshot
    from device.store import EventStore
    from rules import Match, parse_event

    events = [parse_event(json.loads(line)) for line in Path(log).read_text().splitlines()]
    settings = parse_club({"broker": broker, "club": "bench", "board": board})
    with EventStore(store) as s:
        match = Match.start(events[0])  # type: ignore[arg-type]
        mid = s.begin_match(events[0], time.time())  # type: ignore[arg-type]
        with Publisher(settings, store) as pub:
            pub.start()
            pub.committed(mid)
            pub.state(BoardSnapshot(mid, match, ()))
            for ev in events[1:]:
                time.sleep(pace)
                match = match.apply(ev)
                s.append(mid, ev, time.time(), {"source": "feed"})
                pub.committed(mid)
                pub.state(BoardSnapshot(mid, match, ()))


async def run(boards: int, pace: float, tmp: Path, kind: str) -> None:
    broker = Mosquitto(folder=tmp / "broker").start()
    web = free_port()
    (tmp / "hub.toml").write_text(f'[club]\nbroker = "{broker.address}"\nclub = "bench"\n'
                                  f'[hub]\nstore = "{tmp}/club.db"\nlisten = "127.0.0.1:{web}"\n')
    hub = subprocess.Popen([str(EXE), "club", "--config", str(tmp / "hub.toml")],
                           stderr=open(tmp / "hub.log", "w"))  # noqa: SIM115 - its life long
    wait_port(web, 20)
    seen: dict[tuple[str, int, int], float] = {}
    online: dict[str, float] = {}
    stop = asyncio.Event()
    page = asyncio.create_task(follow(web, seen, online, stop))
    cpu0, t0, t_start = cpu_s(hub.pid), time.monotonic(), time.time()
    procs = []
    for i in range(boards):
        board = f"board-{i + 1:02d}"
        cfg = tmp / f"{board}.toml"
        cfg.write_text(f'backend = "sim"\nstore = "{tmp}/{board}.db"\nlog_level = "WARNING"\n'
                       '[camera]\nkind = "none"\n[display]\ndriver = "dummy"\n'
                       f'[club]\nbroker = "{broker.address}"\nclub = "bench"\n'
                       f'board = "{board}"\n')
        log = ROOT / "examples" / "matches" / f"{LOGS[i % len(LOGS)]}.jsonl"
        command = [str(EXE), "run", "--config", str(cfg), "--feed", str(log), "--pace",
                   str(pace)] if kind == "daemon" else [
            sys.executable, "-P", __file__, "--box-child", str(tmp / f"{board}.db"), board,
            str(log), str(pace), broker.address]
        procs.append((board, subprocess.Popen(
            command,
            stdout=subprocess.DEVNULL,
            stderr=open(tmp / f"{board}.log", "w"))))  # noqa: SIM115 - its life long
    for board, p in procs:
        while p.poll() is None:
            await asyncio.sleep(0.2)
        if p.returncode:
            print(f"{board} failed: {(tmp / f'{board}.log').read_text()[-500:]}")
    boxes = {b: store_events(tmp / f"{b}.db") for b, _ in procs}
    want = {(b, m, s) for b, evs in boxes.items() for m, s, _ in evs}
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and len(set(hub_keys(tmp / "club.db"))) < len(want):
        await asyncio.sleep(0.2)
    await asyncio.sleep(1.0)   # the last states' way to the page
    wall = time.monotonic() - t0
    cpu = cpu_s(hub.pid) - cpu0
    peak = hwm_kb(hub.pid)
    stop.set()
    await page
    hub.send_signal(signal.SIGTERM)
    hub.wait(20)
    broker.close()

    got = hub_keys(tmp / "club.db")
    lost = len(want - set(got))
    copies = len(got) - len(set(got))
    latencies, steady = [], []
    up = max(online.values()) if len(online) == boards else float("inf")
    by_board: dict[tuple[str, int], list[tuple[int, float]]] = {}
    for (b, m, s), at in seen.items():
        by_board.setdefault((b, m), []).append((s, at))
    for b, evs in boxes.items():
        for m, s, ts in evs:
            shown = [at for seq, at in by_board.get((b, m), []) if seq >= s]
            if shown:
                latencies.append((min(shown) - ts) * 1000)
                if ts >= up:
                    steady.append(latencies[-1])
    total = sum(len(e) for e in boxes.values())
    what = "crokiscore run processes" if kind == "daemon" else "processes: store and publisher"
    print(f"{boards} boards ({what}, an event every {pace} s each), one broker, one hub; "
          f"{total} events in {wall:.0f} s ({total / wall:.0f} events/s)")
    print(f"event committed on a box -> shown on the live page: n {len(latencies)}, "
          f"p50 {statistics.median(latencies):.0f} ms, p99 {pct(latencies, 99):.0f} ms, "
          f"max {max(latencies):.0f} ms")
    if steady:
        print(f"  once all {boards} boxes were up ({up - t_start:.0f} s after the first "
              f"started): n {len(steady)}, p50 {statistics.median(steady):.0f} ms, "
              f"p99 {pct(steady, 99):.0f} ms, max {max(steady):.0f} ms")
    print(f"hub: CPU {cpu:.1f} s over {wall:.0f} s ({100 * cpu / wall:.0f}% of one core), "
          f"peak RSS {peak / 1024:.0f} MB")
    print(f"events lost: {lost}; kept twice at the hub: {copies}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--boards", type=int, default=32)
    p.add_argument("--pace", type=float, default=0.3,
                   help="seconds between a box's events (a real board: several)")
    p.add_argument("--boxes", choices=("store", "daemon"), default="store",
                   help="what a box is: its store and publisher (default), or a whole daemon")
    p.add_argument("--box-child", nargs=5, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.box_child:
        store, board, log, pace, broker = args.box_child
        box_child(store, board, log, float(pace), broker)
        return
    with tempfile.TemporaryDirectory(prefix="crokiscore-club-bench-") as tmp:
        asyncio.run(run(args.boards, args.pace, Path(tmp), args.boxes))


if __name__ == "__main__":
    main()
