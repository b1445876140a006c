"""The overhead camera of the simulated board: frames of any board state, with their exact truth.

A frame is rendered the way light reaches a real sensor: the board (painted once per look in board
millimetres, see :mod:`hw_sim.look`) is looked up through each pixel's ray, with lens distortion,
on two planes (the playing surface and the rail top); discs and pegs are solid cylinders, upright
or leaning (:mod:`hw_sim.solids`); the table's things and the players' arms around and over the
board (:mod:`hw_sim.clutter`); then room light, blur, sensor noise and sharpening
(:mod:`hw_sim.lighting`). Every frame comes with its ground truth as JSON-ready data: the camera
(matrix, distortion, pose), the board geometry, the look in words (``tags``), and per disc its
position, team, zone, where its top face lands in the frame, how much of it is in view and
whether a reading must flag it. docs/sim-camera.md lists the looks and the fields.

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

from hw_sim import clutter
from hw_sim.clutter import Arm, Surroundings
from hw_sim.discs import BoardState, PlacedDisc
from hw_sim.errors import SimCameraError, SimSettingError
from hw_sim.lighting import LightField, Lighting, Sensor, expose, light_field
from hw_sim.look import BoardLook, BoardPicture, board_picture, rail_inner, rail_outer
from hw_sim.proportions import proportions_of, random_board, surface_inches
from hw_sim.rig import CameraRig
from hw_sim.solids import Cylinder, paint, place
from rules.board import STANDARD, Board

log = logging.getLogger(__name__)

RAIL_SLOP_MM = 2.5  # how far past its rest against the rail a disc may be drawn
GRID = 8  # pixel spacing of the exactly computed lookup grid; in between it is interpolated
LOOKS = ("classic", "varied")  # the first looks only, or real boards' variety too
VIEWS = ("pi", "phone", "video")
VIEW_WEIGHTS = (2, 1, 1)
LIKE = 60.0  # RGB distance under which a side's discs are tagged as like the board or ditch


@dataclass(frozen=True)
class Scene:
    """Everything about a frame except the discs: the rig, the board's look, the light, the
    sensor and the board's geometry."""

    rig: CameraRig
    look: BoardLook
    lighting: Lighting = field(default_factory=Lighting)
    sensor: Sensor = field(default_factory=Sensor)
    board: Board = STANDARD
    surroundings: Surroundings = field(default_factory=Surroundings)

    @classmethod
    def random(cls, rng: random.Random, *, width: int | None = None, height: int | None = None,
               mode: str | None = None, board: Board | None = None, looks: str = "classic",
               views: tuple[str, ...] = VIEWS) -> Scene:
        """A club's set-up drawn from ``rng``: rig (see :meth:`CameraRig.random` for ``width``,
        ``height`` and ``mode``), board look, room light and sensor.

        ``looks="classic"`` draws the first looks (a tournament board unless ``board`` says,
        a Pi camera, nothing around the board), exactly as they always were for a seed;
        ``"varied"`` draws what real boards add: other proportions and sizes (unless ``board``
        is given), :meth:`BoardLook.varied`, varnish glare, phone photos and overhead video
        besides the Pi camera (one of ``views``; ``mode`` implies the Pi camera), and the
        table's things and players around the board.
        """
        if looks == "classic":
            board = board or STANDARD
            return cls(rig=CameraRig.random(rng, width=width, height=height, mode=mode,
                                            board=board),
                       look=BoardLook.random(rng), lighting=Lighting.random(rng),
                       sensor=Sensor.random(rng), board=board)
        if looks != "varied":
            raise SimSettingError(f"looks are one of {', '.join(LOOKS)}, not {looks!r}")
        unknown = set(views) - set(VIEWS)
        if unknown or not views:
            raise SimSettingError(f"views are some of {', '.join(VIEWS)}, not {', '.join(views)}")
        board = board or random_board(rng)
        view = "pi" if mode else rng.choices(
            [v for v in VIEWS if v in views], [w for v, w in zip(VIEWS, VIEW_WEIGHTS,
                                                                 strict=True) if v in views])[0]
        if view == "pi":
            rig = CameraRig.random(rng, width=width, height=height, mode=mode, board=board)
            sensor = Sensor.random(rng)
        else:
            rig = (CameraRig.phone if view == "phone" else CameraRig.video)(rng, board)
            if width and height:
                rig = rig.resized(width, height)
            sensor = Sensor.phone(rng) if view == "phone" else Sensor.video(rng)
        look = BoardLook.varied(rng)
        return cls(rig=rig, look=look, lighting=Lighting.varied(rng), sensor=sensor,
                   board=board, surroundings=Surroundings.random(rng, look, board, rig))

    def tags(self) -> dict[str, Any]:
        """The scene's look in words, for a bench to split its figures by: the board's colour,
        frame, ditch and proportions, the view, and the hazards every frame of the rig has
        (:func:`frame_tags` adds a frame's own)."""
        look, light = self.look, self.lighting
        hazards = list(self.surroundings.hazards)
        if light.glare > 0:
            hazards.append("glare" if light.glare_shape == "spot" else "varnish glare")
        if look.seams > 0:
            hazards.append("veneer seams")
        if look.discs.worn > 0:
            hazards.append("worn discs")
        if look.discs.second_rgb is not None:
            hazards.append("two-shade discs")
        if look.spares:
            hazards.append("third set in the ditch")
        sides = (look.discs.dark_rgb, look.discs.light_rgb)
        if min(math.dist(c, look.surface_rgb) for c in sides) < LIKE:
            hazards.append("discs like the board")
        if min(math.dist(c, look.ditch_rgb) for c in sides) < LIKE:
            hazards.append("discs like the ditch")
        if self.rig.view != "pi" and self.sensor.sharpen > 0:
            hazards.append("sharpened")
        if not self.rig.sees_circle(self.board.surface_radius):
            hazards.append("surface cut off")
        elif not self.rig.sees_circle(self.board.ditch_radius):
            hazards.append("ditch cut off")
        shaped = ", frame-shaped" if look.ditch_outline == "frame" else ""
        return {"board_colour": look.colour, "frame": look.rail,
                "ditch": f"{look.ditch_finish}{shaped}",
                "proportions": proportions_of(self.board),
                "surface_in": round(surface_inches(self.board), 1), "view": self.rig.view,
                "hazards": sorted(hazards)}

    def texture_ppm(self) -> float:
        """Board-picture resolution: at least 1.25 texels per frame pixel, in steps of half a
        pixel per mm (so rigs of one look mostly share one picture), between 0.5 and 2.5."""
        px_per_mm = 1.0 / self.rig.mm_per_px(0.0)
        return min(2.5, max(0.5, math.ceil(1.25 * px_per_mm * 2) / 2))

    def disc_base(self, disc: PlacedDisc) -> float:
        """Height of the surface a disc rests on: the playing surface, or the ditch floor."""
        return -self.look.ditch_depth_mm if disc.in_ditch(self.board) else 0.0


