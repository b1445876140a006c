"""The appliance's configuration: one TOML file, read once, typed and validated.

Each section is a component's own settings class (:mod:`device.settings`), made by keyword from the
section's keys: every value is checked by the one declaration of its field, so a mistake is refused
at start with the section, the key and what would be accepted, instead of surfacing mid-match as a
strange behaviour (or passing here only to be refused by the part at start). Unknown keys are
refused too (a misspelt key would otherwise be silently ignored), and GPIO pins are checked for
clashes across sections.
"""

from __future__ import annotations

import logging
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Literal

from device.club.settings import ClubSettings, parse_club
from device.errors import BadSetting, ConfigError
from device.hardware.display import OledSettings
from device.settings import Checked, Spec, build, read_config, setting, toml_number_trouble
from rules.errors import shown

log = logging.getLogger(__name__)

DEFAULT_PATH = Path("/etc/crokiscore/config.toml")
Backend = Literal["pi", "sim"]
I2C_PINS = (2, 3)
SPI0_PINS = (8, 9, 10, 11)
PIN = {"low": 0, "high": 27}


@dataclass(frozen=True)
class MatchConfig(Checked):
    """What a new match starts with when nobody picks anything on the buttons."""

    rules: str = setting("tournament-singles", str)
    players: tuple[str, ...] = setting(("Home", "Away"), tuple, item=str)
    options: tuple[tuple[str, Any], ...] = ()
    player_sets: tuple[tuple[str, ...], ...] = ()

    def _check(self) -> None:
        options: Any = self.options
        if isinstance(options, Mapping):
            object.__setattr__(self, "options", tuple(sorted(options.items())))
        elif not (isinstance(options, tuple) and all(
                isinstance(p, tuple) and len(p) == 2 for p in options)):
            raise BadSetting(f"options must be a table, got {shown(options)}", "options")
        sets: Any = self.player_sets
        if not (isinstance(sets, list | tuple) and all(
                isinstance(p, list | tuple) and p and all(
                    isinstance(n, str) and n.strip() for n in p) for p in sets)):
            raise BadSetting("player_sets must be a list of name lists, e.g. "
                             "[[\"Ann\", \"Bob\"], [\"Red\", \"Blue\", \"Rose\", \"Navy\"]], "
                             f"got {shown(sets)}", "player_sets")
        object.__setattr__(self, "player_sets",
                           tuple(tuple(n.strip() for n in p) for p in sets))
        from rules import NewMatch, RulesError
        from rules.match import Match

        try:
            Match.start(NewMatch(self.rules, self.players, self.options))
        except RulesError as exc:
            raise BadSetting(str(exc), "rules") from None


@dataclass(frozen=True)
class HoleConfig(Checked):
    """The 20-hole break-beam. Pulse limits reject electrical glitches (too short) and a beam
    blocked by something other than a falling disc (too long)."""

    pin: int = setting(17, int, **PIN)
    pull_up: bool = setting(True, bool)
    min_pulse_ms: float = setting(0.5, float, low=0.0, high=50.0)
    max_pulse_ms: float = setting(200.0, float, low=1.0, high=5000.0)
    refractory_ms: float = setting(40.0, float, low=0.0, high=1000.0)

    def _check(self) -> None:
        if self.min_pulse_ms >= self.max_pulse_ms:
            raise BadSetting(f"min_pulse_ms ({self.min_pulse_ms}) must be below max_pulse_ms "
                             f"({self.max_pulse_ms})", "min_pulse_ms")


@dataclass(frozen=True)
class TouchConfig(Checked):
    """The sensor bar's Pico on USB serial. ``channels[q]`` is the sensor channel wired to board
    quadrant q (0 is seat 0's quadrant, then clockwise)."""

    port: str = setting("/dev/serial/by-id/usb-crokiscore_sensor_bar-if00", str)
    baudrate: int = setting(115200, int, low=1200, high=4_000_000)
    heartbeat_timeout_s: float = setting(3.0, float, low=0.1, high=60.0)
    channels: tuple[int, int, int, int] = setting((0, 1, 2, 3), tuple, item=int, length=4,
                                                  low=0, high=11)
    thresholds: tuple[int, int] | None = setting(None, tuple, item=int, length=2, low=1,
                                                 high=255, optional=True)

    def _check(self) -> None:
        if len(set(self.channels)) != 4:
            raise BadSetting(f"channels must name four different sensor channels, "
                             f"got {list(self.channels)}", "channels")
        if self.thresholds is not None and self.thresholds[1] >= self.thresholds[0]:
            raise BadSetting(f"thresholds are [touch, release] with release below touch (the "
                             f"MPR121 needs hysteresis), got {list(self.thresholds)}",
                             "thresholds")


