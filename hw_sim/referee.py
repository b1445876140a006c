"""What the players do to the board after a shot, by the rules the match is played under.

The rules engine never sees discs being moved by hand; the camera sees the result. So the simulator
must do what real players do once the discs stop (see docs/events.md and the rule texts):

* With an opposing disc on the surface, a shot must hit one, directly or through own discs. If it
  does not, the shot is invalid (a foul): the shot disc and the own discs it struck go to the
  ditch, and the 20s the shooter's side made with it are taken out of play.
* With no opposing disc on the surface (an open board), the rule set's ``open_board`` option:
  ``fifteen``: the shot disc or a disc it moved must end touching or inside the 15 line (or in the
  hole), else the shot is invalid as above; ``remove-outer``: a shot disc stopping outside the 15
  line goes to the ditch (not a foul); ``off``: nothing.
* Crokidarts: every disc is the shooter's; with discs on the surface the shot must strike one, on an
  empty board the 15-line rule applies; a checkout shot has no such duty.
* Finally every disc touching the outer (shooting) line goes to the ditch.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from hw_sim.physics import BoardSim, Outcome, SimDisc
from rules.rulesets import RuleSet

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Ruling:
    """The verdict on one shot and the discs players move because of it."""

    foul: bool
    reason: str
    to_ditch: tuple[int, ...]
    void: tuple[int, ...]       # discs taken back out of the 20 hole: their 20s do not count


def reaches_fifteen(sim: BoardSim, disc: SimDisc) -> bool:
    """Whether a disc on the surface touches the 15 line or lies inside it."""
    b = sim.board
    return disc.where == "surface" and (
        disc.r - b.disc_radius <= b.fifteen_radius + b.line_width / 2)


def judge(sim: BoardSim, rules: RuleSet, shot: Outcome, before: Sequence[SimDisc], *,
          checkout: bool = False) -> Ruling:
    """The ruling on ``shot``, given the surface discs ``before`` it (the shot disc not yet
    among them)."""
    chain = [sim.disc(i) for i in shot.struck]
    dropped = {d.disc for d in shot.drops}
    team = shot.team
    on_surface = [d for d in before if d.where == "surface"]
    foul, reason, to_ditch = False, "", []
    if rules.game == "crokidarts":
        if checkout:
            pass
        elif on_surface:
            if len(chain) == 1:
                foul, reason = True, "it struck no disc on the board"
        else:
            foul, reason = _fifteen(sim, chain, dropped)
    elif any(d.team != team for d in on_surface):
        if all(d.team == team for d in chain):
            foul, reason = True, "it hit no opposing disc"
    elif rules.open_board == "fifteen":
        foul, reason = _fifteen(sim, chain, dropped)
    elif rules.open_board == "remove-outer":
        mine = chain[0]
        if mine.where == "surface" and not reaches_fifteen(sim, mine):
            to_ditch.append(mine.id)
    void: list[int] = []
    if foul:
        to_ditch += [d.id for d in chain if d.team == team and d.where == "surface"]
        void = [d.disc for d in shot.drops if d.team == team]
    for d in sim.discs("surface"):
        if sim.board.zone(d.r) == 0 and d.id not in to_ditch:
            to_ditch.append(d.id)
    return Ruling(foul, reason, tuple(to_ditch), tuple(void))


def _fifteen(sim: BoardSim, chain: list[SimDisc], dropped: set[int]) -> tuple[bool, str]:
    if any(d.id in dropped or reaches_fifteen(sim, d) for d in chain):
        return False, ""
    return True, "on an open board no disc of the shot ended touching or inside the 15 line"


def carry_out(sim: BoardSim, ruling: Ruling) -> None:
    """The players move the discs: the ruling's discs to the ditch, voided 20s out of play."""
    for disc in ruling.to_ditch:
        sim.to_ditch(disc)
    for disc in ruling.void:
        sim.set_aside(disc)
    if ruling.foul:
        log.debug("foul: %s", ruling.reason)
