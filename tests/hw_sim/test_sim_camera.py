import random

import numpy as np
import pytest

from hw_sim.camera import Scene, SimCamera
from hw_sim.errors import SimCameraError
from hw_sim.layouts import end_of_round
from rules.errors import CrokiscoreError

SCENE = Scene.random(random.Random(4), width=160, height=120)
STATE = end_of_round(random.Random(4), discs=6)


def camera(seed=0):
    return SimCamera(SCENE, lambda: STATE, seed=seed)


def test_capture_gives_a_bgr_frame_and_its_truth():
    with camera() as cam:
        frame = cam.capture()
        assert frame.shape == (120, 160, 3) and frame.dtype == np.uint8
        assert frame.mean() > 20
        assert cam.resolution == (160, 120)
        assert cam.last_truth is not None and len(cam.last_truth["discs"]) == 6


def test_captures_are_deterministic_by_seed_but_not_identical():
    a, b = camera(seed=3), camera(seed=3)
    first = a.capture()
    assert np.array_equal(first, b.capture())
    assert not np.array_equal(first, a.capture())  # fresh sensor noise each capture


def test_a_failing_camera_raises_until_healed():
    cam = camera()
    cam.fail("raise")
    for _ in range(3):
        with pytest.raises(SimCameraError, match="capture"):
            cam.capture()
    cam.fail(None)
    assert cam.capture().shape == (120, 160, 3)


def test_a_fault_can_last_a_number_of_captures():
    cam = camera()
    cam.fail("black", times=2)
    assert not cam.capture().any() and not cam.capture().any()
    assert cam.last_truth is None
    assert cam.capture().any()
    cam.fail("raise", times=1)
    with pytest.raises(SimCameraError):
        cam.capture()
    assert cam.capture().any()


def test_black_frames_have_the_camera_shape():
    cam = camera()
    cam.fail("black")
    frame = cam.capture()
    assert frame.shape == (120, 160, 3) and frame.dtype == np.uint8 and frame.max() == 0


def test_camera_errors_belong_to_the_project_and_to_os_errors():
    cam = camera()
    cam.fail("raise")
    with pytest.raises(CrokiscoreError):
        cam.capture()
    with pytest.raises(OSError):
        cam.capture()


def test_close_is_idempotent_and_a_closed_camera_refuses():
    cam = camera()
    with cam:
        pass
    cam.close()
    with pytest.raises(SimCameraError, match="closed"):
        cam.capture()


def test_unknown_faults_are_refused():
    with pytest.raises(ValueError, match="unknown camera fault"):
        camera().fail("smoke")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="at least one"):
        camera().fail("black", times=0)
