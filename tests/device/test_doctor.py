import os
import select
import threading
import tty
from pathlib import Path

import pytest

from device.commands.cli import main
from device.commands.doctor import SHIPPED_FIRMWARE, examine
from device.store import EventStore
from firmware_bridge.codec import Decoder, encode
from firmware_bridge.messages import BarStatus, ChannelStatus, GetStatus, Hello
from rules import NewMatch, Shot

ROOT = Path(__file__).resolve().parents[2]


def test_the_doctor_passes_on_the_simulator(tmp_path, capsys):
    cfg = tmp_path / "sim.toml"
    cfg.write_text((ROOT / "examples" / "sim.toml").read_text().replace(
        'store = "out/sim-events.db"', f'store = "{tmp_path / "e.db"}"'))
    assert main(["doctor", "--config", str(cfg)]) == 0
    out = capsys.readouterr().out
    for part in ("config", "gpio", "display", "camera", "sensors", "disk", "store"):
        assert f"ok   {part}" in out
    assert "all parts ok" in out
    assert "no store yet: it is created on first start" in out
    assert not (tmp_path / "e.db").exists()   # looked for, not made


def test_without_the_hardware_every_part_says_what_is_missing(tmp_path):
    cfg = tmp_path / "pi.toml"
    cfg.write_text(f'backend = "pi"\nstore = "{tmp_path / "e.db"}"\n'
                   f'[touch]\nport = "{tmp_path / "no-such-port"}"\n'
                   f'[camera]\ncalibration = "{tmp_path / "cal.json"}"\n')
    findings = {f.part: f for f in examine(cfg)}
    assert findings["config"].ok and findings["disk"].ok and findings["store"].ok
    for part in ("gpio", "display", "camera", "sensors"):
        assert not findings[part].ok, part
        assert findings[part].detail
    assert "does not exist" in findings["sensors"].detail
    assert "picamera2" in findings["camera"].detail


def test_a_sensor_port_that_is_a_file_is_said_to_be_one_at_once(tmp_path):
    cfg = tmp_path / "pi.toml"
    cfg.write_text(f'backend = "pi"\nstore = "{tmp_path / "e.db"}"\n'
                   f'[touch]\nport = "{cfg}"\n')
    sensors = next(f for f in examine(cfg) if f.part == "sensors")
    assert not sensors.ok
    assert sensors.detail == (f"[touch] port: {cfg} is a file, not a serial device; ls "
                              "/dev/serial/by-id/ lists the serial devices")


def test_a_broken_config_stops_the_examination_with_the_reason(tmp_path, capsys):
    cfg = tmp_path / "bad.toml"
    cfg.write_text("[hole]\npin = 99\n")
    assert main(["doctor", "--config", str(cfg)]) == 1
    out = capsys.readouterr().out
    assert "FAIL config" in out and "[hole] pin must be a whole number from 0 to 27" in out


def test_a_damaged_store_is_reported(tmp_path):
    db = tmp_path / "e.db"
    db.write_bytes(b"this is not a database" * 100)
    cfg = tmp_path / "sim.toml"
    cfg.write_text(f'backend = "sim"\nstore = "{db}"\n[camera]\nkind = "none"\n')
    findings = {f.part: f for f in examine(cfg)}
    assert not findings["store"].ok and "damaged" in findings["store"].detail


def pi_config(tmp_path, store, port=None):
    cfg = tmp_path / "pi.toml"
    cfg.write_text(f'backend = "pi"\nstore = "{store}"\n'
                   f'[touch]\nport = "{port or tmp_path / "no-such-port"}"\n')
    return cfg


def test_the_store_is_looked_at_without_being_changed(tmp_path):
    db = tmp_path / "lib" / "e.db"
    with EventStore(db) as store:
        match_id = store.begin_match(NewMatch("casual-100", ("Ann", "Bob")), 1.0)
        store.append(match_id, Shot(0), 2.0)

    def files():
        return {p.name: (p.stat().st_size, p.stat().st_mtime_ns) for p in db.parent.iterdir()}

    before = files()
    finding = {f.part: f for f in examine(pi_config(tmp_path, db))}["store"]
    assert finding.ok and "1 matches kept; match 1 (casual-100) in play" in finding.detail
    assert files() == before   # nothing written, no -wal or -shm left behind


def test_a_missing_store_folder_says_how_to_make_it(tmp_path):
    folder = tmp_path / "var" / "crokiscore"
    finding = {f.part: f for f in examine(pi_config(tmp_path, folder / "e.db"))}["store"]
    assert not finding.ok
    assert "does not exist" in finding.detail and "install -d" in finding.detail
    assert not folder.exists()


class OtherFirmwarePico(threading.Thread):
    """A sensor bar on a pty whose firmware is not the one this software ships: it says hello
    when the host first speaks, and answers status requests."""

    def __init__(self, version):
        super().__init__(daemon=True)
        self.version = version
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self.stop = threading.Event()

    def run(self):
        decoder, seq, greeted = Decoder(), 0, False
        while not self.stop.is_set():
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if not ready:
                continue
            for frame in decoder.feed(os.read(self.master, 4096)):
                replies = [] if greeted else [Hello(1, self.version, 0xC0DE, 1)]
                greeted = True
                if isinstance(frame.message, GetStatus):
                    replies.append(BarStatus(frame.message.request, 0, 0, 3, 20,
                                          (ChannelStatus(12, 6),) * 4))
                for message in replies:
                    os.write(self.master, encode(message, seq))
                    seq = (seq + 1) % 256


@pytest.fixture
def old_pico():
    pico = OtherFirmwarePico((0, 9, 0))
    pico.start()
    yield pico
    pico.stop.set()
    pico.join(5)
    os.close(pico.master)
    os.close(pico.slave)


def test_a_sensor_bar_with_other_firmware_is_a_warning_with_the_fix(tmp_path, old_pico):
    assert SHIPPED_FIRMWARE != "0.9.0"
    finding = {f.part: f for f in examine(pi_config(tmp_path, tmp_path / "e.db",
                                                    old_pico.path))}["sensors"]
    assert finding.ok and finding.warn   # it works: a warning, not a failure
    assert finding.line().startswith("warn sensors  firmware 0.9.0")
    assert f"comes with firmware {SHIPPED_FIRMWARE}: flash it (docs/sensor-bar.md" in finding.detail
