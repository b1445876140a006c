import math
import random

import pytest

from hw_sim.proportions import INCH, proportions_of, random_board, surface_inches
from rules.board import STANDARD

BOARDS = [random_board(random.Random(seed)) for seed in range(200)]


def test_the_tournament_board_has_tournament_proportions():
    assert proportions_of(STANDARD) == "tournament"
    assert surface_inches(STANDARD) == pytest.approx(26.0, abs=0.05)


def test_boards_run_from_20_to_32_inches_in_both_proportions():
    inches = [surface_inches(b) for b in BOARDS]
    assert 20.0 <= min(inches) < 21.0 and 31.0 < max(inches) <= 32.0
    kinds = [proportions_of(b) for b in BOARDS]
    assert 60 < kinds.count("club") < 140


@pytest.mark.parametrize("board", BOARDS[:60])
def test_club_lines_stand_6_to_8_percent_off_the_tournament_ratios(board):
    f = board.fifteen_radius
    ten_off, outer_off = board.ten_radius / (2 * f) - 1, board.outer_radius / (3 * f) - 1
    if proportions_of(board) == "tournament":
        assert abs(ten_off) < 0.005 and abs(outer_off) < 0.005
    else:
        assert 0.059 < abs(ten_off) < 0.081 and 0.059 < abs(outer_off) < 0.081
    assert board.surface_radius - board.outer_radius == pytest.approx(
        board.surface_radius * 0.08, abs=board.surface_radius * 0.025)
    assert 40 <= board.ditch_radius - board.surface_radius <= 60


def test_holes_pegs_and_lines_vary_but_discs_do_not():
    for name, lo, hi in (("hole_diameter", 32, 40), ("peg_diameter", 6, 13),
                         ("line_width", 1.5, 3.0)):
        values = [getattr(b, name) for b in BOARDS]
        assert lo <= min(values) < lo + 1 and hi - 1 < max(values) <= hi, name
    assert {b.disc_diameter for b in BOARDS} == {STANDARD.disc_diameter}


def test_a_disc_can_score_differently_on_a_club_board():
    """The reason the truth carries the board: at the same distance from the centre a disc
    scores by the lines really there."""
    differs = 0
    for board in BOARDS:
        for r in range(20, int(board.outer_radius), 5):
            differs += board.zone(r) != STANDARD.zone(r)
    assert differs > 1000


def test_same_seed_same_board_and_kinds_can_be_asked_for():
    assert random_board(random.Random(3)) == random_board(random.Random(3))
    assert proportions_of(random_board(random.Random(3), "club")) == "club"
    assert proportions_of(random_board(random.Random(3), "tournament")) == "tournament"
    with pytest.raises(ValueError, match="proportions"):
        random_board(random.Random(3), "square")  # type: ignore[arg-type]
    assert math.isclose(INCH, 25.4)
