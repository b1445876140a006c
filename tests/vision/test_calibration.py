"""The fixed rig's calibration: made from an empty board, written, read back the same, refused
when damaged; seat 0 where the installer says."""

import json
import math

import numpy as np
import pytest

from tests.vision.conftest import seat0_of
from vision import CalibrationError, calibrate, load_calibration, read_board, save_calibration
from vision.calibration import check_picture
from vision.projection import CameraModel


def test_the_calibration_puts_the_board_where_the_truth_has_it(rigs):
    """Points of the board (on the surface and at a disc's top face) land within a fifth of a
    mm of where the true camera sees them, once seat 0 is placed as told."""
    for rig in rigs["play"]:
        true = CameraModel.from_json(rig.empty_truth["camera"])
        a = np.radians(np.arange(0, 360, 10))
        for z in (0.0, 9.5):
            for r in (50.0, 200.0, 300.0):
                xy = np.stack([r * np.cos(a), r * np.sin(a)], -1)
                back = rig.calibration.camera.to_board(true.project_plane(xy, z), z)
                assert np.hypot(*(back - xy).T).max() < 0.6, (z, r)
                # the distance from the centre is what zones depend on: held closer still
                assert np.abs(np.hypot(*back.T) - r).max() < 0.25, (z, r)


def test_a_calibration_round_trips_through_its_file(rigs, tmp_path):
    cal = rigs["layouts"][0].calibration
    path = tmp_path / "rig.json"
    save_calibration(cal, path)
    data = json.loads(path.read_text())
    assert data["format"] == "crokiscore-calibration" and data["version"] == 2
    assert data["seat0"] == cal.seat0
    assert (tmp_path / data["empty"]["image"]).is_file()  # the empty board's look, beside it
    back = load_calibration(path)
    assert back.camera == cal.camera
    assert back.board == cal.board
    assert np.array_equal(back.reference, cal.reference)
    assert (back.seat0, back.turn_from, back.points) == (cal.seat0, cal.turn_from, cal.points)
    assert back.turns_seen == cal.turns_seen and cal.turns_seen
    frame = rigs["layouts"][0].frames[0][0]
    assert read_board(frame, back).to_json() == read_board(frame, cal).to_json()


@pytest.mark.parametrize(("found", "seen", "since"), [
    (("pegs", 21.99), (("pegs", 22.04),), -0.05),  # the pegs as the empty board showed them
    (("pegs", -22.0), (("pegs", 22.04),), 0.96),  # an eighth turn round: the same place
    (("pegs", 3.0), (("quadrant lines", 22.0),), 3.0),  # another cue: taken as found
    (("quadrant lines", 40.0), (("quadrant lines", -45.0), ("pegs", 1.0)), -5.0),
])
def test_a_turn_is_taken_from_the_empty_boards(found, seen, since):
    from rules.board import STANDARD
    from vision.seats import Turn
    from vision.seats import since as turn_since

    got = turn_since(Turn(found[1], found[0], 9.0), seen, STANDARD)
    assert got.source == found[0] and got.degrees == pytest.approx(since, abs=1e-6)


@pytest.mark.parametrize("seat0, angle", [("bottom", 90), ("right", 0), ("top", -90),
                                          ("left", 180)])
def test_seat0_sits_where_told(rigs, seat0, angle):
    from vision.seats import seat_side

    rig = rigs["play"][1]
    cal = calibrate(rig.empty, seat0=seat0)
    side = seat_side(cal.camera, cal.board)
    assert abs((side - angle + 180) % 360 - 180) < 20
    if seat0 == seat0_of(rig.empty_truth["camera"]):  # as the installer would say: the truth
        true = CameraModel.from_json(rig.empty_truth["camera"])
        p = true.project_plane(np.array([[0.0, -300.0]]), 0.0)
        assert math.dist(cal.camera.to_board(p, 0.0)[0], (0.0, -300.0)) < 3.0


def test_the_check_picture_shows_the_rings_on_the_lines(rigs):
    rig = rigs["play"][0]
    out = check_picture(rig.empty, rig.calibration)
    assert out.shape == rig.empty.shape
    cam = rig.calibration.camera
    # the outer line's drawn circle is magenta where the board's line is
    a = np.radians(np.arange(5, 360, 20))
    uv = np.round(cam.project_plane(np.stack([304.8 * np.cos(a), 304.8 * np.sin(a)], -1), 0.0))
    pix = out[uv[:, 1].astype(int), uv[:, 0].astype(int)]
    assert (np.all(pix == (255, 0, 255), axis=1)).mean() > 0.8


@pytest.mark.parametrize("text, words", [
    ("not json", "not valid JSON"),
    ('{"format": "something else"}', "not a crokiscore calibration"),
    ('{"format": "crokiscore-calibration", "version": 9}', "version 9"),
    ('{"format": "crokiscore-calibration", "version": 1, "camera": {"width": 5}}', "damaged"),
    ('{"format": "crokiscore-calibration", "version": 1, "seat0": "north", "camera": '
     '{"width": 4, "height": 4, "matrix": [[1,0,0],[0,1,0],[0,0,1]], "distortion": [0,0,0,0], '
     '"rvec": [0,0,0], "tvec": [0,0,1]}}', "seat0 must be one of"),
    ('{"format": "crokiscore-calibration", "version": 2, "camera": '
     '{"width": 4, "height": 4, "matrix": [[1,0,0],[0,1,0],[0,0,1]], "distortion": [0,0,0,0], '
     '"rvec": [0,0,0], "tvec": [0,0,1]}, "fit": {"turns_seen": {"numerals": 3}}}',
     "turns_seen must map"),
    ('{"format": "crokiscore-calibration", "version": 2, "camera": '
     '{"width": 4, "height": 4, "matrix": [[1,0,0],[0,1,0],[0,0,1]], "distortion": [0,0,0,0], '
     '"rvec": [0,0,0], "tvec": [0,0,1]}, "fit": 5}', "damaged"),
])
def test_a_damaged_calibration_is_refused_in_words(tmp_path, text, words):
    path = tmp_path / "cal.json"
    path.write_text(text)
    with pytest.raises(CalibrationError, match=words):
        load_calibration(path)


def test_a_missing_calibration_says_how_to_make_one(tmp_path):
    with pytest.raises(CalibrationError, match="crokiscore calibrate"):
        load_calibration(tmp_path / "none.json")


def test_an_unknown_seat_is_refused(rigs):
    with pytest.raises(ValueError, match="bottom, right, top, left"):
        calibrate(rigs["play"][0].empty, seat0="north")
