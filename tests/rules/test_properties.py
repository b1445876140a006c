"""Properties that must hold for every match, checked on matches the scripted players make."""

import contextlib
import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hw_sim.scripted import Style, play
from rules import (
    BoardReading,
    Confirm,
    Correction,
    Disc,
    Foul,
    Match,
    RulesError,
    Shot,
    Starter,
    Twenty,
    Undo,
    fold,
    parse_event,
)

ROUND_GAMES = ["tournament-singles", "tournament-doubles", "casual-100", "casual-100-doubles"]
QUICK_DARTS = {"legs": 1, "sets": 1}

styles = st.builds(
    Style,
    twenty=st.floats(0, 0.4), opponent_twenty=st.floats(0, 0.1), foul=st.floats(0, 0.2),
    uncertain=st.floats(0, 0.2), correct=st.floats(0, 1), kept=st.floats(0.1, 1),
    darts_twenty=st.floats(0.1, 0.6), exact=st.floats(0.2, 1))
seeds = st.integers(0, 2**32 - 1)
any_rules = st.sampled_from([*ROUND_GAMES, "crokidarts"])
fast = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def events_of(rules, seed, style):
    options = QUICK_DARTS if rules == "crokidarts" else None
    return list(play(rules, random.Random(seed), style=style, options=options))


def states(events):
    m = Match.start(events[0])
    yield m
    for ev in events[1:]:
        m = m.apply(ev)
        yield m


@fast
@given(any_rules, seeds, styles)
def test_replaying_the_same_events_gives_equal_states(rules, seed, style):
    events = events_of(rules, seed, style)
    through_json = [parse_event(json.loads(json.dumps(e.to_json()))) for e in events]
    a, b = fold(events), fold(through_json)
    assert a == b
    assert a.summary() == b.summary()
    assert a.finished


@fast
@given(any_rules, seeds, styles, st.randoms(use_true_random=False))
def test_an_event_followed_by_undo_changes_nothing(rules, seed, style, rnd):
    events = events_of(rules, seed, style)
    plain = fold(events)
    detour = [events[0]]
    for ev in events[1:]:
        detour.append(ev)
        if rnd.random() < 0.3:
            detour += [Undo(), ev]               # take it back and do it again
    assert fold(detour) == plain
    assert fold(detour).summary() == plain.summary()


@fast
@given(any_rules, seeds, styles)
def test_undo_after_any_event_restores_the_previous_state(rules, seed, style):
    events = events_of(rules, seed, style)
    # a second, independent fold (through JSON) to compare with: equal by value, not identity
    again = list(states([parse_event(e.to_json()) for e in events]))
    for i, m in enumerate(states(events)):
        if i + 1 < len(events):
            after = m.apply(events[i + 1])
            assert after.apply(Undo()) == again[i]
            if i % 10 == 0:
                assert after.apply(Undo()).summary() == again[i].summary()


@fast
@given(seeds, styles)
def test_a_crokidarts_turn_never_ends_above_the_target(seed, style):
    for m in states(events_of("crokidarts", seed, style)):
        if not m.game.legs:
            continue
        leg = m.game.legs[-1]
        st_ = leg.turns[-1].state(m.rules)
        if st_.closed:
            assert st_.end <= 400
        assert max(leg.scores(m.rules)) <= 400


@fast
@given(st.sampled_from(["casual-100", "casual-100-doubles"]), seeds, styles)
def test_in_a_casual_round_at_most_one_side_gains(rules, seed, style):
    m = fold(events_of(rules, seed, style))
    for r in m.summary().to_json()["rounds"]:
        assert min(r["points"]) == 0
        assert max(r["points"]) == abs(r["totals"][0] - r["totals"][1])
    assert max(m.summary().to_json()["score"]) >= 100


def _random_event(rnd: random.Random):
    kind = rnd.randrange(9)
    disc = Disc(rnd.randrange(2), rnd.choice([0, 5, 10, 15]), rnd.random() < 0.2)
    return [
        Shot(rnd.randrange(5)), Twenty(rnd.choice([None, 0, 1])), Foul(),
        BoardReading((disc,) * rnd.randrange(4)), Confirm(), Undo(),
        Correction(totals=(rnd.randrange(0, 100), rnd.randrange(0, 100)),
                   round=rnd.choice([None, 1, 2])),
        Correction(value=rnd.randrange(0, 100)), Starter(rnd.randrange(3)),
    ][kind]


@settings(max_examples=60, deadline=None)
@given(any_rules, seeds, seeds)
def test_any_event_at_any_moment_is_either_applied_or_refused_with_a_rules_error(
        rules, seed, fuzz_seed):
    rnd = random.Random(fuzz_seed)
    for m in states(events_of(rules, seed, Style())):
        if rnd.random() < 0.2:
            before = m.summary()
            try:
                after = m.apply(_random_event(rnd))
            except RulesError:
                assert m.summary() == before
            else:
                after.summary()  # a state that was accepted can be reported


def _recount(m):
    """Score and deciding round worked out from the rounds' records alone, as the engine did
    before it carried running sums."""
    rules, score, end = m.rules, [0, 0], None
    for rnd in m.game.scored():
        pts = rnd.points(rules)
        score = [score[0] + pts[0], score[1] + pts[1]]
        if end is None and (max(score) >= rules.target if rules.game == "casual" else
                            rnd.number >= rules.rounds and (
                                rules.tiebreak == "none" or score[0] != score[1])):
            end = rnd.number
    return (score[0], score[1]), end


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(ROUND_GAMES), seeds, seeds, st.booleans())
def test_the_running_sums_agree_with_a_recount_after_any_correction(rules, seed, fuzz, tiebreak):
    """Correcting or fouling an earlier round changes the sums every later round carries."""
    rnd = random.Random(fuzz)
    events = list(play(rules, random.Random(seed), options={"tiebreak": "extra-round"}
                       if tiebreak and "tournament" in rules else None))
    m = Match.start(events[0])
    for ev in events[1:]:
        m = m.apply(ev)
        if rnd.random() < 0.3 and m.game.decided():
            fix = Correction(totals=(5 * rnd.randrange(20) + 20 * 8, 5 * rnd.randrange(20)),
                             round=rnd.randrange(1, m.game.decided() + 1))
            with contextlib.suppress(RulesError):
                m = m.apply(fix)
        assert (m.game.score(), m.game.end_round()) == _recount(m)
        if m.finished:
            break
