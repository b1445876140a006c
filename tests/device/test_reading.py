"""The daemon's board reader on frames of the simulated table."""

from dataclasses import replace

import vision
from device.config import parse
from device.reading import VisionReader
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
        discs, picture = reader(table.camera.capture())
        assert sorted((d.team, d.zone) for d in discs) == [(0, 15), (1, 5), (1, 10)]
        assert picture is not None and (tmp_path / "boards").is_dir()
        assert reader.learnt is not None
        # a board showing one side only is sided by the colours of the match so far
        table.set_board(BoardState((PlacedDisc(10.0, 70.0, 1),)))
        discs, _ = reader(table.camera.capture())
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
