"""The appliance's configuration: one TOML file, read once, typed and validated.

Every key is read through a getter that knows its type and range, so a mistake is refused at start
with the section, the key and what would be accepted, instead of surfacing mid-match as a strange
behaviour. Unknown keys are refused too (a misspelt key would otherwise be silently ignored), and
GPIO pins are checked for clashes across sections.
"""

from __future__ import annotations

import logging
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from device.club.settings import ClubSettings, parse_club
from device.errors import ConfigError
from rules.errors import shown

log = logging.getLogger(__name__)

DEFAULT_PATH = Path("/etc/crokiscore/config.toml")
Backend = Literal["pi", "sim"]
I2C_PINS = (2, 3)
SPI0_PINS = (8, 9, 10, 11)


@dataclass(frozen=True)
class MatchConfig:
    """What a new match starts with when nobody picks anything on the buttons."""

    rules: str = "tournament-singles"
    players: tuple[str, ...] = ("Home", "Away")
    options: tuple[tuple[str, Any], ...] = ()
    player_sets: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True)
class HoleConfig:
    """The 20-hole break-beam. Pulse limits reject electrical glitches (too short) and a beam
    blocked by something other than a falling disc (too long)."""

    pin: int = 17
    pull_up: bool = True
    min_pulse_ms: float = 0.5
    max_pulse_ms: float = 200.0
    refractory_ms: float = 40.0


@dataclass(frozen=True)
class TouchConfig:
    """The sensor bar's Pico on USB serial. ``channels[q]`` is the sensor channel wired to board
    quadrant q (0 is seat 0's quadrant, then clockwise)."""

    port: str = "/dev/serial/by-id/usb-crokiscore_sensor_bar-if00"
    baudrate: int = 115200
    heartbeat_timeout_s: float = 3.0
    channels: tuple[int, int, int, int] = (0, 1, 2, 3)
    thresholds: tuple[int, int] | None = None


@dataclass(frozen=True)
class ButtonsConfig:
    menu: int | None = 5
    ok: int | None = 6
    back: int | None = 13
    hold_s: float = 1.0
    bounce_s: float = 0.03


@dataclass(frozen=True)
class CameraConfig:
    """The overhead camera, held in a still configuration with everything fixed so frames of the
    same board look the same (settle detection and vision both rely on that)."""

    kind: Literal["picamera2", "sim", "folder", "none"] = "picamera2"
    width: int = 2028
    height: int = 1520
    exposure_us: int = 8000
    analogue_gain: float = 1.0
    colour_gains: tuple[float, float] = (1.8, 1.6)
    lens_position: float | None = 1.0
    folder: str | None = None
    calibration: str | None = None
    pictures: str | None = None
    settle_frames: int = 3
    settle_interval_s: float = 0.3
    settle_threshold: float = 2.0
    settle_timeout_s: float = 15.0
    timeout_s: float = 30.0


@dataclass(frozen=True)
class DisplayConfig:
    driver: Literal["ssd1306", "sh1106", "ssd1309", "ssd1322", "dummy"] = "ssd1306"
    interface: Literal["i2c", "spi"] = "i2c"
    port: int = 1
    address: int = 0x3C
    spi_device: int = 0
    dc_pin: int = 24
    reset_pin: int = 25
    width: int = 128
    height: int = 64
    rotate: int = 0
    contrast: int = 255


@dataclass(frozen=True)
class VisionConfig:
    """``team_colours`` names the two disc colours (RGB) when a club's discs are not simply a dark
    and a light set; team 0 is the first."""

    team_colours: tuple[tuple[int, int, int], tuple[int, int, int]] | None = None


@dataclass(frozen=True)
class SimConfig:
    seed: int = 1
    skill: float = 0.7


@dataclass(frozen=True)
class Config:
    backend: Backend = "pi"
    store: str = "/var/lib/crokiscore/events.db"
    log_level: str = "INFO"
    match: MatchConfig = field(default_factory=MatchConfig)
    hole: HoleConfig = field(default_factory=HoleConfig)
    touch: TouchConfig = field(default_factory=TouchConfig)
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    vision: VisionConfig = field(default_factory=VisionConfig)
    sim: SimConfig = field(default_factory=SimConfig)
    source: str = "<defaults>"
    club: ClubSettings | None = None   # [club]: the club network, read by device/club/settings


