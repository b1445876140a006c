"""The board's lines found and measured on boards the benchmark met (its tuning seeds), drawn
again on their own: a dark ditch whose far wall rings the board like a line, and a bar of light
across a square frame that outvotes the rings' centre."""

import pytest

from hw_sim.camera import truth
from hw_sim.discs import BoardState
from tests.vision import scenes
from tests.vision.conftest import seat0_of
from vision import calibrate


def _empty(seed: int, rig: int):
    """A benchmark set's rig: its empty-board frame, as the camera file decodes, and truth."""
    image, _ = scenes.bench_empty("play", seed, rig * 4)
    return image, truth(BoardState(), scenes.bench_rig("play", seed, rig * 4).scene)


@pytest.mark.parametrize(("rig", "why"), [
    (4, "a club board over a dark ditch whose far wall shows as a ring"),
    (9, "a square frame with a bar of light across the board"),
], ids=["dark ditch", "light bar"])
def test_the_club_board_s_lines_are_measured(rig, why):
    image, t = _empty(11, rig)
    cal = calibrate(image, seat0=seat0_of(t["camera"]))
    true = t["board"]
    k = 304.8 / true["outer_radius"]  # the outer line sets the scale
    want = (true["fifteen_radius"] * k, true["ten_radius"] * k)
    got = cal.board.line_radii[:2]
    assert cal.board_from == "measured", why
    for g, w in zip(got, want, strict=True):
        assert abs(g - w) < 1.5, (why, got, want)


@pytest.mark.parametrize(("boards", "seed", "number"), [
    ("play", 131, 52),     # the vote's strongest peak at a score sheet's corner: the lines'
    #                        curvature judged about it lost the 15 line
    ("play", 111, 0),      # a phone's tilt: the 15 line's ellipse centred 11 px from the
    #                        outer line's, its ring blurred about the outer line's centre
    ("layouts", 92, 28),   # the same, on a natural board
    ("layouts", 132, 96),  # the surface's edge taken for the outer line, the real one lying
    #                        in that reading's 5 zone
    ("play", 111, 56),     # a sharpened picture: the dark halos beside white lines followed as
    #                        dark lines 4 mm off, a rival reading
    ("layouts", 348, 80),  # a red painted board's thin yellow lines in a video frame: the
    #                        strongest edges (a score sheet's, the captions') all voted for
    #                        centres off the board
], ids=["sheet corner", "phone tilt", "tilt, natural", "edge for outer line", "halo",
        "votes elsewhere"])
def test_empty_boards_once_refused_are_calibrated_on_their_lines(boards, seed, number):
    """Retired unseen rigs whose empty boards were refused ("no rings around a centre", or
    "the lines can be read two ways"): each is calibrated, its lines within a line's width of
    where the picture has them all round (a rival reading stood 4 mm off and more)."""
    empty, seat0 = scenes.bench_empty(boards, seed, number)
    assert scenes.lines_off(calibrate(empty, seat0=seat0), boards, seed, number) < 1.5


def test_a_sharpened_black_board_is_fitted_on_its_lines_not_their_halos():
    """A retired unseen rig (a club board, 1 : 1.85 : 2.82, black with white lines, in a
    sharpened video frame): the dark halos beside its lines, the 15 line's inner one and the
    others' outer ones, stood as the tournament's 1 : 2 : 3 and were followed all round as
    dark lines, every zone near a line 5 mm off with nothing in doubt. Its lines' ink, many
    times stronger, is fitted instead."""
    empty, seat0 = scenes.bench_empty("play", 317, 21)
    cal = calibrate(empty, seat0=seat0)
    assert cal.line_polarity == 1.0
    assert scenes.lines_off(cal, "play", 317, 21) < 1.5


@pytest.mark.parametrize(("boards", "seed", "number"), [
    ("play", 271, 40),  # the fit held the 10 line at a ring of grain: lines found on 52 %
    ("play", 271, 76),  # a glared phone view: its 10 line found on 7 % of its round
], ids=["grain", "glare"])
def test_a_10_line_far_inside_twice_the_15_line_s_radius_is_found(boards, seed, number):
    """Retired unseen rigs of club boards whose 10 line stands 13 % inside twice the 15
    line's radius, refused on their empty board: the lost line is found again round the centre
    and the board calibrated, its lines found nearly all round and within a line's width of
    where the picture has them. (The measured radii stand a little toward the tournament
    board's, the lens taking up the rest: the lines' places in the picture are what decide the
    zones.)"""
    empty, seat0 = scenes.bench_empty(boards, seed, number)
    cal = calibrate(empty, seat0=seat0)
    assert cal.agreement > 0.9
    width = scenes.bench_frame(boards, seed, number)[1]["board"]["line_width"]
    assert scenes.lines_off(cal, boards, seed, number) < width


