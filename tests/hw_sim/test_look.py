import random

import cv2
import numpy as np
import pytest

from hw_sim.look import DISC_SETS, BoardLook, DiscSet, board_picture, luma, numerals
from rules.board import STANDARD as B


def glyph(text, rotate=None, flip=None):
    (tw, th), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, 2.0, 6)
    img = np.zeros((th + base + 12, tw + 12), np.uint8)
    cv2.putText(img, text, (6, 6 + th), cv2.FONT_HERSHEY_DUPLEX, 2.0, 255, 6, cv2.LINE_AA)
    if rotate is not None:
        img = cv2.rotate(img, rotate)
    if flip is not None:
        img = cv2.flip(img, flip)
    return img.astype(np.float32)


@pytest.mark.parametrize("face_centre", [True, False])
def test_numerals_are_printed_where_and_which_way_up_the_board_says(face_centre):
    """The 10 in front of seat 0 (bottom, as seen from above) reads upright from that seat when
    the numerals face the centre, and upside down when they face outward; the texture is not
    mirrored."""
    look = BoardLook(numerals_face_centre=face_centre, grain=0.0, quadrant_lines=False,
                     line_rgb=(20, 20, 20), numeral_rgb=(20, 20, 20), surface="painted",
                     surface_rgb=(230, 230, 230))
    pic = board_picture(look, B, 2.0)
    ten = next(n for n in numerals(look, B) if n.text == "10" and n.y < 0)
    assert ten.x == pytest.approx(0.0, abs=1e-9) and ten.up_deg == (90.0 if face_centre else 270.0)
    col, row = pic.to_texture(np.array(ten.x), np.array(ten.y))
    half = int(ten.height_mm * pic.ppm * 1.2)
    r, c = int(row), int(col)
    ink = (255.0 - pic.atlas[r - half:r + half, c - 2 * half:c + 2 * half]).mean(axis=2)
    ink = ink.astype(np.float32)
    assert ink.max() > 150  # something is printed there
    scores = {}
    for name, kw in {"upright": {}, "upside down": {"rotate": cv2.ROTATE_180},
                     "mirrored": {"flip": 1}, "upside mirrored": {"flip": 0}}.items():
        g = glyph("10", **kw)
        s = ten.height_mm * pic.ppm / (g.shape[0] - 12 * 1.4)
        g = cv2.resize(g, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
        scores[name] = cv2.matchTemplate(ink, g, cv2.TM_CCOEFF_NORMED).max()
    best = max(scores, key=scores.get)
    assert best == ("upright" if face_centre else "upside down"), scores


def test_the_hole_and_lines_are_painted_at_their_radii():
    look = BoardLook(numerals=False, quadrant_lines=False, grain=0.0, surface="painted",
                     surface_rgb=(230, 230, 230), line_rgb=(20, 20, 20), hole_rgb=(10, 10, 10))
    pic = board_picture(look, B, 2.0)
    left = pic.atlas[:, : pic.size]

    def at(x, y):
        col, row = pic.to_texture(np.array(x), np.array(y))
        return luma(tuple(int(c) for c in left[round(float(row)), round(float(col))][::-1]))

    assert at(0, 0) < 30 and at(0, 10) < 30                  # the 20 hole
    for r in B.line_radii:
        for x, y in ((r, 0), (0, -r), (-r * 0.6, r * 0.8)):
            assert at(x, y) < 60                            # on the line
        assert at(r - 5, 0) > 200 and at(0, r + 5) > 200     # the surface either side


@pytest.mark.parametrize("seed", range(40))
def test_random_looks_keep_discs_and_lines_readable(seed):
    look = BoardLook.random(random.Random(seed))
    assert luma(look.discs.dark_rgb) < luma(look.discs.light_rgb)
    assert abs(luma(look.line_rgb) - luma(look.surface_rgb)) >= 60
    assert look == BoardLook.random(random.Random(seed))


def test_team_zero_must_be_the_darker_disc():
    with pytest.raises(ValueError, match="darker"):
        BoardLook(discs=DiscSet("backwards", DISC_SETS[0].light_rgb, DISC_SETS[0].dark_rgb, 0.1))
