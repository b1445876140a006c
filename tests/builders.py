"""Short ways to write matches in tests: whole rounds and turns in one call."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rules import BoardReading, Disc, Match, NewMatch, Shot, Twenty


def start(rules: str = "tournament-singles", players: Sequence[str] | None = None,
          **options: object) -> Match:
    names = ("Ann", "Bob", "Cat", "Dan")
    if players is None:
        players = names[:4] if "doubles" in rules else names[:2]
    return Match.start(NewMatch(rules, tuple(players), tuple(sorted(options.items()))))


def board(*discs: tuple[int, int] | tuple[int, int, bool]) -> BoardReading:
    """``board((0, 15), (1, 10, True))``: (team, zone[, uncertain]) per disc."""
    return BoardReading(tuple(Disc(d[0], d[1], len(d) > 2 and bool(d[2])) for d in discs))


def shoot(m: Match, n: int | None = None, twenties: dict[int, Iterable[int | None]] | None = None
          ) -> Match:
    """Plays ``n`` shots (default: the rest of the round) in turn order; ``twenties`` maps the
    index of a shot among these to the sides credited with a 20 during it (None: shooter's)."""
    twenties = twenties or {}
    i = 0
    while n is None or i < n:
        exp = m.expect()
        if exp.what != "shot":
            break
        assert exp.seat is not None
        m = m.apply(Shot(exp.seat))
        for team in twenties.get(i, ()):
            m = m.apply(Twenty(team))
        i += 1
    return m


def play_round(m: Match, zones0: Iterable[int] = (), zones1: Iterable[int] = (),
               twenties: dict[int, Iterable[int | None]] | None = None) -> Match:
    """A whole round: every shot in order, then the board with these zones per side."""
    m = shoot(m, twenties=twenties)
    return m.apply(board(*[(0, z) for z in zones0], *[(1, z) for z in zones1]))


def dart(m: Match, *zones: int, twenties: int = 0) -> Match:
    """One crokidarts shot by whoever is due: its 20s, then (if still wanted) the board left."""
    exp = m.expect()
    assert exp.what == "shot", exp
    assert exp.seat is not None
    m = m.apply(Shot(exp.seat))
    for _ in range(twenties):
        m = m.apply(Twenty())
    if m.expect().what == "board":
        m = m.apply(board(*[(exp.seat % 2, z) for z in zones]))
    return m
