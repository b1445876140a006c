import json
import math
import random
from dataclasses import replace

import cv2
import numpy as np
import pytest

from hw_sim.camera import Scene, render, truth
from hw_sim.discs import BoardState, PlacedDisc
from hw_sim.layouts import end_of_round
from hw_sim.lighting import Lighting, Sensor
from hw_sim.look import DISC_SETS, BoardLook, DiscSet, board_picture
from hw_sim.rig import CameraRig
from rules.board import STANDARD as B

CLEAN = Sensor(noise=0.0, blur=0.0)


def random_scene(seed, width=1014, height=760, **changes):
    scene = Scene.random(random.Random(seed), width=width, height=height)
    return replace(scene, **changes)


def sample(img, uv):
    """Bilinear samples (N, 3) of a frame at sub-pixel positions (N, 2)."""
    uv = np.asarray(uv, np.float32).reshape(-1, 1, 2)
    return cv2.remap(img.astype(np.float32), uv[..., 0], uv[..., 1], cv2.INTER_LINEAR).reshape(
        -1, 3)


def luma(bgr):
    bgr = np.asarray(bgr, np.float64)
    return 0.114 * bgr[..., 0] + 0.587 * bgr[..., 1] + 0.299 * bgr[..., 2]


def centroid(weight, u0, v0):
    """The weighted centroid of a window whose top-left pixel is (u0, v0)."""
    v, u = np.mgrid[:weight.shape[0], :weight.shape[1]]
    total = weight.sum()
    return np.array([u0 + (u * weight).sum() / total, v0 + (v * weight).sum() / total])


def disc_mask(shape, pixel, radius):
    v, u = np.mgrid[:shape[0], :shape[1]]
    return np.hypot(u - pixel[0], v - pixel[1]) < radius


@pytest.mark.parametrize("seed", [2, 5])
def test_the_board_lands_where_the_camera_model_says(seed):
    """The 20 hole and the outer line sit, in the frame, where OpenCV projects them with the
    camera written in the frame's truth."""
    look = replace(BoardLook.random(random.Random(seed)), surface="wood",
                   surface_rgb=(214, 160, 110), line_rgb=(20, 20, 20), hole_rgb=(20, 20, 20),
                   numerals=False, quadrant_lines=False)
    scene = random_scene(seed, look=look, lighting=Lighting(), sensor=CLEAN)
    cam = json.loads(json.dumps(truth(BoardState(), scene)["camera"]))

    def project(points):
        uv, _ = cv2.projectPoints(np.asarray(points, np.float64), np.array(cam["rvec"]),
                                  np.array(cam["tvec"]), np.array(cam["matrix"]),
                                  np.array(cam["distortion"]))
        return uv.reshape(-1, 2)

    img = render(BoardState(), scene)
    # the hole: the centroid of its dark pixels is the projected centre
    (cu, cv), = project([[0.0, 0.0, 0.0]])
    u0, v0 = int(cu) - 30, int(cv) - 30
    dark = np.clip((170 - luma(img[v0:v0 + 61, u0:u0 + 61])) / 150, 0, 1)  # hole 1, wood 0
    assert math.dist(centroid(dark, u0, v0), (cu, cv)) < 0.1
    # the outer line: dark where projected, wood 6 mm either side (away from the pegs)
    a = np.radians(np.arange(0, 360, 7.5) + 3.0)
    ring = lambda r: np.stack([r * np.cos(a), r * np.sin(a), np.zeros_like(a)], axis=-1)  # noqa: E731
    on = luma(sample(img, project(ring(B.outer_radius))))
    inside = luma(sample(img, project(ring(B.outer_radius - 6))))
    outside = luma(sample(img, project(ring(B.outer_radius + 6))))
    assert (inside - on > 40).all() and (outside - on > 40).all()
    # and a projection 4 mm off the line misses it
    off = luma(sample(img, project(ring(B.outer_radius + 4))))
    assert (off - on > 30).all()


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_discs_show_where_the_truth_says_and_nowhere_else(seed):
    scene = random_scene(seed)
    state = end_of_round(random.Random(seed), discs=18)
    with_discs = render(state, scene, seed=4).astype(np.int16)
    empty = render(BoardState(), scene, seed=4).astype(np.int16)
    diff = np.abs(with_discs - empty).max(axis=2)
    t = truth(state, scene)
    mm = scene.rig.mm_per_px()
    near = np.zeros(diff.shape, bool)
    light = scene.lighting
    # a disc's shadow reaches its length plus its softness beyond the disc's foot
    reach_mm = (B.disc_radius + max(light.shadow_length(B.disc_thickness)
                                    + light.shadow_softness_mm, 2.5) + 2.5)
    for d in t["discs"]:
        inside = disc_mask(diff.shape, d["pixel"], 0.7 * d["radius_px"])
        assert diff[inside].mean() > 12, d
        near |= disc_mask(diff.shape, d["pixel"], reach_mm / mm + 3 * scene.sensor.blur + 2)
    assert near.any() and (diff[~near] == 0).all()


