import shutil
import socket
import subprocess
import sys
from pathlib import Path

from device.notify import Notifier

ROOT = Path(__file__).resolve().parents[2]


def test_notifications_reach_a_notify_socket(tmp_path):
    path = tmp_path / "notify.sock"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(str(path))
        server.settimeout(5)
        n = Notifier({"NOTIFY_SOCKET": str(path), "WATCHDOG_USEC": "15000000"})
        assert n.enabled and n.watchdog_s == 15.0
        assert n.ready("scoring tournament-singles")
        assert server.recv(1024) == b"READY=1\nSTATUS=scoring tournament-singles"
        assert n.ping()
        assert server.recv(1024) == b"WATCHDOG=1"
        n.close()
        n.close()


def test_the_abstract_namespace_is_understood():
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind("\0crokiscore-test-notify")
        server.settimeout(5)
        assert Notifier({"NOTIFY_SOCKET": "@crokiscore-test-notify"}).status("ok")
        assert server.recv(1024) == b"STATUS=ok"


def test_without_systemd_nothing_is_sent():
    n = Notifier({})
    assert not n.enabled and n.watchdog_s is None and not n.ready("x")


def test_the_service_unit_verifies_cleanly(tmp_path):
    analyze = shutil.which("systemd-analyze")
    assert analyze, "systemd-analyze is needed to check the unit (apt install systemd)"
    unit = (ROOT / "systemd" / "crokiscore.service").read_text()
    assert "Type=notify" in unit and "WatchdogSec=" in unit
    # verify checks that ExecStart exists: point it at this checkout's command
    exe = Path(sys.executable).with_name("crokiscore")
    copy = tmp_path / "crokiscore.service"
    copy.write_text(unit.replace("/opt/crokiscore/.venv/bin/crokiscore", str(exe)))
    done = subprocess.run([analyze, "verify", str(copy)], capture_output=True, text=True,
                          cwd=tmp_path, timeout=60)
    assert done.returncode == 0 and done.stdout == "" and done.stderr == "", done.stderr
