"""Per-player counts: 20s, fouls, round totals, and open-board 20 attempts as far as the event
log can tell them."""

from __future__ import annotations

from rules import BoardReading, Correction, Disc, Foul, NewMatch, Shot, Twenty, fold
from rules.stats import match_stats, player_stats


def test_open_board_attempts_in_a_round_game() -> None:
    m = fold([NewMatch("tournament-singles", ("Ann", "Bob"), (("discs", 2), ("rounds", 1))),
              Shot(0), Twenty(),          # Ann: empty board, in: an attempt made
              Shot(1),                    # Bob: still empty (Ann's disc is in the hole): missed
              Shot(0),                    # Ann: Bob's disc may be there: not counted
              Shot(1), Twenty(0), Foul(),  # Bob knocks Ann's disc in and fouls
              BoardReading((Disc(1, 10),))])
    ann, bob = match_stats(m)
    assert (ann.open_attempts, ann.open_twenties, ann.twenties, ann.fouls) == (1, 1, 1, 0)
    assert (bob.open_attempts, bob.open_twenties, bob.twenties, bob.fouls) == (1, 0, 0, 1)
    assert ann.totals == (40,) and bob.totals == (10,)   # Ann's two 20s, one knocked in by Bob
    assert ann.open_rate == 1.0 and bob.open_rate == 0.0
    (table_ann, table_bob) = sorted(player_stats([m]), key=lambda s: s.name)
    assert (table_ann.wins, table_ann.open_attempts, table_ann.points) == (1, 1, 40)
    assert (table_bob.fouls, table_bob.rounds) == (1, 1)


def test_a_fouled_twenty_still_empties_the_board_but_counts_for_nobody() -> None:
    m = fold([NewMatch("tournament-singles", ("Ann", "Bob"), (("discs", 2), ("rounds", 1))),
              Shot(0), Twenty(), Foul(),   # in, but void
              Shot(1)])                    # the board is empty all the same
    ann, bob = match_stats(m)
    assert (ann.open_attempts, ann.open_twenties, ann.twenties, ann.fouls) == (1, 0, 0, 1)
    assert bob.open_attempts == 1


def test_open_board_attempts_in_crokidarts() -> None:
    m = fold([NewMatch("crokidarts", ("Ann", "Bob"), (("legs", 1), ("sets", 1))),
              Shot(0), BoardReading(()),              # a turn's first shot: an attempt, missed
              Shot(0), Twenty(), BoardReading(()),    # the board read empty: an attempt, made
              Shot(0), BoardReading((Disc(0, 15),)),  # still empty before it: an attempt
              Shot(0), BoardReading((Disc(0, 15),)),  # a disc on the board: not counted
              Shot(0), Correction(value=45),          # not counted
              Shot(1), BoardReading(())])             # Bob's turn starts on an empty board
    ann, bob = match_stats(m)
    assert (ann.open_attempts, ann.open_twenties, ann.twenties) == (3, 1, 1)
    assert ann.totals == (45,)
    assert (bob.open_attempts, bob.open_twenties) == (1, 0)
