"""The scoreboard's moments, as matches built event by event: what the golden pictures show.

Each scene is a match (made with the builders, or a seeded scripted match cut at a chosen moment)
plus the daemon's status, and the panel it is drawn for. The same list drives the golden tests and
``python -m tests.device.scenes OUT.png``, which draws them all on one sheet, four times enlarged,
to look at.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from dataclasses import dataclass

from device.screen.view import ScoreView, Status, build
from hw_sim.scripted import play
from rules import DartsSummary, Match, Shot, fold
from tests.builders import board, dart, play_round, shoot, start


@dataclass(frozen=True)
class Scene:
    name: str
    make: Callable[[], tuple[Match, Status]]
    width: int = 128
    height: int = 64
    mode: str = "1"

    def view(self) -> ScoreView:
        match, status = self.make()
        return build(match, status)


def _cut(rules: str, seed: int, until: Callable[[Match], bool], **kw: object) -> Match:
    """The seeded scripted match of ``rules`` at the first moment ``until`` holds."""
    events = play(rules, random.Random(seed), **kw)  # type: ignore[arg-type]
    m = fold([next(events)])
    for ev in events:
        m = m.apply(ev)
        if until(m):
            return m
    raise AssertionError(f"the {rules} match of seed {seed} never reached the moment asked for")


# --- round games ----------------------------------------------------------------------------------

def singles_start() -> tuple[Match, Status]:
    return start("tournament-singles"), Status()


def singles_mid() -> Match:
    """Round 2 of 4, five shots in, a 20 for Ann on her first shot of the round."""
    m = start("tournament-singles")
    m = play_round(m, [15, 10, 5], [15, 15], twenties={3: [None]})
    return shoot(m, 5, twenties={0: [None]})


def singles_board() -> tuple[Match, Status]:
    m = play_round(start("tournament-singles"), [15], [10, 10])
    return shoot(m), Status()


def singles_check() -> tuple[Match, Status]:
    m = play_round(start("tournament-singles"), [15], [10])
    m = shoot(m, twenties={2: [None]})
    return m.apply(board((0, 15, True), (0, 10), (1, 5))), Status()


def singles_over() -> tuple[Match, Status]:
    m = start("tournament-singles")
    for zones in ([15, 15], [10], [5, 5], [15]):
        m = play_round(m, zones, [10])
    return m, Status()


def doubles_mid() -> tuple[Match, Status]:
    m = start("tournament-doubles", ["Ann", "Bob", "Cat", "Dan"])
    m = play_round(m, [15, 10], [10, 5], twenties={6: [None]})
    return shoot(m, 7), Status()


def casual_mid() -> tuple[Match, Status]:
    m = start("casual-100", ["Tan", "Red"])
    m = play_round(m, [15, 15, 10], [10])
    m = play_round(m, [5], [15, 15, 10], twenties={3: [None]})
    return shoot(m, 9), Status()


def casual_doubles_over() -> tuple[Match, Status]:
    m = _cut("casual-100-doubles", 7, lambda m: m.finished,
             players=("Anneliese", "Bartholomew", "Cat", "Dan"))
    return m, Status()


def casual_long_names() -> tuple[Match, Status]:
    m = start("casual-100", ["Zoë Ångström", "Bartholomew"])
    return shoot(play_round(m, [15, 15, 10, 10], [5]), 3), Status()


# --- crokidarts -----------------------------------------------------------------------------------

def _win_leg(m: Match, seat: int) -> Match:
    """Seat ``seat`` drops a 20 with every disc (400 in four turns, then the checkout 20) while
    the other misses everything, until the leg is won."""
    def tally(m: Match) -> tuple[object, object]:
        s = m.summary()
        assert isinstance(s, DartsSummary)
        return s.legs, s.sets

    before = tally(m)
    while m.expect().what is not None and tally(m) == before:
        m = dart(m, twenties=1) if m.expect().seat == seat else dart(m)
    return m


def darts_turn() -> tuple[Match, Status]:
    """Ann's third turn: 120 after two turns, then a 20 and a 15 on the board."""
    m = start("crokidarts")
    for _ in range(2):
        for _ in range(5):
            m = dart(m, twenties=1) if m.expect().seat == 0 else dart(m, 10)
        for _ in range(5):
            m = dart(m, 10) if m.expect().seat == 1 else dart(m)
    m = dart(m, twenties=1)
    m = dart(m, 15)
    return m, Status()


