"""The varied looks: what real boards, rooms and cameras add to the first looks, with truth that
still holds (zones from the rig's own board, discs where the truth says, determinism by seed)."""

import json
import math
import random
from dataclasses import replace

import cv2
import numpy as np
import pytest

from hw_sim.camera import Scene, render, truth
from hw_sim.clutter import Arm, Surroundings
from hw_sim.discs import BoardState, PlacedDisc
from hw_sim.errors import SimSettingError
from hw_sim.frames import plan_frames, plan_rig
from hw_sim.layouts import VARIED_HABITS, end_of_round
from hw_sim.lighting import Lighting, Sensor, light_field
from hw_sim.look import BoardLook, DiscSet, board_picture, luma, rail_inner
from hw_sim.proportions import proportions_of
from hw_sim.rig import CameraRig
from rules.board import STANDARD, Board

CLEAN = Sensor(noise=0.0, blur=0.0)
SCENES = [Scene.random(random.Random(seed), looks="varied") for seed in range(60)]


def small(scene, width=400, height=300):
    """A scene's rig at a test's size (keeping its field of view)."""
    return replace(scene, rig=scene.rig.resized(width, height))


def disc_mask(shape, pixel, radius):
    v, u = np.mgrid[:shape[0], :shape[1]]
    return np.hypot(u - pixel[0], v - pixel[1]) < radius


def test_varied_scenes_cover_the_looks_of_real_boards():
    tags = [s.tags() for s in SCENES]
    assert {t["board_colour"] for t in tags} >= {"black", "navy", "natural wood", "pale wood"}
    assert {t["frame"] for t in tags} == {"round", "octagon", "square"}
    assert {t["view"] for t in tags} == {"pi", "phone", "video"}
    assert {t["proportions"] for t in tags} == {"tournament", "club"}
    assert {t["ditch"].split(",")[0] for t in tags} == {"wood", "felt", "painted"}
    hazards = {h for t in tags for h in t["hazards"]}
    assert hazards >= {"varnish glare", "veneer seams", "worn discs", "two-shade discs",
                       "third set in the ditch", "table edge", "disc holder", "score sheet",
                       "loose discs", "clutter", "overlay", "discs like the board",
                       "discs like the ditch"}
    assert any(s.board != STANDARD for s in SCENES) and any(
        s.look.ditch_outline == "frame" for s in SCENES)


def test_classic_scenes_are_the_first_looks():
    a = Scene.random(random.Random(5))
    assert a == Scene.random(random.Random(5), looks="classic")
    assert a.board == STANDARD and a.rig.view == "pi" and a.surroundings == Surroundings()
    assert a.tags()["proportions"] == "tournament" and a.tags()["view"] == "pi"
    with pytest.raises(ValueError, match="looks"):
        Scene.random(random.Random(5), looks="fancy")
    with pytest.raises(ValueError, match="views"):
        Scene.random(random.Random(5), looks="varied", views=("drone",))


@pytest.mark.parametrize("seed", [3, 17])
def test_varied_frames_are_deterministic_by_seed(seed):
    plan = plan_frames(2, seed, boards="layouts", looks="varied", width=240, height=180)
    again = plan_frames(2, seed, boards="layouts", looks="varied", width=240, height=180)
    assert plan == again
    (rig,) = plan
    for _, state, s in rig.rounds:
        assert np.array_equal(render(state, rig.scene, s), render(state, again[0].scene, s))
        assert truth(state, rig.scene, s) == truth(state, again[0].scene, s)
    other = plan_frames(2, seed + 1, boards="layouts", looks="varied", width=240, height=180)
    assert other[0].scene != rig.scene


@pytest.mark.parametrize(("boards", "looks", "number"), [
    ("layouts", "varied", 9), ("play", "varied", 5), ("layouts", "classic", 6)])
def test_one_frame_s_rig_is_planned_as_the_whole_set_plans_it(boards, looks, number):
    """A frame drawn again on its own has the scene, empty board and round the set gives it,
    though the rigs before it are not played."""
    whole = plan_frames(number + 1, 7, boards=boards, looks=looks, per_rig=2, width=160,
                        height=120)
    rig = plan_rig(number, 7, boards=boards, looks=looks, per_rig=2, width=160, height=120)
    assert rig == next(r for r in whole if r.rounds[0][0] <= number <= r.rounds[-1][0])
    assert rig.index == number // 2


