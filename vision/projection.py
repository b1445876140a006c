"""The camera over the board as OpenCV models it: lens (focal length, centre, distortion) and pose.

Everything vision measures goes through this one model: a board point at any height (the playing
surface, a disc's top face 9.5 mm up, the ditch floor) lands on a pixel by
:meth:`CameraModel.project`, and a pixel goes back to the board at a chosen height by
:meth:`CameraModel.to_board`. Working in
3D rather than with a flat picture-to-board mapping is what corrects the parallax of a disc's
thickness: a top face is put back on the ray through its pixel at the height where it really is.

Board coordinates are those of :mod:`rules.board`: mm from the centre, x right, y up seen from
above, z up from the playing surface.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from vision.errors import CalibrationError

_UNDISTORT = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 30, 1e-12)


@dataclass(frozen=True)
class CameraModel:
    """A pinhole camera with OpenCV's lens model (k1, k2, p1, p2) and its board-to-camera pose
    (``rvec``, ``tvec``, as ``cv2.projectPoints`` takes them)."""

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
    rvec: tuple[float, float, float] = (np.pi, 0.0, 0.0)
    tvec: tuple[float, float, float] = (0.0, 0.0, 1000.0)

    # -- OpenCV's view ---------------------------------------------------------------------

    def matrix(self) -> np.ndarray:
        return np.array([[self.fx, 0.0, self.cx], [0.0, self.fy, self.cy], [0.0, 0.0, 1.0]])

    def distortion(self) -> np.ndarray:
        return np.array([self.k1, self.k2, self.p1, self.p2])

    @functools.cached_property
    def rotation(self) -> np.ndarray:
        """Board-to-camera rotation R: a board point P sits at R @ P + t in the camera."""
        return cv2.Rodrigues(np.asarray(self.rvec, np.float64))[0]

    @functools.cached_property
    def centre_mm(self) -> np.ndarray:
        """The lens centre in board coordinates (x, y, z): z is its height over the surface."""
        return -self.rotation.T @ np.asarray(self.tvec, np.float64)

    # -- board to pixel and back -------------------------------------------------------------

    def project(self, points: np.ndarray) -> np.ndarray:
        """Pixels (..., 2) of board points (..., 3), lens distortion included.

        The same sums as ``cv2.projectPoints`` in vectorised numpy, several times quicker on the
        tens of thousands of points a reading samples.
        """
        p = np.asarray(points, np.float64)
        return np.stack(self.project_xyz(p[..., 0], p[..., 1], p[..., 2]), axis=-1)

    def project_xyz(self, px: np.ndarray, py: np.ndarray, pz: np.ndarray
                    ) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`project` of board points given as their x, y and z arrays (float64), to
        pixel columns and rows apart: the same sums, without gathering the points into one
        array and splitting the pixels out of another (the rims' profiles sample hundreds of
        thousands of points)."""
        r, t = self.rotation, np.asarray(self.tvec, np.float64)
        xc = px * r[0, 0] + py * r[0, 1] + pz * r[0, 2] + t[0]
        yc = px * r[1, 0] + py * r[1, 1] + pz * r[1, 2] + t[1]
        zc = px * r[2, 0] + py * r[2, 1] + pz * r[2, 2] + t[2]
        x, y = xc / zc, yc / zc
        r2 = x * x + y * y
        radial = 1.0 + r2 * (self.k1 + self.k2 * r2)
        xy2 = 2.0 * x * y
        xd = x * radial + self.p1 * xy2 + self.p2 * (r2 + 2.0 * x * x)
        yd = y * radial + self.p1 * (r2 + 2.0 * y * y) + self.p2 * xy2
        return self.fx * xd + self.cx, self.fy * yd + self.cy

    def project_plane(self, xy: np.ndarray, z: float) -> np.ndarray:
        """Pixels of board points (..., 2) at height ``z``."""
        xy = np.asarray(xy, np.float64)
        return self.project(np.concatenate([xy, np.full(xy.shape[:-1] + (1,), float(z))], -1))

    def rays(self, pixels: np.ndarray) -> np.ndarray:
        """Directions (..., 3) in board coordinates of the rays through pixels (..., 2)."""
        px = np.asarray(pixels, np.float64)
        flat = px.reshape(-1, 1, 2)
        if flat.shape[0] == 0:
            return np.zeros(px.shape[:-1] + (3,))
        und = cv2.undistortPoints(flat, self.matrix(), self.distortion(), None, None, None,
                                  _UNDISTORT).reshape(-1, 2)
        cam = np.concatenate([und, np.ones((len(und), 1))], axis=1)
        return (cam @ self.rotation).reshape(px.shape[:-1] + (3,))

    def to_board(self, pixels: np.ndarray, z: float | np.ndarray = 0.0) -> np.ndarray:
        """Board (x, y) (..., 2) where each pixel's ray meets the horizontal plane at height z."""
        d = self.rays(pixels)
        c = self.centre_mm
        t = (np.asarray(z, np.float64) - c[2]) / d[..., 2]
        return np.stack([c[0] + t * d[..., 0], c[1] + t * d[..., 1]], axis=-1)

    def mm_per_px(self, z: float = 0.0) -> float:
        """Roughly how many mm of the plane at height z one pixel spans near the board centre."""
        return float((self.centre_mm[2] - z) / np.sqrt(self.fx * self.fy))

    def nadir(self) -> np.ndarray:
        """The board point straight below the lens: discs lean away from it in the picture."""
        return self.centre_mm[:2].copy()

    # -- values --------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {"width": self.width, "height": self.height,
                "matrix": self.matrix().tolist(), "distortion": self.distortion().tolist(),
                "rvec": [float(v) for v in self.rvec], "tvec": [float(v) for v in self.tvec]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CameraModel:
        """Reads :meth:`to_json`'s shape (also the simulator's truth ``camera``). Raises KeyError,
        TypeError, ValueError or CalibrationError (a ValueError) on anything else; callers turn
        those into their own error."""
        m = np.asarray(data["matrix"], np.float64)
        d = [float(v) for v in data["distortion"]]
        if m.shape != (3, 3) or len(d) < 4:
            raise CalibrationError("a camera needs a 3x3 matrix and at least 4 distortion terms")
        rvec = tuple(float(v) for v in data["rvec"])
        tvec = tuple(float(v) for v in data["tvec"])
        if len(rvec) != 3 or len(tvec) != 3:
            raise CalibrationError("a camera pose needs rvec and tvec of 3 numbers each")
        values = [m[0, 0], m[1, 1], m[0, 2], m[1, 2], *d[:4], *rvec, *tvec]
        if not np.all(np.isfinite(values)):
            raise CalibrationError("a camera's numbers must be finite")
        return cls(int(data["width"]), int(data["height"]), float(m[0, 0]), float(m[1, 1]),
                   float(m[0, 2]), float(m[1, 2]), d[0], d[1], d[2], d[3],
                   rvec, tvec)  # type: ignore[arg-type]

    # -- as a parameter vector, for fitting ----------------------------------------------------

    def params(self) -> np.ndarray:
        """(f, fy/fx, cx, cy, k1, k2, p1, p2, rvec, tvec): what the board fit adjusts."""
        return np.array([self.fx, self.fy / self.fx, self.cx, self.cy, self.k1, self.k2,
                         self.p1, self.p2, *self.rvec, *self.tvec], np.float64)

    def with_params(self, p: np.ndarray) -> CameraModel:
        p = [float(v) for v in p]
        return CameraModel(self.width, self.height, p[0], p[0] * p[1], p[2], p[3], p[4], p[5],
                           p[6], p[7], (p[8], p[9], p[10]), (p[11], p[12], p[13]))


