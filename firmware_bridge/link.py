"""The host end of the serial link to the sensor bar: port handling on top of the pure codec.

One background thread owns the port. It opens it (a device path such as
``/dev/serial/by-id/usb-MicroPython_Board_...`` or any pyserial URL), reads and decodes frames,
sends the host heartbeat, watches the MCU's heartbeat, and reopens the port with backoff when it
is lost. Everything it learns goes, as frozen dataclasses from :mod:`firmware_bridge.events`, onto
a :class:`queue.Queue` (the daemon may pass its own, so sensor events join its one event queue):

``LinkUp(port, at)`` / ``LinkDown(port, reason, at)``
    the port opened / could not be opened or was lost (the link keeps retrying).
``McuBooted(boot_id, firmware, protocol, reset_cause, heartbeat_ms, previous_boot_id, at)``
    a hello from a boot not seen before; ``previous_boot_id`` set means the MCU was reset. Also
    a hello of the same boot in another protocol version (the refusal begins or ends).
``McuLost(boot_id, silent_s, at)`` / ``McuFound(boot_id, silent_s, at)``
    no good frame for three of the MCU's heartbeat periods, and at least
    ``LinkTiming.mcu_timeout_s`` / the same boot speaks again.
``Touch(quadrant, active, mcu_time_us, counter, boot_id, missed, at)``
    a quadrant's shooting line was touched or released.
``SensorState(ok, boot_id, at)``
    the MCU's touch sensor failed or answers again (its heartbeats' ``sensor_ok`` flag).
``McuStatus(status, at)``, ``McuError(code, name, request, detail, at)``,
``Incompatible(protocol, supported, at)``.

``at`` is always ``time.monotonic()`` on the host. :meth:`Link.stats` returns the counters as a
frozen :class:`LinkStats`. Commands (:meth:`Link.get_status`, :meth:`Link.set_thresholds`...) may
be called from any thread; they wait for the MCU's answer and raise typed errors
(:mod:`firmware_bridge.errors`) when it does not come.
"""

from __future__ import annotations

import concurrent.futures
import logging
import os
import queue
import stat
import threading
import time
from dataclasses import dataclass
from typing import Any

import serial

from firmware_bridge import events as ev
from firmware_bridge.codec import Decoder, DecoderStats, Frame, encode
from firmware_bridge.errors import (
    BadSetting,
    BridgeError,
    CommandTimeout,
    LinkClosed,
    McuRefused,
    NotConnected,
    PortError,
)
from firmware_bridge.messages import (
    ALL_QUADRANTS,
    FLAG_SENSOR_OK,
    FROM_HOST,
    PROTOCOL_VERSION,
    BarStatus,
    Error,
    GetStatus,
    Heartbeat,
    Hello,
    HostHeartbeat,
    Message,
    Reboot,
    SetDebounce,
    SetThresholds,
    TouchChange,
)

log = logging.getLogger(__name__)

BAUDRATE = 115200  # ignored by USB CDC (the Pico's own USB), but pyserial needs one
JOIN_TIMEOUT_S = 2.0
LOST_AFTER_PERIODS = 3  # MCU heartbeat periods without a good frame before it counts as lost


@dataclass(frozen=True)
class LinkTiming:
    """How often the link talks and how long it waits. Short values make fast tests.

    ``mcu_timeout_s`` is the least silence that makes the MCU *lost*, and all there is before
    its hello: once a hello has announced its heartbeat period, three of those periods count
    when they are longer (see :meth:`lost_after_s`), so a slow bar is not lost between beats.
    """

    heartbeat_s: float = 0.5
    mcu_timeout_s: float = 1.5
    reconnect_min_s: float = 0.1
    reconnect_max_s: float = 2.0
    command_timeout_s: float = 1.0
    write_timeout_s: float = 1.0

    def __post_init__(self) -> None:
        for name in ("heartbeat_s", "mcu_timeout_s", "reconnect_min_s", "reconnect_max_s",
                     "command_timeout_s", "write_timeout_s"):
            value = getattr(self, name)
            if not value > 0:
                raise BadSetting(f"{name} must be a positive number of seconds, not {value!r}")
        if self.reconnect_max_s < self.reconnect_min_s:
            raise BadSetting("reconnect_max_s must be at least reconnect_min_s")
        if self.mcu_timeout_s <= self.heartbeat_s:
            raise BadSetting("mcu_timeout_s must be longer than heartbeat_s")

    @property
    def read_timeout_s(self) -> float:
        return min(0.05, self.heartbeat_s / 4)

    def lost_after_s(self, heartbeat_ms: int | None) -> float:
        """How long the MCU may be silent before it is lost, given the heartbeat period its
        hello announced (None before a hello, or from a version this host does not speak)."""
        if not heartbeat_ms:
            return self.mcu_timeout_s
        return max(self.mcu_timeout_s, LOST_AFTER_PERIODS * heartbeat_ms / 1000)


