"""The systemd units: the box's with the club drop-in opens only what publishing needs and stays
hardened, the hub's own unit is hardened too, and both verify cleanly."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

from tests.club.parts import ROOT

SYSTEMD = ROOT / "systemd"
ANALYZE = shutil.which("systemd-analyze")


def exposure(root: Path, unit: str) -> float:
    assert ANALYZE, "systemd-analyze is needed to check the units (apt install systemd)"
    done = subprocess.run([ANALYZE, "security", "--offline=true", f"--root={root}", unit],
                          capture_output=True, text=True, timeout=60)
    found = re.search(rf"Overall exposure level for {re.escape(unit)}: ([0-9.]+)", done.stdout)
    assert found, done.stdout + done.stderr
    return float(found.group(1))


def install(root: Path, *files: tuple[Path, str]) -> None:
    for source, where in files:
        target = root / "etc/systemd/system" / where
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(source, target)


def test_the_box_with_the_club_drop_in_opens_only_the_brokers_address(tmp_path: Path) -> None:
    drop_in = (SYSTEMD / "crokiscore.service.d" / "club.conf").read_text()
    assert "PrivateNetwork=no" in drop_in and "IPAddressDeny=any" in drop_in
    assert re.search(r"^IPAddressAllow=\S+$", drop_in, re.M)
    assert "SocketBindDeny=any" in drop_in   # it listens on nothing
    install(tmp_path / "plain", (SYSTEMD / "crokiscore.service", "crokiscore.service"))
    install(tmp_path / "club", (SYSTEMD / "crokiscore.service", "crokiscore.service"),
            (SYSTEMD / "crokiscore.service.d" / "club.conf", "crokiscore.service.d/club.conf"))
    assert exposure(tmp_path / "plain", "crokiscore.service") <= 0.7
    assert exposure(tmp_path / "club", "crokiscore.service") < 1.5


def test_the_hubs_unit_is_hardened_and_verifies(tmp_path: Path) -> None:
    unit = (SYSTEMD / "crokiscore-club.service").read_text()
    assert "Type=notify" in unit and "WatchdogSec=" in unit and "User=crokiscore-club" in unit
    install(tmp_path / "hub", (SYSTEMD / "crokiscore-club.service", "crokiscore-club.service"))
    assert exposure(tmp_path / "hub", "crokiscore-club.service") < 1.5
    exe = Path(sys.executable).with_name("crokiscore")
    copy = tmp_path / "crokiscore-club.service"
    copy.write_text(unit.replace("/opt/crokiscore/.venv/bin/crokiscore", str(exe)))
    assert ANALYZE
    done = subprocess.run([ANALYZE, "verify", str(copy)], capture_output=True, text=True,
                          cwd=tmp_path, timeout=60)
    assert done.returncode == 0 and done.stderr == "", done.stderr
