import pytest

from rules import Correction, Disc, IllegalEvent, MatchOver, Shot, Twenty, parse_event
from tests.builders import board, dart, start


def darts(**options):
    return start("crokidarts", **options)


def hundred(m):
    """Five 20s in a row: a turn worth 100."""
    for _ in range(5):
        m = dart(m, twenties=1)
    return m


def blank(m):
    """Five discs that leave nothing on the board."""
    for _ in range(5):
        m = dart(m)
    return m


def to_score(m, seat_score):
    """Plays turns until the seat due first has ``seat_score`` (a multiple of 5, < 400) while
    the other scores nothing."""
    first = m.expect().seat
    left = seat_score
    while left:
        assert m.expect().seat == first
        if left >= 100:
            m = hundred(m)
            left -= 100
        else:
            n20, rest = divmod(left, 20)
            for _ in range(n20):
                m = dart(m, twenties=1)
            zones = [15] * (rest // 15) + ([rest % 15] if rest % 15 else [])
            while m.expect().seat == first:
                m = dart(m, *zones)
            left = 0
        m = blank(m)
    return m


def score(m):
    return m.summary().to_json()["score"]


def test_a_turn_is_five_shots_each_read_then_the_turn_passes():
    m = darts()
    m = m.apply(Shot(0))
    assert m.expect().what == "board"
    m = m.apply(board((0, 10)))
    for _ in range(4):
        assert m.expect().seat == 0
        m = dart(m, 10, 5)
    assert m.expect().seat == 1
    assert score(m) == [15, 0]
    assert m.summary().to_json()["rounds"][-1]["status"] == "scored"


def test_the_turn_value_is_its_twenties_plus_the_discs_left_on_the_board():
    m = darts()
    m = dart(m, twenties=1)
    m = dart(m, 15)
    m = dart(m, 15, twenties=1)
    m = dart(m, 15, 5)
    m = dart(m, 15, 5, 10)
    assert score(m) == [70, 0]


def test_worked_example_from_385_a_twenty_busts_at_once_and_the_score_stays():
    m = to_score(darts(), 385)
    assert score(m) == [385, 0]
    m = m.apply(Shot(0)).apply(Twenty())
    assert m.expect().what == "shot" and m.expect().seat == 1   # the turn is over at once
    assert m.summary().to_json()["rounds"][-1]["status"] == "bust"
    assert score(m) == [385, 0]


@pytest.mark.parametrize("finish", [[[15]], [[10], [10, 5]]], ids=["one 15", "a 10 then a 5"])
def test_worked_example_from_385_fifteen_is_left_as_one_15_or_a_10_and_a_5(finish):
    m = blank(to_score(darts(), 385).apply(Shot(0)).apply(Twenty()))
    for zones in finish:
        m = dart(m, *zones)
    exp = m.expect()
    assert (exp.what, exp.seat, exp.checkout) == ("shot", 0, True)


def test_worked_example_from_390_a_15_with_discs_left_is_not_yet_a_bust():
    m = to_score(darts(), 390)
    m = dart(m, 15)                       # 405, but discs in hand
    assert m.expect().seat == 0 and m.summary().to_json()["turn"]["value"] == 15
    # a) knock the 15 into the 10 ring (both discs now 10s), clear both, then a 10
    a = dart(dart(dart(m, 10, 10)), 10)
    # b) clear the board first, then a 10
    b = dart(dart(m), 10)
    for path in (a, b):
        exp = path.expect()
        assert (exp.what, exp.seat, exp.checkout) == ("shot", 0, True)


def test_past_the_target_after_the_last_disc_is_a_bust():
    m = to_score(darts(), 390)
    for _ in range(5):
        m = dart(m, 15)
    assert m.summary().to_json()["rounds"][-1]["status"] == "bust"
    assert score(m) == [390, 0]
    assert m.expect().seat == 1


def test_reaching_exactly_400_stops_the_turn_and_a_checkout_20_wins_the_leg():
    m = to_score(darts(legs=2), 385)
    m = dart(m, 15)
    assert m.summary().to_json()["turn"]["discs_left"] == 4   # discs left, but no longer needed
    m = m.apply(Shot(0)).apply(Twenty())
    s = m.summary().to_json()
    assert s["legs"] == [1, 0] and s["rounds"][-1]["status"] == "won"
    exp = m.expect()
    assert exp.seat == 1 and not exp.checkout      # a new leg, started by the other player
    m = dart(m, 10)
    assert score(m) == [0, 0]                      # the new leg starts from nothing


def test_a_missed_checkout_passes_the_turn_and_later_attempts_are_single_free_shots():
    m = to_score(darts(), 385)
    m = dart(m, 15)
    m = dart(m, 10)                               # the checkout shot stays on the board: missed
    assert m.summary().to_json()["rounds"][-1]["status"] == "missed"
    assert score(m) == [400, 0]
    m = blank(m)                                  # Bob
    exp = m.expect()
    assert (exp.seat, exp.checkout) == (0, True)
    m = dart(m, 15)                               # a single shot, missed again
    assert m.expect().seat == 1
    m = blank(m)
    m = dart(m, twenties=1)
    assert m.summary().to_json()["legs"] == [1, 0]


def test_a_checkout_counts_a_disc_knocked_into_the_hole():
    m = to_score(darts(), 385)
    m = dart(m, 15)
    m = m.apply(Shot(0)).apply(Twenty())
    assert m.summary().to_json()["legs"] == [1, 0]


def test_a_twenty_to_exactly_400_still_waits_for_the_board():
    m = dart(to_score(darts(), 380), 5)           # 385
    m = m.apply(Shot(0)).apply(Twenty())          # 20s alone reach 400: not past it, no bust
    assert m.expect().what == "board"
    m = m.apply(board((0, 5)))                    # 405 with discs in hand: play on
    assert m.expect().seat == 0 and not m.expect().checkout
    m = dart(m)                                   # cleared: exactly 400
    assert m.expect().checkout


def test_legs_and_sets_are_counted_and_the_start_alternates_by_leg_and_by_set():
    m = darts(legs=2, sets=2)
    starters = []

    def win_leg(m, winner):
        while True:
            exp = m.expect()
            if exp.checkout and exp.seat == winner:
                return dart(m, twenties=1)
            m = hundred(m) if exp.seat == winner else blank(m)

    for winner in (0, 0, 1, 0, 0):                # set 1: Ann 2-0; set 2: Bob, Ann, Ann
        starters.append(m.expect().seat)
        m = win_leg(m, winner)
    s = m.summary().to_json()
    assert s["finished"] and s["winner"] == 0 and s["sets"] == [2, 0]
    # set 1 legs start Ann, Bob; set 2 is started by Bob, then alternates
    assert starters == [0, 1, 1, 0, 1]
    with pytest.raises(MatchOver):
        m.apply(Shot(1))


def test_the_starter_of_a_leg_may_be_drawn_by_lot():
    m = darts().apply(parse_event({"type": "starter", "seat": 1}))
    assert m.expect().seat == 1


def test_a_foul_voids_the_shots_twenty_and_can_undo_a_bust():
    m = to_score(darts(), 385)
    m = m.apply(Shot(0)).apply(Twenty())
    assert m.expect().seat == 1
    m = m.apply(parse_event({"type": "foul"}))
    assert m.expect().what == "board" and m.expect().seat == 0   # the turn goes on
    m = m.apply(board())
    assert m.summary().to_json()["turn"]["value"] == 0


def test_every_disc_is_the_shooters():
    m = darts().apply(Shot(0))
    with pytest.raises(IllegalEvent, match="every disc is the shooter's"):
        m.apply(Twenty(1))


def test_a_reading_with_more_discs_than_shot_is_held_for_a_check_and_a_correction_refused():
    m = darts().apply(Shot(0))
    held = m.apply(board((0, 5), (0, 5)))
    assert held.expect().what == "confirm"
    assert any("at most 1" in c for c in held.game.legs[-1].turns[-1].shots[-1].count.check)
    assert any("at most 1" in c for c in held.summary().check)  # (what the screens show)
    assert m.apply(board((0, 5), (0, 0), (0, 0))).expect().what != "confirm"  # the ditch's
    with pytest.raises(IllegalEvent, match="correction gives 2 disc"):
        m.apply(Correction(discs=(Disc(0, 5), Disc(0, 5))))