def test_a_negative_frame_number_is_refused():
    with pytest.raises(SimSettingError, match="negative"):
        plan_rig(-1, 7)


@pytest.mark.parametrize("seed", [1, 2, 4])
def test_zones_in_the_truth_follow_the_rigs_own_board(seed):
    for rig in plan_frames(4, seed, boards="layouts", looks="varied", per_rig=2, width=160,
                           height=120):
        board = rig.scene.board
        for _, state, s in rig.rounds:
            t = json.loads(json.dumps(truth(state, rig.scene, s)))
            assert Board(**t["board"]) == board
            assert t["tags"]["proportions"] == proportions_of(board)
            for d in t["discs"]:
                r = math.hypot(d["x_mm"], d["y_mm"])
                assert d["in_ditch"] == (r > board.surface_radius)
                assert d["zone"] == (0 if d["in_ditch"] else board.zone(r))
            values = [sum(d["zone"] for d in t["discs"] if d["team"] == k) for k in (0, 1)]
            assert t["totals"] == [v + 20 * n for v, n in zip(values, t["twenties"], strict=True)]


def test_play_boards_are_played_on_the_rigs_own_board():
    (rig,) = plan_frames(2, 6, boards="play", looks="varied", width=160, height=120,
                         board=Board(fifteen_radius=90.0, ten_radius=215.0, outer_radius=290.0,
                                     surface_radius=315.0, ditch_radius=365.0))
    assert rig.scene.board.fifteen_radius == 90.0
    for _, state, _ in rig.rounds:
        assert all(d.r <= 365.0 - 16.0 + 2.5 for d in state.discs)


@pytest.mark.parametrize("seed", [0, 9, 21])
def test_discs_show_where_the_truth_says_on_varied_boards(seed):
    """Every visible disc changes the frame at its truth pixel, leaning and stacked ones too;
    with the players' arms and the overlay taken out, nothing else changes."""
    scene = small(SCENES[seed], 480, 360)
    scene = replace(scene, surroundings=replace(scene.surroundings, players=0.0, overlay=False),
                    sensor=CLEAN)
    state = end_of_round(random.Random(seed), scene.board, discs=16, habits=VARIED_HABITS,
                         poses=1.0)
    assert any(d.pose != "flat" for d in state.discs)
    with_discs = render(state, scene, seed=2).astype(np.int16)
    empty = render(BoardState(), scene, seed=2).astype(np.int16)
    diff = np.abs(with_discs - empty).max(axis=2)
    t = truth(state, scene, seed=2)
    near = np.zeros(diff.shape, bool)
    for d in t["discs"]:
        near |= disc_mask(diff.shape, d["pixel"], 3.2 * d["radius_px"] + 4)
        for sp in t.get("spares", []):
            near |= disc_mask(diff.shape, sp["pixel"], 3.2 * sp["radius_px"] + 4)
        if d["visible"] < 1 or d["under"]:
            continue
        inside = disc_mask(diff.shape, d["pixel"], 0.6 * d["radius_px"])
        assert diff[inside].mean() > 6, d
    assert (diff[~near] == 0).all()


