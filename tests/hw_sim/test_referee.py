import pytest

from hw_sim.physics import BoardSim
from hw_sim.referee import carry_out, judge
from rules import STANDARD, ruleset

LINE = STANDARD.outer_radius
SINGLES = ruleset("tournament-singles")


def shoot_straight_up(sim: BoardSim, team: int, speed: float, x: float = 0.0):
    before = sim.discs("surface")
    return sim.shoot(team, x, -LINE, 0.0, speed), before


def test_a_shot_hitting_an_opposing_disc_is_valid():
    sim = BoardSim()
    sim.place(1, 0.0, -150.0)
    shot, before = shoot_straight_up(sim, 0, 1500.0)
    ruling = judge(sim, SINGLES, shot, before)
    assert not ruling.foul
    assert ruling.void == ()


def test_hitting_an_opposing_disc_through_an_own_disc_is_valid():
    sim = BoardSim()
    sim.place(0, 0.0, -160.0)
    sim.place(1, 0.0, -110.0)
    shot, before = shoot_straight_up(sim, 0, 1600.0)
    assert len(shot.struck) == 3
    assert not judge(sim, SINGLES, shot, before).foul


def test_missing_every_opposing_disc_sends_the_shot_and_struck_own_discs_to_the_ditch():
    sim = BoardSim()
    own = sim.place(0, 0.0, -200.0)
    opposing = sim.place(1, 200.0, 100.0)
    shot, before = shoot_straight_up(sim, 0, 900.0)
    assert shot.struck == (shot.disc, own)
    ruling = judge(sim, SINGLES, shot, before)
    assert ruling.foul and "opposing" in ruling.reason
    assert set(ruling.to_ditch) >= {shot.disc, own}
    assert opposing not in ruling.to_ditch
    carry_out(sim, ruling)
    assert [d.id for d in sim.discs("surface")] == [opposing]
    assert {d.id for d in sim.discs("ditch")} == {shot.disc, own}


def test_a_foul_voids_the_20_made_by_it():
    sim = BoardSim()
    sim.place(1, 200.0, 100.0)
    shot, before = shoot_straight_up(sim, 0, sim.physics.speed_for(LINE))
    assert [d.disc for d in shot.drops] == [shot.disc]
    ruling = judge(sim, SINGLES, shot, before)
    assert ruling.foul and ruling.void == (shot.disc,)
    carry_out(sim, ruling)
    assert sim.twenties() == (0, 0)
    assert sim.disc(shot.disc).where == "aside"
    assert len(sim.state().discs) == 1     # only the opposing disc is left to see


@pytest.mark.parametrize(("stop_at", "foul"), [
    (-60.0, False),                                        # well inside the 15 line
    (-(101.6 + 1.0 + 16.0) + 0.5, False),                   # touching the 15 line from outside
    (-(101.6 + 1.0 + 16.0) - 3.0, True),                    # clear of it: invalid
])
def test_open_board_fifteen_rule(stop_at, foul):
    sim = BoardSim()
    speed = sim.physics.speed_for(LINE + stop_at)
    shot, before = shoot_straight_up(sim, 0, speed)
    assert sim.disc(shot.disc).y == pytest.approx(stop_at, abs=0.5)
    ruling = judge(sim, SINGLES, shot, before)
    assert ruling.foul is foul
    assert (shot.disc in ruling.to_ditch) is foul


def test_open_board_fifteen_rule_is_met_by_a_struck_disc():
    sim = BoardSim()
    own = sim.place(0, 0.0, -150.0)     # an own disc only: the board is open
    shot, before = shoot_straight_up(sim, 0, sim.physics.speed_for(LINE - 150.0 + 32 + 90))
    assert shot.struck == (shot.disc, own)
    assert sim.disc(own).r < 101.6 - 16
    assert not judge(sim, SINGLES, shot, before).foul


def test_remove_outer_takes_a_shot_disc_outside_the_15_line_off_without_a_foul():
    rules = ruleset("casual-100", {"open_board": "remove-outer"})
    sim = BoardSim()
    shot, before = shoot_straight_up(sim, 0, sim.physics.speed_for(LINE - 150.0))
    ruling = judge(sim, rules, shot, before)
    assert not ruling.foul
    assert ruling.to_ditch == (shot.disc,)


def test_open_board_rule_off_leaves_the_disc():
    rules = ruleset("casual-100")
    assert rules.open_board == "off"
    sim = BoardSim()
    shot, before = shoot_straight_up(sim, 0, sim.physics.speed_for(LINE - 150.0))
    ruling = judge(sim, rules, shot, before)
    assert not ruling.foul and ruling.to_ditch == ()


def test_discs_touching_the_outer_line_go_to_the_ditch_after_every_shot():
    sim = BoardSim()
    on_line = sim.place(1, 0.0, LINE - 16.0)     # touches the outer line: scores nothing
    inside = sim.place(1, 0.0, LINE - 40.0)      # in the 5 zone
    shot, before = shoot_straight_up(sim, 0, 600.0, x=-200.0)  # an invalid shot, far from both
    ruling = judge(sim, SINGLES, shot, before)
    assert on_line in ruling.to_ditch and inside not in ruling.to_ditch
    carry_out(sim, ruling)
    assert all(STANDARD.zone(d.r) > 0 for d in sim.discs("surface"))


def test_crokidarts_must_strike_a_disc_on_the_board_but_not_on_a_checkout():
    rules = ruleset("crokidarts")
    sim = BoardSim()
    sim.place(0, 150.0, 0.0)
    shot, before = shoot_straight_up(sim, 0, sim.physics.speed_for(LINE))
    assert judge(sim, rules, shot, before).foul
    assert not judge(sim, rules, shot, before, checkout=True).foul
