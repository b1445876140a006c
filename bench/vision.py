"""Vision accuracy and speed on simulator frames (and the two real photos).

Renders seeded simulator frames into a temporary folder (boards left by simulated play and
crowded layouts, at the Pi camera modes' own sizes, a new rig every few frames), calibrates each
rig on its empty-board frame, then reads every frame twice: with the rig's calibration, and from
scratch (finding the board in the frame). Against the frames' truth it prints:

  on-board discs   found, zoned right (an unflagged wrong zone is the worst error), flagged:
                   for the zone within 1 mm of a line (the targets allow it), for the side (a
                   board showing one side only before the match has shown both colours)
  sides            right side among found discs
  frames           with no false disc, with exact totals (every disc's zone as read), with exact
                   totals once the flagged discs are checked
  turn             frames whose board came out turned over a degree off (a quarter turn is free
                   without a calibration): their discs' positions turn with it, not their zones
  errors           radial position error (mm) and its ratio to the uncertainty given
  speed            median ms per read_board on decoded frames, per frame size (load average too)

The sides' colours seen in a reading that told both sides apart are passed to the rig's next
readings, as the daemon passes them from round to round of a match (a board with one side's discs
only cannot say which side it is otherwise); so are those of a flagged reading right in every
scoring disc, which the operator would confirm. Then the real photos against their hand truth
(tests/vision/data/real_truth.json).

    python bench/vision.py [--frames 200] [--seed 11] [--per-rig 4] [--keep DIR [--reuse]]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hw_sim.frames import write_frames  # noqa: E402
from rules.board import STANDARD as BOARD  # noqa: E402
from vision import calibrate, confirmed_colours, read_board  # noqa: E402
from vision.camera import CameraModel  # noqa: E402
from vision.seats import seat_side  # noqa: E402
from vision.zones import FLAG_SIGMAS  # noqa: E402

SIDE_OF = {0: "right", 1: "bottom", 2: "left", 3: "top"}  # picture angle / 90, y down


def seat0_of(truth: dict) -> str:
    """The frame edge seat 0 sits at, as an installer would tell calibrate."""
    cam = CameraModel.from_json(truth["camera"])
    return SIDE_OF[round(seat_side(cam, BOARD) / 90.0) % 4]


def turn(xy: np.ndarray, degrees: float) -> np.ndarray:
    a = math.radians(degrees)
    c, s = math.cos(a), math.sin(a)
    return xy @ np.array([[c, s], [-s, c]])


def best_turn(found: list, truth: list) -> float:
    """The turn (degrees) that lays most found discs within 8 mm of true ones: how far the
    reading's board is turned from the truth's."""
    if not found or not truth:
        return 0.0
    fxy = np.array([[d.x_mm, d.y_mm] for d in found])
    txy = np.array([[t["x_mm"], t["y_mm"]] for t in truth])
    a = np.radians(np.arange(0.0, 360.0, 0.25))
    c, s = np.cos(a)[:, None], np.sin(a)[:, None]
    rx, ry = fxy[None, :, 0] * c - fxy[None, :, 1] * s, fxy[None, :, 0] * s + fxy[None, :, 1] * c
    d = np.hypot(rx[..., None] - txy[None, None, :, 0], ry[..., None] - txy[None, None, :, 1])
    hits = (d.min(axis=2) < 8.0).sum(axis=1)
    close = -d.min(axis=2).clip(max=8.0).sum(axis=1)  # among equals, the tightest
    return float(np.degrees(a[np.lexsort((close, hits))[-1]]))


def match(found: list, truth: list, turns: tuple[float, ...]) -> tuple[list, int, float]:
    """Pairs found discs with true ones (nearest within 8 mm, best of the turns tried).
    Returns [(truth, found or None)], false count, turn used."""
    best = None
    for q in turns:
        fxy = turn(np.array([[d.x_mm, d.y_mm] for d in found]).reshape(-1, 2), q)
        pairs, used = [], set()
        cand = sorted(((math.dist(fxy[j], (t["x_mm"], t["y_mm"])), i, j)
                       for i, t in enumerate(truth) for j in range(len(found))))
        taken_t = {}
        for dist, i, j in cand:
            if dist > 8.0 or i in taken_t or j in used:
                continue
            taken_t[i] = j
            used.add(j)
        pairs = [(t, found[taken_t[i]] if i in taken_t else None) for i, t in enumerate(truth)]
        false = len(found) - len(used)
        score = sum(p[1] is not None for p in pairs) - false
        if best is None or score > best[0]:
            best = (score, pairs, false, q)
    return best[1], best[2], best[3]


class Tally:
    def __init__(self) -> None:
        self.c: dict[str, float] = defaultdict(float)
        self.err: list[tuple[float, float]] = []
        self.times: dict[str, list[float]] = defaultdict(list)
        self.failures: list[str] = []

    def add(self, name: str, reading, truth: dict, quarters: tuple[int, ...], ms: float,
            size: str) -> bool:
        """Counts a reading; returns whether it was right in every scoring disc (a flagged
        reading the operator would then confirm as it is)."""
        c = self.c
        c["frames"] += 1
        self.times[size].append(ms)
        # the board's turn is part of the reading: a wrong one moves the discs (not their zones
        # or sides); they are paired as turned, and the turn is counted on its own
        found = list(reading.discs)
        off = best_turn(found, truth["discs"])
        expected = min(quarters, key=lambda q: abs((off - 90 * q + 180) % 360 - 180))
        wrong = abs((off - 90 * expected + 180) % 360 - 180)
        turns = (90.0 * expected, off) if wrong > 1.0 else (90.0 * expected,)
        c["frames turned wrong"] += wrong > 1.0
        if wrong > 1.0:
            self.failures.append(f"{name}: board turned {wrong:.1f} degrees off")
        pairs, false, _ = match(found, truth["discs"], turns)
        c["false discs"] += false
        c["frames with a false disc"] += bool(false)
        exact = tuple(truth["totals"][k] - 20 * truth["twenties"][k] for k in (0, 1))
        got = reading.totals
        checked = [0, 0]
        near_line = [0, 0]  # only discs flagged within 1 mm of a line set by the players
        for t, d in pairs:
            on = not t["in_ditch"]
            key = "on-board" if on else "ditch"
            c[f"{key} discs"] += 1
            if d is None:
                if on:
                    self.failures.append(f"{name}: missed ({t['x_mm']:.1f}, {t['y_mm']:.1f}) "
                                         f"zone {t['zone']}")
                continue
            c[f"{key} found"] += 1
            c["sides right"] += d.team == t["team"]
            c["found"] += 1
            c["flagged"] += d.uncertain
            zone_doubt = d.margin_mm < FLAG_SIGMAS * d.sigma_mm
            c["flagged for the side"] += d.uncertain and not zone_doubt
            c["flagged for the zone, within 1 mm of a line"] += (
                zone_doubt and BOARD.zone_margin(math.hypot(t["x_mm"], t["y_mm"])) <= 1.0)
            zone_ok = d.zone == t["zone"]
            if d.uncertain:  # the operator looks and sets it right
                checked[t["team"]] += t["zone"]
            else:
                checked[d.team] += d.zone
            if d.uncertain and BOARD.zone_margin(math.hypot(t["x_mm"], t["y_mm"])) <= 1.0:
                near_line[t["team"]] += t["zone"]
            else:
                near_line[d.team] += d.zone
            if on:
                c["zone right"] += zone_ok
                c["zone right or flagged"] += zone_ok or d.uncertain
                c["flagged on-board"] += d.uncertain
                margin = BOARD.zone_margin(math.hypot(t["x_mm"], t["y_mm"]))
                c["on-board > 1 mm from a line"] += margin > 1.0
                c["flagged > 1 mm from a line"] += d.uncertain and margin > 1.0
                c["zone-flagged > 1 mm from a line"] += (d.uncertain and d.side_sure
                                                         and margin > 1.0)
                if not zone_ok and not d.uncertain:
                    c["wrong and unflagged"] += 1
                    self.failures.append(
                        f"{name}: ({t['x_mm']:.1f}, {t['y_mm']:.1f}) zone {t['zone']} read "
                        f"{d.zone} unflagged, margin {margin:.2f} mm, sigma {d.sigma_mm:.2f}")
                rt = math.hypot(t["x_mm"], t["y_mm"])
                self.err.append((math.hypot(d.x_mm, d.y_mm) - rt, d.sigma_mm))
        c["exact totals"] += tuple(got) == exact
        for d in reading.discs:  # false discs count as read
            if all(p[1] is not d for p in pairs):
                checked[d.team] += d.zone
                near_line[d.team] += d.zone
                c["false discs that score unflagged"] += d.zone > 0 and not d.uncertain
        c["exact totals once flagged checked"] += tuple(checked) == exact
        c["exact totals, within 1 mm checked"] += tuple(near_line) == exact
        scoring_false = any(d.zone > 0 for d in reading.discs if all(p[1] is not d for p in pairs))
        return not scoring_false and all(
            d is not None and d.team == t["team"] and d.zone == t["zone"]
            for t, d in pairs if t["zone"] > 0)

    def merge(self, other: Tally) -> None:
        for k, v in other.c.items():
            self.c[k] += v
        self.err += other.err
        for k, v in other.times.items():
            self.times[k] += v
        self.failures += other.failures

    def report(self, title: str) -> None:
        c = self.c
        n = max(c["frames"], 1)

        def pct(a: str, b: str) -> str:
            return f"{100 * c[a] / max(c[b], 1):6.2f}%  ({int(c[a])}/{int(c[b])})"

        print(f"\n== {title}: {int(c['frames'])} frames, {int(c['on-board discs'])} on-board "
              f"discs, {int(c['ditch discs'])} in the ditch")
        if c["frames not read"]:
            print(f"  frames refused (their discs count as missed): {int(c['frames not read'])}")
        print(f"  on-board discs found             {pct('on-board found', 'on-board discs')}")
        print(f"  ... zoned right                  {pct('zone right', 'on-board discs')}")
        print("  ... zoned right or flagged       "
              f"{pct('zone right or flagged', 'on-board discs')}")
        print(f"  ... wrong and unflagged          {int(c['wrong and unflagged'])}")
        print(f"  ditch discs found                {pct('ditch found', 'ditch discs')}")
        print(f"  flagged (all found discs)        {pct('flagged', 'found')}")
        print("  ... for the zone, within 1 mm    "
              f"{pct('flagged for the zone, within 1 mm of a line', 'found')}")
        print("  ... for the side (one colour)    "
              f"{pct('flagged for the side', 'found')}")
        c["flagged, not within 1 mm"] = (c["flagged"]
                                         - c["flagged for the zone, within 1 mm of a line"])
        print("  ... all but within 1 mm          "
              f"{pct('flagged, not within 1 mm', 'found')}")
        print(f"  flagged, > 1 mm from a line      "
              f"{pct('flagged > 1 mm from a line', 'on-board > 1 mm from a line')}")
        print(f"  ... for the zone                 "
              f"{pct('zone-flagged > 1 mm from a line', 'on-board > 1 mm from a line')}")
        print(f"  sides right                      {pct('sides right', 'found')}")
        print(f"  frames without a false disc      "
              f"{100 * (1 - c['frames with a false disc'] / n):6.2f}%  "
              f"({int(n - c['frames with a false disc'])}/{int(n)}; "
              f"{int(c['false discs'])} false discs, "
              f"{int(c['false discs that score unflagged'])} scoring unflagged)")
        print(f"  board turned over 1 degree off   {int(c['frames turned wrong'])} frames "
              "(its discs then paired as turned)")
        print(f"  frames with exact totals         {100 * c['exact totals'] / n:6.2f}%")
        print(f"  ... once flagged discs checked   "
              f"{100 * c['exact totals once flagged checked'] / n:6.2f}%")
        print(f"  ... only those within 1 mm       "
              f"{100 * c['exact totals, within 1 mm checked'] / n:6.2f}%")
        if self.err:
            e = np.array(self.err)
            z = e[:, 0] / e[:, 1]
            print(f"  radial error mm: mean {e[:, 0].mean():+.3f}, sd {e[:, 0].std():.3f}, "
                  f"|err| p50 {np.percentile(np.abs(e[:, 0]), 50):.3f}, "
                  f"p99 {np.percentile(np.abs(e[:, 0]), 99):.3f}, max {np.abs(e[:, 0]).max():.3f}")
            print(f"  error / sigma: sd {z.std():.2f}, |z| > 3: {np.mean(np.abs(z) > 3) * 100:.2f}%"
                  f"; sigma median {np.median(e[:, 1]):.3f} mm")
        for size, t in sorted(self.times.items()):
            print(f"  read_board {size}: median {statistics.median(t):6.0f} ms, "
                  f"p90 {np.percentile(t, 90):6.0f} ms over {len(t)} frames")
        for f in self.failures[:25]:
            print("   -", f)
        if len(self.failures) > 25:
            print(f"   ... and {len(self.failures) - 25} more")


def bench_sim(folder: Path, frames: int, seed: int, per_rig: int, reuse: bool = False) -> None:
    half = frames // 2
    sets = []
    for source, n, s in (("play", frames - half, seed), ("layouts", half, seed + 1)):
        out = folder / source
        t0 = time.perf_counter()
        if reuse and (out / "index.json").exists():
            index = json.loads((out / "index.json").read_text())
            print(f"reusing {len(index)} {source} frames in {out}")
        else:
            index = write_frames(out, n, s, per_rig=per_rig, boards=source)
            print(f"rendered {n} {source} frames in {time.perf_counter() - t0:.0f} s")
        sets.append((source, out, index))
    total = {True: Tally(), False: Tally()}
    for source, out, index in sets:
        with_cal, without = Tally(), Tally()
        cals: dict[int, object] = {}
        seen: dict[tuple[int, bool], tuple] = {}  # the sides' colours, carried over a rig's rounds
        for item in index:
            truth = json.loads((out / item["truth"]).read_text())
            frame = cv2.imread(str(out / item["image"]))
            size = f"{frame.shape[1]}x{frame.shape[0]}"
            rig = item["rig"]
            if rig not in cals:
                empty = cv2.imread(str(out / item["empty"]))
                et = json.loads((out / item["empty_truth"]).read_text())
                try:
                    cals[rig] = calibrate(empty, seat0=seat0_of(et), name=item["empty"])
                except Exception as exc:  # reported, and the rig's frames read without
                    print(f"  calibration of rig {rig} failed: {exc}")
                    cals[rig] = None
            cal = cals[rig]
            for tally, use_cal, quarters in ((with_cal, True, (0,)), (without, False,
                                                                       (0, 1, 2, 3))):
                if use_cal and cal is None:
                    tally.failures.append(f"{item['image']}: rig not calibrated")
                    continue
                t0 = time.perf_counter()
                try:
                    reading = read_board(frame, cal if use_cal else None, name=item["image"],
                                         colours=seen.get((rig, use_cal)))
                except Exception as exc:  # every disc of the frame missed
                    tally.failures.append(f"{item['image']}: {type(exc).__name__}: {exc}")
                    tally.c["frames"] += 1
                    tally.c["frames not read"] += 1
                    for t in truth["discs"]:
                        tally.c["ditch discs" if t["in_ditch"] else "on-board discs"] += 1
                    continue
                ms = (time.perf_counter() - t0) * 1000
                right = tally.add(item["image"], reading, truth, quarters, ms, size)
                if reading.sides_seen is not None:
                    seen[(rig, use_cal)] = reading.sides_seen
                elif reading.uncertain and right:  # the operator confirms it as it is
                    seen[(rig, use_cal)] = confirmed_colours(seen.get((rig, use_cal)), reading)
        with_cal.report(f"{source}, with the rig's calibration")
        without.report(f"{source}, board found in each frame (no calibration)")
        total[True].merge(with_cal)
        total[False].merge(without)
    total[True].report("all frames, with the rigs' calibrations")
    total[False].report("all frames, board found in each frame (no calibration)")


def bench_real() -> None:
    from tests.vision import real  # the same comparison the tests assert on

    if not real.TRUTH.exists() or not real.REAL.exists():
        print(f"\n(real photos: no hand truth, or no photos in {real.REAL})")
        return
    data = real.truth()
    board = real.board_of(data)
    for entry in data["photos"]:
        print(f"\n== real photo {entry['image']} (board: {data['board']})")
        t0 = time.perf_counter()
        try:
            lines = real.compare(entry, board)
        except Exception as exc:
            lines = [f"{type(exc).__name__}: {exc}"]
        for line in lines:
            print("  " + line)
        print(f"  ({(time.perf_counter() - t0) * 1000:.0f} ms)")
        if "camera" in entry:
            frame = cv2.imread(str(real.REAL / entry["image"]))
            try:
                read_board(frame, board=board)
                print("  from scratch: read")
            except Exception as exc:
                print(f"  from scratch: {type(exc).__name__}: {exc}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--frames", type=int, default=200)
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--per-rig", type=int, default=4)
    p.add_argument("--keep", help="render into this folder and keep it")
    p.add_argument("--reuse", action="store_true",
                   help="with --keep: read the frames already there instead of rendering")
    args = p.parse_args()
    load = os.getloadavg()
    print(f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on "
          f"{os.cpu_count()} cores")
    if args.keep:
        bench_sim(Path(args.keep), args.frames, args.seed, args.per_rig, args.reuse)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            bench_sim(Path(tmp), args.frames, args.seed, args.per_rig)
    bench_real()
    load = os.getloadavg()
    print(f"\nload average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
