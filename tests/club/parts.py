"""Real parts for the club tests: a hub service on a thread, boxes replaying a match through a
real daemon, a TCP relay whose port can be closed, and a client of the page's live stream."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from device.club.service import Service
from device.club.settings import HubSettings, parse_hub
from device.commands.feed import Feeder, already_fed, read_feed
from device.config import Config, MatchConfig, parse
from device.daemon import Daemon

ROOT = Path(__file__).resolve().parents[2]
MATCHES = ROOT / "examples" / "matches"
CROKISCORE = Path(sys.executable).with_name("crokiscore")


def until(check: Callable[[], Any], timeout: float = 20.0, what: str = "the condition") -> Any:
    """Polls ``check`` until it returns something true (bounded); returns it."""
    deadline = time.monotonic() + timeout
    while True:
        got = check()
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not come within {timeout} s (last: {got!r})")
        time.sleep(0.02)


def hub_settings(tmp: Path, address: str, **hub: Any) -> HubSettings:
    return parse_hub({"club": {"broker": address, "club": "elmira", "keepalive_s": 5},
                      "hub": {"store": str(tmp / "club.db"), "listen": "127.0.0.1:0", **hub}})


class HubThread:
    """The hub service on its own event loop in a thread, as ``crokiscore club`` runs it."""

    def __init__(self, settings: HubSettings) -> None:
        self.settings = settings
        self.service: Service | None = None
        self._stop: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._main, name="hub", daemon=True)

    def _main(self) -> None:
        async def main() -> None:
            self._loop = asyncio.get_running_loop()
            self._stop = asyncio.Event()
            self.service = Service(self.settings)
            await self.service.start()
            self._ready.set()
            await self._stop.wait()
            await self.service.stop()
        asyncio.run(main())

    def start(self) -> HubThread:
        self._thread.start()
        assert self._ready.wait(15), "the hub did not start"
        until(lambda: self.service is not None and self.service.connected, 15,
              "the hub's broker connection")
        return self

    @property
    def url(self) -> str:
        assert self.service is not None
        return f"http://127.0.0.1:{self.service.port}"

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.url + path, timeout=10) as r:
            body = r.read()
            return json.loads(body) if r.headers.get_content_type() == "application/json" \
                else body.decode()

    def raw(self, path: str) -> bytes:
        with urllib.request.urlopen(self.url + path, timeout=10) as r:
            return bytes(r.read())

    def call(self, fn: Callable[[], Any]) -> Any:
        """Runs ``fn`` on the hub's loop (where the hub lives) and returns its result."""
        assert self._loop is not None
        async def wrapped() -> Any:
            return fn()
        return asyncio.run_coroutine_threadsafe(wrapped(), self._loop).result(10)

    def events(self) -> int:
        return int(self.get("/api/health")["events"])

    def stop(self) -> None:
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(15)

    def __enter__(self) -> HubThread:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def box_config(tmp: Path, address: str | None, board: str, **club: Any) -> Config:
    data: dict[str, Any] = {"backend": "sim", "store": str(tmp / f"{board}.db"),
                            "camera": {"kind": "none"}, "display": {"driver": "dummy"}}
    if address is not None:
        data["club"] = {"broker": address, "club": "elmira", "board": board, "keepalive_s": 2,
                        **club}
    return parse(data)


def box_toml(tmp: Path, address: str, board: str) -> Path:
    path = tmp / f"{board}.toml"
    path.write_text(f'backend = "sim"\nstore = "{tmp}/{board}.db"\nlog_level = "INFO"\n'
                    '[camera]\nkind = "none"\n[display]\ndriver = "dummy"\n'
                    f'[club]\nbroker = "{address}"\nclub = "elmira"\nboard = "{board}"\n'
                    'keepalive_s = 2\n')
    return path


