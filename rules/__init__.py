"""Pure game logic: board geometry, zones, rule sets and the match state machine. No I/O."""

from rules.board import STANDARD, Board
from rules.count import BoardCount, Expect
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
from rules.rulesets import PRESETS, RuleSet, ruleset
from rules.summary import (
    DartsSummary,
    FirstTo,
    FixedRounds,
    Goal,
    OpenTurn,
    RoundsSummary,
    RoundSummary,
    Summary,
    TurnSummary,
)

__all__ = [
    "PRESETS", "STANDARD", "Board", "BoardCount", "BoardError", "BoardReading", "Confirm",
    "Correction", "CrokiscoreError", "DartsSummary", "Disc", "Event", "EventError", "Expect",
    "FirstTo", "FixedRounds", "Foul", "Goal", "IllegalEvent", "Match", "MatchOver", "NewMatch",
    "NotAwaited", "NothingToUndo", "OpenTurn", "OutOfTurn", "RoundSummary", "RoundsSummary",
    "RuleSet", "RuleSetError", "RulesError", "Shot", "Starter", "Summary", "TurnSummary",
    "Twenty", "Undo", "fold", "parse_event", "ruleset",
]
