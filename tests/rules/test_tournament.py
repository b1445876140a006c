import pytest

from rules import (
    Correction,
    Disc,
    IllegalEvent,
    MatchOver,
    NotAwaited,
    OutOfTurn,
    Shot,
    Twenty,
)
from tests.builders import board, play_round, shoot, start


def test_singles_players_alternate_eight_discs_each_from_the_starter():
    m = start("tournament-singles")
    seats = []
    for _ in range(16):
        exp = m.expect()
        seats.append(exp.seat)
        m = m.apply(Shot(exp.seat))
    assert seats == [0, 1] * 8
    assert m.expect().what == "board"
    assert m.summary().to_json()["discs_left"] == [0, 0]


def test_doubles_shoot_clockwise_six_each_and_the_start_rotates_clockwise():
    m = start("tournament-doubles")
    starters = []
    for _ in range(4):
        starters.append(m.expect().seat)
        order = []
        for _ in range(24):
            exp = m.expect()
            order.append(exp.seat)
            m = m.apply(Shot(exp.seat))
        assert order == [(starters[-1] + i) % 4 for i in range(24)]
        m = m.apply(board())
    assert starters == [0, 1, 2, 3]
    assert m.summary().to_json()["teams"] == ["Ann & Cat", "Bob & Dan"]


def test_round_points_two_for_the_higher_total_one_each_for_a_tie():
    m = start("tournament-singles")
    m = play_round(m, [15, 10], [5])          # 25 - 5
    assert m.summary().to_json()["rounds"][0]["points"] == [2, 0]
    m = play_round(m, [10], [5, 5])           # 10 - 10
    assert m.summary().to_json()["rounds"][1]["points"] == [1, 1]
    m = play_round(m, [], [15])               # 0 - 15
    assert m.summary().to_json()["score"] == [3, 3]


def test_after_four_rounds_the_side_with_more_round_points_wins():
    m = start("tournament-singles")
    for zones0, zones1 in [([15], []), ([15], []), ([], [5]), ([10], [5])]:
        assert not m.finished
        m = play_round(m, zones0, zones1)
    s = m.summary().to_json()
    assert s["finished"] and s["winner"] == 0 and s["score"] == [6, 2]
    with pytest.raises(MatchOver):
        m.apply(Shot(m.rules.seats - 1))


def test_equal_round_points_after_four_rounds_is_a_draw_unless_a_tiebreak_is_chosen():
    rounds = [([15], []), ([], [15]), ([15], []), ([], [15])]
    m = start("tournament-singles")
    for z0, z1 in rounds:
        m = play_round(m, z0, z1)
    assert m.finished and m.winner is None and m.summary().to_json()["score"] == [4, 4]

    m = start("tournament-singles", tiebreak="extra-round")
    for z0, z1 in rounds:
        m = play_round(m, z0, z1)
    assert not m.finished
    m = play_round(m, [5], [5])               # still level: another round
    assert not m.finished
    m = play_round(m, [], [10])
    assert m.finished and m.winner == 1 and m.summary().to_json()["round"] == 6


def test_a_twenty_goes_to_the_shooters_side_or_to_the_side_named():
    m = start("tournament-singles")
    # Ann shoots a 20 with her second disc; Bob's fourth shot sinks his disc and knocks Ann's first
    # one in as well.
    m = play_round(m, [], [], twenties={2: [None], 7: [None, 0]})
    r = m.summary().to_json()["rounds"][0]
    assert r["twenties"] == [2, 1]
    assert r["totals"] == [40, 20]


def test_a_foul_voids_the_shooters_twenties_but_not_an_opponents():
    m = start("tournament-singles")
    m = m.apply(Shot(0)).apply(Shot(1)).apply(Shot(0)).apply(Twenty())   # Ann: a 20
    m = m.apply(Shot(1)).apply(Twenty()).apply(Twenty(0))   # Bob: a 20, and Ann's disc knocked in
    m = m.apply(parse("foul"))                              # ... but Bob's shot was invalid
    m = play_round(m, [], [])
    assert m.summary().to_json()["rounds"][0]["twenties"] == [2, 0]
    assert m.summary().to_json()["rounds"][0]["fouls"] == 1


