import shutil
import socket
import subprocess
import sys
import threading
from pathlib import Path

from device.config import parse
from device.daemon import Daemon
from device.hardware.sim import SimHardware
from device.notify import Notifier
from hw_sim.table import SimTable, Wiring

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


class ThreadNotingNotifier(Notifier):
    def __init__(self, environ):
        super().__init__(environ)
        self.status_threads = set()

    def status(self, status):
        self.status_threads.add(threading.current_thread())
        return super().status(status)


def test_the_faults_on_the_display_reach_systemctl_status(tmp_path):
    path = tmp_path / "notify.sock"
    cfg = parse({"backend": "sim", "store": str(tmp_path / "events.db"),
                 "match": {"rules": "tournament-singles", "players": ["Ann", "Bob"]},
                 "touch": {"heartbeat_timeout_s": 0.4}, "camera": {"kind": "none"},
                 "display": {"driver": "dummy"}})
    table = SimTable(seed=2, wiring=Wiring(), width=320, height=240, heartbeat_ms=100)
    notifier = ThreadNotingNotifier({"NOTIFY_SOCKET": str(path)})
    clear = b"STATUS=scoring tournament-singles"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server, \
            Daemon(cfg, hardware=SimHardware(cfg, table), notifier=notifier) as daemon:
        server.bind(str(path))
        server.settimeout(10)
        stop = threading.Event()
        loop = threading.Thread(target=daemon.run, args=(stop,), name="main loop")
        loop.start()
        try:
            assert server.recv(1024) == b"READY=1\n" + clear
            table.pico.unplug()
            trouble = server.recv(1024)
            assert trouble in (clear + b"; sensor bar unplugged", clear + b"; sensor bar silent")
            table.pico.replug()
            while (line := server.recv(1024)) != clear:   # the bar back: the fault is gone
                assert line.startswith(clear + b"; sensor bar"), line
        finally:
            stop.set()
            loop.join(10)
        assert server.recv(1024) == b"STOPPING=1"
    table.close()
    assert notifier.status_threads == {loop}   # sent by the main loop, not by an I/O thread


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


def test_a_watchdog_period_that_is_not_a_number_means_no_watchdog():
    for usec in ("\u00b2", "\u0661\u0662", "9" * 5000, "-5", "1.5", ""):
        assert Notifier({"WATCHDOG_USEC": usec}).watchdog_s is None
    assert Notifier({"WATCHDOG_USEC": "30000000"}).watchdog_s == 30.0
