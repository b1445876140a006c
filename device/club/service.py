"""``crokiscore club``: the hub as a service, its broker client and its web page.

One asyncio loop (aiohttp) owns the :class:`~device.club.hub.Hub`; paho-mqtt's network thread
only hands each message over with ``call_soon_threadsafe``. The hub's MQTT session is persistent
(a fixed client id, ``clean_session`` off), so a broker that keeps sessions queues the boards'
events for a hub that is away, and the hub's own gap check fills in whatever was lost anyway.

The page updates by server-sent events (``GET /live``): a ``hello`` with everything, then one
``board`` message per change and a ``results`` message when a match finishes. Reading needs no
password; the only changes the page can make, a board's next match, need the organiser's
password (``[hub] password_hash``), a session cookie (HttpOnly, SameSite=Strict), JSON bodies
and a same-origin request. Nothing here can change a score: scores come only from the boards.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import os
import re
import ssl
import time
from collections.abc import Awaitable, Callable
from importlib import metadata
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from aiohttp import web

from device.club import password as passwords
from device.club.cmn import cmn_batch, cmn_match, exportable, results_csv
from device.club.errors import HubError, QueryError
from device.club.hub import Hub
from device.club.hubstore import HubStore
from device.club.publisher import make_client, refusal
from device.club.settings import NAME, HubSettings
from device.club.topics import MatchKey, Topics
from device.notify import Notifier
from rules import PRESETS, RulesError
from rules.stats import player_stats

log = logging.getLogger(__name__)

PAGE = Path(__file__).with_name("page")
COOKIE = "crokiscore_organiser"
SESSION_S = 12 * 3600
DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
UUID = re.compile(r"^[0-9a-f-]{36}$")
RESULTS_SHOWN = 40
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; "
                               "script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


def version() -> str:
    try:
        return metadata.version("crokiscore")
    except metadata.PackageNotFoundError:
        return "0"


def source(club: str) -> str:
    return f"crokiscore {version()} club hub ({club})"


def filters(query: Any) -> dict[str, Any]:
    """``event`` and ``date`` (the local day, YYYY-MM-DD) from a query; ValueError if bad."""
    out: dict[str, Any] = {}
    if query.get("event"):
        out["event"] = query["event"]
    if query.get("date"):
        if not DAY.match(query["date"]):
            raise QueryError(f"date must be YYYY-MM-DD, got {query['date']!r}")
        out["day"] = query["date"]
    if query.get("board"):
        out["board"] = query["board"]
    return out


class Service:
    def __init__(self, settings: HubSettings, *, notifier: Notifier | None = None) -> None:
        self.settings = settings
        self.topics = Topics(settings.prefix, settings.club)
        self.store = HubStore(settings.store)
        self.notifier = notifier or Notifier()
        self.hub = Hub(self.store, self.topics, self._publish, event=settings.event)
        self.client = make_client(settings.broker, settings.broker.client_id, clean=False)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.connected = False
        self.problem: str | None = "connecting"
        self.loop: asyncio.AbstractEventLoop | None = None
        self._secret = os.urandom(32)
        self._runner: web.AppRunner | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._streams: set[asyncio.Task[Any]] = set()   # the pages following /live
        self._folded: dict[str, tuple[str, Any]] = {}     # uuid -> (its summary, its Match)
        self._results: tuple[tuple[int, str], dict[str, Any]] | None = None
        self.port = settings.port   # the one bound (settings.port 0: any free one)

    # --- the broker -------------------------------------------------------------------------

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                    properties: Any) -> None:
        if reason.is_failure:
            self.problem = refusal(reason)
            log.warning("the broker %s refused the hub: %s", self.settings.broker.address, reason)
            return
        self.connected, self.problem = True, None
        client.subscribe(self.topics.everything(), qos=1)
        log.info("the hub is connected to %s as %s", self.settings.broker.address,
                 self.settings.broker.client_id)

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                       properties: Any) -> None:
        if self.connected:
            log.warning("the hub lost the broker %s: %s", self.settings.broker.address, reason)
        self.connected = False
        self.problem = self.problem or "offline"

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self._handle, msg.topic, bytes(msg.payload))

    def _handle(self, topic: str, payload: bytes) -> None:
        try:
            self.hub.handle(topic, payload)
        except Exception:  # a bug must not stop the hub: the message is logged
            log.exception("the hub failed on a message on %s", topic)

    def _publish(self, topic: str, payload: bytes, retain: bool) -> None:
        self.client.publish(topic, payload, qos=1, retain=retain)

    # --- running ----------------------------------------------------------------------------

    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        b = self.settings.broker
        self.client.connect_async(b.host, b.port, keepalive=b.keepalive_s)
        self.client.loop_start()
        self._runner = web.AppRunner(self.app(), access_log=None)
        await self._runner.setup()
        tls = None
        s = self.settings
        if s.tls_cert and s.tls_key:
            tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            try:
                tls.load_cert_chain(s.tls_cert, s.tls_key)
            except (ssl.SSLError, OSError) as exc:
                raise HubError(f"[hub] tls_cert {s.tls_cert} and tls_key {s.tls_key} are not a "
                               f"certificate (PEM) and its key ({exc}): give the page's own "
                               "pair, or remove both keys") from exc
        site = web.TCPSite(self._runner, s.host, s.port, ssl_context=tls)
        try:
            await site.start()
        except OSError as exc:   # a port in use, an address not this machine's, a host unknown
            raise HubError(f"cannot serve the page on {s.host}:{s.port} ([hub] listen): "
                           f"{exc.strerror or exc}; give a free port, and this machine's "
                           "address or 0.0.0.0") from exc
        server = getattr(site, "_server", None)
        if server is not None and server.sockets:
            self.port = server.sockets[0].getsockname()[1]
        self._tasks.append(asyncio.create_task(self._ticks()))
        log.info("the club page is at http%s://%s:%d/", "s" if tls else "", self.settings.host,
                 self.port)
        self.notifier.ready(f"serving on port {self.port}")

    async def _ticks(self) -> None:
        ping_every = (self.notifier.watchdog_s or 0) / 2
        last = 0.0
        while True:
            await asyncio.sleep(0.25)
            self.hub.tick()
            now = time.monotonic()
            if ping_every and now - last >= ping_every:
                self.notifier.ping()
                last = now

    async def stop(self) -> None:
        for t in self._tasks:
            t.cancel()
        for t in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await t
        self._tasks.clear()
        for t in list(self._streams):   # a page's stream would hold the shutdown otherwise
            t.cancel()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        self.connected = False
        self.client.disconnect()
        self.client.loop_stop()
        self.store.close()
        self.notifier.stopping()

    async def serve(self, stop: asyncio.Event) -> None:
        try:
            await self.start()
            await stop.wait()
        finally:
            await self.stop()

    # --- the web app -------------------------------------------------------------------------

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self._guard], client_max_size=64 * 1024)
        r = app.router
        r.add_get("/", self._index)
        r.add_get("/club.js", self._static("club.js", "text/javascript"))
        r.add_get("/club.css", self._static("club.css", "text/css"))
        r.add_get("/live", self._live)
        r.add_get("/boards/{board}/picture.jpg", self._picture)
        r.add_get("/api/health", self._health)
        r.add_get("/api/boards", self._boards)
        r.add_get("/api/rulesets", self._rulesets)
        r.add_get("/api/matches", self._matches)
        r.add_get("/api/matches/{uuid}", self._match)
        r.add_get("/api/matches/{uuid}/cmn", self._match_cmn)
        r.add_get("/api/cmn", self._batch_cmn)
        r.add_get("/api/results.csv", self._csv)
        r.add_get("/api/stats", self._stats)
        r.add_get("/api/session", self._session)
        r.add_post("/api/login", self._login)
        r.add_post("/api/logout", self._logout)
        r.add_put("/api/boards/{board}/assignment", self._assign)
        r.add_delete("/api/boards/{board}/assignment", self._withdraw)
        return app

    @web.middleware
    async def _guard(self, request: web.Request,
                     handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
                     ) -> web.StreamResponse:
        """Changes only with JSON from the page's own origin (no form from another site)."""
        if request.method not in ("GET", "HEAD"):
            origin = request.headers.get("Origin")
            if origin is not None and origin.split("://", 1)[-1] != request.host:
                return _error(403, "requests that change anything must come from this page")
            if request.method in ("POST", "PUT") and request.content_type != "application/json":
                return _error(415, "send JSON (Content-Type: application/json)")
        response = await handler(request)
        for k, v in HEADERS.items():
            response.headers.setdefault(k, v)
        return response

    def _static(self, name: str, kind: str) -> Callable[[web.Request], Awaitable[web.Response]]:
        async def handler(request: web.Request) -> web.Response:
            return web.Response(body=(PAGE / name).read_bytes(), content_type=kind,
                                headers={"Cache-Control": "no-cache"})
        return handler

    async def _index(self, request: web.Request) -> web.Response:
        html = (PAGE / "index.html").read_text(encoding="utf-8")
        title = self.settings.title.replace("&", "&amp;").replace("<", "&lt;")
        return web.Response(text=html.replace("{{title}}", title), content_type="text/html",
                            headers={"Cache-Control": "no-cache"})

    def results_view(self) -> list[dict[str, Any]]:
        rows = self.store.match_rows(finished=True)[-RESULTS_SHOWN:]
        out = []
        for u, board, _mid, started, rules, _players, event, finished, summary in reversed(rows):
            s = json.loads(summary) if summary else {}
            out.append({"uuid": u, "board": board, "rules": rules, "event": event,
                        "scoring": "legs" if s.get("legs") is not None else "rounds",
                        "started": started, "finished": finished, "teams": s.get("teams"),
                        "score": s.get("score"), "legs": s.get("legs"), "sets": s.get("sets"),
                        "winner": s.get("winner"), "stats": s.get("stats", [])})
        return out

    def players_view(self, **f: Any) -> list[dict[str, Any]]:
        """The players' statistics over the finished matches; a match is folded once, and again
        only if its result changed."""
        matches = []
        for u, board, mid, started, *_, summary in self.store.match_rows(finished=True, **f):
            known = self._folded.get(u)
            if known is None or known[0] != summary:
                known = (summary, self.store.fold(MatchKey(board, int(mid), float(started))))
                self._folded[u] = known
            if known[1] is not None:
                matches.append(known[1])
        return [p.to_json() for p in player_stats(matches)]

    def results_payload(self) -> dict[str, Any]:
        """What a ``results`` message carries, made once per change for every page."""
        key = (self.hub.results_version, _today())
        if self._results is None or self._results[0] != key:
            self._results = (key, {"results": self.results_view(),
                                   "players": self.players_view(day=_today())})
        return self._results[1]

    def hub_view(self) -> dict[str, Any]:
        return {"club": self.settings.club, "title": self.settings.title,
                "broker": self.connected, "problem": self.problem,
                "organiser": self.settings.password_hash is not None}

    async def _live(self, request: web.Request) -> web.StreamResponse:
        resp = web.StreamResponse(headers={"Content-Type": "text/event-stream",
                                           "Cache-Control": "no-cache",
                                           "X-Accel-Buffering": "no", **HEADERS})
        await resp.prepare(request)
        queue: asyncio.Queue[tuple[str, dict[str, Any]]] = asyncio.Queue(maxsize=2000)
        lost = asyncio.Event()

        def listener(kind: str, data: dict[str, Any]) -> None:
            try:
                queue.put_nowait((kind, data))
            except asyncio.QueueFull:
                lost.set()   # a reader this far behind starts again from a fresh hello

        self.hub.listeners.append(listener)
        task = asyncio.current_task()
        if task is not None:
            self._streams.add(task)
        try:
            await _send(resp, "hello", {"hub": self.hub_view(), "boards": self.hub.boards_view(),
                                        **self.results_payload()})
            while not lost.is_set():
                try:
                    kind, data = await asyncio.wait_for(queue.get(), 15)
                except TimeoutError:
                    await resp.write(b": still here\n\n")
                    await _send(resp, "hub", self.hub_view())
                    continue
                if kind == "results":
                    data = self.results_payload()
                await _send(resp, kind, data)
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            self.hub.listeners.remove(listener)
            self._streams.discard(task)  # type: ignore[arg-type]
        return resp

    async def _picture(self, request: web.Request) -> web.Response:
        got = self.store.picture(request.match_info["board"])
        if got is None:
            return _error(404, "no picture from this board yet")
        return web.Response(body=got[0], content_type="image/jpeg",
                            headers={"Cache-Control": "no-cache"})

    async def _health(self, request: web.Request) -> web.Response:
        return web.json_response({**self.hub_view(), "counts": dict(self.hub.counts),
                                  "events": self.store.event_count()})

    async def _boards(self, request: web.Request) -> web.Response:
        return web.json_response(self.hub.boards_view())

    async def _rulesets(self, request: web.Request) -> web.Response:
        return web.json_response([{"name": r.name, "seats": r.seats, "game": r.game}
                                  for r in PRESETS.values()])

    async def _matches(self, request: web.Request) -> web.Response:
        try:
            f = filters(request.query)
        except ValueError as exc:
            return _error(400, str(exc))
        out = []
        for u, board, mid, started, rules, players, event, finished, summary in \
                self.store.match_rows(**f):
            s = json.loads(summary) if summary else None
            out.append({"uuid": u, "board": board, "match_id": mid, "started": started,
                        "rules": rules, "players": json.loads(players), "event": event,
                        "finished": finished, "summary": s})
        return web.json_response(out)

    def _record(self, request: web.Request) -> Any:
        u = request.match_info["uuid"]
        if not UUID.match(u):
            return None
        records = self.store.records(uuid=u)
        return records[0] if records else None

    async def _match(self, request: web.Request) -> web.Response:
        rec = self._record(request)
        if rec is None or rec.match is None:
            return _error(404, "no such match")
        from rules.stats import match_stats

        return web.json_response({"uuid": rec.uuid, "board": rec.key.board,
                                  "event": rec.event, "summary": rec.match.summary().to_json(),
                                  "stats": [s.to_json() for s in match_stats(rec.match)]})

    async def _match_cmn(self, request: web.Request) -> web.Response:
        rec = self._record(request)
        if rec is None or not exportable(rec):
            return _error(404, "no finished match with this id")
        return web.json_response(cmn_match(rec, source(self.settings.club)))

    async def _batch_cmn(self, request: web.Request) -> web.Response:
        try:
            f = filters(request.query)
        except ValueError as exc:
            return _error(400, str(exc))
        records = self.store.records(finished=True, **f)
        return web.json_response(cmn_batch(records, source(self.settings.club), f.get("event")))

    async def _csv(self, request: web.Request) -> web.Response:
        try:
            f = filters(request.query)
        except ValueError as exc:
            return _error(400, str(exc))
        return web.Response(text=results_csv(self.store.records(finished=True, **f)),
                            content_type="text/csv")

    async def _stats(self, request: web.Request) -> web.Response:
        try:
            f = filters(request.query)
        except ValueError as exc:
            return _error(400, str(exc))
        return web.json_response({"players": self.players_view(**f)})

    # --- the organiser --------------------------------------------------------------------------

    def _token(self, expires: int) -> str:
        sig = hmac.new(self._secret, str(expires).encode(), hashlib.sha256).hexdigest()
        return f"{expires}.{sig}"

    def organiser(self, request: web.Request) -> bool:
        token = request.cookies.get(COOKIE, "")
        expires, _, _sig = token.partition(".")
        if not (expires.isascii() and expires.isdigit() and len(expires) <= 12) \
                or int(expires) < time.time():
            return False
        return hmac.compare_digest(token, self._token(int(expires)))

    async def _session(self, request: web.Request) -> web.Response:
        return web.json_response({"organiser": self.organiser(request),
                                  "possible": self.settings.password_hash is not None})

    async def _login(self, request: web.Request) -> web.Response:
        stored = self.settings.password_hash
        if stored is None:
            return _error(403, "no organiser password is set: put one in [hub] password_hash "
                          "(crokiscore club password makes it)")
        body = await _json(request)
        given = body.get("password") if isinstance(body, dict) else None
        if not isinstance(given, str) or not await asyncio.to_thread(passwords.matches, given,
                                                                     stored):
            await asyncio.sleep(1.0)   # slows guessing
            return _error(401, "wrong password")
        resp = web.json_response({"organiser": True})
        resp.set_cookie(COOKIE, self._token(int(time.time()) + SESSION_S), max_age=SESSION_S,
                        httponly=True, samesite="Strict", path="/",
                        secure=bool(self.settings.tls_cert))
        return resp

    async def _logout(self, request: web.Request) -> web.Response:
        resp = web.json_response({"organiser": False})
        resp.del_cookie(COOKIE, path="/")
        return resp

    def _board_of(self, request: web.Request) -> str | None:
        board = request.match_info["board"]
        return board if NAME.match(board) and board in self.hub.boards else None

    async def _assign(self, request: web.Request) -> web.Response:
        if not self.organiser(request):
            return _error(401, "log in as the organiser first")
        board = self._board_of(request)
        if board is None:
            return _error(404, "no such board")
        body = await _json(request)
        if not isinstance(body, dict):
            return _error(400, "send {\"rules\", \"players\", \"event\"}")
        try:
            a = self.hub.assign(board, body.get("rules"), body.get("players"),  # type: ignore[arg-type]
                                body.get("options"), body.get("event"))
        except RulesError as exc:
            return _error(400, str(exc))
        log.info("the organiser set board %s's next match: %s", board, a.label())
        return web.json_response(a.to_json())

    async def _withdraw(self, request: web.Request) -> web.Response:
        if not self.organiser(request):
            return _error(401, "log in as the organiser first")
        board = self._board_of(request)
        if board is None:
            return _error(404, "no such board")
        return web.json_response({"withdrawn": self.hub.withdraw(board)})


def _today() -> str:
    return time.strftime("%Y-%m-%d")


def _error(status: int, message: str) -> web.Response:
    return web.json_response({"error": message}, status=status, headers=HEADERS)


async def _json(request: web.Request) -> Any:
    try:
        return await request.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None


async def _send(resp: web.StreamResponse, kind: str, data: dict[str, Any]) -> None:
    await resp.write(f"event: {kind}\ndata: {json.dumps(data)}\n\n".encode())


def run(settings: HubSettings) -> int:
    """Serves until SIGTERM or SIGINT."""
    import signal

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        await Service(settings).serve(stop)

    asyncio.run(main())
    return 0
