import math
import random

import pytest

from hw_sim.layouts import HABITS, MAX_DISCS, VARIED_HABITS, end_of_round
from hw_sim.proportions import random_board
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


# -- the varied habits: discs across lines, against a peg and a disc, leaning and stacked ---------

def _varied(seed, board=B):
    return end_of_round(random.Random(seed), board, habits=VARIED_HABITS, poses=0.5)


VARIED = [_varied(seed) for seed in range(150)]


def test_varied_boards_are_physically_possible():
    for state in VARIED[:80]:
        flat = [d for d in state.discs if d.pose == "flat"]
        for i, d in enumerate(flat):
            for e in flat[i + 1:]:
                assert math.hypot(d.x_mm - e.x_mm, d.y_mm - e.y_mm) >= B.disc_diameter
        for d in state.discs:
            if d.pose == "stacked":  # on a flat disc, a few mm off its centre
                below = min(math.hypot(d.x_mm - e.x_mm, d.y_mm - e.y_mm) for e in flat)
                assert below <= 8.0 + 1e-9 and not d.in_ditch(B)
            elif d.pose == "leaning":
                a = math.radians(d.tilt_deg)
                reach = B.disc_radius * math.cos(a) + B.disc_thickness / 2 * math.sin(a)
                f = math.radians(d.tilt_toward_deg)
                edge = (d.x_mm + reach * math.cos(f), d.y_mm + reach * math.sin(f))
                if d.in_ditch(B):  # its raised edge against the rail's inner wall
                    assert math.hypot(*edge) == pytest.approx(B.ditch_radius - 0.2, abs=0.01)
                    assert d.r - B.disc_radius >= B.surface_radius
                else:  # its raised edge against a peg
                    gap = min(math.hypot(edge[0] - px, edge[1] - py) for px, py in B.pegs())
                    assert gap == pytest.approx(B.peg_diameter / 2, abs=0.01)
                    assert 10 <= d.tilt_deg <= 25
                for e in flat:
                    assert math.hypot(d.x_mm - e.x_mm, d.y_mm - e.y_mm) >= B.disc_diameter


def test_varied_boards_have_discs_across_lines_and_every_pose():
    across = sum(1 for s in VARIED for d in s.discs if d.pose == "flat" and not d.in_ditch(B)
                 and min(abs(d.r - r) for r in B.line_radii) < 0.8 * B.disc_radius)
    poses = {(d.pose, d.in_ditch(B)) for s in VARIED for d in s.discs}
    assert across > 150
    assert poses >= {("flat", False), ("flat", True), ("leaning", False), ("leaning", True),
                     ("stacked", False)}
    assert 40 < sum(any(d.pose != "flat" for d in s.discs) for s in VARIED) < 110


def test_classic_layouts_are_unchanged_by_the_varied_habits():
    assert end_of_round(random.Random(7)) == end_of_round(random.Random(7), habits=HABITS,
                                                          poses=0.0)
    assert all(d.pose == "flat" for s in BOARDS for d in s.discs)


@pytest.mark.parametrize("seed", range(6))
def test_varied_layouts_fit_boards_of_any_size(seed):
    board = random_board(random.Random(seed))
    state = _varied(seed, board)
    for d in state.discs:
        a = math.radians(d.tilt_deg)
        reach = B.disc_radius * math.cos(a) + B.disc_thickness / 2 * math.sin(a)
        assert d.r <= board.ditch_radius - (reach if d.pose == "leaning" else B.disc_radius)
        if d.pose == "flat" and not d.in_ditch(board):
            assert d.r > board.hole_diameter / 2
