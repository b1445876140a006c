import random

import pytest

from device.screen.view import ScoreView, Status, build
from hw_sim.scripted import play
from rules import PRESETS, Confirm, Match, NotAwaited, Shot, Twenty, fold
from tests.builders import play_round, shoot, start
from tests.device import scenes


def test_a_view_reads_the_summary_once(monkeypatch):
    calls = []
    real = Match.summary

    def counted(self):
        calls.append(1)
        return real(self)

    monkeypatch.setattr(Match, "summary", counted)
    for m in (scenes.singles_mid(), scenes.darts_turn()[0]):
        calls.clear()
        build(m, Status(errors=("camera lost",)))
        assert len(calls) == 1


def test_singles_mid_round():
    v = build(scenes.singles_mid())
    assert v.game == "tournament" and v.rounds == 4 and v.round == 2
    assert v.sides == ("Ann", "Bob") and not v.doubles
    # round 2 is started by Bob; after five shots (Bob 3, Ann 2) it is Ann's
    assert (v.awaiting, v.seat, v.side_up, v.shooter) == ("shot", 0, 0, "Ann")
    assert v.discs_left == (6, 5)
    assert v.score == (0, 2)
    assert v.round_twenties == (0, 1)
    assert v.last is not None and v.last.number == 1 and v.last.totals == (30, 50)
    assert v.last.points == (0, 2)
    assert not v.check and not v.finished and v.twenty is None


def test_board_awaited_has_nobody_up():
    m, _ = scenes.singles_board()
    v = build(m)
    assert v.awaiting == "board" and v.seat is None and v.side_up is None and v.shooter is None
    assert v.discs_left == (0, 0)


def test_check_comes_from_the_match_with_the_reading_to_check():
    m, _ = scenes.singles_check()
    assert m.expect().what == "confirm"
    v = build(m)
    assert v.check and v.check_totals == (25, 25)
    v = build(m.apply(Confirm()))
    assert not v.check and v.check_totals is None


def test_doubles_sides_and_discs():
    m, _ = scenes.doubles_mid()
    v = build(m)
    assert v.doubles and v.sides == ("Ann & Cat", "Bob & Dan")
    assert len(v.discs_left) == 4 and v.discs == 6
    assert v.side_discs(0) == v.discs_left[0] + v.discs_left[2]
    assert v.shooter == m.players[v.seat]


def test_crokidarts_turn_in_progress():
    m, _ = scenes.darts_turn()
    v = build(m)
    assert v.game == "crokidarts" and v.target == 400
    assert v.score == (200, 20)
    assert v.turn is not None and v.turn.seat == 0
    assert (v.turn.start, v.turn.twenties, v.turn.board, v.turn.value) == (200, 1, 15, 35)
    assert v.turn.total == 235 and v.discs_left == (3, 0)
    assert (v.set_no, v.leg_no, v.legs_to_win, v.sets_to_win) == (1, 1, 3, 3)


def test_crokidarts_checkout_and_whole_turn_between_turns():
    m, _ = scenes.darts_checkout()
    v = build(m)
    assert v.checkout and v.seat == 0
    # between turns the seat due has a whole turn in hand
    m = start("crokidarts")
    v = build(m)
    assert v.turn is None and v.discs_left == (5, 0)


def test_crokidarts_legs_and_sets():
    m, _ = scenes.darts_legs()
    v = build(m)
    assert v.sets == (1, 0) and v.legs == (1, 1) and v.set_no == 2
    assert v.last is not None and v.last.status == "won" and v.last.seat == 0


def test_crokidarts_check_holds_the_turn_value():
    m, _ = scenes.darts_check()
    v = build(m)
    # a 20, then the board read as 15 (uncertain) and 10: the turn is worth 45 if confirmed
    assert v.check and v.check_totals == (45, 0)
    assert v.turn is not None and v.turn.value == 45


def test_status_is_carried_and_checked():
    m = scenes.singles_mid()
    v = build(m, Status(twenty=1, errors=("camera lost", "sensor bar unplugged"),
                        message="undone"))
    assert (v.twenty, v.errors, v.message) == (1, ("camera lost", "sensor bar unplugged"),
                                               "undone")
    with pytest.raises(ValueError, match="side"):
        Status(twenty=2)
    with pytest.raises(TypeError, match="tuple of strings"):
        Status(errors=["camera lost"])  # type: ignore[arg-type]


def test_views_are_values():
    a = build(scenes.singles_mid())
    b = ScoreView.build(scenes.singles_mid())
    assert a == b and hash(a) == hash(b)
    with pytest.raises(AttributeError):
        a.score = (9, 9)  # type: ignore[misc]


def test_history_keeps_the_latest_rounds():
    m = start("casual-100")
    for _ in range(6):
        m = play_round(m, [5], [])
    v = build(m)
    assert [r.number for r in v.history] == [3, 4, 5, 6]
    assert v.score == (30, 0)


def test_twenty_side_is_the_shooters_unless_named():
    m = shoot(play_round(start("tournament-doubles"), [], []), 1)  # round 2: seat 1 shoots
    assert m.twenty_side(Twenty()) == 1
    assert m.twenty_side(Twenty(0)) == 0
    m = start("crokidarts").apply(Shot(0))
    assert m.twenty_side(Twenty()) == 0
    with pytest.raises(NotAwaited, match="during a shot"):
        start("casual-100").twenty_side(Twenty())


@pytest.mark.parametrize("rules", sorted(PRESETS))
def test_every_state_of_a_whole_match_makes_a_view(rules):
    # crokidarts to two legs: a full three sets of three is thousands of states
    short = {"legs": 2, "sets": 1} if rules == "crokidarts" else None
    events = list(play(rules, random.Random(5), options=short))
    m = fold(events[:1])
    for ev in events[1:]:
        m = m.apply(ev)
        v = build(m)
        assert v.score == tuple(m.summary().to_json()["score"])
        assert (v.side_up is None) == (v.seat is None)
        assert all(n >= 0 for n in v.discs_left)
    assert v.finished and v.winner == m.winner