def test_a_leaning_disc_shows_its_top_where_the_truth_says():
    """A plain light disc leaning on a peg, seen from straight above: the centroid of its top
    face is the projected centre of the tilted top, not where a flat disc would show."""
    rig = CameraRig(1600, 1200, 1600.0, 1600.0, 800.0, 600.0, height_mm=1100.0)
    plain = DiscSet("plain", (40, 40, 40), (240, 240, 240), grain=0.0)
    look = BoardLook(surface="painted", surface_rgb=(60, 60, 60), grain=0.0, numerals=False,
                     quadrant_lines=False, discs=plain, line_rgb=(20, 20, 20))
    scene = Scene(rig, look, Lighting(shadow=0.0), CLEAN)
    px, py = STANDARD.pegs()[0]
    a = math.radians(20.0)
    out = STANDARD.disc_radius * math.cos(a) + STANDARD.disc_thickness / 2 * math.sin(a)
    d = STANDARD.peg_diameter / 2 + out
    disc = PlacedDisc(px - d, py, 1, pose="leaning", tilt_deg=20.0, tilt_toward_deg=0.0)
    t = truth(BoardState((disc,)), scene)["discs"][0]
    assert t["pose"] == "leaning" and t["needs_flag"] and t["why"] == ["leaning"]
    assert t["top_z_mm"] > STANDARD.disc_thickness + 3  # its raised side lifts the top
    img = render(BoardState((disc,)), scene).astype(np.float64)
    u0, v0 = int(t["pixel"][0]) - 40, int(t["pixel"][1]) - 40
    face = np.clip((img[v0:v0 + 81, u0:u0 + 81].mean(axis=2) - 200) / 30, 0, 1)
    v, u = np.mgrid[:81, :81]
    seen = np.array([u0 + (u * face).sum() / face.sum(), v0 + (v * face).sum() / face.sum()])
    assert np.linalg.norm(seen - t["pixel"]) < 0.6
    flat = rig.project(np.array([disc.x_mm, disc.y_mm, STANDARD.disc_thickness]))
    assert np.linalg.norm(seen - flat) > 1.2  # tilted: higher, and moved off the peg


def test_a_stacked_disc_and_the_one_under_it_need_a_flag():
    under = PlacedDisc(150.0, 0.0, 0)
    top = PlacedDisc(153.0, 2.0, 1, pose="stacked")
    scene = Scene.random(random.Random(2), width=320, height=240)
    t = truth(BoardState((under, top)), scene)["discs"]
    assert t[0]["under"] and t[0]["needs_flag"] and t[0]["why"] == ["under a stacked disc"]
    assert t[1]["needs_flag"] and t[1]["why"] == ["stacked"]
    assert t[1]["base_z_mm"] == pytest.approx(STANDARD.disc_thickness)
    ditch = PlacedDisc(0.0, -(STANDARD.ditch_radius - 20.0), 0, pose="leaning", tilt_deg=35.0,
                       tilt_toward_deg=270.0)
    (d,) = truth(BoardState((ditch,)), scene)["discs"]
    assert d["pose"] == "leaning" and d["in_ditch"] and not d["needs_flag"]  # scores 0 anyhow


def test_frames_with_a_frame_shaped_ditch_and_square_rail():
    look = BoardLook(rail="square", ditch_outline="frame", ditch_rgb=(200, 30, 30),
                     ditch_finish="felt", rail_rgb=(30, 30, 200), grain=0.0, numerals=False)
    pic = board_picture(look, STANDARD, 1.0)
    col, row = pic.to_texture(np.array([370.0, 0.0]), np.array([370.0, -360.0]))
    corner, edge = (pic.atlas[round(float(r)), round(float(c))]
                    for c, r in zip(col, row, strict=True))
    assert corner[2] > 120 and corner[0] < 80  # the corner of the square ditch: red felt
    assert edge[2] > 120  # and in front of a side, as on a round ditch
    x, y = np.array([370.0, 0.0, 300.0]), np.array([370.0, 379.0, -200.0])
    assert rail_inner(look, STANDARD, x, y).tolist() == [370.0, 379.0, 300.0]  # a square's
    assert rail_inner(replace(look, ditch_outline="round"), STANDARD, x, y)[0] > 500
    scene = Scene(CameraRig(640, 480, 520.0, 520.0, 320.0, 240.0, height_mm=1100.0), look,
                  Lighting(), CLEAN)
    img = render(BoardState(), scene)
    corner_px = scene.rig.project(np.array([360.0, 360.0, 0.0])).round().astype(int)
    b, _, r = img[corner_px[1], corner_px[0]]
    assert r > 100 and b < 80  # the frame sees ditch, not rail, in the corner


def test_veneer_seams_darken_the_planks_edges():
    look = BoardLook(grain=0.0, seams=0.6, grain_angle_deg=0.0, plank_width_mm=100.0,
                     numerals=False, quadrant_lines=False, surface_rgb=(220, 180, 130))
    pic = board_picture(look, STANDARD, 2.0)
    # the grain along x: planks are bands in y, their edges at y = 100 k
    cols, rows = pic.to_texture(np.full(81, 250.0), np.linspace(60.0, 140.0, 81))
    lum = np.array([luma(tuple(int(v) for v in pic.atlas[int(r), int(c)][::-1]))
                    for c, r in zip(cols, rows, strict=True)])
    assert lum[40] < lum.mean() - 40  # at y = 100
    assert lum[:30].std() < 12