def _lookup(scene: Scene, picture: BoardPicture
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """For every pixel, where to read the board picture: its ray met with the playing surface, or
    with the rail top where the ray reaches the rail before it; and, with things on the table,
    how far each pixel sees past the rail (0 on it, 1 beyond).

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
    on_rail = rail_inner(scene.look, board, x1, y1) - board.ditch_radius
    layers = [col0, row0, col1, row1, on_rail]
    if scene.surroundings.props:  # where the frame sees past the rail, onto the table
        layers.append(rail_outer(scene.look, board, x1, y1)
                      - (board.ditch_radius + scene.look.rail_width_mm))
    grid = np.stack(layers, axis=-1).astype(np.float32)
    full = cv2.resize(grid, (gw * s, gh * s), interpolation=cv2.INTER_LINEAR)
    full = full[s:s + rig.height, s:s + rig.width]
    rail = full[..., 4] > 0
    mapx = np.where(rail, full[..., 2], full[..., 0])
    mapy = np.where(rail, full[..., 3], full[..., 1])
    # beyond the rail layer's left edge the atlas holds the surface layer: read the border instead
    np.putmask(mapx, rail & (full[..., 2] < picture.size), -2.0)
    beyond = np.clip(full[..., 5] + 0.5, 0.0, 1.0) if scene.surroundings.props else None
    return mapx, mapy, beyond


@dataclass(frozen=True)
class Extras:
    """What a frame has besides its board state: the third set's discs in the ditch (board
    (x, y)), the players' arms, and the scores on a stream's overlay."""

    spares: tuple[tuple[float, float], ...] = ()
    arms: tuple[Arm, ...] = ()
    scores: tuple[int, int] = (0, 0)


def frame_extras(state: BoardState, scene: Scene, seed: int) -> Extras:
    """A frame's extras, drawn from its seed (the same for its picture and its truth)."""
    look, board, sur = scene.look, scene.board, scene.surroundings
    if not look.spares and sur.players <= 0 and not sur.overlay:
        return Extras()
    rng = np.random.default_rng([seed, 2])
    spares: list[tuple[float, float]] = []
    taken = [(d.x_mm, d.y_mm) for d in state.discs if d.in_ditch(board)]
    lo, hi = board.surface_radius + board.disc_radius, board.ditch_radius - board.disc_radius
    for _ in range(look.spares * 20):
        if len(spares) == look.spares:
            break
        r, a = rng.uniform(lo, hi), rng.uniform(0, 2 * math.pi)
        x, y = r * math.cos(a), r * math.sin(a)
        if all(math.hypot(x - u, y - v) >= board.disc_diameter + 0.1 for u, v in taken):
            spares.append((x, y))
            taken.append((x, y))
    arms = clutter.arms(rng, sur, look, board)
    scores = (int(rng.integers(0, 9)), int(rng.integers(0, 9)))
    return Extras(tuple(spares), arms, scores)


