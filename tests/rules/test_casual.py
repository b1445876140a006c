from rules import Shot
from tests.builders import board, play_round, start


def test_twelve_discs_each_and_the_first_shot_alternates_by_round():
    m = start("casual-100")
    starters = []
    for _ in range(3):
        starters.append(m.expect().seat)
        m = play_round(m)
        assert len(m.game.rounds[-1].shots) == 24
    assert starters == [0, 1, 0]


def test_worked_example_sixty_to_thirty_five_wins_the_difference():
    m = start("casual-100")
    m = play_round(m, [15, 15, 10, 10, 10], [15, 10, 10])
    r = m.summary().to_json()["rounds"][0]
    assert r["totals"] == [60, 35]
    assert r["points"] == [25, 0]
    assert m.summary().to_json()["score"] == [25, 0]


def test_twenties_count_in_the_round_total():
    m = start("casual-100")
    m = play_round(m, [5], [15], twenties={0: [None]})      # Ann 20 + 5 = 25, Bob 15
    assert m.summary().to_json()["rounds"][0]["totals"] == [25, 15]
    assert m.summary().to_json()["score"] == [10, 0]


def test_a_tied_round_gives_nobody_points():
    m = play_round(start("casual-100"), [10], [5, 5])
    assert m.summary().to_json()["score"] == [0, 0]


def test_first_to_reach_one_hundred_wins_at_the_end_of_that_round():
    m = start("casual-100")
    for _ in range(3):
        m = play_round(m, [15, 15], [])                     # +30 a round
    assert m.summary().to_json()["score"] == [90, 0] and not m.finished
    m = play_round(m, [], [15])                             # Bob +15
    m = play_round(m, [10, 5], [])                          # Ann +15: 105
    s = m.summary().to_json()
    assert s["finished"] and s["winner"] == 0 and s["score"] == [105, 15]


def test_the_target_is_an_option():
    m = start("casual-100", target=50)
    m = play_round(play_round(m, [15, 15], []), [15, 10], [])
    assert m.finished and m.winner == 0


def test_doubles_partners_sit_opposite_and_the_next_round_starts_to_the_left():
    m = start("casual-100-doubles")
    assert m.summary().to_json()["teams"] == ["Ann & Cat", "Bob & Dan"]
    starters = []
    for _ in range(5):
        starters.append(m.expect().seat)
        order = []
        for _ in range(24):
            seat = m.expect().seat
            order.append(seat)
            m = m.apply(Shot(seat))
        assert order[:4] == [(starters[-1] + i) % 4 for i in range(4)]
        assert all(order.count(s) == 6 for s in range(4))   # 12 discs a side, 6 each
        m = m.apply(board())
    assert starters == [0, 1, 2, 3, 0]


def test_only_one_side_scores_in_a_round():
    m = start("casual-100")
    for z0, z1 in [([15], [10]), ([5], [15, 15]), ([10], [10])]:
        m = play_round(m, z0, z1)
    for r in m.summary().to_json()["rounds"]:
        assert min(r["points"]) == 0
