"""The board's lines found and measured on boards the benchmark met (its tuning seeds), drawn
again on their own: a dark ditch whose far wall rings the board like a line, and a bar of light
across a square frame that outvotes the rings' centre."""

import functools

import pytest

from hw_sim.camera import render, truth
from hw_sim.discs import BoardState
from hw_sim.frames import plan_frames
from tests.vision.conftest import decode, seat0_of
from vision import calibrate


@functools.cache
def _empty(frames: int, seed: int, rig: int):
    """A benchmark set's rig: its empty-board frame, as the camera file decodes, and truth."""
    planned = plan_frames(frames, seed, boards="play", looks="varied")[rig]
    scene = planned.scene
    image = decode(render(BoardState(), scene, seed=planned.empty_seed),
                   scene.sensor.jpeg_quality)
    return image, truth(BoardState(), scene)


@pytest.mark.parametrize(("frames", "rig", "why"), [
    (20, 4, "a club board over a dark ditch whose far wall shows as a ring"),
    (40, 9, "a square frame with a bar of light across the board"),
], ids=["dark ditch", "light bar"])
def test_the_club_board_s_lines_are_measured(frames, rig, why):
    image, t = _empty(frames, 11, rig)
    cal = calibrate(image, seat0=seat0_of(t["camera"]))
    true = t["board"]
    k = 304.8 / true["outer_radius"]  # the outer line sets the scale
    want = (true["fifteen_radius"] * k, true["ten_radius"] * k)
    got = cal.board.line_radii[:2]
    assert cal.board_from == "measured", why
    for g, w in zip(got, want, strict=True):
        assert abs(g - w) < 1.5, (why, got, want)
