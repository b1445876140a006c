"""The club network's settings: ``[club]`` in a box's config, and the hub's own file.

Every value has its own validator that names the key and the fix, as the rest of the config does,
so a mistake is refused when the daemon starts rather than found as a silent board at the club
night. Files named (TLS certificates) must exist when the settings are read: a box cannot prompt
anyone later.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from device.errors import ConfigError
from rules.errors import shown

DEFAULT_PORT = 1883
DEFAULT_TLS_PORT = 8883
DEFAULT_HUB_PATH = Path("/etc/crokiscore/club.toml")
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$")
"""A club's or a board's name: one MQTT topic level, so no '/', '+', '#' or spaces."""


@dataclass(frozen=True)
class Broker:
    """How to reach the club's MQTT broker, and as whom."""

    host: str
    port: int = DEFAULT_PORT
    client_id: str = ""
    username: str | None = None
    password: str | None = None
    tls: bool = False
    ca_file: str | None = None
    cert_file: str | None = None
    key_file: str | None = None
    keepalive_s: int = 15

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"


@dataclass(frozen=True)
class ClubSettings:
    """A box in a club: where it publishes, under which names, and where it keeps the broker's
    receipts (which events the broker has acknowledged, so a restart resumes after them)."""

    broker: Broker
    club: str
    board: str
    prefix: str = "crokiscore"
    receipts: str | None = None


@dataclass(frozen=True)
class HubSettings:
    """The club's hub: its broker client, its store, where it serves the page, and the hash of
    the organiser's password (None: nothing on the page can be changed)."""

    broker: Broker
    club: str
    prefix: str = "crokiscore"
    store: str = "/var/lib/crokiscore-club/club.db"
    host: str = "0.0.0.0"
    port: int = 8080
    password_hash: str | None = None
    title: str = "crokiscore"
    event: str | None = None
    tls_cert: str | None = None
    tls_key: str | None = None
    source: str = "<defaults>"


# --- one validator per value ----------------------------------------------------------------


class _Table:
    """A TOML table read key by key; what was not read is refused at the end."""

    def __init__(self, name: str, table: Any) -> None:
        if not isinstance(table, Mapping):
            raise ConfigError(f"[{name}] must be a table (a section), got {shown(table)}")
        self.name = name
        self.table = table
        self.used: set[str] = set()

    def where(self, key: str) -> str:
        return f"[{self.name}] {key}"

    def get(self, key: str, check: Callable[[str, Any], Any], default: Any = None) -> Any:
        self.used.add(key)
        value = self.table.get(key)
        if value is None:
            return default
        return check(self.where(key), value)

    def finish(self) -> None:
        unknown = sorted(set(self.table) - self.used)
        if unknown:
            raise ConfigError(f"unknown key {', '.join(repr(k) for k in unknown)} in "
                              f"[{self.name}]; the keys there are: {', '.join(sorted(self.used))}")


