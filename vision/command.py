"""``crokiscore score`` and ``crokiscore calibrate``: vision from the command line.

``score IMAGE... [--calibration CAL] [--json] [--annotate DIR] [--config FILE]`` reads each
picture (the config, read by the caller, gives ``[vision] team_colours`` and the rig's
``[camera] calibration``) and prints, per picture, one JSON object a line (``--json``) or a
short summary; a batch pays OpenCV's start-up once. A picture that cannot be read is reported
in words (and, with ``--json``, as ``{"image": ..., "error": ...}``), the others are still read,
and the exit status is 2.

``calibrate EMPTY --out CAL [--seat0 SIDE] [--focal-px F] [--picture PNG]`` finds the board on a
frame of the empty board, measures its lines (unless the config states the board), prints their
radii and writes the calibration (JSON, see :mod:`vision.calibration`), the empty board's look
beside it (CAL's name with ``-empty.png``) and a picture of the board's circles drawn back onto
the frame (by default beside CAL, as .png).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import asdict
from pathlib import Path

import cv2
import numpy as np

from rules.board import Board
from vision.annotate import annotate
from vision.calibration import (
    EMPTY_AGREEMENT,
    Calibration,
    calibrate,
    check_picture,
    empty_path,
    load,
    save,
)
from vision.discs import top_view
from vision.errors import UnreadableImage, VisionError
from vision.hole import size_said
from vision.lens import UNKNOWN_LENS_SIGMA, lean_share
from vision.reading import (
    SMALLEST_DISC_PX,
    Reading,
    disc_pixels,
    out_of_picture,
    read_board,
    too_small,
)
from vision.zones import lean_mm


def read_image(path: str) -> np.ndarray:
    """The picture at ``path`` as a BGR array, or :class:`UnreadableImage` naming the file."""
    p = Path(path)
    if not p.is_file():
        raise UnreadableImage(f"{path}: no such file; check the name")
    try:
        data = np.fromfile(p, np.uint8)
    except OSError as exc:
        raise UnreadableImage(f"{path}: cannot be read ({exc.strerror})") from None
    try:
        frame = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    except cv2.error:  # a header claiming more pixels than OpenCV will decode, say
        frame = None
    except MemoryError:
        raise UnreadableImage(f"{path}: too big a picture to read here; take a smaller one "
                              "(the board needs no more than 12 MP)") from None
    if frame is None:
        raise UnreadableImage(f"{path}: not a picture OpenCV can read (JPEG, PNG, BMP...), or "
                              "cut short; take the picture again")
    return frame


def _summary(path: str, reading: Reading) -> str:
    t0, t1 = reading.totals
    n = len(reading.discs)
    check = sum(d.uncertain for d in reading.discs)
    lines = [f"{path}: team 0 {t0}, team 1 {t1} ({n} disc{'s' if n != 1 else ''} read"
             + (f", {check} to check" if check else "") + ")"]
    for doubt in reading.doubts:
        lines.append(f"  CHECK the board: {doubt}")
    for d in reading.discs:
        flag = f"  CHECK {d.doubt}" if d.uncertain and d.doubt else (
            "  CHECK" if d.uncertain else "")
        lines.append(f"  team {d.team} zone {d.zone:2d} at ({d.x_mm:7.1f}, {d.y_mm:7.1f}) mm"
                     f"{flag}")
    for note in reading.notes:
        lines.append(f"  note: {note}")
    return "\n".join(lines)


def score(args: argparse.Namespace, colours: tuple | None = None,
          calibration: str | None = None, board: Board | None = None) -> int:
    """The ``score`` command; ``colours``, ``calibration`` and ``board`` (a board the
    installer stated, config ``[board]``) are the config's (the caller reads it), used unless
    the command line says otherwise."""
    try:
        path = args.calibration or calibration
        cal: Calibration | None = load(path) if path else None
    except VisionError as exc:
        print(f"crokiscore score: {exc}", file=sys.stderr)
        return 2
    if args.annotate:
        try:
            Path(args.annotate).mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            print(f"crokiscore score: cannot make the folder {args.annotate} for the annotated "
                  f"pictures ({exc.strerror}); choose another --annotate", file=sys.stderr)
            return 2
    failed = 0
    for path in args.images:
        try:
            frame = read_image(path)
            reading = read_board(frame, cal, colours=colours, board=board, seat0=args.seat0,
                                 focal_px=args.focal_px, name=path)
        except VisionError as exc:
            failed += 1
            print(f"crokiscore score: {exc}", file=sys.stderr)
            if args.json:
                print(json.dumps({"image": path, "error": str(exc)}), flush=True)
            continue
        if args.json:
            # the board read by (measured, or stated), for the installer to check
            print(json.dumps({"image": path, **reading.to_json(),
                              "board": {k: round(v, 1) for k, v in asdict(reading.board).items()}}),
                  flush=True)
        else:
            print(_summary(path, reading), flush=True)
        if args.annotate:
            out = Path(args.annotate) / (Path(path).stem + ".png")
            if not cv2.imwrite(str(out), annotate(frame, reading)):
                failed += 1
                print(f"crokiscore score: could not write {out}; check the folder",
                      file=sys.stderr)
    return 2 if failed else 0


def board_lines(cal: Calibration) -> str:
    """The board's radii as the calibration has them, in words for the installer."""
    b = cal.board
    how = {"measured": "measured on the empty board",
           "tournament": "measured on the empty board: the tournament board's, within a "
                         "per cent",
           "stated": "as stated in the config"}.get(cal.board_from, cal.board_from)
    scale = ("" if cal.board_from == "stated" else
             "; the outer line is taken at its tournament radius, which sets the scale: "
             "state the board in the config's [board] if yours is another size")
    return (f"board lines ({how}): 15 line {b.fifteen_radius:.1f} mm, 10 line "
            f"{b.ten_radius:.1f} mm, outer line {b.outer_radius:.1f} mm, playing surface "
            f"to {b.surface_radius:.1f} mm, 20 hole {b.hole_diameter:.1f} mm across{scale}")


