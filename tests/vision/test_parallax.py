"""A disc's top face sits 9.5 mm up, so it shows shifted outward from the point below the
camera: by over 2 mm near the outer line at a metre. The reading puts it back."""

import math
import random

import numpy as np

from hw_sim.camera import Scene, render, truth
from hw_sim.discs import BoardState, PlacedDisc
from tests.vision.conftest import MODE
from vision import read_board


def test_the_thickness_parallax_is_corrected(rigs):
    rig = rigs["play"][0]
    scene = Scene.random(random.Random(21), mode=MODE)  # the first play rig's scene
    state = BoardState(tuple(PlacedDisc(265 * math.cos(a), 265 * math.sin(a), k % 2)
                             for k, a in enumerate(np.radians([20, 110, 200, 290]))))
    frame = render(state, scene, seed=3)
    facts = truth(state, scene)
    reading = read_board(frame, rig.calibration)
    assert len(reading.discs) == 4
    cam = rig.calibration.camera
    for t in facts["discs"]:
        d = min(reading.discs, key=lambda d: math.dist((d.x_mm, d.y_mm), (t["x_mm"], t["y_mm"])))
        # where the top face's centre shows, taken as if on the board: the uncorrected place
        naive = cam.to_board(np.array(t["pixel"]), 0.0)
        shift = math.dist(naive, (t["x_mm"], t["y_mm"]))
        assert shift > 1.8  # the parallax is there to correct ...
        assert math.hypot(*naive) > math.hypot(t["x_mm"], t["y_mm"])  # ... and points outward
        assert math.dist((d.x_mm, d.y_mm), (t["x_mm"], t["y_mm"])) < 0.5  # ... and is undone
        assert abs(math.hypot(d.x_mm, d.y_mm) - 265) < 0.4
