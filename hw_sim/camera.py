"""The overhead camera of the simulated board: frames of any board state, with their exact truth.

A frame is rendered the way light reaches a real sensor: the board (painted once per look in board
millimetres, see :mod:`hw_sim.look`) is looked up through each pixel's ray, with lens distortion,
on two planes (the playing surface and the rail top); discs and pegs are solid cylinders
(:mod:`hw_sim.solids`); then room light, blur and sensor noise (:mod:`hw_sim.lighting`). Every
frame comes with its ground truth as JSON-ready data: the camera (matrix, distortion, pose), the
board geometry, and per disc its position, team, zone and where its top face lands in the frame.

:class:`SimCamera` wraps this in the shape of a camera backend, with faults on demand.
"""

from __future__ import annotations

import functools
import logging
import math
import random
import threading
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from types import TracebackType
from typing import Any, Literal

import cv2
import numpy as np

from hw_sim.discs import BoardState, PlacedDisc
from hw_sim.lighting import LightField, Lighting, Sensor, expose, light_field
from hw_sim.look import BoardLook, BoardPicture, board_picture
from hw_sim.rig import CameraRig
from hw_sim.solids import Cylinder, paint, place
from rules.board import STANDARD, Board
from rules.errors import CrokiscoreError

log = logging.getLogger(__name__)

RAIL_SLOP_MM = 2.5  # how far past its rest against the rail a disc may be drawn
GRID = 8  # pixel spacing of the exactly computed lookup grid; in between it is interpolated


@dataclass(frozen=True)
class Scene:
    """Everything about a frame except the discs: the rig, the board's look, the light, the
    sensor and the board's geometry."""

    rig: CameraRig
    look: BoardLook
    lighting: Lighting = field(default_factory=Lighting)
    sensor: Sensor = field(default_factory=Sensor)
    board: Board = STANDARD

    @classmethod
    def random(cls, rng: random.Random, *, width: int | None = None, height: int | None = None,
               mode: str | None = None, board: Board = STANDARD) -> Scene:
        """A club's set-up drawn from ``rng``: rig (see :meth:`CameraRig.random` for ``width``,
        ``height`` and ``mode``), board look, room light and sensor."""
        return cls(rig=CameraRig.random(rng, width=width, height=height, mode=mode, board=board),
                   look=BoardLook.random(rng), lighting=Lighting.random(rng),
                   sensor=Sensor.random(rng), board=board)

    def texture_ppm(self) -> float:
        """Board-picture resolution: at least 1.25 texels per frame pixel, in steps of half a
        pixel per mm (so rigs of one look mostly share one picture), between 0.5 and 2.5."""
        px_per_mm = 1.0 / self.rig.mm_per_px(0.0)
        return min(2.5, max(0.5, math.ceil(1.25 * px_per_mm * 2) / 2))

    def disc_base(self, disc: PlacedDisc) -> float:
        """Height of the surface a disc rests on: the playing surface, or the ditch floor."""
        return -self.look.ditch_depth_mm if disc.in_ditch(self.board) else 0.0


def _lookup(scene: Scene, picture: BoardPicture) -> tuple[np.ndarray, np.ndarray]:
    """For every pixel, where to read the board picture: its ray met with the playing surface, or
    with the rail top where the ray reaches the rail before it.

    Rays are worked out exactly on a grid every ``GRID`` pixels (one sample beyond each edge) and
    interpolated between: the lookup is smooth, so the error is far below a hundredth of a pixel.
    """
    rig, board = scene.rig, scene.board
    s = GRID
    gw = math.ceil((rig.width - 0.5) / s + 1.5) + 1
    gh = math.ceil((rig.height - 0.5) / s + 1.5) + 1
    u = (np.arange(gw) - 0.5) * s - 0.5
    v = (np.arange(gh) - 0.5) * s - 0.5
    uu, vv = np.meshgrid(u, v)
    d = rig.rays(np.stack([uu, vv], axis=-1))
    c = rig.centre_mm()
    layers = []
    for z in (0.0, scene.look.rail_height_mm):
        t = (z - c[2]) / d[..., 2]
        layers.append((c[0] + t * d[..., 0], c[1] + t * d[..., 1]))
    (x0, y0), (x1, y1) = layers
    col0, row0 = picture.to_texture(x0, y0)
    col1, row1 = picture.to_texture(x1, y1)
    col1 = col1 + picture.size
    on_rail = np.hypot(x1, y1) - board.ditch_radius
    grid = np.stack([col0, row0, col1, row1, on_rail], axis=-1).astype(np.float32)
    full = cv2.resize(grid, (gw * s, gh * s), interpolation=cv2.INTER_LINEAR)
    full = full[s:s + rig.height, s:s + rig.width]
    rail = full[..., 4] > 0
    mapx = np.where(rail, full[..., 2], full[..., 0])
    mapy = np.where(rail, full[..., 3], full[..., 1])
    # beyond the rail layer's left edge the atlas holds the surface layer: read the border instead
    np.putmask(mapx, rail & (full[..., 2] < picture.size), -2.0)
    return mapx, mapy


