"""What else a camera over a real board sees: the table, what lies on it, and the players.

Real frames are never of a board alone. Around it lie the table's edge and the floor beyond, a
holder or a heap of discs, score sheets, phones, cups and pencils; over its edge reach the players'
arms and hands; a streamed match carries a score overlay. Each is a trap for vision (a disc-sized
circle off the board, a bright sheet that fools the exposure, a hand over the discs), so the
simulator draws them on purpose: the table's things once per rig (they lie still), the arms per
frame. The truth says which discs they hide.
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass
from typing import Literal

import cv2
import numpy as np

from hw_sim.look import RGB, BoardLook, _jitter, rail_reach
from hw_sim.rig import CameraRig
from rules.board import Board

TABLE_Z = -30.0  # the table's top, below the playing surface (the board stands on it)
SHIFT = 4  # fixed-point bits for cv2's sub-pixel polygons
PropKind = Literal["table edge", "holder", "disc", "sheet", "phone", "cup", "pencil"]
SKINS: tuple[RGB, ...] = ((232, 190, 160), (200, 150, 115), (160, 110, 80), (110, 75, 55))
SLEEVES: tuple[RGB, ...] = ((30, 30, 34), (40, 60, 120), (160, 30, 30), (230, 230, 225),
                            (90, 110, 70), (120, 120, 125))


@dataclass(frozen=True)
class Prop:
    """One thing on the table, in board millimetres on the table's plane: its centre, size
    (radius, or half its length), turn, colours and (for a sheet or phone) width over length.
    A table edge is the line through (x, y) square to ``angle_deg``; beyond it is the floor."""

    kind: PropKind
    x_mm: float
    y_mm: float
    size_mm: float
    angle_deg: float
    rgb: RGB
    rgb2: RGB = (0, 0, 0)
    aspect: float = 1.0


@dataclass(frozen=True)
class Arm:
    """A player's forearm and hand over the board, ``z_mm`` above the playing surface: from
    (x0, y0), beyond the frame's edge, to the wrist at (x1, y1)."""

    x0: float
    y0: float
    x1: float
    y1: float
    z_mm: float
    width_mm: float
    skin: RGB
    sleeve: RGB
    sleeve_to: float  # how far along the forearm the sleeve reaches (0: bare arm)


@dataclass(frozen=True)
class Surroundings:
    """What a rig sees besides the board: the table's things, how often the players' arms show
    in a frame, their skins and sleeves, and a stream's score overlay."""

    props: tuple[Prop, ...] = ()
    players: float = 0.0
    skins: tuple[RGB, ...] = ()
    sleeves: tuple[RGB, ...] = ()
    overlay: bool = False

    @property
    def hazards(self) -> tuple[str, ...]:
        kinds = {p.kind for p in self.props}
        names = {"table edge": "table edge", "holder": "disc holder", "disc": "loose discs",
                 "sheet": "score sheet", "phone": "clutter", "cup": "clutter",
                 "pencil": "clutter"}
        out = sorted({names[k] for k in kinds})
        return tuple(out + (["overlay"] if self.overlay else []))

    @classmethod
    def random(cls, rng: random.Random, look: BoardLook, board: Board, rig: CameraRig
               ) -> Surroundings:
        """A club's table, drawn from ``rng``: each kind of thing now and then, placed beyond
        the rail, and players that reach over the board in some rigs' frames."""
        reach = rail_reach(look, board)
        props: list[Prop] = []
        if rng.random() < 0.35:
            props.append(_polar_prop(rng, "table edge", reach + rng.uniform(30, 250),
                                     _jitter(rng, rng.choice(((70, 60, 50), (140, 130, 120),
                                                             (40, 40, 44))), 0.2)))
        if rng.random() < 0.3:
            props.append(_polar_prop(rng, "holder", reach + rng.uniform(60, 140),
                                     _jitter(rng, (60, 44, 30), 0.3), size=rng.uniform(45, 60),
                                     rgb2=look.team_rgb(rng.randint(0, 1))))
        for _ in range(rng.choice((0, 0, 0, 2, 4))):
            props.append(_polar_prop(rng, "disc", reach + rng.uniform(25, 200),
                                     look.team_rgb(rng.randint(0, 1)), size=board.disc_radius))
        if rng.random() < 0.3:
            props.append(_polar_prop(rng, "sheet", reach + rng.uniform(100, 200),
                                     _jitter(rng, (240, 238, 230), 0.04), size=140.0,
                                     rgb2=(40, 50, 120), aspect=0.7))
        for kind in ("phone", "cup", "pencil"):
            if rng.random() < 0.15:
                colour = {"phone": (20, 20, 24), "cup": (230, 230, 225), "pencil": (220, 180, 40)}
                size = {"phone": 75.0, "cup": 42.0, "pencil": 90.0}[kind]
                props.append(_polar_prop(rng, kind, reach + rng.uniform(40, 200),
                                         _jitter(rng, colour[kind], 0.1), size=size,
                                         rgb2=(200, 60, 40), aspect=0.48))
        players = {"video": 0.6, "phone": 0.2}.get(rig.view, 0.3) if rng.random() < 0.6 else 0.0
        return cls(tuple(props), players,
                   tuple(_jitter(rng, rng.choice(SKINS), 0.06) for _ in range(4)),
                   tuple(_jitter(rng, rng.choice(SLEEVES), 0.1) for _ in range(4)),
                   overlay=rig.view == "video" and rng.random() < 0.7)


