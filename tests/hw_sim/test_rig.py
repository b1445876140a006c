import math
import random

import cv2
import numpy as np
import pytest

from hw_sim.rig import MODES, CameraRig
from rules.board import STANDARD


def rigs(n=6):
    return [CameraRig.random(random.Random(seed)) for seed in range(n)]


def board_points():
    """The board centre, the outer line, disc tops and the ditch floor."""
    a = np.linspace(0, 2 * np.pi, 72, endpoint=False)
    ring = lambda r, z: np.stack([r * np.cos(a), r * np.sin(a), np.full_like(a, z)], axis=-1)  # noqa: E731
    return np.concatenate([[[0.0, 0.0, 0.0]], ring(STANDARD.outer_radius, 0.0),
                           ring(150.0, STANDARD.disc_thickness), ring(355.0, -10.0)])


@pytest.mark.parametrize("rig", rigs(), ids=lambda r: r.mode)
def test_projection_matches_opencv(rig):
    pts = board_points()
    rvec, tvec = rig.pose()
    expected = cv2.projectPoints(pts, rvec, tvec, rig.camera_matrix(), rig.dist_coeffs())[0]
    assert np.abs(rig.project(pts) - expected.reshape(-1, 2)).max() < 1e-6


@pytest.mark.parametrize("rig", rigs(), ids=lambda r: r.mode)
def test_pixels_map_back_to_the_board_point_they_show(rig):
    rng = np.random.default_rng(1)
    px = rng.uniform(0, [rig.width, rig.height], (500, 2))
    for z in (0.0, 9.5, 25.0):
        xy = rig.ground(px, z)
        back = rig.project(np.concatenate([xy, np.full((len(xy), 1), z)], axis=1))
        assert np.abs(back - px).max() < 1e-6
    # and OpenCV's own inverse agrees
    x, y = rig.undistort(px)
    cv = cv2.undistortPoints(px.reshape(-1, 1, 2), rig.camera_matrix(), rig.dist_coeffs(),
                             criteria=(cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 50, 1e-12))
    assert np.abs(cv.reshape(-1, 2) - np.stack([x, y], axis=-1)).max() < 1e-6


def test_pose_puts_the_camera_above_the_board_looking_down():
    rig = CameraRig(640, 480, 500, 500, 320, 240, height_mm=1100, offset_x_mm=20,
                    offset_y_mm=-10, yaw_deg=30, tilt_deg=3, tilt_toward_deg=80)
    r, t = rig.rotation(), rig.translation()
    assert np.allclose(-r.T @ t, [20, -10, 1100])
    axis = r.T @ [0, 0, 1]  # the optical axis in board coordinates
    assert math.degrees(math.acos(-axis[2])) == pytest.approx(3)
    assert math.degrees(math.atan2(axis[1], axis[0])) == pytest.approx(80)
    rvec, tvec = rig.pose()
    assert np.allclose(cv2.Rodrigues(rvec)[0], r) and np.allclose(tvec, t)


def test_yaw_turns_the_board_clockwise_in_the_frame():
    straight = CameraRig(640, 480, 500, 500, 320, 240)
    turned = CameraRig(640, 480, 500, 500, 320, 240, yaw_deg=90)
    right = np.array([[100.0, 0.0, 0.0]])
    (u, v), = straight.project(right)
    assert u > 320 and v == pytest.approx(240)      # seat 0 at the bottom, +x to the right
    (u, v), = turned.project(right)
    assert u == pytest.approx(320) and v > 240      # +x now points down the frame


@pytest.mark.parametrize("seed", range(25))
def test_random_rigs_see_the_whole_ditch_from_about_a_metre(seed):
    rig = CameraRig.random(random.Random(seed))
    assert (rig.width, rig.height) in {(m.width, m.height) for m in MODES}
    assert rig.sees_circle(STANDARD.ditch_radius, margin_px=2)
    assert 800 < rig.height_mm < 1600
    assert rig.tilt_deg <= 4


def test_random_rig_takes_the_asked_size():
    rig = CameraRig.random(random.Random(3), width=320, height=240)
    assert (rig.width, rig.height) == (320, 240)
    assert rig.sees_circle(STANDARD.ditch_radius)
    with pytest.raises(ValueError, match="both width and height"):
        CameraRig.random(random.Random(3), width=320)


def test_a_lens_that_folds_the_frame_is_refused():
    with pytest.raises(ValueError, match=r"k1=-0\.6"):
        CameraRig(2028, 1520, 1000, 1000, 1014, 760, k1=-0.6)
    with pytest.raises(ValueError, match="focal"):
        CameraRig(640, 480, 0, 500, 320, 240)