def _solids(state: BoardState, scene: Scene, rng: np.random.Generator) -> list[Cylinder]:
    look, board = scene.look, scene.board
    solids = []
    for px, py in board.pegs():
        peg = np.array(look.peg_rgb[::-1], np.float64)
        solids.append(Cylinder(px, py, 0.0, look.peg_height_mm, board.peg_diameter / 2,
                               tuple(peg), tuple(peg * 0.8), dome=True))
    for disc in state.discs:
        if disc.team not in (0, 1):
            raise ValueError(f"disc at ({disc.x_mm}, {disc.y_mm}) has team {disc.team}; "
                             "teams are 0 and 1")
        # The physics lets a disc pressed against the rail sink into it by a little over a mm
        # (the solver's contact slop), so allow that much beyond the rest position.
        if not disc.r <= board.ditch_radius - board.disc_radius + RAIL_SLOP_MM:  # catches NaN
            raise ValueError(
                f"disc at ({disc.x_mm}, {disc.y_mm}) is {disc.r:.1f} mm from the centre, beyond "
                f"the ditch: a disc's centre rests at most "
                f"{board.ditch_radius - board.disc_radius:g} mm out")
        top = np.array(look.team_rgb(disc.team)[::-1], np.float64) * rng.uniform(0.94, 1.06)
        solids.append(Cylinder(
            disc.x_mm, disc.y_mm, scene.disc_base(disc), board.disc_thickness, board.disc_radius,
            tuple(top), tuple(top * 0.62), grain=look.discs.grain * rng.uniform(0.5, 1.5),
            grain_deg=rng.uniform(0, 180), grain_phase=rng.uniform(0, 2 * math.pi),
            grain_spacing_mm=rng.uniform(2.0, 5.0)))
    return solids


@dataclass(frozen=True, eq=False)
class _Backdrop:
    """What every frame of a scene shares: the empty board before the room light (BGR uint8),
    the same lit (float32), and the light itself."""

    board: np.ndarray
    lit: np.ndarray
    light: LightField


@functools.lru_cache(maxsize=2)
def _backdrop(scene: Scene) -> _Backdrop:
    picture = board_picture(scene.look, scene.board, scene.texture_ppm())
    mapx, mapy = _lookup(scene, picture)
    bg = tuple(float(c) for c in scene.look.background_rgb[::-1])
    board = cv2.remap(picture.atlas, mapx, mapy, cv2.INTER_LINEAR,
                      borderMode=cv2.BORDER_CONSTANT, borderValue=bg)
    light = light_field(scene.lighting, scene.rig.width, scene.rig.height)
    lit = light.apply(board.astype(np.float32))
    board.flags.writeable = lit.flags.writeable = False
    return _Backdrop(board, lit, light)


def render(state: BoardState, scene: Scene, seed: int = 0) -> np.ndarray:
    """The frame (BGR, uint8, before JPEG) the rig takes of ``state``. The same state, scene and
    seed always give the same bytes; the seed draws the sensor noise and the discs' figure.

    The lit empty board is shared by a scene's frames; each frame redraws only the boxes around
    its discs and pegs (on a canvas filled only there), then adds blur and sensor noise.
    """
    backdrop = _backdrop(scene)
    solids = _solids(state, scene, np.random.default_rng([seed, 1]))
    placed = place(scene.rig, solids, scene.lighting)
    canvas = np.empty(backdrop.board.shape, np.float32)
    for p in placed:
        c0, r0, c1, r1 = p.box
        canvas[r0:r1, c0:c1] = backdrop.board[r0:r1, c0:c1]
    paint(canvas, scene.rig, placed, scene.lighting)
    img = backdrop.lit.copy()
    for p in placed:
        backdrop.light.apply(canvas, p.box, out=img)
    return expose(img, scene.sensor, np.random.default_rng([seed, 0]))


def encode_jpeg(frame: np.ndarray, quality: int) -> bytes:
    ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise ValueError(f"could not encode a {frame.shape} frame as JPEG")
    return buf.tobytes()


