"""Vision accuracy and speed on simulator frames, split by look, on tuning and held-out seeds.

Renders seeded simulator frames into a temporary folder (half boards left by simulated play, half
crowded layouts; with the varied looks by default: boards of other sizes and proportions, black,
navy and natural tops, round, octagonal and square frames, felt and painted ditches, real disc
sets, glare, players' arms and things around the board, Pi camera, phone and overhead video
views; a new rig every few frames), calibrates each rig on its empty-board frame, then reads
every frame twice: with the rig's calibration, and from scratch (finding the board in the
frame). Vision is told what the product is told: nothing of the board's geometry (the
tournament board's), unless ``--board-known``.

Two sets of seeds: the tuning set, which vision's thresholds may be set on, and the held-out
set, which nobody tunes on (look at its failures only to learn what kind of thing fails, never
to adjust a threshold until it passes). Both are reported; a figure that holds on the tuning
seeds only is not yet true.

Per set and reading, a table: all frames, then the frames of each look (board colour, frame
shape, ditch, proportions, surface size, view, and each hazard). Columns, against the targets:

  found     on-board discs found, of those a reading can see (not needing a flag, see below)
  wrong Z   found discs given a wrong zone and not flagged (the worst error)
  wrong S   found scoring discs given the wrong side and not flagged
  ok        frames exact or flagged: their totals right once the flagged discs are checked
            (a disc that leans, is stacked, lies under one or is hidden must be flagged, and
            then the operator counts it)
  flagged   found discs flagged for a doubt of their own (a board in doubt as a whole, part
            of it out of view or a hand over it, holds the frame for a check without flagging
            its discs: they are counted apart, under the table)
  false     frames with a false disc that scores (found where no disc is, zone above 0)
  refused   frames vision would not read (their discs count as missed, the frame as not ok)
  silent    frames whose totals are wrong with nothing flagged at all (the outcome a club
            cannot forgive; a frame with any CHECK is not silent, however wrong)

Then the speed: per frame size, the median JPEG decode of the frame, the calibrated reading's
median and its multiple of the decode, and the median reading from scratch; and the failures
(refusals, missed discs, wrong zones) to look into. A frame's truth JSON has its look (``tags``)
and every disc's; ``--keep DIR`` keeps the frames.

    python bench/vision.py [--frames 200] [--sets tuning,held-out | --seed N] [--looks varied]
                           [--views pi,phone,video] [--per-rig 4] [--board-known]
                           [--readings calibrated,scratch]
                           [--keep DIR [--reuse]] [--failures 20] [--records FILE] [--real]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hw_sim.frames import write_frames  # noqa: E402
from rules.board import STANDARD, Board  # noqa: E402
from vision import calibrate, confirmed_colours, read_board  # noqa: E402
from vision.projection import CameraModel  # noqa: E402
from vision.seats import seat_side  # noqa: E402

# (play seed, layouts seed) of each set. The held-out seeds are never used while tuning.
SEEDS: dict[str, tuple[int, int]] = {"tuning": (11, 12), "held-out": (41, 42)}
TARGETS = {"found": ">= 99.8 %", "wrong Z": "0", "wrong S": "0", "ok": ">= 99.5 %",
           "flagged": "<= 5 %", "false": "<= 0.5 %", "refused": ""}
SIDE_OF = {0: "right", 1: "bottom", 2: "left", 3: "top"}  # picture angle / 90, y down
SPLITS = ("board_colour", "frame", "ditch", "proportions", "size", "view")


def seat0_of(truth: dict, board: Board) -> str:
    """The frame edge seat 0 sits at, as an installer would tell calibrate."""
    cam = CameraModel.from_json(truth["camera"])
    return SIDE_OF[round(seat_side(cam, board) / 90.0) % 4]


def size_class(inches: float) -> str:
    return "20-24 in" if inches < 24 else "24-28 in" if inches < 28 else "28-32 in"


def groups(tags: dict) -> list[str]:
    """The rows of the table a frame counts in."""
    out = ["all"]
    for key in SPLITS:
        value = size_class(tags["surface_in"]) if key == "size" else tags[key]
        out.append(f"{key.replace('_', ' ')}: {value}")
    out += [f"hazard: {h}" for h in tags["hazards"]]
    return out


def pair(found: list, truth: list) -> dict[int, int]:
    """Found discs paired with true ones by where their top faces show in the frame (nearest
    first, within half a disc's radius): {truth index: found index}. Pixels, not millimetres,
    so a reading on a wrong idea of the board's size still pairs."""
    cand = []
    for i, t in enumerate(truth):
        limit = max(4.0, 0.5 * t["radius_px"])
        for j, d in enumerate(found):
            dist = math.dist(t["pixel"], d.pixel)
            if dist <= limit:
                cand.append((dist, i, j))
    taken: dict[int, int] = {}
    used = set()
    for _, i, j in sorted(cand):
        if i not in taken and j not in used:
            taken[i] = j
            used.add(j)
    return taken


@dataclass
class Score:
    """One reading of one frame against its truth."""

    discs: int = 0  # on-board discs a reading can see
    found: int = 0
    wrong_zone: int = 0
    wrong_side: int = 0
    found_all: int = 0  # every found true disc, ditch too
    flagged: int = 0
    ok: bool = False
    right_as_read: bool = False  # every scoring disc found, on its side and zone, none false
    false_scoring: bool = False
    silent: bool = False
    refused: str | None = None
    need_flag: int = 0
    need_flag_met: int = 0
    radial: list[tuple[float, float]] = field(default_factory=list)
    edge: list[tuple[float, float]] = field(default_factory=list)  # a scoring disc's edge's
    #                                 error against the lines (mm) and its uncertainty
    notes: list[str] = field(default_factory=list)
    why: Counter = field(default_factory=Counter)  # the flagged true discs' doubts, by kind
    held: int = 0  # found discs of a board in doubt as a whole, not flagged themselves
    board_doubts: tuple[str, ...] = ()  # the reading's doubts of the board as a whole
    size_off: float | None = None  # how far off (share) the board's size was read


def doubt_kind(doubt: str | None) -> str:
    """A doubt's kind: its words up to the first colon or comma (the rest names the case)."""
    return re.split(r"[:,(]", doubt or "no reason given")[0].strip()[:48]


def score(reading, truth: dict, board_known: bool) -> Score:
    s = Score(board_doubts=tuple(doubt_kind(d) for d in reading.doubts),
              size_off=reading.board.outer_radius / truth["board"]["outer_radius"] - 1.0)
    found = list(reading.discs)
    discs = truth["discs"]
    pairs = pair(found, discs)
    exact = [truth["totals"][k] - 20 * truth["twenties"][k] for k in (0, 1)]
    checked = [0, 0]
    ok = True
    flagged_frame = reading.uncertain
    board_doubt = bool(reading.doubts)  # the operator checks the whole board: every disc

    def unsure(d) -> bool:
        return d.uncertain or board_doubt
    measured = board_known or Board(**truth["board"]) == STANDARD
    for i, t in enumerate(discs):
        d = found[pairs[i]] if i in pairs else None
        on = not t["in_ditch"]
        where = f"({t['x_mm']:.0f}, {t['y_mm']:.0f}) zone {t['zone']}"
        if t["needs_flag"]:
            s.need_flag += 1
            met = unsure(d) if d is not None else flagged_frame
            s.need_flag_met += met
            if not met:
                ok = False
                s.notes.append(f"{', '.join(t['why'])} disc at {where} not flagged")
            if d is None or unsure(d):  # the operator, asked to check, counts it
                checked[t["team"]] += t["zone"]
            else:
                checked[d.team] += d.zone
            if d is not None:
                s.found_all += 1
                s.flagged += d.uncertain
                s.held += board_doubt and not d.uncertain
                if d.uncertain:
                    s.why[doubt_kind(d.doubt)] += 1
            continue
        if on:
            s.discs += 1
        if d is None:
            if on:
                s.notes.append(f"missed {where}")
            continue
        s.found_all += 1
        s.flagged += d.uncertain
        s.held += board_doubt and not d.uncertain
        if d.uncertain:
            s.why[doubt_kind(d.doubt)] += 1
        if unsure(d):
            checked[t["team"]] += t["zone"]
        else:
            checked[d.team] += d.zone
        if not on:
            continue
        s.found += 1
        if d.zone != t["zone"] and not unsure(d):
            s.wrong_zone += 1
            s.notes.append(f"{where} read {d.zone}, unflagged (margin {d.margin_mm:.2f} mm, "
                           f"sigma {d.sigma_mm:.2f})")
        if d.team != t["team"] and t["zone"] > 0 and not unsure(d):
            s.wrong_side += 1
            s.notes.append(f"{where} read as side {d.team}, unflagged")
        if measured:
            s.radial.append((math.hypot(d.x_mm, d.y_mm) - math.hypot(t["x_mm"], t["y_mm"]),
                             d.sigma_mm))
        if t["zone"] > 0:  # the disc's edge against the line nearest it, as read and truly
            # (each in its own millimetres, the truth's scaled by the outer line)
            tb = Board(**truth["board"])
            k = reading.board.outer_radius / tb.outer_radius
            reach = math.hypot(t["x_mm"], t["y_mm"]) + tb.disc_radius
            j = min(range(3), key=lambda i: abs(reach - tb.thresholds()[i]))
            s.edge.append((math.hypot(d.x_mm, d.y_mm) + reading.board.disc_radius
                           - reading.board.thresholds()[j] - k * (reach - tb.thresholds()[j]),
                           d.sigma_mm))
    used = set(pairs.values())
    spares = truth.get("spares", [])
    for j, d in enumerate(found):
        if j in used:
            continue
        if not unsure(d):
            checked[d.team] += d.zone
        if d.zone > 0:
            s.false_scoring = True
            near_spare = any(math.dist(sp["pixel"], d.pixel) < sp["radius_px"] for sp in spares)
            s.notes.append(f"false disc at pixel ({d.pixel[0]:.0f}, {d.pixel[1]:.0f}) zone "
                           f"{d.zone}{', flagged' if unsure(d) else ''}"
                           f"{' (a third-set disc)' if near_spare else ''}"
                           f"{f': {d.doubt[:60]}' if d.doubt else ''}"
                           f"{': the board is in doubt' if board_doubt and not d.doubt else ''}")
    s.ok = ok and checked == exact
    s.silent = not flagged_frame and list(reading.totals) != exact
    s.right_as_read = not s.false_scoring and all(
        i in pairs and found[pairs[i]].team == t["team"] and found[pairs[i]].zone == t["zone"]
        for i, t in enumerate(discs) if t["zone"] > 0)
    if not s.ok and ok:
        s.notes.append(f"totals {list(reading.totals)}, once checked {checked}, truth {exact}")
    return s


def refused(truth: dict, reason: str) -> Score:
    s = Score(refused=reason)
    for t in truth["discs"]:
        if t["needs_flag"]:
            s.need_flag += 1
        elif not t["in_ditch"]:
            s.discs += 1
    s.notes.append(f"refused: {reason}")
    return s


def _errors(what: str, errors: list[tuple[float, float]]) -> str:
    """A line on errors (mm) and their uncertainties: how large, and how often beyond three
    of them."""
    e = np.array(errors)
    z = e[:, 0] / e[:, 1]
    err = np.abs(e[:, 0])
    return (f"  {what}: mean {e[:, 0].mean():+.3f}, |err| p50 {np.percentile(err, 50):.3f}, "
            f"p90 {np.percentile(err, 90):.3f}, p99 {np.percentile(err, 99):.3f}; sigma p50 "
            f"{np.percentile(e[:, 1], 50):.3f}; error/sigma sd {z.std():.2f}, "
            f"|z| > 3: {np.mean(np.abs(z) > 3) * 100:.2f}%")


class Tally:
    """Scores added up per group of frames."""

    def __init__(self) -> None:
        self.c: dict[str, Counter] = defaultdict(Counter)
        self.radial: list[tuple[float, float]] = []
        self.edge: list[tuple[float, float]] = []
        self.refusals: Counter = Counter()
        self.failures: list[str] = []
        self.records: list[dict] = []
        self.why: Counter = Counter()
        self.board_doubts: Counter = Counter()

    def add(self, name: str, tags: dict, s: Score) -> None:
        self.records.append({"frame": name, "tags": tags, "refused": s.refused,
                             "discs": s.discs, "found": s.found, "wrong_zone": s.wrong_zone,
                             "wrong_side": s.wrong_side, "ok": s.ok, "flagged": s.flagged,
                             "false_scoring": s.false_scoring, "silent": s.silent,
                             "need_flag": s.need_flag, "held": s.held,
                             "need_flag_met": s.need_flag_met, "size_off": s.size_off,
                             "edge": [[round(e, 3), round(g, 3)] for e, g in s.edge],
                             "why": dict(s.why), "board_doubts": list(s.board_doubts),
                             "notes": s.notes})
        for g in groups(tags):
            c = self.c[g]
            c["frames"] += 1
            for key in ("discs", "found", "wrong_zone", "wrong_side", "found_all", "flagged",
                        "held", "need_flag", "need_flag_met"):
                c[key] += getattr(s, key)
            c["ok"] += s.ok
            c["false"] += s.false_scoring
            c["refused"] += s.refused is not None
            c["silent"] += s.silent
        self.radial += s.radial
        self.edge += s.edge
        self.why.update(s.why)
        self.board_doubts.update(s.board_doubts)
        if s.refused is not None:
            self.refusals[s.refused.split(":")[0]] += 1
        for note in s.notes:
            self.failures.append(f"{name} [{tags['view']}, {tags['board_colour']}]: {note}")

    def table(self, title: str) -> None:
        print(f"\n== {title}")
        head = (f"{'frames of':<34} {'frames':>6} {'discs':>6} {'found':>7} {'wrong Z':>7} "
                f"{'wrong S':>7} {'ok':>7} {'flagged':>7} {'false':>6} {'refused':>7} "
                f"{'silent':>6} {'need flag':>9}")
        print(head)
        print(f"{'  (target)':<34} {'':>6} {'':>6} {'99.8':>7} {'0':>7} {'0':>7} {'99.5':>7} "
              f"{'<=5':>7} {'<=0.5':>6} {'':>7} {'0':>6} {'flagged':>9}")
        order = sorted(self.c, key=lambda g: (g != "all", g.startswith("hazard"), g))
        last = None
        for g in order:
            kind = g.split(":")[0]
            if kind != last and g != "all":
                print()
            last = kind
            c = self.c[g]
            n = c["frames"]
            print(f"{g[:34]:<34} {n:>6} {c['discs']:>6} "
                  f"{_pct(c['found'], c['discs']):>7} {c['wrong_zone']:>7} {c['wrong_side']:>7} "
                  f"{_pct(c['ok'], n):>7} {_pct(c['flagged'], c['found_all']):>7} "
                  f"{_pct(c['false'], n, 1):>6} {c['refused']:>7} {c['silent']:>6} "
                  f"{c['need_flag_met']:>4}/{c['need_flag']:<4}")
        if self.why:
            print("  true discs flagged, by doubt: " + "; ".join(
                f"{k} {v}" for k, v in self.why.most_common(8)))
        if self.board_doubts:
            print("  frames whose board as a whole is in doubt, by doubt: " + "; ".join(
                f"{k} {v}" for k, v in self.board_doubts.most_common(8))
                + f" ({self.c['all']['held']} true discs on them with no doubt of their own, "
                f"{_pct(self.c['all']['held'], self.c['all']['found_all'])} %)")
        if self.refusals:
            print("  refused: " + ", ".join(f"{k} {v}" for k, v in self.refusals.most_common()))
        if self.radial:
            print(_errors("radial error mm (boards of the size vision assumed)", self.radial))
        if self.edge:
            print(_errors("scoring discs' edges against the lines, mm (every board, at the "
                          "size read)", self.edge))

    def show_failures(self, limit: int) -> None:
        for f in self.failures[:limit]:
            print("   -", f)
        if len(self.failures) > limit:
            print(f"   ... and {len(self.failures) - limit} more")


def _pct(a: float, b: float, digits: int = 2) -> str:
    return f"{100 * a / b:.{digits}f}" if b else "-"


@dataclass
class Speed:
    decode: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    calibrated: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    scratch: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))

    def report(self) -> None:
        print("\n== speed (ms, medians; the reading beside a JPEG decode of the same frame)")
        print(f"{'size':<11} {'frames':>6} {'decode':>7} {'calibrated':>10} {'x decode':>8} "
              f"{'scratch':>8}   (targets: calibrated <= 4x decode; scratch at 2028x1520 "
              "<= 400 ms)")
        for size in sorted(self.decode, key=lambda s: -int(s.split("x")[0])):
            dec = statistics.median(self.decode[size])
            cal = self.calibrated.get(size)
            scr = self.scratch.get(size)
            cal_ms = statistics.median(cal) if cal else float("nan")
            scr_ms = statistics.median(scr) if scr else float("nan")
            print(f"{size:<11} {len(self.decode[size]):>6} {dec:>7.1f} {cal_ms:>10.0f} "
                  f"{cal_ms / dec:>8.1f} {scr_ms:>8.0f}")


