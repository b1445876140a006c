"""A disc's top face sits 9.5 mm up, so it shows shifted outward from the point below the
camera: by over 2 mm near the outer line at a metre. The reading puts it back."""

import math
import random

import numpy as np

from hw_sim.camera import Scene, render, truth
from hw_sim.discs import BoardState, PlacedDisc
from tests.vision import scenes
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


def test_a_long_lens_far_up_is_taken_halfway_and_within_the_uncertainty_given():
    """An overhead stream's 1280x720 frame has the 16:9 shape of a Pi Camera Module 3's mode,
    but its lens is a long one 2 to 3 m up, not that wide one a metre up. Taken as the wide
    lens, the discs' tops were put too far back toward the centre, most near the outer line
    (2.3 mm for the 5 on the tuning frame here, its camera 3.2 m up). The picture cannot tell
    the lenses apart looking straight down, so a 16:9 frame at another size has its discs put
    back by half the wide lens's parallax: within a millimetre or so here, and each within
    three of its uncertainties, with the rig's calibration and from scratch."""
    image, facts, cal = scenes.bench_frame("play", 11, 15, calibrated=True)
    assert facts["tags"]["view"] == "video"
    assert facts["camera"]["centre_mm"][2] > 1800  # the stream camera hangs high
    for calibration in (cal, None):
        reading = read_board(image, calibration)
        k = reading.board.outer_radius / facts["board"]["outer_radius"]
        worst = 0.0
        for t, d, px in scenes.scoring(reading, facts):
            assert px < 5
            err = math.hypot(d.x_mm, d.y_mm) - k * math.hypot(t["x_mm"], t["y_mm"])
            assert abs(err) < 3 * d.sigma_mm, (t["zone"], err, d.sigma_mm)
            worst = max(worst, abs(err))
        assert worst < 1.5


def test_calibrate_says_a_stream_s_discs_may_lie_either_way():
    """The installer calibrating from a stream's frame is told the lens was guessed, that the
    discs' thickness is undone halfway, and how far either way a disc at the outer line may
    lie: half the lean the guessed wide lens gives it there."""
    import re

    from vision import calibrate
    from vision.command import lens_guessed
    from vision.zones import lean_mm

    empty, seat0 = scenes.bench_empty("play", 11, 15)
    cal = calibrate(empty, seat0=seat0)
    said = lens_guessed(cal)
    assert said is not None and "undone halfway" in said and "--focal-px" in said
    got = re.search(r"may lie up to ([\d.]+) mm further in or out", said)
    assert got is not None
    cam, b = cal.camera, cal.board
    nx, ny = cam.nadir()
    lean = lean_mm(cam, -b.outer_radius * nx / math.hypot(nx, ny),
                   -b.outer_radius * ny / math.hypot(nx, ny), b.disc_thickness)
    assert abs(float(got.group(1)) - lean / 2) <= 0.06 and lean > 1.5