@pytest.mark.parametrize("seed", range(6))
def test_each_disc_wears_its_team_colour(seed):
    look = replace(BoardLook.random(random.Random(seed)), discs=DISC_SETS[seed % len(DISC_SETS)])
    scene = random_scene(seed, look=look, lighting=Lighting())
    state = end_of_round(random.Random(100 + seed), discs=16)
    img = render(state, scene, seed=seed)
    colours = [np.array(look.team_rgb(t)[::-1], np.float64) for t in (0, 1)]
    for d in truth(state, scene)["discs"]:
        mean = img[disc_mask(img.shape[:2], d["pixel"], 0.6 * d["radius_px"])].mean(axis=0)
        own, other = (np.linalg.norm(mean - colours[k]) for k in (d["team"], 1 - d["team"]))
        assert own < 30 and own < other, (d, mean)


def test_top_face_is_shifted_outward_by_parallax():
    """A disc in the ditch, seen from 1.2 m straight above: its top face shows about 4.6 px
    further out than its foot would, as the pinhole model says, and the image agrees, with the
    side facing the camera showing between them."""
    rig = CameraRig(2028, 1520, 1976.0, 1976.0, 1014.0, 760.0, height_mm=1200.0)
    plain = DiscSet("plain", (40, 40, 40), (230, 220, 190), grain=0.0)  # no figure to bias
    look = replace(BoardLook(), ditch_rgb=(30, 30, 30), ditch_depth_mm=10.0, discs=plain)
    scene = Scene(rig, look, Lighting(), CLEAN)
    state = BoardState((PlacedDisc(355.0, 0.0, 1), PlacedDisc(0.0, -355.0, 1)))
    img = render(state, scene)
    f, h = 1976.0, 1200.0
    for d, (ux, uy) in zip(truth(state, scene)["discs"], ((1, 0), (0, 1)), strict=True):
        shift = np.subtract(d["pixel"], d["base_pixel"])
        expected = f * 355.0 * (1 / (h - d["top_z_mm"]) - 1 / (h - d["base_z_mm"]))
        assert expected == pytest.approx(4.6, abs=0.1)
        assert shift == pytest.approx([ux * expected, uy * expected], abs=2e-3)  # 3 decimals
        # the image: the centroid of the bright top face is the top's projection
        u0, v0 = int(d["pixel"][0]) - 40, int(d["pixel"][1]) - 40  # the disc is 53 px across
        top = luma(look.discs.light_rgb[::-1])
        face = np.clip((luma(img[v0:v0 + 81, u0:u0 + 81]) - 0.8 * top) / (0.15 * top), 0, 1)
        seen = centroid(face, u0, v0)
        assert np.linalg.norm(seen - d["pixel"]) < 0.08
        assert np.linalg.norm(seen - d["base_pixel"]) > 4.4
        # the side facing the camera shows as a band between the top face and the foot
        inward = np.array(d["pixel"]) - np.array([ux, uy]) * (d["radius_px"] + 2.0)
        outward = np.array(d["pixel"]) + np.array([ux, uy]) * (d["radius_px"] + 2.0)
        band, ditch = luma(sample(img, [inward]))[0], luma(sample(img, [outward]))[0]
        assert band > ditch + 15


def test_same_seed_same_frame():
    scene = random_scene(21, width=640, height=480)
    state = end_of_round(random.Random(21), discs=12)
    first = render(state, scene, seed=3)
    board_picture.cache_clear()
    assert np.array_equal(first, render(state, scene, seed=3))
    assert not np.array_equal(first, render(state, scene, seed=4))
    assert first.shape == (480, 640, 3) and first.dtype == np.uint8


def test_truth_is_json_ready_and_says_what_the_rules_say():
    scene = random_scene(8, width=320, height=240)
    state = end_of_round(random.Random(8), discs=20)
    t = json.loads(json.dumps(truth(state, scene)))
    assert np.allclose(t["camera"]["matrix"], scene.rig.camera_matrix())
    assert np.allclose(t["camera"]["distortion"], scene.rig.dist_coeffs())
    assert (t["camera"]["width"], t["camera"]["height"]) == (320, 240)
    assert t["board"]["outer_radius"] == B.outer_radius
    assert len(t["discs"]) == 20
    for d, disc in zip(t["discs"], state.discs, strict=True):
        assert (d["x_mm"], d["y_mm"]) == pytest.approx((disc.x_mm, disc.y_mm), abs=0.01)
        assert d["team"] == disc.team and d["zone"] == disc.zone(B)
        assert 0 <= d["pixel"][0] < 320 and 0 <= d["pixel"][1] < 240
    assert t["totals"] == list(state.totals(B))


@pytest.mark.parametrize(("disc", "message"), [
    (PlacedDisc(0.0, 100.0, 2), "team 2"),
    (PlacedDisc(0.0, 400.0, 1), "beyond the ditch"),
    (PlacedDisc(float("nan"), 0.0, 0), "beyond the ditch"),
])
def test_impossible_discs_are_refused_by_name(disc, message):
    scene = random_scene(1, width=320, height=240)
    with pytest.raises(ValueError, match=message):
        render(BoardState((disc,)), scene)
