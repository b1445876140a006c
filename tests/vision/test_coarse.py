"""The rough board: where the centre vote and the radius count look, on drawn pictures whose
answer is known exactly."""

import math

import cv2
import numpy as np

from vision.coarse import BROAD_SHARE, centre_votes


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
    from rules.board import STANDARD
    from vision.registration import find_board

    grey, (cx, cy) = _square_board_on_a_pale_table()
    frame = cv2.cvtColor(np.clip(grey, 0, 255).astype(np.uint8), cv2.COLOR_GRAY2BGR)
    found = find_board(frame, STANDARD, name="a drawn square board")
    x, y = found.camera.project(np.zeros((1, 3)))[0]
    assert math.hypot(x - cx, y - cy) < 3.0, (x, y)
    assert found.agreement > 0.8