@dataclass(frozen=True)
class ButtonsConfig(Checked):
    menu: int | None = setting(5, int, optional=True, **PIN)
    ok: int | None = setting(6, int, optional=True, **PIN)
    back: int | None = setting(13, int, optional=True, **PIN)
    hold_s: float = setting(1.0, float, low=0.2, high=10.0)
    bounce_s: float = setting(0.03, float, low=0.0, high=1.0)

    def pins(self) -> dict[str, int | None]:
        return {"menu": self.menu, "ok": self.ok, "back": self.back}


@dataclass(frozen=True)
class CameraConfig(Checked):
    """The overhead camera, held in a still configuration with everything fixed so frames of the
    same board look the same (settle detection and vision both rely on that). ``kind`` is
    ``picamera2`` (the Pi's camera module), ``sim`` (the simulator's table), ``folder`` (pictures
    in a folder, in name order) or ``none`` (rounds are scored on the buttons)."""

    kind: str = setting("picamera2", str, choices=("picamera2", "sim", "folder", "none"))
    width: int = setting(2028, int, low=64, high=9152)
    height: int = setting(1520, int, low=48, high=6944)
    exposure_us: int = setting(8000, int, low=10, high=2_000_000)
    analogue_gain: float = setting(1.0, float, low=1.0, high=64.0)
    colour_gains: tuple[float, float] = setting((1.8, 1.6), tuple, item=float, length=2,
                                                low=0.1, high=16.0)
    lens_position: float | None = setting(1.0, float, low=0.0, high=32.0, optional=True)
    folder: str | None = setting(None, str, optional=True)
    calibration: str | None = setting(None, str, optional=True)
    pictures: str | None = setting(None, str, optional=True)
    settle_frames: int = setting(3, int, low=1, high=100)
    settle_interval_s: float = setting(0.3, float, low=0.01, high=10.0)
    settle_threshold: float = setting(8.0, float, low=0.0, high=255.0)
    settle_timeout_s: float = setting(15.0, float, low=0.1, high=600.0)
    timeout_s: float = setting(30.0, float, low=0.1, high=3600.0)

    def _check(self) -> None:
        if self.kind == "folder" and not self.folder:
            raise BadSetting("kind = \"folder\" needs folder = \"/path/to/frames\"", "folder")


RGB = tuple[int, int, int]


@dataclass(frozen=True)
class VisionConfig(Checked):
    """``team_colours`` names the two disc colours (RGB) when a club's discs are not simply a dark
    and a light set; team 0 is the first."""

    team_colours: tuple[RGB, RGB] | None = None

    def _check(self) -> None:
        colours: Any = self.team_colours
        if colours is None:
            return
        ok = (isinstance(colours, list | tuple) and len(colours) == 2 and all(
            isinstance(c3, list | tuple) and len(c3) == 3 and all(
                isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= 255 for x in c3)
            for c3 in colours))
        if not ok:
            raise BadSetting("team_colours must be two [r, g, b] colours (0-255), team 0 first, "
                             f"e.g. [[40, 30, 25], [230, 220, 190]], got {shown(colours)}",
                             "team_colours")
        object.__setattr__(self, "team_colours", (tuple(colours[0]), tuple(colours[1])))


_MM = {"low": 1.0, "high": 2000.0, "optional": True}


@dataclass(frozen=True)
class BoardConfig(Checked):
    """The club's own board, for an installer who wants to state it rather than have vision
    measure it (mm; radii to the middle of each painted line). Keys left out take the
    tournament board's value; a section left out entirely means "measure it"."""

    fifteen_radius: float | None = setting(None, float, **_MM)
    ten_radius: float | None = setting(None, float, **_MM)
    outer_radius: float | None = setting(None, float, **_MM)
    hole_diameter: float | None = setting(None, float, **_MM)
    surface_radius: float | None = setting(None, float, **_MM)
    ditch_radius: float | None = setting(None, float, **_MM)
    line_width: float | None = setting(None, float, low=0.1, high=20.0, optional=True)
    disc_diameter: float | None = setting(None, float, low=10.0, high=80.0, optional=True)
    disc_thickness: float | None = setting(None, float, low=1.0, high=40.0, optional=True)

    def _check(self) -> None:
        self.board()

    def stated(self) -> dict[str, float]:
        return {f.name: getattr(self, f.name) for f in fields(self)
                if getattr(self, f.name) is not None}

    def board(self) -> Any:
        """The stated board (rules.board.Board), or None when nothing was stated."""
        from rules.board import Board

        given = self.stated()
        if not given:
            return None
        try:
            return Board(**given)
        except ValueError as exc:
            raise BadSetting(str(exc), next(iter(given))) from None


