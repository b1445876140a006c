"""Who can change what on the hub: visitors read everything and change nothing; the organiser,
with the club's password, sets a board's next match; nobody can touch a score."""

from __future__ import annotations

import http.cookiejar
import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from device.club.password import make_hash
from tests.club.mosquitto import Mosquitto
from tests.club.parts import MATCHES, FedBox, HubThread, box_config, hub_settings, until

PASSWORD = "the club's own password"


class Browser:
    """An HTTP client with a cookie jar, as a visitor's browser would be."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def send(self, method: str, path: str, body: Any = None, kind: str = "application/json",
             **headers: str) -> tuple[int, Any, Any]:
        data = None if body is None else (json.dumps(body) if kind == "application/json"
                                          else body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": kind, **headers})
        try:
            with self.opener.open(req, timeout=10) as r:
                return r.status, json.loads(r.read() or b"null"), r.headers
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read() or b"null"), exc.headers


def test_only_the_organiser_changes_anything_and_only_the_next_match(
        broker: Mosquitto, tmp_path: Path) -> None:
    settings = hub_settings(tmp_path, broker.address, password_hash=make_hash(PASSWORD))
    with HubThread(settings) as hub, \
            FedBox(box_config(tmp_path, broker.address, "board-1"),
                   MATCHES / "tournament-singles.jsonl") as box:
        box.start(events=10)
        until(lambda: hub.events() == 11, 10, "the board's events")
        visitor = Browser(hub.url)
        body = {"rules": "casual-100", "players": ["Cat", "Dan"]}
        assert visitor.send("PUT", "/api/boards/board-1/assignment", body)[0] == 401
        assert visitor.send("DELETE", "/api/boards/board-1/assignment")[0] == 401
        assert visitor.send("POST", "/api/login", {"password": "guess"})[0] == 401
        assert visitor.send("POST", "/api/login", "password=x",
                            kind="application/x-www-form-urlencoded")[0] == 415
        status, _, headers = visitor.send("GET", "/api/boards")
        assert status == 200 and "default-src 'self'" in headers["Content-Security-Policy"]

        organiser = Browser(hub.url)
        status, _, headers = organiser.send("POST", "/api/login", {"password": PASSWORD})
        assert status == 200
        cookie = headers["Set-Cookie"]
        assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
        assert organiser.send("PUT", "/api/boards/board-1/assignment", body,
                              Origin="http://elsewhere.example")[0] == 403
        assert organiser.send("PUT", "/api/boards/board-9/assignment", body)[0] == 404
        status, said, _ = organiser.send("PUT", "/api/boards/board-1/assignment",
                                         {"rules": "casual-100", "players": ["Cat"]})
        assert status == 400 and "2 players" in said["error"]
        status, said, _ = organiser.send("PUT", "/api/boards/board-1/assignment", body)
        assert status == 200 and said["players"] == ["Cat", "Dan"]
        until(lambda: box.app.assigned is not None, 10, "the box to hear of it")
        assert organiser.send("DELETE", "/api/boards/board-1/assignment")[1] == {
            "withdrawn": True}
        until(lambda: box.app.assigned is None, 10, "the box to hear it withdrawn")
        assert box.app.match.depth == 10   # the score is where it was
        assert organiser.send("POST", "/api/logout", {})[0] == 200
        assert organiser.send("PUT", "/api/boards/board-1/assignment", body)[0] == 401

        routes = {(r.method, r.resource.canonical) for r in hub.service.app().router.routes()
                  if r.method not in ("GET", "HEAD")}
        assert routes == {("POST", "/api/login"), ("POST", "/api/logout"),
                          ("PUT", "/api/boards/{board}/assignment"),
                          ("DELETE", "/api/boards/{board}/assignment")}


def test_without_a_password_nothing_can_be_changed(broker: Mosquitto, tmp_path: Path) -> None:
    with HubThread(hub_settings(tmp_path, broker.address)) as hub:
        status, said, _ = Browser(hub.url).send("POST", "/api/login", {"password": ""})
        assert status == 403 and "password_hash" in said["error"]


def test_a_cookie_that_holds_no_time_is_nobodys(tmp_path: Path) -> None:
    """'²' passes str.isdigit() and fails int(), as do 5000 digits: a 500 for the page."""
    from aiohttp.test_utils import make_mocked_request

    from device.club.service import COOKIE, Service

    service = Service(hub_settings(tmp_path, "127.0.0.1:1", password_hash=make_hash(PASSWORD)))
    try:
        for token in ("\u00b2.x", "\u0661\u0662.x", "9" * 5000 + ".x", "-1.x", "", "x.y"):
            request = make_mocked_request("GET", "/api/session",
                                          headers={"Cookie": f"{COOKIE}={token}"})
            assert service.organiser(request) is False
    finally:
        service.store.close()
