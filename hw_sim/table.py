"""The simulated table: everything under and over a board that the daemon's backends attach to.

A gpiozero :class:`~gpiozero.pins.mock.MockFactory` carries the 20-hole beam and the buttons, the
simulated Pico (:mod:`hw_sim.mcu`) speaks the real protocol on a pty, a
:class:`~hw_sim.camera.SimCamera` photographs whatever board state the table holds, and an I2C bus
(:mod:`hw_sim.oled`) carries an OLED for a real luma.oled driver. The daemon
opens these exactly as it opens real hardware (the same classes, only the pin factory, the port
path and the camera object differ); the players (:mod:`hw_sim.stage`) act on the table through its
methods, as hands on the board would.
"""

from __future__ import annotations

import logging
import math
import random
import threading
import time
from dataclasses import dataclass, replace

import numpy as np
from gpiozero.pins.mock import MockFactory

from hw_sim.camera import Scene, SimCamera
from hw_sim.discs import BoardState, PlacedDisc
from hw_sim.errors import SimError
from hw_sim.mcu import SimulatedPico
from hw_sim.oled import SimOledBus
from rules.board import STANDARD, Board

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Wiring:
    """Where the table's parts are connected: the daemon's config says the same."""

    hole_pin: int = 17
    buttons: tuple[tuple[str, int], ...] = (("menu", 5), ("ok", 6), ("back", 13))
    channels: tuple[int, int, int, int] = (0, 1, 2, 3)
    blocked_s: float = 0.2
    """A pulse longer than this is a blocked beam to the daemon (its [hole] max_pulse_ms)."""
    refractory_s: float = 0.04
    """A second pulse sooner than this is the same drop to the daemon (its [hole] refractory_ms)."""


class SimTable:
    def __init__(self, *, seed: int = 1, wiring: Wiring = Wiring(), width: int | None = None,
                 height: int | None = None, heartbeat_ms: int = 500,
                 board: Board = STANDARD) -> None:
        self.wiring = wiring
        self.board = board
        self.pin_factory = MockFactory()
        self.pico = SimulatedPico(seed=seed, heartbeat_ms=heartbeat_ms)
        self.scene = Scene.random(random.Random(seed), width=width, height=height, board=board)
        self._state = BoardState()
        self._flight: int | None = None  # the quadrant whose disc is sliding, if one is
        self._frames_in_flight = 0
        self._lock = threading.Lock()
        self.camera = SimCamera(self.scene, self.in_view, seed=seed)
        self.oled_bus = SimOledBus()
        self._missing = 0
        self._last_drop = -1e9
        self._closed = False

    @property
    def port(self) -> str:
        """The sensor bar's serial port, like a /dev/serial/by-id path."""
        return self.pico.path

    def seat0_edge(self) -> str:
        """The frame edge seat 0 sits at, as the installer tells ``crokiscore calibrate``."""
        rig = self.scene.rig
        uv = rig.project(np.array([[0.0, 0.0, 0.0], [0.0, -self.board.outer_radius, 0.0]]))
        dx, dy = uv[1] - uv[0]
        angle = math.degrees(math.atan2(dy, dx)) % 360.0  # 0: right, 90: down the frame
        return ("right", "bottom", "left", "top")[round(angle / 90.0) % 4]

    # --- what the players' hands do ----------------------------------------------------------

    def state(self) -> BoardState:
        with self._lock:
            return self._state

    def in_view(self) -> BoardState:
        """What the camera sees: the discs at rest and, from a disc leaving its line until the
        board is set again, that disc sliding a little further in on every frame.

        A camera that waits for the board to settle must wait for the shot, as it does over a
        real board; however long the physics takes on a busy machine, the board without its
        last disc never looks settled. The sliding disc is drawn in side 0's colours (the
        table does not know who shoots; only its movement matters to anything that watches).
        """
        with self._lock:
            if self._flight is None:
                return self._state
            self._frames_in_flight += 1
            k, quadrant, state = self._frames_in_flight, self._flight, self._state
        r = self.board.outer_radius - (self.board.disc_radius * 3 * k) % self.board.outer_radius
        a = math.radians(270.0 - 90.0 * quadrant)
        sliding = PlacedDisc(r * math.cos(a), r * math.sin(a), 0)
        return replace(state, discs=(*state.discs, sliding))

    def set_board(self, state: BoardState) -> None:
        """The discs now lie like this (after a shot has settled and the players tidied up)."""
        with self._lock:
            self._state = state
            self._flight = None

    def touch(self, quadrant: int, active: bool) -> None:
        """A hand and disc on a quadrant's shooting line (``active``), or the disc leaving it
        (it slides until the players set the board: :meth:`in_view`)."""
        channel = self.wiring.channels[quadrant]
        if active:
            self.pico.touch(channel)
            return
        with self._lock:
            self._flight, self._frames_in_flight = quadrant, 0
        self.pico.release(channel)

    def drop(self, width_s: float = 0.004) -> None:
        """A disc falls through the 20 hole: the beam is blocked for ``width_s``.

        The pulse has to last: the daemon's filter ignores glitches shorter than a drop, so the
        beam stays blocked for that long in real time. Two discs never fall within the
        daemon's refractory time of each other across shots on a real board (shots are seconds
        apart), so a simulation played faster than real time still keeps them that far apart."""
        with self._lock:
            if self._missing:
                self._missing -= 1
                log.info("simulated beam: a drop goes unseen on purpose")
                return
            wait = self._last_drop + self.wiring.refractory_s * 1.5 - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        pin = self.pin_factory.pin(self.wiring.hole_pin)
        for _ in range(5):
            # The daemon stamps each edge in its own callback, which a held thread can run well
            # after the pin changed: blocked by ``low``, clear in [high, ended].
            pin.drive_low()
            low = time.monotonic()
            time.sleep(width_s)
            high = time.monotonic()
            pin.drive_high()
            ended = time.monotonic()
            # A PC's scheduler may hold this thread far past the pulse (a busy machine): the
            # daemon then sees a beam blocked for longer than a drop takes, which a falling
            # disc never does. The disc is dropped again, as the physics meant it. Only a pulse
            # surely too long is dropped again, so a drop is never counted twice.
            if high - low <= self.wiring.blocked_s:
                with self._lock:
                    # The end, not the start: the daemon's refractory time runs from its own
                    # stamp of the edge, which is never later than this.
                    self._last_drop = ended
                return
            log.warning("simulated beam: the pulse came out %.0f ms long; dropping again",
                        (high - low) * 1000)
            time.sleep(0.05)
        raise SimError("the simulated 20-hole beam could not give a pulse short enough "
                       "for a drop five times over: the machine is too busy")

    def miss_drops(self, n: int = 1) -> None:
        """The beam misses the next ``n`` drops (dust on the lens, a disc falling at an angle)."""
        with self._lock:
            self._missing += n

    def glitch(self) -> None:
        """An electrical spike on the beam's line, far shorter than any drop."""
        pin = self.pin_factory.pin(self.wiring.hole_pin)
        pin.drive_low()
        pin.drive_high()

    def press(self, button: str, hold_s: float | None = None) -> None:
        """A press of an operator button; ``hold_s`` keeps it down (a hold)."""
        pin = self.pin_factory.pin(dict(self.wiring.buttons)[button])
        pin.drive_low()
        if hold_s:
            time.sleep(hold_s)
        pin.drive_high()

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self.camera.close()
            self.pico.close()

    def __enter__(self) -> SimTable:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
