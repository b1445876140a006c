import math
import random
import statistics

import pytest

from hw_sim import aim
from hw_sim.errors import PlayerError
from hw_sim.physics import BoardSim, Physics, SimDisc
from hw_sim.players import Player, Situation, choose, flick
from hw_sim.referee import reaches_fifteen
from hw_sim.scenario import play
from rules import STANDARD, ruleset


def situation(rules: str = "tournament-singles", seat: int = 0, discs=(), **kw) -> Situation:
    rs = ruleset(rules)
    return Situation(STANDARD, Physics(), rs, seat, rs.team_of(seat), rs.quadrant_of(seat),
                     tuple(discs), **kw)


def run_exactly(plan, team: int = 0, discs=()):
    """Plays a plan with no aim or power error."""
    sim = BoardSim()
    ids = [sim.place(d.team, d.x, d.y) for d in discs]
    ux, uy = aim.unit(plan.start, plan.toward)
    shot = sim.shoot(team, *plan.start, ux * plan.speed, uy * plan.speed)
    return sim, shot, ids


@pytest.mark.parametrize("quadrant", range(4))
def test_shooting_spots_are_on_the_outer_line_inside_the_quadrant(quadrant):
    spots = aim.spots(STANDARD, quadrant, [])
    assert len(spots) == 11
    for x, y in spots:
        assert math.hypot(x, y) == pytest.approx(STANDARD.outer_radius)
        assert STANDARD.quadrant(x, y) == quadrant


def test_a_spot_taken_by_a_disc_is_not_offered():
    free = aim.spots(STANDARD, 0, [])
    taken = aim.spots(STANDARD, 0, [free[5]])
    assert free[5] not in taken and len(taken) < len(free)


@pytest.mark.parametrize(("rules", "seat"), [
    ("tournament-singles", 0), ("tournament-singles", 1), ("tournament-doubles", 1),
    ("tournament-doubles", 3)])
def test_every_seat_shoots_from_its_own_quadrant(rules, seat):
    rng = random.Random(seat)
    s = situation(rules, seat)
    for _ in range(10):
        plan = choose(s, Player("Ann", 0.8), rng)
        assert STANDARD.quadrant(*plan.start) == s.quadrant


def test_an_open_board_draw_for_the_20_played_exactly_drops_in_the_hole():
    rng = random.Random(3)
    plans = [choose(situation(), Player("Ann", 1.0), rng) for _ in range(40)]
    draws = [p for p in plans if p.kind == "draw-20"]
    assert len(draws) > 10
    for plan in draws[:5]:
        _, shot, _ = run_exactly(plan)
        assert len(shot.drops) == 1


def test_open_board_shots_leave_a_disc_touching_or_inside_the_15_line_when_played_exactly():
    rng = random.Random(5)
    for _ in range(30):
        plan = choose(situation(), Player("Ann", 0.9), rng)
        sim, shot, _ = run_exactly(plan)
        assert shot.drops or reaches_fifteen(sim, sim.disc(shot.disc)), plan


def test_an_opposing_disc_in_sight_is_attacked_and_a_takeout_removes_it():
    target = SimDisc(0, 1, 30.0, 60.0, "surface")
    rng = random.Random(11)
    plans = [choose(situation(discs=[target]), Player("Ann", 0.9), rng) for _ in range(40)]
    assert all(p.target == (30.0, 60.0) for p in plans)
    kinds = {p.kind for p in plans}
    assert "takeout" in kinds and kinds <= {"takeout", "stick", "freeze"}
    removed = 0
    takeouts = [p for p in plans if p.kind == "takeout"]
    for plan in takeouts:
        sim, shot, (tid,) = run_exactly(plan, discs=[target])
        assert tid in shot.struck
        removed += sim.disc(tid).where != "surface"
    assert removed >= 0.8 * len(takeouts)


def test_a_hidden_opposing_disc_gets_the_least_blocked_try():
    # A disc right behind a peg, seen from the bottom, with own discs walling off the rest.
    px, py = STANDARD.pegs()[1]          # top right, far from seat 0
    target = SimDisc(0, 1, px * 0.78, py * 0.78, "surface")
    wall = [SimDisc(1 + k, 0, -120.0 + 40.0 * k, -140.0, "surface") for k in range(7)]
    plan = choose(situation(discs=[target, *wall]), Player("Ann", 0.9), random.Random(1))
    assert plan.kind == "forced"
    assert plan.target == (target.x, target.y)


def test_less_skill_means_wider_aim_and_power_errors():
    plan = choose(situation(), Player("Ann", 1.0), random.Random(2))
    spreads = {}
    for skill in (0.2, 0.9):
        rng = random.Random(7)
        flicks = [flick(plan, Player("x", skill), rng) for _ in range(300)]
        angles = [math.atan2(f.vy, f.vx) for f in flicks]
        speeds = [math.hypot(f.vx, f.vy) for f in flicks]
        spreads[skill] = (statistics.pstdev(angles), statistics.pstdev(speeds) / plan.speed)
    assert spreads[0.2][0] > 2 * spreads[0.9][0]
    assert spreads[0.2][1] > 2 * spreads[0.9][1]
    assert spreads[0.9][1] == pytest.approx(Player("x", 0.9).power_sd, rel=0.2)


@pytest.mark.parametrize(("need", "zone"), [(15, 15), (10, 10), (5, 10)])
def test_a_crokidarts_player_short_of_a_20_draws_to_the_15_line_not_beyond(need, zone):
    s = situation("crokidarts", need=need)
    plan = choose(s, Player("Ann", 0.9), random.Random(need))
    assert plan.kind == "draw-zone"
    sim, shot, _ = run_exactly(plan)
    d = sim.disc(shot.disc)
    assert reaches_fifteen(sim, d)
    assert STANDARD.zone(d.r) == zone


def test_a_crokidarts_player_with_too_much_on_the_board_takes_a_disc_off():
    disc = SimDisc(0, 0, 0.0, -60.0, "surface")      # worth 15
    plan = choose(situation("crokidarts", discs=[disc], need=10), Player("Ann", 0.9),
                  random.Random(4))
    assert plan.kind == "takeout" and plan.target == (0.0, -60.0)


def test_impossible_players_are_refused():
    with pytest.raises(PlayerError, match="skill"):
        Player("Ann", 1.5)
    with pytest.raises(PlayerError, match="one skill per seat"):
        play("tournament-doubles", 1, skills=(0.5, 0.5))
