"""The daemon's screen on the simulator's display: the scoreboard, or the operator's menu."""

import pytest

from device.core.menu import CLOSED, Menu
from device.core.status import Status
from device.hardware.display import DummyDisplay
from device.screen.draw import render
from device.screen.screen import OledScreen
from device.screen.view import build
from tests.builders import play_round, shoot, start
from tests.device.test_scoreboard_render import find, glyphs, lit


def press(state, match, *buttons):
    menu = Menu((("Ann", "Bob"),))
    for b in buttons:
        state, _ = menu.press(state, b, False, match, 0.0)
    return state


def test_the_scoreboard_reaches_the_display_as_rendered():
    m = shoot(start(), 3)
    with DummyDisplay() as panel:
        screen = OledScreen(panel)
        screen.show(m, Status(errors=("camera lost",)))
        expected = render(build(m, Status(errors=("camera lost",))))
        assert panel.image is not None
        assert lit(panel.image).tolist() == lit(expected).tolist()


@pytest.mark.parametrize(("buttons", "words"), [
    (("menu",), "New match"),
    (("menu", "menu"), "Correct round"),
    (("back",), "Undo last event?"),
    (("menu", "ok"), "tournament-singles"),
])
@pytest.mark.parametrize("width", [128, 256])
def test_the_open_menu_shows_its_choice_large(buttons, words, width):
    m = play_round(start(), [15], [10])
    state = press(CLOSED, m, *buttons)
    with DummyDisplay(width, 64, "1" if width == 128 else "L") as panel:
        OledScreen(panel).show(m, Status(menu=state))
        a = lit(panel.image)
    big, small = glyphs(words, sx=2, sy=2), glyphs(words)
    fits = big.shape[1] <= a.shape[1]
    assert (fits and find(a, big)) or find(a, small), f"{words!r} not on the screen"


def test_editing_totals_shows_both_sides_and_the_hint():
    m = play_round(start(), [15], [10])
    state = press(CLOSED, m, "menu", "menu", "ok", "menu")       # side 0: 15 + 5
    assert state.totals == (20, 10)
    with DummyDisplay() as panel:
        OledScreen(panel).show(m, Status(menu=state))
        a = lit(panel.image)
    from device.screen.glyphs import TINY
    assert find(a, glyphs("MENU:+5  BACK:-5  OK:NEXT", TINY))
