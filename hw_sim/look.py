"""What a board looks like: wood or paint, lines, numerals, rail, ditch, pegs and disc colours.

Clubs play on very different boards (pale maple to dark walnut, painted tops, octagonal or round
rails, numerals or none) with very different discs, and the vision code has to read them all. A
look is a small frozen value, drawn at random from a seed, and the board's picture is painted from
it once, in board millimetres, so every camera pose can reuse it.
"""

from __future__ import annotations

import functools
import math
import random
from dataclasses import asdict, dataclass
from typing import Any, Literal

import cv2
import numpy as np

from rules.board import Board

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class DiscSet:
    """The two disc colours on a board. Team 0 plays the darker discs, as the vision contract
    says; ``grain`` is how much wood figure shows on the faces (0 for painted or plastic)."""

    name: str
    dark_rgb: RGB
    light_rgb: RGB
    grain: float


DISC_SETS: tuple[DiscSet, ...] = (
    DiscSet("natural-stained", (112, 62, 36), (228, 208, 166), 0.10),
    DiscSet("natural-walnut", (84, 52, 36), (214, 190, 142), 0.12),
    DiscSet("black-red", (36, 34, 36), (176, 38, 36), 0.04),
    DiscSet("black-green", (34, 36, 34), (40, 128, 70), 0.04),
    DiscSet("blue-natural", (38, 62, 138), (226, 204, 156), 0.06),
    DiscSet("black-natural", (40, 36, 34), (222, 200, 152), 0.08),
)

WOODS: tuple[RGB, ...] = (
    (226, 190, 140),  # maple
    (214, 150, 100),  # cherry laminate, like the common club board
    (196, 130, 80),   # stained birch
    (160, 100, 60),   # oak stain
    (120, 74, 44),    # walnut
)
PAINTS: tuple[RGB, ...] = ((232, 226, 208), (40, 96, 60), (40, 60, 110), (150, 40, 40),
                           (200, 170, 90))


def luma(rgb: RGB) -> float:
    r, g, b = rgb
    return 0.299 * r + 0.587 * g + 0.114 * b


def _jitter(rng: random.Random, rgb: RGB, amount: float) -> RGB:
    """The colour a little lighter or darker, and a little off in hue."""
    s = rng.uniform(1 - amount, 1 + amount)
    r, g, b = (int(min(255, max(0, c * s * rng.uniform(0.96, 1.04)))) for c in rgb)
    return r, g, b


def _disc_set(rng: random.Random, surface: RGB) -> DiscSet:
    """A disc set that stands out from the board: no club plays discs the colour of its wood."""
    sets = list(DISC_SETS)
    rng.shuffle(sets)
    for base in sets:
        dark, light = _jitter(rng, base.dark_rgb, 0.08), _jitter(rng, base.light_rgb, 0.05)
        if luma(dark) < luma(light) and min(math.dist(dark, surface),
                                            math.dist(light, surface)) >= 60:
            return DiscSet(base.name, dark, light, base.grain)
    return DiscSet("black-white", (30, 30, 32), (236, 234, 226), 0.0)


