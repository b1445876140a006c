import pytest

from device.core.menu import CLOSED, IDLE_TIMEOUT_S, ITEMS, Menu
from rules import Confirm, Correction, NewMatch, Shot, Starter, Twenty, Undo
from tests.builders import board, dart, play_round, shoot, start

SETS = (("Ann", "Bob"), ("Home", "Away"), ("Ann", "Bob", "Cat", "Dan"))


def presses(match, *buttons, state=CLOSED, menu=None):
    menu = menu or Menu(SETS)
    actions = []
    for b in buttons:
        held = b.endswith("!")
        state, action = menu.press(state, b.rstrip("!"), held, match, 0.0)
        if action is not None:
            actions.append(action)
    return state, actions


def test_ok_on_the_scoreboard_confirms_a_check_or_reads_the_board_now():
    m = shoot(start()).apply(board((0, 15, True)))
    _, [a] = presses(m, "ok")
    assert a.event == Confirm()
    _, [a] = presses(shoot(start()), "ok")
    assert a.read_now
    state, actions = presses(play_round(start(), [15]), "ok")
    assert state.screen == "breakdown" and actions == []


def test_undo_asks_first():
    m = shoot(start(), 1)
    state, actions = presses(m, "back")
    assert state.title() == "Undo last event?" and actions == []
    _, [a] = presses(m, "back", "ok")
    assert a.event == Undo()
    state, actions = presses(m, "back", "back")
    assert state == CLOSED and actions == []


def test_a_new_match_is_picked_rule_set_then_names():
    m = start()
    state, _ = presses(m, "menu", "ok")
    assert state.title() == "tournament-singles"
    state, _ = presses(m, "menu", "ok", "menu")                 # the next rule set
    assert state.title() == "tournament-doubles"
    state, _ = presses(m, "menu", "ok", "menu", "ok")           # only 4-name sets offered
    assert state.players == ("Ann", "Bob", "Cat", "Dan")
    _, [a] = presses(m, "menu", "ok", "menu", "ok", "ok", "ok")
    assert a.event == NewMatch("tournament-doubles", ("Ann", "Bob", "Cat", "Dan"))
    # and the event starts a match
    from rules import Match
    assert Match.start(a.event).rules.seats == 4


def test_correcting_a_round_edits_each_sides_total_in_fives():
    m = play_round(start(), [15], [10])                           # 15 - 10
    correct = ITEMS.index("Correct round")
    buttons = ["menu"] * (correct + 1) + ["ok", "menu", "menu", "ok", "back", "ok"]
    _, [a] = presses(m, *buttons)
    assert a.event == Correction(totals=(25, 5))
    assert m.apply(a.event).summary().to_json()["rounds"][0]["totals"] == [25, 5]


def test_crokidarts_corrects_the_turns_value():
    m = dart(start("crokidarts"), 10)
    correct = ITEMS.index("Correct round")
    _, [a] = presses(m, *(["menu"] * (correct + 1)), "ok", "menu", "ok")
    assert a.event == Correction(value=15)
    assert m.apply(a.event).summary().to_json()["turn"]["value"] == 15


def test_who_starts_names_a_seat():
    m = start("tournament-doubles")
    item = ITEMS.index("Who starts")
    _, [a] = presses(m, *(["menu"] * (item + 1)), "ok", "menu", "menu", "ok")
    assert a.event == Starter(2)
    assert m.apply(a.event).expect().seat == 2


def test_with_two_buttons_a_hold_goes_back():
    state, _ = presses(start(), "menu", "ok!")
    assert state == CLOSED


@pytest.mark.parametrize("item", ITEMS)
def test_every_item_can_be_left(item):
    m = start()
    state, _ = presses(m, *(["menu"] * (ITEMS.index(item) + 1)))
    assert state.title() == item
    backs = 0
    while state.open and backs < 6:
        state, action = Menu(SETS).press(state, "back", False, m, 0.0)
        assert action is None
        backs += 1
    assert state == CLOSED and backs <= 2


def test_an_open_menu_closes_by_itself():
    menu = Menu(SETS)
    state, _ = menu.press(CLOSED, "menu", False, start(), 100.0)
    assert menu.tick(state, 100.0 + IDLE_TIMEOUT_S / 2).open
    assert menu.tick(state, 100.0 + IDLE_TIMEOUT_S + 1) == CLOSED


def test_a_missed_shot_is_added_for_whoever_is_due():
    m = shoot(start(), 3)                                       # Bob is due
    item = ITEMS.index("Missed shot")
    _, [a] = presses(m, *(["menu"] * (item + 1)), "ok")
    assert a.event == Shot(1)
    assert m.apply(a.event).expect().seat == 0


def test_a_twenty_credited_to_the_shooter_can_go_to_the_other_side():
    m = shoot(start(), 2).apply(Twenty())                     # Bob shot; the beam credits Bob
    item = ITEMS.index("20 was theirs")
    _, [a] = presses(m, *(["menu"] * (item + 1)), "ok")
    assert a.events == (Undo(), Twenty(0))
    m = m.apply(a.events[0]).apply(a.events[1])
    assert m.summary().to_json()["rounds"][0]["twenties"] == [1, 0]
    _, actions = presses(shoot(start(), 2), *(["menu"] * (item + 1)), "ok")
    assert actions == []                                     # the latest event is not a 20