def _disc_cylinder(disc: PlacedDisc, scene: Scene, top: np.ndarray, **figure: Any) -> Cylinder:
    board = scene.board
    x, y, z = disc.bottom_centre(board, scene.disc_base(disc))
    return Cylinder(x, y, z, board.disc_thickness, board.disc_radius, tuple(top),
                    tuple(top * 0.62), tilt_deg=disc.tilt_deg if disc.pose == "leaning" else 0.0,
                    tilt_toward_deg=disc.tilt_toward_deg, **figure)


def _solids(state: BoardState, scene: Scene, rng: np.random.Generator,
            extras: Extras = Extras()) -> list[Cylinder]:
    look, board = scene.look, scene.board
    solids = []
    for px, py in board.pegs():
        peg = np.array(look.peg_rgb[::-1], np.float64)
        solids.append(Cylinder(px, py, 0.0, look.peg_height_mm, board.peg_diameter / 2,
                               tuple(peg), tuple(peg * 0.8), dome=True))
    for disc in state.discs:
        if disc.team not in (0, 1):
            raise SimSettingError(f"disc at ({disc.x_mm}, {disc.y_mm}) has team {disc.team}; "
                             "teams are 0 and 1")
        # The physics lets a disc pressed against the rail sink into it by a little over a mm
        # (the solver's contact slop), so allow that much beyond the rest position.
        if not disc.r <= board.ditch_radius - board.disc_radius + RAIL_SLOP_MM:  # catches NaN
            raise SimSettingError(
                f"disc at ({disc.x_mm}, {disc.y_mm}) is {disc.r:.1f} mm from the centre, beyond "
                f"the ditch: a disc's centre rests at most "
                f"{board.ditch_radius - board.disc_radius:g} mm out")
        top = np.array(look.team_rgb(disc.team)[::-1], np.float64) * rng.uniform(0.94, 1.06)
        figure: dict[str, Any] = dict(
            grain=look.discs.grain * rng.uniform(0.5, 1.5), grain_deg=rng.uniform(0, 180),
            grain_phase=rng.uniform(0, 2 * math.pi), grain_spacing_mm=rng.uniform(2.0, 5.0))
        if look.discs.second_rgb is not None and disc.team == look.discs.second_team \
                and rng.random() < 0.5:
            top = np.array(look.discs.second_rgb[::-1], np.float64) * rng.uniform(0.96, 1.04)
        if look.discs.worn > 0:
            figure.update(wear=min(1.0, look.discs.worn * rng.uniform(0.4, 1.4)),
                          wear_bgr=tuple(float(c) for c in look.discs.wear_rgb[::-1]),
                          wear_phase=tuple(float(v) for v in rng.uniform(0, 2 * math.pi, 3)))
        solids.append(_disc_cylinder(disc, scene, top, **figure))
    if extras.spares:
        spare = np.array(look.spare_rgb[::-1], np.float64)
        for x, y in extras.spares:
            top = spare * rng.uniform(0.94, 1.06)
            solids.append(Cylinder(x, y, -look.ditch_depth_mm, board.disc_thickness,
                                   board.disc_radius, tuple(top), tuple(top * 0.62)))
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
    mapx, mapy, beyond = _lookup(scene, picture)
    bg = tuple(float(c) for c in scene.look.background_rgb[::-1])
    board = cv2.remap(picture.atlas, mapx, mapy, cv2.INTER_LINEAR,
                      borderMode=cv2.BORDER_CONSTANT, borderValue=bg)
    if beyond is not None:
        clutter.paint_props(board, beyond, scene.rig, scene.surroundings)
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
    extras = frame_extras(state, scene, seed)
    solids = _solids(state, scene, np.random.default_rng([seed, 1]), extras)
    placed = place(scene.rig, solids, scene.lighting)
    canvas = np.empty(backdrop.board.shape, np.float32)
    for p in placed:
        c0, r0, c1, r1 = p.box
        canvas[r0:r1, c0:c1] = backdrop.board[r0:r1, c0:c1]
    paint(canvas, scene.rig, placed, scene.lighting)
    img = backdrop.lit.copy()
    for p in placed:
        backdrop.light.apply(canvas, p.box, out=img)
    if extras.arms:
        clutter.paint_arms(img, scene.rig, extras.arms, backdrop.light.gain,
                           _light_in_frame(scene))
    frame = expose(img, scene.sensor, np.random.default_rng([seed, 0]))
    if scene.surroundings.overlay:
        clutter.paint_overlay(frame, scene.rig, extras.scores)
    return frame