def _polar_prop(rng: random.Random, kind: PropKind, r: float, rgb: RGB, *, size: float = 0.0,
                rgb2: RGB = (0, 0, 0), aspect: float = 1.0) -> Prop:
    a = rng.uniform(0, 2 * math.pi)
    return Prop(kind, r * math.cos(a), r * math.sin(a), size, math.degrees(a)
                if kind == "table edge" else rng.uniform(0, 360), rgb, rgb2, aspect)


def arms(rng: np.random.Generator, surroundings: Surroundings, look: BoardLook,
         board: Board) -> tuple[Arm, ...]:
    """The arms showing in one frame (often none): from beyond the rail toward the board, the
    hand over the rail or the ditch, now and then over the outer part of the playing surface."""
    if surroundings.players <= 0 or rng.random() >= surroundings.players:
        return ()
    out = []
    for _ in range(1 if rng.random() < 0.7 else 2):
        a = rng.uniform(0, 2 * math.pi)
        hand = float(rng.choice((rail_reach(look, board) - 10.0, board.ditch_radius - 10.0,
                                 board.surface_radius - 25.0), p=(0.45, 0.4, 0.15)))
        hand += rng.uniform(-15, 15)
        sway = rng.uniform(-0.5, 0.5)
        start = rail_reach(look, board) + 700.0
        out.append(Arm(start * math.cos(a + sway), start * math.sin(a + sway),
                       hand * math.cos(a), hand * math.sin(a), float(rng.uniform(60, 200)),
                       float(rng.uniform(65, 95)),
                       surroundings.skins[int(rng.integers(len(surroundings.skins)))],
                       surroundings.sleeves[int(rng.integers(len(surroundings.sleeves)))],
                       float(rng.choice((0.0, rng.uniform(0.2, 0.8))))))
    return tuple(out)


# -- drawing ---------------------------------------------------------------------------------


def _poly(rig: CameraRig, pts: np.ndarray, z: float) -> np.ndarray:
    """Board points (N, 2) at height z as a closed fixed-point pixel polygon for cv2.

    Its edges are cut into steps of 10 mm so the lens's bending shows, and points beyond the
    frame are pulled in (along their ray's direction) to a little outside it: far out, the
    lens model folds back on itself and would throw them anywhere."""
    closed = np.concatenate([pts, pts[:1]])
    dense = []
    for a, b in itertools.pairwise(closed):
        n = max(1, int(math.dist(a, b) / 10.0))
        dense.append(a + (b - a) * (np.arange(n) / n)[:, None])
    p = np.concatenate(dense)
    cam = np.concatenate([p, np.full((len(p), 1), z)], axis=1) @ rig.rotation().T
    cam += rig.translation()
    depth = np.maximum(cam[:, 2], 1.0)
    x, y = cam[:, 0] / depth, cam[:, 1] / depth
    corners = np.array([[0, 0], [rig.width, 0], [0, rig.height], [rig.width, rig.height]],
                       np.float64)
    cx, cy = rig.undistort(corners)
    safe = 1.15 * float(np.hypot(cx, cy).max())
    r = np.hypot(x, y)
    scale = np.where(r > safe, safe / np.maximum(r, 1e-12), 1.0)
    xd, yd = rig._distort(x * scale, y * scale)
    uv = np.stack([rig.fx * xd + rig.cx, rig.fy * yd + rig.cy], axis=-1)
    return np.round(uv * (1 << SHIFT)).astype(np.int32)


