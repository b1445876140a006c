"""What a club room does to the box, against the simulator: each fault leaves nothing recorded
lost and the daemon scoring what it can."""

import subprocess
import sys
import threading
from contextlib import contextmanager
from pathlib import Path

import pytest

from device.config import parse
from device.daemon import Daemon
from device.hardware.sim import SimHardware
from hw_sim.table import SimTable, Wiring
from rules import Shot

WAIT = 10.0


@contextmanager
def box(tmp_path, camera="none", reader=None, **camera_keys):
    cfg = parse({"backend": "sim", "store": str(tmp_path / "events.db"),
                 "match": {"rules": "tournament-singles", "players": ["Ann", "Bob"]},
                 "touch": {"heartbeat_timeout_s": 0.4},
                 "camera": {"kind": camera, "width": 320, "height": 240, "settle_frames": 1,
                            **camera_keys},
                 "display": {"driver": "ssd1306"}})
    table = SimTable(seed=2, wiring=Wiring(), width=320, height=240, heartbeat_ms=100)
    daemon = Daemon(cfg, hardware=SimHardware(cfg, table), reader=reader)
    stop = threading.Event()
    loop = threading.Thread(target=daemon.run, args=(stop,))
    loop.start()
    app = daemon.shell
    try:
        assert app.wait(lambda: app.match is not None and daemon.bar.link.connected
                        and "touch" not in app.faults, WAIT)
        yield daemon, table
    finally:
        stop.set()
        loop.join(WAIT)
        daemon.close()
        table.close()


def shoot(daemon, table, n=1):
    app = daemon.shell
    for _ in range(n):
        seat = app.match.expect().seat
        quadrant = app.match.rules.quadrant_of(seat)
        table.touch(quadrant, True)
        assert app.wait(lambda q=quadrant: q in app.touching, WAIT), "touch not seen"
        before = app.taken["touch"]
        table.touch(quadrant, False)
        assert app.wait(lambda b=before: app.taken["touch"] > b, WAIT), "shot not taken"


def shots(daemon):
    return [e for e in daemon.store.events(daemon.shell.match_id) if isinstance(e, Shot)]


def test_the_sensor_bar_unplugged_mid_round_and_plugged_back(tmp_path):
    with box(tmp_path) as (daemon, table):
        app = daemon.shell
        shoot(daemon, table, 3)
        table.pico.unplug()
        assert app.wait(lambda: "touch" in app.faults, WAIT)
        assert "sensor bar unplugged" in app.status().errors
        table.pico.replug()
        assert app.wait(lambda: "touch" not in app.faults, WAIT)
        shoot(daemon, table, 3)
        assert [s.seat for s in shots(daemon)] == [0, 1, 0, 1, 0, 1]


def test_a_reboot_of_the_bar_mid_round_loses_no_shot(tmp_path):
    with box(tmp_path) as (daemon, table):
        app = daemon.shell
        shoot(daemon, table, 2)
        boots = daemon.bar.link.stats().mcu_reboots
        table.pico.reboot()
        assert app.wait(lambda: daemon.bar.link.stats().mcu_reboots > boots, WAIT)
        shoot(daemon, table, 2)
        assert len(shots(daemon)) == 4


def test_garbage_on_the_serial_line_makes_no_shot(tmp_path):
    with box(tmp_path) as (daemon, table):
        for _ in range(5):
            table.pico.noise(n=4096)
            shoot(daemon, table)
        table.pico.noise(n=4096)
        shoot(daemon, table)
        assert len(shots(daemon)) == 6
        assert daemon.bar.link.stats().bytes_skipped > 0


def test_the_oled_failing_on_i2c_does_not_stop_scoring(tmp_path):
    with box(tmp_path) as (daemon, table):
        app = daemon.shell
        shoot(daemon, table)
        table.oled_bus.unplug()
        shoot(daemon, table, 2)                  # scoring goes on without a display
        assert app.wait(lambda: "display" in app.faults, WAIT)
        assert len(shots(daemon)) == 3
        table.oled_bus.replug()
        shoot(daemon, table)
        assert app.wait(lambda: "display" not in app.faults, WAIT)
        assert table.oled_bus.data_bytes > 0


