"""Replaying an event log (JSON lines) into a match, reporting each bad line and going on.

A log written by the daemon only holds accepted events, but logs are also written by hand and by
other tools; a bad line must not cost the rest of the match, so it is reported with its number and
reason and skipped, and the state stays as it was before it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from rules.errors import RulesError
from rules.events import Event, NewMatch, parse_event
from rules.match import Match


@dataclass(frozen=True)
class Step:
    """One line of the log: the event read from it and the match after it, or the problem."""

    line: int
    event: Event | None
    match: Match | None
    problem: str | None = None


def replay(lines: Iterable[str]) -> Iterator[Step]:
    match: Match | None = None
    for number, text in enumerate(lines, start=1):
        text = text.strip()
        if not text:
            continue
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            yield Step(number, None, match, f"not valid JSON ({exc.msg} at column {exc.colno})")
            continue
        try:
            ev = parse_event(obj)
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


def replay_all(lines: Iterable[str]) -> tuple[Match | None, list[Step]]:
    """The final match and the steps that were refused."""
    match, problems = None, []
    for step in replay(lines):
        match = step.match
        if step.problem:
            problems.append(step)
    return match, problems
