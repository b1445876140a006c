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

from hw_sim.errors import SimSettingError
from rules.board import Board

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class DiscSet:
    """The two disc colours on a board. Team 0 plays the darker discs, as the vision contract
    says; ``grain`` is how much wood figure shows on the faces (0 for painted or plastic).

    Sets are not always a matched pair of new discs: ``worn`` (0 to 1) rubs their paint through
    to ``wear_rgb``, and a side whose set was made up from two (``second_team``) plays some of
    its discs in ``second_rgb``, a shade of its own colour.
    """

    name: str
    dark_rgb: RGB
    light_rgb: RGB
    grain: float
    worn: float = 0.0
    wear_rgb: RGB = (200, 170, 120)
    second_rgb: RGB | None = None
    second_team: int = 1


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

# what real boards add to those: lacquered black and navy tops, natural veneers of strong figure
BLACKS: tuple[RGB, ...] = ((26, 26, 28), (34, 32, 32), (20, 22, 26))
NAVIES: tuple[RGB, ...] = ((26, 36, 72), (30, 44, 90), (22, 30, 58))
NATURALS: tuple[RGB, ...] = ((222, 184, 132), (204, 160, 106), (178, 128, 80), (232, 200, 150))
# the sides' colours of real sets: dark ones, and natural wood or a colour for the other
DARK_DISCS: tuple[tuple[str, RGB], ...] = (
    ("black", (30, 30, 32)), ("navy", (30, 40, 82)), ("dark red", (112, 26, 30)),
    ("dark wood", (86, 54, 36)))
LIGHT_DISCS: tuple[tuple[str, RGB], ...] = (
    ("natural", (218, 188, 138)), ("pale natural", (232, 210, 166)), ("red", (186, 40, 38)),
    ("white", (236, 234, 226)), ("yellow", (226, 190, 60)), ("pink", (226, 120, 150)),
    ("green", (60, 150, 80)))
# a third colour for a felt or painted ditch
DITCHES: tuple[RGB, ...] = ((36, 96, 52), (150, 32, 36), (34, 52, 120), (24, 24, 24),
                            (96, 30, 40), (200, 190, 170))


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


