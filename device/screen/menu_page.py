"""The operator's menu on the OLED: what is being chosen, large, and which button does what.

Drawn with the scoreboard's bitmap glyphs and inks (see :mod:`device.screen.draw`), so it is as
deterministic as the scoreboard and readable at arm's length while the operator presses buttons.
"""

from __future__ import annotations

from typing import assert_never

from PIL import Image

from device.core.menu import MenuState
from device.screen.draw import HEIGHT, INKS, NARROW, WIDE, Pen
from device.screen.glyphs import SMALL, TINY, Digits, fit_text, text_width
from rules import DartsSummary, Match, RoundsSummary

HINTS = {
    "items": "MENU:NEXT  OK:CHOOSE",
    "rules": "MENU:NEXT  OK:CHOOSE",
    "players": "MENU:NEXT  OK:CHOOSE",
    "start": "OK:START  BACK:NO",
    "edit": "MENU:+5  BACK:-5  OK:NEXT",
    "undo": "OK:UNDO  BACK:NO",
    "starter": "MENU:NEXT  OK:CHOOSE",
    "breakdown": "ANY BUTTON: BACK",
}
HEADINGS = {
    "items": "MENU", "rules": "NEW MATCH: RULES", "players": "NEW MATCH: PLAYERS",
    "start": "NEW MATCH", "edit": "CORRECT", "undo": "UNDO", "starter": "WHO STARTS",
    "breakdown": "LAST ROUND",
}


def render_menu(state: MenuState, match: Match | None, width: int = NARROW,
                height: int = HEIGHT, mode: str = "1") -> Image.Image:
    lw = WIDE if width >= WIDE else NARROW
    image = Image.new(mode, (width, height), 0)
    pen = Pen(image, (width - lw) // 2, (height - HEIGHT) // 2, INKS[mode], mode == "1")
    on, dim = pen.ink.on, pen.ink.dim
    pen.rect(0, 0, lw - 1, 8, on)
    pen.text(lw // 2, 1, fit_text(HEADINGS.get(state.screen, ""), lw - 4), pen.ink.off,
             align="centre")
    if state.screen == "edit":
        _edit(pen, state, match, lw)
    elif state.screen == "breakdown":
        _breakdown(pen, match, lw)
    else:
        words = state.title() if state.screen != "starter" else _seat_name(state, match)
        if state.screen == "items":
            words = state.items[state.index % len(state.items)]
        if text_width(words, SMALL, 2) <= lw - 4:
            pen.text(lw // 2, 22, words, on, SMALL, 2, 2, align="centre")
        else:
            pen.text(lw // 2, 26, fit_text(words, lw - 4), on, align="centre")
    hint = fit_text(HINTS.get(state.screen, ""), lw - 2, TINY)
    pen.text(lw // 2, 57, hint, dim, TINY, align="centre")
    return image


def _seat_name(state: MenuState, match: Match | None) -> str:
    if match is None:
        return state.title()
    return match.players[state.index % len(match.players)]


def _edit(pen: Pen, state: MenuState, match: Match | None, room: int) -> None:
    d = Digits(12, 26, 4, 3)
    if match is not None and isinstance(match.summary(), DartsSummary):
        pen.text(room // 2, 12, "TURN VALUE", pen.ink.dim, TINY, align="centre")
        w = d.width(state.totals[0])
        pen.number((room - w) // 2, 20, d, state.totals[0], pen.ink.on)
        return
    names = match.team_names() if match is not None else ("SIDE 0", "SIDE 1")
    for side in (0, 1):
        x0 = 0 if side == 0 else room // 2
        label = fit_text(names[side], room // 2 - 4, TINY)
        pen.text(x0 + room // 4, 12, label, pen.ink.dim, TINY, align="centre")
        n = state.totals[side]
        w = d.width(n)
        x = x0 + (room // 2 - w) // 2
        pen.number(x, 20, d, n, pen.ink.on)
        if side == state.side:
            pen.rect(x0 + 4, 48, x0 + room // 2 - 5, 49, pen.ink.on)


def _breakdown(pen: Pen, match: Match | None, room: int) -> None:
    if match is None:
        return
    lines: list[str] = []
    match match.summary():
        case DartsSummary(turns=turns):
            for t in turns[-3:]:
                lines.append(f"{match.players[t.seat]} {t.start}>{t.end} {t.status}")
        case RoundsSummary() as s:
            r = next(s.decided_rounds(), None)
            if r is not None:
                assert r.board is not None and r.points is not None
                lines.append(f"ROUND {r.number}: {r.totals[0]} - {r.totals[1]}")
                lines.append(f"20s {r.twenties[0]}-{r.twenties[1]} "
                             f"BD {r.board[0]}-{r.board[1]}")
                lines.append(f"POINTS {r.points[0]}-{r.points[1]}"
                             + (" CORRECTED" if r.corrected else ""))
        case other:
            assert_never(other)
    if not lines:
        lines = ["NO ROUND YET"]
    for i, line in enumerate(lines[:3]):
        pen.text(2, 13 + 14 * i, fit_text(line, room - 4), pen.ink.on)
