from PIL import Image

from device.screen.draw import render
from device.screen.terminal import BLOCKS, to_text
from device.screen.text import as_text
from device.screen.view import build
from tests.device import scenes


def _back(text: str, width: int) -> list[list[bool]]:
    """Pixels read back from half-block text (without its border)."""
    rows = []
    for line in text.splitlines():
        top = [BLOCKS.index(c) & 1 == 1 for c in line]
        bottom = [BLOCKS.index(c) & 2 == 2 for c in line]
        assert len(top) == width
        rows += [top, bottom]
    return rows


def test_each_character_is_two_pixel_rows_exactly():
    f = render(build(scenes.singles_mid()))
    text = to_text(f, border=False)
    assert len(text.splitlines()) == 32
    px = f.convert("L").tobytes()
    want = [[px[y * 128 + x] >= 100 for x in range(128)] for y in range(64)]
    assert _back(text, 128) == want


def test_the_border_boxes_the_panel():
    lines = to_text(render(build(scenes.darts_turn()[0]), 256, 64, "L")).splitlines()
    assert len(lines) == 34 and {len(line) for line in lines} == {258}
    assert lines[0] == "┌" + "─" * 256 + "┐" and lines[-1].startswith("└")


def test_faint_marks_are_dark_and_odd_heights_are_padded():
    img = Image.new("L", (128, 65), 68)
    img.putpixel((0, 64), 255)
    lines = to_text(img, border=False).splitlines()
    assert len(lines) == 33 and set(lines[0]) == {" "} and lines[-1][0] == "▀"


def test_braille_keeps_every_pixel_in_a_quarter_of_the_columns():
    from PIL import Image

    from device.screen.terminal import fitting, to_braille
    img = Image.new("1", (128, 64), 0)
    img.putpixel((0, 0), 1)          # dot 1 of the first cell
    img.putpixel((127, 63), 1)       # dot 8 of the last cell
    text = to_braille(img, border=False).splitlines()
    assert len(text) == 16 and all(len(line) == 64 for line in text)
    assert text[0][0] == chr(0x2801) and text[-1][-1] == chr(0x2880)
    assert sum(ch != chr(0x2800) for line in text for ch in line) == 2
    assert fitting(img, 80).splitlines()[1].startswith("│" + chr(0x2801))
    assert len(fitting(img, 200).splitlines()) == 34          # half blocks, boxed


def test_a_reading_held_for_a_disc_says_so_in_words():
    """A reading held for one disc's doubt (its zone or side) carries no reason for the board
    as a whole: the scoreboard says the camera is unsure of a disc, in a tournament and in
    crokidarts alike."""
    for m, _ in (scenes.singles_check(), scenes.darts_check()):
        assert m.summary().check == ()
        assert as_text(m).splitlines()[-1] == (
            "  CHECK: the camera is not sure of a disc; confirm or correct")