@dataclass(frozen=True)
class LinkStats:
    """The link's counters since it was made, for the daemon to show.

    ``bad_crc``, ``malformed`` and ``bytes_skipped`` are the decoder's (see
    :class:`~firmware_bridge.codec.DecoderStats`); ``sequence_gaps`` counts the times a frame's
    sequence number was not the one expected and ``frames_missed`` how many frames those gaps
    skipped; ``reconnects`` counts reopenings after a loss; ``unexpected`` counts good frames of a
    kind only the host sends (an echo on the line).
    """

    port: str
    connected: bool
    boot_id: int | None
    frames_good: int
    bad_crc: int
    malformed: int
    unknown: int
    bytes_skipped: int
    bytes_received: int
    sequence_gaps: int
    frames_missed: int
    frames_sent: int
    unexpected: int
    reconnects: int
    mcu_reboots: int
    mcu_lost: int
    last_frame_age_s: float | None


class Link:
    """The serial link to the sensor bar. Starts its reader thread at once; a context manager.

    The port need not exist yet: the link reports :class:`~firmware_bridge.events.LinkDown`
    with the reason and keeps trying, so the daemon starts even with the bar unplugged.
    """

    def __init__(self, port: str, *, events: queue.Queue[Any] | None = None,
                 timing: LinkTiming | None = None, baudrate: int = BAUDRATE) -> None:
        self.port = port
        self.baudrate = baudrate  # matters on a real UART (a USB-serial adapter, the Pi's pins)
        self.events: queue.Queue[Any] = events if events is not None else queue.Queue()
        self.timing = timing or LinkTiming()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._serial: serial.SerialBase | None = None
        self._closed = False
        self._tx_seq = 0
        self._request = 0
        self._pending: dict[int, concurrent.futures.Future[BarStatus]] = {}
        # Counters and MCU state (guarded by _lock where other threads read them).
        self._old_decoders = DecoderStats()
        self._decoder = Decoder()
        self._bytes_received = self._gaps = self._missed = self._sent = self._unexpected = 0
        self._reconnects = self._reboots = self._lost_count = 0
        self._boot_id: int | None = None
        self._previous_boot_id: int | None = None   # the boot before _boot_id, if any
        self._heartbeat_ms: int | None = None       # as _boot_id's hello announced it
        self._counters: dict[int, int] = {}
        self._counted_from_zero = False
        self._last_rx: float | None = None
        self._lost = False   # McuLost reported and no good frame since (across reopenings)
        self._expected_seq: int | None = None
        self._pending_boot: int | None = None
        self._incompatible = False   # until a compatible hello, across reopenings too
        self._sensor_ok: bool | None = None   # as the current boot's last flags said
        self._thread = threading.Thread(target=self._run, name=f"bridge {port}", daemon=True)
        self._thread.start()

    # ---- public API ----

    def __enter__(self) -> Link:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the reader, close the port, fail waiting commands. Safe to call twice."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self._stop.set()
        if threading.current_thread() is not self._thread:
            self._thread.join(JOIN_TIMEOUT_S)
            if self._thread.is_alive():
                log.warning("serial reader for %s did not stop within %.1f s",
                            self.port, JOIN_TIMEOUT_S)
        self._fail_pending(LinkClosed(f"the link to {self.port} is closed"))

    @property
    def connected(self) -> bool:
        return self._serial is not None

    def stats(self) -> LinkStats:
        with self._lock:
            d = self._decoder.stats()
            o = self._old_decoders
            age = None if self._last_rx is None else time.monotonic() - self._last_rx
            return LinkStats(
                port=self.port, connected=self._serial is not None, boot_id=self._boot_id,
                frames_good=o.frames + d.frames, bad_crc=o.bad_crc + d.bad_crc,
                malformed=o.malformed + d.malformed, unknown=o.unknown + d.unknown,
                bytes_skipped=o.bytes_skipped + d.bytes_skipped,
                bytes_received=self._bytes_received, sequence_gaps=self._gaps,
                frames_missed=self._missed, frames_sent=self._sent, unexpected=self._unexpected,
                reconnects=self._reconnects, mcu_reboots=self._reboots,
                mcu_lost=self._lost_count, last_frame_age_s=age)

    def send(self, message: Message) -> None:
        """Write one message now. Raises NotConnected without a port, LinkClosed after close."""
        if self._closed:
            raise LinkClosed(f"the link to {self.port} is closed")
        with self._write_lock:
            port = self._serial
            if port is None:
                raise NotConnected(f"{self.port} is not connected (is the sensor bar plugged in?)")
            frame = encode(message, self._tx_seq)
            try:
                port.write(frame)
            except (serial.SerialException, OSError) as exc:
                raise NotConnected(f"cannot write to {self.port}: {exc}") from exc
            self._tx_seq = (self._tx_seq + 1) & 0xFF
            self._sent += 1

    def get_status(self, timeout: float | None = None) -> BarStatus:
        return self._ask(lambda r: GetStatus(r), timeout)

    def set_thresholds(self, touch: int, release: int, quadrant: int = ALL_QUADRANTS,
                       timeout: float | None = None) -> BarStatus:
        """Set the MPR121 thresholds (raw counts) of one quadrant or, by default, all four.

        The MCU keeps them until it resets; send them again after each
        :class:`~firmware_bridge.events.McuBooted`.
        """
        return self._ask(lambda r: SetThresholds(r, quadrant, touch, release), timeout)

    def set_debounce(self, debounce_ms: int, timeout: float | None = None) -> BarStatus:
        return self._ask(lambda r: SetDebounce(r, debounce_ms), timeout)

    def reboot(self, maintenance: bool = False) -> None:
        """Reset the MCU (its hello follows); ``maintenance`` leaves its REPL free for mpremote."""
        with self._lock:
            self._request = self._request % 255 + 1
            request = self._request
        self.send(Reboot(request, maintenance))

    # ---- commands ----

    def _ask(self, make: Any, timeout: float | None) -> BarStatus:
        future: concurrent.futures.Future[BarStatus] = concurrent.futures.Future()
        with self._lock:
            self._request = self._request % 255 + 1
            request = self._request
            self._pending[request] = future
        message = make(request)
        try:
            self.send(message)
            wait = self.timing.command_timeout_s if timeout is None else timeout
            try:
                return future.result(wait)
            except concurrent.futures.TimeoutError:
                raise CommandTimeout(
                    f"the sensor bar on {self.port} did not answer {type(message).__name__} "
                    f"within {wait:.1f} s") from None
        finally:
            with self._lock:
                self._pending.pop(request, None)

    def _fail_pending(self, exc: BridgeError) -> None:
        with self._lock:
            pending = list(self._pending.values())
        for future in pending:
            if not future.done():
                future.set_exception(exc)

    # ---- the reader thread ----

    def _emit(self, event: object) -> None:
        self.events.put(event)

    def _open(self) -> serial.SerialBase:
        t = self.timing
        try:
            return serial.serial_for_url(self.port, baudrate=self.baudrate,
                                         timeout=t.read_timeout_s,
                                         write_timeout=t.write_timeout_s)
        except (serial.SerialException, OSError, ValueError) as exc:
            raise PortError(f"cannot open {self.port}: {exc}. Is the sensor bar plugged in? "
                            "ls /dev/serial/by-id/ lists the serial devices") from exc

    def _run(self) -> None:
        backoff = self.timing.reconnect_min_s
        opened_before = False
        down_reported = False
        while not self._stop.is_set():
            try:
                port = self._open()
            except PortError as exc:
                if not down_reported:
                    log.warning("%s", exc)
                    self._emit(ev.LinkDown(self.port, str(exc), time.monotonic()))
                    down_reported = True
                self._stop.wait(backoff)
                backoff = min(backoff * 2, self.timing.reconnect_max_s)
                continue
            backoff = self.timing.reconnect_min_s
            down_reported = False
            with self._write_lock, self._lock:
                if opened_before:
                    self._reconnects += 1
                opened_before = True
                self._serial = port
                self._tx_seq = 0  # the host numbers its frames from 0 at each opening
            log.info("serial port %s open", self.port)
            self._emit(ev.LinkUp(self.port, time.monotonic()))
            reason = "closed"
            try:
                self._session(port)
            except (serial.SerialException, OSError) as exc:
                reason = (f"lost {self.port}: {exc}. Was the sensor bar unplugged? "
                          "The link reconnects when it is back")
                log.warning("%s", reason)
            except Exception as exc:
                # A fault of ours must not silently end the reader: report it, reopen, go on.
                reason = f"internal error on {self.port}: {exc!r}; reopening the port"
                log.exception("serial reader for %s failed", self.port)
            finally:
                with self._write_lock, self._lock:
                    self._serial = None
                    self._old_decoders = _add(self._old_decoders, self._decoder.stats())
                    self._decoder = Decoder()
                port.close()
            self._fail_pending(NotConnected(f"{self.port} was lost before the answer came"))
            self._emit(ev.LinkDown(self.port, reason, time.monotonic()))
            if not self._stop.is_set():
                down_reported = True
                self._stop.wait(backoff)

    def _session(self, port: serial.SerialBase) -> None:
        t = self.timing
        self._expected_seq = None
        self._pending_boot = None
        opened = time.monotonic()
        next_heartbeat = opened
        while not self._stop.is_set():
            now = time.monotonic()
            if now >= next_heartbeat or self._pending_boot is not None:
                self._pending_boot = None
                self._write_heartbeat()
                next_heartbeat = now + t.heartbeat_s
            heard = self._last_rx is not None and self._last_rx >= opened
            last = self._last_rx if heard and self._last_rx is not None else opened
            if not self._lost and now - last > t.lost_after_s(self._heartbeat_ms):
                self._lost = True
                with self._lock:
                    self._lost_count += 1
                log.warning("sensor bar on %s silent for %.1f s", self.port, now - last)
                self._emit(ev.McuLost(self._boot_id if heard else None, now - last, now))
            data = port.read(max(1, port.in_waiting))
            if not data:
                continue
            now = time.monotonic()
            with self._lock:
                self._bytes_received += len(data)
                frames = self._decoder.feed(data)
            for frame in frames:
                if isinstance(frame.message, FROM_HOST):
                    with self._lock:
                        self._unexpected += 1
                    continue
                if self._lost:
                    # Lost in this session or before the port was reopened: found either way.
                    self._lost = False
                    since = self._last_rx if self._last_rx is not None else opened
                    self._found(frame, now - since, now)
                with self._lock:
                    self._last_rx = now
                self._frame(frame, now)

    def _write_heartbeat(self) -> None:
        try:
            self.send(HostHeartbeat())
        except LinkClosed:
            return
        except NotConnected as exc:
            raise serial.SerialException(str(exc.__cause__ or exc)) from exc

    def _found(self, frame: Frame, silent: float, now: float) -> None:
        boot = _boot_of(frame.message)
        if self._boot_id is not None and (boot is None or boot == self._boot_id):
            log.info("sensor bar on %s back after %.1f s", self.port, silent)
            self._emit(ev.McuFound(self._boot_id, silent, now))

    def _frame(self, frame: Frame, now: float) -> None:
        msg = frame.message
        boot = _boot_of(msg)
        if boot is not None and boot != self._boot_id:
            # A boot we do not know: its sequence starts afresh. A hello names it; a heartbeat
            # only hints at it, and the host heartbeat sent at once makes the MCU say hello.
            self._expected_seq = None
            if isinstance(msg, Hello):
                self._booted(msg, now)
            else:
                self._pending_boot = boot
        elif isinstance(msg, Hello) and (msg.protocol == PROTOCOL_VERSION) == self._incompatible:
            # The same boot now speaks another version: the refusal begins or ends here.
            self._booted(msg, now, same_boot=True)
        if self._expected_seq is not None and frame.seq != self._expected_seq:
            with self._lock:
                self._gaps += 1
                self._missed += (frame.seq - self._expected_seq) % 256
        self._expected_seq = (frame.seq + 1) % 256
        if isinstance(msg, Hello):
            return
        if self._incompatible:
            return
        if isinstance(msg, Heartbeat | BarStatus):
            self._sensor(bool(msg.flags & FLAG_SENSOR_OK), now)
        if isinstance(msg, TouchChange):
            self._touch(msg, now)
        elif isinstance(msg, BarStatus):
            with self._lock:
                future = self._pending.get(msg.request)
            if future is not None and not future.done():
                future.set_result(msg)
            self._emit(ev.McuStatus(msg, now))
        elif isinstance(msg, Error):
            log.warning("sensor bar error %s: %s", msg.code_name, msg.detail)
            with self._lock:
                future = self._pending.get(msg.request) if msg.request else None
            if future is not None and not future.done():
                future.set_exception(McuRefused(
                    f"the sensor bar refused the command: {msg.code_name}: {msg.detail}",
                    msg.code, msg.detail))
            self._emit(ev.McuError(msg.code, msg.code_name, msg.request, msg.detail, now))

    def _booted(self, hello: Hello, now: float, *, same_boot: bool = False) -> None:
        if hello.protocol != PROTOCOL_VERSION:
            self._incompatible = True
            log.error("sensor bar on %s speaks protocol %d, this host %d: reflash it",
                      self.port, hello.protocol, PROTOCOL_VERSION)
            self._emit(ev.Incompatible(hello.protocol, PROTOCOL_VERSION, now))
        else:
            self._incompatible = False
        # Another version's hello may put its fields elsewhere: only a compatible one's counts.
        self._heartbeat_ms = None if self._incompatible else hello.heartbeat_ms
        if same_boot:
            previous = self._previous_boot_id
        else:
            previous = self._previous_boot_id = self._boot_id
            with self._lock:
                self._boot_id = hello.boot_id
                if previous is not None:
                    self._reboots += 1
            # After a reset the MCU counts touches from zero; at first contact the counts so
            # far are unknown, so nothing is called missed until each quadrant has been heard.
            self._counters = {}
            self._counted_from_zero = previous is not None
            if previous is not None:
                log.warning("sensor bar on %s was reset (%s)", self.port,
                            hello.reset_cause_name)
        self._sensor_ok = None
        self._emit(ev.McuBooted(hello.boot_id, hello.firmware_version, hello.protocol,
                                hello.reset_cause_name, hello.heartbeat_ms, previous, now))

    def _sensor(self, ok: bool, now: float) -> None:
        before, self._sensor_ok = self._sensor_ok, ok
        if ok == before or (before is None and ok):
            return
        if ok:
            log.info("the sensor bar's touch sensor on %s answers again", self.port)
        else:
            log.warning("the sensor bar's touch sensor on %s does not answer", self.port)
        self._emit(ev.SensorState(ok, self._boot_id, now))

    def _touch(self, msg: TouchChange, now: float) -> None:
        last = self._counters.get(msg.quadrant, 0 if self._counted_from_zero else None)
        missed = 0 if last is None else (msg.counter - last - 1) % 2**32
        self._counters[msg.quadrant] = msg.counter
        self._emit(ev.Touch(msg.quadrant, msg.active, msg.mcu_time_us, msg.counter,
                            self._boot_id, missed, now))