def test_two_shades_worn_discs_and_a_third_set():
    rig = CameraRig(800, 600, 800.0, 800.0, 400.0, 300.0, height_mm=1100.0)
    discs = DiscSet("two", (30, 30, 32), (200, 40, 40), 0.0, second_rgb=(150, 30, 30),
                    second_team=1)
    look = BoardLook(surface="painted", surface_rgb=(220, 200, 160), grain=0.0, discs=discs,
                     spare_rgb=(40, 160, 80), spares=4, numerals=False)
    scene = Scene(rig, look, Lighting(), CLEAN)
    state = BoardState(tuple(PlacedDisc(60.0 * math.cos(k), 60.0 * math.sin(k) + 120 * (k % 2),
                                        1) for k in range(8)))
    img = render(state, scene, seed=1)
    t = truth(state, scene, seed=1)
    reds = [img[disc_mask(img.shape[:2], d["pixel"], 0.5 * d["radius_px"])].mean(axis=0)[2]
            for d in t["discs"]]
    assert min(reds) < 170 < max(reds)  # team 1 in two shades
    assert len(t["spares"]) == 4 and "third set in the ditch" in t["tags"]["hazards"]
    for sp in t["spares"]:
        assert STANDARD.surface_radius < math.hypot(sp["x_mm"], sp["y_mm"]) < STANDARD.ditch_radius
        b, g, r = img[disc_mask(img.shape[:2], sp["pixel"], 0.5 * sp["radius_px"])].mean(axis=0)
        assert g > r + 40 and g > b + 30
    worn = replace(scene, look=replace(look, discs=replace(discs, worn=0.7,
                                                           wear_rgb=(230, 220, 200))))
    rubbed = render(state, worn, seed=1)
    rubs = []
    for d in t["discs"]:  # paint rubbed through to the pale wood below, on every disc
        m = disc_mask(img.shape[:2], d["pixel"], 0.95 * d["radius_px"])
        rubs.append(np.abs(rubbed[m].astype(int) - img[m].astype(int)).max(axis=1).mean())
    assert min(rubs) > 4 and np.mean(rubs) > 10


def test_arms_hide_the_discs_below_them_and_say_so():
    rig = CameraRig(640, 480, 560.0, 560.0, 320.0, 240.0, height_mm=1100.0)
    sur = Surroundings(players=1.0, skins=((200, 150, 115),), sleeves=((40, 60, 120),))
    scene = Scene(rig, BoardLook(), Lighting(), CLEAN, surroundings=sur)
    state = BoardState(tuple(PlacedDisc(x, 0.0, 0) for x in (-250.0, 0.0 + 60, 250.0)))
    for seed in range(40):  # a frame with an arm reaching over the surface
        t = truth(state, scene, seed)
        if t.get("arms") and any(d["visible"] < 0.5 for d in t["discs"]):
            break
    else:
        pytest.fail("no arm over a disc in 40 frames")
    assert "arms" in t["tags"]["hazards"]
    hidden = [d for d in t["discs"] if d["visible"] < 0.5]
    assert all(d["needs_flag"] and "hidden" in d["why"] for d in hidden)
    img = render(state, scene, seed)
    bare = render(state, replace(scene, surroundings=Surroundings()), seed)
    for d in hidden:  # the arm, not the disc, shows there
        m = disc_mask(img.shape[:2], d["pixel"], 0.5 * d["radius_px"])
        assert np.abs(img[m].astype(int) - bare[m].astype(int)).mean() > 20
    arm = Arm(**t["arms"][0])
    assert math.hypot(arm.x1, arm.y1) < math.hypot(arm.x0, arm.y0)  # reaching in


