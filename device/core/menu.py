"""The operator's menu on two or three buttons.

``menu`` moves to the next choice (and adds 5 when editing a total), ``ok`` takes the choice,
``back`` leaves (and takes 5 away when editing). With two buttons, holding either one is ``back``.
On the scoreboard itself: ``ok`` confirms a reading marked CHECK, reads the board at once when it is
awaited, and otherwise shows the last round's breakdown; ``back`` asks to undo the latest event;
``menu`` opens the menu.

The menu is a pure state machine: each press gives a new state and at most one action, which the
daemon carries out (every action that changes the match is an event in the store, so it survives a
power cut and can itself be undone). Navigation is not recorded: it changes nothing.

    scoreboard --menu--> [New match] -> [Correct round] -> [Read board now] -> [Undo]
                             |               |                                 |
                           rule set       side 0 total +/-5, ok              Undo? ok
                             |            side 1 total +/-5, ok -> correct
                           players        (crokidarts: the turn's value)
                             |
                           Start? ok -> new match
                         -> [Missed shot] (the sensor bar missed one: the shot due is added)
                         -> [20 was theirs] (the latest 20 goes to the other side)
                         -> [Who starts] (before a round's first shot) -> [Last round] -> [Close]

While the event store is damaged, [Repair store] comes first: "Move store aside?" ok moves the
damaged file aside (kept for recovery) and writes the match the box holds into a new store.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal, assert_never

from rules import (
    PRESETS,
    Confirm,
    Correction,
    DartsSummary,
    Event,
    Match,
    NewMatch,
    RoundsSummary,
    Shot,
    Starter,
    Twenty,
    Undo,
    ruleset,
)

Button = Literal["menu", "ok", "back"]
ITEMS = ("New match", "Correct round", "Read board now", "Undo", "Missed shot", "20 was theirs",
         "Who starts", "Last round", "Close")
REPAIR = "Repair store"
IDLE_TIMEOUT_S = 30.0


@dataclass(frozen=True)
class Action:
    """What the daemon should do: commit ``events`` in order (stopping at one refused), or read
    the board now."""

    events: tuple[Event, ...] = ()
    read_now: bool = False
    repair: bool = False

    @property
    def event(self) -> Event | None:
        return self.events[0] if self.events else None


@dataclass(frozen=True)
class MenuState:
    """``screen`` names what is shown; the other fields are that screen's choices so far."""

    screen: Literal["scoreboard", "items", "rules", "players", "start", "edit", "undo",
                    "starter", "breakdown", "repair"] = "scoreboard"
    index: int = 0
    rules: str = ""
    players: tuple[str, ...] = ()
    totals: tuple[int, int] = (0, 0)
    side: int = 0
    items: tuple[str, ...] = ITEMS
    last_press: float = field(default=0.0, compare=False)

    @property
    def open(self) -> bool:
        return self.screen != "scoreboard"

    def title(self) -> str:
        """The line the display shows for this screen."""
        return {
            "items": self.items[self.index % len(self.items)],
            "rules": self.rules,
            "players": " / ".join(self.players),
            "start": f"Start {self.rules}?",
            "edit": f"Side {self.side}: {self.totals[self.side]}",
            "undo": "Undo last event?",
            "starter": f"Seat {self.index} starts",
            "breakdown": "Last round",
            "repair": "Move store aside?",
        }.get(self.screen, "")


CLOSED = MenuState()