def lens_guessed(cal: Calibration) -> str | None:
    """What the installer should know when the lens was guessed from the picture's size (not
    a Pi camera's own mode, nor given): seen from above, a board fits as well with the camera
    twice as far and its lens twice as long (at a half and at twice the focal length, the
    board's circles fitted as closely on 20 of the tuning frames' 25 play rigs, the Pi
    camera's a metre up among them: within 0.05 mm, their lines found as much), so the guess alone
    sets how far each disc's thickness leans it outward in the picture; None when the lens is
    known."""
    if cal.focal_sigma < UNKNOWN_LENS_SIGMA:
        return None
    cam, b = cal.camera, cal.board
    nx, ny = (float(v) for v in cam.nadir())
    away = math.hypot(nx, ny)
    x, y = ((-b.outer_radius * nx / away, -b.outer_radius * ny / away) if away > 1e-6
            else (b.outer_radius, 0.0))  # (the outer line's point furthest from below the lens)
    lean = lean_mm(cam, x, y, b.disc_thickness)
    share = lean_share(cam.width, cam.height, cal.focal_sigma)
    if share < 1.0:
        return (f"the lens was guessed from the picture's size (focal length {cam.fx:.0f} px, "
                f"the camera {cam.centre_mm[2] / 1000:.1f} m above the board, or higher with a "
                "longer lens, as a stream's camera hangs): seen from above, a board does not "
                "show how far away the camera is, so each disc's thickness is undone halfway, "
                f"and discs at the outer line may lie up to {lean * share:.1f} mm further in or "
                "out than read. Give the lens with --focal-px if you know it")
    return (f"the lens was guessed from the picture's size (focal length {cam.fx:.0f} px, the "
            f"camera {cam.centre_mm[2] / 1000:.1f} m above the board): seen from above, a board "
            "does not show how far away the camera is, and each disc's thickness is undone by "
            "that guess; with the camera twice as far and a lens twice as long, discs at the "
            f"outer line lie {lean / 2:.1f} mm further out than read. Give the lens with "
            "--focal-px if you know it")


def smaller_board(cal: Calibration, stated: Board | None) -> str | None:
    """What the installer should know when the 20 hole measures wider than a board's hole,
    the board not stated: the empty board shows its lines' proportions but not its size, and
    the outer line is taken at the tournament's radius, so on a smaller board the discs are
    taken for smaller than they are (a 20-inch board's 10 read 15, its margin 6.2 mm:
    layouts-384 66); the reading flags discs near a line then (:func:`vision.read_board`).
    None when the board is stated or its hole is a board's size."""
    said = size_said(cal.board)
    if stated is not None or said is None:
        return None
    inches = 2 * cal.board.surface_radius / said / 25.4
    return (f"the 20 hole measures {cal.board.hole_diameter:.1f} mm across at the tournament "
            "board's scale, wider than boards' holes are made (35 to 38 mm): the board is likely "
            f"smaller than a tournament board, about {inches:.0f} inches as its hole says. Taken "
            "at the tournament's size its discs read smaller than they are, so discs near a line "
            "are flagged until it is stated: measure the board and state it in the config's "
            "[board], then calibrate again")


def calibrate_command(args: argparse.Namespace, board: Board | None = None) -> int:
    """The ``calibrate`` command; ``board``: the config's stated board, if any."""
    out = Path(args.out)
    picture = Path(args.picture) if args.picture else out.with_suffix(".png")
    try:
        frame = read_image(args.image)
        cal = calibrate(frame, seat0=args.seat0, focal_px=args.focal_px, board=board,
                        name=args.image)
    except VisionError as exc:
        print(f"crokiscore calibrate: {exc}", file=sys.stderr)
        return 2
    try:
        save(cal, out)
    except OSError as exc:
        print(f"crokiscore calibrate: cannot write {out} ({exc.strerror or exc}); choose "
              "another --out", file=sys.stderr)
        return 2
    wrote = cv2.imwrite(str(picture), check_picture(frame, cal))
    print(f"{args.image}: board found ({cal.points} points on its circles, scatter "
          f"{cal.sigma_mm:.2f} mm; seat 0 at the frame's {cal.seat0}, turn from "
          f"{cal.turn_from})")
    print(board_lines(cal))
    if cal.agreement < EMPTY_AGREEMENT:
        print(f"warning: the stated board's lines lie on the picture's over only "
              f"{cal.agreement:.0%} of their round: check the radii in the config's [board] "
              "against the board's painted lines")
    smaller = smaller_board(cal, board)
    if smaller is not None:
        print(f"warning: {smaller}")
    guessed = lens_guessed(cal)
    if guessed is not None:
        print(f"warning: {guessed}")
    across = disc_pixels(cal.camera, cal.board)
    if across < SMALLEST_DISC_PX:
        print(f"warning: every round will be flagged: {too_small(across)}")
    left_out = out_of_picture(top_view(frame, cal.maps), cal.board)
    if left_out is not None:
        print(f"warning: every round will be flagged: {left_out}")
    print(f"calibration written to {out}, the empty board's look to {empty_path(out)}")
    if wrote:
        print(f"check picture: {picture} (the magenta circles must sit on the painted lines)")
    else:
        print(f"crokiscore calibrate: could not write the check picture {picture}",
              file=sys.stderr)
        return 2
    return 0
