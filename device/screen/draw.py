"""The scoreboard picture: a :class:`ScoreView` drawn for a small OLED.

Seen from the players' chairs, a 128x64 panel can carry little more than two numbers, so the
layout gives both sides' scores two thirds of the height and keeps everything else to one thin
line above and below: who is up (that side's name is lit), the round or leg, and what the box is
waiting for. The moments that need the players' attention take the whole screen: a 20 that has
just dropped, and a reading the operator must CHECK. A 256x64 panel keeps the same middle and
adds a column for each side (names, discs still in hand, the last round, legs and sets), with
labels dimmed on greyscale panels.

What differs between the round games and crokidarts (the tally beside a name, the round or leg,
the words under the scores, the wide layout's heading, pips and record) is asked of a
:class:`~device.screen.sheet.ScoreSheet` chosen once per frame by the kind of view
(:mod:`device.screen.rounds`, :mod:`device.screen.crokidarts`); the rest of the layout is the
same for every game.

Everything is whole-pixel rectangles and bitmap glyphs (see :mod:`device.screen.glyphs`), so
the same view gives the same bytes on any machine and any Pillow.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import assert_never

from PIL import Image, ImageDraw

from device.errors import DisplaySettingsError
from device.screen.crokidarts import DartsSheet
from device.screen.glyphs import (
    SMALL,
    TINY,
    Digits,
    Face,
    draw_number,
    draw_text,
    fit_text,
    text_width,
)
from device.screen.rounds import RoundsSheet
from device.screen.sheet import ScoreSheet
from device.screen.view import DartsView, RoundsView, ScoreView, View

MODES = ("1", "L")
NARROW = 128
WIDE = 256
HEIGHT = 64


@dataclass(frozen=True)
class Ink:
    """Fill values: ``on`` for what must be read from the chairs, ``dim`` for labels, ``faint``
    for what is spent (discs already shot). On a monochrome panel all three are simply lit."""

    on: int
    dim: int
    faint: int
    off: int = 0


INKS = {"1": Ink(255, 255, 255), "L": Ink(255, 153, 68)}


class Pen:
    """Drawing on the image with the layout's origin and the panel's inks."""

    def __init__(self, image: Image.Image, ox: int, oy: int, ink: Ink, mono: bool) -> None:
        self.draw = ImageDraw.Draw(image)
        self.ox, self.oy = ox, oy
        self.ink = ink
        self.mono = mono

    def rect(self, x0: int, y0: int, x1: int, y1: int, fill: int) -> None:
        self.draw.rectangle((self.ox + x0, self.oy + y0, self.ox + x1, self.oy + y1), fill=fill)

    def frame(self, x0: int, y0: int, x1: int, y1: int, fill: int, t: int = 1) -> None:
        self.rect(x0, y0, x1, y0 + t - 1, fill)
        self.rect(x0, y1 - t + 1, x1, y1, fill)
        self.rect(x0, y0, x0 + t - 1, y1, fill)
        self.rect(x1 - t + 1, y0, x1, y1, fill)

    def text(self, x: int, y: int, s: str, fill: int, face: Face = SMALL, sx: int = 1,
             sy: int = 1, align: str = "left") -> int:
        """Draws ``s`` with its capitals' top at ``y``; ``x`` is its left edge, right edge
        (``align="right"``) or middle (``"centre"``). Returns its width."""
        w = text_width(s, face, sx)
        if align == "right":
            x = x - w + 1
        elif align == "centre":
            x = x - w // 2
        draw_text(self.draw, (self.ox + x, self.oy + y), s, fill, face, sx, sy)
        return w

    def number(self, x: int, y: int, d: Digits, n: int, fill: int) -> None:
        draw_number(self.draw, self.ox + x, self.oy + y, d, n, fill)


def render(view: View, width: int = NARROW, height: int = HEIGHT, mode: str = "1"
           ) -> Image.Image:
    """The frame for ``view`` on a ``width`` x ``height`` panel: mode ``"1"`` (monochrome) or
    ``"L"`` (greyscale, drawn in the 16 levels a 4-bit panel shows). Panels 256 wide or more
    get the wide layout; the layout is centred on panels bigger than it."""
    if mode not in MODES:
        raise DisplaySettingsError(
            f"display mode must be one of {', '.join(MODES)}, got {mode!r}", "mode")
    if width < NARROW or height < HEIGHT:
        raise DisplaySettingsError(f"the scoreboard needs a panel of at least {NARROW}x{HEIGHT} "
                                   f"pixels, got {width}x{height}", "width")
    wide = width >= WIDE
    lw = WIDE if wide else NARROW
    image = Image.new(mode, (width, height), 0)
    pen = Pen(image, (width - lw) // 2, (height - HEIGHT) // 2, INKS[mode], mode == "1")
    sheet = game_sheet(view)
    if view.twenty is not None:
        _flash(pen, view, lw)
    elif view.check:
        _check(pen, view, sheet, lw)
    elif wide:
        _wide(pen, view, sheet)
    else:
        _narrow(pen, view, sheet)
    return image


def game_sheet(view: View) -> ScoreSheet:
    """What differs between the games, chosen once for the frame."""
    match view:
        case RoundsView():
            return RoundsSheet(view)
        case DartsView():
            return DartsSheet(view)
        case other:
            assert_never(other)


# --- the big digits -------------------------------------------------------------------------------

SCORE_Y = 11
SCORE_H = 42
BAND_Y = 55  # the line under the scores: rows 55..63


def digits_for(n_digits: int, room: int, h: int = SCORE_H) -> Digits:
    """The largest figures that fit ``n_digits`` in ``room`` pixels, no wider than a scoreboard
    figure of height ``h`` should be."""
    gap = 4 if n_digits <= 2 else 3 if n_digits == 3 else 2
    w = min(h * 11 // 21, (room - (n_digits - 1) * gap) // n_digits)
    t = max(2, min(h // 7, w * 2 // 7))
    return Digits(w, h, t, gap)


def _scores(pen: Pen, view: ScoreView, x0: int, room: int) -> None:
    """Both scores, each centred in its half of ``room`` columns from ``x0``, one size for both
    so neither looks bigger; a colon between them."""
    half = room // 2
    k = max(len(str(v)) for v in view.score)
    d = digits_for(k, half - 4 if k < 3 else half - 6)
    for side in (0, 1):
        n = view.score[side]
        w = d.width(n)
        left = x0 + side * half + (half - w) // 2
        fill = pen.ink.on
        if view.finished and view.winner is not None and view.winner != side:
            fill = pen.ink.dim
        pen.number(left, SCORE_Y, d, n, fill)
    mid = x0 + half - 1
    for y in (SCORE_Y + SCORE_H // 3 - 1, SCORE_Y + 2 * SCORE_H // 3 - 1):
        pen.rect(mid, y, mid + 1, y + 1, pen.ink.dim)


# --- the narrow (128x64) layout -------------------------------------------------------------------

def _narrow(pen: Pen, view: ScoreView, sheet: ScoreSheet) -> None:
    for side in (0, 1):
        _name_band(pen, view, sheet, side)
    _scores(pen, view, 0, NARROW)
    _band(pen, view, sheet, 0, NARROW)


def _lit(view: ScoreView, side: int) -> bool:
    """The side whose name is lit: the one to shoot, or the winner once the match is over."""
    if view.finished:
        return view.winner == side
    return view.side_up == side


def _fit_label(s: str, room: int) -> tuple[str, Face]:
    """``s`` in the small font if it fits, else in capitals in the tiny one, cut if it must
    be."""
    if text_width(s, SMALL) <= room:
        return s, SMALL
    s = s.upper()  # the tiny font's lower case is too small to read
    if text_width(s, TINY) <= room:
        return s, TINY
    return fit_text(s, room, TINY), TINY


def _name_band(pen: Pen, view: ScoreView, sheet: ScoreSheet, side: int) -> None:
    """The side's name across the top of its half, lit when it is that side's shot, and the
    game's tally (crokidarts: the legs and sets won) at the inner end."""
    x0, x1 = (0, 62) if side == 0 else (65, 127)
    lit = _lit(view, side)
    fg = pen.ink.off if lit else pen.ink.on
    if lit:
        pen.rect(x0, 0, x1, 8, pen.ink.on)
    tally = sheet.tally(side)
    tw = text_width(tally, TINY)
    room = x1 - x0 - 3 - (tw + 4 if tally else 0)
    name, face = _fit_label(view.sides[side], room)
    y = 1 if face is SMALL else 2
    if side == 0:
        pen.text(x0 + 2, y, name, fg, face)
        if tally:
            pen.text(x1 - 1, 2, tally, fg, TINY, align="right")
    else:
        pen.text(x1 - 1, y, name, fg, face, align="right")
        if tally:
            pen.text(x0 + 2, 2, tally, fg, TINY)


