"""Discs and pegs in 3D: upright cylinders, drawn by following each pixel's ray.

A disc is 9.5 mm thick and a camera a metre up sees its top face shifted outward by a few mm, with
a sliver of the side that faces the camera showing between top and foot. Vision must correct that
parallax, so the renderer must get it exactly right: every pixel near a solid works out where its
ray passes the cylinder (nearest approach, top face, side), which gives exact, anti-aliased
outlines, the top face at its true height and the side band where it really shows. Shadows are
worked out the same way on the ground below.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from hw_sim.lighting import Lighting
from hw_sim.rig import CameraRig

Box = tuple[int, int, int, int]  # column 0, row 0, column 1, row 1 (exclusive)


@dataclass(frozen=True)
class Cylinder:
    """An upright cylinder standing at (x, y) on the plane ``z0``. Colours are BGR (0..255).

    ``grain`` is the strength of wood figure on the top (its direction, phase and spacing vary
    per disc); ``dome`` gives a peg's rounded, shiny top.
    """

    x: float
    y: float
    z0: float
    height: float
    radius: float
    top_bgr: tuple[float, float, float]
    side_bgr: tuple[float, float, float]
    grain: float = 0.0
    grain_deg: float = 0.0
    grain_phase: float = 0.0
    grain_spacing_mm: float = 2.5
    bevel_mm: float = 1.2
    dome: bool = False

    @property
    def z1(self) -> float:
        return self.z0 + self.height


FOOT_MM = 2.5  # how far out from a solid's foot the light is visibly blocked


def _smoothstep(x: np.ndarray) -> np.ndarray:
    """0 below -1, 1 above 1, smooth in between: soft edges that end, so nothing a solid does
    reaches beyond its footprint."""
    t = np.clip((x + 1.0) / 2.0, 0.0, 1.0)
    return t * t * (3.0 - 2.0 * t)


def footprint(rig: CameraRig, cyl: Cylinder, lighting: Lighting) -> Box | None:
    """The pixel box holding the cylinder, its shadow and their soft edges (None: off frame)."""
    reach = cyl.radius + max(lighting.shadow_length(cyl.height) + lighting.shadow_softness_mm,
                             FOOT_MM) + 1.0
    a = np.linspace(0.0, 2 * np.pi, 24, endpoint=False)
    ring = np.stack([np.cos(a), np.sin(a)], axis=-1)
    base = np.concatenate([ring * reach + (cyl.x, cyl.y), np.full((24, 1), cyl.z0)], axis=1)
    top = np.concatenate([ring * (cyl.radius + 1.0) + (cyl.x, cyl.y), np.full((24, 1), cyl.z1)],
                         axis=1)
    uv = rig.project(np.concatenate([base, top]))
    c0, r0 = np.floor(uv.min(axis=0)).astype(int) - 3
    c1, r1 = np.ceil(uv.max(axis=0)).astype(int) + 4
    c0, r0 = max(c0, 0), max(r0, 0)
    c1, r1 = min(c1, rig.width), min(r1, rig.height)
    if c0 >= c1 or r0 >= r1:
        return None
    return int(c0), int(r0), int(c1), int(r1)


def box_rays(rig: CameraRig, box: Box) -> np.ndarray:
    c0, r0, c1, r1 = box
    u, v = np.meshgrid(np.arange(c0, c1, dtype=np.float64), np.arange(r0, r1, dtype=np.float64))
    return rig.rays(np.stack([u, v], axis=-1))


def cast_shadow(img: np.ndarray, rig: CameraRig, cyl: Cylinder, lighting: Lighting, box: Box,
                rays: np.ndarray) -> None:
    """Darkens the ground (the plane the cylinder stands on) under its soft shadow and, right at
    its foot, where the light cannot reach."""
    c = rig.centre_mm()
    t = (cyl.z0 - c[2]) / rays[..., 2]
    gx = c[0] + t * rays[..., 0] - cyl.x
    gy = c[1] + t * rays[..., 1] - cyl.y
    lx, ly = lighting.toward_light()
    length = lighting.shadow_length(cyl.height)
    # distance to the segment the shadow's centre sweeps, from the foot away from the light
    s = np.clip(-(gx * lx + gy * ly), 0.0, length)
    dist = np.hypot(gx + s * lx, gy + s * ly) - cyl.radius
    soft = max(lighting.shadow_softness_mm, 0.3)
    dark = lighting.shadow * (1.0 - _smoothstep(dist / soft))
    foot = np.hypot(gx, gy) - cyl.radius
    dark = 1.0 - (1.0 - dark) * (1.0 - 0.3 * (1.0 - _smoothstep(foot / FOOT_MM)))
    c0, r0, c1, r1 = box
    img[r0:r1, c0:c1] *= (1.0 - dark).astype(np.float32)[..., None]


def draw(img: np.ndarray, rig: CameraRig, cyl: Cylinder, lighting: Lighting, box: Box,
         rays: np.ndarray) -> None:
    """Paints the cylinder over a float32 BGR frame where its pixels' rays meet it."""
    c = rig.centre_mm()
    dx, dy, dz = rays[..., 0], rays[..., 1], rays[..., 2]
    ex, ey = c[0] - cyl.x, c[1] - cyl.y
    # horizontal distance from the axis along the ray is sqrt(a t^2 + b t + cc)
    a = dx * dx + dy * dy
    b = 2.0 * (ex * dx + ey * dy)
    cc = ex * ex + ey * ey
    t_top = (cyl.z1 - c[2]) / dz
    t_bottom = (cyl.z0 - c[2]) / dz
    t_near = np.clip(-b / (2.0 * a), t_top, t_bottom)
    near = np.sqrt(np.maximum(a * t_near**2 + b * t_near + cc, 0.0))
    mm = rig.mm_per_px(cyl.z1)
    body = np.clip(0.5 + (cyl.radius - near) / mm, 0.0, 1.0)
    if not body.any():
        return
    tx = ex + t_top * dx
    ty = ey + t_top * dy
    at_top = np.hypot(tx, ty)
    face = np.clip(0.5 + (cyl.radius - at_top) / mm, 0.0, 1.0)

    lx, ly = lighting.toward_light()
    top = np.asarray(cyl.top_bgr, np.float64)
    if cyl.dome:
        rho2 = np.minimum((tx * tx + ty * ty) / cyl.radius**2, 1.0)
        hx, hy = 0.35 * cyl.radius * lx, 0.35 * cyl.radius * ly
        spot = np.exp(-((tx - hx) ** 2 + (ty - hy) ** 2) / (0.32 * cyl.radius) ** 2)
        face_rgb = top * (0.65 + 0.35 * (1.0 - rho2))[..., None] + (140.0 * spot)[..., None]
    else:
        g = math.radians(cyl.grain_deg)
        along = tx * math.cos(g) + ty * math.sin(g)
        across = -tx * math.sin(g) + ty * math.cos(g)
        wave = across + 0.8 * np.sin(along / 7.0 + cyl.grain_phase)
        figure = np.sin(wave * (2 * math.pi / cyl.grain_spacing_mm) + cyl.grain_phase) * (
            0.6 + 0.4 * np.sin(wave * (2 * math.pi / 11.0) + 2 * cyl.grain_phase))
        rim = np.clip((cyl.radius - at_top) / cyl.bevel_mm, 0.0, 1.0)
        shade = (1.0 + cyl.grain * figure) * (0.72 + 0.28 * np.sqrt(rim))
        face_rgb = top * shade[..., None]

    # the side, lit by how squarely it faces the lamp and darker toward its foot
    disc = b * b - 4.0 * a * (cc - cyl.radius**2)
    t_in = np.where(disc > 0, (-b - np.sqrt(np.maximum(disc, 0.0))) / (2.0 * a), t_near)
    t_in = np.clip(t_in, t_top, t_bottom)
    nx = (ex + t_in * dx) / cyl.radius
    ny = (ey + t_in * dy) / cyl.radius
    up = np.clip((c[2] + t_in * dz - cyl.z0) / cyl.height, 0.0, 1.0)
    lit = (0.55 + 0.45 * np.clip(nx * lx + ny * ly, 0.0, 1.0)) * (0.7 + 0.3 * up)
    side_rgb = np.asarray(cyl.side_bgr, np.float64) * lit[..., None]

    colour = side_rgb + face[..., None] * (face_rgb - side_rgb)
    c0, r0, c1, r1 = box
    roi = img[r0:r1, c0:c1]
    roi += (body[..., None] * (colour - roi)).astype(np.float32)


@dataclass(frozen=True, eq=False)
class Placed:
    """A solid in a frame: the pixel box it may change and the rays of that box's pixels."""

    cyl: Cylinder
    box: Box
    rays: np.ndarray


def place(rig: CameraRig, solids: list[Cylinder], lighting: Lighting) -> list[Placed]:
    """The solids that show in the frame, with their boxes."""
    placed = []
    for cyl in solids:
        box = footprint(rig, cyl, lighting)
        if box is not None:
            placed.append(Placed(cyl, box, box_rays(rig, box)))
    return placed


def paint(img: np.ndarray, rig: CameraRig, placed: list[Placed], lighting: Lighting) -> None:
    """Shadows first, then the solids from the outside in, so a solid nearer the point under the
    camera hides the side of one further out, as it does in a real frame. Only the solids' boxes
    of ``img`` are read or written."""
    c = rig.centre_mm()
    for p in placed:
        cast_shadow(img, rig, p.cyl, lighting, p.box, p.rays)
    for p in sorted(placed, key=lambda p: -math.hypot(p.cyl.x - c[0], p.cyl.y - c[1])):
        draw(img, rig, p.cyl, lighting, p.box, p.rays)