class _Section:
    """Reads one table's keys with their types and ranges, then refuses what was not read."""

    def __init__(self, name: str, table: Any) -> None:
        if not isinstance(table, Mapping):
            raise ConfigError(f"[{name}] must be a table (a section), got {shown(table)}")
        self.name = name
        self.table = table
        self.used: set[str] = set()

    def _where(self, key: str) -> str:
        return f"[{self.name}] {key}" if self.name else key

    def _raw(self, key: str, default: Any) -> Any:
        self.used.add(key)
        return self.table.get(key, default)

    def get_int(self, key: str, default: int | None, low: int, high: int,
            optional: bool = False) -> Any:
        v = self._raw(key, default)
        if v is None and optional:
            return None
        if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
            raise ConfigError(f"{self._where(key)} must be a whole number from {low} to {high}, "
                              f"got {shown(v)}")
        return v

    def get_float(self, key: str, default: float | None, low: float, high: float,
              optional: bool = False) -> Any:
        v = self._raw(key, default)
        if v is None and optional:
            return None
        if isinstance(v, bool) or not isinstance(v, int | float) or not low <= v <= high:
            raise ConfigError(f"{self._where(key)} must be a number from {low} to {high}, "
                              f"got {shown(v)}")
        return float(v)

    def get_bool(self, key: str, default: bool) -> bool:
        v = self._raw(key, default)
        if not isinstance(v, bool):
            raise ConfigError(f"{self._where(key)} must be true or false, got {shown(v)}")
        return v

    def get_str(self, key: str, default: str | None, choices: tuple[str, ...] | None = None,
            optional: bool = False) -> Any:
        v = self._raw(key, default)
        if v is None and optional:
            return None
        if not isinstance(v, str) or not v.strip():
            raise ConfigError(f"{self._where(key)} must be a text in quotes, got {shown(v)}")
        if choices is not None and v not in choices:
            raise ConfigError(f"{self._where(key)} must be one of {', '.join(choices)}, "
                              f"got {shown(v)}")
        return v

    def get_list(self, key: str, default: Any, length: int | None, kind: type,
             low: float | None = None, high: float | None = None) -> Any:
        v = self._raw(key, default)
        ok = isinstance(v, list | tuple) and (length is None or len(v) == length) and all(
            isinstance(x, kind) and not isinstance(x, bool)
            and (low is None or x >= low) and (high is None or x <= high) for x in v)
        if not ok:
            what = {int: "whole numbers", float: "numbers", str: "texts"}.get(kind, str(kind))
            size = f"{length} " if length is not None else ""
            span = f" from {low} to {high}" if low is not None else ""
            raise ConfigError(f"{self._where(key)} must be a list of {size}{what}{span}, "
                              f"got {shown(v)}")
        return tuple(v)

    def section(self, key: str) -> _Section:
        self.used.add(key)
        return _Section(key, self.table.get(key, {}))

    def finish(self) -> None:
        unknown = sorted(set(self.table) - self.used)
        if unknown:
            where = f"[{self.name}]" if self.name else "the top level"
            known = ", ".join(sorted(self.used))
            raise ConfigError(f"unknown key {', '.join(repr(k) for k in unknown)} in {where}; "
                              f"the keys there are: {known}")


