"""The overhead camera rig: where the camera hangs, how its lens bends light, and its sensor mode.

A rendered frame is only useful as ground truth if the origin of every pixel on the board is known
exactly. The rig is therefore a plain pinhole camera with OpenCV's lens model (k1, k2, p1, p2): the
truth written beside a frame can be replayed with ``cv2.projectPoints`` and undone with
``cv2.undistortPoints``, and vision code calibrated on these frames meets the same model it will
meet on a real Pi camera.

Board coordinates are those of :mod:`rules.board` (mm from the centre of the 20 hole, x right,
y up as seen from above, seat 0 at the bottom), with z up from the playing surface.
"""

from __future__ import annotations

import math
import random
from dataclasses import asdict, dataclass
from typing import Any

import cv2
import numpy as np

from hw_sim.errors import SimSettingError
from rules.board import STANDARD, Board

# Looking straight down with seat 0 at the bottom of the frame: image x is board x, image y
# (down the frame) is board -y, and the optical axis is board -z.
_DOWN = np.array([[1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, -1.0]])


@dataclass(frozen=True)
class SensorMode:
    """A Pi camera's sensor mode with its stock lens: the focal length in pixels of that mode is
    the lens focal length divided by the (binned) pixel pitch."""

    name: str
    width: int
    height: int
    focal_px: float


MODES: tuple[SensorMode, ...] = (
    SensorMode("hq-imx477-2x2-6mm", 2028, 1520, 6.0 / 0.00310),
    SensorMode("cm3-imx708-2x2", 2304, 1296, 4.74 / 0.00280),
    SensorMode("v2-imx219-2x2", 1640, 1232, 3.04 / 0.00224),
    SensorMode("v2-imx219-full", 3280, 2464, 3.04 / 0.00112),
)
MODE_WEIGHTS = (4, 4, 1, 1)


def _rotation(axis: tuple[float, float, float], deg: float) -> np.ndarray:
    vec = np.asarray(axis, dtype=np.float64) * math.radians(deg)
    return cv2.Rodrigues(vec)[0]


