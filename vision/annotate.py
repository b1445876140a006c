"""The picture a player checks at a glance: each disc ringed in its side's colour with its value,
the unsure ones marked, and the totals."""

from __future__ import annotations

import numpy as np

from vision.reading import Reading


def annotate(frame: np.ndarray, reading: Reading) -> np.ndarray:
    return frame.copy()