class FedBox:
    """A real daemon (simulated table, no camera) replaying a match log as its operator would,
    publishing to the club; ``pace`` (an Event) lets a test hold the feed between events."""

    def __init__(self, config: Config, log: Path) -> None:
        start, self.feed = read_feed(log)
        self.config = replace(config, match=MatchConfig(start.rules, start.players,
                                                        start.options))
        self.daemon = Daemon(self.config)
        self.stop = threading.Event()
        self._loop = threading.Thread(target=self._run, name="box", daemon=True)
        self.feeder: Feeder | None = None

    def _run(self) -> None:
        self.daemon.run(self.stop)

    @property
    def app(self) -> Any:
        return self.daemon.shell

    def start(self, events: int | None = None) -> FedBox:
        """Starts the daemon and feeds ``events`` of the log (all by default)."""
        self.daemon.begin()
        self._loop.start()
        self.feed_more(events)
        return self

    def feed_more(self, upto: int | None = None) -> None:
        """Feeds the log up to event ``upto`` (all), waiting until the daemon has taken it."""
        done = already_fed(self.app)
        events = self.feed[:upto] if upto is not None else self.feed
        self.feeder = Feeder(self.app, self.daemon.inputs.put, events, done)
        self.feeder.begin()
        assert self.feeder.done.wait(60), "the feed did not finish"
        assert self.feeder.error is None, self.feeder.error

    def close(self) -> None:
        self.stop.set()
        self._loop.join(10)
        self.daemon.close()

    def __enter__(self) -> FedBox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def box_process(config: Path, log: Path, pace: float = 0.0) -> subprocess.Popen[str]:
    """``crokiscore run --feed``: a whole box in its own process."""
    return subprocess.Popen([str(CROKISCORE), "run", "--config", str(config), "--feed", str(log),
                             "--pace", str(pace)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


class Relay:
    """A TCP relay in front of the broker: ``cut()`` closes its port and drops every connection
    through it (the network is gone); ``mend()`` opens the port again. ``stall()`` keeps the
    connections but stops carrying bytes (a network that has gone quiet), ``flow()`` carries them
    on."""

    def __init__(self, target: int) -> None:
        self.target = target
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self._listener: socket.socket | None = None
        self._conns: list[socket.socket] = []
        self._lock = threading.Lock()
        self._flowing = threading.Event()
        self._flowing.set()
        self.mend()

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def mend(self) -> None:
        ls = socket.socket()
        ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        ls.bind(("127.0.0.1", self.port))
        ls.listen(16)
        self._listener = ls
        threading.Thread(target=self._accept, args=(ls,), daemon=True).start()

    def _accept(self, ls: socket.socket) -> None:
        while True:
            try:
                client, _ = ls.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target))
            except OSError:
                client.close()
                continue
            with self._lock:
                self._conns += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, a: socket.socket, b: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while self._flowing.wait() and (data := a.recv(65536)):
                self._flowing.wait()
                b.sendall(data)
        for s in (a, b):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        if self._listener is not None:
            with contextlib.suppress(OSError):   # wakes the thread blocked in accept()
                self._listener.shutdown(socket.SHUT_RDWR)
            self._listener.close()
            self._listener = None
        with self._lock:
            conns, self._conns = self._conns, []
        for s in conns:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()

    def stall(self) -> None:
        self._flowing.clear()

    def flow(self) -> None:
        self._flowing.set()

    def close(self) -> None:
        self.flow()
        self.cut()


def box_events(store: Path) -> list[tuple[int, int, str]]:
    """(match id, seq, body) of every event in a box's store, read-only."""
    import sqlite3

    db = sqlite3.connect(f"{store.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return [(m, s, b) for m, s, b in db.execute(
            "SELECT match_id, seq, body FROM events ORDER BY match_id, seq")]
    finally:
        db.close()


def hub_events(store: Path, board: str) -> list[tuple[int, int, str]]:
    import sqlite3

    db = sqlite3.connect(f"{store.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return [(m, s, b) for m, s, b in db.execute(
            "SELECT match_id, seq, body FROM events WHERE board = ? ORDER BY match_id, seq",
            (board,))]
    finally:
        db.close()