@dataclass(frozen=True)
class SimConfig(Checked):
    seed: int = setting(1, int, low=0, high=2**31 - 1)
    skill: float = setting(0.7, float, low=0.0, high=1.0)


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
    display: OledSettings = field(default_factory=OledSettings)
    vision: VisionConfig = field(default_factory=VisionConfig)
    board: BoardConfig = field(default_factory=BoardConfig)
    sim: SimConfig = field(default_factory=SimConfig)
    source: str = "<defaults>"
    club: ClubSettings | None = None   # [club]: the club network, read by device/club/settings


TOP = {
    "backend": Spec(str, choices=("pi", "sim")),
    "store": Spec(str),
    "log_level": Spec(str, choices=("DEBUG", "INFO", "WARNING", "ERROR")),
}
SECTIONS: dict[str, type] = {
    "match": MatchConfig, "hole": HoleConfig, "touch": TouchConfig, "buttons": ButtonsConfig,
    "camera": CameraConfig, "display": OledSettings, "vision": VisionConfig,
    "board": BoardConfig, "sim": SimConfig,
}
EXTRA_KEYS = {"match": ("options", "player_sets"), "vision": ("team_colours",)}
"""Keys checked by their section's own _check rather than a declared field."""


def _section(name: str, data: Mapping[str, Any], **defaults: Any) -> Any:
    table = data.get(name, {})
    cls = SECTIONS[name]
    extra = EXTRA_KEYS.get(name, ())
    if isinstance(table, Mapping):
        fixed = {k: table[k] for k in extra if k in table}
        table = {**defaults, **{k: v for k, v in table.items() if k not in extra}}
    else:
        fixed = {}
    return build(cls, name, table, **fixed)


def parse(data: Mapping[str, Any], source: str = "<config>") -> Config:
    """Builds a :class:`Config` from a parsed TOML document."""
    d = Config()
    unknown = sorted(set(data) - set(TOP) - set(SECTIONS) - {"club"})
    if unknown:
        raise ConfigError(f"unknown key {', '.join(repr(k) for k in unknown)} in the top level; "
                          f"the keys there are: {', '.join((*TOP, *SECTIONS, 'club'))}")
    top: dict[str, Any] = {}
    for key, spec in TOP.items():
        try:
            top[key] = spec.check(key, data.get(key, getattr(d, key)))
        except BadSetting as exc:
            raise ConfigError(str(exc)) from None
    backend = top["backend"]
    # the simulator's table has its own camera; a Pi has the camera module
    camera_kind = {"kind": "sim" if backend == "sim" else "picamera2"}
    sections = {name: _section(name, data, **(camera_kind if name == "camera" else {}))
                for name in SECTIONS}
    club = None if data.get("club") is None else parse_club(data["club"])
    if club is not None and club.receipts is not None and \
            Path(club.receipts).absolute() == Path(top["store"]).absolute():
        # the receipts' table in the event store would make it a database of someone else's
        raise ConfigError("[club] receipts names the event store itself: give the receipts a "
                          "file of their own, or leave the key out (they are kept beside the "
                          "store)")
    config = Config(backend, top["store"], top["log_level"], source=source, club=club,
                    **sections)
    if backend == "pi":
        _check_pins(config)
    return config


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
    for name, pin in c.buttons.pins().items():
        claim(pin, f"[buttons] {name}")
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
    text = read_config(p, "config file", "copy examples/pi.toml there (or give --config FILE)")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config file {p} is not valid TOML: {_toml_trouble(exc, text)}"
                          ) from None
    except ValueError as exc:
        raise ConfigError(f"config file {p} is not valid TOML: {toml_number_trouble(exc)}"
                          ) from None
    return parse(data, str(p))


def _toml_trouble(exc: tomllib.TOMLDecodeError, text: str) -> str:
    """tomllib's message, with the offending line quoted and a key given twice named."""
    message = str(exc)
    where = re.search(r"line (\d+), column \d+", message)
    if where is None:
        return message
    number = int(where.group(1))
    lines = text.splitlines()
    line = lines[number - 1].strip() if 0 < number <= len(lines) else ""
    if "overwrite" in message or "declare" in message:
        key = re.split(r"\s*=", line, maxsplit=1)[0].strip(" []") if line else "?"
        return (f"{key} is given twice (line {number}: {shown(line, 60)}); keep one of them")
    return f"{message}: {shown(line, 60)}" if line else message
