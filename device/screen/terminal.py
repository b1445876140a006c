"""The OLED's frame as text, so ``crokiscore sim`` can show the panel live in a terminal.

Each character holds two pixel rows (upper and lower half blocks), so a 128x64 panel prints as
128 columns by 32 lines, pixel for pixel: what the terminal shows is what the panel got. Terminals
narrower than that get braille instead: each character holds 2x4 pixels, so the same panel fits in
64 columns by 16 lines, still pixel for pixel.
"""

from __future__ import annotations

from PIL import Image

BLOCKS = (" ", "▀", "▄", "█")  # indexed by top + 2 * bottom
LIT = 100
"""Greyscale level from which a pixel counts as lit: labels (dim) show, spent-disc marks (faint)
do not, as on a panel seen from a distance."""


# braille dot bits, by (column, row) within a 2x4 cell
_DOTS = ((0x01, 0x02, 0x04, 0x40), (0x08, 0x10, 0x20, 0x80))


def to_braille(image: Image.Image, border: bool = True) -> str:
    """The frame as braille, each character 2 pixels wide and 4 high."""
    grey = image.convert("L")
    w, h = grey.size
    px = grey.tobytes()
    lines = []
    for y in range(0, h, 4):
        cells = []
        for x in range(0, w, 2):
            bits = 0
            for dx in (0, 1):
                for dy in range(4):
                    if x + dx < w and y + dy < h and px[(y + dy) * w + x + dx] >= LIT:
                        bits |= _DOTS[dx][dy]
            cells.append(chr(0x2800 + bits))
        lines.append("".join(cells))
    return _boxed(lines, (w + 1) // 2) if border else "\n".join(lines)


def _boxed(lines: list[str], width: int) -> str:
    return "\n".join(["┌" + "─" * width + "┐", *("│" + line + "│" for line in lines),
                      "└" + "─" * width + "┘"])


def fitting(image: Image.Image, columns: int) -> str:
    """Half blocks when the terminal is wide enough for them, braille otherwise."""
    return to_text(image) if columns >= image.width + 2 else to_braille(image)


def to_text(image: Image.Image, border: bool = True) -> str:
    """The frame as half-block text, one line per two pixel rows, in a thin box if ``border``."""
    grey = image.convert("L")
    w, h = grey.size
    px = grey.tobytes()
    lines = []
    for y in range(0, h, 2):
        top = px[y * w:(y + 1) * w]
        bottom = px[(y + 1) * w:(y + 2) * w] if y + 1 < h else bytes(w)
        lines.append("".join(BLOCKS[(t >= LIT) + 2 * (b >= LIT)] for t, b in zip(top, bottom,
                                                                                    strict=True)))
    return _boxed(lines, w) if border else "\n".join(lines)