class Menu:
    """Presses in, (state, action) out. ``player_sets`` are the name lists offered for a new
    match (those with the right number of names for the chosen rule set)."""

    def __init__(self, player_sets: tuple[tuple[str, ...], ...]) -> None:
        self.player_sets = player_sets

    def press(self, state: MenuState, button: Button, held: bool, match: Match | None,
              now: float, *, repair: bool = False) -> tuple[MenuState, Action | None]:
        """``repair``: the store is damaged, so the menu offers to repair it first."""
        if held:
            button = "back"
        items = (REPAIR, *ITEMS) if repair else ITEMS
        state = replace(state, last_press=now, items=items)
        handler = getattr(self, f"_on_{state.screen}")
        new, action = handler(state, button, match)
        if new.open and new.items != items:
            new = replace(new, items=items)
        return new, action

    def tick(self, state: MenuState, now: float) -> MenuState:
        """An open menu left alone closes by itself."""
        if state.open and now - state.last_press > IDLE_TIMEOUT_S:
            return CLOSED
        return state

    # --- screens -------------------------------------------------------------------------------

    def _on_scoreboard(self, s: MenuState, b: Button, m: Match | None
                       ) -> tuple[MenuState, Action | None]:
        if b == "menu":
            return replace(CLOSED, screen="items", last_press=s.last_press), None
        if b == "back":
            return replace(s, screen="undo"), None
        what = m.expect().what if m else None
        if what == "confirm":
            return s, Action((Confirm(),))
        if what == "board":
            return s, Action(read_now=True)
        return replace(s, screen="breakdown"), None

    def _on_items(self, s: MenuState, b: Button, m: Match | None
                  ) -> tuple[MenuState, Action | None]:
        if b == "menu":
            return replace(s, index=(s.index + 1) % len(s.items)), None
        if b == "back":
            return CLOSED, None
        item = s.items[s.index % len(s.items)]
        if item == REPAIR:
            return replace(s, screen="repair"), None
        if item == "New match":
            current = m.rules.name if m else next(iter(PRESETS))
            return replace(s, screen="rules", rules=current), None
        if item == "Correct round" and m is not None:
            return replace(s, screen="edit", totals=m.latest_value(), side=0), None
        if item == "Read board now":
            return CLOSED, Action(read_now=True)
        if item == "Undo":
            return replace(s, screen="undo"), None
        if item == "Missed shot" and m is not None:
            exp = m.expect()
            if exp.what == "shot" and exp.seat is not None:
                return CLOSED, Action((Shot(exp.seat),))
            return CLOSED, None
        if item == "20 was theirs" and m is not None:
            side = m.last_twenty_side()
            if side is None:
                return CLOSED, None
            return CLOSED, Action((Undo(), Twenty(1 - side)))
        if item == "Who starts" and m is not None:
            return replace(s, screen="starter", index=0), None
        if item == "Last round":
            return replace(s, screen="breakdown"), None
        return CLOSED, None

    def _on_rules(self, s: MenuState, b: Button, m: Match | None
                  ) -> tuple[MenuState, Action | None]:
        names = list(PRESETS)
        if b == "menu":
            return replace(s, rules=names[(names.index(s.rules) + 1) % len(names)]), None
        if b == "back":
            return replace(s, screen="items"), None
        sets = self._sets_for(s.rules)
        return replace(s, screen="players", players=sets[0], index=0), None

    def _sets_for(self, rules: str) -> tuple[tuple[str, ...], ...]:
        seats = ruleset(rules).seats
        sets = tuple(p for p in self.player_sets if len(p) == seats)
        if not sets:
            sets = (tuple(f"Player {i + 1}" for i in range(seats)),)
        return sets

    def _on_players(self, s: MenuState, b: Button, m: Match | None
                    ) -> tuple[MenuState, Action | None]:
        sets = self._sets_for(s.rules)
        if b == "menu":
            i = (s.index + 1) % len(sets)
            return replace(s, index=i, players=sets[i]), None
        if b == "back":
            return replace(s, screen="rules"), None
        return replace(s, screen="start"), None

    def _on_start(self, s: MenuState, b: Button, m: Match | None
                  ) -> tuple[MenuState, Action | None]:
        if b == "ok":
            return CLOSED, Action((NewMatch(s.rules, s.players),))
        if b == "back":
            return replace(s, screen="players"), None
        return s, None

    def _on_edit(self, s: MenuState, b: Button, m: Match | None
                 ) -> tuple[MenuState, Action | None]:
        t = list(s.totals)
        if b == "menu":
            t[s.side] += 5
            return replace(s, totals=(t[0], t[1])), None
        if b == "back":
            t[s.side] = max(0, t[s.side] - 5)
            return replace(s, totals=(t[0], t[1])), None
        if m is None:
            return CLOSED, None
        event: Correction
        match m.summary():
            case DartsSummary():  # one figure: the turn's value
                event = Correction(value=s.totals[0])
            case RoundsSummary():
                if s.side == 0:
                    return replace(s, side=1), None
                event = Correction(totals=s.totals)
            case other:
                assert_never(other)
        return CLOSED, Action((event,))

    def _on_repair(self, s: MenuState, b: Button, m: Match | None
                   ) -> tuple[MenuState, Action | None]:
        if b == "ok":
            return CLOSED, Action(repair=True)
        return CLOSED, None

    def _on_undo(self, s: MenuState, b: Button, m: Match | None
                 ) -> tuple[MenuState, Action | None]:
        if b == "ok":
            return CLOSED, Action((Undo(),))
        return CLOSED, None

    def _on_starter(self, s: MenuState, b: Button, m: Match | None
                    ) -> tuple[MenuState, Action | None]:
        seats = m.rules.seats if m else 2
        if b == "menu":
            return replace(s, index=(s.index + 1) % seats), None
        if b == "back":
            return replace(s, screen="items", index=s.items.index("Who starts")), None
        return CLOSED, Action((Starter(s.index),))

    def _on_breakdown(self, s: MenuState, b: Button, m: Match | None
                      ) -> tuple[MenuState, Action | None]:
        return CLOSED, None