SERIAL_HINT = "ls /dev/serial/by-id/ lists the serial devices"


def port_trouble(port: str) -> str | None:
    """Why ``port`` can never be a serial port (an empty name, an unknown URL, a file, a folder,
    a device that is not a terminal), or None: it is one, or may become one when plugged in."""
    if not port.strip():
        return ("no port named: give the sensor bar's serial device, "
                "/dev/serial/by-id/usb-MicroPython_...-if00; " + SERIAL_HINT)
    if "://" in port:
        try:
            serial.serial_for_url(port, do_not_open=True)
        except (ValueError, serial.SerialException) as exc:
            return (f"{port} is no port pyserial can open ({exc}): give a device path, or a URL "
                    "such as socket://HOST:PORT or rfc2217://HOST:PORT")
        return None
    try:
        mode = os.stat(port).st_mode
    except FileNotFoundError:
        return None   # not plugged in (yet)
    except (OSError, ValueError) as exc:
        why = getattr(exc, "strerror", None) or exc
        return f"{port if len(port) < 80 else port[:60] + '...'} cannot be a serial device ({why})"
    if stat.S_ISDIR(mode):
        return f"{port} is a folder, not a serial device; {SERIAL_HINT}"
    if not stat.S_ISCHR(mode):
        return f"{port} is a file, not a serial device; {SERIAL_HINT}"
    try:
        fd = os.open(port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    except OSError:
        return None   # busy, or not ours to open: opening it says so
    try:
        terminal = os.isatty(fd)
    finally:
        os.close(fd)
    return None if terminal else f"{port} is a device but not a serial port; {SERIAL_HINT}"


def _boot_of(message: Message) -> int | None:
    if isinstance(message, Hello | Heartbeat):
        return message.boot_id
    return None


def _add(a: DecoderStats, b: DecoderStats) -> DecoderStats:
    return DecoderStats(a.frames + b.frames, a.bad_crc + b.bad_crc, a.malformed + b.malformed,
                        a.unknown + b.unknown, a.bytes_skipped + b.bytes_skipped)