def looking_down(width: int, height: int, f: float, centre_px: tuple[float, float],
                 px_per_mm: float, yaw_deg: float = 0.0) -> CameraModel:
    """A camera straight over the board, seat 0 toward the frame's bottom edge turned by
    ``yaw_deg`` (clockwise in the picture), showing the board centre at ``centre_px`` at
    ``px_per_mm``: the starting guess the board fit improves on."""
    cx, cy = width / 2.0, height / 2.0
    height_mm = f / px_per_mm
    a = np.radians(yaw_deg)
    # camera axes in board coordinates: image x, image y (down the frame), optical axis (down)
    ix = np.array([np.cos(a), -np.sin(a), 0.0])
    iy = np.array([-np.sin(a), -np.cos(a), 0.0])
    rot = np.stack([ix, iy, [0.0, 0.0, -1.0]])  # rows: camera axes, so R @ board = camera
    # the board centre must land on centre_px: the camera sits off it by the pixel offset
    du, dv = (centre_px[0] - cx) / px_per_mm, (centre_px[1] - cy) / px_per_mm
    centre = -(du * ix + dv * iy) + np.array([0.0, 0.0, height_mm])
    rvec = cv2.Rodrigues(rot)[0].reshape(3)
    tvec = -rot @ centre
    return CameraModel(width, height, f, f, cx, cy, rvec=tuple(rvec), tvec=tuple(tvec))


_PLANE_MAPS: dict[tuple[Any, ...], tuple[CameraModel, np.ndarray, np.ndarray]] = {}
_PLANE_MAPS_KEPT = 16


def plane_maps(camera: CameraModel, key: tuple[Any, ...], xy: Callable[[], np.ndarray],
               z: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """The pixel columns and rows (float32, for ``cv2.remap``) of the board points ``xy()``
    (..., 2) at height ``z``, the same as ``camera.project_plane``'s: kept for the same
    camera object and ``key`` (what the points are), since a fixed rig's camera samples the
    same circles (its lines, its turn) in every frame."""
    full = (id(camera), z, *key)
    got = _PLANE_MAPS.get(full)
    if got is not None and got[0] is camera:
        return got[1], got[2]
    uv = camera.project_plane(xy(), z).astype(np.float32)
    out = (np.ascontiguousarray(uv[..., 0]), np.ascontiguousarray(uv[..., 1]))
    for a in out:
        a.flags.writeable = False
    while len(_PLANE_MAPS) >= _PLANE_MAPS_KEPT:
        del _PLANE_MAPS[next(iter(_PLANE_MAPS))]
    _PLANE_MAPS[full] = (camera, *out)
    return out