def _varied_disc_set(rng: random.Random, surface: RGB) -> DiscSet:
    """A real club's set: a dark side (black, navy, dark red, dark wood) against natural wood or
    a colour, which may come close to the board's own colour (but not so close a player could
    not tell), sometimes worn, sometimes one side in two shades."""
    for _ in range(200):
        (dn, dark), (ln, light) = rng.choice(DARK_DISCS), rng.choice(LIGHT_DISCS)
        dark, light = _jitter(rng, dark, 0.1), _jitter(rng, light, 0.06)
        if (luma(light) - luma(dark) >= 30 and math.dist(dark, light) >= 80
                and min(math.dist(dark, surface), math.dist(light, surface)) >= 30):
            break
    else:
        dn, ln, dark, light = "black", "white", (30, 30, 32), (236, 234, 226)
    natural = "natural" in ln or "wood" in dn
    worn = rng.uniform(0.2, 0.7) if rng.random() < 0.3 else 0.0
    wear = _jitter(rng, (196, 160, 110), 0.1) if not natural else _jitter(rng, (120, 96, 70),
                                                                          0.1)
    second, team = None, 1
    if rng.random() < 0.2:  # one side made up from two sets: a shade of its own colour
        team = rng.randint(0, 1)
        base = dark if team == 0 else light
        second = _jitter(rng, tuple(int(min(255, c * rng.choice((0.75, 1.2)))) for c in base),
                         0.03)
        if (team == 0 and luma(second) >= luma(light) - 20) or \
                (team == 1 and luma(second) <= luma(dark) + 20):
            second = None
    return DiscSet(f"{dn}-{ln}", dark, light, rng.uniform(0.12, 0.3) if natural else 0.03,
                   worn=worn, wear_rgb=wear, second_rgb=second, second_team=team)


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
    rail: Literal["octagon", "round", "square"] = "octagon"
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
    # what real boards add (the defaults leave a look as the first looks were):
    ditch_outline: Literal["round", "frame"] = "round"  # the ditch's outside follows the frame
    ditch_finish: Literal["wood", "felt", "painted"] = "wood"
    seams: float = 0.0  # how dark the veneer's seams show (0: none), at the planks' edges
    spare_rgb: RGB | None = None  # a third set of discs lying in the ditch
    spares: int = 0

    def __post_init__(self) -> None:
        if luma(self.discs.dark_rgb) >= luma(self.discs.light_rgb):
            raise SimSettingError(
                f"disc set {self.discs.name!r}: team 0's colour must be the darker")
        for name in ("rail_width_mm", "rail_height_mm", "numeral_height_mm", "peg_height_mm",
                     "grain_spacing_mm", "plank_width_mm", "ditch_depth_mm"):
            if getattr(self, name) <= 0:
                raise SimSettingError(
                    f"board look {name} must be positive, got {getattr(self, name)}")
        if self.rail not in ("octagon", "round", "square"):
            raise SimSettingError(f"a board's frame is 'octagon', 'round' or 'square', not "
                             f"{self.rail!r}")
        if self.spares < 0 or (self.spares and self.spare_rgb is None):
            raise SimSettingError("spare discs need a colour (spare_rgb) and a count of 0 or more")

    def team_rgb(self, team: int, second: bool = False) -> RGB:
        """A side's disc colour (``second``: its second shade, where the side has one)."""
        if second and self.discs.second_rgb is not None and team == self.discs.second_team:
            return self.discs.second_rgb
        return self.discs.dark_rgb if team == 0 else self.discs.light_rgb

    @property
    def colour(self) -> str:
        """What the board looks like, in a word or two (how a bench splits its figures)."""
        r, _, b = self.surface_rgb
        y = luma(self.surface_rgb)
        if self.surface == "painted":
            if y < 45:
                return "black"
            if b > r + 15 and y < 100:
                return "navy"
            return "light paint" if y >= 150 else "colour paint"
        if self.seams > 0 or self.grain >= 0.3:
            return "natural wood"
        return "pale wood" if y >= 150 else "mid wood" if y >= 95 else "dark wood"

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

    @classmethod
    def varied(cls, rng: random.Random) -> BoardLook:
        """A board as real clubs own them, beyond :meth:`random`'s: black, navy and natural
        veneer tops (strong grain, seams across the lines) besides the woods and paints; round,
        octagonal or square frames, the ditch's outside sometimes following the frame; felt or
        painted ditches of a third colour; holes with a red or pale bottom; real disc sets
        (:func:`_varied_disc_set`), and sometimes a third set lying in the ditch."""
        kind = rng.choices(("wood", "natural", "black", "navy", "painted"), (3, 3, 2, 1, 1))[0]
        palette = {"wood": WOODS, "natural": NATURALS, "black": BLACKS, "navy": NAVIES,
                   "painted": PAINTS}[kind]
        surface = _jitter(rng, rng.choice(palette), 0.06)
        wood = kind in ("wood", "natural")
        dark = luma(surface) < 110
        line = _jitter(rng, rng.choice(((236, 226, 200), (220, 190, 90), (230, 230, 230))), 0.05) \
            if dark else _jitter(rng, rng.choice(((24, 22, 24), (20, 20, 20), (90, 30, 24))), 0.2)
        if abs(luma(line) - luma(surface)) < 70:
            line = (236, 226, 200) if luma(surface) < 128 else (22, 20, 22)
        rail = _jitter(rng, rng.choice(((46, 32, 26), (30, 26, 24), (90, 56, 34), (150, 100, 60),
                                        (24, 24, 26), (200, 160, 110))), 0.1)
        discs = _varied_disc_set(rng, surface)
        frame = rng.choices(("round", "octagon", "square"), (35, 45, 20))[0]
        finish = rng.choices(("wood", "felt", "painted"), (4, 3, 3))[0]
        ditch = _jitter(rng, rail, 0.2) if finish == "wood" else _jitter(rng, rng.choice(DITCHES),
                                                                         0.1)
        hole = _jitter(rng, rng.choice(((28, 28, 32), (28, 28, 32), (150, 36, 40),
                                        (200, 170, 120))), 0.1)
        spare = None
        if rng.random() < 0.2:
            spare = _jitter(rng, rng.choice([c for _, c in DARK_DISCS + LIGHT_DISCS
                                             if min(math.dist(c, discs.dark_rgb),
                                                    math.dist(c, discs.light_rgb)) > 90]
                                            or [(60, 150, 80)]), 0.05)
        return cls(
            surface="wood" if wood else "painted", surface_rgb=surface,
            grain=(rng.uniform(0.3, 0.5) if kind == "natural" else rng.uniform(0.1, 0.28))
            if wood else rng.uniform(0.0, 0.04),
            grain_angle_deg=rng.uniform(0, 180), grain_spacing_mm=rng.uniform(3, 9),
            plank_width_mm=rng.uniform(60, 150) if kind == "natural" else rng.uniform(90, 220),
            line_rgb=line, numerals=rng.random() < 0.7, numerals_face_centre=rng.random() < 0.8,
            numeral_rgb=line, numeral_height_mm=rng.uniform(15, 26),
            quadrant_lines=rng.random() < 0.85, rail=frame, rail_rgb=rail,
            rail_width_mm=rng.uniform(30, 70), rail_height_mm=rng.uniform(15, 35),
            ditch_rgb=ditch, ditch_depth_mm=rng.uniform(6, 14), hole_rgb=hole,
            peg_rgb=_jitter(rng, rng.choice(((22, 20, 20), (60, 40, 28), (150, 110, 70),
                                             (200, 200, 200))), 0.1),
            peg_height_mm=rng.uniform(14, 22),
            background_rgb=_jitter(rng, rng.choice(((60, 58, 56), (30, 30, 32), (120, 118, 112),
                                                    (90, 70, 50), (170, 150, 120))), 0.2),
            discs=discs, texture_seed=rng.randrange(2**31),
            ditch_outline="frame" if frame != "round" and rng.random() < 0.3 else "round",
            ditch_finish=finish, seams=rng.uniform(0.25, 0.6) if kind == "natural" else 0.0,
            spare_rgb=spare, spares=rng.randint(3, 8) if spare else 0)


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
    sides facing the seats), the square's, or the plain radius of a round rail."""
    if look.rail == "round":
        return np.hypot(x, y)
    square = np.maximum(np.abs(x), np.abs(y))
    if look.rail == "square":
        return square
    s = math.sqrt(0.5)
    return np.maximum(square, np.maximum(np.abs(s * (x + y)), np.abs(s * (x - y))))


