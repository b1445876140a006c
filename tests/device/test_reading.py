"""The daemon's board reader on frames of the simulated table."""

import contextlib
from dataclasses import replace

import vision
from device.config import parse
from device.reading.vision import VisionReader
from device.screen.text import as_text
from hw_sim.discs import BoardState, PlacedDisc
from hw_sim.table import SimTable


def test_the_reader_uses_the_calibration_keeps_pictures_and_learns_colours(tmp_path):
    with SimTable(seed=5, width=1014, height=760) as table:
        cal = vision.calibrate(table.camera.capture(), seat0=table.seat0_edge())
        vision.save_calibration(cal, tmp_path / "cal.json")
        config = parse({"backend": "sim", "camera": {
            "kind": "sim", "calibration": str(tmp_path / "cal.json"),
            "pictures": str(tmp_path / "boards")}})
        reader = VisionReader(config)
        table.set_board(BoardState((PlacedDisc(0.0, -60.0, 0), PlacedDisc(150.0, 40.0, 1),
                                    PlacedDisc(-250.0, 20.0, 1))))
        board, picture = reader(table.camera.capture())
        discs = board.discs
        assert board.check == ()  # a clear board, all in view
        assert sorted((d.team, d.zone) for d in discs) == [(0, 15), (1, 5), (1, 10)]
        assert picture is not None and (tmp_path / "boards").is_dir()
        assert reader.learnt is not None
        # a board showing one side only is sided by the colours of the match so far
        table.set_board(BoardState((PlacedDisc(10.0, 70.0, 1),)))
        discs = reader(table.camera.capture())[0].discs
        assert [(d.team, d.zone, d.uncertain) for d in discs] == [(1, 15, False)]
        reader.new_match()
        assert reader.learnt is None


def test_a_missing_calibration_is_a_camera_error(tmp_path):
    import pytest

    from device.errors import CameraError
    config = parse({"backend": "sim", "camera": {"kind": "sim"}})
    config = replace(config, camera=replace(config.camera, calibration=str(tmp_path / "no.json")))
    with pytest.raises(CameraError, match="camera calibration"):
        VisionReader(config)


@contextlib.contextmanager
def _camera_box(tmp_path):
    """A box scoring tournament singles against the simulated table through its camera,
    calibrated on the empty board: yields the table, the reader and ``round_with(board)``,
    which plays a round's shots over ``board`` and steps the box with the camera's reading
    (returned)."""
    import queue

    from device.core.inputs import Operator, ReadingDone
    from device.core.state import Settings
    from device.hardware.camera import TableCamera
    from device.reading.watcher import BoardWatcher, Settle
    from device.screen.text import TextScreen
    from device.shell import Shell, StoreHandle
    from device.store import EventStore
    from rules import NewMatch, Shot

    with SimTable(seed=9, width=1014, height=760) as table, \
            EventStore(tmp_path / "events.db") as store:
        cal = vision.calibrate(table.camera.capture(), seat0=table.seat0_edge())
        vision.save_calibration(cal, tmp_path / "cal.json")
        config = parse({"backend": "sim", "camera": {"kind": "sim",
                                                     "calibration": str(tmp_path / "cal.json")}})
        reader = VisionReader(config)
        inputs: queue.Queue = queue.Queue()
        watcher = BoardWatcher(TableCamera(table.camera), reader, inputs.put,
                               Settle(frames=1, interval_s=0.0, threshold=255.0))
        t = [1000.0]
        box = Shell(Settings(NewMatch("tournament-singles", ("Ann", "Bob"))),
                    StoreHandle(store.path, store), TextScreen(lambda _: None),
                    reading=watcher, clock=lambda: t[0], wall=lambda: t[0])
        box.start()

        def round_with(board: BoardState) -> ReadingDone:
            table.set_board(board)
            while box.match.expect().what == "shot":
                t[0] += 1
                box.step(Operator(Shot(box.match.expect().seat), t[0]))
            got = inputs.get(timeout=30)
            assert isinstance(got, ReadingDone)
            box.step(got)
            return got

        def operator(ev) -> None:
            t[0] += 1
            box.step(Operator(ev, t[0]))

        try:
            yield box, reader, round_with, operator
        finally:
            watcher.close()


def test_a_confirmed_one_side_board_teaches_that_side_s_colour(tmp_path):
    """The first board of a match shows one side's discs only, of a blue and natural set: the
    box cannot tell whose and asks (black discs, the dark side of any set, and white ones it
    need not ask about). Once the operator confirms it, the next such board is not asked
    about again, and a board of the other colour is the other side's."""
    from rules import Confirm

    with _camera_box(tmp_path) as (box, reader, round_with, operator):
        got = round_with(BoardState((PlacedDisc(10.0, 70.0, 0), PlacedDisc(0, -250, 0))))
        # whose are they? the darker side's, it guesses, and asks
        assert [(d.team, d.uncertain) for d in got.board.discs] == [(0, True), (0, True)]
        assert box.match.expect().what == "confirm"
        operator(Confirm())
        assert reader.learnt is not None and reader.learnt[1] is None
        got = round_with(BoardState((PlacedDisc(-120.0, 10.0, 0),)))
        assert [(d.team, d.uncertain) for d in got.board.discs] == [(0, False)]
        got = round_with(BoardState((PlacedDisc(60.0, -40.0, 1),)))
        assert [(d.team, d.uncertain) for d in got.board.discs] == [(1, False)]


