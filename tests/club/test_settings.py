"""[club] on a box and the hub's file: every value checked, each mistake named with its fix."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from device.club.password import make_hash, matches
from device.club.settings import load_hub, parse_club, parse_hub
from device.config import parse
from device.errors import ConfigError

GOOD = {"broker": "192.168.1.10:1883", "club": "elmira", "board": "board-3"}


def test_a_box_without_club_publishes_nothing() -> None:
    assert parse({"backend": "sim"}).club is None


def test_the_club_section_read_with_its_defaults() -> None:
    c = parse({"backend": "sim", "club": GOOD}).club
    assert c is not None
    assert (c.broker.host, c.broker.port, c.broker.client_id) == (
        "192.168.1.10", 1883, "crokiscore-elmira-board-3")
    assert (c.club, c.board, c.prefix, c.broker.tls) == ("elmira", "board-3", "crokiscore", False)


def test_tls_defaults_to_its_port_and_takes_the_files(tmp_path: Path) -> None:
    for name in ("ca.crt", "box.crt", "box.key"):
        (tmp_path / name).write_text("x")
    c = parse_club({**GOOD, "broker": "broker.local", "ca_file": str(tmp_path / "ca.crt"),
                    "cert_file": str(tmp_path / "box.crt"), "key_file": str(tmp_path / "box.key"),
                    "username": "board-3", "password": "s3cret"})
    assert (c.broker.port, c.broker.tls, c.broker.username) == (8883, True, "board-3")
    assert parse_club({**GOOD, "broker": "[::1]:1884"}).broker.host == "::1"


@pytest.mark.parametrize(("change", "words"), [
    ({"broker": None}, "[club] broker is missing"),
    ({"board": None}, "[club] board is missing"),
    ({"broker": "host:99999"}, "[club] broker: the port"),
    ({"broker": "a b:1"}, "[club] broker must be \"host:port\""),
    ({"club": "my club"}, "[club] club must be a short name"),
    ({"board": "a/b"}, "[club] board must be a short name"),
    ({"prefix": "x/+"}, "[club] prefix must be topic levels"),
    ({"password": "p"}, "[club] password needs [club] username"),
    ({"ca_file": "/nonexistent/ca.crt"}, "[club] ca_file: there is no file"),
    ({"keepalive_s": 1}, "[club] keepalive_s must be a whole number of seconds from 2"),
    ({"tls": "yes"}, "[club] tls must be true or false"),
    ({"qos": 2}, "unknown key 'qos' in [club]"),
])
def test_each_mistake_is_named(change: dict, words: str) -> None:
    table = {k: v for k, v in {**GOOD, **change}.items() if v is not None}
    with pytest.raises(ConfigError) as info:
        parse({"backend": "sim", "club": table})
    assert words in str(info.value)


def test_the_hubs_file(tmp_path: Path) -> None:
    path = tmp_path / "club.toml"
    hashed = make_hash("a good password")
    path.write_text(f'[club]\nbroker = "127.0.0.1:1883"\nclub = "elmira"\n'
                    f'[hub]\nlisten = "0.0.0.0:8080"\npassword_hash = "{hashed}"\n'
                    'title = "Elmira Crokinole Club"\nevent = "Club night"\n')
    h = load_hub(path)
    assert (h.host, h.port, h.broker.client_id, h.event) == (
        "0.0.0.0", 8080, "crokiscore-hub-elmira", "Club night")
    assert matches("a good password", h.password_hash or "")
    assert not matches("a bad password", h.password_hash or "")
    with pytest.raises(ConfigError, match=r"\[hub\] password_hash must be a hash made by"):
        parse_hub({"club": {"broker": "h:1", "club": "c"}, "hub": {"password_hash": "plain"}})
    with pytest.raises(ConfigError, match="it has two sections"):
        parse_hub({"club": {"broker": "h:1", "club": "c"}, "web": {}})
    with pytest.raises(ConfigError, match="is not found"):
        load_hub(tmp_path / "missing.toml")


def test_crokiscore_club_password_makes_the_hash() -> None:
    from tests.club.parts import CROKISCORE

    done = subprocess.run([str(CROKISCORE), "club", "password"], input="a long password\n",
                          capture_output=True, text=True, check=True)
    made = done.stdout.strip()
    assert parse_hub({"club": {"broker": "h:1", "club": "c"},
                      "hub": {"password_hash": made}}).password_hash == made
    assert matches("a long password", made)
    short = subprocess.run([str(CROKISCORE), "club", "password"], input="short\n",
                           capture_output=True, text=True)
    assert short.returncode == 2 and "at least 8" in short.stderr
