"""The room's light and the camera's sensor: what turns a clean picture into a real frame.

Clubs hang a lamp over the board or play by a window, so a frame is brighter on one side, darker in
the corners, sometimes has a lamp's glare across it, and always carries sensor noise, a little blur
and JPEG blocks. Vision has to work through all of that, so the simulator adds it on purpose.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Literal

import cv2
import numpy as np

from hw_sim.errors import SimSettingError


@dataclass(frozen=True)
class Lighting:
    """Light over the board. Fractions are of full brightness; directions are board angles
    (degrees counter-clockwise from +x, seen from above) for the lamp, frame angles for the
    gradient."""

    exposure: float = 1.0
    gradient: float = 0.0
    gradient_deg: float = 0.0
    vignette: float = 0.0
    white_balance: tuple[float, float, float] = (1.0, 1.0, 1.0)
    glare: float = 0.0
    glare_at: tuple[float, float] = (0.5, 0.5)
    glare_radius: float = 0.15
    glare_rgb: tuple[int, int, int] = (210, 225, 255)
    light_azimuth_deg: float = 225.0
    light_elevation_deg: float = 75.0
    shadow: float = 0.4
    shadow_softness_mm: float = 3.0
    # a varnished board mirrors a window or a strip light: a sharp-edged sheen across the
    # discs and lines alike (``glare`` is then its strength, ``glare_radius`` its half width)
    glare_shape: Literal["spot", "window", "strip"] = "spot"
    glare_deg: float = 0.0
    glare_length: float = 0.3

    def toward_light(self) -> tuple[float, float]:
        """Horizontal unit vector (board x, y) pointing at the lamp."""
        a = math.radians(self.light_azimuth_deg)
        return math.cos(a), math.sin(a)

    def shadow_length(self, height_mm: float) -> float:
        """How far the shadow of something ``height_mm`` tall reaches beyond its foot."""
        return height_mm / math.tan(math.radians(self.light_elevation_deg))

    @classmethod
    def random(cls, rng: random.Random) -> Lighting:
        glare = rng.random() < 0.3
        return cls(
            exposure=rng.uniform(0.85, 1.1),
            gradient=rng.uniform(0.0, 0.3), gradient_deg=rng.uniform(0, 360),
            vignette=rng.uniform(0.05, 0.35),
            white_balance=(rng.uniform(0.92, 1.08), 1.0, rng.uniform(0.9, 1.1)),
            glare=rng.uniform(30, 110) if glare else 0.0,
            glare_at=(rng.uniform(0.2, 0.8), rng.uniform(0.2, 0.8)),
            glare_radius=rng.uniform(0.08, 0.25),
            light_azimuth_deg=rng.uniform(0, 360), light_elevation_deg=rng.uniform(60, 85),
            shadow=rng.uniform(0.25, 0.5), shadow_softness_mm=rng.uniform(1.5, 5.0))

    @classmethod
    def varied(cls, rng: random.Random) -> Lighting:
        """Room light as :meth:`random` draws it, and more often a varnish's glare: a window's
        or a strip light's reflection, bright enough to wash out the lines and the discs under
        it."""
        base = cls.random(rng)
        shape = rng.choices(("none", "spot", "window", "strip"), (4, 2, 3, 2))[0]
        if shape == "none":
            return cls(**{**base.__dict__, "glare": 0.0})
        return cls(**{**base.__dict__, "glare_shape": shape,
                      "glare": rng.uniform(50, 150) if shape != "spot" else rng.uniform(40, 130),
                      "glare_radius": rng.uniform(0.03, 0.12) if shape != "spot"
                      else rng.uniform(0.06, 0.2),
                      "glare_deg": rng.uniform(0, 180), "glare_length": rng.uniform(0.15, 0.6),
                      "glare_rgb": (int(rng.uniform(200, 240)), int(rng.uniform(220, 245)), 255)})


@dataclass(frozen=True)
class Sensor:
    """The camera's own marks on a frame: noise (standard deviation, in 8-bit levels), blur
    (Gaussian sigma in pixels: focus and the ISP) and the JPEG quality a frame is saved with."""

    noise: float = 2.0
    blur: float = 0.7
    jpeg_quality: int = 90
    sharpen: float = 0.0  # a phone's or a video encoder's unsharp mask: halos along edges
    sharpen_px: float = 1.5

    def __post_init__(self) -> None:
        if self.noise < 0 or self.blur < 0 or self.sharpen < 0:
            raise SimSettingError(f"sensor noise, blur and sharpen must not be negative, got "
                             f"{self.noise}, {self.blur}, {self.sharpen}")
        if not 1 <= self.jpeg_quality <= 100:
            raise SimSettingError(f"sensor jpeg_quality must be in 1..100, got {self.jpeg_quality}")

    @classmethod
    def random(cls, rng: random.Random) -> Sensor:
        return cls(noise=rng.uniform(1.0, 4.0), blur=rng.uniform(0.4, 1.1),
                   jpeg_quality=rng.randint(80, 95))

    @classmethod
    def phone(cls, rng: random.Random) -> Sensor:
        """A phone's picture: denoised (little grain), sharpened, saved at a phone's JPEG
        quality."""
        return cls(noise=rng.uniform(0.5, 2.0), blur=rng.uniform(0.6, 1.3),
                   jpeg_quality=rng.randint(70, 88), sharpen=rng.uniform(0.4, 1.2),
                   sharpen_px=rng.uniform(1.0, 2.5))

    @classmethod
    def video(cls, rng: random.Random) -> Sensor:
        """A frame of overhead video: soft, sharpened by the encoder, heavily compressed."""
        return cls(noise=rng.uniform(1.0, 3.0), blur=rng.uniform(0.8, 1.6),
                   jpeg_quality=rng.randint(55, 80), sharpen=rng.uniform(0.0, 0.8),
                   sharpen_px=rng.uniform(1.5, 3.0))


@dataclass(frozen=True, eq=False)
class LightField:
    """The room light over a whole frame: a lit pixel is ``gain * pixel + glare`` (float32 BGR,
    ``glare`` None when there is none). Worked out once per rig; cheap to apply to a part."""

    gain: np.ndarray
    glare: np.ndarray | None

    def apply(self, img: np.ndarray, box: tuple[int, int, int, int] | None = None,
              out: np.ndarray | None = None) -> np.ndarray:
        """Lights ``img`` (the whole frame, or the part of it in ``box``) into ``out``."""
        c0, r0, c1, r1 = box or (0, 0, img.shape[1], img.shape[0])
        target = out if out is not None else np.empty_like(img)
        part = target[r0:r1, c0:c1]
        np.multiply(img[r0:r1, c0:c1], self.gain[r0:r1, c0:c1], out=part)
        if self.glare is not None:
            part += self.glare[r0:r1, c0:c1]
        return target


def light_field(lighting: Lighting, width: int, height: int) -> LightField:
    """Exposure, white balance, a brightness gradient, vignetting and glare over a frame. The
    fields are smooth, so they are worked out on a grid an eighth of the size and blown up."""
    w, h = width, height
    gh, gw = max(2, h // 8), max(2, w // 8)
    u = (np.arange(gw, dtype=np.float32) + 0.5) / gw - 0.5
    v = ((np.arange(gh, dtype=np.float32) + 0.5) / gh - 0.5)[:, None] * (h / w)
    a = math.radians(lighting.gradient_deg)
    gain = 1.0 + lighting.gradient * (u * math.cos(a) + v * math.sin(a))
    rho2 = (u * u + v * v) / (0.25 * (1 + (h / w) ** 2))
    gain = gain * (1.0 - lighting.vignette * rho2) * lighting.exposure
    wb = np.array(lighting.white_balance[::-1], np.float32)
    field = cv2.resize((gain[..., None] * wb).astype(np.float32), (w, h),
                       interpolation=cv2.INTER_LINEAR)
    glare = None
    if lighting.glare > 0:
        gx, gy = lighting.glare_at
        if lighting.glare_shape == "spot":
            d2 = (u + 0.5 - gx) ** 2 + (v + 0.5 * (h / w) - gy * (h / w)) ** 2
            spot = lighting.glare * np.exp(-d2 / (2 * lighting.glare_radius**2))
        else:  # a bright band (a strip light) or a window's panes, its edges sharp
            g = math.radians(lighting.glare_deg)
            du, dv = u + 0.5 - gx, v + 0.5 * (h / w) - gy * (h / w)
            along = du * math.cos(g) + dv * math.sin(g)
            across = -du * math.sin(g) + dv * math.cos(g)
            half_w, half_l = lighting.glare_radius, lighting.glare_length / 2
            if lighting.glare_shape == "strip":
                half_w, half_l = half_w * 0.4, half_l * 2.5
            edge = 0.006
            inside = (np.clip((half_w - np.abs(across)) / edge, 0, 1)
                      * np.clip((half_l - np.abs(along)) / edge, 0, 1))
            if lighting.glare_shape == "window":  # the window's bars
                bars = np.abs(((along / half_l + 1.0) * 1.5) % 1.0 - 0.5) > 0.04
                inside = inside * np.where(bars, 1.0, 0.35)
            fade = np.exp(-(along / (1.5 * half_l)) ** 2) * (0.75 + 0.25 * np.sin(across * 40.0))
            spot = lighting.glare * inside * fade
        colour = np.array(lighting.glare_rgb[::-1], np.float32) / 255.0
        glare = cv2.resize((spot[..., None] * colour).astype(np.float32), (w, h),
                           interpolation=cv2.INTER_LINEAR)
    return LightField(field, glare)


def expose(img: np.ndarray, sensor: Sensor, rng: np.random.Generator) -> np.ndarray:
    """Blur and noise on a float32 BGR frame, then the 8-bit frame the camera would hand over.

    The noise is shared by the three channels, as luminance noise mostly is after demosaicing
    and the ISP's chroma denoising. It is drawn with OpenCV's generator (several times quicker
    than numpy's at this size), seeded from ``rng`` so a frame stays a function of its seed.
    """
    if sensor.blur > 0:
        img = cv2.GaussianBlur(img, (0, 0), sensor.blur)
    if sensor.noise > 0:
        grain = np.empty(img.shape[:2], np.float32)
        cv2.setRNGSeed(int(rng.integers(2**31)))
        cv2.randn(grain, 0.0, float(sensor.noise))
        cv2.add(img, cv2.merge([grain, grain, grain]), dst=img)
    if sensor.sharpen > 0:
        soft = cv2.GaussianBlur(img, (0, 0), sensor.sharpen_px)
        img = cv2.addWeighted(img, 1.0 + sensor.sharpen, soft, -sensor.sharpen, 0.0)
    cv2.max(img, 0.0, dst=img)
    return cv2.convertScaleAbs(img)
