"""A real Mosquitto broker on a free loopback port, for the club tests and the club bench.

Debian's ``mosquitto`` (installed by ``make``'s system-packages step) runs with its own config in a
temporary folder: persistence on, so a broker stopped cleanly keeps its sessions and retained
messages; ``kill()`` stops it without letting it save, as a power cut would. ``restart()`` starts
it again on the same port.
"""

from __future__ import annotations

import contextlib
import getpass
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

EXECUTABLE = shutil.which("mosquitto", path="/usr/sbin:/usr/bin:/usr/local/sbin") or \
    "/usr/sbin/mosquitto"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int, timeout: float = 10.0, host: str = "127.0.0.1") -> None:
    """Returns once something accepts connections on ``port`` (bounded)."""
    deadline = time.monotonic() + timeout
    while True:
        with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=0.5):
            return
        if time.monotonic() > deadline:
            raise TimeoutError(f"nothing listens on {host}:{port} after {timeout} s")
        time.sleep(0.02)


class Mosquitto:
    def __init__(self, port: int | None = None, *, folder: Path | None = None,
                 extra: str = "", anonymous: bool = True) -> None:
        self.port = port or free_port()
        self.folder = folder or Path(tempfile.mkdtemp(prefix="crokiscore-mosquitto-"))
        self.folder.mkdir(parents=True, exist_ok=True)
        self.conf = self.folder / "mosquitto.conf"
        self.log = self.folder / "mosquitto.log"
        self.conf.write_text(
            # started by root (CI), it would become user mosquitto, who cannot read test files
            f"user {getpass.getuser()}\n"
            f"listener {self.port} 127.0.0.1\n"
            f"allow_anonymous {'true' if anonymous else 'false'}\n"
            "persistence true\n"
            f"persistence_location {self.folder}/\n"
            "autosave_interval 3600\n"
            "max_queued_messages 100000\n"
            "log_dest stderr\n"
            "log_type error\nlog_type warning\nlog_type notice\n"
            + extra)
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self) -> Mosquitto:
        if not Path(EXECUTABLE).exists():
            raise RuntimeError(f"{EXECUTABLE} is missing: `make system-packages` installs "
                               "Debian's mosquitto")
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen([EXECUTABLE, "-c", str(self.conf)],
                                            stdout=log, stderr=log)
        try:
            wait_port(self.port)
        except TimeoutError:
            self.process.kill()
            raise RuntimeError(f"mosquitto did not start: {self.log.read_text()[-2000:]}") from None
        return self

    def stop(self) -> None:
        """A clean stop: the broker saves its sessions and retained messages."""
        if self.process is not None:
            self.process.terminate()
            self.process.wait(10)
            self.process = None

    def kill(self) -> None:
        """Killed before it saves anything since its start: what it held in memory is lost."""
        if self.process is not None:
            self.process.kill()
            self.process.wait(10)
            self.process = None

    def restart(self) -> None:
        self.start()

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> Mosquitto:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()
