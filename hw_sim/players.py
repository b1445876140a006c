"""Simulated players: they look at the board, pick a shot a club player would pick, and flick it
with the aim and power errors of their skill.

The choices are the ordinary ones of crokinole: on an open board a draw to the 20 (or a draw that
hides against a peg inside the 15 line); with opposing discs on the board a takeout (full or cut,
firm, or soft enough to stay close) of the most valuable opposing disc they can see; when nothing
can be seen, the least obstructed try, which often ends as a foul. Crokidarts players shoot alone:
20s while they need them, then draws into the zone that makes the exact total, and takeouts when the
discs left on the board are worth too much.

The players know the physics' deceleration (a real player knows it by feel), so a planned draw would
stop where intended if flicked exactly; the noise is what makes it a game. Everything is in board
millimetres and mm/s.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from hw_sim import aim
from hw_sim.aim import Point
from hw_sim.errors import PlayerError
from hw_sim.physics import Physics, SimDisc
from rules.board import Board
from rules.rulesets import RuleSet

MAX_SPEED = 6000.0     # mm/s: a hard takeout
CUTS = (0.0, -0.35, 0.35, -0.7, 0.7)     # aim offsets, in disc diameters off the target's centre
ZONE_WORTH = {15: 3.0, 10: 2.0, 5: 1.0, 0: 0.2}


@dataclass(frozen=True)
class Player:
    """A player's name and skill, from 0 (a beginner) to 1 (a champion)."""

    name: str
    skill: float = 0.7

    def __post_init__(self) -> None:
        if not 0.0 <= self.skill <= 1.0:
            raise PlayerError(
                f"player {self.name!r}: skill must be from 0 to 1, got {self.skill}")

    @property
    def aim_sd_deg(self) -> float:
        """Spread of the direction a disc leaves in, degrees (one standard deviation)."""
        return 0.25 + 2.0 * (1.0 - self.skill)

    @property
    def power_sd(self) -> float:
        """Relative spread of the speed a disc leaves with."""
        return 0.015 + 0.085 * (1.0 - self.skill)

    @property
    def judgement_sd(self) -> float:
        """How much the player misjudges which shot is best (in the shot-score's units)."""
        return 0.15 + 0.8 * (1.0 - self.skill)


@dataclass(frozen=True)
class Situation:
    """What a player sees before a shot."""

    board: Board
    physics: Physics
    rules: RuleSet
    seat: int
    team: int
    quadrant: int
    discs: tuple[SimDisc, ...]      # on the surface
    checkout: bool = False          # crokidarts: this shot is the checkout
    need: int | None = None         # crokidarts: points the turn still needs from the board


@dataclass(frozen=True)
class Plan:
    """A shot as intended: from ``start`` towards ``toward`` at ``speed`` mm/s."""

    kind: str
    start: Point
    toward: Point
    speed: float
    target: Point


@dataclass(frozen=True)
class Flick:
    """A shot as made: the disc's place on the shooting line and its velocity (mm/s)."""

    plan: Plan
    x: float
    y: float
    vx: float
    vy: float


# --- choosing ------------------------------------------------------------------------------------

Option = tuple[float, int, Plan]     # (worth, obstacles in the way, plan)

# How often a player picks each kind of shot when it is available (the best of that kind is then
# chosen by judgement). Club players mostly draw for the 20 on an open board and take out an
# opposing disc otherwise, with tucks against pegs, freezes and soft hits for variety.
OPEN_STYLE = (("draw-20", 0.62), ("peg", 0.22), ("freeze", 0.16))
ATTACK_STYLE = (("takeout", 0.62), ("stick", 0.14), ("freeze", 0.24))


def _style(rng: random.Random, style: tuple[tuple[str, float], ...],
           available: set[str]) -> list[str]:
    """Kinds of shot in the order the player will consider them: one drawn by the style's
    odds first, then the rest in the style's order."""
    kinds = [k for k, _ in style if k in available]
    if not kinds:
        return []
    weights = [w for k, w in style if k in available]
    first = rng.choices(kinds, weights)[0]
    return [first] + [k for k in kinds if k != first]


def _best(options: list[Option], player: Player, rng: random.Random) -> Plan | None:
    """Among the clear options (or, if none is clear, the least blocked), the one the player
    judges best: its worth plus the player's misjudgement."""
    if not options:
        return None
    fewest = min(blocked for _, blocked, _ in options)
    pool = [(worth, plan) for worth, blocked, plan in options if blocked == fewest]
    noisy = [(worth + rng.gauss(0.0, player.judgement_sd), i) for i, (worth, _) in
             enumerate(pool)]
    plan = pool[max(noisy)[1]][1]
    return plan if not fewest else Plan("forced", plan.start, plan.toward, plan.speed,
                                        plan.target)