def test_the_config_s_stated_board_reaches_the_reader(tmp_path):
    """Without a calibration the stated board is read by; with one, the calibration's board
    (the camera was fitted to it), and a calibration made for another board is refused with
    the fix, by the reader and by the doctor alike."""
    import pytest

    from device.commands.doctor import examine
    from device.errors import CameraError
    from rules.board import STANDARD

    stated = {"fifteen_radius": 98.0}
    reader = VisionReader(parse({"backend": "sim", "camera": {"kind": "sim"}, "board": stated}))
    assert reader.board is not None and reader.board.fifteen_radius == 98.0
    assert reader.board.ten_radius == STANDARD.ten_radius
    with SimTable(seed=5, width=1014, height=760) as table:
        cal = vision.calibrate(table.camera.capture(), seat0=table.seat0_edge())
    vision.save_calibration(cal, tmp_path / "cal.json")
    camera = {"kind": "sim", "calibration": str(tmp_path / "cal.json"), "width": 1014,
              "height": 760}
    same = parse({"backend": "sim", "camera": camera,
                  "board": {"fifteen_radius": cal.board.fifteen_radius,
                            "ten_radius": cal.board.ten_radius,
                            "outer_radius": cal.board.outer_radius,
                            **{k: getattr(cal.board, k) for k in (
                                "hole_diameter", "surface_radius", "ditch_radius",
                                "line_width", "disc_diameter", "disc_thickness")}}})
    assert VisionReader(same).board is None  # the calibration's board, which is the same
    other = parse({"backend": "sim", "camera": camera, "board": stated})
    with pytest.raises(CameraError, match=r"another board.*calibrate again"):
        VisionReader(other)
    cfg = tmp_path / "c.toml"
    cfg.write_text(f'backend = "sim"\nstore = "{tmp_path / "e.db"}"\n[camera]\nkind = "sim"\n'
                   f'calibration = "{tmp_path / "cal.json"}"\nwidth = 1014\nheight = 760\n'
                   '[board]\nfifteen_radius = 98.0\n')
    found = {f.part: f for f in examine(cfg)}
    assert not found["camera"].ok and "another board" in found["camera"].detail


def test_the_reader_keeps_the_discs_size_a_round_of_the_match_measured(tmp_path):
    """On a 22-inch board the discs look a fifth larger than a tournament board's would. A
    round with several discs measures it; the reader keeps that size for the match's later
    rounds (one disc cannot measure it) and forgets it with the match."""
    from rules.board import STANDARD
    from vision.registration import scaled

    small = scaled(STANDARD, 22.0 / 26.0)
    with SimTable(seed=5, width=1014, height=760, board=small) as table:
        cal = vision.calibrate(table.camera.capture(), seat0=table.seat0_edge())
        vision.save_calibration(cal, tmp_path / "cal.json")
        reader = VisionReader(parse({"backend": "sim", "camera": {
            "kind": "sim", "calibration": str(tmp_path / "cal.json")}}))
        table.set_board(BoardState(tuple(PlacedDisc(x, y, k % 2) for k, (x, y) in enumerate(
            [(0.0, -55.0), (120.0, 40.0), (-130.0, 30.0), (30.0, 140.0), (-60.0, -160.0),
             (200.0, -60.0)]))))
        discs = reader(table.camera.capture())[0].discs
        assert sorted((d.team, d.zone) for d in discs) == [
            (0, 5), (0, 10), (0, 15), (1, 5), (1, 10), (1, 10)]
        assert reader.size is not None and 1.1 < reader.size < 1.3
        table.set_board(BoardState((PlacedDisc(30.0, 50.0, 0),)))
        discs = reader(table.camera.capture())[0].discs
        assert [(d.team, d.zone) for d in discs] == [(0, 15)]
        assert reader.last is not None and reader.last.board.outer_radius < 0.9 * 304.8
        reader.new_match()
        assert reader.size is None


def test_a_reading_with_a_disc_too_many_is_held_for_a_check_not_thrown_away(tmp_path):
    """Nine of one side's discs lie on the board after a round in which it shot eight (a disc
    of the set left lying, or another board's). The camera's reading cannot be, and the box
    keeps it and asks the operator to check, as it does any reading it doubts, rather than
    refusing it and leaving the round to be counted on the buttons."""
    spots = [(0.0, 60.0), (90.0, 40.0), (-95.0, 30.0), (40.0, -120.0), (-60.0, -150.0),
             (150.0, -90.0), (-170.0, 80.0), (200.0, 120.0), (-30.0, 220.0)]
    board = BoardState((*(PlacedDisc(x, y, 0) for x, y in spots),
                        PlacedDisc(120.0, -200.0, 1), PlacedDisc(-200.0, -60.0, 1)))
    with _camera_box(tmp_path) as (box, _, round_with, _):
        got = round_with(board)
        assert sum(d.team == 0 and d.zone > 0 for d in got.board.discs) == 9
        assert box.match.expect().what == "confirm"
        count = box.match.game.rounds.last.count
        assert count is not None and count.discs_of(0, scoring=True) == 9
        assert any("shot only 8" in why for why in count.check), count.check
        # the terminal's scoreboard says why, not that a disc is too close to call
        shown = as_text(box.match).splitlines()[-1]
        assert shown.startswith("  CHECK: the reading shows 9 scoring disc(s) of side 0"), shown
        assert "shot only 8 in round 1" in shown and shown.endswith("; confirm or correct")
