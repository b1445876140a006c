import pytest

from rules import PRESETS, RuleSetError, ruleset


def test_presets_carry_the_disc_counts_of_the_rule_texts():
    assert {n: (r.seats, r.discs) for n, r in PRESETS.items()} == {
        "tournament-singles": (2, 8),
        "tournament-doubles": (4, 6),
        "casual-100": (2, 12),
        "casual-100-doubles": (4, 6),
        "crokidarts": (2, 5),
    }
    assert PRESETS["tournament-singles"].rounds == 4
    assert PRESETS["tournament-singles"].round_points == (2, 1, 0)
    assert PRESETS["casual-100"].target == 100
    assert PRESETS["crokidarts"].target == 400


def test_partners_sit_opposite_and_singles_players_face_each_other():
    doubles = ruleset("tournament-doubles")
    assert [doubles.team_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert [doubles.quadrant_of(s) for s in range(4)] == [0, 1, 2, 3]
    singles = ruleset("casual-100")
    assert [singles.quadrant_of(s) for s in range(2)] == [0, 2]
    assert [singles.seat_at(q) for q in range(4)] == [0, None, 1, None]


def test_options_change_a_copy_of_the_preset():
    r = ruleset("crokidarts", {"legs": 2, "sets": 1})
    assert (r.legs, r.sets) == (2, 1)
    assert PRESETS["crokidarts"].legs == 3


@pytest.mark.parametrize(("name", "options", "message"), [
    ("bowls", {}, "unknown rule set 'bowls'"),
    ("casual-100", {"rounds": 3}, "has no option 'rounds'"),
    ("tournament-singles", {"rounds": 0}, "'rounds' must be a whole number from 1"),
    ("tournament-singles", {"rounds": True}, "'rounds' must be a whole number"),
    ("tournament-singles", {"tiebreak": "coin"}, "'tiebreak' must be one of none, extra-round"),
    ("crokidarts", {"open_board": "off"}, "has no option 'open_board'"),
])
def test_bad_rule_sets_and_options_are_refused_by_name(name, options, message):
    with pytest.raises(RuleSetError, match=message):
        ruleset(name, options)