def _choose_kind(makers: dict[str, Callable[[], list[Option]]],
                 style: tuple[tuple[str, float], ...], available: set[str], player: Player,
                 rng: random.Random) -> Plan | None:
    """A clear shot of the kind the player fancies; failing that, a clear shot of another kind
    (in the style's order); failing that, the least blocked of them all."""
    tried: list[Option] = []
    for kind in _style(rng, style, available):
        options = makers[kind]()
        clear = [o for o in options if o[1] == 0]
        if clear:
            return _best(clear, player, rng)
        tried += options
    return _best(tried, player, rng)


def _centres(discs: tuple[SimDisc, ...], leave_out: int | None = None) -> list[Point]:
    return [(d.x, d.y) for d in discs if d.id != leave_out]


def _fifteen_ok(s: Situation, p: Point) -> bool:
    b = s.board
    return math.hypot(*p) - b.disc_radius <= b.fifteen_radius + b.line_width / 2


def _draw_to(s: Situation, kind: str, target: Point, starts: list[Point],
             worth: float) -> list[Option]:
    others = _centres(s.discs)
    return [(worth, aim.blockers(s.board, st, target, others),
             Plan(kind, st, target, s.physics.speed_for(math.dist(st, target)), target))
            for st in starts]


def _freezes(s: Situation, starts: list[Point], obstacles: list[tuple[Point, float, int | None]],
             kind: str, rng: random.Random, need_fifteen: bool) -> list[Option]:
    """Draws meant to stop just touching an obstacle (centre, reach at contact, disc id or None
    for a peg), arriving with the last millimetre or two of their slide."""
    b = s.board
    out = []
    for centre, reach, disc_id in obstacles:
        others = _centres(s.discs, disc_id)
        pegs = [p for p in aim.peg_centres(b) if disc_id is not None or p != centre]
        for st in starts:
            stop = aim.touching(st, centre, reach)
            if need_fifteen and not _fifteen_ok(s, stop):
                continue
            speed = s.physics.speed_for(math.dist(st, stop) + 0.5 + 2.5 * rng.random())
            worth = 1.0 - 0.002 * math.hypot(*stop)
            out.append((worth, aim.blockers(b, st, stop, others, pegs),
                        Plan(kind, st, centre, speed, centre)))
    return out


def _darts_point(s: Situation, need: int) -> Point:
    """Where a crokidarts player draws for less than a 20 on an empty board, which must end
    touching or inside the 15 line: inside it for 15, on it (worth 10) for less."""
    b = s.board
    r = (b.hole_diameter / 2 + b.fifteen_radius) / 2 if need >= 15 else b.fifteen_radius + 6.0
    a = aim.quadrant_angle(s.quadrant)
    return (r * math.cos(a), r * math.sin(a))


def _hits(s: Situation, targets: list[SimDisc], starts: list[Point], soft: bool,
          rng: random.Random, firmness: float) -> list[Option]:
    """Every way to hit each target disc: full or cut, firm enough to send it off the surface,
    or soft enough (``soft``) that both discs stay close."""
    b, phys = s.board, s.physics
    reach = b.disc_diameter
    e = phys.disc_restitution
    out = []
    for t in targets:
        centre = (t.x, t.y)
        others = _centres(s.discs, t.id)
        worth0 = ZONE_WORTH.get(b.zone(t.r), 0.2)
        for start in starts:
            ux, uy = aim.unit(start, centre)
            for cut in CUTS:
                off = cut * reach
                toward = (centre[0] - uy * off, centre[1] + ux * off)
                contact = aim.contact_point(start, toward, centre, reach)
                if contact is None:
                    continue
                normal = aim.unit(contact, centre)
                along = max(normal[0] * ux + normal[1] * uy, 0.2)
                worth = worth0 - 0.8 * abs(cut)
                if soft:
                    hit, kind = 60.0 + 200.0 * rng.random(), "stick"
                else:
                    out_by = aim.exit_distance(b, centre, normal)
                    hit, kind = phys.speed_for(out_by) * firmness / ((1 + e) / 2 * along), "takeout"
                    # A target knocked into a peg or another disc will not leave the board.
                    exit_to = (centre[0] + out_by * normal[0], centre[1] + out_by * normal[1])
                    worth -= 1.5 * aim.blockers(b, centre, exit_to, others)
                path = math.dist(start, contact)
                speed = min(math.sqrt(hit * hit + 2 * phys.deceleration * path), MAX_SPEED)
                worth -= 0.001 * path
                out.append((worth, aim.blockers(b, start, contact, others),
                            Plan(kind, start, toward, speed, centre)))
    return out