def test_things_on_the_table_stay_off_the_board():
    """The table's things change the frame only beyond the rail, never the board."""
    for seed in range(60):
        scene = SCENES[seed]
        if scene.surroundings.props and scene.rig.view == "pi":
            break
    scene = replace(small(scene, 480, 360), sensor=CLEAN, lighting=Lighting(),
                    surroundings=replace(scene.surroundings, players=0.0))
    bare = replace(scene, surroundings=Surroundings())
    a = render(BoardState(), scene).astype(int)
    b = render(BoardState(), bare).astype(int)
    changed = np.abs(a - b).max(axis=2) > 0
    assert changed.any()
    v, u = np.nonzero(changed)
    ground = scene.rig.ground(np.stack([u, v], axis=-1).astype(float), scene.look.rail_height_mm)
    from hw_sim.look import rail_outer

    beyond = rail_outer(scene.look, scene.board, ground[:, 0], ground[:, 1])
    assert (beyond > scene.board.ditch_radius + scene.look.rail_width_mm - 4).all()


def test_phone_and_video_views():
    phones = [CameraRig.phone(random.Random(s)) for s in range(30)]
    assert all(p.view == "phone" and 2 <= p.tilt_deg <= 9 for p in phones)
    assert any(not p.sees_circle(STANDARD.ditch_radius) for p in phones)  # part cut off
    assert any(p.sees_circle(STANDARD.ditch_radius) for p in phones)
    videos = [CameraRig.video(random.Random(s)) for s in range(30)]
    for v in videos:
        assert (v.width, v.height, v.view) == (1280, 720, "video")
        assert v.sees_circle(STANDARD.surface_radius)
        disc_px = STANDARD.disc_diameter * v.fx / v.height_mm
        assert 24 <= disc_px <= 31
    assert 26 < np.median([STANDARD.disc_diameter * v.fx / v.height_mm for v in videos]) < 30
    assert Sensor.phone(random.Random(1)).sharpen > 0


def test_a_disc_cut_off_by_the_frame_needs_a_flag():
    rig = CameraRig(640, 480, 560.0, 560.0, 320.0, 240.0, height_mm=700.0, offset_x_mm=150.0)
    scene = Scene(rig, BoardLook(), Lighting(), CLEAN)
    state = BoardState((PlacedDisc(-290.0, 0.0, 1), PlacedDisc(100.0, 0.0, 0)))
    far, near = truth(state, scene)["discs"]
    assert far["visible"] == 0 and far["needs_flag"] and far["why"] == ["out of the frame"]
    assert near["visible"] == 1 and not near["needs_flag"]


def test_varnish_glare_is_a_sharp_bright_band():
    light = Lighting(glare=150.0, glare_shape="strip", glare_at=(0.5, 0.5), glare_radius=0.08,
                     glare_deg=0.0, glare_length=0.4)
    field = light_field(light, 800, 600)
    row = field.glare[:, 400].mean(axis=1)
    assert row.max() > 100 and row[0] < 1 and row[-1] < 1
    bright = np.nonzero(row > 0.5 * row.max())[0]
    assert 10 < len(bright) < 60  # a band, not a spot's wide falloff
    window = replace(light, glare_shape="window")
    assert light_field(window, 800, 600).glare.max() > 60
    looks = [Lighting.varied(random.Random(s)) for s in range(40)]
    assert {lt.glare_shape for lt in looks if lt.glare > 0} == {"spot", "window", "strip"}


def test_render_command_writes_varied_looks_with_their_tags(tmp_path):
    from hw_sim.__main__ import main

    assert main(["render", "--out", str(tmp_path), "--frames", "2", "--seed", "4", "--width",
                 "200", "--height", "150", "--looks", "varied", "--views", "video",
                 "--boards", "layouts"]) == 0
    index = json.loads((tmp_path / "index.json").read_text())
    for entry in index:
        t = json.loads((tmp_path / entry["truth"]).read_text())
        assert entry["tags"] == t["tags"] and t["tags"]["view"] == "video"
        assert set(t["tags"]) == {"board_colour", "frame", "ditch", "proportions", "surface_in",
                                  "view", "hazards"}
        assert cv2.imread(str(tmp_path / entry["image"])).shape == (150, 200, 3)
        for d in t["discs"]:
            assert {"pose", "visible", "needs_flag", "why"} <= set(d)