def render_set(folder: Path, frames: int, seeds: tuple[int, int], args: argparse.Namespace
               ) -> list[tuple[Path, list[dict]]]:
    half = frames // 2
    out = []
    views = tuple(v for v in args.views.split(",") if v)
    for source, n, s in (("play", frames - half, seeds[0]), ("layouts", half, seeds[1])):
        where = folder / f"{source}-{s}"
        t0 = time.perf_counter()
        if args.reuse and (where / "index.json").exists():
            index = json.loads((where / "index.json").read_text())
            print(f"reusing {len(index)} {source} frames (seed {s}) in {where}")
        else:
            kwargs = {"views": views} if args.looks == "varied" else {}
            index = write_frames(where, n, s, per_rig=args.per_rig, boards=source,
                                 looks=args.looks, **kwargs)
            print(f"rendered {n} {source} frames (seed {s}) in {time.perf_counter() - t0:.0f} s")
        out.append((where, index))
    return out


def read_set(rendered: list[tuple[Path, list[dict]]], args: argparse.Namespace, speed: Speed
             ) -> tuple[Tally, Tally]:
    with_cal, without = Tally(), Tally()
    for where, index in rendered:
        cals: dict[int, object] = {}
        seen: dict[tuple[int, bool], tuple] = {}  # the sides' colours, carried over a rig's rounds
        sizes: dict[tuple[int, bool], float] = {}  # and the discs' size, as the daemon does
        for item in index:
            truth = json.loads((where / item["truth"]).read_text())
            data = (where / item["image"]).read_bytes()
            t0 = time.perf_counter()
            frame = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
            decode_ms = (time.perf_counter() - t0) * 1000
            size = f"{frame.shape[1]}x{frame.shape[0]}"
            speed.decode[size].append(decode_ms)
            # told nothing, vision measures the board (a board given is a board stated)
            board = Board(**truth["board"]) if args.board_known else None
            rig = (where.name, item["rig"])
            if rig not in cals and "calibrated" in args.readings:
                empty = cv2.imread(str(where / item["empty"]))
                et = json.loads((where / item["empty_truth"]).read_text())
                try:
                    cals[rig] = calibrate(empty, seat0=seat0_of(et, board or STANDARD), board=board,
                                          name=item["empty"])
                except Exception as exc:  # the rig's frames count as refused with it
                    cals[rig] = f"{type(exc).__name__}: rig not calibrated: {exc}"
            cal = cals.get(rig)
            name = f"{where.name}/{item['image']}"
            for tally, use_cal in ((with_cal, True), (without, False)):
                if ("calibrated" if use_cal else "scratch") not in args.readings:
                    continue
                key = (rig, use_cal)
                if use_cal and isinstance(cal, str):
                    tally.add(name, truth["tags"], refused(truth, cal))
                    continue
                t0 = time.perf_counter()
                try:
                    reading = read_board(frame, cal if use_cal else None, board=board,
                                         name=item["image"], colours=seen.get(key),
                                         size=sizes.get(key))
                except Exception as exc:
                    tally.add(name, truth["tags"], refused(truth, f"{type(exc).__name__}: {exc}"))
                    continue
                ms = (time.perf_counter() - t0) * 1000
                (speed.calibrated if use_cal else speed.scratch)[size].append(ms)
                s = score(reading, truth, args.board_known)
                tally.add(name, truth["tags"], s)
                if reading.size_seen is not None:
                    sizes[key] = reading.size_seen
                if reading.sides_seen is not None:
                    seen[key] = reading.sides_seen
                elif reading.uncertain and s.right_as_read:  # the operator confirms it as it is
                    seen[key] = confirmed_colours(seen.get(key), reading)
    return with_cal, without