def _band(pen: Pen, view: ScoreView, sheet: ScoreSheet, x0: int, room: int, title: str = ""
          ) -> None:
    """The line under the scores: trouble first (errors, inverted), then a passing message,
    else what the game stands at (left) and what the box waits for (right). A ``title`` takes
    the left's place when that would only repeat the round or leg (the wide layout has them
    above)."""
    y = BAND_Y + 1
    x1 = x0 + room - 1
    if view.errors:
        pen.rect(x0, BAND_Y, x1, BAND_Y + 8, pen.ink.on)
        more = f"+{len(view.errors) - 1}" if len(view.errors) > 1 else ""
        mw = text_width(more, SMALL) + 4 if more else 0
        words, face = _fit_label("! " + view.errors[0].upper(), room - 4 - mw)
        pen.text(x0 + 2, y + (face is TINY), words, pen.ink.off, face)
        if more:
            pen.text(x1 - 2, y, more, pen.ink.off, align="right")
        return
    if view.message:
        words, face = _fit_label(view.message, room - 4)
        pen.text(x0 + room // 2, y + (face is TINY), words, pen.ink.on, face, align="centre")
        return
    where = sheet.where()
    lefts, rights, loud = _status_words(view, sheet, where)
    if title and lefts[0] == where[0]:
        lefts = [title, *lefts]
    pad = 4 if loud else 1
    shortest = min(text_width(w) for w in lefts) if lefts else 0
    right = _first_fit(rights, room - 2 * pad - shortest - 6)
    rw = text_width(right)
    if loud and right:
        pen.rect(x1 - rw - 2 * pad + 1, BAND_Y, x1, BAND_Y + 8, pen.ink.on)
    pen.text(x1 - pad, y, right, pen.ink.off if loud else pen.ink.on, align="right")
    left_room = room - rw - 2 * pad - 6
    left, face = lefts[0], SMALL
    if text_width(left) > left_room:
        # the full wording in tiny capitals beats a shorter one in the small font
        if text_width(left.upper(), TINY) <= left_room:
            left, face = left.upper(), TINY
        else:
            left = _first_fit(lefts, left_room)
    pen.text(x0 + 1, y + (face is TINY), left, pen.ink.dim, face)


def _first_fit(options: list[str], room: int, face: Face = SMALL) -> str:
    """The first (longest) wording that fits in ``room``, else the last one cut to fit."""
    for words in options:
        if text_width(words, face) <= room:
            return words
    return fit_text(options[-1], room, face) if options else ""


def _status_words(view: ScoreView, sheet: ScoreSheet, where: list[str]
                  ) -> tuple[list[str], list[str], bool]:
    """Wordings, longest first, of where the game stands and of what is awaited, and whether
    the latter must stand out."""
    if view.finished:
        if view.winner is None:
            return where, ["DRAW"], True
        names = _names(view, view.winner)
        return where, [f"{n} WINS" for n in names] + names, True
    return sheet.standing(where)


def _names(view: ScoreView, side: int) -> list[str]:
    """A side's name, then shorter: in doubles the first names only, then initials."""
    full = view.sides[side]
    if not view.doubles:
        return [full]
    a, b = view.players[side], view.players[side + 2]
    return [full, f"{a[0]}&{b[0]}"]


# --- whole-screen moments -------------------------------------------------------------------------

def _flash(pen: Pen, view: ScoreView, room: int) -> None:
    """A 20 has just dropped: the panel lights up with a huge 20 and the side it counts for."""
    assert view.twenty is not None
    pen.rect(0, 0, room - 1, HEIGHT - 1, pen.ink.on)
    d = Digits(26, 44, 7, 6)
    w = d.width(20)
    x = (room - w) // 2
    pen.number(x, 2, d, 20, pen.ink.off)
    for i, y in enumerate((12, 22, 32)):  # speed lines either side
        reach = 14 - 4 * abs(i - 1)
        pen.rect(x - 6 - reach, y, x - 6, y + 1, pen.ink.off)
        pen.rect(x + w + 5, y, x + w + 5 + reach, y + 1, pen.ink.off)
    name = fit_text(view.sides[view.twenty], room - 8)
    pen.text(room // 2, 52, name, pen.ink.off, align="centre")


def _check(pen: Pen, view: ScoreView, sheet: ScoreSheet, room: int) -> None:
    """A reading waits for the operator: CHECK in huge letters on a lit block, the values read
    underneath, and (on the line below) anything that is broken."""
    pen.rect(0, 0, room - 1, 27, pen.ink.on)
    pen.text(room // 2, 3, "CHECK", pen.ink.off, SMALL, 3, 3, align="centre")
    pen.text(room // 2, 31, sheet.check_line(), pen.ink.on, SMALL, 2, 2, align="centre")
    if room >= WIDE:
        for side in (0, 1):
            name, face = _fit_label(view.sides[side], 60)
            if side == 0:
                pen.text(2, 33, name, pen.ink.dim, face)
            else:
                pen.text(room - 3, 33, name, pen.ink.dim, face, align="right")
    if view.errors:
        _band(pen, view, sheet, 0, room)
    else:
        words, face = _fit_label("CONFIRM OR CORRECT", room - 4)
        pen.text(room // 2, BAND_Y + 1 + (face is TINY), words, pen.ink.dim, face,
                 align="centre")


# --- the wide (256x64) layout ---------------------------------------------------------------------

def _wide(pen: Pen, view: ScoreView, sheet: ScoreSheet) -> None:
    """The narrow middle (scores and the line under them) with a column for each side."""
    pen.text(WIDE // 2, 1, sheet.heading(), pen.ink.dim, align="centre")
    _scores(pen, view, 64, 128)
    for side in (0, 1):
        _column(pen, view, sheet, side)
    _band(pen, view, sheet, 0, WIDE, view.rules.replace("-", " ").upper())


def _column(pen: Pen, view: ScoreView, sheet: ScoreSheet, side: int) -> None:
    """A side's names (the one to shoot lit), its discs in hand as pips and its record."""
    x0, x1 = (0, 61) if side == 0 else (194, 255)
    align = "left" if side == 0 else "right"
    tx = x0 + 2 if side == 0 else x1 - 2
    seats = [s for s in range(len(view.players)) if s % 2 == side]
    y = 0
    for seat in seats:
        name, face = _fit_label(view.players[seat], x1 - x0 - 3)
        up = view.seat == seat and not view.finished and view.awaiting in ("shot", "board")
        won = view.finished and view.winner == side
        if up or won:
            pen.rect(x0, y, x1, y + 8, pen.ink.on)
        fg = pen.ink.off if up or won else pen.ink.on
        pen.text(tx, y + (1 if face is SMALL else 2), name, fg, face, align=align)
        y += 10
    y += 1
    if not view.finished:
        _pips(pen, sheet, side, x0, x1, y)
    y += 8
    for line in sheet.record(side)[-(BAND_Y - 1 - y) // 7:]:
        pen.text(tx, y, line, pen.ink.dim, TINY, align=align)
        y += 7


def _pips(pen: Pen, sheet: ScoreSheet, side: int, x0: int, x1: int, y: int) -> None:
    """One square per disc the side still has to shoot (faint, or a dash, for those shot)."""
    full, total = sheet.pips(side)
    step = 5 if total <= 12 else 4
    size = step - 1
    width = total * step - 1
    start = x0 + 2 if side == 0 else x1 - 1 - width
    for i in range(total):
        # the side's own end of the row empties first, as discs leave its hand
        k = i if side == 1 else total - 1 - i
        x = start + k * step
        if i < full:
            pen.rect(x, y, x + size - 1, y + size - 1, pen.ink.on)
        elif pen.mono:  # an outline would look filled at this size: a dash on the floor
            pen.rect(x, y + size - 1, x + size - 1, y + size - 1, pen.ink.on)
        else:
            pen.rect(x, y, x + size - 1, y + size - 1, pen.ink.faint)
