"""The board's retained state says how its match is counted, so a subscriber (the page) goes by
that and never by the rule set's name."""

from __future__ import annotations

import pytest

from device.club.snapshot import BoardSnapshot, state_json
from rules import Match, NewMatch


@pytest.mark.parametrize(("rules", "players", "scoring", "present", "absent"), [
    ("tournament-singles", ("Ann", "Bob"), "rounds", {"round", "discs_left", "rounds"},
     {"legs", "sets", "turn"}),
    ("casual-100", ("Ann", "Bob"), "rounds", {"round", "discs_left"}, {"legs"}),
    ("crokidarts", ("Ann", "Bob"), "legs", {"legs", "sets", "set", "leg", "turn"},
     {"discs_left", "rounds"}),
])
def test_the_state_names_its_scoring(rules, players, scoring, present, absent):
    match = Match.start(NewMatch(rules, players))
    state = state_json(BoardSnapshot(1, match), "board-1", started=1.0, seq=1, now=2.0)
    assert state["scoring"] == scoring
    assert present <= set(state) and not absent & set(state)


def test_no_match_has_no_scoring():
    state = state_json(BoardSnapshot(None, None), "board-1", started=None, seq=0, now=2.0)
    assert state["match_id"] is None and "scoring" not in state
