"""The camera model agrees with OpenCV and with the simulator's own cameras."""

import random

import cv2
import numpy as np
import pytest

from hw_sim.rig import CameraRig
from vision.lens import focal_guess, lean_share
from vision.projection import CameraModel, looking_down
from vision.seats import turned


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_projection_matches_opencv_and_the_simulator(seed):
    rig = CameraRig.random(random.Random(seed))
    cam = CameraModel.from_json(rig.to_json())
    pts = np.random.default_rng(seed).uniform([-380, -380, -10], [380, 380, 25], (200, 3))
    ref, _ = cv2.projectPoints(pts, np.array(rig.to_json()["rvec"]),
                               np.array(rig.to_json()["tvec"]), cam.matrix(), cam.distortion())
    assert np.abs(cam.project(pts) - ref.reshape(-1, 2)).max() < 1e-6
    assert np.abs(cam.project(pts) - rig.project(pts)).max() < 1e-6
    back = cam.to_board(cam.project(pts), pts[:, 2])
    assert np.abs(back - pts[:, :2]).max() < 1e-6
    assert np.allclose(cam.centre_mm, rig.centre_mm())


def test_a_camera_survives_json_and_its_parameters():
    cam = CameraModel.from_json(CameraRig.random(random.Random(4)).to_json())
    assert CameraModel.from_json(cam.to_json()) == cam
    again = cam.with_params(cam.params())
    assert np.allclose(again.project(np.zeros((1, 3))), cam.project(np.zeros((1, 3))))


@pytest.mark.parametrize("bad", [{}, {"matrix": [[1, 0], [0, 1]], "distortion": [0] * 4,
                                      "rvec": [0, 0, 0], "tvec": [0, 0, 1], "width": 4,
                                      "height": 4},
                                 {"matrix": [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
                                  "distortion": [0] * 4, "rvec": [0, 0], "tvec": [0, 0, 1],
                                  "width": 4, "height": 4}])
def test_a_malformed_camera_is_refused(bad):
    with pytest.raises((KeyError, ValueError, TypeError)):
        CameraModel.from_json(bad)


def test_looking_down_puts_the_centre_where_asked_and_seat0_below():
    cam = looking_down(800, 600, 700.0, (390.0, 310.0), 0.8)
    assert np.allclose(cam.project(np.zeros((1, 3)))[0], (390.0, 310.0))
    seat0 = cam.project(np.array([[0.0, -200.0, 0.0]]))[0]
    assert seat0[1] > 310.0 + 150  # down the frame
    # turning the board's coordinates moves what sits at 90 degrees to 0
    t = turned(cam, 90.0)
    assert np.allclose(t.project(np.array([[100.0, 0.0, 0.0]])),
                       cam.project(np.array([[0.0, 100.0, 0.0]])))


def test_the_focal_length_follows_the_camera_mode():
    assert focal_guess(2028, 1520).sigma < 0.05  # the HQ camera's binned mode
    assert abs(focal_guess(1014, 760).focal_px - focal_guess(2028, 1520).focal_px / 2) < 100
    assert focal_guess(1000, 1000).sigma >= 0.2  # a square picture: some other camera
    # a Pi mode's shape at another size (an overhead stream's 1280x720 has the Camera Module
    # 3's 16:9): fitted near that lens, but any camera's may be the truth
    guess = focal_guess(1280, 720)
    assert guess.prior_sigma < 0.1 and guess.sigma >= 0.2
    # ... its discs' tops put back by half the parallax that lens gives (a stream's camera may
    # hang far higher); not a 16:9 frame of the module's own size, nor a lens given, nor a 4:3
    # frame at another size (a phone's photo, its lens about as wide as the modules')
    assert lean_share(1280, 720, guess.sigma) == 0.5
    assert lean_share(1920, 1080, focal_guess(1920, 1080).sigma) == 0.5
    assert lean_share(2304, 1296, focal_guess(2304, 1296).sigma) == 1.0
    assert lean_share(1280, 720, focal_guess(1280, 720, focal_px=900.0).sigma) == 1.0
    assert lean_share(1600, 1200, focal_guess(1600, 1200).sigma) == 1.0
    assert focal_guess(640, 480, focal_px=555.0).focal_px == 555.0
