"""Golden pictures of what a player checks: the annotated reading and the calibration's check
picture, drawn from fixed values (no detection in the way).

Drawing is without anti-aliasing, in OpenCV's stroke fonts, so it is the same wherever it runs;
the comparison still allows a handful of pixels to differ (a different OpenCV may round a line's
end a pixel apart). To accept a meant change, regenerate and look at the pictures:

    CROKISCORE_UPDATE_GOLDEN=1 .venv/bin/pytest tests/vision/test_annotate.py
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from rules.board import STANDARD
from vision import annotate, to_discs
from vision.calibration import Calibration, check_picture
from vision.projection import looking_down
from vision.reading import DiscReading, Reading
from vision.seats import turned

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("CROKISCORE_UPDATE_GOLDEN") == "1"
CAMERA = turned(looking_down(640, 480, 520.0, (322.0, 238.0), 0.58), 4.0)


def _frame() -> np.ndarray:
    """A plain stand-in for a frame: a lit wooden disc of a board on a dark ground."""
    img = np.full((480, 640, 3), (40, 45, 50), np.uint8)
    a = np.linspace(0, 2 * np.pi, 181)
    ring = np.stack([np.cos(a), np.sin(a)], -1)
    for r, colour in ((380.0, (30, 40, 60)), (330.0, (100, 150, 200))):
        pts = np.round(CAMERA.project_plane(ring * r, 0.0)).astype(np.int32)
        cv2.fillPoly(img, [pts], colour, cv2.LINE_8)
    return img


def _disc(x, y, team, zone, uncertain=False, ditch=False):
    pix = CAMERA.project(np.array([x, y, 9.5]))
    edge = CAMERA.project(np.array([x + 16.0, y, 9.5]))
    return DiscReading(x, y, team, zone, uncertain, 3.0, 0.2, (float(pix[0]), float(pix[1])),
                       float(np.hypot(*(edge - pix))), ditch, True,
                       (40, 35, 30) if team == 0 else (230, 210, 170))


READING = Reading(
    (_disc(30.0, -40.0, 1, 15), _disc(-120.0, 60.0, 0, 10), _disc(150.0, 150.0, 1, 5),
     _disc(0.0, 185.0, 0, 10, uncertain=True), _disc(-240.0, -250.0, 0, 0, ditch=True)),
    ((40, 35, 30), (230, 210, 170)), CAMERA, STANDARD, True, "bottom")


def _compare(got: np.ndarray, name: str, tmp_path: Path) -> None:
    path = GOLDEN / name
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        cv2.imwrite(str(path), got)
    assert path.exists(), f"no golden picture {name}; make it with CROKISCORE_UPDATE_GOLDEN=1"
    want = cv2.imread(str(path))
    assert want.shape == got.shape
    differ = (np.abs(want.astype(int) - got.astype(int)).max(axis=2) > 40).sum()
    if differ > 0.002 * got.shape[0] * got.shape[1]:
        cv2.imwrite(str(tmp_path / name), got)
        pytest.fail(f"{name}: {differ} pixels differ from the golden picture (this run's is "
                    f"{tmp_path / name}); if the change is meant, regenerate with "
                    "CROKISCORE_UPDATE_GOLDEN=1 and look at it")


def test_the_annotated_reading_matches_its_golden_picture(tmp_path):
    got = annotate(_frame(), READING)
    assert READING.totals == (20, 20)
    _compare(got, "annotated-reading.png", tmp_path)


def test_a_board_in_doubt_shows_why(tmp_path):
    """A board read but not to be trusted as a whole: the board is to be checked (every disc
    ringed), and the picture says why in words."""
    doubt = replace(READING, doubts=("only 93% of the playing surface is in the picture",))
    got = annotate(_frame(), doubt)
    assert doubt.to_rules().check == doubt.doubts
    assert doubt.to_rules().discs == to_discs(READING)  # the discs keep their own doubts
    _compare(got, "annotated-doubt.png", tmp_path)


def test_the_check_picture_matches_its_golden_picture(tmp_path):
    cal = Calibration(CAMERA, STANDARD, "bottom", 0.03, 0.07, 1100, "quadrant lines", "x")
    _compare(check_picture(_frame(), cal), "check-picture.png", tmp_path)


def test_the_annotation_marks_what_a_player_needs():
    """Independently of the golden: the unsure disc is ringed amber, the others in their
    side's colour, and the frame around them is left as it was (dimmed)."""
    from vision.annotate import CHECK

    got = annotate(_frame(), READING)
    a = np.linspace(0, 2 * np.pi, 24, endpoint=False)
    unsure = READING.discs[3]
    ring = np.stack([unsure.x_mm + 21 * np.cos(a), unsure.y_mm + 21 * np.sin(a)], -1)
    uv = np.round(CAMERA.project_plane(ring, 9.5)).astype(int)
    assert (np.all(got[uv[:, 1], uv[:, 0]] == CHECK, axis=1)).mean() > 0.7
    corner = got[470, 630].astype(int)
    assert np.all(np.abs(corner - np.array([40, 45, 50]) * 0.8) <= 1)