def _rect(x: float, y: float, half_l: float, half_w: float, deg: float) -> np.ndarray:
    a = math.radians(deg)
    u, v = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
    return np.array([[x, y] + su * half_l * u + sv * half_w * v
                     for su, sv in ((1, 1), (-1, 1), (-1, -1), (1, -1))])


def _circle(x: float, y: float, r: float, n: int = 48) -> np.ndarray:
    a = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return np.stack([x + r * np.cos(a), y + r * np.sin(a)], axis=-1)


def _box(poly: np.ndarray, width: int, height: int, margin: int = 2
         ) -> tuple[int, int, int, int] | None:
    """The pixel box (c0, r0, c1, r1) a fixed-point polygon covers, clipped to the frame."""
    lo = np.floor(poly.min(axis=0) / (1 << SHIFT)).astype(int) - margin
    hi = np.ceil(poly.max(axis=0) / (1 << SHIFT)).astype(int) + margin
    c0, r0 = max(0, int(lo[0])), max(0, int(lo[1]))
    c1, r1 = min(width, int(hi[0])), min(height, int(hi[1]))
    return (c0, r0, c1, r1) if c0 < c1 and r0 < r1 else None


def _fill(layer: np.ndarray, alpha: np.ndarray, poly: np.ndarray, bgr: tuple[float, ...]) -> None:
    """Paints a polygon into ``layer`` and its coverage into ``alpha``, in its box only."""
    box = _box(poly, alpha.shape[1], alpha.shape[0])
    if box is None:
        return
    c0, r0, c1, r1 = box
    mask = np.zeros((r1 - r0, c1 - c0), np.uint8)
    cv2.fillPoly(mask, [poly - np.int32([c0 << SHIFT, r0 << SHIFT])], 255, cv2.LINE_AA, SHIFT)
    m = mask.astype(np.float32) / 255.0
    part = layer[r0:r1, c0:c1]
    part += m[..., None] * (np.asarray(bgr, np.float32) - part)
    np.maximum(alpha[r0:r1, c0:c1], m, out=alpha[r0:r1, c0:c1])


def paint_props(board_img: np.ndarray, beyond: np.ndarray, rig: CameraRig,
                surroundings: Surroundings) -> None:
    """Draws the table's things over a rig's empty-board picture (BGR uint8, changed in place)
    where the frame sees past the rail (``beyond``)."""
    if not surroundings.props:
        return
    h, w = board_img.shape[:2]
    layer = board_img.astype(np.float32)
    alpha = np.zeros((h, w), np.float32)
    for p in sorted(surroundings.props, key=lambda p: p.kind != "table edge"):
        colour = tuple(float(c) for c in p.rgb[::-1])
        second = tuple(float(c) for c in p.rgb2[::-1])
        if p.kind == "table edge":  # the floor beyond the edge: a big polygon on that side
            a = math.radians(p.angle_deg)
            n, t = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
            base = np.array([p.x_mm, p.y_mm])
            pts = np.array([base + 3000 * t, base + 3000 * t + 3000 * n,
                            base - 3000 * t + 3000 * n, base - 3000 * t])
            _fill(layer, alpha, _poly(rig, pts, TABLE_Z), colour)
        elif p.kind == "holder":
            _fill(layer, alpha, _poly(rig, _circle(p.x_mm, p.y_mm, p.size_mm), TABLE_Z),
                  colour)
            for k in range(3):  # discs standing in it, their tops at the holder's rim
                dx = (k - 1) * 0.55 * p.size_mm
                _fill(layer, alpha, _poly(rig, _circle(p.x_mm + dx, p.y_mm, 15.0), TABLE_Z + 40),
                      second)
        elif p.kind in ("disc", "cup"):
            _fill(layer, alpha, _poly(rig, _circle(p.x_mm, p.y_mm, p.size_mm),
                                      TABLE_Z + (9.5 if p.kind == "disc" else 90.0)), colour)
            if p.kind == "cup":
                _fill(layer, alpha, _poly(rig, _circle(p.x_mm, p.y_mm, p.size_mm - 5),
                                          TABLE_Z + 90.0), (40.0, 60.0, 90.0))
        else:  # sheet, phone, pencil: rectangles
            half_w = p.size_mm * p.aspect if p.kind != "pencil" else 3.5
            _fill(layer, alpha, _poly(rig, _rect(p.x_mm, p.y_mm, p.size_mm, half_w,
                                                 p.angle_deg), TABLE_Z + 1), colour)
            if p.kind == "sheet":  # ruled lines and scores in ink
                for k in range(-8, 9, 2):
                    a = math.radians(p.angle_deg)
                    off = np.array([-math.sin(a), math.cos(a)]) * k * half_w / 9
                    line = _rect(p.x_mm + off[0], p.y_mm + off[1], p.size_mm * 0.85, 0.5,
                                 p.angle_deg)
                    _fill(layer, alpha, _poly(rig, line, TABLE_Z + 1.5), second)
    keep = (alpha * beyond)[..., None]
    out = board_img.astype(np.float32)
    out += keep * (layer - out)
    board_img[:] = cv2.convertScaleAbs(out)


