import json
import math
from collections import Counter

import pytest

from hw_sim.scenario import Scenario, end_of_round_boards, play
from hw_sim.timeline import BoardDue, FoulCall, HoleDrop, Settled, Touch
from rules import PRESETS, STANDARD, BoardReading, Foul, Match, Shot, Twenty, fold, parse_event

R = STANDARD.disc_radius
# Crokidarts is played to one leg here: a full match (up to 25 legs) is the benchmark's job.
OPTIONS = {"crokidarts": {"legs": 1, "sets": 1}}


@pytest.fixture(scope="module")
def matches() -> dict[str, Scenario]:
    return {name: play(name, 3, options=OPTIONS.get(name)) for name in PRESETS}


@pytest.fixture(scope="module")
def club_night() -> list[Scenario]:
    """A few seeded tournament matches, singles and doubles, for the board statistics."""
    return [play(name, seed) for name in ("tournament-singles", "tournament-doubles")
            for seed in (1, 2, 3)]


def test_the_same_seed_gives_the_same_match():
    a = play("tournament-singles", 21)
    b = play("tournament-singles", 21)
    assert a.timeline == b.timeline
    assert a.truth == b.truth
    assert a.match.summary() == b.match.summary()
    c = play("tournament-singles", 22)
    assert c.truth != a.truth


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_rule_set_plays_to_the_end_and_the_engine_accepts_every_event(matches, name):
    sc = matches[name]
    assert sc.match.finished
    assert sc.match.rules.name == name
    # The JSON lines a daemon would store replay to the same result.
    lines = [json.dumps({"ts": round(s.t, 3), **s.event.to_json()}) for s in sc.truth]
    replayed = fold(parse_event(json.loads(line)) for line in lines)
    assert replayed.summary() == sc.match.summary()
    kinds = Counter(type(e).__name__ for e in sc.events)
    assert kinds["Shot"] >= sc.match.rules.discs * sc.match.rules.seats
    assert kinds["BoardReading"] >= 1


@pytest.mark.parametrize("name", list(PRESETS))
def test_the_timeline_is_what_the_sensors_would_report(matches, name):
    sc = matches[name]
    times = [m.t for m in sc.timeline]
    assert times == sorted(times)
    rules = sc.match.rules
    shots = [s for s in sc.truth if isinstance(s.event, Shot)]
    releases = [m for m in sc.timeline if isinstance(m, Touch) and not m.active]
    presses = [m for m in sc.timeline if isinstance(m, Touch) and m.active]
    assert len(shots) == len(releases) == len(presses)
    for shot, press, release in zip(shots, presses, releases, strict=True):
        assert release.t == shot.t and press.t < release.t
        assert press.quadrant == release.quadrant == rules.quadrant_of(shot.event.seat)
    twenties = [s for s in sc.truth if isinstance(s.event, Twenty)]
    drops = [m for m in sc.timeline if isinstance(m, HoleDrop)]
    assert [d.t for d in drops] == [s.t for s in twenties]
    assert len([m for m in sc.timeline if isinstance(m, FoulCall)]) == len(
        [s for s in sc.truth if isinstance(s.event, Foul)])
    readings = [s for s in sc.truth if isinstance(s.event, BoardReading)]
    due = [m for m in sc.timeline if isinstance(m, BoardDue)]
    assert [m.t for m in due] == [s.t for s in readings]
    assert all(m.state.reading() == s.event for m, s in zip(due, readings, strict=True))
    assert len([m for m in sc.timeline if isinstance(m, Settled)]) == len(shots)


@pytest.mark.parametrize("name", list(PRESETS))
def test_true_zones_agree_with_the_rules_zone_function(matches, name):
    sc = matches[name]
    checked = 0
    for m in sc.timeline:
        if not isinstance(m, Settled | BoardDue):
            continue
        for disc in m.state.discs:
            checked += 1
            if disc.in_ditch():
                assert disc.zone() == 0
                assert STANDARD.surface_radius + R - 1 <= disc.r <= STANDARD.ditch_radius - R + 1
            else:
                assert disc.zone() == STANDARD.zone_at(disc.x_mm, disc.y_mm)
                assert disc.zone() > 0      # players put line-touching discs in the ditch
    assert checked > 50