@dataclass(frozen=True)
class CameraRig:
    """A camera above the board: intrinsics, lens distortion and pose.

    ``height_mm`` is the lens centre above the playing surface, ``offset_*_mm`` its horizontal
    offset from the 20 hole. ``yaw_deg`` turns the camera about the vertical (0: seat 0 at the
    bottom of the frame; positive turns the board clockwise in the picture), and the optical axis
    leans ``tilt_deg`` away from vertical toward the board direction ``tilt_toward_deg``
    (0 = +x, counter-clockwise seen from above).
    """

    width: int
    height: int
    fx: float
    fy: float
    cx: float
    cy: float
    k1: float = 0.0
    k2: float = 0.0
    p1: float = 0.0
    p2: float = 0.0
    height_mm: float = 1200.0
    offset_x_mm: float = 0.0
    offset_y_mm: float = 0.0
    yaw_deg: float = 0.0
    tilt_deg: float = 0.0
    tilt_toward_deg: float = 0.0
    mode: str = "custom"
    view: str = "pi"  # "pi": a fixed Pi camera; "phone": a phone photo; "video": overhead video

    def __post_init__(self) -> None:
        if self.width < 16 or self.height < 16:
            raise SimSettingError(f"camera resolution must be at least 16x16, got "
                             f"{self.width}x{self.height}")
        if self.fx <= 0 or self.fy <= 0:
            raise SimSettingError(f"camera focal lengths must be positive, got fx={self.fx} "
                             f"fy={self.fy}")
        if self.height_mm <= 100:
            raise SimSettingError(f"camera height_mm must be above 100 mm (the rail and pegs stand "
                             f"up to a few cm), got {self.height_mm}")
        if not 0 <= self.tilt_deg < 30:
            raise SimSettingError(f"camera tilt_deg must be in [0, 30) for an overhead rig, got "
                             f"{self.tilt_deg}")
        self._check_distortion()

    def _check_distortion(self) -> None:
        """The radial model folds back on itself beyond some radius; it must not within the
        frame (plus a margin), or a pixel would see two places on the board."""
        corner = max(math.hypot(px - self.cx, py - self.cy)
                     for px in (0, self.width) for py in (0, self.height))
        needed = 1.3 * corner / min(self.fx, self.fy)
        r = np.linspace(0.0, 4.0 * needed + 1.0, 4001)
        rd = r * (1 + self.k1 * r**2 + self.k2 * r**4)
        rising = np.diff(rd) > 0
        reach = rd[: int(np.argmin(rising)) + 1].max() if not rising.all() else rd.max()
        if reach < needed:
            raise SimSettingError(
                f"lens distortion k1={self.k1}, k2={self.k2} folds the image back on itself "
                f"inside the {self.width}x{self.height} frame; use smaller coefficients")

    # -- the model, as OpenCV sees it ------------------------------------------------------

    def camera_matrix(self) -> np.ndarray:
        return np.array([[self.fx, 0.0, self.cx], [0.0, self.fy, self.cy], [0.0, 0.0, 1.0]])

    def dist_coeffs(self) -> np.ndarray:
        """OpenCV's order: (k1, k2, p1, p2)."""
        return np.array([self.k1, self.k2, self.p1, self.p2])

    def centre_mm(self) -> np.ndarray:
        """The lens centre in board coordinates (x, y, z)."""
        return np.array([self.offset_x_mm, self.offset_y_mm, self.height_mm])

    def rotation(self) -> np.ndarray:
        """Board-to-camera rotation R, so that a board point P is R @ P + t in the camera."""
        a = math.radians(self.tilt_toward_deg)
        lean = _rotation((math.sin(a), -math.cos(a), 0.0), self.tilt_deg)
        turn = _rotation((0.0, 0.0, 1.0), self.yaw_deg)
        cam_to_board = lean @ turn @ _DOWN.T
        return cam_to_board.T

    def translation(self) -> np.ndarray:
        return -self.rotation() @ self.centre_mm()

    def pose(self) -> tuple[np.ndarray, np.ndarray]:
        """Board-to-camera pose as OpenCV's (rvec, tvec)."""
        rvec = cv2.Rodrigues(self.rotation())[0].reshape(3)
        return rvec, self.translation()

    def project(self, points: np.ndarray) -> np.ndarray:
        """Pixel positions (..., 2) of board points (..., 3), lens distortion included.

        Written out in numpy (vectorised over any shape) rather than calling
        ``cv2.projectPoints``, so the tests can hold one against the other.
        """
        p = np.asarray(points, dtype=np.float64)
        cam = p @ self.rotation().T + self.translation()
        if np.any(cam[..., 2] <= 0):
            raise SimSettingError("a point to project lies behind the camera")
        x = cam[..., 0] / cam[..., 2]
        y = cam[..., 1] / cam[..., 2]
        xd, yd = self._distort(x, y)
        return np.stack([self.fx * xd + self.cx, self.fy * yd + self.cy], axis=-1)

    def _distort(self, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        r2 = x * x + y * y
        radial = 1 + self.k1 * r2 + self.k2 * r2 * r2
        xd = x * radial + 2 * self.p1 * x * y + self.p2 * (r2 + 2 * x * x)
        yd = y * radial + self.p1 * (r2 + 2 * y * y) + 2 * self.p2 * x * y
        return xd, yd

    def undistort(self, pixels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Normalised, undistorted image coordinates (x, y) of pixel positions (..., 2).

        Newton's method on the lens model, to far below a thousandth of a pixel, so the renderer's
        idea of where a pixel looks and :meth:`project` agree exactly.
        """
        px = np.asarray(pixels, dtype=np.float64)
        xd = (px[..., 0] - self.cx) / self.fx
        yd = (px[..., 1] - self.cy) / self.fy
        x, y = xd.copy(), yd.copy()
        k1, k2, p1, p2 = self.k1, self.k2, self.p1, self.p2
        for _ in range(20):
            fx_, fy_ = self._distort(x, y)
            ex, ey = fx_ - xd, fy_ - yd
            if max(float(np.abs(ex).max(initial=0)), float(np.abs(ey).max(initial=0))) < 1e-12:
                break
            r2 = x * x + y * y
            radial = 1 + k1 * r2 + k2 * r2 * r2
            dr = 2 * (k1 + 2 * k2 * r2)
            a = radial + x * x * dr + 2 * p1 * y + 6 * p2 * x
            b = x * y * dr + 2 * p1 * x + 2 * p2 * y
            c = x * y * dr + 2 * p1 * x + 2 * p2 * y
            d = radial + y * y * dr + 6 * p1 * y + 2 * p2 * x
            det = a * d - b * c
            x = x - (d * ex - b * ey) / det
            y = y - (a * ey - c * ex) / det
        return x, y

    def rays(self, pixels: np.ndarray) -> np.ndarray:
        """Direction (..., 3) in board coordinates of the ray each pixel sees (not normalised:
        its component along the optical axis is 1)."""
        x, y = self.undistort(pixels)
        cam = np.stack([x, y, np.ones_like(x)], axis=-1)
        return cam @ self.rotation()

    def ground(self, pixels: np.ndarray, z: float = 0.0) -> np.ndarray:
        """Board (x, y) (..., 2) where each pixel's ray meets the horizontal plane at height z."""
        d = self.rays(pixels)
        c = self.centre_mm()
        t = (z - c[2]) / d[..., 2]
        return np.stack([c[0] + t * d[..., 0], c[1] + t * d[..., 1]], axis=-1)

    def mm_per_px(self, z: float = 0.0) -> float:
        """Roughly how many board millimetres one pixel spans at height z (for anti-aliasing)."""
        return (self.height_mm - z) / math.sqrt(self.fx * self.fy)

    def to_json(self) -> dict[str, Any]:
        rvec, tvec = self.pose()
        return {
            "width": self.width, "height": self.height,
            "matrix": self.camera_matrix().tolist(),
            "distortion": self.dist_coeffs().tolist(),
            "rvec": rvec.tolist(), "tvec": tvec.tolist(),
            "rotation": self.rotation().tolist(),
            "centre_mm": self.centre_mm().tolist(),
            "rig": asdict(self),
        }

    # -- a plausible rig ----------------------------------------------------------------------

    @classmethod
    def random(cls, rng: random.Random, *, width: int | None = None, height: int | None = None,
               mode: str | None = None, board: Board = STANDARD) -> CameraRig:
        """A rig as a club might mount it: a Pi camera mode and its lens (``mode``: one of
        :data:`MODES` by name, else drawn), hung high enough that the whole ditch is in the
        frame, a little off centre, tilted and turned.

        With ``width`` and ``height`` the frame has that size and the lens keeps the mode's
        horizontal field of view.
        """
        if (width is None) != (height is None):
            raise SimSettingError("give both width and height, or neither")
        chosen = rng.choices(MODES, weights=MODE_WEIGHTS)[0]
        if mode is not None:
            names = {m.name: m for m in MODES}
            if mode not in names:
                raise SimSettingError(f"unknown camera mode {mode!r}; known: {', '.join(names)}")
            chosen = names[mode]
        w, h = (width, height) if width and height else (chosen.width, chosen.height)
        f = chosen.focal_px * w / chosen.width * rng.uniform(0.97, 1.03)
        k1 = rng.uniform(-0.12, 0.02)
        fill = rng.uniform(0.8, 0.95)
        reach = board.ditch_radius + 25.0
        rig = cls(
            width=w, height=h, fx=f, fy=f * rng.uniform(0.998, 1.002),
            cx=w / 2 + rng.uniform(-0.01, 0.01) * w, cy=h / 2 + rng.uniform(-0.01, 0.01) * h,
            k1=k1, k2=rng.uniform(-0.01, 0.04), p1=rng.uniform(-1e-3, 1e-3),
            p2=rng.uniform(-1e-3, 1e-3),
            height_mm=f * 2 * reach / (fill * min(w, h)),
            offset_x_mm=rng.uniform(-30, 30), offset_y_mm=rng.uniform(-30, 30),
            yaw_deg=90 * rng.randint(0, 3) + rng.uniform(-12, 12),
            tilt_deg=rng.uniform(0, 4), tilt_toward_deg=rng.uniform(0, 360), mode=chosen.name)
        while not rig.sees_circle(reach, margin_px=4):
            rig = cls(**{**asdict(rig), "height_mm": rig.height_mm * 1.04})
        return rig

    @classmethod
    def phone(cls, rng: random.Random, board: Board = STANDARD) -> CameraRig:
        """A phone held over the board: a phone's lens (about 26 mm equivalent) and picture
        size, tilted a few degrees, turned to the seat it is taken from, and often close enough
        that part of the rail, the ditch or even the playing surface is cut off."""
        w, h = rng.choices(((2016, 1512), (1600, 1200), (1440, 1080), (1008, 756),
                            (1512, 2016)), (3, 3, 2, 2, 1))[0]
        f = math.hypot(w, h) / 2 / math.tan(math.radians(rng.uniform(36.0, 41.0)))
        fill = rng.uniform(0.88, 1.08)
        return cls(
            width=w, height=h, fx=f, fy=f * rng.uniform(0.999, 1.001),
            cx=w / 2 + rng.uniform(-0.005, 0.005) * w, cy=h / 2 + rng.uniform(-0.005, 0.005) * h,
            k1=rng.uniform(-0.03, 0.03), k2=rng.uniform(-0.01, 0.01),
            height_mm=f * 2 * (board.ditch_radius + 25.0) / (fill * min(w, h)),
            offset_x_mm=rng.uniform(-60, 60), offset_y_mm=rng.uniform(-60, 60),
            yaw_deg=90 * rng.randint(0, 3) + rng.uniform(-20, 20),
            tilt_deg=rng.uniform(2, 9), tilt_toward_deg=rng.uniform(0, 360),
            mode=f"phone-{w}x{h}", view="phone")

    @classmethod
    def video(cls, rng: random.Random, board: Board = STANDARD) -> CameraRig:
        """An overhead video camera as tournaments stream with: 1280x720, hung high with a long
        lens, the playing surface filling the frame's height (a disc about 28 px across) and
        the rail cut off above and below."""
        w, h = 1280, 720
        ppm = min(rng.uniform(0.8, 0.95), h / (2 * board.surface_radius + 30.0))
        height = rng.uniform(1800.0, 3200.0)
        f = ppm * height
        rig = cls(
            width=w, height=h, fx=f, fy=f * rng.uniform(0.999, 1.001),
            cx=w / 2 + rng.uniform(-0.01, 0.01) * w, cy=h / 2 + rng.uniform(-0.01, 0.01) * h,
            k1=rng.uniform(-0.05, 0.01), k2=rng.uniform(-0.01, 0.01), height_mm=height,
            offset_x_mm=rng.uniform(-40, 40), offset_y_mm=rng.uniform(-25, 25),
            yaw_deg=90 * rng.randint(0, 3) + rng.uniform(-4, 4),
            tilt_deg=rng.uniform(0, 3), tilt_toward_deg=rng.uniform(0, 360),
            mode="video-1280x720", view="video")
        while not rig.sees_circle(board.surface_radius + 3.0, margin_px=2):  # a stream shows it
            rig = cls(**{**asdict(rig), "fx": rig.fx * 0.98, "fy": rig.fy * 0.98})
        return rig

    def resized(self, width: int, height: int) -> CameraRig:
        """The same camera at another frame size, keeping its horizontal field of view."""
        k = width / self.width
        return CameraRig(**{**asdict(self), "width": width, "height": height, "fx": self.fx * k,
                            "fy": self.fy * k, "cx": self.cx * k,
                            "cy": self.cy * height / self.height})

    def sees_circle(self, radius: float, z: float = 0.0, margin_px: float = 0.0) -> bool:
        """Whether a board circle about the centre lies wholly inside the frame."""
        a = np.linspace(0, 2 * np.pi, 180, endpoint=False)
        pts = np.stack([radius * np.cos(a), radius * np.sin(a), np.full_like(a, z)], axis=-1)
        uv = self.project(pts)
        return bool((uv[:, 0] >= margin_px).all() and (uv[:, 0] <= self.width - 1 - margin_px).all()
                    and (uv[:, 1] >= margin_px).all()
                    and (uv[:, 1] <= self.height - 1 - margin_px).all())