def arm_mask(rig: CameraRig, arm_list: tuple[Arm, ...]) -> np.ndarray | None:
    """Where the arms cover the frame (float32, 0 to 1), or None without arms."""
    if not arm_list:
        return None
    mask = np.zeros((rig.height, rig.width), np.uint8)
    for arm in arm_list:
        for poly in _arm_polys(arm):
            cv2.fillPoly(mask, [_poly(rig, poly, arm.z_mm)], 255, cv2.LINE_AA, SHIFT)
    return mask.astype(np.float32) / 255.0


def _capsule(a: np.ndarray, b: np.ndarray, r: float, n: int = 10) -> np.ndarray:
    """A stadium from a to b, ``r`` wide either side: a finger, a thumb."""
    d = b - a
    ang = math.atan2(d[1], d[0])
    ends = []
    for centre, start in ((b, ang - math.pi / 2), (a, ang + math.pi / 2)):
        t = start + np.linspace(0, math.pi, n)
        ends.append(centre + r * np.stack([np.cos(t), np.sin(t)], axis=-1))
    return np.concatenate(ends)


def _arm_polys(arm: Arm) -> list[np.ndarray]:
    """The forearm (a long rectangle), the palm (an oval), four fingers and a thumb."""
    d = np.array([arm.x1 - arm.x0, arm.y1 - arm.y0])
    length = float(np.linalg.norm(d))
    u = d / length
    deg = math.degrees(math.atan2(u[1], u[0]))
    mid = (np.array([arm.x0, arm.y0]) + np.array([arm.x1, arm.y1])) / 2
    polys = [_rect(mid[0], mid[1], length / 2, arm.width_mm / 2, deg)]
    palm = np.array([arm.x1, arm.y1]) + u * 40
    a = np.linspace(0, 2 * np.pi, 32, endpoint=False)
    v = np.array([-u[1], u[0]])
    polys.append(palm + np.outer(np.cos(a) * 50, u) + np.outer(np.sin(a) * 42, v))
    for k, reach in enumerate((62.0, 72.0, 70.0, 56.0)):  # fingers side by side, a hair apart
        base = palm + u * 30 + v * (k - 1.5) * 18.5
        polys.append(_capsule(base, base + u * reach, 8.6))
    thumb = palm + v * 34 - u * 5
    polys.append(_capsule(thumb, thumb + (u * 0.6 + v * 0.8) * 50, 10.0))
    return polys