def parse(data: Mapping[str, Any], source: str = "<config>") -> Config:
    """Builds a :class:`Config` from a parsed TOML document."""
    d = Config()
    top = _Section("", data)
    backend = top.get_str("backend", d.backend, ("pi", "sim"))
    store = top.get_str("store", d.store)
    log_level = top.get_str("log_level", d.log_level, ("DEBUG", "INFO", "WARNING", "ERROR"))

    s = top.section("match")
    options = s._raw("options", {})
    if not isinstance(options, Mapping):
        raise ConfigError(f"[match] options must be a table, got {shown(options)}")
    sets = s._raw("player_sets", [])
    if not (isinstance(sets, list) and all(
            isinstance(p, list) and p and all(isinstance(n, str) and n.strip() for n in p)
            for p in sets)):
        raise ConfigError("[match] player_sets must be a list of name lists, e.g. "
                          f"[[\"Ann\", \"Bob\"], [\"Red\", \"Blue\", \"Rose\", \"Navy\"]], "
                          f"got {shown(sets)}")
    match = MatchConfig(s.get_str("rules", d.match.rules),
                        s.get_list("players", list(d.match.players), None, str),
                        tuple(sorted(options.items())),
                        tuple(tuple(n.strip() for n in p) for p in sets))
    s.finish()
    _check_match(match)

    s = top.section("hole")
    hole = HoleConfig(s.get_int("pin", d.hole.pin, 0, 27), s.get_bool("pull_up", d.hole.pull_up),
                      s.get_float("min_pulse_ms", d.hole.min_pulse_ms, 0.0, 50.0),
                      s.get_float("max_pulse_ms", d.hole.max_pulse_ms, 1.0, 5000.0),
                      s.get_float("refractory_ms", d.hole.refractory_ms, 0.0, 1000.0))
    s.finish()
    if hole.min_pulse_ms >= hole.max_pulse_ms:
        raise ConfigError(f"[hole] min_pulse_ms ({hole.min_pulse_ms}) must be below max_pulse_ms "
                          f"({hole.max_pulse_ms})")

    s = top.section("touch")
    channels = s.get_list("channels", list(d.touch.channels), 4, int, 0, 11)
    if len(set(channels)) != 4:
        raise ConfigError(f"[touch] channels must name four different sensor channels, "
                          f"got {list(channels)}")
    touch = TouchConfig(s.get_str("port", d.touch.port),
                        s.get_int("baudrate", d.touch.baudrate, 1200, 4_000_000),
                        s.get_float("heartbeat_timeout_s", d.touch.heartbeat_timeout_s, 0.1, 60.0),
                        channels, _thresholds(s))
    s.finish()

    s = top.section("buttons")
    buttons = ButtonsConfig(*(s.get_int(k, getattr(d.buttons, k), 0, 27, optional=True)
                              for k in ("menu", "ok", "back")),
                            s.get_float("hold_s", d.buttons.hold_s, 0.2, 10.0),
                            s.get_float("bounce_s", d.buttons.bounce_s, 0.0, 1.0))
    s.finish()

    s = top.section("camera")
    c = d.camera
    camera = CameraConfig(
        # the simulator's table has its own camera; a Pi has the camera module
        s.get_str("kind", "sim" if backend == "sim" else c.kind,
                  ("picamera2", "sim", "folder", "none")),
        s.get_int("width", c.width, 64, 9152), s.get_int("height", c.height, 48, 6944),
        s.get_int("exposure_us", c.exposure_us, 10, 2_000_000),
        s.get_float("analogue_gain", c.analogue_gain, 1.0, 64.0),
        s.get_list("colour_gains", list(c.colour_gains), 2, float, 0.1, 16.0),
        s.get_float("lens_position", c.lens_position, 0.0, 32.0, optional=True),
        s.get_str("folder", c.folder, optional=True),
        s.get_str("calibration", c.calibration, optional=True),
        s.get_str("pictures", c.pictures, optional=True),
        s.get_int("settle_frames", c.settle_frames, 1, 100),
        s.get_float("settle_interval_s", c.settle_interval_s, 0.01, 10.0),
        s.get_float("settle_threshold", c.settle_threshold, 0.0, 255.0),
        s.get_float("settle_timeout_s", c.settle_timeout_s, 0.1, 600.0),
        s.get_float("timeout_s", c.timeout_s, 0.1, 3600.0))
    s.finish()
    if camera.kind == "folder" and not camera.folder:
        raise ConfigError("[camera] kind = \"folder\" needs folder = \"/path/to/frames\"")

    s = top.section("display")
    p = d.display
    display = DisplayConfig(
        s.get_str("driver", p.driver, ("ssd1306", "sh1106", "ssd1309", "ssd1322", "dummy")),
        s.get_str("interface", p.interface, ("i2c", "spi")), s.get_int("port", p.port, 0, 20),
        s.get_int("address", p.address, 0x03, 0x77), s.get_int("spi_device", p.spi_device, 0, 2),
        s.get_int("dc_pin", p.dc_pin, 0, 27), s.get_int("reset_pin", p.reset_pin, 0, 27),
        s.get_int("width", p.width, 32, 512), s.get_int("height", p.height, 16, 256),
        s.get_int("rotate", p.rotate, 0, 3), s.get_int("contrast", p.contrast, 0, 255))
    s.finish()

    s = top.section("vision")
    colours = s._raw("team_colours", None)
    if colours is not None:
        ok = (isinstance(colours, list) and len(colours) == 2 and all(
            isinstance(c3, list) and len(c3) == 3 and all(
                isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= 255 for x in c3)
            for c3 in colours))
        if not ok:
            raise ConfigError("[vision] team_colours must be two [r, g, b] colours (0-255), team 0 "
                              f"first, e.g. [[40, 30, 25], [230, 220, 190]], got {shown(colours)}")
        colours = (tuple(colours[0]), tuple(colours[1]))
    vision = VisionConfig(colours)
    s.finish()

    s = top.section("sim")
    sim = SimConfig(s.get_int("seed", d.sim.seed, 0, 2**31 - 1),
                    s.get_float("skill", d.sim.skill, 0, 1))
    s.finish()
    top.used.add("club")
    club = None if data.get("club") is None else parse_club(data["club"])
    top.finish()

    config = Config(backend, store, log_level, match, hole, touch, buttons, camera, display,
                    vision, sim, source, club)
    if backend == "pi":
        _check_pins(config)
    return config