@pytest.mark.parametrize("name", [n for n in PRESETS if PRESETS[n].game != "crokidarts"])
def test_each_round_scores_what_the_settled_board_shows(matches, name):
    sc = matches[name]
    rounds = sc.match.summary().to_json()["rounds"]
    boards = sc.boards()
    assert len(boards) == len(rounds)
    for board, rnd in zip(boards, rounds, strict=True):
        assert list(board.state.totals()) == rnd["totals"]


def test_every_crokidarts_reading_shows_the_value_of_the_turn_so_far(matches):
    sc = matches["crokidarts"]
    due = iter(m for m in sc.timeline if isinstance(m, BoardDue))
    m = Match.start(sc.truth[0].event)
    checked = 0
    for stamped in sc.truth[1:]:
        m = m.apply(stamped.event)
        if not isinstance(stamped.event, BoardReading):
            continue
        state = next(due).state
        turn = m.game.legs[-1].turns[-1]
        st = turn.state(m.rules)
        assert {d.team for d in state.discs} <= {turn.seat}
        if st.status != "missed":   # a missed checkout's disc is not part of the turn's value
            assert st.value == state.totals()[turn.seat]
            checked += 1
    assert checked > 10


def gaps(discs):
    surface = [d for d in discs if not d.in_ditch()]
    for i, a in enumerate(surface):
        for b in surface[i + 1:]:
            yield math.hypot(a.x_mm - b.x_mm, a.y_mm - b.y_mm) - 2 * R


def test_end_of_round_boards_look_like_real_ones(club_night):
    boards = [b.state for sc in club_night for b in sc.boards()]
    assert len(boards) == 24
    surface = [d for s in boards for d in s.discs if not d.in_ditch()]
    ditch = [d for s in boards for d in s.discs if d.in_ditch()]
    touching = sum(1 for s in boards for g in gaps(s.discs) if g < 0.5)
    on_lines = sum(1 for d in surface if STANDARD.zone_margin(d.r) < 2.0)
    peg_reach = R + STANDARD.peg_diameter / 2
    on_pegs = sum(1 for d in surface for p in STANDARD.pegs()
                  if math.dist((d.x_mm, d.y_mm), p) < peg_reach + 0.5)
    twenties = sum(sum(s.twenties) for s in boards)
    zones = Counter(d.zone() for d in surface)
    assert 2.0 <= len(surface) / len(boards) <= 10.0
    assert len(ditch) >= 100
    assert touching >= 3
    assert on_lines >= 2
    assert on_pegs >= 2
    assert twenties >= 30
    assert min(zones[15], zones[10], zones[5]) >= 10


def test_end_of_round_boards_for_the_camera_vary_and_repeat_by_seed():
    boards = end_of_round_boards(6, seed=4)
    assert len(boards) == 6
    assert len({b.rules for b in boards}) >= 3
    assert len({b.seed for b in boards}) >= 3
    assert all(b.state.discs for b in boards)
    again = end_of_round_boards(6, seed=4)
    assert [b.state for b in again] == [b.state for b in boards]


def test_python_m_hw_sim_play_prints_a_log_that_replays(capsys):
    from hw_sim.__main__ import main
    from rules.replay import replay_all

    assert main(["play", "--rules", "crokidarts", "--seed", "2",
                 "--options", '{"legs": 1, "sets": 1}']) == 0
    text = capsys.readouterr().out.splitlines()
    m, problems = replay_all(text)
    assert problems == [] and m is not None and m.finished
    assert main(["play", "--rules", "crokidarts", "--seed", "2", "--timeline",
                 "--options", '{"legs": 1, "sets": 1}']) == 0
    moments = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert {m["moment"] for m in moments} >= {"touch", "hole", "settled", "board"}
