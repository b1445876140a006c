"""What the scoreboard must show, measured on the frames themselves (independently of the golden
pictures): big scores, CHECK and trouble in words, the same bytes every time."""

import random

import numpy as np
import pytest
from PIL import Image, ImageDraw

from device.screen.draw import render
from device.screen.glyphs import SMALL, TINY, Face, draw_text, fit_text, text_width
from device.screen.view import Status, build
from hw_sim.scripted import play
from rules import PRESETS, fold
from tests.device import scenes


def lit(image: Image.Image) -> np.ndarray:
    return np.asarray(image.convert("L")) >= 100


def glyphs(s: str, face: Face = SMALL, sx: int = 1, sy: int = 1) -> np.ndarray:
    """``s`` drawn alone, cropped to its ink: the pattern to look for in a frame."""
    img = Image.new("1", (text_width(s, face, sx) + 2, 10 * sy), 0)
    draw_text(ImageDraw.Draw(img), (0, 0), s, 1, face, sx, sy)
    a = lit(img)
    rows, cols = np.nonzero(a)
    return a[rows.min():rows.max() + 1, cols.min():cols.max() + 1]


def find(frame: np.ndarray, pattern: np.ndarray, inverted: bool = False) -> list[tuple[int, int]]:
    """Every (x, y) where ``pattern`` appears in ``frame`` exactly (dark on light if
    ``inverted``), with the rest of its box clear."""
    f = ~frame if inverted else frame
    ph, pw = pattern.shape
    windows = np.lib.stride_tricks.sliding_window_view(f, (ph, pw))
    hits = np.all(windows == pattern, axis=(2, 3))
    ys, xs = np.nonzero(hits)
    return list(zip(xs.tolist(), ys.tolist(), strict=True))


def ink_box(a: np.ndarray) -> tuple[int, int, int, int]:
    rows, cols = np.nonzero(a)
    return cols.min(), rows.min(), cols.max(), rows.max()


NORMAL = [s for s in scenes.SCENES if s.name.split("-")[-1] in ("start", "mid", "turn", "board",
                                                                   "legs", "over", "doubles")]


@pytest.mark.parametrize("scene", NORMAL, ids=lambda s: s.name)
def test_both_scores_are_big(scene):
    """Each side's digits stand at least 60% of the panel's height and fill a good part of its
    half of the score area (they must read from the players' chairs)."""
    v = scene.view()
    a = lit(render(v, scene.width, scene.height, scene.mode))
    x0 = 64 if scene.width == 256 else 0
    for side in (0, 1):
        left = x0 + side * 64
        area = a[10:54, left + 1:left + 63]  # between the name line and the line under
        area = area.copy()
        x_1, y_1, x_2, y_2 = ink_box(area)
        assert y_2 - y_1 + 1 >= 0.6 * scene.height, (scene.name, side, y_1, y_2)
        assert x_2 - x_1 + 1 >= 14, (scene.name, side)


def test_score_digits_grow_with_room():
    m = scenes.singles_mid()
    narrow = lit(render(build(m)))
    three = lit(render(build(scenes.darts_turn()[0])))
    w_one = ink_box(narrow[10:54, 1:63])
    w_three = ink_box(three[10:54, 1:63])
    # one figure is drawn wider than each of three, but never taller than the panel allows
    assert (w_one[2] - w_one[0]) < (w_three[2] - w_three[0])
    assert w_one[3] - w_one[1] == w_three[3] - w_three[1] == 41