def parse(kind, **kw):
    from rules import parse_event
    return parse_event({"type": kind, **kw})


def test_a_shot_out_of_turn_is_refused_and_says_whose_turn_it_is():
    m = start("tournament-singles")
    with pytest.raises(OutOfTurn, match=r"Ann \(seat 0\)'s shot, not Bob \(seat 1\)'s"):
        m.apply(Shot(1))


def test_unknown_seats_are_refused():
    with pytest.raises(IllegalEvent, match="no seat 2"):
        start("tournament-singles").apply(Shot(2))


def test_a_shot_while_the_board_is_awaited_is_refused():
    m = shoot(start("tournament-singles"))
    with pytest.raises(NotAwaited, match="waiting to be read"):
        m.apply(Shot(0))


def test_the_board_is_not_read_before_the_last_disc():
    m = shoot(start("tournament-singles"), 3)
    with pytest.raises(NotAwaited, match="13 disc"):
        m.apply(board((0, 15)))


def test_impossible_counts_are_refused():
    m = shoot(start("tournament-singles"), 1)
    m = m.apply(Twenty())
    with pytest.raises(IllegalEvent, match="already has 1 20"):
        m.apply(Twenty())
    with pytest.raises(IllegalEvent, match="side 1 has shot 0"):
        m.apply(Twenty(1))
    m = shoot(m)
    with pytest.raises(IllegalEvent, match="correction gives 8 disc"):
        m.apply(Correction(discs=(Disc(0, 5),) * 8))


def test_a_reading_that_cannot_be_is_held_for_a_check_not_thrown_away():
    m = shoot(start("tournament-singles"), 1)
    m = shoot(m.apply(Twenty()))               # side 0: 8 shot, one of them a 20
    held = m.apply(board(*[(0, 5)] * 8))
    assert held.expect().what == "confirm"
    count = held.game.rounds.last.count
    assert count.discs_of(0) == 8 and count.check == (
        "the reading shows 8 scoring disc(s) of side 0 on the board and it has 1 20(s), but it "
        "shot only 8 in round 1: check the board",)
    # the summary, which the screens and the club page read, says why the round waits
    assert held.summary().check == count.check
    assert held.summary().to_json()["check"] == list(count.check)
    # discs scoring nothing (the ditch, where a third set lies) change no total: not counted
    taken = m.apply(board(*[(0, 5)] * 7, (0, 0), (0, 0), (1, 0)))
    assert taken.expect().what == "shot" and taken.summary().to_json()["rounds"][0]["totals"] == [
        55, 0]
    assert taken.summary().check == () and "check" not in taken.summary().to_json()


def test_twenties_need_a_shot_in_play():
    m = start("tournament-singles")
    with pytest.raises(NotAwaited, match="no shot is in play"):
        m.apply(Twenty())
    m = play_round(m)
    with pytest.raises(NotAwaited, match="no shot is in play"):
        m.apply(Twenty())


def test_a_refused_event_leaves_the_state_as_it_was():
    m = shoot(start("tournament-singles"), 5)
    before = m.summary()
    for bad in (Shot(0), board((0, 5)), parse("confirm")):
        with pytest.raises(IllegalEvent):
            m.apply(bad)
    assert m.summary() == before


def test_the_starter_can_be_drawn_by_lot_before_a_rounds_first_shot():
    m = start("tournament-singles").apply(parse("starter", seat=1))
    assert m.expect().seat == 1
    m = play_round(m)
    assert m.expect().seat == 0   # the start rotates from the actual starter
    m = m.apply(Shot(0))
    with pytest.raises(NotAwaited, match="before a round's first shot"):
        m.apply(parse("starter", seat=1))
