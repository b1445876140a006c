import csv
import io
import json
import random

from device.commands.cli import main
from device.commands.history import as_csv, as_json, players_csv
from device.store import EventStore
from hw_sim.scripted import play
from rules import fold
from rules.stats import player_stats
from tests.builders import play_round, start


def record(store, events, ts=1_700_000_000.0):
    match_id = store.begin_match(events[0], ts)
    for i, ev in enumerate(events[1:]):
        store.append(match_id, ev, ts + i)
    m = fold(events)
    if m.finished:
        store.finish(match_id, m.summary().to_json(), ts + len(events))
    return m


def test_player_stats_count_wins_twenties_and_round_totals():
    m = start("casual-100", players=["Ann", "Bob"], target=60)
    # Bob knocks Ann's first disc in (a 20 for her side), then Ann shoots a 20 herself
    m = play_round(m, [15], [10], twenties={1: [0], 2: [None]})  # 55 - 10: Ann +45
    m = play_round(m, [15, 5], [])                                # 20 - 0: Ann +20, 65
    stats = {s.name: s for s in player_stats([m])}
    assert m.finished and m.winner == 0
    ann, bob = stats["Ann"], stats["Bob"]
    assert (ann.matches, ann.wins, bob.wins) == (1, 1, 0)
    assert ann.twenties == 1 and bob.twenties == 0      # a knocked-in disc is nobody's 20
    assert ann.rounds == 2 and ann.points == 55 + 20
    assert bob.points == 10


def test_doubles_partners_share_their_sides_totals_but_not_their_twenties():
    m = start("tournament-doubles", players=["Ann", "Bob", "Cat", "Dan"])
    for _ in range(4):
        m = play_round(m, [15], [], twenties={2: [None]})             # the third shooter's 20
    stats = {s.name: s for s in player_stats([m])}
    assert stats["Ann"].points == stats["Cat"].points == 4 * 15 + 20 * 2
    assert stats["Ann"].twenties + stats["Cat"].twenties + stats["Bob"].twenties + \
        stats["Dan"].twenties == 4


def test_exports_hold_every_finished_match(tmp_path):
    with EventStore(tmp_path / "e.db") as store:
        done = [record(store, list(play(r, random.Random(i))))
                for i, r in enumerate(["casual-100", "tournament-singles"])]
        record(store, list(play("casual-100", random.Random(9)))[:20])   # still in play
        rows = list(csv.DictReader(io.StringIO(as_csv(store))))
        assert [r["rules"] for r in rows] == ["casual-100", "tournament-singles"]
        assert rows[0]["score"] == "-".join(map(str, done[0].summary().to_json()["score"]))
        data = as_json(store)
        assert [m["rules"] for m in data["matches"]] == ["casual-100", "tournament-singles"]
        assert {p["name"] for p in data["players"]} == {"Ann", "Bob"}
        table = list(csv.DictReader(io.StringIO(players_csv(store))))
        assert sum(int(r["matches"]) for r in table) == 4


def test_the_history_command_prints_csv_and_json(tmp_path, capsys):
    db = tmp_path / "e.db"
    with EventStore(db) as store:
        record(store, list(play("crokidarts", random.Random(3), options={"legs": 1, "sets": 1})))
    assert main(["history", "--store", str(db)]) == 0
    assert "crokidarts" in capsys.readouterr().out
    assert main(["history", "--store", str(db), "--json"]) == 0
    players = json.loads(capsys.readouterr().out)["players"]
    assert sum(p["wins"] for p in players) == 1
    assert main(["history", "--config", str(tmp_path / "none.toml")]) == 2
    assert "not found" in capsys.readouterr().err