@pytest.mark.parametrize(("number", "why"), [
    (92, "a square black frame on a pale table under a video's overlay: their edges, the "
         "strongest in the picture, took the centre vote, the navy board's thin lines none"),
    (84, "a clean black board: a numeral's few points, the count around them nil, stood as "
         "plainly as a whole line, and the 10 line was taken for the 15"),
], ids=["frame outshines lines", "clean black board"])
def test_boards_whose_lines_are_plain_to_see_are_calibrated(number, why):
    """Retired unseen rigs (layouts 296) refused on their empty board though every line is
    plain to a player: each is calibrated, its lines found nearly all round and within a
    line's width of where the picture has them."""
    empty, seat0 = scenes.bench_empty("layouts", 296, number)
    cal = calibrate(empty, seat0=seat0)
    assert cal.agreement > 0.9, why
    width = scenes.bench_frame("layouts", 296, number)[1]["board"]["line_width"]
    assert scenes.lines_off(cal, "layouts", 296, number) < width, why


@pytest.mark.parametrize(("seed", "number"), [(293, 28), (297, 56)], ids=["video", "phone"])
def test_a_natural_board_with_strong_grain_is_calibrated(seed, number):
    """Retired unseen rigs (play 293 and 297) of natural-wood boards, thin black lines across
    deep grain, refused on their empty board ("no rings around a centre": the grain's ridges
    outnumbered the lines' at every radius): each is calibrated, its lines found nearly all
    round and within a line's width of where the picture has them."""
    empty, seat0 = scenes.bench_empty("play", seed, number)
    cal = calibrate(empty, seat0=seat0)
    assert cal.agreement > 0.9
    width = scenes.bench_frame("play", seed, number)[1]["board"]["line_width"]
    assert scenes.lines_off(cal, "play", seed, number) < width


def test_a_small_board_s_surface_edge_is_not_taken_for_its_outer_line():
    """A 20-inch club board (retired unseen rig, play 191) whose outer line stands at 2.76
    times its 15 line's radius and its surface's edge 1.1 times further: taking the edge for
    the outer line put the lines nearer 1 : 2 : 3, every line was followed nearly all round,
    and the calibration was made with the outer line 1.5 disc radii off and nothing said.
    The painted circle in that reading's 5 zone shows it."""
    empty, seat0 = scenes.bench_empty("play", 191, 24)
    assert scenes.lines_off(calibrate(empty, seat0=seat0), "play", 191, 24) < 1.5


def _reading(camera, radii, agreement):
    """A fit as :func:`vision.registration.find_board` weighs them."""
    from rules.board import STANDARD
    from vision.registration import measured

    board = measured(STANDARD, (*radii, radii[2] * 1.08))
    return camera, None, agreement, board, -1.0


def test_two_readings_of_the_lines_that_fit_alike_put_the_board_in_doubt():
    from rules.board import STANDARD
    from vision.projection import looking_down
    from vision.registration import _doubt, scaled_camera

    camera = looking_down(2028, 1520, 1500.0, (1014.0, 760.0), 2.0)
    best = _reading(camera, (109.1, 233.1, 304.8), 0.95)
    # the ditch's far wall (388 mm here) taken for the outer line: the board taken for one
    # 1.27 times as small, its 15 and 10 lines (the same circles of the picture) at 86 and 183
    wall = _reading(scaled_camera(camera, 304.8 / 388.0), (86.0, 183.3, 304.8), 0.93)
    assert "two ways" in _doubt(best, [best, wall], STANDARD)
    # ... but not when it explains the lines clearly worse
    assert _doubt(best, [best, wall[:2] + (0.85,) + wall[3:]], STANDARD) == ""
    # the same circles of the picture, measured at other radii (a lens's distortion and a
    # board's proportions trade): one reading, not two
    same = _reading(scaled_camera(camera, 1.0 / 1.01), (108.0, 230.8, 301.8), 0.95)
    assert _doubt(best, [best, same], STANDARD) == ""
    # lines followed over too little of their round
    assert "only 50%" in _doubt(best[:2] + (0.5,) + best[3:], [], STANDARD)


def test_a_board_whose_lines_ring_darker_than_their_ink_is_calibrated():
    """A retired unseen rig (layouts 304, rig 9): a 20-inch black square board, its thin white
    lines at 1 : 1.84 : 3.2 beside bold numerals. The coarse look found its three circles
    only as darker ridges; fitted as dark lines they agreed on 11 % of their profiles, the
    circles found as light ridges were another board's, and the empty board was refused. Fitted
    as the light lines they are, they agree nearly all round and within a line's width of
    where the picture has them."""
    empty, seat0 = scenes.bench_empty("layouts", 304, 36)
    cal = calibrate(empty, seat0=seat0)
    assert cal.agreement > 0.9
    width = scenes.bench_frame("layouts", 304, 36)[1]["board"]["line_width"]
    assert scenes.lines_off(cal, "layouts", 304, 36) < width
