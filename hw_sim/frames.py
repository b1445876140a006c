"""``python -m hw_sim render``: frames of end-of-round boards with their truth, for vision.

A club's camera hangs over one board for months, and vision calibrates once from a frame of the
empty board, so frames come in rigs: each rig (camera, board look, room light) gets an empty-board
frame and then several rounds. Files written to the output folder::

    rig00_empty.jpg  rig00_empty.json      the empty board, for calibration
    frame0000.jpg    frame0000.json        a round's end, with its truth
    index.json                             every frame with its rig and empty frame

Each JSON holds the camera (matrix, distortion, pose, resolution), the board geometry, the look,
light, sensor and surroundings, the look in words (``tags``), and per disc x_mm, y_mm, team, zone,
pose, where its top face shows in the frame, how much of it is in view and whether a reading must
flag it (see :func:`hw_sim.camera.truth` and docs/sim-camera.md). The first looks are the
default; ``looks="varied"`` draws real boards' variety, each rig on a board of its own.
"""

from __future__ import annotations

import json
import logging
import math
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hw_sim import layouts
from hw_sim.camera import VIEWS, Scene, encode_jpeg, render, truth
from hw_sim.discs import BoardState
from hw_sim.errors import SimSettingError
from rules.board import STANDARD, Board

log = logging.getLogger(__name__)


BOARD_SOURCES = ("play", "layouts")


def end_of_round_states(source: str, frames: int, seed: int,
                        board: Board = STANDARD, looks: str = "classic") -> list[BoardState]:
    """The boards to draw: left by simulated matches (``play``: physics and players, what a club
    really leaves on a board), or from the layout generator (``layouts``: crowded boards with
    many discs touching lines, pegs and each other, to stress the vision; with ``looks`` varied
    also discs lying across lines, against a peg and a disc at once, and now and then one
    leaning on a peg or the rail or lying on another disc)."""
    if source == "play":
        from hw_sim.scenario import end_of_round_boards

        return [b.state for b in end_of_round_boards(frames, seed, board=board)]
    if source == "layouts":
        rng = random.Random(seed)
        if looks == "varied":
            return [layouts.end_of_round(rng, board, habits=layouts.VARIED_HABITS, poses=0.3)
                    for _ in range(frames)]
        return [layouts.end_of_round(rng, board) for _ in range(frames)]
    raise SimSettingError(f"boards come from one of {', '.join(BOARD_SOURCES)}, not {source!r}")


def _write(out: Path, name: str, state: BoardState, scene: Scene, seed: int,
           extra: dict[str, Any]) -> dict[str, Any]:
    frame = render(state, scene, seed=seed)
    (out / f"{name}.jpg").write_bytes(encode_jpeg(frame, scene.sensor.jpeg_quality))
    record = {"image": f"{name}.jpg", **extra, "seed": seed, **truth(state, scene, seed)}
    (out / f"{name}.json").write_text(json.dumps(record, indent=1) + "\n")
    return record


@dataclass(frozen=True)
class PlannedRig:
    """One rig of a frame set: its scene, the empty board's render seed, and its rounds as
    (frame number, board, render seed)."""

    index: int
    scene: Scene
    empty_seed: int
    rounds: tuple[tuple[int, BoardState, int], ...]


def plan_frames(frames: int, seed: int, *, width: int | None = None, height: int | None = None,
                per_rig: int = 4, boards: str = "play", board: Board | None = None,
                looks: str = "classic", views: tuple[str, ...] = VIEWS) -> list[PlannedRig]:
    """What :func:`write_frames` renders, without rendering it: so one frame of a seeded set
    can be drawn again on its own (a test of a case the benchmark met).

    ``looks="classic"``: the first looks, on ``board`` (default the tournament board), the
    frames exactly as they always were for a seed. ``"varied"``: each rig draws its board too
    (unless ``board`` is given) and a view among ``views``, and its rounds are played (or laid
    out) on that board (:meth:`Scene.random`)."""
    return _plan(frames, seed, None, width=width, height=height, per_rig=per_rig,
                 boards=boards, board=board, looks=looks, views=views)


