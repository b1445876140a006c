"""Pure game logic: board geometry, zones, rule sets and the match state machine. No I/O."""

from rules.board import STANDARD, Board
from rules.errors import (
    BoardError,
    CrokiscoreError,
    EventError,
    IllegalEvent,
    MatchOver,
    NotAwaited,
    NothingToUndo,
    OutOfTurn,
    RulesError,
    RuleSetError,
)
from rules.events import (
    BoardReading,
    Confirm,
    Correction,
    Disc,
    Event,
    Foul,
    NewMatch,
    Shot,
    Starter,
    Twenty,
    Undo,
    parse_event,
)
from rules.match import Match, fold
from rules.reading import Expect, Reading
from rules.rulesets import PRESETS, RuleSet, ruleset

__all__ = [
    "PRESETS", "STANDARD", "Board", "BoardError", "BoardReading", "Confirm", "Correction",
    "CrokiscoreError", "Disc", "Event", "EventError", "Expect", "Foul", "IllegalEvent", "Match",
    "MatchOver", "NewMatch", "NotAwaited", "NothingToUndo", "OutOfTurn", "Reading", "RuleSet",
    "RuleSetError", "RulesError", "Shot", "Starter", "Twenty", "Undo", "fold", "parse_event",
    "ruleset",
]