def _thresholds(s: _Section) -> tuple[int, int] | None:
    raw = s._raw("thresholds", None)
    if raw is None:
        return None
    pair = s.get_list("thresholds", raw, 2, int, 1, 255)
    if pair[1] >= pair[0]:
        raise ConfigError(f"[touch] thresholds are [touch, release] with release below touch "
                          f"(the MPR121 needs hysteresis), got {list(pair)}")
    return (pair[0], pair[1])


def _check_match(match: MatchConfig) -> None:
    from rules import NewMatch, RulesError
    from rules.match import Match

    try:
        Match.start(NewMatch(match.rules, match.players, match.options))
    except RulesError as exc:
        raise ConfigError(f"[match] {exc}") from None


def _check_pins(c: Config) -> None:
    """Two parts on one GPIO pin would each see the other's signals: refuse it."""
    users: dict[int, str] = {}

    def claim(pin: int | None, who: str) -> None:
        if pin is None:
            return
        if pin in users:
            raise ConfigError(f"GPIO {pin} is used twice: by {users[pin]} and by {who}; "
                              "give each its own pin")
        users[pin] = who

    claim(c.hole.pin, "[hole] pin")
    for name in ("menu", "ok", "back"):
        claim(getattr(c.buttons, name), f"[buttons] {name}")
    if c.display.driver != "dummy":
        if c.display.interface == "i2c":
            for pin in I2C_PINS:
                claim(pin, "the display's I2C bus")
        else:
            for pin in SPI0_PINS:
                claim(pin, "the display's SPI bus")
            claim(c.display.dc_pin, "[display] dc_pin")
            claim(c.display.reset_pin, "[display] reset_pin")


def load(path: str | Path | None = None) -> Config:
    """Reads the config at ``path`` (default: /etc/crokiscore/config.toml)."""
    p = Path(path) if path is not None else DEFAULT_PATH
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"config file {p} not found; copy examples/pi.toml there (or give "
                          "--config FILE)") from None
    except OSError as exc:
        raise ConfigError(f"cannot read config file {p}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"config file {p} is not UTF-8 text") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config file {p} is not valid TOML: {exc}") from None
    return parse(data, str(p))