def _light_in_frame(scene: Scene) -> tuple[float, float]:
    """The direction toward the lamp as a unit vector in the frame (columns, rows)."""
    lx, ly = scene.lighting.toward_light()
    a, b = scene.rig.project(np.array([[0.0, 0.0, 0.0], [100.0 * lx, 100.0 * ly, 0.0]]))
    d = b - a
    return float(d[0] / np.linalg.norm(d)), float(d[1] / np.linalg.norm(d))


def encode_jpeg(frame: np.ndarray, quality: int) -> bytes:
    ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise SimSettingError(f"could not encode a {frame.shape} frame as JPEG")
    return buf.tobytes()


def disc_truth(disc: PlacedDisc, scene: Scene, cover: np.ndarray | None = None,
               under: bool = False) -> dict[str, Any]:
    """A disc's truth: position, team and zone, and where its top face shows in the frame
    (``pixel``: the projected centre of the top face; ``radius_px``: the mean distance of its
    projected rim from there) and where its foot would (``base_pixel``).

    Also how it lies (``pose``: flat, leaning or stacked; ``under``: a disc lies on it), how much
    of its top face the frame shows (``visible``: not beyond the frame's edge, nor under an arm
    or the overlay, ``cover``), and whether no reading can be sure of it (``needs_flag``, with
    ``why``): a disc on the playing surface that leans, is stacked or lies under one, or shows
    less than half its top. Discs in the ditch score nothing however they lie."""
    board, rig = scene.board, scene.rig
    cyl = _disc_cylinder(disc, scene, np.zeros(3))
    z0 = cyl.z0
    axes = cyl.axes()
    top = np.array([cyl.x, cyl.y, cyl.z0]) + axes[:, 2] * board.disc_thickness
    foot = np.array([*(np.array([cyl.x, cyl.y]) if disc.pose != "stacked" else
                       [disc.x_mm, disc.y_mm]), scene.disc_base(disc)])
    a = np.linspace(0.0, 2 * np.pi, 72, endpoint=False)
    rim = top + board.disc_radius * (np.outer(np.cos(a), axes[:, 0])
                                     + np.outer(np.sin(a), axes[:, 1]))
    pts = rig.project(np.concatenate([[top, foot], rim]))
    radius = float(np.linalg.norm(pts[2:] - pts[0], axis=1).mean())
    # the top face's share in view: points over it, in the frame and not covered
    rr, aa = np.meshgrid(np.sqrt((np.arange(6) + 0.5) / 6), np.linspace(0, 2 * np.pi, 16,
                                                                         endpoint=False))
    face = top + board.disc_radius * (np.outer((rr * np.cos(aa)).ravel(), axes[:, 0])
                                      + np.outer((rr * np.sin(aa)).ravel(), axes[:, 1]))
    uv = rig.project(face)
    inside = (uv[:, 0] >= 0) & (uv[:, 0] <= rig.width - 1) & (uv[:, 1] >= 0) & (
        uv[:, 1] <= rig.height - 1)
    seen = inside.copy()
    if cover is not None:
        iu = np.clip(np.round(uv[:, 0]).astype(int), 0, rig.width - 1)
        iv = np.clip(np.round(uv[:, 1]).astype(int), 0, rig.height - 1)
        seen &= cover[iv, iu] < 0.5
    visible = float(seen.mean())
    why = []
    if not disc.in_ditch(board):
        if disc.pose != "flat":
            why.append(disc.pose)
        if under:
            why.append("under a stacked disc")
        if visible < 0.5:
            why.append("out of the frame" if inside.mean() < 0.5 else "hidden")
    return {**disc.to_json(board), "pose": disc.pose, "under": under,
            "in_ditch": disc.in_ditch(board), "base_z_mm": z0,
            "top_z_mm": float(top[2]),
            "pixel": [round(float(pts[0, 0]), 3), round(float(pts[0, 1]), 3)],
            "radius_px": round(radius, 3),
            "base_pixel": [round(float(pts[1, 0]), 3), round(float(pts[1, 1]), 3)],
            "visible": round(visible, 3), "needs_flag": bool(why), "why": why}


