import math
import random

import pytest

from hw_sim.layouts import MAX_DISCS, end_of_round
from rules.board import STANDARD as B

BOARDS = [end_of_round(random.Random(seed)) for seed in range(150)]


def test_same_seed_same_board():
    assert end_of_round(random.Random(7)) == end_of_round(random.Random(7))
    assert end_of_round(random.Random(7)) != end_of_round(random.Random(8))


@pytest.mark.parametrize("state", BOARDS[:60])
def test_boards_are_physically_possible(state):
    discs = state.discs
    assert 0 <= len(discs) <= MAX_DISCS
    assert all(sum(d.team == t for d in discs) <= 12 for t in (0, 1))
    for i, d in enumerate(discs):
        for e in discs[i + 1:]:
            assert math.hypot(d.x_mm - e.x_mm, d.y_mm - e.y_mm) >= B.disc_diameter
        if d.in_ditch(B):
            assert B.surface_radius + B.disc_radius <= d.r <= B.ditch_radius - B.disc_radius
        else:
            assert d.r > B.hole_diameter / 2
            for px, py in B.pegs():
                assert math.hypot(d.x_mm - px, d.y_mm - py) >= B.disc_radius + B.peg_diameter / 2


def test_boards_have_the_habits_of_real_rounds():
    """Across many rounds: clusters, discs against pegs, on or near lines, over the 20 hole's
    edge, in the ditch, and every disc count from empty to full."""
    seen = {"cluster": 0, "peg": 0, "line": 0, "hole": 0, "ditch": 0}
    for state in BOARDS:
        for i, d in enumerate(state.discs):
            if any(math.hypot(d.x_mm - e.x_mm, d.y_mm - e.y_mm) < B.disc_diameter + 0.6
                   for e in state.discs[i + 1:]):
                seen["cluster"] += 1
            if any(math.hypot(d.x_mm - px, d.y_mm - py) < B.disc_radius + B.peg_diameter / 2 + 0.5
                   for px, py in B.pegs()):
                seen["peg"] += 1
            if not d.in_ditch(B) and B.zone_margin(d.r) < 2.5:
                seen["line"] += 1
            if not d.in_ditch(B) and d.r < B.hole_diameter / 2 + B.disc_radius:
                seen["hole"] += 1
            seen["ditch"] += d.in_ditch(B)
    assert all(n >= 10 for n in seen.values()), seen
    counts = {len(s.discs) for s in BOARDS}
    assert 0 in counts or 1 in counts
    assert max(counts) >= 22


def test_zones_in_the_truth_are_the_rules_zones():
    for state in BOARDS[:30]:
        for d in state.discs:
            assert d.zone(B) == (0 if d.r > B.surface_radius else B.zone(d.r))


def test_disc_count_can_be_asked_for_and_is_checked():
    assert len(end_of_round(random.Random(1), discs=24).discs) == 24
    with pytest.raises(ValueError, match="0 to 24"):
        end_of_round(random.Random(1), discs=25)
