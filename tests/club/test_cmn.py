"""Results in Crokinole Match Notation and CSV, from matches the hub holds."""

from __future__ import annotations

import csv
import io
import json
import re
import uuid
from pathlib import Path

from device.club.cmn import cmn_batch, cmn_match, results_csv
from device.club.hub import Hub
from device.club.hubstore import HubStore, MatchRecord
from device.club.topics import EventMessage, MatchKey, Topics, dumps
from tests.club.parts import MATCHES

TOPICS = Topics("crokiscore", "elmira")
START = 1_762_000_000.5
SOURCE = "crokiscore test"


def hold(tmp: Path, names: list[str], upto: int | None = None,
         event: str | None = "Club night") -> HubStore:
    store = HubStore(str(tmp / "club.db"))
    hub = Hub(store, TOPICS, lambda *a: None, event=event)
    for i, name in enumerate(names, 1):
        key = MatchKey(f"board-{i}", 3, START + i)
        lines = (MATCHES / f"{name}.jsonl").read_text().splitlines()[:upto]
        for seq, line in enumerate(lines):
            hub.handle(TOPICS.of(key.board, "event"), dumps(EventMessage(
                key, seq, START + i + seq, json.loads(line)).to_json()))
    return store


def record(store: HubStore, board: str) -> MatchRecord:
    return next(r for r in store.records() if r.key.board == board)


def test_a_tournament_match_its_rounds_as_games(tmp_path: Path) -> None:
    store = hold(tmp_path, ["tournament-singles"])
    out = cmn_match(record(store, "board-1"), SOURCE)
    assert out["cmn"] == "1.0" and out["event"] == "Club night" and out["source"] == SOURCE
    assert uuid.UUID(out["id"]).version == 5
    assert out["id"] == MatchKey("board-1", 3, START + 1).uuid
    m = out["match"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", m["date"])
    assert m["format"] == "singles"
    assert m["teams"] == [{"players": [{"name": "Ann"}]}, {"players": [{"name": "Bob"}]}]
    assert m["gameFormat"] == {"type": "fixed", "count": 4}
    assert [g["scores"] for g in m["games"]] == [[20, 25], [25, 60], [55, 20], [30, 20]]
    assert [g["winner"] for g in m["games"]] == [1, 1, 0, 0]
    assert [g["hammer"] for g in m["games"]] == [0, 1, 0, 1]   # singles players alternate
    assert all(20 * sum(g["twenties"]) <= sum(g["scores"]) for g in m["games"])
    assert m["winner"] is None                                   # 4 round points each
    assert cmn_match(record(store, "board-1"), SOURCE) == out    # the same again, ids included


def test_doubles_casual_and_crokidarts(tmp_path: Path) -> None:
    store = hold(tmp_path, ["tournament-doubles", "casual-100-doubles", "crokidarts"])
    doubles = cmn_match(record(store, "board-1"), SOURCE)["match"]
    assert doubles["format"] == "doubles"
    assert doubles["teams"] == [{"players": [{"name": "Ann"}, {"name": "Cat"}]},
                                {"players": [{"name": "Bob"}, {"name": "Dan"}]}]
    assert doubles["winner"] == 1
    casual = cmn_match(record(store, "board-2"), SOURCE)["match"]
    assert casual["gameFormat"] == {"type": "first_to", "target": 100}
    assert len(casual["games"]) == 6 and casual["winner"] == 1
    assert casual["games"][1] == {"winner": 0, "hammer": 1, "scores": [95, 35],
                                  "twenties": casual["games"][1]["twenties"]}
    darts = cmn_match(record(store, "board-3"), SOURCE)["match"]
    assert darts["gameFormat"] == {"type": "first_to", "target": 2}   # one set of two legs
    assert [g["winner"] for g in darts["games"]] == [0, 0]
    assert all(g["scores"][g["winner"]] == 400 for g in darts["games"])
    assert [g["hammer"] for g in darts["games"]] == [0, 1]             # the starter alternates
    assert darts["winner"] == 0


def test_a_batch_holds_the_finished_matches_only(tmp_path: Path) -> None:
    store = hold(tmp_path, ["tournament-singles", "casual-100"])
    unfinished = hold(tmp_path / "more", ["crokidarts"], upto=50)
    records = store.records() + unfinished.records()
    batch = cmn_batch(records, SOURCE, "Club night")
    assert list(batch) == ["cmn", "batch", "event", "source", "matches"]
    assert batch["batch"] is True and batch["event"] == "Club night"
    assert [list(m) for m in batch["matches"]] == [["id", "match"], ["id", "match"]]
    assert {m["id"] for m in batch["matches"]} == {r.uuid for r in store.records()}
    rows = list(csv.DictReader(io.StringIO(results_csv(records))))
    assert [(r["board"], r["rules"], r["score"], r["winner"]) for r in rows] == [
        ("board-1", "tournament-singles", "4-4", "draw"), ("board-2", "casual-100", "60-105",
                                                           "Bob")]
    assert rows[0]["event"] == "Club night" and rows[0]["games"] == "4"
