"""Every bad line of a log is reported with its number and reason and skipped, whatever it holds."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from rules import BoardError, RulesError
from rules.board import Board
from rules.replay import replay, replay_all

START = b'{"type": "match", "rules": "casual-100", "players": ["Ann", "Bob"]}'
SHOT = b'{"type": "shot", "seat": 0}'


def problems(*lines):
    match, bad = replay_all(lines)
    return match, {s.line: s.problem for s in bad}


def test_lines_may_be_bytes_or_text_and_a_bom_is_ignored():
    a, _ = replay_all([START, SHOT])
    b, _ = replay_all([START.decode(), SHOT.decode()])
    c, bad = replay_all([b"\xef\xbb\xbf" + START, SHOT])
    assert a == b == c and not bad and a is not None and a.game.decided() == 0


def test_text_that_is_not_utf8_is_one_bad_line():
    match, bad = problems(START, b'{"type": "shot", "seat": 0, "note": "caf\xe9"}', SHOT)
    assert bad == {2: "not UTF-8 text (byte 0xe9 at column 41)"}
    assert len(match.game.rounds[-1].shots) == 1


def test_brackets_nested_deeply_and_huge_numbers_are_bad_lines():
    deep = b"[" * 100_000 + b"]" * 100_000
    half_deep = json.dumps({"type": "shot", "seat": json.loads("[" * 500 + "]" * 500)}).encode()
    digits = b'{"type": "shot", "seat": ' + b"7" * 5000 + b"}"
    match, bad = problems(START, deep, half_deep, digits, SHOT)
    assert bad[2] == "not an event: brackets nested too deeply"
    assert bad[3].startswith("shot: field 'seat' must be a whole number") and "[[[" in bad[3]
    assert bad[4].startswith("not an event: exceeds the limit (4300 digits)")
    assert len(match.game.rounds[-1].shots) == 1


def test_the_board_refuses_impossible_dimensions_with_a_rules_error():
    try:
        Board(ten_radius=50.0)
    except BoardError as exc:
        assert isinstance(exc, RulesError) and isinstance(exc, ValueError)
        assert "grow outwards" in str(exc)
    else:
        raise AssertionError("a 10 line inside the 15 line was accepted")


EVENT_TYPES = ["match", "shot", "twenty", "foul", "board", "confirm", "correct", "undo",
               "starter", "teleport"]
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=4),
    max_leaves=12)
events = st.fixed_dictionaries(
    {"type": st.sampled_from(EVENT_TYPES)},
    optional={"seat": st.integers(-1, 4) | json_values, "team": st.sampled_from([0, 1, 2, None]),
              "discs": st.lists(st.fixed_dictionaries({"team": st.integers(0, 1),
                                                       "zone": st.sampled_from([0, 5, 10, 15])},
                                                      optional={"uncertain": st.booleans()}),
                                max_size=6) | json_values,
              "totals": st.lists(st.integers(-5, 200), max_size=3),
              "value": st.integers(-5, 500), "round": st.integers(0, 5),
              "rules": st.sampled_from(["casual-100", "crokidarts", "tournament-doubles"]),
              "players": st.lists(st.text(max_size=5), max_size=4),
              "options": st.dictionaries(st.sampled_from(["target", "legs", "discs"]),
                                         json_values, max_size=2)})
lines = st.one_of(
    st.binary(max_size=60),
    json_values.map(lambda v: json.dumps(v).encode()),
    events.map(lambda e: json.dumps(e).encode()),
    st.text(max_size=30).map(lambda t: t.encode("utf-8", "surrogatepass")))


@settings(max_examples=120)
@given(st.lists(lines, max_size=30))
def test_any_lines_replay_to_steps_and_never_raise(raw):
    raw = [START, *raw]
    steps = list(replay(raw))
    for step in steps:
        assert 1 <= step.line <= len(raw)
        assert (step.problem is None) == (step.event is not None)
        assert step.problem is None or (step.problem and len(step.problem) < 400)
    kept = [s for s in steps if s.problem is None]
    assert kept and kept[0].line == 1
