"""Rendered boards for the tests that need a particular one: a rig's scene with a chosen look or
board geometry, its empty-board frame and calibration, and frames of given discs with their
truth. Frames are JPEG-encoded and decoded as a camera file would be."""

from __future__ import annotations

import functools
import json
import math
import random
from dataclasses import dataclass, replace

import numpy as np

from hw_sim.camera import Scene, render, truth
from hw_sim.discs import BoardState, PlacedDisc
from hw_sim.look import DiscSet
from rules.board import STANDARD, Board
from tests.vision.conftest import MODE, decode, seat0_of
from vision import Calibration, calibrate


@dataclass
class Rig:
    scene: Scene
    calibration: Calibration

    def frame(self, discs: tuple[PlacedDisc, ...], seed: int = 1,
              scene: Scene | None = None) -> tuple[np.ndarray, dict]:
        s = scene or self.scene
        state = BoardState(discs)
        image = decode(render(state, s, seed=seed), s.sensor.jpeg_quality)
        return image, json.loads(json.dumps(truth(state, s)))


def rig(seed: int, *, board: Board = STANDARD, mode: str = MODE, look: dict | None = None,
        discs: DiscSet | None = None, state_board: bool = False) -> Rig:
    """A rig drawn from ``seed`` (a Pi camera mode's lens), its look changed by ``look``
    (BoardLook fields) and ``discs``, calibrated on its empty board without being told the
    board (``state_board``: told it, as an installer stating it in the config)."""
    scene = Scene.random(random.Random(seed), mode=mode, board=board)
    changes = dict(look or {})
    if discs is not None:
        changes["discs"] = discs
    if changes:
        scene = replace(scene, look=replace(scene.look, **changes))
    empty = decode(render(BoardState(), scene, seed=seed + 1000), scene.sensor.jpeg_quality)
    seat0 = seat0_of(truth(BoardState(), scene)["camera"])
    return Rig(scene, calibrate(empty, seat0=seat0, board=board if state_board else None))


def pair(reading, truth_discs: list[dict], within: float = 3.0) -> list[tuple[dict, object]]:
    """Each true disc with the read one nearest it (within ``within`` mm), or None."""
    out = []
    for t in truth_discs:
        near = min(reading.discs, key=lambda d: math.dist((d.x_mm, d.y_mm),
                                                          (t["x_mm"], t["y_mm"])), default=None)
        ok = near is not None and math.dist((near.x_mm, near.y_mm),
                                            (t["x_mm"], t["y_mm"])) < within
        out.append((t, near if ok else None))
    return out


def nearest(reading, t: dict):
    """The read disc whose face lies nearest a true one's in the picture, and how far (px):
    pixels, so a bare photo's unknown turn or a board read at another size does not matter."""
    d = min(reading.discs, key=lambda d: math.dist(d.pixel, t["pixel"]))
    return d, math.dist(d.pixel, t["pixel"])


def flagged_or_right(reading, truth: dict, pixel: tuple[float, float]) -> None:
    """Asserts that the true disc at ``pixel`` (within 10 px) is read there, flagged or in its
    zone for its side, and that the totals are right unless the reading is to be checked."""
    t = next(t for t in truth["discs"] if math.dist(t["pixel"], pixel) < 10)
    near = [d for d in reading.discs if math.dist(d.pixel, t["pixel"]) < t["radius_px"]]
    assert near and all(d.uncertain or (d.zone, d.team) == (t["zone"], t["team"])
                        for d in near), near
    exact = [truth["totals"][k] - 20 * truth["twenties"][k] for k in (0, 1)]
    assert reading.uncertain or list(reading.totals) == exact


def scoring(reading, truth: dict):
    """Each true disc that scores, with the read disc nearest it and how far (see nearest)."""
    return [(t, *nearest(reading, t)) for t in truth["discs"] if t["zone"] > 0]


def ring(radius: float, count: int, team: int, start_deg: float = 0.0) -> tuple[PlacedDisc, ...]:
    """``count`` discs of ``team`` evenly round a circle of ``radius`` mm."""
    return tuple(PlacedDisc(radius * math.cos(math.radians(start_deg + k * 360 / count)),
                            radius * math.sin(math.radians(start_deg + k * 360 / count)), team)
                 for k in range(count))


@functools.cache
def bench_rig(boards: str, seed: int, number: int):
    from hw_sim.frames import plan_rig

    return plan_rig(number, seed, boards=boards, looks="varied")


def bench_frame(boards: str, seed: int, number: int,
                calibrated: bool = False) -> tuple[np.ndarray, dict, Calibration | None]:
    """Frame ``number`` of the benchmark's varied-look set ``boards`` ("play" or "layouts")
    of ``seed`` (a tuning seed, 11 or 12, or a retired unseen one, never a held-out one), drawn
    again on its own with its truth, as the camera's file gives it; with its rig's calibration
    from its empty board if ``calibrated``, as the benchmark makes it."""
    rig = bench_rig(boards, seed, number)
    q = rig.scene.sensor.jpeg_quality
    _, state, frame_seed = next(r for r in rig.rounds if r[0] == number)
    image = decode(render(state, rig.scene, seed=frame_seed), q)
    cal = None
    if calibrated:
        empty, seat0 = bench_empty(boards, seed, number)
        cal = calibrate(empty, seat0=seat0)
    return image, json.loads(json.dumps(truth(state, rig.scene))), cal


def lines_off(cal: Calibration, boards: str, seed: int, number: int) -> float:
    """How far (mm on the board, at the most) the calibration puts the painted lines from
    where frame ``number``'s rig has them, round the part of each in the picture: each line
    as the calibration projects it, taken back to the board by the rig's own camera (the
    outer line sets the scale)."""
    from vision.projection import CameraModel

    real = truth(BoardState(), bench_rig(boards, seed, number).scene)
    camera = CameraModel.from_json(real["camera"])
    k = real["board"]["outer_radius"] / cal.board.outer_radius
    a = np.linspace(0, 2 * np.pi, 72, endpoint=False)
    ring = np.stack([np.cos(a), np.sin(a), np.zeros_like(a)], -1)
    most = 0.0
    for r in cal.board.line_radii:
        pixels = cal.camera.project(ring * r)
        seen = ((pixels >= 0) & (pixels < np.array([camera.width, camera.height]))).all(axis=1)
        xy = camera.to_board(pixels[seen], 0.0)
        if len(xy):
            most = max(most, float(np.abs(np.hypot(xy[:, 0], xy[:, 1]) - r * k).max()))
    return most


def bench_empty(boards: str, seed: int, number: int) -> tuple[np.ndarray, str]:
    """The empty board of frame ``number``'s rig (see :func:`bench_frame`) and the frame edge
    its seat 0 sits at."""
    rig = bench_rig(boards, seed, number)
    empty = decode(render(BoardState(), rig.scene, seed=rig.empty_seed),
                   rig.scene.sensor.jpeg_quality)
    return empty, seat0_of(truth(BoardState(), rig.scene)["camera"])
