import json

import pytest

from rules import EventError, parse_event
from rules.events import BoardReading, Correction, Disc

EXAMPLES = [
    {"type": "match", "rules": "tournament-singles", "players": ["Ann", "Bob"]},
    {"type": "match", "rules": "crokidarts", "players": ["Ann", "Bob"],
     "options": {"legs": 2, "sets": 1}},
    {"type": "shot", "seat": 3},
    {"type": "twenty"},
    {"type": "twenty", "team": 1},
    {"type": "foul"},
    {"type": "board", "discs": [{"team": 0, "zone": 15},
                                {"team": 1, "zone": 0, "uncertain": True,
                                 "x_mm": 12.5, "y_mm": -300.0}]},
    {"type": "board", "discs": [{"team": 0, "zone": 5}],
     "check": ["only 93% of the playing surface is in the picture"]},
    {"type": "confirm"},
    {"type": "correct", "totals": [45, 30]},
    {"type": "correct", "discs": [{"team": 1, "zone": 10}], "round": 2},
    {"type": "correct", "value": 35},
    {"type": "undo"},
    {"type": "starter", "seat": 1},
]


@pytest.mark.parametrize("obj", EXAMPLES, ids=lambda o: o["type"])
def test_every_event_survives_json_round_trip(obj):
    ev = parse_event(obj)
    assert ev.to_json() == obj
    assert parse_event(json.loads(json.dumps(ev.to_json()))) == ev


def test_metadata_keys_ride_along_and_are_ignored():
    assert parse_event({"type": "shot", "seat": 0, "ts": 12.5, "source": "touch"}) == \
        parse_event({"type": "shot", "seat": 0})


@pytest.mark.parametrize(("obj", "message"), [
    ([1, 2], "must be a JSON object"),
    ({"seat": 0}, "needs a 'type'"),
    ({"type": "dance"}, "unknown event type 'dance'"),
    ({"type": "shot"}, "shot: missing field 'seat'"),
    ({"type": "shot", "seat": -1}, "'seat' must be a whole number of at least 0"),
    ({"type": "shot", "seat": "0"}, "'seat' must be a whole number"),
    ({"type": "shot", "seat": 0, "speed": 3}, "unknown field 'speed'"),
    ({"type": "twenty", "team": 2}, "'team' must be a whole number from 0 to 1"),
    ({"type": "foul", "seat": 1}, "it takes no fields"),
    ({"type": "board"}, "missing field 'discs'"),
    ({"type": "board", "discs": {"team": 0}}, "must be a list"),
    ({"type": "board", "discs": [{"team": 0, "zone": 20}]}, "20s come from the hole sensor"),
    ({"type": "board", "discs": [{"team": 0, "zone": 7}]}, "'zone' must be 0, 5, 10 or 15"),
    ({"type": "board", "discs": [{"team": 0, "zone": 5, "x_mm": 1}]}, "both 'x_mm' and 'y_mm'"),
    ({"type": "board", "discs": [{"team": 0, "zone": 5, "uncertain": "yes"}]}, "true or false"),
    ({"type": "board", "discs": [{"team": 0, "zone": 5, "x_mm": float("nan"), "y_mm": 0}]},
     "'x_mm' must be a number"),
    ({"type": "board", "discs": [], "check": "a hand"}, "'check' must be a list of reasons"),
    ({"type": "board", "discs": [], "check": [""]}, "'check' must be a list of reasons"),
    ({"type": "match", "rules": "casual-100", "players": "Ann"}, "list of names"),
    ({"type": "match", "rules": "casual-100", "players": ["Ann", " "]}, "list of names"),
    ({"type": "correct"}, "exactly one of"),
    ({"type": "correct", "totals": [1, 2], "value": 3}, "exactly one of"),
    ({"type": "correct", "totals": [10]}, "'totals' must be"),
])
def test_malformed_events_name_what_is_wrong(obj, message):
    with pytest.raises(EventError, match=message):
        parse_event(obj)


def test_event_errors_are_value_errors_too():
    with pytest.raises(ValueError):
        parse_event({"type": "shot", "seat": None})


def test_disc_coordinates_are_optional():
    ev = parse_event({"type": "board", "discs": [{"team": 1, "zone": 10}]})
    assert ev == BoardReading((Disc(1, 10),))
    assert Correction(value=10).value == 10
