"""How sure a disc's zone is: its uncertainty against its margin to the deciding line."""

from dataclasses import replace

import numpy as np

from rules.board import STANDARD
from vision.projection import looking_down
from vision.rims import Rim
from vision.zones import FLAG_SIGMAS, Registration, judge


def _rim(x: float) -> Rim:
    """A disc's rim seen cleanly all round at (x, 0) on the board's top faces."""
    n = 40
    return Rim(x, 0.0, STANDARD.disc_thickness, STANDARD.disc_radius, 1.0, n, 0.05, 0.05,
               40.0, False, np.zeros(n), np.zeros(n), np.ones(n, bool))


def _registration() -> Registration:
    camera = looking_down(2028, 1520, 1935.0, (1014.0, 760.0), 2.0)
    return Registration(camera, 0.03, 0.1, True, "bottom")


def test_a_clean_rim_close_to_a_line_whose_width_is_known_roughly_is_in_doubt():
    """A disc seen cleanly all round, its edge 0.8 mm inside the 10 line's inner edge: its
    position is good to a fifth of a millimetre, but the line's inner edge is where the
    board's 2 mm width puts it, and a real board's lines are 1.5 to 3 mm wide (half a
    millimetre either way at the edge). On the simulator's retired frames that width was the
    largest part of the discs' edges read more than three uncertainties off; it counts in
    the disc's uncertainty, and the disc is flagged."""
    edge = STANDARD.thresholds()[1] - 0.8
    zone, margin, sigma, doubt = judge(_rim(edge - STANDARD.disc_radius), _registration(),
                                       STANDARD)
    assert zone == 10 and abs(margin - 0.8) < 1e-6
    assert doubt and margin < FLAG_SIGMAS * sigma


def test_a_clean_rim_well_inside_its_zone_is_sure():
    edge = STANDARD.thresholds()[1] - 3.0
    zone, _, sigma, doubt = judge(_rim(edge - STANDARD.disc_radius), _registration(),
                                       STANDARD)
    assert zone == 10 and not doubt and sigma < 0.5


def test_a_board_whose_size_the_discs_leave_in_doubt_leaves_an_edge_near_a_line_in_doubt():
    """The board's size is taken from its discs, and a size off by a share puts every disc's
    edge off the lines by that share of its radius. A clean rim 2 mm inside the 10 line's
    inner edge is sure on a board of known size; on one whose discs, fitted freely, stand 6 %
    from the size taken (1 mm at the edge), it is flagged."""
    edge = STANDARD.thresholds()[1] - 2.0
    rim = _rim(edge - STANDARD.disc_radius)
    known = judge(rim, _registration(), STANDARD)
    unsure = judge(rim, replace(_registration(), size_sigma=0.06), STANDARD)
    assert known[0] == unsure[0] == 10
    assert not known[3] and unsure[3]
    assert unsure[2] > known[2] + 0.5
