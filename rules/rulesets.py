"""The rule sets a club can choose, as named presets with a few documented options.

A rule set is a value: the match keeps the one it started with, so a replay years later scores the
same way even if the presets here change. Options are checked by name, type and range so a typo in a
match event is refused instead of silently ignored.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

from rules.errors import RuleSetError, shown

Game = Literal["tournament", "casual", "crokidarts"]
OpenBoard = Literal["fifteen", "remove-outer", "off"]
Tiebreak = Literal["none", "extra-round"]


@dataclass(frozen=True)
class RuleSet:
    """How a match is played and scored.

    ``discs`` is per seat per round, or per turn in crokidarts. ``open_board`` records the rule for
    shots with no opposing disc on the board: ``fifteen`` (the shot must leave a disc touching or
    inside the 15 line, else it is a foul), ``remove-outer`` (a shooter's disc stopping in the 10 or
    5 zone is taken off) or ``off``. It changes what players take off the board, which the camera
    then sees; the engine needs it only to describe the match and to drive simulated players.
    """

    name: str
    game: Game
    seats: int
    discs: int
    rounds: int = 4
    round_points: tuple[int, int, int] = (2, 1, 0)
    target: int = 100
    tiebreak: Tiebreak = "none"
    open_board: OpenBoard = "fifteen"
    legs: int = 3
    sets: int = 3

    @property
    def teams(self) -> int:
        return 2

    def team_of(self, seat: int) -> int:
        """Partners sit opposite, so in doubles seats 0 and 2 are team 0, seats 1 and 3 team 1."""
        return seat % 2

    def quadrant_of(self, seat: int) -> int:
        """The board quadrant a seat shoots from: singles players sit opposite each other."""
        return seat * (4 // self.seats)

    def seat_at(self, quadrant: int) -> int | None:
        """The seat shooting from ``quadrant``, or None if nobody sits there."""
        step = 4 // self.seats
        return quadrant // step if quadrant % step == 0 and 0 <= quadrant < 4 else None

    def options(self) -> dict[str, Any]:
        """The options this rule set's game accepts, with their current values."""
        return {name: getattr(self, name) for name in _OPTIONS[self.game]}

    def with_options(self, options: Mapping[str, Any]) -> RuleSet:
        allowed = _OPTIONS[self.game]
        changes: dict[str, Any] = {}
        for key, value in options.items():
            if key not in allowed:
                raise RuleSetError(
                    f"rule set {shown(self.name)} has no option {shown(key)}; "
                    f"its options are: {', '.join(sorted(allowed))}")
            changes[key] = _check_option(self.name, key, value, allowed[key])
        return replace(self, **changes)


# Per game: option name -> (kind, lowest, highest) for ints, or the allowed strings.
_OptionSpec = tuple[str, int, int] | tuple[str, tuple[str, ...]]
_ROUNDS_COMMON: dict[str, _OptionSpec] = {
    "discs": ("int", 1, 20),
    "open_board": ("choice", ("fifteen", "remove-outer", "off")),
}
_OPTIONS: dict[str, dict[str, _OptionSpec]] = {
    "tournament": {**_ROUNDS_COMMON, "rounds": ("int", 1, 99),
                   "tiebreak": ("choice", ("none", "extra-round"))},
    "casual": {**_ROUNDS_COMMON, "target": ("int", 1, 10_000)},
    "crokidarts": {"discs": ("int", 1, 20), "target": ("int", 20, 10_000),
                   "legs": ("int", 1, 99), "sets": ("int", 1, 99)},
}


def _check_option(ruleset: str, key: str, value: Any, spec: _OptionSpec) -> Any:
    if spec[0] == "int":
        low, high = spec[1], spec[2]  # type: ignore[misc]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise RuleSetError(
                f"rule set {shown(ruleset)}: option {shown(key)} must be a whole number from "
                f"{low} to {high}, got {shown(value)}")
        return value
    choices = spec[1]
    if value not in choices:
        raise RuleSetError(
            f"rule set {shown(ruleset)}: option {shown(key)} must be one of {', '.join(choices)}, "
            f"got {shown(value)}")
    return value


PRESETS: dict[str, RuleSet] = {
    r.name: r
    for r in (
        RuleSet("tournament-singles", "tournament", seats=2, discs=8),
        RuleSet("tournament-doubles", "tournament", seats=4, discs=6),
        RuleSet("casual-100", "casual", seats=2, discs=12, open_board="off"),
        RuleSet("casual-100-doubles", "casual", seats=4, discs=6, open_board="off"),
        RuleSet("crokidarts", "crokidarts", seats=2, discs=5, target=400),
    )
}


def ruleset(name: str, options: Mapping[str, Any] | None = None) -> RuleSet:
    """The preset called ``name`` with ``options`` applied."""
    try:
        base = PRESETS[name]
    except KeyError:
        raise RuleSetError(
            f"unknown rule set {shown(name)}; choose one of: {', '.join(PRESETS)}") from None
    return base.with_options(options or {})