def never(frame):  # the camera fails before any frame could be read
    raise AssertionError("no frame should reach the reader")


@pytest.mark.parametrize("fault", ["raise", "black", "hang"])
def test_a_failed_camera_leaves_the_round_to_the_buttons(tmp_path, fault):
    with box(tmp_path, camera="sim", reader=never, timeout_s=1.0) as (daemon, table):
        app = daemon.shell
        table.camera.fail(fault)
        shoot(daemon, table, 16)
        assert app.match.expect().what == "board"
        assert app.wait(lambda: "camera" in app.faults, WAIT)
        # the operator counts 15 - 10 and enters it: menu, "Correct round", ok, +15, ok, +10, ok
        for button in ["menu", "menu", "ok", "menu", "menu", "menu", "ok", "menu", "menu", "ok"]:
            before = app.menu_state
            table.press(button)
            assert app.wait(lambda b=before: app.menu_state != b, WAIT), button
        assert app.wait(lambda: app.match.expect().what == "shot", WAIT)
        assert app.match.summary().to_json()["rounds"][0]["totals"] == [15, 10]
        table.camera.fail(None)


def test_a_hostile_config_is_refused_with_the_reason(tmp_path):
    exe = str(Path(sys.executable).with_name("crokiscore"))
    cases = {
        "nested": "[hole]\n[hole.x]\ny = 1\n",
        "huge": "backend = \"" + "x" * 1_000_000 + "\"\n",
        "types": "[display]\naddress = \"0x3C; rm -rf /\"\n",
        "binary": "\x00\x01\x02",
    }
    for name, text in cases.items():
        cfg = tmp_path / f"{name}.toml"
        cfg.write_text(text)
        done = subprocess.run([exe, "run", "--config", str(cfg)], capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == 2, name
        assert "crokiscore run:" in done.stderr and len(done.stderr) < 2000, name


def test_a_store_that_cannot_be_made_is_named_and_the_box_scores_on(tmp_path, caplog):
    from device.core.inputs import Operator

    blocker = tmp_path / "file"
    blocker.write_text("")
    cfg = parse({"backend": "sim", "store": str(blocker / "events.db"),
                 "camera": {"kind": "none"}, "display": {"driver": "dummy"}})
    with Daemon(cfg) as daemon:
        daemon.begin()
        app = daemon.shell
        assert app.faults["store"] == "STORE: fix its path"
        assert f"the event store {blocker / 'events.db'}" in caplog.text
        assert "is a file" in caplog.text
        app.step(Operator(Shot(0), 1.0))
        assert app.match.depth == 1 and app.waiting == 2   # the match's start and the shot


def test_beam_glitches_count_nothing_and_a_missed_drop_is_fixed_at_the_round(tmp_path):
    with box(tmp_path) as (daemon, table):
        app = daemon.shell
        shoot(daemon, table)
        for _ in range(5):
            table.glitch()
        before = app.taken["hole"]
        table.drop()
        assert app.wait(lambda: app.taken["hole"] > before, WAIT)
        assert daemon.hole.glitches >= 5
        table.miss_drops(1)
        shoot(daemon, table)
        table.drop()                             # unseen
        shoot(daemon, table, 14)
        assert app.wait(lambda: "camera" in app.faults, WAIT)   # no camera: score by hand
        assert app.taken["hole"] == before + 1
        # the operator counts the round: Ann 20 + 15, Bob 20 (the drop the beam missed)
        from device.core.inputs import Operator
        from rules import Correction
        daemon.inputs.put(Operator(Correction(totals=(35, 20)), 0.0))
        assert app.wait(lambda: app.match.expect().what == "shot", WAIT)
        assert app.match.summary().to_json()["rounds"][0]["totals"] == [35, 20]
