"""Camera renderer speed: one overhead frame of an end-of-round board, and its JPEG.

Per Pi camera mode, times:
  new look   the first frame of a new board look (the board painted once, in millimetres, then
             the rig's lookup, lit empty board and the frame)
  new rig    the first frame of a new rig on a board look already painted (median of 5)
  frame      a frame of a rig already set up: the discs, pegs and shadows, blur and sensor noise
             (median of --frames, each a new board and new noise)
  truth      the frame's ground truth
  jpeg       encoding it at the rig's JPEG quality, and writing the file
Boards come from the layout generator with 24 discs (the most a round leaves). Then the same
for the varied looks (``--looks varied``), per view (a Pi camera, a phone photo, a frame of
overhead video): a rig of each, its board, table and players drawn at random, its boards laid
out with the varied habits (discs leaning and stacked now and then).

    python bench/render.py [--frames N] [--modes hq-imx477-2x2-6mm,...] [--views pi,phone,video]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from hw_sim import camera
from hw_sim.camera import VIEWS, Scene, encode_jpeg, render, truth
from hw_sim.layouts import VARIED_HABITS, end_of_round
from hw_sim.look import board_picture
from hw_sim.rig import MODES, CameraRig


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:9.1f}"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--frames", type=int, default=20, help="frames timed per mode")
    p.add_argument("--modes", default=",".join(m.name for m in MODES))
    p.add_argument("--views", default=",".join(VIEWS), help="views of the varied looks timed")
    args = p.parse_args()
    print(f"{'mode':<20} {'size':>10} {'new look':>9} {'new rig':>9} {'frame':>9} {'min':>9} "
          f"{'truth':>9} {'jpeg':>9} {'jpeg kB':>8}")
    tmp = Path(tempfile.mkdtemp())
    render(end_of_round(random.Random(0)), Scene.random(random.Random(0), width=64, height=48))
    rows = [(mode, "classic", mode) for mode in args.modes.split(",") if mode]
    rows += [(f"varied {view}", "varied", view) for view in args.views.split(",") if view]
    for name, looks, what in rows:
        rng = random.Random(1)
        if looks == "classic":
            scene = Scene.random(rng, mode=what)
            boards = [end_of_round(random.Random(s), discs=24) for s in range(args.frames)]
        else:
            scene = Scene.random(rng, looks="varied", views=(what,))
            boards = [end_of_round(random.Random(s), scene.board, discs=24, habits=VARIED_HABITS,
                                   poses=0.3) for s in range(args.frames)]
        board_picture.cache_clear()
        camera._backdrop.cache_clear()
        t0 = time.perf_counter()
        render(boards[0], scene, seed=0)
        first = time.perf_counter() - t0
        rigs = []
        for _ in range(5):
            other = replace(scene, rig=CameraRig.random(rng, mode=what) if looks == "classic"
                            else Scene.random(rng, looks="varied", views=(what,),
                                              board=scene.board).rig)
            camera._backdrop.cache_clear()
            board_picture(other.look, other.board, other.texture_ppm())  # the look is painted
            t0 = time.perf_counter()
            render(boards[0], other, seed=0)
            rigs.append(time.perf_counter() - t0)
        renders, truths, jpegs, sizes = [], [], [], []
        for i, state in enumerate(boards):
            t0 = time.perf_counter()
            frame = render(state, scene, seed=i)
            t1 = time.perf_counter()
            truth(state, scene, seed=i)
            t2 = time.perf_counter()
            data = encode_jpeg(frame, scene.sensor.jpeg_quality)
            (tmp / "frame.jpg").write_bytes(data)
            t3 = time.perf_counter()
            renders.append(t1 - t0)
            truths.append(t2 - t1)
            jpegs.append(t3 - t2)
            sizes.append(len(data))
        size = f"{scene.rig.width}x{scene.rig.height}"
        print(f"{name:<20} {size:>10} {_ms(first)} {_ms(statistics.median(rigs))} "
              f"{_ms(statistics.median(renders))} {_ms(min(renders))} "
              f"{_ms(statistics.median(truths))} {_ms(statistics.median(jpegs))} "
              f"{statistics.median(sizes) / 1000:8.0f}")
    print(f"(ms; frame, truth and jpeg: median of {args.frames}; min: fastest frame)")


if __name__ == "__main__":
    main()