def _attack(s: Situation, player: Player, rng: random.Random, targets: list[SimDisc],
            starts: list[Point], style: tuple[tuple[str, float], ...] = ATTACK_STYLE) -> Plan:
    """Hit one of ``targets`` with a shot of ``style``."""
    reach = s.board.disc_diameter
    makers = {
        "takeout": lambda: _hits(s, targets, starts, False, rng, 1.15 + 0.5 * rng.random()),
        "stick": lambda: _hits(s, targets, starts, True, rng, 1.0),
        "freeze": lambda: _freezes(s, starts, [((t.x, t.y), reach, t.id) for t in targets],
                                   "freeze", rng, False),
    }
    plan = _choose_kind(makers, style, set(makers), player, rng)
    if plan is None:   # nowhere to stand: shoot at the first target from the line's middle
        t = targets[0]
        start = aim.spots(s.board, s.quadrant, [], n=1)[0]
        return Plan("forced", start, (t.x, t.y), s.physics.speed_for(300.0), (t.x, t.y))
    return plan


def _open(s: Situation, player: Player, rng: random.Random, starts: list[Point]) -> Plan:
    """An open board: draw for the 20, tuck against a peg, or freeze onto an own disc."""
    b = s.board
    fifteen = s.rules.open_board != "off"
    peg_reach = b.disc_radius + b.peg_diameter / 2
    own = [((d.x, d.y), b.disc_diameter, d.id) for d in s.discs
           if not fifteen or _fifteen_ok(s, (d.x, d.y))]
    makers = {
        "draw-20": lambda: _draw_to(s, "draw-20", (0.0, 0.0), starts, 2.0),
        "peg": lambda: _freezes(s, starts, [(p, peg_reach, None) for p in aim.peg_centres(b)],
                                "peg", rng, fifteen),
        "freeze": lambda: _freezes(s, starts, own, "freeze", rng, False),
    }
    available = set(makers) if own else set(makers) - {"freeze"}
    plan = _choose_kind(makers, OPEN_STYLE, available, player, rng)
    assert plan is not None   # a draw to the 20 is always among the options
    return plan


def _starts(s: Situation) -> list[Point]:
    starts = aim.spots(s.board, s.quadrant, _centres(s.discs))
    return starts or aim.spots(s.board, s.quadrant, [])


def choose(s: Situation, player: Player, rng: random.Random) -> Plan:
    """The shot ``player`` means to play."""
    starts = _starts(s)
    if s.rules.game == "crokidarts":
        return _choose_darts(s, player, rng, starts)
    opposing = [d for d in s.discs if d.team != s.team]
    if opposing:
        return _attack(s, player, rng, opposing, starts)
    return _open(s, player, rng, starts)


def _choose_darts(s: Situation, player: Player, rng: random.Random, starts: list[Point]) -> Plan:
    need = s.need if s.need is not None else 20
    if s.checkout or not s.discs:
        if s.checkout or need >= 20:
            plan = _best(_draw_to(s, "draw-20", (0.0, 0.0), starts, 2.0), player, rng)
        else:
            target = _darts_point(s, need)
            plan = _best(_draw_to(s, "draw-zone", target, starts, 1.0), player, rng)
        assert plan is not None
        return plan
    board_value = sum(s.board.zone(d.r) for d in s.discs)
    if board_value > need:   # too much on the board: knock the most valuable disc off
        worst = sorted(s.discs, key=lambda d: -s.board.zone(d.r))
        return _attack(s, player, rng, worst[:1], starts, (("takeout", 1.0),))
    central = sorted(s.discs, key=lambda d: d.r)   # more needed: hit and stay near the middle
    return _attack(s, player, rng, central[:1], starts, (("stick", 0.6), ("freeze", 0.4)))


# --- shooting ------------------------------------------------------------------------------------


def flick(plan: Plan, player: Player, rng: random.Random) -> Flick:
    """The shot as the player's hand makes it: direction and speed off by their skill's noise."""
    ux, uy = aim.unit(plan.start, plan.toward)
    turn = math.radians(rng.gauss(0.0, player.aim_sd_deg))
    c, s = math.cos(turn), math.sin(turn)
    speed = plan.speed * max(0.2, 1.0 + rng.gauss(0.0, player.power_sd))
    speed = min(speed, MAX_SPEED * 1.2)
    vx, vy = (ux * c - uy * s) * speed, (ux * s + uy * c) * speed
    return Flick(plan, plan.start[0], plan.start[1], vx, vy)
