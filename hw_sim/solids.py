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
    per disc); ``dome`` gives a peg's rounded, shiny top. ``wear`` (0 to 1) rubs the top's paint
    through to ``wear_bgr`` in blotches and along the rim, in a pattern set by ``wear_phase``.

    A cylinder may lean: ``tilt_deg`` from upright, its raised side toward the board angle
    ``tilt_toward_deg``; (x, y, z0) is then the centre of its bottom face (upright, that is its
    foot), and its axis leans away from the raised side.
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
    wear: float = 0.0
    wear_bgr: tuple[float, float, float] = (120.0, 170.0, 200.0)
    wear_phase: tuple[float, float, float] = (0.0, 0.0, 0.0)
    tilt_deg: float = 0.0
    tilt_toward_deg: float = 0.0

    @property
    def z1(self) -> float:
        """The top's height (of the top face's centre, for a leaning cylinder)."""
        return self.z0 + self.height * math.cos(math.radians(self.tilt_deg))

    def axes(self) -> np.ndarray:
        """Columns: the cylinder's own x (toward its raised side), y and axis, in board
        coordinates."""
        a, f = math.radians(self.tilt_deg), math.radians(self.tilt_toward_deg)
        return np.array([[math.cos(a) * math.cos(f), -math.sin(f), -math.sin(a) * math.cos(f)],
                         [math.cos(a) * math.sin(f), math.cos(f), -math.sin(a) * math.sin(f)],
                         [math.sin(a), 0.0, math.cos(a)]])

    def rims(self, n: int = 24) -> np.ndarray:
        """Points (2n, 3) on the rims of its bottom and top faces, in board coordinates."""
        a = np.linspace(0.0, 2 * np.pi, n, endpoint=False)
        local = np.concatenate([
            np.stack([self.radius * np.cos(a), self.radius * np.sin(a), np.full_like(a, z)],
                     axis=-1) for z in (0.0, self.height)])
        return local @ self.axes().T + (self.x, self.y, self.z0)

    def upright_shadow(self) -> Cylinder:
        """The upright cylinder whose shadow stands in for a leaning one's."""
        top = float(self.rims()[:, 2].max())
        c = self.rims().mean(axis=0)
        base = min(self.z0, float(self.rims()[:, 2].min()))
        return Cylinder(float(c[0]), float(c[1]), base, top - base, self.radius, self.top_bgr,
                        self.side_bgr)


FOOT_MM = 2.5  # how far out from a solid's foot the light is visibly blocked


def _smoothstep(x: np.ndarray) -> np.ndarray:
    """0 below -1, 1 above 1, smooth in between: soft edges that end, so nothing a solid does
    reaches beyond its footprint."""
    t = np.clip((x + 1.0) / 2.0, 0.0, 1.0)
    return t * t * (3.0 - 2.0 * t)


def footprint(rig: CameraRig, cyl: Cylinder, lighting: Lighting) -> Box | None:
    """The pixel box holding the cylinder, its shadow and their soft edges (None: off frame)."""
    if cyl.tilt_deg:
        shadow = footprint(rig, cyl.upright_shadow(), lighting)
        uv = rig.project(cyl.rims())
        c0, r0 = np.floor(uv.min(axis=0)).astype(int) - 4
        c1, r1 = np.ceil(uv.max(axis=0)).astype(int) + 5
        if shadow is not None:
            c0, r0 = min(c0, shadow[0]), min(r0, shadow[1])
            c1, r1 = max(c1, shadow[2]), max(r1, shadow[3])
        c0, r0 = max(c0, 0), max(r0, 0)
        c1, r1 = min(c1, rig.width), min(r1, rig.height)
        if c0 >= c1 or r0 >= r1:
            return None
        return int(c0), int(r0), int(c1), int(r1)
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
    if cyl.tilt_deg:
        cyl = cyl.upright_shadow()
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
    """Paints the cylinder over a float32 BGR frame where its pixels' rays meet it.

    A leaning cylinder is drawn in its own axes, as an upright one at the origin: the camera's
    centre and the rays are turned into them."""
    c = rig.centre_mm()
    light = lighting.toward_light()
    mm = rig.mm_per_px(cyl.z1)
    if cyl.tilt_deg:
        axes = cyl.axes()
        c = axes.T @ (c - (cyl.x, cyl.y, cyl.z0))
        rays = rays @ axes
        lx, ly, _ = axes.T @ (*light, 0.0)
        light = (float(lx), float(ly))
        cyl = Cylinder(0.0, 0.0, 0.0, cyl.height, cyl.radius, cyl.top_bgr, cyl.side_bgr,
                       cyl.grain, cyl.grain_deg, cyl.grain_phase, cyl.grain_spacing_mm,
                       cyl.bevel_mm, cyl.dome, cyl.wear, cyl.wear_bgr, cyl.wear_phase)
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
    body = np.clip(0.5 + (cyl.radius - near) / mm, 0.0, 1.0)
    if not body.any():
        return
    tx = ex + t_top * dx
    ty = ey + t_top * dy
    at_top = np.hypot(tx, ty)
    face = np.clip(0.5 + (cyl.radius - at_top) / mm, 0.0, 1.0)

    lx, ly = light
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
        if cyl.wear > 0:
            face_rgb = _worn(face_rgb, cyl, tx, ty, at_top)

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


def _worn(face: np.ndarray, cyl: Cylinder, tx: np.ndarray, ty: np.ndarray,
          at_top: np.ndarray) -> np.ndarray:
    """A well-played disc's top: its paint rubbed through in blotches and along the rim."""
    blotch = np.zeros_like(tx)
    for k, phase in enumerate(cyl.wear_phase):  # waves in three directions, of three sizes
        a = phase * 3.0 + k * 2.1
        blotch += np.sin((tx * math.cos(a) + ty * math.sin(a)) / (1.2 + 1.1 * k) + phase * 5)
    blotch += 0.5 * np.sin(tx * ty / 9.0 + cyl.wear_phase[0])
    rubbed = np.clip(0.5 + 1.5 * (blotch - 2.0 + 1.6 * cyl.wear), 0.0, 1.0)
    rim = np.clip((at_top - (cyl.radius - 1.0 - 3.0 * cyl.wear)) / 1.5, 0.0, 1.0)
    mix = (cyl.wear * np.maximum(rubbed, rim))[..., None]
    return face + mix * (np.asarray(cyl.wear_bgr, np.float64) - face)


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
    # raised solids (leaning, stacked) last: they are above the rest
    for p in sorted(placed, key=lambda p: (p.cyl.tilt_deg > 0 or p.cyl.z0 > 0.5,
                                           -math.hypot(p.cyl.x - c[0], p.cyl.y - c[1]))):
        draw(img, rig, p.cyl, lighting, p.box, p.rays)
