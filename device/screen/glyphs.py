"""Letters and digits drawn as whole pixels, so a frame is the same on every machine.

Scalable fonts go through FreeType, whose hinting and anti-aliasing change between releases, and
Pillow's default font has changed too; a golden picture made with either would break on the next
upgrade. So text here comes only from luma.core's bitmap fonts (fixed tables of columns), drawn
pixel by pixel or scaled up block by block, and the big score digits are seven-segment figures
made of rectangles. Everything lands on integer pixels with a single fill value.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from luma.core.legacy import text as legacy_text
from luma.core.legacy.font import CP437_FONT, TINY_FONT, proportional
from PIL import ImageDraw


class Face:
    """A bitmap font: ``columns(ch)`` are the glyph's columns (bit 0 = top row).

    ``height`` is the rows its capitals and digits use and ``top`` the blank rows above them,
    which is what layouts align on (text is placed by the top of its capitals); ``cp437`` says
    whether characters beyond ASCII exist in it (CP437 has accented letters, the tiny font only
    ASCII).
    """

    def __init__(self, name: str, table: Any, height: int, top: int, cp437: bool) -> None:
        self.name = name
        self.table = table
        self.height = height
        self.top = top
        self.cp437 = cp437
        self._columns: dict[str, tuple[int, ...]] = {}

    def columns(self, ch: str) -> tuple[int, ...]:
        cols = self._columns.get(ch)
        if cols is None:
            cols = self._columns[ch] = tuple(self.table[ord(ch)])
        return cols

    def glyphs(self, s: str) -> str:
        """``s`` spelt with characters this font has: accents kept where the font has them,
        dropped where it does not, anything else a '?'."""
        return _spell(s, self.cp437)

    def __repr__(self) -> str:
        return f"<Face {self.name}>"


SMALL = Face("small", proportional(CP437_FONT), 7, 0, True)
"""CP437, 8 rows (7 above the baseline), proportional: names and the lines under the scores."""
TINY = Face("tiny", proportional(TINY_FONT), 5, 1, False)
"""3x5 capitals and digits, proportional: labels where room is short."""


@lru_cache(maxsize=1024)
def _spell(s: str, cp437: bool) -> str:
    out = []
    for ch in s:
        if 0x20 <= ord(ch) < 0x7F:
            out.append(ch)
            continue
        if cp437:
            try:
                out.append(chr(ch.encode("cp437")[0]))
                continue
            except UnicodeEncodeError:
                pass
        plain = "".join(c for c in unicodedata.normalize("NFKD", ch)
                        if 0x20 <= ord(c) < 0x7F)
        out.append(plain or "?")
    return "".join(out)


def text_width(s: str, face: Face = SMALL, sx: int = 1) -> int:
    """Width in pixels of ``s`` drawn in ``face`` at horizontal scale ``sx``."""
    spelt = face.glyphs(s)
    cols = sum(len(face.columns(ch)) for ch in spelt)
    # proportional glyphs carry one blank column after them; the last one is not ink
    return max(cols - 1, 0) * sx


def draw_text(draw: ImageDraw.ImageDraw, xy: tuple[int, int], s: str, fill: int,
              face: Face = SMALL, sx: int = 1, sy: int = 1) -> int:
    """Draws ``s`` with the top-left of its capitals at ``xy``, each font pixel an ``sx`` by
    ``sy`` block; returns the x just after it."""
    x, y = xy[0], xy[1] - face.top * sy
    spelt = face.glyphs(s)
    if sx == 1 and sy == 1:
        legacy_text(draw, (x, y), spelt, fill=fill, font=face.table)
        return x + text_width(s, face)
    for ch in spelt:
        for col in face.columns(ch):
            row = 0
            while col:
                if col & 1:
                    run = 1  # a vertical run of set bits becomes one rectangle
                    while col >> run & 1:
                        run += 1
                    draw.rectangle((x, y + row * sy, x + sx - 1, y + (row + run) * sy - 1),
                                   fill=fill)
                    col >>= run
                    row += run
                else:
                    col >>= 1
                    row += 1
            x += sx
    return xy[0] + text_width(s, face, sx)


def fit_text(s: str, width: int, face: Face = SMALL) -> str:
    """``s`` cut (with a final '.') so that it fits in ``width`` pixels."""
    if text_width(s, face) <= width:
        return s
    # every glyph is at least one column wide, so no more than ``width`` characters can fit:
    # a name of thousands of letters is cut at once, not a letter at a time
    s = s[: max(width, 0)]
    while s and text_width(s + ".", face) > width:
        s = s[:-1]
    return s.rstrip() + "." if s else ""


# --- seven-segment digits -------------------------------------------------------------------------

SEGMENTS = {
    "0": "abcdef", "1": "bc", "2": "abdeg", "3": "abcdg", "4": "bcfg",
    "5": "acdfg", "6": "acdefg", "7": "abc", "8": "abcdefg", "9": "abcdfg", "-": "g",
}


@dataclass(frozen=True)
class Digits:
    """The size of a seven-segment figure: ``w`` by ``h`` pixels, strokes ``t`` thick, ``gap``
    pixels between figures. Segments are cut back by one pixel at the joints when strokes are
    thick enough, which reads as a scoreboard from across a room."""

    w: int
    h: int
    t: int
    gap: int

    def width(self, n: int) -> int:
        k = len(str(n))
        return k * self.w + (k - 1) * self.gap


def draw_digit(draw: ImageDraw.ImageDraw, x: int, y: int, d: Digits, ch: str, fill: int) -> None:
    w, h, t = d.w, d.h, d.t
    g = 1 if t >= 3 else 0
    mid = y + (h - t) // 2
    segs = SEGMENTS[ch]

    def rect(x0: int, y0: int, x1: int, y1: int) -> None:
        draw.rectangle((x0, y0, x1, y1), fill=fill)

    if ch == "1":
        # a bare right-hand bar reads as a divider from across a room: a flagged bar, centred
        flag = max(t, w // 3)
        bar = x + (w - t - flag) // 2 + flag
        rect(bar, y, bar + t - 1, y + h - 1)
        rect(bar - flag, y, bar - 1, y + t - 1)
        return
    if "a" in segs:
        rect(x + g, y, x + w - 1 - g, y + t - 1)
    if "g" in segs:
        rect(x + g, mid, x + w - 1 - g, mid + t - 1)
    if "d" in segs:
        rect(x + g, y + h - t, x + w - 1 - g, y + h - 1)
    if "f" in segs:
        rect(x, y + g, x + t - 1, mid + t - 1 - g)
    if "b" in segs:
        rect(x + w - t, y + g, x + w - 1, mid + t - 1 - g)
    if "e" in segs:
        rect(x, mid + g, x + t - 1, y + h - 1 - g)
    if "c" in segs:
        rect(x + w - t, mid + g, x + w - 1, y + h - 1 - g)


def draw_number(draw: ImageDraw.ImageDraw, x: int, y: int, d: Digits, n: int, fill: int) -> int:
    """Draws ``n`` with its top-left at (x, y); returns its width."""
    for i, ch in enumerate(str(n)):
        draw_digit(draw, x + i * (d.w + d.gap), y, d, ch, fill)
    return d.width(n)
