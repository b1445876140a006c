"""The typed view of a match: the same JSON as ever, typed fields, and the queries device/ asks."""

import json
from pathlib import Path

import pytest

from rules import (
    DartsSummary,
    FirstTo,
    FixedRounds,
    NotAwaited,
    RoundsSummary,
    RoundSummary,
    Shot,
    TurnSummary,
    Twenty,
    Undo,
)
from rules.replay import replay_all
from rules.summary import Entries
from tests.builders import board, shoot, start

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples" / "matches").glob("*.jsonl"))
GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_to_json_is_byte_for_byte_the_replay_output_of_before(path):
    """golden/NAME.json is `crokiscore replay NAME.jsonl --json` as it was when the summary was
    a dict: the replay's output and the store's result must not change by a byte."""
    match, problems = replay_all(path.read_bytes().splitlines())
    assert match is not None and not problems
    want = (GOLDEN / f"{path.stem}.json").read_text()
    assert json.dumps(match.summary().to_json()) + "\n" == want


def test_a_round_game_is_summarised_with_typed_rounds():
    m = shoot(start("casual-100"), twenties={0: [None]})
    m = m.apply(board((0, 15), (1, 10)))
    m = shoot(m, 1)
    s = m.summary()
    assert isinstance(s, RoundsSummary) and s.score == (25, 0) and s.round == 2
    assert s.rounds[0] == RoundSummary(1, 0, 24, (1, 0), 0, (15, 10), (35, 10), (25, 0),
                                       False, False, False)
    assert s.rounds[-1].decided is False and s.rounds[-1].points is None
    assert [r.number for r in s.decided_rounds()] == [1]
    assert next(m.decided_rounds()) == s.rounds[0]


def test_a_round_games_goal_tells_tournament_from_casual():
    assert start("tournament-singles").summary().goal == FixedRounds(4)
    assert start("tournament-doubles", rounds=6).summary().goal == FixedRounds(6)
    assert start("casual-100").summary().goal == FirstTo(100)
    assert start("casual-100-doubles", target=50).summary().goal == FirstTo(50)
    assert "goal" not in start("casual-100").summary().to_json()


def test_a_crokidarts_match_is_summarised_with_typed_turns():
    m = start("crokidarts").apply(Shot(0)).apply(Twenty()).apply(board())
    m = m.apply(Shot(0)).apply(board((0, 10)))
    s = m.summary()
    assert isinstance(s, DartsSummary) and s.turn is not None
    assert (s.turn.seat, s.turn.value, s.turn.total, s.turn.discs_left) == (0, 30, 30, 3)
    assert s.turns == (TurnSummary(1, 1, 0, 0, 30, "shoot", 2, 1, 10, (0, 0)),)
    assert list(m.decided_rounds()) == [] and m.latest_value() == (30, 0)


def test_the_entries_are_made_from_the_end_only_as_far_as_read():
    made = []

    def newest():
        for i in range(1000, 0, -1):
            made.append(i)
            yield i

    e = Entries(1000, newest)
    assert e[-1] == 1000 and e[-3:] == (998, 999, 1000) and len(e) == 1000
    assert len(made) <= 8, "reading the last entries does not walk the whole match"
    assert e[0] == 1 and list(e)[:2] == [1, 2] and e == tuple(range(1, 1001))


def test_twenty_side_is_the_named_side_or_the_shooters():
    m = shoot(start("tournament-doubles"), 3)  # seat 2 shot last: side 0
    assert m.twenty_side(Twenty()) == 0 and m.twenty_side(Twenty(1)) == 1
    with pytest.raises(NotAwaited, match="no shot is in play"):
        start("casual-100").twenty_side(Twenty())


def test_last_twenty_side_is_the_side_the_latest_event_in_effect_credited():
    m = shoot(start("casual-100"), 2)
    assert m.last_twenty_side() is None
    credited = m.apply(Twenty())
    assert credited.last_twenty_side() == 1
    assert credited.apply(Twenty(0)).last_twenty_side() == 0
    assert credited.apply(Shot(0)).apply(Undo()).last_twenty_side() == 1
    darts = start("crokidarts").apply(Shot(0)).apply(Twenty())
    assert darts.last_twenty_side() is None


def test_latest_value_is_what_a_correction_would_replace():
    m = start("casual-100")
    assert m.latest_value() == (0, 0)
    m = shoot(m, twenties={1: [None]})          # the board is awaited: this round's 20s
    assert m.expect().what == "board" and m.latest_value() == (0, 20)
    m = shoot(m.apply(board((0, 5))), 1)         # a round in play: the round that was read
    assert m.latest_value() == (5, 20)
