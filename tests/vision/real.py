"""The two real photos against their hand truth (data/real_truth.json): shared by the tests and
``bench/vision.py``, so both report the same comparison."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import cv2

from rules.board import Board
from vision import Calibration, Reading, read_board
from vision.projection import CameraModel

TRUTH = Path(__file__).with_name("data") / "real_truth.json"
REAL = Path(__file__).with_name("data") / "real"
MATCH_PX = 40.0  # a found disc matches a hand-marked one this close (discs are ~100 px across)


def truth() -> dict:
    return json.loads(TRUTH.read_text())


def board_of(data: dict) -> Board:
    return Board(**data["board"])


@dataclass
class Result:
    reading: Reading
    pairs: list[tuple[dict, object]] = field(default_factory=list)  # (truth, found or None)
    false: list = field(default_factory=list)

    @property
    def found(self) -> list[tuple[dict, object]]:
        return [(t, d) for t, d in self.pairs if d is not None]


def read(entry: dict, board: Board) -> Result:
    """Reads a photo as the product would: from scratch, or (for a photo whose board is not
    found from scratch) with the camera stored in the truth."""
    frame = cv2.imread(str(REAL / entry["image"]))
    if frame is None:
        raise FileNotFoundError(REAL / entry["image"])
    cal = None
    if "camera" in entry:
        cal = Calibration(CameraModel.from_json(entry["camera"]), board, focal_sigma=0.1,
                          sigma_mm=1.4)
    reading = read_board(frame, cal, board=board, name=entry["image"])
    found = list(reading.discs)
    used: set[int] = set()
    pairs = []
    for t in entry["discs"]:
        best = min((i for i in range(len(found)) if i not in used),
                   key=lambda i: math.dist(found[i].pixel, t["pixel"]), default=None)
        if best is not None and math.dist(found[best].pixel, t["pixel"]) < MATCH_PX:
            used.add(best)
            pairs.append((t, found[best]))
        else:
            pairs.append((t, None))
    return Result(reading, pairs, [d for i, d in enumerate(found) if i not in used])


def compare(entry: dict, board: Board) -> list[str]:
    """Lines for the benchmark's report."""
    r = read(entry, board)
    n = len(entry["discs"])
    found = r.found
    lines = [f"read {'with the stored camera' if 'camera' in entry else 'from scratch'}: "
             f"{len(found)}/{n} discs found, {len(r.false)} false "
             f"(zones {[d.zone for d in r.false]})",
             f"sides right {sum(d.team == t['team'] for t, d in found)}/{len(found)}, "
             f"zones right {sum(d.zone == t['zone'] for t, d in found)}/{len(found)}, "
             f"flagged {sum(d.uncertain for t, d in found)}",
             f"totals read {list(r.reading.totals)}, by hand {entry['totals']}"]
    for t, d in r.pairs:
        if d is None:
            lines.append(f"missed: {t['side']} disc at pixel {t['pixel']}, zone {t['zone']}"
                         + (f" ({t['note']})" if "note" in t else ""))
    return lines
