"""The hub's core, handed the messages a broker would deliver: each event kept once whatever the
order and the copies, gaps asked for again, assignments linked to the match that took them up."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from device.club.hub import ASK_AGAIN_S, GAP_WAIT_S, Hub
from device.club.hubstore import HubStore
from device.club.topics import EventMessage, MatchKey, Topics, dumps, parse_resend
from rules import RulesError, fold, parse_event
from tests.club.parts import MATCHES

TOPICS = Topics("crokiscore", "elmira")
KEY = MatchKey("board-1", 7, 1_700_000_000.25)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def bodies(name: str = "tournament-singles") -> list[dict]:
    return [json.loads(line) for line in (MATCHES / f"{name}.jsonl").read_text().splitlines()]


def event(seq: int, body: dict, key: MatchKey = KEY) -> tuple[str, bytes]:
    return (TOPICS.of(key.board, "event"),
            dumps(EventMessage(key, seq, key.started + seq, body).to_json()))


@pytest.fixture
def hub(tmp_path: Path) -> tuple[Hub, list[tuple[str, bytes, bool]], Clock]:
    sent: list[tuple[str, bytes, bool]] = []
    clock = Clock()
    h = Hub(HubStore(str(tmp_path / "club.db")), TOPICS, lambda t, p, r: sent.append((t, p, r)),
            clock=clock)
    return h, sent, clock


def test_out_of_order_and_copies_are_kept_once(hub) -> None:  # type: ignore[no-untyped-def]
    h, _sent, _clock = hub
    log = bodies()
    order = list(range(len(log)))
    order[10:20] = reversed(order[10:20])
    for seq in order + list(range(0, 30)):   # shuffled, then the first 30 again
        h.handle(*event(seq, log[seq]))
    assert h.store.event_count() == len(log)
    assert h.counts["copies"] == 30
    f = h.folds[KEY.uuid]
    assert f.next == len(log) and not f.has_gap()
    assert f.match == fold(parse_event(b) for b in log)
    (row,) = h.store.match_rows(finished=True)
    assert json.loads(row[-1])["score"] == [4, 4]


def test_a_gap_is_asked_for_after_a_moment_and_again_until_filled(hub) -> None:  # type: ignore[no-untyped-def]
    h, sent, clock = hub
    log = bodies()
    for seq in (0, 1, 2, 5, 6):
        h.handle(*event(seq, log[seq]))
    h.tick()
    assert sent == []            # the missing ones may be on their way
    clock.now += GAP_WAIT_S
    h.tick()
    (topic, payload, retain), = sent
    assert topic == "crokiscore/elmira/board-1/resend" and not retain
    asked = parse_resend("board-1", payload)
    assert (asked.key, asked.start) == (KEY, 3)
    clock.now += 1
    h.tick()
    assert len(sent) == 1        # not again at once
    clock.now += ASK_AGAIN_S
    h.tick()
    assert len(sent) == 2
    for seq in (3, 4):
        h.handle(*event(seq, log[seq]))
    assert h.folds[KEY.uuid].next == 7
    clock.now += ASK_AGAIN_S
    h.tick()
    assert len(sent) == 2


def test_a_state_naming_later_events_starts_a_gap(hub) -> None:  # type: ignore[no-untyped-def]
    h, sent, clock = hub
    log = bodies()
    h.handle(*event(0, log[0]))
    state = {"v": 1, "board": "board-1", "match_id": KEY.match_id, "started": KEY.started,
             "seq": 9, "faults": []}
    h.handle(TOPICS.of("board-1", "state"), dumps(state))
    clock.now += GAP_WAIT_S
    h.tick()
    assert parse_resend("board-1", sent[-1][1]).start == 1
    assert h.board_view("board-1")["received"] == 0


def test_an_assignment_is_published_and_linked_to_its_match(hub) -> None:  # type: ignore[no-untyped-def]
    h, sent, _clock = hub
    with pytest.raises(RulesError):
        h.assign("board-1", "tournament-singles", ["Only one"])
    a = h.assign("board-1", "tournament-singles", ["Ann", "Bob"], event="Club night")
    topic, payload, retain = sent[-1]
    assert topic == "crokiscore/elmira/board-1/assign" and retain
    assert json.loads(payload)["id"] == a.id
    assert h.board_view("board-1")["next"]["players"] == ["Ann", "Bob"]
    h.handle(*event(0, bodies()[0]))   # the box started it
    assert sent[-1] == ("crokiscore/elmira/board-1/assign", b"", True)
    (row,) = h.store.match_rows()
    assert row[6] == "Club night"
    assert h.board_view("board-1")["next"] is None


def test_another_match_does_not_take_up_the_assignment(hub) -> None:  # type: ignore[no-untyped-def]
    h, _sent, _clock = hub
    h.assign("board-1", "casual-100", ["Cat", "Dan"])
    h.handle(*event(0, bodies()[0]))   # Ann v Bob, tournament: not the assigned match
    assert h.board_view("board-1")["next"]["players"] == ["Cat", "Dan"]
    assert h.store.match_rows()[0][6] is None
