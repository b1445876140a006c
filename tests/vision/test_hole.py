"""The 20 hole measured in the picture: about 35 mm on every size of board, so not the prior's
scaled with the board."""

from dataclasses import replace

import pytest

from hw_sim.camera import truth
from hw_sim.discs import BoardState
from rules.board import STANDARD
from tests.vision import scenes
from vision import read_board
from vision.hole import measure_hole
from vision.registration import find_board, grey_of, scaled


def _true_hole(rig) -> float:
    """The rig's hole in the calibration's lengths (its outer line sets the scale)."""
    board = truth(BoardState(), rig.scene)["board"]
    return board["hole_diameter"] * rig.calibration.board.outer_radius / board["outer_radius"]


PALE, DARK = (214, 178, 128), (96, 62, 40)


@pytest.mark.parametrize(("size", "hole", "bottom", "surface"), [
    (0.8, 37.0, (28, 28, 32), PALE),     # a 24-inch board: its hole is 37 mm, not 28
    (1.1, 33.0, (150, 36, 40), PALE),    # a 30-inch board with a red-felt cup: 33, not 38.5
    (1.0, 36.0, (200, 170, 120), DARK),  # a pale cup in a dark board
])
def test_the_hole_is_measured_on_a_board_of_any_size(size, hole, bottom, surface):
    board = replace(scaled(STANDARD, size), hole_diameter=hole)
    rig = scenes.rig(23, board=board, look={"hole_rgb": bottom, "surface_rgb": surface})
    assert abs(rig.calibration.board.hole_diameter - _true_hole(rig)) < 0.8


def test_a_hole_the_board_s_own_colour_keeps_the_prior_s():
    """A black cup in a black board shows no edge: the hole stays as the prior has it, not
    measured at some step of the noise."""
    rig = scenes.rig(23, look={"hole_rgb": (26, 26, 30), "surface": "painted",
                               "surface_rgb": (26, 26, 28), "grain": 0.0,
                               "line_rgb": (230, 230, 225)})
    assert rig.calibration.board.hole_diameter == STANDARD.hole_diameter


def test_a_cup_s_shading_is_not_taken_for_its_edge():
    """Retired unseen rig layouts-294 03: a pale cup as light as the board at its edge,
    shaded darker toward its middle. The shading's steady rise, 6 mm inside the edge, was
    taken for it; a slope is not an edge, and the hole is measured right or not at all."""
    empty, _ = scenes.bench_empty("layouts", 294, 12)
    found = find_board(empty, STANDARD)
    board = truth(BoardState(), scenes.bench_rig("layouts", 294, 12).scene)["board"]
    want = board["hole_diameter"] * found.board.outer_radius / board["outer_radius"]
    got = measure_hole(grey_of(empty), found.camera, replace(found.board, hole_diameter=35.0))
    assert got is None or abs(got - want) < 1.0


def test_a_smaller_board_s_discs_near_a_line_are_flagged_as_its_hole_says():
    """Seen layouts-384 66, a 20-inch board calibrated without ``[board]``: an empty board
    shows its lines' proportions, not its size, and taken at the tournament's its discs are
    taken for smaller than they are, which against the empty board they hardly say; a 10
    touching the 15 line read 15, 6 mm clear of it, with nothing flagged. Its hole measured
    44 mm across at that scale, wider than boards' holes are made: the board's size is taken
    to be as uncertain as the hole's size and the size taken differ, and the 10 is flagged."""
    frame, facts, cal = scenes.bench_frame("layouts", 384, 66, calibrated=True)
    reading = read_board(frame, cal)
    assert any("the 20 hole says a board" in n for n in reading.notes), reading.notes
    scoring = [t for t in facts["discs"] if t["zone"] > 0]
    assert [t["zone"] for t in scoring] == [10]
    d, off = scenes.nearest(reading, scoring[0])
    assert off < scoring[0]["radius_px"] / 3 and d.uncertain, d
    assert reading.check
