"""The project's exception tree.

One root, :class:`CrokiscoreError`, so the daemon can catch everything of ours in one place and
report it in words; one base per subsystem beneath it (``RulesError`` here, the others in their
packages). Errors that are also plainly a bad value subclass :class:`ValueError` as well, so callers
that only know the builtins still catch them.
"""

from __future__ import annotations

import reprlib


class CrokiscoreError(Exception):
    """Root of every error the project raises on purpose."""


class RulesError(CrokiscoreError):
    """Base of the rules engine's errors."""


class RuleSetError(RulesError, ValueError):
    """An unknown rule set, or an option it does not have or cannot take."""


class EventError(RulesError, ValueError):
    """An event that cannot be read: unknown type, missing or malformed field."""


class IllegalEvent(RulesError):
    """A well-formed event that cannot happen in the match's current state.

    The message says what was expected instead, so an operator or a log reader can act on it.
    """


class OutOfTurn(IllegalEvent):
    """A shot from a seat whose turn it is not."""


class NotAwaited(IllegalEvent):
    """An event that is not due now: a board reading nobody asked for, a shot while the board is
    awaited, a confirmation with nothing to confirm."""


class MatchOver(IllegalEvent):
    """Play after the match has been decided."""


class NothingToUndo(IllegalEvent):
    """Undo with no event left to take back."""


class BoardError(RulesError, ValueError):
    """Board dimensions that cannot be: lines not growing outwards, a size that is not
    positive."""


_SHORT = reprlib.Repr()
_SHORT.maxlevel = 8  # a value nested a thousand deep is shown as [[[...]]], not a RecursionError
_SHORT.maxstring = _SHORT.maxother = _SHORT.maxlong = 200
_SHORT.maxlist = _SHORT.maxtuple = _SHORT.maxdict = _SHORT.maxset = 30


def shown(value: object, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters: error messages quote what was wrong, but a
    megabyte of garbage must not become a megabyte of message."""
    text = _SHORT.repr(value)
    return text if len(text) <= limit else text[: limit - 5] + "...'" + text[-1:]