def rail_inner(look: BoardLook, board: Board, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The ditch's outside (the rail's inner wall) as a 'radius', to compare with
    ``board.ditch_radius``: round, or the frame's shape where the ditch follows the frame."""
    return rail_outer(look, board, x, y) if look.ditch_outline == "frame" else np.hypot(x, y)


def rail_reach(look: BoardLook, board: Board) -> float:
    """The furthest the rail extends from the centre, in mm."""
    apothem = board.ditch_radius + look.rail_width_mm
    return apothem / {"octagon": math.cos(math.pi / 8), "square": math.sqrt(0.5),
                      "round": 1.0}[look.rail]


def _seams(img: np.ndarray, look: BoardLook, x: np.ndarray, y: np.ndarray, ppm: float) -> None:
    """Darkens the veneer's seams: thin lines along the grain at the planks' edges (where
    :func:`wood` changes tone), running on under the painted lines."""
    a = math.radians(look.grain_angle_deg)
    across = x * np.float32(-math.sin(a)) + y * np.float32(math.cos(a))
    frac = across / np.float32(look.plank_width_mm)
    d = np.abs(frac - np.round(frac)) * np.float32(look.plank_width_mm)
    seam = _coverage(np.float32(0.35) - d, ppm)
    img *= (1.0 - np.float32(look.seams) * seam)[..., None]


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
    if look.seams > 0:
        _seams(img, look, x, y, ppm)
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
    if look.ditch_finish == "felt":  # a fine, matte nap
        floor *= 1.0 + 0.09 * _noise(np.random.default_rng([look.texture_seed, 7]), size, ppm,
                                     (0.6, 0.6))
    elif look.ditch_finish == "painted":  # smooth, with a little sheen toward the wall
        floor *= 1.0 + 0.06 * np.clip((r - board.surface_radius) / 40.0, 0.0, 1.0)
    _paint(img, _coverage(r - board.surface_radius, ppm), _bgr(look.ditch_rgb), floor)
    inner = r if look.ditch_outline == "round" else rail_inner(look, board, x, y)
    _paint(img, _coverage(inner - board.ditch_radius, ppm), _bgr(look.rail_rgb) * 0.5)

    # the rail top (its rounded inner edge a little darker) and the room beyond it
    rail_shade = shade.T  # the surface's figure turned across: the rail is other boards
    rail_shade = (1.0 + 0.15 * (rail_shade - 1.0)) * (
        0.8 + 0.2 * np.clip((inner - board.ditch_radius) / 3.0, 0.0, 1.0))
    outer = _coverage(board.ditch_radius + look.rail_width_mm - rail_outer(look, board, x, y),
                      ppm)
    top = np.empty_like(img)
    top[:] = _bgr(look.background_rgb)
    _paint(top, outer, _bgr(look.rail_rgb), rail_shade)
    atlas = np.concatenate([cv2.convertScaleAbs(img), cv2.convertScaleAbs(top)], axis=1)
    atlas.flags.writeable = False
    return BoardPicture(atlas=atlas, ppm=ppm, extent=extent)
