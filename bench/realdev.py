"""Vision on photos of real boards against their hand-counted totals, photo by photo.

Takes a folder of photos with a ``truth.json`` beside them (``{"photo.jpg": {"dark": N,
"light": N, "kind": ..., "doubt": bool, "note": ...}}``: the two sides' board totals, dark =
team 0) and reads each as the product would without a calibration: from scratch, on the
tournament board's geometry, seat 0 at the bottom edge. Then the two real photos kept in the
repository (tests/vision/data/real, their truth in real_truth.json), the same way, and as the
tests read them (with that club board's geometry; one with its stored camera).

Per photo: the totals read and by hand, and what a club would have seen:

  exact      the totals right, nothing flagged
  flagged    the reading asked for a check (CHECK on the box), its totals right or wrong
  WRONG      the totals wrong and nothing flagged: the worst outcome
  refused    vision would not read it (the reason is given): the players count by hand

and a summary line. Photos whose licence does not let the project copy them are never copied
into the repository: the folder is an argument.

With ``--turned`` each photo is read three more times, turned a quarter each way and a half:
the same board framed otherwise, which a reading from scratch should not depend on (the
search for the board, the seat taken at the bottom edge). Thirteen photos are few; their
turns are framings nothing was tuned on. Those readings are summed apart.

    python bench/realdev.py FOLDER [--annotate DIR] [--turned]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision import annotate, read_board  # noqa: E402


def verdict(reading, hand: tuple[int, int]) -> str:
    right = tuple(reading.totals) == tuple(hand)
    if reading.uncertain:
        return "flagged (totals right)" if right else "flagged (totals wrong)"
    return "exact" if right else "WRONG, nothing flagged"


TURNS = {"a quarter clockwise": cv2.ROTATE_90_CLOCKWISE,
         "a quarter anticlockwise": cv2.ROTATE_90_COUNTERCLOCKWISE,
         "a half": cv2.ROTATE_180}
TURN_TAGS = {cv2.ROTATE_90_CLOCKWISE: "cw", cv2.ROTATE_90_COUNTERCLOCKWISE: "ccw",
             cv2.ROTATE_180: "half"}  # (in annotated pictures' names)


def read_one(path: Path, hand: tuple[int, int], annotate_dir: Path | None,
             turn: int | None = None, **kwargs) -> tuple[str, str]:
    """(outcome, the line's detail) for one photo, turned by ``turn`` (cv2.rotate's) if
    given."""
    frame = cv2.imread(str(path))
    if frame is None:
        return "refused", "not a picture that can be read"
    if turn is not None:
        frame = cv2.rotate(frame, turn)
    t0 = time.perf_counter()
    try:
        reading = read_board(frame, name=path.name, **kwargs)
    except Exception as exc:
        return "refused", f"refused: {type(exc).__name__}: {exc}"
    ms = (time.perf_counter() - t0) * 1000
    if annotate_dir is not None:
        annotate_dir.mkdir(parents=True, exist_ok=True)
        tag = "" if turn is None else "_" + TURN_TAGS[turn]
        cv2.imwrite(str(annotate_dir / f"{path.stem}{tag}.jpg"), annotate(frame, reading))
    v = verdict(reading, hand)
    flags = sum(d.uncertain for d in reading.discs)
    detail = (f"read {list(reading.totals)} vs hand {list(hand)}: {v}; {len(reading.discs)} "
              f"discs, {flags} flagged ({ms:.0f} ms)")
    return v.split(" (")[0].split(",")[0], detail


def folder_photos(folder: Path) -> list[tuple[str, tuple[int, int], str]] | str:
    """(photo, hand totals, remark) per entry of the folder's truth.json, or why there are
    none."""
    if not folder.is_dir():
        return (f"{folder} is not a folder; give the folder that holds the photos and their "
                "truth.json")
    truth = folder / "truth.json"
    if not truth.is_file():
        return f"{folder} has no truth.json; put the hand-counted totals beside the photos"
    try:
        data = json.loads(truth.read_text(encoding="utf-8"))
        return [(name, (int(e["dark"]), int(e["light"])),
                 f"{e.get('kind', '?')}{', count in doubt' if e.get('doubt') else ''}")
                for name, e in data.items()]
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        return (f"{truth} is not a truth file of photo names with 'dark' and 'light' totals "
                f"({exc}); see bench/realdev.py's help")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("folder", help="the photos and their truth.json")
    p.add_argument("--annotate", help="write each reading's annotated picture here")
    p.add_argument("--turned", action="store_true",
                   help="read each photo turned a quarter each way and a half too")
    args = p.parse_args(argv)
    folder = Path(args.folder)
    out_dir = Path(args.annotate) if args.annotate else None
    outcomes: Counter = Counter()
    reasons: Counter = Counter()
    turned: Counter = Counter()

    def turned_too(path: Path, hand: tuple[int, int]) -> None:
        if not args.turned:
            return
        for words, turn in TURNS.items():
            outcome, detail = read_one(path, hand, out_dir, turn)
            turned[outcome] += 1
            print(f"  {'':<44}   turned {words}: {detail}")

    photos = folder_photos(folder)
    if isinstance(photos, str):
        print(f"realdev: {photos}", file=sys.stderr)
        return 2
    print(f"== {folder}: {len(photos)} photos, each read from scratch on the tournament "
          "board's geometry")
    for name, hand, remark in photos:
        path = folder / name
        if not path.is_file():
            outcome, detail = "missing", "missing from the folder"
        else:
            outcome, detail = read_one(path, hand, out_dir)
        outcomes[outcome] += 1
        if outcome == "refused":
            reasons[detail.split(":")[1].strip() if ":" in detail else detail] += 1
        print(f"  {name[:44]:<44} [{remark}] {detail}")
        if outcome != "missing":
            turned_too(path, hand)

    from tests.vision import real  # the repository's two real photos and their hand truth

    if real.TRUTH.exists() and real.REAL.exists():
        data = real.truth()
        print(f"\n== {real.REAL.relative_to(ROOT)}: {len(data['photos'])} photos, read the same "
              "way, then as the tests read them (the club board's geometry)")
        board = real.board_of(data)
        for entry in data["photos"]:
            hand = tuple(entry["totals"])
            outcome, detail = read_one(real.REAL / entry["image"], hand, out_dir)
            outcomes[outcome] += 1
            if outcome == "refused":
                reasons[detail.split(":")[1].strip() if ":" in detail else detail] += 1
            print(f"  {entry['image'][:44]:<44} [repository] {detail}")
            turned_too(real.REAL / entry["image"], hand)
            try:
                r = real.read(entry, board)
                how = "its stored camera" if "camera" in entry else "from scratch"
                print(f"  {'':<44}   with the board's geometry, {how}: read "
                      f"{list(r.reading.totals)}: {verdict(r.reading, hand)}, "
                      f"{len(r.found)}/{len(entry['discs'])} discs found, {len(r.false)} false")
            except Exception as exc:
                print(f"  {'':<44}   with the board's geometry: {type(exc).__name__}: {exc}")
    total = sum(outcomes.values())
    print(f"\n{total} photos: exact {outcomes['exact']}, flagged {outcomes['flagged']}, "
          f"WRONG with nothing flagged {outcomes['WRONG']}, refused {outcomes['refused']}"
          + (f" ({', '.join(f'{k} {v}' for k, v in reasons.most_common())})" if reasons else "")
          + (f", missing {outcomes['missing']}" if outcomes["missing"] else ""))
    if args.turned:
        print(f"{sum(turned.values())} readings of them turned: exact {turned['exact']}, "
              f"flagged {turned['flagged']}, WRONG with nothing flagged {turned['WRONG']}, "
              f"refused {turned['refused']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
