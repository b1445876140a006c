"""Golden pictures of the scoreboard: every rule set and moment, as the dummy panel received it.

The pictures are compared pixel for pixel (decoded, not as PNG bytes: zlib builds compress the
same pixels differently). A change to the layout that is meant shows up here as a failure; to
accept it, regenerate on purpose and look at the new pictures before committing them:

    CROKISCORE_UPDATE_GOLDEN=1 .venv/bin/pytest tests/device/test_scoreboard_golden.py

and, to see them all at once, ``python -m tests.device.scenes /tmp/scenes.png``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PIL import Image

from device.hardware.display import DummyDisplay
from device.screen.draw import render
from tests.device.scenes import SCENES, Scene

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("CROKISCORE_UPDATE_GOLDEN") == "1"


def _frame(scene: Scene) -> Image.Image:
    with DummyDisplay(scene.width, scene.height, scene.mode) as panel:
        panel.show(render(scene.view(), panel.width, panel.height, panel.mode))
        assert panel.image is not None
        return panel.image.copy()


@pytest.mark.parametrize("scene", SCENES, ids=lambda s: s.name)
def test_scoreboard_matches_its_golden_picture(scene: Scene, tmp_path: Path) -> None:
    got = _frame(scene)
    path = GOLDEN / f"{scene.name}.png"
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        got.save(path, format="PNG")
    assert path.exists(), (f"no golden picture {path.name}; make it with "
                           "CROKISCORE_UPDATE_GOLDEN=1 and look at it before committing")
    with Image.open(path) as want:
        want.load()
    if (want.mode, want.size, want.tobytes()) != (got.mode, got.size, got.tobytes()):
        got.save(tmp_path / path.name)
        a, b = want.convert("L").tobytes(), got.convert("L").tobytes()
        differ = sum(x != y for x, y in zip(a, b, strict=False)) if want.size == got.size else -1
        pytest.fail(f"{scene.name}: the frame differs from {path} ({differ} pixels differ; "
                    f"this run's frame is {tmp_path / path.name}). If the change is meant, "
                    "regenerate with CROKISCORE_UPDATE_GOLDEN=1 and look at the pictures.")


def test_every_golden_picture_belongs_to_a_scene() -> None:
    """A scene renamed or dropped must not leave a stale picture behind."""
    names = {s.name for s in SCENES}
    stale = sorted(p.stem for p in GOLDEN.glob("*.png") if p.stem not in names)
    assert not stale, f"golden pictures without a scene: {stale}"


def test_scenes_cover_every_rule_set_and_moment() -> None:
    views = {s.name: s.view() for s in SCENES}
    assert {v.rules for v in views.values()} >= {"tournament-singles", "tournament-doubles",
                                                 "casual-100", "casual-100-doubles",
                                                 "crokidarts"}
    seen = set()
    for v in views.values():
        seen.add("check" if v.check else "twenty" if v.twenty is not None else
                 "error" if v.errors else "over" if v.finished else str(v.awaiting))
        if v.checkout:
            seen.add("checkout")
        if v.turn is not None:
            seen.add("turn")
        if any(v.legs) or any(v.sets):
            seen.add("legs")
    assert seen >= {"shot", "board", "check", "twenty", "error", "over", "checkout", "turn",
                    "legs"}
    assert {(s.width, s.mode) for s in SCENES} >= {(128, "1"), (256, "L")}