def bench_real() -> None:
    """The two real photos in the repository, as the tests compare them (with the club board's
    geometry; ``bench/realdev.py`` reads them as the product would)."""
    from tests.vision import real

    if not real.TRUTH.exists() or not real.REAL.exists():
        print(f"\n(real photos: no hand truth, or no photos in {real.REAL})")
        return
    data = real.truth()
    board = real.board_of(data)
    for entry in data["photos"]:
        print(f"\n== real photo {entry['image']} (board: {data['board']})")
        try:
            lines = real.compare(entry, board)
        except Exception as exc:
            lines = [f"{type(exc).__name__}: {exc}"]
        for line in lines:
            print("  " + line)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--frames", type=int, default=200, help="frames per set (half play, half "
                   "layouts)")
    p.add_argument("--sets", default="tuning,held-out",
                   help=f"which seed sets: {', '.join(f'{k} {v}' for k, v in SEEDS.items())}")
    p.add_argument("--seed", type=int, help="one set of your own instead: play seed N, layouts "
                   "seed N+1")
    p.add_argument("--looks", choices=("classic", "varied"), default="varied")
    p.add_argument("--views", default="pi,phone,video", help="with the varied looks")
    p.add_argument("--per-rig", type=int, default=4)
    p.add_argument("--readings", default="calibrated,scratch",
                   help="which readings: calibrated (with the rig's calibration), scratch "
                   "(the board found in each frame), or both")
    p.add_argument("--board-known", action="store_true",
                   help="tell vision each board's true geometry (the product is not told it)")
    p.add_argument("--keep", help="render into this folder and keep it")
    p.add_argument("--reuse", action="store_true",
                   help="with --keep: read the frames already there instead of rendering")
    p.add_argument("--failures", type=int, default=20, help="failure lines shown per reading")
    p.add_argument("--records", help="write every reading's figures and notes to this file, "
                   "one JSON object a line (to look into a look's failures)")
    p.add_argument("--real", action="store_true", help="also the two real photos in the "
                   "repository (bench/realdev.py reads them and a folder of others)")
    args = p.parse_args()
    args.readings = {r.strip() for r in args.readings.split(",") if r.strip()}
    if not args.readings or args.readings - {"calibrated", "scratch"}:
        p.error("--readings takes calibrated, scratch or calibrated,scratch")
    if args.reuse and not args.keep:
        p.error("--reuse needs --keep DIR")
    if args.seed is not None:
        sets = {f"seed {args.seed}": (args.seed, args.seed + 1)}
    else:
        names = [s.strip() for s in args.sets.split(",") if s.strip()]
        unknown = [n for n in names if n not in SEEDS]
        if unknown:
            p.error(f"unknown seed set {', '.join(unknown)}; known: {', '.join(SEEDS)}")
        sets = {n: SEEDS[n] for n in names}
    load = os.getloadavg()
    print(f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on "
          f"{os.cpu_count()} cores; looks {args.looks}; vision "
          f"{'told each board' if args.board_known else 'told nothing of the board'}")
    speed = Speed()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.keep) if args.keep else Path(tmp)
        results = []
        for name, seeds in sets.items():
            rendered = render_set(folder, args.frames, seeds, args)
            results.append((name, seeds, *read_set(rendered, args, speed)))
    for name, seeds, with_cal, without in results:
        label = f"{name} (play seed {seeds[0]}, layouts seed {seeds[1]})"
        if "calibrated" in args.readings:
            with_cal.table(f"{label}, with the rig's calibration")
        if "scratch" in args.readings:
            without.table(f"{label}, board found in each frame")
    speed.report()
    if args.records:
        with open(args.records, "w", encoding="utf-8") as out:
            for name, _, with_cal, without in results:
                for mode, tally in (("calibrated", with_cal), ("scratch", without)):
                    for r in tally.records:
                        out.write(json.dumps({"set": name, "reading": mode, **r}) + "\n")
    for name, _, with_cal, without in results:
        if "calibrated" in args.readings:
            print(f"\n== failures, {name}, with the calibration")
            with_cal.show_failures(args.failures)
        if "scratch" in args.readings:
            print(f"\n== failures, {name}, from scratch")
            without.show_failures(args.failures)
    if args.real:
        bench_real()
    load = os.getloadavg()
    print(f"\nload average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
