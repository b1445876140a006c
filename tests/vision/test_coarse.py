"""The rough board: where the centre vote and the radius count look, on drawn pictures whose
answer is known exactly."""

import math

import cv2
import numpy as np

from rules.board import STANDARD
from vision.coarse import BROAD_SHARE, centre_votes, find


def _square_board_on_a_pale_table() -> tuple[np.ndarray, tuple[float, float]]:
    """A 1280x720 video frame: a black square frame, tilted a little, on a pale table, a navy
    playing surface with thin white lines, and two light caption boxes at the top. Every edge
    of the frame and the boxes is stronger than the lines' own."""
    grey = np.full((720, 1280), 180, np.uint8)
    centre = (670.0, 440.0)
    box = cv2.boxPoints((centre, (700.0, 760.0), 4.0)).astype(np.int32)
    cv2.fillPoly(grey, [box], 20)
    c = (round(centre[0]), round(centre[1]))
    cv2.circle(grey, c, 270, 45, -1, cv2.LINE_AA)
    for r in (92, 168, 246):
        cv2.circle(grey, c, r, 150, 2, cv2.LINE_AA)
    for x in (20, 1000):
        cv2.rectangle(grey, (x, 20), (x + 260, 70), 60, -1)
        cv2.putText(grey, "PLAYER", (x + 10, 58), cv2.FONT_HERSHEY_SIMPLEX, 1.2, 250, 3)
    return cv2.GaussianBlur(grey, (0, 0), 1.2).astype(np.float32), centre


def test_a_square_frame_s_strong_edges_do_not_take_the_centre_vote():
    """The frame's sides and the captions' edges vote in bands, the rings' edges all through
    the centre: with the lines' fainter edges voting too (as the board is looked for again
    when no board was found about the strongest edges' centres), the centre wins."""
    grey, (cx, cy) = _square_board_on_a_pale_table()
    x, y = centre_votes(grey, share=BROAD_SHARE)[0]
    assert math.hypot(x - cx, y - cy) < 0.02 * 1280, (x, y)


def test_the_board_is_found_when_the_strongest_edges_vote_for_the_frame():
    """The same picture, looked for as a frame is: the board found about the rings' centre,
    not refused (the strongest edges alone voted for the frame's sides and captions)."""
    from vision.registration import find_board

    grey, (cx, cy) = _square_board_on_a_pale_table()
    frame = cv2.cvtColor(np.clip(grey, 0, 255).astype(np.uint8), cv2.COLOR_GRAY2BGR)
    found = find_board(frame, STANDARD, name="a drawn square board")
    x, y = found.camera.project(np.zeros((1, 3)))[0]
    assert math.hypot(x - cx, y - cy) < 3.0, (x, y)
    assert found.agreement > 0.8


def _figured_board(depth: float) -> tuple[np.ndarray, tuple[float, float], tuple[int, ...]]:
    """A 1600x1200 phone photo of a pale board whose grain runs up and down in dark wavy
    ridges ``depth`` grey levels deep, every 10 px, with thin black lines (1 : 2 : 3) and a
    ditch a shade darker than the board round it."""
    h, w = 1200, 1600
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    wave = xx + 12 * np.sin(yy / 90.0) + 6 * np.sin(yy / 23.0 + 1.0)
    figure = np.sin(wave * 2 * np.pi / 10.0) * (0.6 + 0.4 * np.sin(wave * 2 * np.pi / 37.0))
    centre = (830.0, 610.0)
    d = np.hypot(xx - centre[0], yy - centre[1])
    grey = np.where(d < 470, 200 + depth * np.minimum(figure, 0.3), 60)
    grey = np.where((d >= 470) & (d < 500), 110, grey).astype(np.float32)
    c = (round(centre[0]), round(centre[1]))
    lines = (145, 290, 435)
    for r in lines:
        cv2.circle(grey, c, r, 30, 2, cv2.LINE_AA)
    cv2.circle(grey, c, 16, 20, -1, cv2.LINE_AA)
    return cv2.GaussianBlur(grey, (0, 0), 1.0), centre, lines


def test_a_figured_board_s_lines_stand_out_sector_by_sector():
    """Grain crossing the radii squarely, in the sectors left and right of the centre, piles
    up at every radius of the plain count and buries the lines' peaks (its best reading there
    takes the ditch for the outer line). Counted sector by sector, each line is the share of
    its round every sector shows, and the grain's is not: the lines are found where they are,
    and plainly."""
    grey, (cx, cy), lines = _figured_board(80.0)
    plain = find(grey, STANDARD)[0]
    best = find(grey, STANDARD, sectored=True)[0]
    assert math.hypot(best.centre[0] - cx, best.centre[1] - cy) < 3.0, best.centre
    for got, want in zip(best.radii_px[:3], lines, strict=True):
        assert abs(got / want - 1.0) < 0.01, (best.radii_px, lines)
    assert best.score > 2.5 * plain.score, (best.score, plain.score)
