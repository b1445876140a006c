import math

import pytest

from hw_sim.errors import PhysicsSettingError
from hw_sim.physics import BoardSim, Physics
from rules import STANDARD

R = STANDARD.disc_radius
PEG_REACH = R + STANDARD.peg_diameter / 2


def momentum(sim: BoardSim) -> tuple[float, float]:
    m = sim.physics.disc_mass
    vs = [sim.velocity(d.id) for d in sim.discs("surface", "ditch")]
    return (m * sum(v[0] for v in vs), m * sum(v[1] for v in vs))


@pytest.mark.parametrize("friction", [0.1, 0.2, 0.35])
@pytest.mark.parametrize("speed", [300.0, 600.0, 850.0])
def test_stopping_distance_is_v_squared_over_2_mu_g(friction, speed):
    phys = Physics(friction=friction)
    expected = speed ** 2 / (2 * friction * 9810.0)
    assert expected < 400.0
    # Along a chord 230 mm from the centre: clear of the pegs and the hole, on the surface.
    start = (-expected / 2, -230.0)
    sim = BoardSim(physics=phys)
    shot = sim.shoot(0, *start, speed, 0.0)
    d = sim.disc(shot.disc)
    assert d.where == "surface"
    assert sim.velocity(d.id) == (0.0, 0.0)
    assert math.hypot(d.x - start[0], d.y - start[1]) == pytest.approx(expected, rel=0.02)
    assert shot.duration == pytest.approx(speed / (friction * 9810.0), abs=0.012)


@pytest.mark.parametrize("offset", [0.0, 9.0, 20.0, -27.0])
def test_momentum_is_conserved_in_a_disc_disc_collision(offset):
    sim = BoardSim(physics=Physics(friction=0.0))
    sim.place(1, offset, 200.0)
    mover = sim.place(0, 0.0, 120.0, 0.0, 900.0)
    before = momentum(sim)
    hit = False
    for _ in range(120):
        sim.step()
        hit = hit or sim.velocity(mover) != (0.0, 900.0)
    assert hit
    after = momentum(sim)
    assert after[0] == pytest.approx(before[0], abs=1e-6 * abs(before[1]))
    assert after[1] == pytest.approx(before[1], rel=1e-9)


def test_a_head_on_collision_gives_the_restitution_of_the_settings():
    sim = BoardSim(physics=Physics(friction=0.0, bounce_threshold=0.0))
    target = sim.place(1, 0.0, 200.0)
    mover = sim.place(0, 0.0, 120.0, 0.0, 1000.0)
    for _ in range(80):
        sim.step()
    assert sim.velocity(target)[1] == pytest.approx(1000.0 * (1 + 0.8) / 2, rel=1e-6)
    assert sim.velocity(mover)[1] == pytest.approx(1000.0 * (1 - 0.8) / 2, rel=1e-6)


def test_a_gentle_tap_leaves_two_discs_touching():
    sim = BoardSim()
    target = sim.place(1, 0.0, 150.0)
    # Starts 40 mm short of contact with the speed to slide 41 mm: arrives at about 63 mm/s.
    shot = sim.shoot(0, 0.0, 150.0 - 2 * R - 40.0, 0.0, sim.physics.speed_for(41.0))
    a, b = sim.disc(shot.disc), sim.disc(target)
    assert shot.struck == (shot.disc, target)
    assert math.dist((a.x, a.y), (b.x, b.y)) - 2 * R == pytest.approx(0.0, abs=0.2)


@pytest.mark.parametrize("peg", range(0, 8, 3))
def test_an_8_m_per_s_disc_never_passes_through_a_peg(peg):
    px, py = STANDARD.pegs()[peg]
    speed = 8000.0
    sim = BoardSim()
    tried = 0
    for heading_deg in range(0, 360, 20):
        heading = math.radians(heading_deg)
        ux, uy = math.cos(heading), math.sin(heading)
        for offset in (-19.5, -14.0, -7.0, -2.0, 0.0, 3.0, 10.0, 17.0, 20.0):
            # 45 mm before the peg along the heading, shifted sideways by the offset; no other
            # peg is near that path (pegs are 78 mm apart).
            sx, sy = px - 45.0 * ux - offset * uy, py - 45.0 * uy + offset * ux
            if math.hypot(sx, sy) > 300 or math.hypot(sx, sy) < 40:
                continue
            disc = sim.place(0, sx, sy, speed * ux, speed * uy)
            tried += 1
            where = f"peg {peg}, heading {heading_deg}, offset {offset}"
            for _ in range(12):
                sim.step()
                d = sim.disc(disc)
                rx, ry = d.x - px, d.y - py
                vx, vy = sim.velocity(disc)
                along = rx * ux + ry * uy
                # At most one 8 mm step of overlap before the contact pushes back.
                assert math.hypot(rx, ry) > PEG_REACH - 8.5, where
                if (vx * ux + vy * uy) / math.hypot(vx, vy) < math.cos(math.radians(5)):
                    assert math.hypot(rx, ry) < PEG_REACH + 1.0, where   # turned by this peg
                    break
                # Not turned yet: a disc aimed at the peg must not be past it.
                if abs(offset) < PEG_REACH - 0.5:
                    assert along < 0, where
            else:
                assert abs(offset) >= PEG_REACH - 0.5, f"{where}: never turned"
            sim.set_aside(disc)
    assert tried > 100


