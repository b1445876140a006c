"""Pairing read discs with the simulator's true ones, and tallying how a reading did."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np


def turn(xy: np.ndarray, quarter: int) -> np.ndarray:
    a = quarter * math.pi / 2
    c, s = math.cos(a), math.sin(a)
    return xy @ np.array([[c, s], [-s, c]])


def pair(found: list, truth: list, quarters: tuple[int, ...] = (0,)) -> tuple[list, list]:
    """[(true disc, read disc or None)] and the read discs left over (false), nearest within
    8 mm, taking the best of the allowed quarter turns (a bare photo's turn is unknown)."""
    best = None
    for q in quarters:
        fxy = turn(np.array([[d.x_mm, d.y_mm] for d in found]).reshape(-1, 2), q)
        order = sorted((math.dist(fxy[j], (t["x_mm"], t["y_mm"])), i, j)
                       for i, t in enumerate(truth) for j in range(len(found)))
        taken: dict[int, int] = {}
        used: set[int] = set()
        for dist, i, j in order:
            if dist <= 8.0 and i not in taken and j not in used:
                taken[i] = j
                used.add(j)
        pairs = [(t, found[taken[i]] if i in taken else None) for i, t in enumerate(truth)]
        false = [d for j, d in enumerate(found) if j not in used]
        if best is None or len(used) - len(false) > best[0]:
            best = (len(used) - len(false), pairs, false)
    return best[1], best[2]


def tally(results: list[tuple[object, dict]], quarters: tuple[int, ...] = (0,)) -> Counter:
    """Counts over (reading, truth) pairs: on-board discs found, zoned right, zoned right or
    flagged, wrong and unflagged; sides right; false discs; exact totals."""
    c: Counter = Counter()
    for reading, truth in results:
        pairs, false = pair(list(reading.discs), truth["discs"], quarters)
        c["frames"] += 1
        c["false"] += len(false)
        c["false frames"] += bool(false)
        board = tuple(truth["totals"][k] - 20 * truth["twenties"][k] for k in (0, 1))
        c["exact totals"] += tuple(reading.totals) == board
        for t, d in pairs:
            on = not t["in_ditch"]
            c["on-board" if on else "ditch"] += 1
            if d is None:
                continue
            c["found"] += 1
            c["side right"] += d.team == t["team"]
            # a disc scoring nothing may be either side's: its side changes no total
            c["side right or flagged"] += d.team == t["team"] or d.uncertain or t["zone"] == 0
            c["flagged"] += d.uncertain
            if on:
                c["on-board found"] += 1
                c["zone right"] += d.zone == t["zone"]
                c["right or flagged"] += d.zone == t["zone"] or d.uncertain
                c["wrong unflagged"] += d.zone != t["zone"] and not d.uncertain
    return c
