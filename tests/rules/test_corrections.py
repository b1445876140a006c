from dataclasses import replace

import pytest

from rules import (
    Confirm,
    Correction,
    Disc,
    EventError,
    IllegalEvent,
    NotAwaited,
    NothingToUndo,
    Shot,
    Twenty,
    Undo,
)
from rules.events import Foul
from tests.builders import board, dart, play_round, shoot, start


def test_undo_returns_exactly_the_previous_state_and_keeps_going_back():
    m0 = start("tournament-singles")
    m1 = m0.apply(Shot(0))
    m2 = m1.apply(Twenty())
    assert m2.apply(Undo()) is m1
    assert m2.apply(Undo()).apply(Undo()) is m0
    with pytest.raises(NothingToUndo):
        m0.apply(Undo())


def test_undo_takes_back_a_correction_and_a_foul():
    m = play_round(start("casual-100"), [15], [5], twenties={0: [None]})
    corrected = m.apply(Correction(totals=(35, 10)))
    assert corrected.summary().to_json()["score"] == [25, 0]
    assert corrected.apply(Undo()).summary().to_json()["score"] == [30, 0]
    fouled = m.apply(Foul())
    assert fouled.apply(Undo()) is m


def test_an_uncertain_disc_holds_the_match_until_confirmed():
    m = shoot(start("tournament-singles"))
    m = m.apply(board((0, 15, True), (1, 10)))
    assert m.expect().what == "confirm"
    with pytest.raises(NotAwaited, match="confirm or correct"):
        m.apply(Shot(1))
    m = m.apply(Confirm())
    assert m.expect().what == "shot"
    assert m.summary().to_json()["rounds"][0]["totals"] == [15, 10]
    with pytest.raises(NotAwaited, match="nothing to confirm"):
        m.apply(Confirm())


@pytest.mark.parametrize("rules", ["tournament-singles", "crokidarts"])
def test_a_board_in_doubt_as_a_whole_holds_the_match_with_no_disc_flagged(rules):
    """Part of the board out of view: the players look over the board, not at each disc."""
    m = shoot(start(rules))
    read = board((0, 15))
    m = m.apply(replace(read, check=("only 93% of the playing surface is in the picture",)))
    assert m.expect().what == "confirm"
    with pytest.raises(NotAwaited, match="confirm or correct"):
        m.apply(Shot(1))
    assert m.apply(Confirm()).expect().what == "shot"
    assert shoot(start(rules)).apply(read).expect().what == "shot"  # the same board, in view


def test_a_correction_by_totals_replaces_the_board_value_and_keeps_the_twenties():
    m = play_round(start("tournament-singles"), [15], [10], twenties={1: [None]})  # 15 - 30
    m = m.apply(Correction(totals=(15, 35)))
    r = m.summary().to_json()["rounds"][0]
    assert r["totals"] == [15, 35] and r["board"] == [15, 15] and r["corrected"]
    with pytest.raises(IllegalEvent, match="cannot be made with its 1 20"):
        m.apply(Correction(totals=(15, 10)))
    with pytest.raises(IllegalEvent, match="worth 5, 10 or 15"):
        m.apply(Correction(totals=(17, 35)))


def test_a_correction_by_discs_replaces_the_reading_and_clears_a_check():
    m = shoot(start("tournament-singles")).apply(board((0, 15, True)))
    m = m.apply(Correction(discs=(Disc(0, 10),)))
    assert m.expect().what == "shot"
    assert m.summary().to_json()["rounds"][0]["totals"] == [10, 0]


def test_an_earlier_round_can_be_corrected_and_the_score_follows():
    m = start("tournament-singles")
    m = play_round(m, [15], [10])                 # Ann 2-0
    m = play_round(m, [5], [10])                  # Bob 2-2
    m = shoot(m, 3)                               # round 3 under way
    m = m.apply(Correction(totals=(5, 10), round=1))
    assert m.summary().to_json()["score"] == [0, 4]
    assert m.expect().what == "shot"              # play goes on where it was
    with pytest.raises(IllegalEvent, match="cannot correct round 3: it has not been read"):
        m.apply(Correction(totals=(0, 0), round=3))


def test_a_correction_that_would_have_ended_the_match_earlier_is_refused():
    m = start("casual-100")
    m = play_round(m, [15] * 6, [])                # 90
    m = play_round(m, [], [5])                     # Bob 5
    with pytest.raises(IllegalEvent, match="ended the match after round 1"):
        m.apply(Correction(totals=(100, 0), round=1))


def test_correcting_the_last_round_can_decide_or_reopen_the_match():
    m = play_round(start("casual-100"), [15] * 6, [])   # 90
    assert not m.finished
    won = m.apply(Correction(totals=(100, 0)))
    assert won.finished and won.winner == 0
    reopened = won.apply(Correction(totals=(95, 0)))
    assert not reopened.finished


def test_a_foul_after_the_reading_rescores_the_round():
    m = play_round(start("tournament-singles"), [], [5], twenties={15: [None]})   # Bob's last: 20
    assert m.summary().to_json()["rounds"][0]["totals"] == [0, 25]
    m = m.apply(Foul())
    assert m.summary().to_json()["rounds"][0]["totals"] == [0, 5]
    with pytest.raises(IllegalEvent, match="already marked foul"):
        m.apply(Foul())


def test_corrections_name_the_right_field_per_game():
    m = play_round(start("casual-100"))
    with pytest.raises(EventError, match="'value' is for crokidarts"):
        m.apply(Correction(value=10))
    d = dart(start("crokidarts"), 10)
    with pytest.raises(EventError, match="give 'value'"):
        d.apply(Correction(totals=(10, 0)))
    d = d.apply(Correction(value=15))
    assert d.summary().to_json()["turn"]["value"] == 15
    with pytest.raises(NotAwaited, match="nothing to correct"):
        start("tournament-singles").apply(Correction(totals=(0, 0)))


def test_while_the_board_is_awaited_the_operators_count_stands_in_for_the_camera():
    m = shoot(start("tournament-singles"), twenties={3: [None]})    # Bob has a 20
    assert m.expect().what == "board"
    m = m.apply(Correction(totals=(30, 35)))
    r = m.summary().to_json()["rounds"][0]
    assert (r["totals"], r["board"], r["corrected"]) == ([30, 35], [30, 15], True)
    assert m.expect().what == "shot"
    d = start("crokidarts").apply(Shot(0))
    d = d.apply(Correction(value=10))
    assert d.summary().to_json()["turn"]["value"] == 10 and d.expect().what == "shot"