def _text(where: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{where} must be a text in quotes, got {shown(value)}")
    if "\x00" in value:
        raise ConfigError(f"{where} must not hold a NUL character (\\u0000), got {shown(value)}")
    return value.strip()


def _name(where: str, value: Any) -> str:
    text = _text(where, value)
    if not NAME.match(text):
        raise ConfigError(f"{where} must be a short name of letters, digits, '-', '_' or '.' "
                          f"(it is one level of the MQTT topics), got {shown(value)}; e.g. "
                          "\"elmira\" or \"board-3\"")
    return text


def _prefix(where: str, value: Any) -> str:
    text = _text(where, value)
    levels = text.split("/")
    if not all(NAME.match(level) for level in levels):
        raise ConfigError(f"{where} must be topic levels of letters, digits, '-', '_' or '.' "
                          f"joined by '/', without '+' or '#', got {shown(value)}; e.g. "
                          "\"crokiscore\"")
    return text


def _address(where: str, value: Any) -> tuple[str, int | None]:
    text = _text(where, value)
    host, sep, port = text.rpartition(":")
    if not sep:
        host, port = text, ""
    if host.startswith("[") and host.endswith("]"):  # [::1]:1883
        host = host[1:-1]
    if not host or any(c.isspace() for c in host) or "/" in host:
        raise ConfigError(f"{where} must be \"host:port\" (e.g. \"192.168.1.10:1883\"), got "
                          f"{shown(value)}")
    if not port:
        return host, None
    if not (port.isascii() and port.isdigit()) or not 1 <= int(port) <= 65535:
        raise ConfigError(f"{where}: the port in {shown(value)} must be a number from 1 to 65535 "
                          "(Mosquitto listens on 1883, or 8883 with TLS)")
    return host, int(port)


def _listen(where: str, value: Any) -> tuple[str, int | None]:
    """Where the page is served; port 0 takes any free port (the hub logs which)."""
    text = _text(where, value)
    if text.endswith(":0"):
        host, _ = _address(where, text[:-2] + ":1")
        return host, 0
    return _address(where, text)


def _bool(where: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(f"{where} must be true or false, got {shown(value)}")
    return value


def _seconds(low: int, high: int) -> Callable[[str, Any], int]:
    def check(where: str, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ConfigError(f"{where} must be a whole number of seconds from {low} to {high}, "
                              f"got {shown(value)}")
        return value
    return check


def _file(where: str, value: Any) -> str:
    path = _text(where, value)
    if not Path(path).is_file():
        raise ConfigError(f"{where}: there is no file {path}; copy it there (readable by the "
                          "service's user) or remove the key")
    return path


def _password_hash(where: str, value: Any) -> str:
    from device.club.password import well_formed

    text = _text(where, value)
    if not well_formed(text):
        raise ConfigError(f"{where} must be a hash made by `crokiscore club password`, got "
                          f"{shown(value)}")
    return text


def _broker(t: _Table, default_id: str) -> Broker:
    host, port = t.get("broker", _address)
    username = t.get("username", _text)
    password = t.get("password", _text)
    if password is not None and username is None:
        raise ConfigError(f"{t.where('password')} needs {t.where('username')} too")
    ca = t.get("ca_file", _file)
    cert = t.get("cert_file", _file)
    key = t.get("key_file", _file)
    if (cert is None) != (key is None):
        raise ConfigError(f"{t.where('cert_file')} and {t.where('key_file')} go together (a "
                          "client certificate and its key); give both or neither")
    tls = t.get("tls", _bool, default=ca is not None or cert is not None)
    if not tls and (ca or cert):
        raise ConfigError(f"{t.where('tls')} = false, yet TLS files are given; remove them or "
                          "set tls = true")
    return Broker(host, port if port is not None else DEFAULT_TLS_PORT if tls else DEFAULT_PORT,
                  t.get("client_id", _text, default=default_id), username, password, tls,
                  ca, cert, key, t.get("keepalive_s", _seconds(2, 600), default=15))


def _required(t: _Table, key: str, example: str) -> None:
    if t.table.get(key) is None:
        raise ConfigError(f"{t.where(key)} is missing; e.g. {key} = {example}")


def parse_club(table: Any) -> ClubSettings:
    """A box's ``[club]`` section."""
    t = _Table("club", table)
    for key, example in (("broker", '"192.168.1.10:1883"'), ("club", '"elmira"'),
                         ("board", '"board-3"')):
        _required(t, key, example)
    club = t.get("club", _name)
    board = t.get("board", _name)
    broker = _broker(t, f"crokiscore-{club}-{board}")
    settings = ClubSettings(broker, club, board, t.get("prefix", _prefix, "crokiscore"),
                            t.get("receipts", _text))
    t.finish()
    return settings


def parse_hub(data: Mapping[str, Any], source: str = "<hub config>") -> HubSettings:
    """The hub's file: ``[club]`` (the broker, as for a box, without ``board``) and ``[hub]``."""
    top = set(data) - {"club", "hub"}
    if top:
        raise ConfigError(f"unknown key {', '.join(repr(k) for k in sorted(top))} in the hub's "
                          "config; it has two sections, [club] and [hub]")
    t = _Table("club", data.get("club", {}))
    for key, example in (("broker", '"127.0.0.1:1883"'), ("club", '"elmira"')):
        _required(t, key, example)
    club = t.get("club", _name)
    broker = _broker(t, f"crokiscore-hub-{club}")
    prefix = t.get("prefix", _prefix, "crokiscore")
    t.finish()
    h = _Table("hub", data.get("hub", {}))
    d = HubSettings(broker, club)
    host, port = h.get("listen", _listen, (d.host, d.port))
    cert = h.get("tls_cert", _file)
    key = h.get("tls_key", _file)
    if (cert is None) != (key is None):
        raise ConfigError("[hub] tls_cert and tls_key go together (the page's certificate and "
                          "its key); give both or neither")
    hub = HubSettings(broker, club, prefix, h.get("store", _text, d.store), host,
                      port if port is not None else d.port,
                      h.get("password_hash", _password_hash), h.get("title", _text, d.title),
                      h.get("event", _text), cert, key, source)
    h.finish()
    return hub


def load_hub(path: str | Path | None = None) -> HubSettings:
    from device.settings import read_config, toml_number_trouble

    p = Path(path) if path is not None else DEFAULT_HUB_PATH
    text = read_config(p, "the hub's config", "copy examples/club.toml there (or give --config "
                       "FILE)")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"the hub's config {p} is not valid TOML: {exc}") from None
    except ValueError as exc:
        raise ConfigError(f"the hub's config {p} is not valid TOML: {toml_number_trouble(exc)}"
                          ) from None
    return parse_hub(data, str(p))