@dataclass(frozen=True)
class BoardLook:
    """One board's appearance. Colours are RGB; lengths in mm."""

    surface: Literal["wood", "painted"] = "wood"
    surface_rgb: RGB = (214, 150, 100)
    grain: float = 0.18
    grain_angle_deg: float = 30.0
    grain_spacing_mm: float = 6.0
    plank_width_mm: float = 140.0
    line_rgb: RGB = (24, 22, 24)
    numerals: bool = True
    numerals_face_centre: bool = True
    numeral_rgb: RGB = (24, 22, 24)
    numeral_height_mm: float = 20.0
    quadrant_lines: bool = True
    rail: Literal["octagon", "round"] = "octagon"
    rail_rgb: RGB = (46, 32, 26)
    rail_width_mm: float = 45.0
    rail_height_mm: float = 25.0
    ditch_rgb: RGB = (38, 28, 24)
    ditch_depth_mm: float = 10.0
    hole_rgb: RGB = (30, 30, 34)
    peg_rgb: RGB = (22, 20, 20)
    peg_height_mm: float = 18.0
    background_rgb: RGB = (60, 58, 56)
    discs: DiscSet = DISC_SETS[0]
    texture_seed: int = 0

    def __post_init__(self) -> None:
        if luma(self.discs.dark_rgb) >= luma(self.discs.light_rgb):
            raise ValueError(f"disc set {self.discs.name!r}: team 0's colour must be the darker")
        for name in ("rail_width_mm", "rail_height_mm", "numeral_height_mm", "peg_height_mm",
                     "grain_spacing_mm", "plank_width_mm", "ditch_depth_mm"):
            if getattr(self, name) <= 0:
                raise ValueError(f"board look {name} must be positive, got {getattr(self, name)}")

    def team_rgb(self, team: int) -> RGB:
        return self.discs.dark_rgb if team == 0 else self.discs.light_rgb

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def random(cls, rng: random.Random) -> BoardLook:
        """A board a club might own: mostly wood from pale to dark, sometimes painted."""
        wood = rng.random() < 0.8
        surface = _jitter(rng, rng.choice(WOODS) if wood else rng.choice(PAINTS), 0.08)
        line = _jitter(rng, rng.choice(((24, 22, 24), (20, 20, 20), (90, 30, 24), (30, 40, 80))),
                       0.2)
        if abs(luma(line) - luma(surface)) < 80:  # boards are painted to be read
            line = _jitter(rng, (236, 226, 200), 0.05) if luma(surface) < 128 else \
                _jitter(rng, (22, 20, 22), 0.2)
        rail = _jitter(rng, rng.choice(((46, 32, 26), (30, 26, 24), (90, 56, 34),
                                        (150, 100, 60))), 0.1)
        discs = _disc_set(rng, surface)
        return cls(
            surface="wood" if wood else "painted", surface_rgb=surface,
            grain=rng.uniform(0.1, 0.28) if wood else rng.uniform(0.0, 0.05),
            grain_angle_deg=rng.uniform(0, 180), grain_spacing_mm=rng.uniform(3, 9),
            plank_width_mm=rng.uniform(90, 220), line_rgb=line,
            numerals=rng.random() < 0.85, numerals_face_centre=rng.random() < 0.8,
            numeral_rgb=line, numeral_height_mm=rng.uniform(15, 24),
            quadrant_lines=rng.random() < 0.9,
            rail="octagon" if rng.random() < 0.7 else "round", rail_rgb=rail,
            rail_width_mm=rng.uniform(35, 60), rail_height_mm=rng.uniform(18, 32),
            ditch_rgb=_jitter(rng, rail, 0.2) if rng.random() < 0.6 else
            _jitter(rng, (34, 60, 40), 0.2),
            ditch_depth_mm=rng.uniform(6, 14),
            hole_rgb=_jitter(rng, (28, 28, 32), 0.2),
            peg_rgb=_jitter(rng, rng.choice(((22, 20, 20), (60, 40, 28), (150, 110, 70))), 0.1),
            peg_height_mm=rng.uniform(14, 22),
            background_rgb=_jitter(rng, rng.choice(((60, 58, 56), (30, 30, 32), (120, 118, 112),
                                                    (90, 70, 50))), 0.2),
            discs=discs, texture_seed=rng.randrange(2**31))


# -- the painted board, in board millimetres ------------------------------------------------