def darts_checkout() -> tuple[Match, Status]:
    """Ann on exactly 400: her next shot is the checkout."""
    m = start("crokidarts")
    while not m.expect().checkout:
        m = dart(m, twenties=1) if m.expect().seat == 0 else dart(m, 5)
    return m, Status()


def darts_legs() -> tuple[Match, Status]:
    """Into the second set (Ann took the first), a leg each in it, Bob's turn due."""
    m = start("crokidarts")
    for seat in (0, 0, 0, 1, 0):
        m = _win_leg(m, seat)
    return m, Status()


def darts_bust() -> tuple[Match, Status]:
    m = _cut("crokidarts", 3, lambda m: bool(m.summary().to_json()["rounds"])
             and m.summary().to_json()["rounds"][-1]["status"] == "bust")
    return m, Status()


def darts_over() -> tuple[Match, Status]:
    return _cut("crokidarts", 11, lambda m: m.finished, options={"legs": 2, "sets": 1}), Status()


def darts_check() -> tuple[Match, Status]:
    m = dart(dart(start("crokidarts"), twenties=1), 10)
    m = m.apply(Shot(0))
    return m.apply(board((0, 15, True), (0, 10))), Status()


SCENES: tuple[Scene, ...] = (
    Scene("singles-start", singles_start),
    Scene("singles-mid", lambda: (singles_mid(), Status())),
    Scene("singles-board", singles_board),
    Scene("singles-check", singles_check),
    Scene("singles-twenty", lambda: (singles_mid(), Status(twenty=0))),
    Scene("singles-error", lambda: (singles_mid(), Status(errors=("camera lost",)))),
    Scene("singles-errors", lambda: (singles_mid(),
                                     Status(errors=("sensor bar unplugged", "camera lost")))),
    Scene("singles-message", lambda: (singles_mid(), Status(message="undone"))),
    Scene("singles-over", singles_over),
    Scene("doubles-mid", doubles_mid),
    Scene("casual-mid", casual_mid),
    Scene("casual-long-names", casual_long_names),
    Scene("casual-doubles-over", casual_doubles_over),
    Scene("darts-turn", darts_turn),
    Scene("darts-checkout", darts_checkout),
    Scene("darts-legs", darts_legs),
    Scene("darts-bust", darts_bust),
    Scene("darts-check", darts_check),
    Scene("darts-over", darts_over),
    Scene("wide-singles-mid", lambda: (singles_mid(), Status()), 256, 64, "L"),
    Scene("wide-doubles-mid", doubles_mid, 256, 64, "L"),
    Scene("wide-casual-mid", casual_mid, 256, 64, "L"),
    Scene("wide-darts-turn", darts_turn, 256, 64, "L"),
    Scene("wide-darts-legs", darts_legs, 256, 64, "L"),
    Scene("wide-singles-check", singles_check, 256, 64, "L"),
    Scene("wide-twenty", lambda: (singles_mid(), Status(twenty=1)), 256, 64, "L"),
    Scene("wide-error", lambda: (singles_mid(), Status(errors=("display retry", "camera lost"))),
          256, 64, "L"),
    Scene("wide-singles-over", singles_over, 256, 64, "L"),
    Scene("wide-mono-doubles", doubles_mid, 256, 64, "1"),
)


def sheet(scenes: tuple[Scene, ...] = SCENES, zoom: int = 4):  # type: ignore[no-untyped-def]
    """All scenes on one picture, enlarged, each with its name above it."""
    from PIL import Image, ImageDraw

    from device.screen.draw import render
    from device.screen.glyphs import draw_text

    pad = 12
    width = max(s.width for s in scenes)
    height = sum(s.height + pad for s in scenes)
    out = Image.new("L", (width + 8, height + 4), 60)
    d = ImageDraw.Draw(out)
    y = 2
    for s in scenes:
        draw_text(d, (4, y + 2), s.name, 200)
        img = render(s.view(), s.width, s.height, s.mode).convert("L")
        out.paste(img, (4, y + pad - 1))
        y += s.height + pad
    return out.resize((out.width * zoom, out.height * zoom), Image.Resampling.NEAREST)


if __name__ == "__main__":
    sheet().save(sys.argv[1] if len(sys.argv) > 1 else "scoreboard-scenes.png")
