import random
import sqlite3

import pytest

from device.core.inputs import ButtonPressed, HoleDrop, Operator, Tick, TouchChanged
from device.core.state import Settings
from device.core.status import Status
from device.screen.text import TextScreen
from device.shell import Shell, StoreHandle
from device.store import EventStore
from hw_sim.scripted import play
from rules import NewMatch, Shot, fold


class Clock:
    """Time for the appliance, moved on by the test."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


SINGLES = NewMatch("tournament-singles", ("Ann", "Bob"))


def appliance(store, start=SINGLES, shown=None):
    clock = Clock()
    out = shown if shown is not None else []
    a = Shell(Settings(start, camera=False), StoreHandle(store.path, store),
              TextScreen(out.append), clock=clock, wall=clock)
    a.start()
    return a, clock, out


@pytest.fixture
def store(tmp_path):
    with EventStore(tmp_path / "events.db") as s:
        yield s


@pytest.mark.parametrize("rules", ["tournament-doubles", "casual-100", "crokidarts"])
def test_a_whole_match_goes_through_the_store_and_survives_a_restart(tmp_path, rules):
    events = list(play(rules, random.Random(5),
                       options={"legs": 1, "sets": 1} if rules == "crokidarts" else None))
    path = tmp_path / "events.db"
    with EventStore(path) as store:
        a, clock, _ = appliance(store, events[0])
        for ev in events[1:]:
            clock.t += 1
            a.step(Operator(ev, clock.t))
        assert a.match == fold(events)
        assert a.match.finished
        match_id = a.match_id
    with EventStore(path) as store:
        assert store.events(match_id) == events
        assert store.matches()[0].outcome == "finished"
        assert store.matches()[0].result["winner"] == fold(events).winner


def test_an_unfinished_match_resumes_exactly_where_it_was(tmp_path):
    events = list(play("casual-100", random.Random(2)))[:40]
    path = tmp_path / "events.db"
    with EventStore(path) as store:
        a, clock, _ = appliance(store, events[0])
        for ev in events[1:]:
            a.step(Operator(ev, clock.t))
        before = a.match
    with EventStore(path) as store:
        b, _, shown = appliance(store, events[0])
        assert b.match == before and b.match.summary() == before.summary()
        assert shown, "the restored state is shown at once"


def test_a_touch_released_is_a_shot_from_that_quadrants_seat(store):
    a, clock, _ = appliance(store)
    a.step(TouchChanged(0, True, clock.t))
    assert a.match.depth == 0
    a.step(TouchChanged(0, False, clock.t))
    assert store.events(a.match_id)[-1] == Shot(0)
    a.step(TouchChanged(1, True, clock.t))          # nobody sits at quadrant 1 in singles
    a.step(TouchChanged(1, False, clock.t))
    a.step(TouchChanged(2, False, clock.t))         # a release without a touch: nothing
    assert a.match.depth == 1
    a.step(TouchChanged(2, True, clock.t))
    a.step(TouchChanged(2, False, clock.t))         # seat 1 sits opposite, at quadrant 2
    assert store.events(a.match_id)[-1] == Shot(1)


def test_a_twenty_flashes_for_a_moment(store):
    a, clock, shown = appliance(store)
    a.step(Operator(Shot(0), clock.t))
    a.step(HoleDrop(clock.t, 6.0))
    assert a.status().twenty == 0 and "*** 20 for Ann ***" in shown[-1]
    clock.t += 5
    a.step(Tick(clock.t))
    assert a.status().twenty is None and "*** 20" not in shown[-1]


def test_a_refused_event_is_recorded_apart_and_shown_but_changes_nothing(store):
    a, clock, shown = appliance(store)
    before = a.match
    a.step(Operator(Shot(1), clock.t))
    assert a.match is before
    assert len(store.events(a.match_id)) == 1
    [(body, reason)] = store.rejected(a.match_id)
    assert body["type"] == "shot" and "Ann (seat 0)'s shot" in reason
    assert "Ann (seat 0)'s shot" in shown[-1]


def test_buttons_undo_after_asking_and_start_a_new_match_from_the_menu(store):
    a, clock, _ = appliance(store)
    a.step(Operator(Shot(0), clock.t))
    a.step(ButtonPressed("back", False, clock.t))
    assert a.status().menu.title() == "Undo last event?" and a.match.depth == 1
    a.step(ButtonPressed("ok", False, clock.t))
    assert a.match.depth == 0 and not a.status().menu.open
    first = a.match_id
    for button in ("menu", "ok", "menu", "menu", "ok", "ok"):   # New match, casual-100, names
        a.step(ButtonPressed(button, False, clock.t))
    assert a.status().menu.title() == "Start casual-100?"
    a.step(ButtonPressed("ok", False, clock.t))
    assert a.match_id != first and a.match.rules.name == "casual-100"
    assert [m.outcome for m in store.matches()] == ["abandoned", None]
    assert store.events(a.match_id)[0] == NewMatch("casual-100", ("Ann", "Bob"))


def fill(store):
    """The store's disk fills up, to the last byte."""
    db = store._db
    db.execute("INSERT INTO matches (id, started, rules, players) VALUES (99, 0, 'x', '[]')")
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    db.execute(f"PRAGMA max_page_count={pages + 2}")
    with pytest.raises(sqlite3.OperationalError, match="full"):
        for seq in range(10_000):
            db.execute("INSERT INTO events VALUES (99, ?, 0, ?, NULL)", (seq, "x" * (seq % 50)))


