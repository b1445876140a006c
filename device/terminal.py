"""The OLED's frame as text, so ``crokiscore sim`` can show the panel live in a terminal.

Each character holds two pixel rows (upper and lower half blocks), so a 128x64 panel prints as
128 columns by 32 lines, pixel for pixel: what the terminal shows is what the panel got.
"""

from __future__ import annotations

from PIL import Image

BLOCKS = (" ", "▀", "▄", "█")  # indexed by top + 2 * bottom
LIT = 100
"""Greyscale level from which a pixel counts as lit: labels (dim) show, spent-disc marks (faint)
do not, as on a panel seen from a distance."""


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
    if not border:
        return "\n".join(lines)
    return "\n".join(["┌" + "─" * w + "┐", *("│" + line + "│" for line in lines),
                      "└" + "─" * w + "┘"])
