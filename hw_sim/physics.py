"""The board's physics: discs sliding on the playing surface, the pegs, the 20 hole and the ditch.

Units, here and in the whole simulator: millimetres, seconds and grams, so speeds are mm/s and
g = 9810 mm/s^2. Positions are board coordinates as in :mod:`rules.board` (origin at the 20 hole,
x right, y up, seen from above).

Why it is built this way:

* A disc slides on waxed wood with a nearly constant deceleration mu*g (Coulomb friction), and then
  stops dead. pymunk's ``space.damping`` is exponential and never brings a disc to rest, so every
  disc has its own velocity function that takes mu*g*dt off its speed and stops it when that would
  reverse it. Resting discs are put to sleep by Chipmunk, so a step costs the callbacks of the discs
  that move, not of every disc on the board, and a shot ends as soon as everything is at rest.
* Discs slide rather than roll: they have infinite moment and frictionless edges, so no spin.
* Chipmunk multiplies the elasticities of the two shapes in a contact; the disc gets the square
  root of the disc-disc restitution and pegs and walls a quotient, so each kind of contact gets the
  restitution the settings name. Contacts closing slower than ``bounce_threshold`` do not bounce
  at all (the usual restitution threshold of rigid-body engines): a gentle tap leaves two discs, or
  a disc and a peg, touching instead of a hair apart.
* Chipmunk has no tunnelling protection: sub-steps are fixed and at most 1 ms, so even an 8 m/s disc
  moves 8 mm a step, well under the 20.75 mm it would need to jump a peg.
* A disc whose centre passes the edge of the playing surface tips off it: it is moved into the ditch
  (keeping its velocity) and from then on meets only other ditch discs, the rail and the surface's
  edge, with the ditch's higher friction, until it rests somewhere in the ditch ring.
* A disc whose centre is over the 20 hole while it moves slower than ``drop_speed`` falls in; faster
  ones skim across (a disc needs a few tens of ms to tip into the hole).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from dataclasses import dataclass, field

import pymunk

from hw_sim.discs import BoardState, PlacedDisc
from hw_sim.errors import PhysicsError
from hw_sim.physics_settings import Physics
from hw_sim.shot import Drop, Outcome, SimDisc, Where
from rules.board import STANDARD, Board

log = logging.getLogger(__name__)

__all__ = ["BoardSim", "Drop", "Outcome", "Physics", "SimDisc", "Where"]

# Shape categories (bit masks) and collision types.
_SURFACE_DISC, _DITCH_DISC, _PEG, _WALL, _HOLE, _SURFACE = 1, 2, 4, 8, 16, 32
_T_DISC, _T_HOLE, _T_SURFACE, _T_PEG = 1, 2, 3, 4
_WALL_SEGMENTS = 128
_WALL_RADIUS = 2.0          # mm: thickness of the segments drawing the rail and the surface edge
_REST_CHECK_EVERY = 10      # steps between checks that every disc is at rest
_SLEEP_TIME = 0.02          # s a disc must be still before Chipmunk puts it to sleep
REST_SPEED = 1e-3           # mm/s: slower than this a disc is at rest (discs jammed together in
                            # the ditch get tiny pushes from the solver every step)


@dataclass
class _Disc:
    id: int
    team: int
    body: pymunk.Body
    shape: pymunk.Circle
    where: Where


@dataclass
class _ShotLog:
    disc: int
    start_step: int
    chain: dict[int, None]
    drops: list[Drop] = field(default_factory=list)
    fell: list[int] = field(default_factory=list)


def _slider(deceleration: float) -> Callable[[pymunk.Body, object, float, float], None]:
    """A velocity function applying Coulomb friction: speed drops by mu*g*dt, and stops at 0."""

    def slide(body: pymunk.Body, gravity: object, damping: float, dt: float) -> None:
        vx, vy = body.velocity
        speed = math.hypot(vx, vy)
        if speed < REST_SPEED:   # setting it would wake the body: leave a jammed disc to sleep
            return
        loss = deceleration * dt
        if speed <= loss:
            body.velocity = (0.0, 0.0)
        else:
            keep = 1.0 - loss / speed
            body.velocity = (vx * keep, vy * keep)

    return slide


def _ring(radius: float, n: int = _WALL_SEGMENTS) -> list[tuple[float, float]]:
    return [(radius * math.cos(2 * math.pi * k / n), radius * math.sin(2 * math.pi * k / n))
            for k in range(n)]


class BoardSim:
    """One board with its discs in play; shots are simulated one at a time until all is at rest.

    Disc ids are handed out in order and never reused, so a disc can be followed from its shot to
    the ditch or the hole. The simulation's clock (:attr:`time`) only moves while stepping.
    """

    def __init__(self, board: Board = STANDARD, physics: Physics | None = None) -> None:
        self.board = board
        self.physics = physics or Physics()
        p = self.physics
        self.space = pymunk.Space()
        self.space.sleep_time_threshold = _SLEEP_TIME
        self.space.idle_speed_threshold = 0.5
        self.space.collision_slop = 0.05
        self._steps = 0
        self._discs: dict[int, _Disc] = {}
        self._by_shape: dict[pymunk.Shape, _Disc] = {}
        self._next_id = 0
        self._shot: _ShotLog | None = None
        self._drops: dict[int, _Disc] = {}
        self._falls: dict[int, _Disc] = {}
        self._disc_e = math.sqrt(p.disc_restitution)
        self._slide_surface = _slider(p.deceleration)
        self._slide_ditch = _slider(p.ditch_friction * p.gravity)
        self._surface_filter = pymunk.ShapeFilter(
            categories=_SURFACE_DISC, mask=_SURFACE_DISC | _PEG | _HOLE | _SURFACE)
        self._ditch_filter = pymunk.ShapeFilter(categories=_DITCH_DISC, mask=_DITCH_DISC | _WALL)
        self._build()

    # --- construction ----------------------------------------------------------------------------

    def _build(self) -> None:
        b, p, space = self.board, self.physics, self.space
        static = space.static_body
        other_e = (lambda e: min(e / self._disc_e, 1.0)) if self._disc_e > 0 else (lambda e: 0.0)
        shapes: list[pymunk.Shape] = []
        for x, y in b.pegs():
            peg = pymunk.Circle(static, b.peg_diameter / 2, (x, y))
            peg.elasticity = other_e(p.peg_restitution)
            peg.collision_type = _T_PEG
            peg.filter = pymunk.ShapeFilter(categories=_PEG, mask=_SURFACE_DISC)
            shapes.append(peg)
        # The rail's face at the ditch radius; the surface's edge faces the ditch at its radius.
        half = math.pi / _WALL_SEGMENTS
        for radius in ((b.ditch_radius + _WALL_RADIUS) / math.cos(half),
                       b.surface_radius - _WALL_RADIUS):
            pts = _ring(radius)
            for a, c in zip(pts, pts[1:] + pts[:1], strict=True):
                seg = pymunk.Segment(static, a, c, _WALL_RADIUS)
                seg.elasticity = other_e(p.rail_restitution)
                seg.filter = pymunk.ShapeFilter(categories=_WALL, mask=_DITCH_DISC)
                shapes.append(seg)
        # Sensors: over the hole (centre within the hole radius), on the surface (centre inside it).
        hole = pymunk.Circle(static, max(b.hole_diameter / 2 - b.disc_radius, 0.01))
        hole.sensor = True
        hole.collision_type = _T_HOLE
        hole.filter = pymunk.ShapeFilter(categories=_HOLE, mask=_SURFACE_DISC)
        surface = pymunk.Circle(static, b.surface_radius - b.disc_radius)
        surface.sensor = True
        surface.collision_type = _T_SURFACE
        surface.filter = pymunk.ShapeFilter(categories=_SURFACE, mask=_SURFACE_DISC)
        space.add(*shapes, hole, surface)
        space.on_collision(_T_DISC, _T_DISC, pre_solve=self._on_contact)
        space.on_collision(_T_PEG, _T_DISC, pre_solve=self._on_peg)
        space.on_collision(_T_HOLE, _T_DISC, pre_solve=self._on_hole)
        space.on_collision(_T_SURFACE, _T_DISC, separate=self._on_edge)

    # --- collision callbacks (during a step: they only take notes) ------------------------------

    def _disc_of(self, arb: pymunk.Arbiter) -> _Disc | None:
        for shape in arb.shapes:
            d = self._by_shape.get(shape)
            if d is not None:
                return d
        return None

    def _on_contact(self, arb: pymunk.Arbiter, space: pymunk.Space, data: object) -> None:
        """Disc on disc: a slow contact does not bounce; a closing one extends the shot's chain."""
        a, c = (self._by_shape.get(s) for s in arb.shapes)
        if a is None or c is None:
            return
        pa, pc = a.body.position, c.body.position
        va, vc = a.body.velocity, c.body.velocity
        dx, dy = pc.x - pa.x, pc.y - pa.y
        closing = ((va.x - vc.x) * dx + (va.y - vc.y) * dy) / (math.hypot(dx, dy) or 1.0)
        if closing < self.physics.bounce_threshold:
            arb.restitution = 0.0
        shot = self._shot
        if shot is None or closing <= 0.0 or a.where != "surface" or c.where != "surface":
            return
        in_a, in_c = a.id in shot.chain, c.id in shot.chain
        if in_a != in_c:
            shot.chain[c.id if in_a else a.id] = None

    def _on_peg(self, arb: pymunk.Arbiter, space: pymunk.Space, data: object) -> None:
        """Disc on peg: a slow contact does not bounce, so a disc can come to rest against it."""
        peg, disc = arb.shapes
        assert isinstance(peg, pymunk.Circle)
        p, v = disc.body.position, disc.body.velocity
        dx, dy = peg.offset.x - p.x, peg.offset.y - p.y
        if (v.x * dx + v.y * dy) / (math.hypot(dx, dy) or 1.0) < self.physics.bounce_threshold:
            arb.restitution = 0.0

    def _on_hole(self, arb: pymunk.Arbiter, space: pymunk.Space, data: object) -> None:
        d = self._disc_of(arb)
        if d is None or d.where != "surface":
            return
        body = d.body
        if (body.position.length < self.board.hole_diameter / 2
                and body.velocity.length < self.physics.drop_speed):
            self._drops[d.id] = d

    def _on_edge(self, arb: pymunk.Arbiter, space: pymunk.Space, data: object) -> None:
        d = self._disc_of(arb)
        if d is not None and d.where == "surface" and (
                d.body.position.length >= self.board.surface_radius - 1e-6):
            self._falls[d.id] = d

    # --- stepping --------------------------------------------------------------------------------

    @property
    def time(self) -> float:
        """Simulated seconds since the board was set up."""
        return self._steps * self.physics.step

    def step(self) -> None:
        """One fixed sub-step, then whatever the step's contacts decided (drops, falls)."""
        self.space.step(self.physics.step)
        self._steps += 1
        if self._drops:
            for d in self._drops.values():
                self._drop(d)
            self._drops.clear()
        if self._falls:
            for d in self._falls.values():
                if d.where == "surface":
                    self._fall(d)
            self._falls.clear()

    def at_rest(self) -> bool:
        return not any(self._moving(d) for d in self._discs.values())

    @staticmethod
    def _moving(d: _Disc) -> bool:
        if d.where not in ("surface", "ditch") or d.body.is_sleeping:
            return False
        vx, vy = d.body.velocity
        return abs(vx) + abs(vy) >= REST_SPEED

    def settle(self) -> int:
        """Steps until every disc is at rest; returns the number of steps taken."""
        limit = round(self.physics.max_shot_time / self.physics.step)
        start = self._steps
        while not self.at_rest():
            for _ in range(_REST_CHECK_EVERY):
                self.step()
            if self._steps - start > limit:
                raise PhysicsError(
                    f"discs still moving after {self.physics.max_shot_time} s of simulated time: "
                    f"{self.moving()}; check the friction settings")
        return self._steps - start

    def moving(self) -> list[SimDisc]:
        return [self._view(d) for d in self._discs.values() if self._moving(d)]

    def _drop(self, d: _Disc) -> None:
        self._unbody(d)
        d.where = "hole"
        if self._shot is not None:
            self._shot.drops.append(
                Drop(d.id, d.team, (self._steps - self._shot.start_step) * self.physics.step))
        log.debug("disc %d (side %d) dropped into the 20 hole at %.3f s", d.id, d.team, self.time)

    def _fall(self, d: _Disc) -> None:
        """Tips a disc off the surface's edge into the ditch, keeping its velocity."""
        b = self.board
        pos = d.body.position
        r = pos.length
        inside = b.surface_radius + b.disc_radius + 0.5
        d.body.position = (pos.x * inside / r, pos.y * inside / r)
        self._to_ditch_shape(d)
        if self._shot is not None:
            self._shot.fell.append(d.id)

    # --- discs -----------------------------------------------------------------------------------

    def _new_disc(self, team: int, x: float, y: float, where: Where,
                  disc_id: int | None = None) -> _Disc:
        if team not in (0, 1):
            raise PhysicsError(f"a disc belongs to side 0 or 1, got {team!r}")
        body = pymunk.Body(self.physics.disc_mass, math.inf)
        body.position = (x, y)
        shape = pymunk.Circle(body, self.board.disc_radius)
        shape.elasticity = self._disc_e
        shape.friction = 0.0
        shape.collision_type = _T_DISC
        if disc_id is None:
            disc_id = self._next_id
            self._next_id += 1
        d = _Disc(disc_id, team, body, shape, where)
        if where == "ditch":
            shape.filter = self._ditch_filter
            body.velocity_func = self._slide_ditch
        else:
            shape.filter = self._surface_filter
            body.velocity_func = self._slide_surface
        self.space.add(body, shape)
        self._discs[d.id] = d
        self._by_shape[shape] = d
        return d

    def _to_ditch_shape(self, d: _Disc) -> None:
        d.where = "ditch"
        d.shape.filter = self._ditch_filter
        d.body.velocity_func = self._slide_ditch
        d.body.activate()

    def _unbody(self, d: _Disc) -> None:
        if d.body.space is not None:
            self.space.remove(d.body, d.shape)

    def place(self, team: int, x: float, y: float, vx: float = 0.0, vy: float = 0.0) -> int:
        """Puts a disc on the surface (or, beyond it, in the ditch), at rest or moving at
        (vx, vy); returns its id. No shot is recorded: stepping is up to the caller."""
        where: Where = "surface" if self.board.on_surface(math.hypot(x, y)) else "ditch"
        d = self._new_disc(team, x, y, where)
        if vx or vy:
            d.body.velocity = (vx, vy)
        return d.id

    def shoot(self, team: int, x: float, y: float, vx: float, vy: float) -> Outcome:
        """Flicks a new disc of ``team`` from (x, y) at (vx, vy) mm/s and runs until all rests."""
        if self._shot is not None:
            raise PhysicsError("a shot is already in progress")
        d = self._new_disc(team, x, y, "surface")
        d.body.velocity = (vx, vy)
        self._shot = shot = _ShotLog(d.id, self._steps, {d.id: None})
        try:
            steps = self.settle()
        finally:
            self._shot = None
        return Outcome(d.id, team, steps * self.physics.step, steps, tuple(shot.drops),
                       tuple(shot.fell), tuple(shot.chain))

    def to_ditch(self, disc: int) -> None:
        """A player moves a disc into the ditch (outward from where it was), at rest."""
        d = self._get(disc)
        if d.where == "ditch":
            return
        if d.where != "surface":
            raise PhysicsError(f"disc {disc} is {d.where}, not on the surface")
        x, y = d.body.position
        self._unbody(d)
        del self._by_shape[d.shape]
        # A fresh body keeping the id and side, so no contact of its old place lingers.
        self._new_disc(d.team, *self.ditch_spot(math.atan2(y, x)), "ditch", d.id)

    def ditch_spot(self, angle: float) -> tuple[float, float]:
        """Where a disc pushed outward at ``angle`` (radians) ends: against the rail, or beside
        the nearest disc already lying there."""
        b = self.board
        rest = b.ditch_radius - b.disc_radius - 0.2
        others = [d.body.position for d in self._discs.values() if d.where == "ditch"]
        gap = 2 * b.disc_radius + 0.2
        stride = gap / rest
        for k in range(int(math.pi / stride) * 2 + 1):
            a = angle + ((k + 1) // 2) * stride * (1 if k % 2 else -1)
            x, y = rest * math.cos(a), rest * math.sin(a)
            if all(math.hypot(x - o.x, y - o.y) >= gap for o in others):
                return (x, y)
        log.warning("the ditch is full: a disc is put on top of another")
        return (rest * math.cos(angle), rest * math.sin(angle))

    def set_aside(self, disc: int) -> None:
        """Takes a disc out of play altogether (a voided 20, a disc reused for a checkout)."""
        d = self._get(disc)
        self._unbody(d)
        d.where = "aside"

    def clear(self) -> None:
        """Takes every disc off the board, the ditch and the hole: a new round."""
        for d in self._discs.values():
            self._unbody(d)
        self._discs.clear()
        self._by_shape.clear()

    def _get(self, disc: int) -> _Disc:
        try:
            return self._discs[disc]
        except KeyError:
            raise PhysicsError(f"there is no disc {disc} in play") from None

    # --- reading ---------------------------------------------------------------------------------

    def _view(self, d: _Disc) -> SimDisc:
        x, y = d.body.position
        return SimDisc(d.id, d.team, x, y, d.where)

    def disc(self, disc: int) -> SimDisc:
        return self._view(self._get(disc))

    def discs(self, *where: Where) -> tuple[SimDisc, ...]:
        """Discs in id order, optionally only those in the given places."""
        return tuple(self._view(d) for d in self._discs.values() if not where or d.where in where)

    def velocity(self, disc: int) -> tuple[float, float]:
        v = self._get(disc).body.velocity
        return (v.x, v.y)

    def twenties(self) -> tuple[int, int]:
        t = [0, 0]
        for d in self._discs.values():
            if d.where == "hole":
                t[d.team] += 1
        return (t[0], t[1])

    def state(self) -> BoardState:
        """The settled board as exact truth: discs on the surface and in the ditch, and 20s.
        A disc the solver left pressed into the rail (its contact slop, a few mm after a hard
        shot) is where it would rest against the rail's face: no disc is inside the wood."""
        rest = self.board.ditch_radius - self.board.disc_radius
        placed = []
        for d in self.discs("surface", "ditch"):
            k = rest / d.r if d.where == "ditch" and d.r > rest else 1.0
            placed.append(PlacedDisc(d.x * k, d.y * k, d.team))
        return BoardState(tuple(placed), self.twenties())
