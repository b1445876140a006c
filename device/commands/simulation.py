"""The whole appliance against the simulator: ``crokiscore sim``.

Simulated players play a match on the simulated table (physics, sensors, camera); the daemon,
opened on that table exactly as it opens a real board, scores it; and a simulated operator does
what a club's operator does: calls fouls, checks readings the box marks CHECK (confirming or
correcting them by looking at the board, which he sees truly), gives a 20 to the other side when an
opponent's disc was knocked in, and scores by hand when the camera has failed. At the end the
daemon's result is set beside the simulation's truth.

The players wait for the daemon to take each event before going on (a real shot takes seconds;
waiting keeps a fast simulation from racing the serial line), so a run is reproducible.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, assert_never

from PIL import Image

from device.config import Config, MatchConfig
from device.core.inputs import Operator
from device.core.status import Status
from device.daemon import Daemon
from device.errors import SimulationError
from device.hardware.display import DummyDisplay
from device.hardware.sim import SimHardware, table_for
from device.reading.watcher import Reader
from device.screen.screen import OledScreen
from device.shell import Shell
from hw_sim.scenario import Runner
from hw_sim.stage import perform
from hw_sim.timeline import Stamped, Touch
from rules import (
    BoardReading,
    Confirm,
    Correction,
    DartsSummary,
    Foul,
    Match,
    RoundsSummary,
    Shot,
    Summary,
    Twenty,
    Undo,
)

log = logging.getLogger(__name__)


@dataclass
class Tally:
    """What the simulated operator had to do, and what went wrong."""

    confirmed: int = 0
    corrected: int = 0
    by_hand: int = 0
    credited: int = 0
    fouls: int = 0
    unflagged: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Outcome:
    result: Summary
    truth: Summary
    tally: Tally

    def agrees(self) -> bool:
        return compare(self.result, self.truth) == []


def compare(result: Summary, truth: Summary) -> list[str]:
    """Where the daemon's final state differs from the truth (empty when they agree)."""
    diffs = [f"{k}: {getattr(result, k)} != {getattr(truth, k)}"
             for k in ("finished", "winner", "score")
             if getattr(result, k) != getattr(truth, k)]
    match result, truth:
        case DartsSummary(), DartsSummary():
            diffs += [f"{k}: {getattr(result, k)} != {getattr(truth, k)}"
                      for k in ("legs", "sets") if getattr(result, k) != getattr(truth, k)]
            got, want = [t.totals for t in result.turns], [t.totals for t in truth.turns]
        case RoundsSummary(), RoundsSummary():
            got, want = [r.totals for r in result.rounds], [r.totals for r in truth.rounds]
        case _:
            return [*diffs, f"game: {result.rules} != {truth.rules}"]
    if got != want:
        diffs.append(f"round totals: {got} != {want}")
    return diffs


class RecordingScreen(OledScreen):
    """Draws like the daemon's screen and hands every new frame to ``on_frame``."""

    def __init__(self, display: Any, on_frame: Callable[[Image.Image], None]) -> None:
        super().__init__(display)
        self.on_frame = on_frame

    def show(self, match: Match | None, status: Status) -> None:
        before = self.last
        super().show(match, status)
        if self.last is not None and (before is None or self.last.tobytes() != before.tobytes()):
            self.on_frame(self.last)