@dataclass(frozen=True, eq=False)
class BoardPicture:
    """The board painted once from above, at ``ppm`` pixels per mm over ±``extent`` mm.

    ``atlas`` holds two layers side by side (BGR, uint8): on the left everything at the height of
    the playing surface (wood, lines, numerals, hole, ditch floor, and the rail's inner wall where
    it shows between ditch and rail top); on the right the rail top and what lies beyond it.
    """

    atlas: np.ndarray
    ppm: float
    extent: float

    @property
    def size(self) -> int:
        return self.atlas.shape[0]

    def to_texture(self, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Texture column and row (pixel centres) of board points."""
        return (x + self.extent) * self.ppm - 0.5, (self.extent - y) * self.ppm - 0.5


def _bgr(rgb: RGB) -> np.ndarray:
    return np.array(rgb[::-1], dtype=np.float32)


def _noise(rng: np.random.Generator, size: int, ppm: float, cell_mm: tuple[float, float],
           angle_deg: float = 0.0) -> np.ndarray:
    """Value noise over a size x size texture: a coarse random grid of cells ``cell_mm`` (across,
    along) blown up with bicubic interpolation and turned by ``angle_deg``, in one warp (made at
    a lower resolution and scaled up when the cells are large). Zero mean, roughly unit
    amplitude."""
    step = max(1, int(min(cell_mm) * ppm / 4))
    out = -(-size // step)
    ppm_out = ppm / step
    span = out / ppm_out * 1.5 + max(cell_mm) * 4
    rows = int(span / cell_mm[0]) + 4
    cols = int(span / cell_mm[1]) + 4
    small = rng.standard_normal((rows, cols)).astype(np.float32)
    a = math.radians(angle_deg)
    # texture pixel (column, row) -> mm along and across the grain -> grid cells
    ca, sa = math.cos(a), math.sin(a)
    m = np.array([[ca, -sa], [sa, ca]]) / ppm_out
    m = np.diag([1 / cell_mm[1], 1 / cell_mm[0]]) @ m
    offset = np.array([cols / 2, rows / 2]) - m @ np.array([out / 2, out / 2])
    inv = np.hstack([m, offset[:, None]])
    field = cv2.warpAffine(small, inv, (out, out), flags=cv2.INTER_CUBIC | cv2.WARP_INVERSE_MAP,
                           borderMode=cv2.BORDER_REFLECT)
    if step > 1:
        field = cv2.resize(field, (out * step, out * step), interpolation=cv2.INTER_LINEAR)
    return field[:size, :size]


def wood(rng: np.random.Generator, size: int, ppm: float, angle_deg: float, spacing_mm: float,
         plank_mm: float) -> np.ndarray:
    """A wood-figure shade field around 1.0 (float32, size x size): planks of slightly different
    tone, wavy grain streaks along the planks, and fine fibres."""
    a = math.radians(angle_deg)
    coord = (np.arange(size, dtype=np.float32) + 0.5 - size / 2) / ppm
    across = coord[None, :] * np.float32(-math.sin(a)) + coord[:, None] * np.float32(-math.cos(a))
    warp = _noise(rng, size, ppm, (60.0, 400.0), angle_deg) * np.float32(2.5 * spacing_mm)
    warp += _noise(rng, size, ppm, (15.0, 160.0), angle_deg) * np.float32(0.5 * spacing_mm)
    streak = 0.5 + 0.5 * np.sin((across + warp) * np.float32(2 * np.pi / spacing_mm))
    streak = streak * streak * streak
    fibres = _noise(rng, size, ppm, (0.8, 40.0), angle_deg)
    plank = np.floor(across / plank_mm).astype(np.int32)
    tones = rng.normal(0.0, 0.05, 64).astype(np.float32)
    tone = _noise(rng, size, ppm, (50.0, 250.0), angle_deg)  # broad light and dark figure
    shade = 1.0 + tones[plank % 64] + 0.1 * tone - 0.55 * (streak - 0.25) + 0.12 * fibres
    return shade.astype(np.float32)


def _coverage(sdf_mm: np.ndarray, ppm: float) -> np.ndarray:
    """Anti-aliased coverage of a shape from its signed distance (positive inside)."""
    cover = sdf_mm * np.float32(ppm)
    cover += np.float32(0.5)
    return np.clip(cover, 0.0, 1.0, out=cover)


def _paint(img: np.ndarray, cover: np.ndarray, colour: np.ndarray,
           shade: np.ndarray | None = None) -> None:
    """Paints ``colour`` (times ``shade`` where given) over a whole (contiguous) ``img`` with
    coverage ``cover``, touching only the pixels it covers: most shapes cover little of it."""
    flat = img.reshape(-1, 3)
    assert np.shares_memory(flat, img)
    c = cover.reshape(-1)
    s = None if shade is None else shade.reshape(-1)
    solid = np.flatnonzero(c >= 1.0)
    flat[solid] = colour if s is None else s[solid, None] * colour
    edge = np.flatnonzero((c > 0.0) & (c < 1.0))
    paint = colour if s is None else s[edge, None] * colour
    flat[edge] += c[edge, None] * (paint - flat[edge])


def _numeral(img: np.ndarray, text: str, x: float, y: float, up_deg: float, height_mm: float,
             colour: np.ndarray, ppm: float, extent: float) -> None:
    """Prints ``text`` centred at board (x, y), its top pointing toward board angle ``up_deg``."""
    font, scale = cv2.FONT_HERSHEY_DUPLEX, 4.0
    thick = 13
    (tw, th), base = cv2.getTextSize(text, font, scale, thick)
    pad = thick
    canvas = np.zeros((th + base + 2 * pad, tw + 2 * pad), np.uint8)
    cv2.putText(canvas, text, (pad, pad + th), font, scale, 255, thick, cv2.LINE_AA)
    s = height_mm * ppm / th  # canvas px -> texture px
    up = math.radians(up_deg)
    # texture axes: column = +x, row = -y; the canvas's up (-row) must point along `up`.
    ux, uy = math.cos(up), -math.sin(up)  # the canvas's up, in texture (column, row)
    rx, ry = math.sin(up), math.cos(up)    # its right: up turned clockwise, seen from above
    cx0, cy0 = canvas.shape[1] / 2, pad + th / 2
    col = (x + extent) * ppm - 0.5
    row = (extent - y) * ppm - 0.5
    m = np.array([[s * rx, -s * ux, 0.0], [s * ry, -s * uy, 0.0]], dtype=np.float64)
    m[:, 2] = [col, row] - m[:, :2] @ [cx0, cy0]
    size = img.shape[0]
    r = int(max(canvas.shape) * s) + 4
    c0, r0 = max(0, int(col) - r), max(0, int(row) - r)
    c1, r1 = min(size, int(col) + r), min(size, int(row) + r)
    m[:, 2] -= [c0, r0]
    mask = cv2.warpAffine(canvas, m, (c1 - c0, r1 - r0), flags=cv2.INTER_LINEAR)
    patch = img[r0:r1, c0:c1]
    patch += (mask.astype(np.float32) / 255.0)[..., None] * (colour - patch)


@dataclass(frozen=True)
class Numeral:
    """A printed value: ``text`` centred at board (x, y), its top toward board angle ``up_deg``."""

    text: str
    x: float
    y: float
    up_deg: float
    height_mm: float


def numerals(look: BoardLook, board: Board) -> tuple[Numeral, ...]:
    """Where a board prints its values: 5, 10 and 15 on the four seat axes just inside their
    lines, and 20 beside the hole on either side, reading from the nearest seat (top toward the
    centre) or, on some boards, from the centre."""
    h = look.numeral_height_mm
    half = board.line_width / 2
    gap = 6.0
    places = [(text, radius - half - gap - h / 2, a, h)
              for text, radius in (("5", board.outer_radius), ("10", board.ten_radius),
                                   ("15", board.fifteen_radius))
              for a in (0.0, 90.0, 180.0, 270.0)]
    places += [("20", board.hole_diameter / 2 + 4.0 + h * 0.45, a, h * 0.9) for a in (90.0, 270.0)]
    return tuple(
        Numeral(text, r * math.cos(math.radians(a)), r * math.sin(math.radians(a)),
                (a + 180.0) % 360.0 if look.numerals_face_centre else a, height)
        for text, r, a, height in places)


def _numerals(img: np.ndarray, look: BoardLook, board: Board, ppm: float, extent: float) -> None:
    colour = _bgr(look.numeral_rgb)
    for n in numerals(look, board):
        _numeral(img, n.text, n.x, n.y, n.up_deg, n.height_mm, colour, ppm, extent)


def rail_outer(look: BoardLook, board: Board, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The rail's outer boundary as a 'radius' of board points: the octagon's support (flat
    sides facing the seats) or the plain radius of a round rail."""
    if look.rail == "round":
        return np.hypot(x, y)
    s = math.sqrt(0.5)
    return np.maximum(np.maximum(np.abs(x), np.abs(y)),
                      np.maximum(np.abs(s * (x + y)), np.abs(s * (x - y))))


def rail_reach(look: BoardLook, board: Board) -> float:
    """The furthest the rail extends from the centre, in mm."""
    apothem = board.ditch_radius + look.rail_width_mm
    return apothem / math.cos(math.pi / 8) if look.rail == "octagon" else apothem


@functools.lru_cache(maxsize=4)
def board_picture(look: BoardLook, board: Board, ppm: float) -> BoardPicture:
    """Paints the board of ``look`` at ``ppm`` pixels per mm (cached: a rig's frames share it)."""
    rng = np.random.default_rng(look.texture_seed)
    extent = rail_reach(look, board) + 15.0
    size = math.ceil(2 * extent * ppm)
    extent = size / (2 * ppm)
    coord = (np.arange(size, dtype=np.float32) + 0.5) / np.float32(ppm) - np.float32(extent)
    x = coord[None, :]
    y = -coord[:, None]
    r = np.hypot(x, y)
    half = board.line_width / 2

    # the playing surface; darker grain loses more blue, as stained wood does
    shade = wood(rng, size, ppm, look.grain_angle_deg, look.grain_spacing_mm,
                 look.plank_width_mm)
    grain = look.grain if look.surface == "wood" else look.grain * 0.3
    figure = (shade - 1.0) * np.float32(grain)
    img = _bgr(look.surface_rgb) * (1.0 + figure[..., None] * np.float32([1.15, 1.0, 0.85]))
    ink = np.zeros_like(r)
    for radius in board.line_radii:
        np.maximum(ink, _coverage(half - np.abs(r - radius), ppm), out=ink)
    if look.quadrant_lines:
        s = np.float32(math.sqrt(0.5))
        d = np.minimum(np.abs(s * (x - y)), np.abs(s * (x + y)))
        inside = np.minimum(r - board.ten_radius, board.outer_radius - r)
        np.maximum(ink, _coverage(np.minimum(half - d, inside), ppm), out=ink)
    _paint(img, ink, _bgr(look.line_rgb))
    if look.numerals:
        _numerals(img, look, board, ppm, extent)
    hole_r = board.hole_diameter / 2
    c0, c1 = int((extent - hole_r - 2) * ppm), math.ceil((extent + hole_r + 2) * ppm)
    near = r[c0:c1, c0:c1]
    hole = _bgr(look.hole_rgb) * (0.7 + 0.3 * np.clip(near / hole_r, 0, 1))[..., None]
    patch = img[c0:c1, c0:c1]
    patch += _coverage(hole_r - near, ppm)[..., None] * (hole - patch)

    # the ditch floor, darker under the surface's lip, then the rail's inner wall where it shows
    # below the rail top
    floor = (1.0 + 0.04 * _noise(rng, size, ppm, (4.0, 4.0))) * (
        0.55 + 0.45 * np.clip((r - board.surface_radius) / 3.0, 0.0, 1.0))
    _paint(img, _coverage(r - board.surface_radius, ppm), _bgr(look.ditch_rgb), floor)
    _paint(img, _coverage(r - board.ditch_radius, ppm), _bgr(look.rail_rgb) * 0.5)

    # the rail top (its rounded inner edge a little darker) and the room beyond it
    rail_shade = shade.T  # the surface's figure turned across: the rail is other boards
    rail_shade = (1.0 + 0.15 * (rail_shade - 1.0)) * (
        0.8 + 0.2 * np.clip((r - board.ditch_radius) / 3.0, 0.0, 1.0))
    outer = _coverage(board.ditch_radius + look.rail_width_mm - rail_outer(look, board, x, y),
                      ppm)
    top = np.empty_like(img)
    top[:] = _bgr(look.background_rgb)
    _paint(top, outer, _bgr(look.rail_rgb), rail_shade)
    atlas = np.concatenate([cv2.convertScaleAbs(img), cv2.convertScaleAbs(top)], axis=1)
    atlas.flags.writeable = False
    return BoardPicture(atlas=atlas, ppm=ppm, extent=extent)
