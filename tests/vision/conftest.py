"""Simulator frames with known truth, rendered once per test session.

Frames come in rigs as on a club's board: per rig an empty-board frame (to calibrate on) and a
few rounds' frames, JPEG-encoded and decoded as a camera file would be. They are rendered at a
Pi camera mode's own size (the Camera Module 2's binned 1640x1232, the smallest the appliance
uses), so the lens is the one vision assumes for that mode.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

import cv2
import numpy as np
import pytest

from hw_sim.camera import Scene, encode_jpeg, render, truth
from hw_sim.discs import BoardState
from hw_sim.frames import end_of_round_states
from rules.board import STANDARD
from vision import calibrate
from vision.projection import CameraModel
from vision.seats import seat_side

MODE = "v2-imx219-2x2"
SIDE_OF = {0: "right", 1: "bottom", 2: "left", 3: "top"}


def decode(frame: np.ndarray, quality: int) -> np.ndarray:
    return cv2.imdecode(np.frombuffer(encode_jpeg(frame, quality), np.uint8), cv2.IMREAD_COLOR)


def seat0_of(camera: dict) -> str:
    """The frame edge seat 0 sits at, as an installer would tell calibrate."""
    return SIDE_OF[round(seat_side(CameraModel.from_json(camera), STANDARD) / 90.0) % 4]


@dataclass
class Rig:
    empty: np.ndarray
    empty_truth: dict
    frames: list[tuple[np.ndarray, dict]]
    calibration: object = None


def make_rigs(source: str, rounds: int, seed: int, per_rig: int = 4) -> list[Rig]:
    states = end_of_round_states(source, rounds, seed)
    rng = random.Random(seed)
    rigs = []
    for start in range(0, rounds, per_rig):
        scene = Scene.random(rng, mode=MODE)
        q = scene.sensor.jpeg_quality
        empty = decode(render(BoardState(), scene, seed=rng.randrange(2**31)), q)
        frames = [(decode(render(s, scene, seed=rng.randrange(2**31)), q),
                   json.loads(json.dumps(truth(s, scene))))
                  for s in states[start:start + per_rig]]
        rigs.append(Rig(empty, truth(BoardState(), scene), frames))
    return rigs


@pytest.fixture(scope="session")
def rigs() -> dict[str, list[Rig]]:
    """Boards left by simulated play and crowded layouts: 12 round frames each, in 3 rigs each,
    every rig calibrated on its empty-board frame."""
    out = {"play": make_rigs("play", 12, 21), "layouts": make_rigs("layouts", 12, 22)}
    for rig in out["play"] + out["layouts"]:
        rig.calibration = calibrate(rig.empty, seat0=seat0_of(rig.empty_truth["camera"]))
    return out