@pytest.mark.parametrize("width,mode", [(128, "1"), (256, "L")])
def test_check_is_unmistakable(width, mode):
    m, _ = scenes.singles_check()
    a = lit(render(build(m), width, 64, mode))
    hits = find(a, glyphs("CHECK", SMALL, 3, 3), inverted=True)
    assert len(hits) == 1
    x, y = hits[0]
    assert y < 10 and abs(x + glyphs("CHECK", SMALL, 3, 3).shape[1] // 2 - width // 2) <= 2
    # the lit block behind it takes the top of the screen
    assert a[:27].mean() > 0.6
    # and the reading to check is there: 25 : 25
    assert find(a, glyphs("25 : 25", SMALL, 2, 2))


@pytest.mark.parametrize("words", ["camera lost", "sensor bar unplugged", "display retry"])
def test_errors_are_shown_in_words(words):
    v = build(scenes.singles_mid(), Status(errors=(words,)))
    a = lit(render(v))
    text = "! " + words.upper()
    face = SMALL if text_width(text) <= 124 else TINY
    hits = find(a[52:], glyphs(text, face), inverted=True)
    assert hits, f"{text!r} is not on the line under the scores"
    # the scores stay on screen: the box keeps scoring what it can
    assert ink_box(a[10:54, 1:63])[3] >= 40


def test_several_errors_show_the_first_and_how_many_more():
    v = build(scenes.singles_mid(), Status(errors=("camera lost", "display retry", "x")))
    a = lit(render(v))
    assert find(a[52:], glyphs("! CAMERA LOST"), inverted=True)
    assert find(a[52:], glyphs("+2"), inverted=True)


def test_errors_stay_visible_during_check():
    m, _ = scenes.singles_check()
    a = lit(render(build(m, Status(errors=("camera lost",)))))
    assert find(a, glyphs("CHECK", SMALL, 3, 3), inverted=True)
    assert find(a[52:], glyphs("! CAMERA LOST"), inverted=True)


def test_a_twenty_flashes_the_whole_panel():
    m = scenes.singles_mid()
    plain = lit(render(build(m)))
    flash = lit(render(build(m, Status(twenty=1))))
    assert plain.mean() < 0.4 < 0.6 < flash.mean()  # the panel lights up
    assert find(flash, glyphs("Bob"), inverted=True)  # for Bob's side
    # a huge dark 20: its ink is at least two thirds of the height
    _, y0, _, y1 = ink_box(~flash[:50])
    assert y1 - y0 + 1 >= 42


def test_the_side_to_shoot_is_lit_and_named():
    m = scenes.singles_mid()  # Ann's shot
    a = lit(render(build(m)))
    assert a[0:9, 0:63].mean() > 0.6 > a[0:9, 65:128].mean()
    assert find(a[0:10, 0:63], glyphs("Ann"), inverted=True)
    assert find(a[52:], glyphs("Ann 6 left"))


def test_checkout_stands_out():
    m, _ = scenes.darts_checkout()
    a = lit(render(build(m)))
    assert find(a[52:], glyphs("CHECKOUT"), inverted=True)


def test_board_awaited_says_reading():
    m, _ = scenes.singles_board()
    assert find(lit(render(build(m)))[52:], glyphs("READING"))


def test_rendering_is_deterministic_and_pure():
    v = build(scenes.darts_turn()[0], Status(message="undone"))
    a = render(v, 256, 64, "L").tobytes()
    render(build(scenes.singles_mid()), 256, 64, "L")
    assert render(v, 256, 64, "L").tobytes() == a


def test_greyscale_uses_only_the_panels_sixteen_levels():
    for scene in scenes.SCENES:
        if scene.mode == "L":
            levels = set(render(scene.view(), scene.width, scene.height, "L").tobytes())
            assert levels <= {17 * k for k in range(16)}, scene.name


def test_bigger_panels_centre_the_layout_and_small_ones_are_refused():
    v = build(scenes.singles_mid())
    big = render(v, 160, 80)
    assert big.size == (160, 80)
    assert big.crop((16, 8, 144, 72)).tobytes() == render(v).tobytes()
    with pytest.raises(ValueError, match="at least 128x64"):
        render(v, 128, 32)
    with pytest.raises(ValueError, match="mode"):
        render(v, mode="RGB")


def test_names_outside_the_fonts_still_draw():
    m = scenes.start("casual-100", ["Zoë", "李小龍"])
    a = lit(render(build(m)))
    assert find(a[0:10], glyphs("Zoë"), inverted=True)  # CP437 has ë
    assert SMALL.glyphs("李小龍") == "???" and TINY.glyphs("Zoë") == "Zoe"
    assert fit_text("Bartholomew", 30) .endswith(".")
    assert text_width(fit_text("Bartholomew", 30)) <= 30


@pytest.mark.parametrize("rules", sorted(PRESETS))
def test_every_moment_of_a_whole_match_renders(rules):
    """Every state of a seeded scripted match, narrow and wide, with the trouble and the
    moments mixed in: nothing raises and nothing spills out of the panel."""
    rng = random.Random(9)
    short = {"legs": 2, "sets": 2} if rules == "crokidarts" else None
    events = list(play(rules, rng, options=short,
                       players=("Maximilian", "Bo", "Christabel", "Di")[:PRESETS[rules].seats]))
    m = fold(events[:1])
    for i, ev in enumerate(events[1:]):
        m = m.apply(ev)
        if i % 3:
            continue
        status = Status(twenty=rng.choice((None, None, 0, 1)),
                        errors=rng.choice(((), ("camera lost",))))
        v = build(m, status)
        for width, mode in ((128, "1"), (256, "L")):
            assert render(v, width, 64, mode).size == (width, 64)


@pytest.mark.parametrize("face", [SMALL, TINY], ids=["small", "tiny"])
def test_a_name_of_a_hundred_thousand_letters_is_cut_at_once(monkeypatch, face):
    """A log or a config may name a player with any text: cutting it a letter at a time
    measured the whole rest each time: one OLED frame took some twenty minutes."""
    from device.screen import glyphs as module

    expected = {room: fit_text("Wa" * 100, room, face) for room in (0, 1, 9, 60, 250)}
    measured = [0]

    def counting(s, f=SMALL, sx=1):
        measured[0] += len(s)
        assert measured[0] < 2_000_000, "the name is measured a letter at a time"
        return text_width(s, f, sx)

    monkeypatch.setattr(module, "text_width", counting)
    for room, cut in expected.items():
        assert module.fit_text("Wa" * 50_000, room, face) == cut