def plan_rig(number: int, seed: int, *, width: int | None = None, height: int | None = None,
             per_rig: int = 4, boards: str = "play", board: Board | None = None,
             looks: str = "classic", views: tuple[str, ...] = VIEWS) -> PlannedRig:
    """The rig of frame ``number`` as ``plan_frames(number + 1, ...)`` plans it. A varied set's
    rigs each play their rounds from a seed of their own, so only this rig's are played: a
    played set's 77th frame is drawn again in a second, not after every game before it."""
    if number < 0:
        raise SimSettingError(f"a frame's number must not be negative, got {number}")
    (rig,) = _plan(number + 1, seed, number, width=width, height=height, per_rig=per_rig,
                   boards=boards, board=board, looks=looks, views=views)
    return rig


def _plan(frames: int, seed: int, only: int | None, *, width: int | None, height: int | None,
          per_rig: int, boards: str, board: Board | None, looks: str,
          views: tuple[str, ...]) -> list[PlannedRig]:
    """The rigs of :func:`plan_frames`, or (``only`` a frame's number) that frame's rig alone,
    the random draws of the rigs before it made all the same."""
    if frames < 0:
        raise SimSettingError(f"the number of frames must not be negative, got {frames}")
    if per_rig < 1:
        raise SimSettingError(f"frames per rig must be at least 1, got {per_rig}")
    if boards not in BOARD_SOURCES:
        raise SimSettingError(f"boards come from one of {', '.join(BOARD_SOURCES)}, not {boards!r}")
    classic = looks == "classic"
    states = end_of_round_states(boards, frames, seed, board or STANDARD) if classic else []
    rng = random.Random(seed)
    out = []
    for rig in range(max(1, math.ceil(frames / per_rig))):
        scene = Scene.random(rng, width=width, height=height, board=board, looks=looks,
                             views=views)
        empty_seed = rng.randrange(2**31)
        numbers = range(rig * per_rig, min(frames, (rig + 1) * per_rig))
        wanted = only is None or only in numbers
        if classic:
            mine = [states[i] for i in numbers]
        else:
            played = rng.randrange(2**31) if numbers else None
            mine = (end_of_round_states(boards, len(numbers), played, scene.board, looks)
                    if played is not None and wanted else [BoardState()] * len(numbers))
        rounds = tuple((i, state, rng.randrange(2**31))
                       for i, state in zip(numbers, mine, strict=True))
        if wanted:
            out.append(PlannedRig(rig, scene, empty_seed, rounds))
    return out


def write_frames(out: Path, frames: int, seed: int, *, width: int | None = None,
                 height: int | None = None, per_rig: int = 4, boards: str = "play",
                 board: Board | None = None, looks: str = "classic",
                 views: tuple[str, ...] = VIEWS) -> list[dict[str, Any]]:
    """Writes ``frames`` round frames (a new rig every ``per_rig``) and an empty-board frame per
    rig (at least one) into ``out``; returns the index it also writes as ``index.json`` (per
    round frame its image, truth, rig, empty frame and truth, disc count and look ``tags``)."""
    plan = plan_frames(frames, seed, width=width, height=height, per_rig=per_rig,
                       boards=boards, board=board, looks=looks, views=views)
    out.mkdir(parents=True, exist_ok=True)
    index: list[dict[str, Any]] = []
    for rig in plan:
        scene = rig.scene
        empty = f"rig{rig.index:02d}_empty"
        _write(out, empty, BoardState(), scene, rig.empty_seed,
               {"kind": "empty", "rig": rig.index})
        log.info("rig %d: %s %dx%d", rig.index, scene.rig.mode, scene.rig.width,
                 scene.rig.height)
        for i, state, seed_i in rig.rounds:
            name = f"frame{i:04d}"
            record = _write(out, name, state, scene, seed_i,
                            {"kind": "round", "rig": rig.index, "empty": f"{empty}.jpg"})
            index.append({"image": f"{name}.jpg", "truth": f"{name}.json", "rig": rig.index,
                          "empty": f"{empty}.jpg", "empty_truth": f"{empty}.json",
                          "discs": len(state.discs), "tags": record["tags"]})
    (out / "index.json").write_text(json.dumps(index, indent=1) + "\n")
    return index