def _under(state: BoardState, board: Board) -> set[int]:
    """The discs a stacked disc lies on: the nearest flat one under each."""
    out = set()
    for d in state.discs:
        if d.pose != "stacked":
            continue
        below = [(math.hypot(d.x_mm - e.x_mm, d.y_mm - e.y_mm), i)
                 for i, e in enumerate(state.discs) if e.pose == "flat"]
        if below and min(below)[0] < board.disc_diameter:
            out.add(min(below)[1])
    return out


def frame_tags(state: BoardState, scene: Scene, discs: list[dict[str, Any]],
               extras: Extras) -> dict[str, Any]:
    """The scene's tags with this frame's own hazards added."""
    tags = scene.tags()
    hazards = set(tags["hazards"])
    if extras.arms:
        hazards.add("arms")
    if any(d.pose == "leaning" for d in state.discs):
        hazards.add("leaning disc")
    if any(d.pose == "stacked" for d in state.discs):
        hazards.add("stacked discs")
    if any("hidden" in d["why"] or "out of the frame" in d["why"] for d in discs):
        hazards.add("disc hidden")
    return {**tags, "hazards": sorted(hazards)}


def truth(state: BoardState, scene: Scene, seed: int = 0) -> dict[str, Any]:
    """The frame's ground truth as JSON-ready data (``seed``: the frame's render seed, which
    draws its arms and spare discs)."""
    extras = frame_extras(state, scene, seed)
    cover = clutter.cover_mask(scene.rig, extras.arms, scene.surroundings.overlay)
    under = _under(state, scene.board)
    discs = [disc_truth(d, scene, cover, i in under) for i, d in enumerate(state.discs)]
    out = {
        "camera": scene.rig.to_json(),
        "board": asdict(scene.board),
        "look": scene.look.to_json(),
        "lighting": asdict(scene.lighting),
        "sensor": asdict(scene.sensor),
        "surroundings": asdict(scene.surroundings),
        "tags": frame_tags(state, scene, discs, extras),
        "discs": discs,
        "twenties": list(state.twenties),
        "totals": list(state.totals(scene.board)),
    }
    if extras.spares:
        spares = [disc_truth(PlacedDisc(x, y, 1), scene) for x, y in extras.spares]
        out["spares"] = [{k: s[k] for k in ("x_mm", "y_mm", "pixel", "radius_px")}
                         for s in spares]
    if extras.arms:
        out["arms"] = [asdict(a) for a in extras.arms]
    return out


# -- a camera backend over the simulated board ----------------------------------------------


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
            raise SimSettingError(f"unknown camera fault {fault!r}; use 'raise', 'black', "
                                  "'hang' or None")
        if times is not None and times < 1:
            raise SimSettingError(f"a camera fault must last at least one capture, got {times}")
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
        seed = self._seed * 1_000_003 + self._count
        frame = render(state, self.scene, seed=seed)
        self.last_truth = truth(state, self.scene, seed)
        return frame

    def close(self) -> None:
        self._closed = True
        self._healed.set()

    def __enter__(self) -> SimCamera:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
