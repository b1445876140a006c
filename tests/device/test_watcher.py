"""Reading the board off the main loop: wait for the board to settle, then read one frame."""

import queue

import cv2
import numpy as np
import pytest

from device.core.inputs import ReadingDone, ReadingFailed
from device.hardware.camera import PREVIEW_WIDTH, FolderCamera
from device.reading.watcher import BoardWatcher, Settle, still
from rules import BoardReading, Disc


def frames(folder, levels):
    """Pictures whose grey level is the frame's number, so the reader can say which it got."""
    for i, level in enumerate(levels):
        img = np.full((60, 80, 3), level, np.uint8)
        cv2.putText(img, "x", (10 + 3 * (level % 7), 40), cv2.FONT_HERSHEY_SIMPLEX, 1,
                    (255, 255, 255), 2)
        cv2.imwrite(str(folder / f"f{i:02d}.png"), img)
    return FolderCamera(folder)


def reader(frame):
    level = int(np.median(frame))
    return BoardReading((Disc(0, 15),) * (level // 40)), None


def test_a_sliding_disc_is_movement_and_a_lamps_flicker_is_not():
    """A disc is a few preview pixels across: moving, it changes a few hundredths of the
    picture, which a mean over the frame calls still. A flickering lamp changes it all alike."""
    board = np.full((PREVIEW_WIDTH * 3 // 4, PREVIEW_WIDTH), 90, np.uint8)
    here, there = board.copy(), board.copy()
    cv2.circle(here, (60, 40), 2, 200, -1)
    cv2.circle(there, (66, 40), 2, 200, -1)
    threshold = Settle().threshold
    assert still(here, here.copy(), threshold)
    assert not still(here, there, threshold)
    assert still(here, cv2.add(here, 6), threshold)


def test_the_board_is_read_once_it_has_settled(tmp_path):
    # three frames still moving, then the same board again and again
    cam = frames(tmp_path, [40, 80, 120, 160, 160, 160, 160, 160, 160, 160])
    q = queue.Queue()
    w = BoardWatcher(cam, reader, q.put, Settle(frames=3, interval_s=0.001, threshold=1.0))
    try:
        w.request(7)
        got = q.get(timeout=10)
        assert isinstance(got, ReadingDone) and got.token == 7
        assert len(got.board.discs) == 4            # the settled picture (160) was the one read
        assert cam._next == 7                 # 3 moving + 3 alike previews, then the capture
    finally:
        w.close()


def test_score_now_reads_at_once(tmp_path):
    cam = frames(tmp_path, [40, 80, 120, 160])
    q = queue.Queue()
    w = BoardWatcher(cam, reader, q.put, Settle(frames=50, interval_s=0.5, threshold=0.0))
    try:
        w.request(3, now=True)
        got = q.get(timeout=10)
        assert isinstance(got, ReadingDone) and got.token == 3 and cam._next <= 2
    finally:
        w.close()


def test_a_board_that_never_settles_is_read_after_the_timeout(tmp_path):
    cam = frames(tmp_path, [40, 200] * 20)
    q = queue.Queue()
    ticks = iter(range(1000))
    w = BoardWatcher(cam, reader, q.put, Settle(frames=3, interval_s=0.0, threshold=1.0,
                                                 timeout_s=5), clock=lambda: float(next(ticks)))
    try:
        w.request(1)
        assert isinstance(q.get(timeout=10), ReadingDone)
    finally:
        w.close()


@pytest.mark.parametrize("broken", ["missing", "black"])
def test_a_camera_failure_is_reported_for_the_request(tmp_path, broken):
    if broken == "missing":
        cam = frames(tmp_path, [100])
        (tmp_path / "f00.png").write_bytes(b"not a picture")
    else:
        cam = frames(tmp_path, [0])
    got = _one_reading(cam, reader, 5)
    assert isinstance(got, ReadingFailed) and got.token == 5
    assert ("cannot read" in got.reason) if broken == "missing" else "black" in got.reason


def _one_reading(cam, read, token):
    """What the watcher puts for one request of ``token``, the board taken as settled."""
    q = queue.Queue()
    w = BoardWatcher(cam, read, q.put, Settle(frames=1, interval_s=0.001))
    try:
        w.request(token)
        return q.get(timeout=30)
    finally:
        w.close()


def test_what_vision_cannot_read_reaches_the_display_in_few_words(tmp_path):
    """The whole message goes to the log; the display, which has room for a few words, gets
    the error's own (``VisionError.words``)."""
    import vision
    from vision import NoBoardFound, TooDark

    def read(frame):
        return vision.read_board(frame).to_rules(), None

    cam = frames(tmp_path, [128])   # a flat grey frame: a picture, but nothing to read
    got = _one_reading(cam, read, 3)
    assert isinstance(got, ReadingFailed) and got.token == 3
    assert got.reason in (TooDark.words, NoBoardFound.words)
