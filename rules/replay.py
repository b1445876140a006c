"""Replaying an event log (JSON lines) into a match, reporting each bad line and going on.

A log written by the daemon only holds accepted events, but logs are also written by hand and by
other tools, copied, cut and sent by mail; a bad line must not cost the rest of the match, so it is
reported with its number and reason and skipped, and the state stays as it was before it. Lines
come as bytes (a file read as it is, so text that is not UTF-8 is one more bad line rather than an
end to the replay) or as text.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from rules.errors import EventError, RulesError
from rules.events import Event, NewMatch, parse_event
from rules.match import Match

BOM = "\ufeff"
MAX_LINE = 1_000_000
"""The longest line read as an event, in bytes: the longest real event (a crowded board) is a
few kilobytes; a longer line is a file that is not a log, and is reported, not held."""


@dataclass(frozen=True)
class Step:
    """One line of the log: the event read from it and the match after it, or the problem."""

    line: int
    event: Event | None
    match: Match | None
    problem: str | None = None


def read_event(line: bytes | str) -> Event | None:
    """The event on one line of a log, None for a blank line; raises :class:`EventError` saying
    what is wrong with the line (too long, not UTF-8, not JSON, nested too deeply, not an
    event)."""
    if len(line) > MAX_LINE:
        raise EventError(f"a line of more than {MAX_LINE:,} bytes: no event is that long")
    if isinstance(line, bytes | bytearray):
        try:
            text = bytes(line).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise EventError(f"not UTF-8 text (byte 0x{line[exc.start]:02x} at column "
                             f"{exc.start + 1})") from None
    else:
        text = line
    text = text.strip().removeprefix(BOM)
    if not text:
        return None
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise EventError(f"not valid JSON ({exc.msg} at column {exc.colno})") from None
    except RecursionError:
        raise EventError("not an event: brackets nested too deeply") from None
    except ValueError as exc:  # an integer of thousands of digits
        raise EventError(f"not an event: {str(exc).split(';')[0].lower()}") from None
    try:
        return parse_event(obj)
    except RecursionError:  # valid JSON, but too deep to describe in a message
        raise EventError("not an event: brackets nested too deeply") from None


def replay(lines: Iterable[bytes | str]) -> Iterator[Step]:
    match: Match | None = None
    for number, line in enumerate(lines, start=1):
        try:
            ev = read_event(line)
            if ev is None:
                continue
            if match is None:
                if not isinstance(ev, NewMatch):
                    raise RulesError(f"no match has started: the log must begin with a 'match' "
                                     f"event, not {ev.TYPE!r}")
                match = Match.start(ev)
            else:
                match = match.apply(ev)
        except RulesError as exc:
            yield Step(number, None, match, str(exc))
            continue
        yield Step(number, ev, match)


def replay_all(lines: Iterable[bytes | str]) -> tuple[Match | None, list[Step]]:
    """The final match and the steps that were refused."""
    match, problems = None, []
    for step in replay(lines):
        match = step.match
        if step.problem:
            problems.append(step)
    return match, problems