def test_when_the_disk_is_full_the_box_scores_on_and_writes_it_all_in_order_later(store):
    a, clock, shown = appliance(store)
    fill(store)
    for seat in (0, 1, 0):
        a.step(Operator(Shot(seat), clock.t, source="test"))
    assert a.match.depth == 3, "the match goes on in memory"
    assert any("STORE FULL" in e for e in a.status().errors)
    assert "STORE FULL" in shown[-1]
    assert len(store.events(a.match_id)) == 1 and a.waiting == 3
    store._db.execute("PRAGMA max_page_count=1073741823")     # space freed
    a.step(Tick(clock.t + 1))
    assert a.waiting == 3, "retried only after a pause, not on every input"
    clock.t += 10
    a.step(Tick(clock.t))
    assert [e.to_json() for e in store.events(a.match_id)[1:]] == [
        {"type": "shot", "seat": s} for s in (0, 1, 0)]
    assert a.match.depth == 3 and not a.status().errors and a.waiting == 0
    assert store.integrity() == "ok"


def test_a_new_match_on_a_full_disk_keeps_the_box_up_and_is_written_when_it_can(store):
    a, clock, shown = appliance(store)
    a.step(Operator(Shot(0), clock.t))
    old = a.match_id
    fill(store)
    a.step(Operator(NewMatch("casual-100", ("Cy", "Di")), clock.t))
    a.step(Operator(Shot(0), clock.t))
    assert a.match.rules.name == "casual-100" and a.match.depth == 1
    assert "STORE FULL" in shown[-1] and a.match_id == old
    store._db.execute("PRAGMA max_page_count=1073741823")
    clock.t += 10
    a.step(Tick(clock.t))
    assert a.match_id != old and not a.status().errors
    assert [m.outcome for m in store.matches()] == ["abandoned", "abandoned", None]
    assert store.events(a.match_id) == [NewMatch("casual-100", ("Cy", "Di")), Shot(0)]


def test_check_waits_for_the_ok_button(store):
    from tests.builders import board
    a, clock, shown = appliance(store)
    for _ in range(16):
        a.step(Operator(Shot(a.match.expect().seat), clock.t))
    a.step(Operator(board((0, 15, True)), clock.t))
    assert a.match.expect().what == "confirm" and "CHECK" in shown[-1]
    a.step(ButtonPressed("ok", False, clock.t))
    assert a.status() == Status() and a.match.expect().what == "shot"