class Simulation:
    def __init__(self, config: Config, rules: str, seed: int, *,
                 options: dict[str, Any] | None = None, speed: float = 0.0,
                 on_frame: Callable[[Image.Image], None] | None = None,
                 reader: Reader | None = None, timeout_s: float = 60.0) -> None:
        self.runner = Runner(rules, seed, options=options)
        start = self.runner.start
        self.config = replace(config, backend="sim",
                              match=MatchConfig(start.rules, start.players, start.options))
        c = self.config = replace(self.config, sim=replace(self.config.sim, seed=seed))
        self.table = table_for(c)
        if c.camera.kind == "sim" and c.camera.calibration is None and reader is None:
            self.config = c = replace(c, camera=replace(
                c.camera, calibration=self._calibrate(Path(c.store).parent)))
        self.speed = speed
        self.timeout_s = timeout_s
        self.tally = Tally()
        self._caused: Counter[str] = Counter()  # sensor events the players caused, by source
        screen = None
        if on_frame is not None:
            self._display = DummyDisplay.like(c.display)
            screen = RecordingScreen(self._display, on_frame)
        self.daemon = Daemon(self.config, hardware=SimHardware(self.config, self.table),
                             reader=reader, screen=screen)
        self._done = threading.Event()
        self._failure: BaseException | None = None

    def _calibrate(self, folder: Path) -> str:
        """What an installer does once: a frame of the empty board, calibrated, kept."""
        import vision

        frame = self.table.camera.capture()
        cal = vision.calibrate(frame, seat0=self.table.seat0_edge(), name="the empty board")
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / "calibration.json"
        vision.save_calibration(cal, path)
        return str(path)

    @property
    def app(self) -> Shell:
        return self.daemon.shell

    # --- the players and the operator ----------------------------------------------------------

    def _wait(self, what: str, until: Callable[[], bool]) -> None:
        if not self.app.wait(until, self.timeout_s):
            refused = self.app.last_refusal
            last = f"; last refused: {refused}" if refused else ""
            raise SimulationError(f"the daemon did not take {what} within {self.timeout_s:.0f} s"
                                  f" (faults: {dict(self.app.faults)}{last})")

    def _operator(self, event: Any) -> None:
        self.daemon.inputs.put(Operator(event, time.monotonic()))

    def _cue(self, item: Any) -> None:
        if isinstance(item, Touch) and item.active:  # the hand stays until the box has seen it
            self._wait(f"a touch on quadrant {item.quadrant}",
                       lambda: item.quadrant in self.app.touching)
            return
        if not isinstance(item, Stamped):
            return
        ev = item.event
        if isinstance(ev, Shot | Twenty):
            # The hands acted before this cue, and the daemon may have taken the event already:
            # count what the players caused, never "one more than the daemon has now".
            source = "touch" if isinstance(ev, Shot) else "hole"
            self._caused[source] += 1
            want = self._caused[source]
            self._wait(type(ev).__name__, lambda: self._count(source) >= want)
            if isinstance(ev, Twenty) and ev.team is not None:
                self._credit(ev.team)
        elif isinstance(ev, Foul):
            self._operated(Foul())
            self.tally.fouls += 1
        elif isinstance(ev, BoardReading):
            self._board(item)

    def _count(self, source: str) -> int:
        return self.app.taken[source]

    def _operated(self, event: Any) -> None:
        want = self._count("operator") + 1
        self._operator(event)
        self._wait(type(event).__name__, lambda: self._count("operator") >= want)

    def _credit(self, team: int) -> None:
        """An opponent's disc was knocked in: the beam credited the shooter; the operator gives
        the 20 to the right side."""
        self._operated(Undo())
        self._operated(Twenty(team))
        self.tally.credited += 1

    def _board(self, item: Stamped) -> None:
        truth = self.runner.match
        before = self._count("camera")
        failed = lambda: "camera" in self.app.faults  # noqa: E731
        self._wait("the board reading", lambda: self._count("camera") > before or failed())
        if self._count("camera") == before:  # the camera failed: score it by hand
            self._operated(self._true_correction(truth))
            self.tally.by_hand += 1
            return
        m = self.app.match
        assert m is not None
        if m.expect().what == "confirm":
            if self._agrees(m, truth):
                self._operated(Confirm())
                self.tally.confirmed += 1
            else:
                self._operated(self._true_correction(truth))
                self.tally.corrected += 1
        elif not self._agrees(m, truth):
            self.tally.unflagged.append(self._describe(m, truth))

    def _agrees(self, m: Match, truth: Match) -> bool:
        return m.latest_value() == truth.latest_value()

    def _true_correction(self, truth: Match) -> Correction:
        value = truth.latest_value()
        match truth.summary():
            case DartsSummary():
                return Correction(value=value[0])
            case RoundsSummary():
                return Correction(totals=value)
            case other:
                assert_never(other)

    def _describe(self, m: Match, truth: Match) -> str:
        return f"read {m.latest_value()}, truly {truth.latest_value()}"

    def _play(self) -> None:
        try:
            self._wait("the start", lambda: self.app.match is not None and
                       self.daemon.bar.link.connected)
            with self.app.changed:
                self._caused = Counter({s: self._count(s) for s in ("touch", "hole")})
            perform(self.table, self.runner.run(), self._cue, speed=self.speed)
            self._wait("the end of the match", lambda: self.app.match is not None
                       and self.app.match.finished)
        except BaseException as exc:
            self._failure = exc
        finally:
            self._done.set()

    # --- running -------------------------------------------------------------------------------

    def run(self) -> Outcome:
        players = threading.Thread(target=self._play, name="simulated players", daemon=True)
        players.start()
        try:
            self.daemon.run(self._done)
        finally:
            players.join(timeout=self.timeout_s)
            self.daemon.close()
            self.table.close()
        if self._failure is not None:
            raise self._failure
        assert self.app.match is not None
        return Outcome(self.app.match.summary(), self.runner.match.summary(), self.tally)
