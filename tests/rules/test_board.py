import math

import pytest

from rules import STANDARD, Board

R = STANDARD.disc_radius  # 16 mm
HALF = STANDARD.line_width / 2  # 1 mm


@pytest.mark.parametrize(("r", "zone"), [
    (0.0, 15),                                  # leaning over the 20 hole: stays and scores 15
    (101.6 - HALF - R - 0.01, 15),              # just clear of the 15 line
    (101.6 - HALF - R, 10),                     # edge touching the 15 line: the lower value
    (101.6, 10),                                # straddling the 15 line
    (101.6 + HALF + R + 0.01, 10),              # clear of the 15 line on the outside
    (203.2 - HALF - R - 0.01, 10),
    (203.2 - HALF - R, 5),                      # touching the 10 line from inside
    (203.2 + HALF + R - 0.01, 5),               # touching the 10 line from outside
    (250.0, 5),
    (304.8 - HALF - R - 0.01, 5),
    (304.8 - HALF - R, 0),                      # touching the outer line scores nothing
    (304.8, 0),
    (340.0, 0),                                 # in the ditch
])
def test_zone_counts_a_disc_on_a_line_as_the_lower_value(r, zone):
    assert STANDARD.zone(r) == zone


def test_default_dimensions_match_the_tournament_board():
    b = Board()
    assert (b.hole_diameter, b.fifteen_radius, b.ten_radius, b.outer_radius, b.surface_radius) == (
        35.0, 101.6, 203.2, 304.8, 330.0)
    assert (b.line_width, b.disc_diameter) == (2.0, 32.0)


def test_wider_lines_and_bigger_discs_move_the_boundaries():
    wide = Board(line_width=6.0, disc_diameter=40.0)
    r = 101.6 - 1.0 - 16.0 - 0.5   # scores 15 on the standard board
    assert STANDARD.zone(r) == 15
    assert wide.zone(r) == 10


def test_zone_at_uses_distance_from_centre():
    assert STANDARD.zone_at(0, -60) == 15
    assert STANDARD.zone_at(150 / math.sqrt(2), 150 / math.sqrt(2)) == 10


def test_margin_is_the_distance_to_the_nearest_decision():
    assert STANDARD.zone_margin(101.6 - HALF - R - 2.0) == pytest.approx(2.0)
    assert STANDARD.zone_margin(150.0) == pytest.approx(min(abs(166 - 100.6), abs(166 - 202.2)))


def test_eight_pegs_sit_on_the_fifteen_line_clear_of_each_seats_straight_line():
    pegs = STANDARD.pegs()
    assert len(pegs) == 8
    for x, y in pegs:
        assert math.hypot(x, y) == pytest.approx(101.6)
    angles = sorted(round(math.degrees(math.atan2(y, x)) % 360, 6) for x, y in pegs)
    assert angles == [22.5 + 45 * k for k in range(8)]
    for seat_axis in (0, 90, 180, 270):
        assert all(abs((a - seat_axis + 180) % 360 - 180) >= 22.5 for a in angles)


def test_quadrants_go_clockwise_from_the_bottom_seat():
    assert [STANDARD.quadrant(0, -200), STANDARD.quadrant(-200, 0), STANDARD.quadrant(0, 200),
            STANDARD.quadrant(200, 0)] == [0, 1, 2, 3]


def test_radii_must_grow_outwards():
    with pytest.raises(ValueError, match="grow outwards"):
        Board(ten_radius=90.0)
    with pytest.raises(ValueError, match="line_width"):
        Board(line_width=0)
