from pathlib import Path

from device.cli import main
from device.doctor import examine

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
