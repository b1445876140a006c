"""What the link tells its owner, as values on a queue (see :mod:`firmware_bridge.link`).

Every event carries ``at``: the host's ``time.monotonic()`` when the link decoded it (or noticed
it), so the daemon can measure how long an event waited before it acted, and compare it with the
MCU's own clock (``mcu_time_us``) where the event has one.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Any

from firmware_bridge.messages import BarStatus


@dataclass(frozen=True)
class LinkUp:
    """The serial port is open (first time, or again after it was lost)."""

    port: str
    at: float


@dataclass(frozen=True)
class LinkDown:
    """The serial port could not be opened or was lost; the link keeps trying with backoff.

    ``reason`` is meant for a person: what failed and what to check.
    """

    port: str
    reason: str
    at: float


@dataclass(frozen=True)
class McuBooted:
    """A hello from a boot of the MCU this link had not seen: first contact, or a reset.

    ``previous_boot_id`` is the boot seen before on this link (None at first contact); when it is
    set the MCU was reset, and touch states it had reported are void.

    A boot already seen is reported again, with the same ``previous_boot_id``, when its hello
    gives another protocol version than before: after :class:`Incompatible`, a compatible hello
    from the same boot is when the host starts acting on it (and should send its settings).
    """

    boot_id: int
    firmware: str
    protocol: int
    reset_cause: str
    heartbeat_ms: int
    previous_boot_id: int | None
    at: float


@dataclass(frozen=True)
class McuLost:
    """Nothing good has come from the MCU for three of its heartbeat periods, and at least the
    link's ``mcu_timeout_s`` (the port may still be open).

    ``boot_id`` is None when the MCU never said anything since the port opened.
    """

    boot_id: int | None
    silent_s: float
    at: float


@dataclass(frozen=True)
class McuFound:
    """The same boot of the MCU speaks again after :class:`McuLost`."""

    boot_id: int
    silent_s: float
    at: float


@dataclass(frozen=True)
class Touch:
    """A quadrant's shooting line went active (touched) or inactive.

    ``mcu_time_us`` is when the MCU first saw the new state (microseconds since its boot);
    ``counter`` is the quadrant's change count in this boot (odd while active); ``missed`` is how
    many changes of this quadrant were lost on the way before this one (0 when none or unknown).
    """

    quadrant: int
    active: bool
    mcu_time_us: int
    counter: int
    boot_id: int | None
    missed: int
    at: float


@dataclass(frozen=True)
class McuStatus:
    """The MCU's settings and readings, in answer to a status request or a setting change."""

    status: BarStatus
    at: float


@dataclass(frozen=True)
class McuError:
    """An error message from the MCU (see docs/protocol.md, "Error codes")."""

    code: int
    name: str
    request: int
    detail: str
    at: float


@dataclass(frozen=True)
class SensorState:
    """The MCU's touch sensor stopped answering, or answers again, as the ``sensor_ok`` flag of
    its heartbeats and status replies says. Reported when the flag changes, and when the first
    one heard from a boot has it clear; a sensor that answers from the start is not news.

    The MCU's sensor-fault error (a :class:`McuError`) says why, but only once per outage and
    only to a host that was listening; the flag says how things stand now.
    """

    ok: bool
    boot_id: int | None
    at: float


@dataclass(frozen=True)
class Incompatible:
    """The MCU speaks a protocol version this host does not; its events are ignored until a
    compatible hello arrives, from a reflashed firmware or the same boot (reflash it:
    docs/sensor-bar.md)."""

    protocol: int
    supported: int
    at: float


Event = (LinkUp | LinkDown | McuBooted | McuLost | McuFound | Touch | McuStatus | McuError
         | SensorState | Incompatible)


def event_name(event: object) -> str:
    """``McuBooted`` -> ``mcu_booted``: the name used in JSON."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", type(event).__name__).lower()


def to_json(event: Any) -> dict[str, Any]:
    """The event as a JSON-ready dict with its name under ``"event"``."""
    out: dict[str, Any] = {"event": event_name(event)}
    out.update(dataclasses.asdict(event))
    return out
