"""The scorekeeper and its shell under any inputs and any failing effect, without threads.

The store and the screen are real (SQLite, luma's dummy device through the OLED screen); a thin
layer in front of each makes chosen calls fail the way the card and the panel do, by the error
types the real parts raise. Whatever the inputs and whenever the failures: the loop never raises,
and once the store works again (and, if it was damaged, the operator repaired it from the menu)
it holds exactly the match the display shows.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from device.core.inputs import ButtonPressed, HoleDrop, Operator, Tick, TouchChanged
from device.core.state import Settings
from device.errors import DisplayError, StoreDamaged, StoreFull, StoreReadOnly
from device.hardware.display import DummyDisplay
from device.screen.screen import OledScreen
from device.shell import Shell, StoreHandle
from device.store import EventStore
from hw_sim.scripted import play
from rules import Confirm, Foul, NewMatch, Shot, Twenty, Undo, fold

START = NewMatch("casual-100", ("Ann", "Bob"))
TROUBLES = (StoreFull("card full"), StoreReadOnly("card read-only"), StoreDamaged("page spoilt"))


class FailingStore(StoreHandle):
    """The real store, but the next writes fail as the schedule says (one entry per write:
    None to let it through, or the error to raise)."""

    def __init__(self, path: str, schedule: list) -> None:
        super().__init__(path)
        self.schedule = schedule
        self.damaged = False

    def write(self, effect):
        trouble = self.schedule.pop(0) if self.schedule else None
        if self.damaged:
            raise StoreDamaged("still damaged: repair it")
        if trouble is not None:
            self.damaged = isinstance(trouble, StoreDamaged)
            raise trouble
        return super().write(effect)

    def repair(self, now, current):
        self.damaged = False
        super().repair(now, current)


class FailingScreen(OledScreen):
    def __init__(self, schedule: list) -> None:
        super().__init__(DummyDisplay())
        self.schedule = schedule

    def show(self, match, status):
        if self.schedule and self.schedule.pop(0):
            raise DisplayError("cable loose")
        super().show(match, status)
        self.shown = match


def inputs_from(seed: int, noise: list[int]):
    """A real match's events, with nonsense and button presses mixed in at the chosen places."""
    rng = random.Random(seed)
    events = list(play("casual-100", rng))[1:]
    out, t = [], 1000.0
    junk = [Shot(1), Twenty(), Foul(), Confirm(), Undo(), NewMatch("crokidarts", ("Cy", "Di"))]
    presses = ["menu", "ok", "back"]
    for i, ev in enumerate(events[:60]):
        t += 1.0
        if i in noise:
            k = noise.index(i)
            if k % 3 == 0:
                out.append(Operator(junk[k % len(junk)], t))
            elif k % 3 == 1:
                out.append(ButtonPressed(presses[k % 3], k % 2 == 0, t))
            else:
                out.append(TouchChanged(k % 4, k % 2 == 0, t))
        out.append(Operator(ev, t) if not isinstance(ev, Twenty) else HoleDrop(t, 5.0))
        if i % 7 == 0:
            out.append(Tick(t + 0.5))
    return out


@settings(max_examples=40)
@given(seed=st.integers(0, 50),
       noise=st.lists(st.integers(0, 59), max_size=8, unique=True),
       store_faults=st.lists(st.one_of(st.none(), st.sampled_from(TROUBLES)), max_size=80),
       screen_faults=st.lists(st.booleans(), max_size=60))
def test_any_inputs_and_any_failing_effect_lose_nothing_shown(tmp_path_factory, seed, noise,
                                                             store_faults, screen_faults):
    path = tmp_path_factory.mktemp("store") / "events.db"
    clock = [1000.0]
    store = FailingStore(str(path), list(store_faults))
    screen = FailingScreen(list(screen_faults))
    shell = Shell(Settings(START, camera=False), store, screen,
                  clock=lambda: clock[0], wall=lambda: clock[0])
    shell.start()
    for inp in inputs_from(seed, noise):
        clock[0] = inp.at
        shell.step(inp)                      # never raises, whatever fails
    # the card is fine again: time passes; a damaged store is repaired from the menu
    store.schedule.clear()
    screen.schedule.clear()
    for _ in range(3):
        clock[0] += 100.0
        shell.step(Tick(clock[0]))
        if shell.state.ledger.damaged:
            for button in ("menu", "ok", "ok"):  # [Repair store] comes first; "Move aside?" ok
                shell.step(ButtonPressed(button, False, clock[0]))
    assert shell.waiting == 0 and "store" not in shell.faults
    assert "display" not in shell.faults and screen.shown is shell.match
    with EventStore(path, read_only=True) as look:
        match_id = look.unfinished() or look.matches()[-1].id
        assert fold(look.events(match_id)) == shell.match
        assert match_id == shell.match_id
