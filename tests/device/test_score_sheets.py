"""Each kind of frame gets its game's score sheet, and the sheet says what that game says."""

from __future__ import annotations

import dataclasses

import pytest

from device.screen.crokidarts import DartsSheet
from device.screen.draw import game_sheet
from device.screen.rounds import RoundsSheet
from device.screen.view import DartsView, RoundsView, build
from tests.builders import play_round, shoot, start
from tests.device import scenes


@pytest.mark.parametrize("rules,kind,sheet", [
    ("tournament-singles", RoundsView, RoundsSheet),
    ("tournament-doubles", RoundsView, RoundsSheet),
    ("casual-100", RoundsView, RoundsSheet),
    ("casual-100-doubles", RoundsView, RoundsSheet),
    ("crokidarts", DartsView, DartsSheet),
])
def test_the_kind_of_frame_picks_the_sheet(rules, kind, sheet):
    v = build(start(rules))
    assert type(v) is kind and type(game_sheet(v)) is sheet and game_sheet(v).view is v


def test_a_tournament_counts_its_rounds_and_a_casual_match_names_its_target():
    v = build(start("tournament-singles", rounds=6))
    assert (v.rounds, v.target) == (6, 0)
    assert game_sheet(v).where()[0] == "RD 1/6" and game_sheet(v).heading() == "ROUND 1 OF 6"
    v = build(start("casual-100", target=50))
    assert (v.rounds, v.target) == (0, 50)
    assert game_sheet(v).where()[0] == "RD 1 TO 50"
    assert game_sheet(v).heading() == "ROUND 1 - TO 50"


def test_an_extra_round_is_said_so():
    m = start("tournament-singles", rounds=1, tiebreak="extra-round")
    m = play_round(m, [10], [10])                                  # a tie: round 2 is extra
    v = build(shoot(m))
    assert game_sheet(v).where()[:2] == ["RD 2 EXTRA", "R2+"]
    assert game_sheet(v).heading() == "ROUND 2 (EXTRA)"


def test_a_round_frame_has_no_turn_checkout_legs_or_sets():
    v = build(scenes.singles_mid())
    assert (v.turn, v.checkout, v.legs, v.sets) == (None, False, (0, 0), (0, 0))
    names = {f.name for f in dataclasses.fields(v)}
    assert not names & {"turn", "checkout", "legs", "sets", "set_no", "legs_to_win"}
    assert game_sheet(v).tally(0) == "" and game_sheet(v).check_line() == "0 : 0"


def test_the_crokidarts_sheet_tallies_legs_and_sets():
    m, _ = scenes.darts_legs()
    v = build(m)
    assert isinstance(v, DartsView)
    s = game_sheet(v)
    assert (s.tally(0), s.tally(1)) == ("L1 S1", "L1 S0")
    assert s.record(0)[:2] == ["LEGS 1 OF 3", "SETS 1 OF 3"]
    assert s.pips(v.seat) == (v.discs_left[v.seat],) * 2