def paint_arms(img: np.ndarray, rig: CameraRig, arm_list: tuple[Arm, ...], gain: np.ndarray,
               toward_light: tuple[float, float]) -> None:
    """Draws the arms over a lit frame (float32 BGR, in place): their soft shadow on what is
    below first, then skin and sleeves, rounder toward the middle, lit by the room's light.
    Only the box around the arms and their shadow is worked on."""
    mask = arm_mask(rig, arm_list)
    if mask is None:
        return
    px = 1.0 / rig.mm_per_px()
    rows, cols = np.nonzero(mask)
    if not len(rows):
        return
    pad = int(60 * px) + 4
    r0, r1 = max(0, rows.min() - pad), min(rig.height, rows.max() + pad + 1)
    c0, c1 = max(0, cols.min() - pad), min(rig.width, cols.max() + pad + 1)
    m = mask[r0:r1, c0:c1]
    shift = np.float32([[1, 0, -toward_light[0] * 40 * px], [0, 1, -toward_light[1] * 40 * px]])
    shadow = cv2.warpAffine(m, shift, (c1 - c0, r1 - r0))
    shadow = _blur(shadow, 12 * px)
    roi = img[r0:r1, c0:c1]
    roi *= (1.0 - 0.45 * shadow)[..., None]
    core = _blur(m, 18 * px)
    soft = cv2.GaussianBlur(m, (0, 0), max(0.6, 1.2 * px))
    colour = np.zeros_like(roi)
    for arm in arm_list:
        one = arm_mask(rig, (arm,))[r0:r1, c0:c1]
        sleeve = _sleeve_mask(rig, arm)[r0:r1, c0:c1]
        skin = np.asarray(arm.skin[::-1], np.float32)
        cloth = np.asarray(arm.sleeve[::-1], np.float32)
        part = skin[None, None, :] * (1 - sleeve[..., None]) + cloth * sleeve[..., None]
        colour += one[..., None] * (part - colour)
    shade = (0.6 + 0.5 * np.clip(core, 0, 1))[..., None]
    lit = colour * shade * gain[r0:r1, c0:c1]
    roi += soft[..., None] * (lit - roi)


def _blur(img: np.ndarray, sigma: float) -> np.ndarray:
    """A wide Gaussian blur, made at a quarter of the size (it is smooth) and blown up."""
    if sigma < 8:
        return cv2.GaussianBlur(img, (0, 0), sigma)
    h, w = img.shape[:2]
    small = cv2.resize(img, (max(1, w // 4), max(1, h // 4)), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), sigma / 4)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def _sleeve_mask(rig: CameraRig, arm: Arm) -> np.ndarray:
    mask = np.zeros((rig.height, rig.width), np.uint8)
    if arm.sleeve_to > 0:
        x = arm.x0 + (arm.x1 - arm.x0) * arm.sleeve_to
        y = arm.y0 + (arm.y1 - arm.y0) * arm.sleeve_to
        d = math.hypot(x - arm.x0, y - arm.y0)
        deg = math.degrees(math.atan2(y - arm.y0, x - arm.x0))
        rect = _rect((x + arm.x0) / 2, (y + arm.y0) / 2, d / 2, arm.width_mm / 2 + 4, deg)
        cv2.fillPoly(mask, [_poly(rig, rect, arm.z_mm + 2)], 255, cv2.LINE_AA, SHIFT)
    return mask.astype(np.float32) / 255.0


def overlay_boxes(rig: CameraRig) -> list[tuple[int, int, int, int]]:
    """A stream's score overlay: a box at each top corner (pixel boxes c0, r0, c1, r1)."""
    w, h = rig.width, rig.height
    bw, bh = int(0.2 * w), int(0.09 * h)
    m = int(0.02 * w)
    return [(m, m, m + bw, m + bh), (w - m - bw, m, w - m, m + bh)]


def paint_overlay(frame: np.ndarray, rig: CameraRig, scores: tuple[int, int]) -> None:
    """Draws the overlay (after the camera: it is added to the stream) on a BGR uint8 frame."""
    for (c0, r0, c1, r1), score in zip(overlay_boxes(rig), scores, strict=True):
        roi = frame[r0:r1, c0:c1]
        roi[:] = (roi.astype(np.float32) * 0.25 + np.float32([60, 20, 10]) * 0.75).astype(
            np.uint8)
        cv2.putText(frame, f"PLAYER {score}", (c0 + 8, r1 - (r1 - r0) // 3),
                    cv2.FONT_HERSHEY_SIMPLEX, (r1 - r0) / 60, (255, 255, 255), 2, cv2.LINE_AA)


def cover_mask(rig: CameraRig, arm_list: tuple[Arm, ...], overlay: bool) -> np.ndarray | None:
    """Where the frame shows neither board nor discs (arms, the overlay), 0 to 1; None: none."""
    mask = arm_mask(rig, arm_list)
    if overlay:
        mask = np.zeros((rig.height, rig.width), np.float32) if mask is None else mask
        for c0, r0, c1, r1 in overlay_boxes(rig):
            mask[r0:r1, c0:c1] = 1.0
    return mask
