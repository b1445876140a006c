"""systemd's notify protocol, in the few lines it takes.

Under ``Type=notify`` systemd waits for READY=1 before it counts the service as started, shows
STATUS= lines in ``systemctl status``, and with ``WatchdogSec`` restarts the service when WATCHDOG=1
stops arriving. Only the main loop sends the watchdog ping, so a loop that hangs is restarted even
if other threads live on; it also sends the STATUS= line whenever the faults on the display change,
so ``systemctl status`` says what the players see. Outside systemd (no NOTIFY_SOCKET) every call
does nothing.
"""

from __future__ import annotations

import logging
import os
import socket

log = logging.getLogger(__name__)


class Notifier:
    def __init__(self, environ: dict[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        path = env.get("NOTIFY_SOCKET", "")
        self._address = "\0" + path[1:] if path.startswith("@") else path
        usec = env.get("WATCHDOG_USEC", "")
        number = usec.isascii() and usec.isdigit() and len(usec) <= 15
        self.watchdog_s = int(usec) / 1e6 if number and int(usec) > 0 else None
        self._sock: socket.socket | None = None

    @property
    def enabled(self) -> bool:
        return bool(self._address)

    def send(self, **fields: str | int) -> bool:
        """Sends ``KEY=value`` lines; False if there is no systemd to tell, or it did not take
        them (the service goes on either way)."""
        if not self._address:
            return False
        text = "\n".join(f"{k.upper()}={v}" for k, v in fields.items())
        try:
            if self._sock is None:
                self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            self._sock.sendto(text.encode(), self._address)
        except OSError as exc:
            log.warning("cannot notify systemd: %s", exc)
            return False
        return True

    def ready(self, status: str) -> bool:
        return self.send(ready=1, status=status)

    def status(self, status: str) -> bool:
        return self.send(status=status)

    def ping(self) -> bool:
        return self.send(watchdog=1)

    def stopping(self) -> bool:
        return self.send(stopping=1)

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None