def test_a_disc_drawn_to_the_centre_drops_in_the_hole_and_the_time_is_recorded():
    sim = BoardSim()
    speed = sim.physics.speed_for(STANDARD.outer_radius)
    shot = sim.shoot(1, 0.0, -STANDARD.outer_radius, 0.0, speed)
    assert [(d.disc, d.team) for d in shot.drops] == [(shot.disc, 1)]
    # It falls as its centre crosses the hole's edge, 17.5 mm short of where it would stop.
    travel = STANDARD.outer_radius - STANDARD.hole_diameter / 2
    a = sim.physics.deceleration
    expected_t = (speed - math.sqrt(speed ** 2 - 2 * a * travel)) / a
    assert shot.drops[0].t == pytest.approx(expected_t, abs=0.002)
    assert sim.disc(shot.disc).where == "hole"
    assert sim.twenties() == (0, 1)
    assert sim.state().twenties == (0, 1)
    assert sim.state().discs == ()


def test_a_fast_disc_skims_over_the_hole():
    sim = BoardSim()
    shot = sim.shoot(0, 0.0, -STANDARD.outer_radius, 0.0, 1500.0)
    assert shot.drops == ()
    assert sim.disc(shot.disc).where == "surface"
    assert sim.disc(shot.disc).y > 100


def test_a_disc_leaving_the_surface_ends_at_rest_in_the_ditch():
    sim = BoardSim()
    shot = sim.shoot(0, -100.0, -250.0, 2500.0, 400.0)
    d = sim.disc(shot.disc)
    assert shot.fell == (shot.disc,)
    assert d.where == "ditch"
    assert STANDARD.surface_radius + R - 0.5 <= d.r <= STANDARD.ditch_radius - R + 0.5
    assert sim.velocity(d.id) == (0.0, 0.0)
    assert sim.at_rest()
    (placed,) = sim.state().discs
    assert placed.in_ditch() and placed.zone() == 0


def test_a_disc_left_pressed_into_the_rail_is_taken_at_rest_against_it():
    sim = BoardSim()
    rest = STANDARD.ditch_radius - R
    sim.place(1, 0.0, -(rest + 3.0))  # as the solver's slop can leave one after a hard shot
    sim.place(0, rest - 1.0, 0.0)
    pressed, near = sim.state().discs
    assert pressed.y_mm == pytest.approx(-rest) and pressed.x_mm == 0.0
    assert (near.x_mm, near.y_mm) == (rest - 1.0, 0.0)


def test_the_rail_bounces_with_its_restitution():
    sim = BoardSim(physics=Physics(ditch_friction=0.0))
    mid = (STANDARD.surface_radius + STANDARD.ditch_radius) / 2
    disc = sim.place(0, 0.0, -mid, 0.0, -500.0)   # straight at the rail
    for _ in range(60):
        sim.step()
    assert sim.velocity(disc)[1] == pytest.approx(500.0 * 0.45, rel=0.02)


def test_players_move_discs_to_the_ditch_against_the_rail_side_by_side():
    sim = BoardSim()
    ids = [sim.place(0, 200.0 + k, 0.0) for k in range(3)]
    for i in ids:
        sim.to_ditch(i)
    ditch = sim.discs("ditch")
    assert [d.id for d in ditch] == ids
    for d in ditch:
        assert d.r == pytest.approx(STANDARD.ditch_radius - R - 0.2)
        assert abs(math.atan2(d.y, d.x)) < 0.3
    for i, a in enumerate(ditch):
        for b in ditch[i + 1:]:
            assert math.dist((a.x, a.y), (b.x, b.y)) >= 2 * R


def test_a_shot_chain_lists_the_discs_it_set_moving_in_order():
    sim = BoardSim()
    first = sim.place(0, 0.0, -150.0)
    second = sim.place(1, 0.0, -100.0)
    aside = sim.place(1, 150.0, 150.0)
    shot = sim.shoot(0, 0.0, -STANDARD.outer_radius, 0.0, 1800.0)
    assert shot.struck[:3] == (shot.disc, first, second)
    assert aside not in shot.struck


@pytest.mark.parametrize(("name", "value"), [
    ("step", 0.002), ("friction", -0.1), ("disc_restitution", 1.2), ("drop_speed", "fast")])
def test_a_bad_setting_is_refused_with_its_name(name, value):
    with pytest.raises(PhysicsSettingError, match=name):
        Physics(**{name: value})