def disc_truth(disc: PlacedDisc, scene: Scene) -> dict[str, Any]:
    """A disc's truth: position, team and zone, and where its top face shows in the frame
    (``pixel``: the projected centre of the top face; ``radius_px``: the mean distance of its
    projected rim from there) and where its foot would (``base_pixel``)."""
    board, rig = scene.board, scene.rig
    z0 = scene.disc_base(disc)
    z1 = z0 + board.disc_thickness
    a = np.linspace(0.0, 2 * np.pi, 72, endpoint=False)
    rim = np.stack([disc.x_mm + board.disc_radius * np.cos(a),
                    disc.y_mm + board.disc_radius * np.sin(a), np.full_like(a, z1)], axis=-1)
    pts = rig.project(np.concatenate([[[disc.x_mm, disc.y_mm, z1], [disc.x_mm, disc.y_mm, z0]],
                                      rim]))
    radius = float(np.linalg.norm(pts[2:] - pts[0], axis=1).mean())
    return {**disc.to_json(board), "in_ditch": disc.in_ditch(board), "base_z_mm": z0,
            "top_z_mm": z1, "pixel": [round(float(pts[0, 0]), 3), round(float(pts[0, 1]), 3)],
            "radius_px": round(radius, 3),
            "base_pixel": [round(float(pts[1, 0]), 3), round(float(pts[1, 1]), 3)]}


def truth(state: BoardState, scene: Scene) -> dict[str, Any]:
    """The frame's ground truth as JSON-ready data."""
    return {
        "camera": scene.rig.to_json(),
        "board": asdict(scene.board),
        "look": scene.look.to_json(),
        "lighting": asdict(scene.lighting),
        "sensor": asdict(scene.sensor),
        "discs": [disc_truth(d, scene) for d in state.discs],
        "twenties": list(state.twenties),
        "totals": list(state.totals(scene.board)),
    }


# -- a camera backend over the simulated board ----------------------------------------------


class SimCameraError(CrokiscoreError, OSError):
    """The simulated camera could not take a frame: closed, or made to fail."""


Fault = Literal["raise", "black", "hang"]


class SimCamera:
    """A camera that photographs the simulated board: ``capture()`` returns a BGR frame (uint8,
    height x width x 3), like a real backend, taken of whatever ``board()`` says is on the board.

    Faults on demand, for the daemon's tests: :meth:`fail` makes the next captures raise
    :class:`SimCameraError` (a dead camera), return an all-black frame (a covered lens or a
    sensor that lost its exposure), or hang until the camera is healed or closed (a driver stuck
    in the kernel).
    """

    def __init__(self, scene: Scene, board: Callable[[], BoardState], *, seed: int = 0) -> None:
        self.scene = scene
        self._board = board
        self._seed = seed
        self._count = 0
        self._fault: Fault | None = None
        self._fault_left: int | None = None
        self._closed = False
        self._healed = threading.Event()
        self.last_truth: dict[str, Any] | None = None

    @property
    def resolution(self) -> tuple[int, int]:
        return self.scene.rig.width, self.scene.rig.height

    def fail(self, fault: Fault | None, times: int | None = None) -> None:
        """From now on, ``fault`` ("raise" or "black") for the next ``times`` captures (None: until
        told otherwise); ``fail(None)`` heals the camera."""
        if fault not in (None, "raise", "black", "hang"):
            raise ValueError(f"unknown camera fault {fault!r}; use 'raise', 'black', 'hang' or "
                             "None")
        if times is not None and times < 1:
            raise ValueError(f"a camera fault must last at least one capture, got {times}")
        self._fault, self._fault_left = fault, times if fault else None
        if fault == "hang":
            self._healed.clear()
        else:
            self._healed.set()

    def capture(self) -> np.ndarray:
        if self._closed:
            raise SimCameraError("the simulated camera is closed; open a new one")
        fault = self._fault
        if fault is not None and self._fault_left is not None:
            self._fault_left -= 1
            if self._fault_left == 0:
                self._fault, self._fault_left = None, None
        self._count += 1
        if fault == "hang":
            log.warning("simulated camera: capture %d hangs on purpose", self._count)
            self._healed.wait()
            if self._closed:
                raise SimCameraError("the simulated camera was closed while a capture hung")
        if fault == "raise":
            log.warning("simulated camera: capture %d fails on purpose", self._count)
            raise SimCameraError(f"simulated camera fault: capture {self._count} failed")
        if fault == "black":
            log.warning("simulated camera: capture %d is black on purpose", self._count)
            self.last_truth = None
            return np.zeros((self.scene.rig.height, self.scene.rig.width, 3), np.uint8)
        state = self._board()
        frame = render(state, self.scene, seed=self._seed * 1_000_003 + self._count)
        self.last_truth = truth(state, self.scene)
        return frame

    def close(self) -> None:
        self._closed = True
        self._healed.set()

    def __enter__(self) -> SimCamera:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
