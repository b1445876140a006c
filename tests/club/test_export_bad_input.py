"""`crokiscore club export` and the hub against stores that are not the hub's, or are spoilt:
a message naming the file and the fix, never a traceback, and nothing written to them."""

from __future__ import annotations

import contextlib
import io
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from device.club.errors import HubStoreError
from device.club.hubstore import HubStore
from device.commands.cli import main
from device.store import EventStore
from rules import NewMatch
from tests.club.test_cmn import hold


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(argv))
    return status, out.getvalue(), err.getvalue()


def files(folder: Path) -> dict[str, tuple[int, int]]:
    return {p.name: (p.stat().st_mtime_ns, p.stat().st_size) for p in folder.iterdir()}


def not_the_hubs(kind: str, path: Path) -> str:
    """A file given as the hub's store by mistake, and the words that must name it."""
    if kind == "a box's event store":
        with EventStore(path) as store:
            store.begin_match(NewMatch("casual-100", ("Ann", "Bob")), 1.0)
        return "is a box's event store, not the hub's: read it with crokiscore history --store"
    if kind == "another program's database":
        with contextlib.closing(sqlite3.connect(path)) as db:
            db.execute("CREATE TABLE cats (name TEXT)")
            db.commit()
        return "is an SQLite file but not the hub's store (it has tables cats)"
    if kind == "text":
        path.write_text("hello\n" * 100)
        return "cannot be read (file is not a database): it is damaged, or not the hub's store"
    if kind == "an empty file":
        path.write_bytes(b"")
        return "is not the hub's store (it has no tables)"
    raise AssertionError(kind)


KINDS = ["a box's event store", "another program's database", "text", "an empty file"]


@pytest.mark.parametrize("kind", KINDS)
def test_export_from_what_is_not_the_hubs_store_is_refused_by_name(tmp_path, kind):
    path = tmp_path / "club.db"
    words = not_the_hubs(kind, path)
    before = files(tmp_path)
    for what in ("--csv", "--cmn"):
        status, out, err = run("club", "export", what, "--store", str(path))
        assert status == 2 and not out
        assert err.startswith("crokiscore club: ") and words in err, err
    assert files(tmp_path) == before


@pytest.mark.parametrize("kind", KINDS[:2])
def test_the_hub_never_adds_its_tables_to_someone_elses_database(tmp_path, kind):
    """The hub's tables in a box's store would spoil it for the box (its schema number too)."""
    path = tmp_path / "club.db"
    words = not_the_hubs(kind, path)
    before = path.read_bytes()
    with pytest.raises(HubStoreError, match=words.split(":")[0].replace("(", r"\(")
                       .replace(")", r"\)")):
        HubStore(str(path))
    assert path.read_bytes() == before


def test_a_half_store_is_a_message(tmp_path):
    store = hold(tmp_path, ["casual-100"])
    store.close()
    data = (tmp_path / "club.db").read_bytes()
    (tmp_path / "half.db").write_bytes(data[: len(data) // 2])
    status, out, err = run("club", "export", "--csv", "--store", str(tmp_path / "half.db"))
    assert status == 2 and not out
    assert "the hub store" in err and "half.db cannot be read" in err


@pytest.mark.parametrize("spoil", [
    "UPDATE matches SET started = 'yesterday'",
    "UPDATE matches SET players = '5', summary = 'not json'",
    "UPDATE events SET body = 'not json' WHERE seq = 40",
    "UPDATE events SET body = '{\"type\": \"nope\"}' WHERE seq = 40",
])
def test_export_of_a_spoilt_match_says_what_was_left_out(tmp_path, spoil):
    store = hold(tmp_path, ["casual-100", "crokidarts"])
    store.close()
    shutil.copy(tmp_path / "club.db", tmp_path / "spoilt.db")
    with contextlib.closing(sqlite3.connect(tmp_path / "spoilt.db")) as db:
        db.execute(f"{spoil} AND board = 'board-1'" if "WHERE" in spoil
                   else f"{spoil} WHERE board = 'board-1'")
        db.commit()
    status, out, err = run("club", "export", "--csv", "--store", str(tmp_path / "spoilt.db"))
    assert "Traceback" not in err
    rows = out.splitlines()
    assert ",board-2," in rows[-1], "the sound match is exported"
    if "players" in spoil:   # the events still give the players and the score
        assert (status, err, len(rows)) == (0, "", 3)
        assert ",Ann / Bob" in rows[1]
    else:
        assert status == 1 and len(rows) == 2
        assert err.startswith("crokiscore club export: match ") and "(board-1) ended, but " \
            f"{tmp_path / 'spoilt.db'} does not hold all its events whole: left out" in err


# --- the hub's own start -------------------------------------------------------------------------

def club(cfg: Path) -> tuple[int, str, str]:
    """The hub started as a command (it sets up logging and signals for itself)."""
    from tests.club.parts import CROKISCORE

    done = subprocess.run([str(CROKISCORE), "club", "--config", str(cfg)], capture_output=True,
                          text=True, timeout=60)
    return done.returncode, done.stdout, done.stderr


def hub_toml(tmp_path: Path, hub: str) -> Path:
    cfg = tmp_path / "club.toml"
    cfg.write_text(f"[club]\nbroker = '127.0.0.1:1'\nclub = 'elmira'\n[hub]\n"
                   f"store = '{tmp_path / 'club.db'}'\n{hub}")
    return cfg


def test_a_page_address_that_cannot_be_served_is_named(tmp_path):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        for listen, why in ((f"127.0.0.1:{port}", "address already in use"),
                            ("203.0.113.7:8080", "assign requested address"),
                            ("no-such-host.invalid:8080", "")):
            status, _, err = club(hub_toml(tmp_path, f"listen = '{listen}'\n"))
            assert status == 2 and "Traceback" not in err
            host, _, number = listen.rpartition(":")
            assert f"crokiscore club: cannot serve the page on {host}:{number} ([hub] listen)" \
                in err and why in err and "give a free port" in err


def test_tls_files_that_are_not_a_certificate_are_named(tmp_path):
    cert = tmp_path / "hub.crt"
    cert.write_text("not a certificate\n")
    status, _, err = club(hub_toml(
        tmp_path, f"listen = '127.0.0.1:0'\ntls_cert = '{cert}'\ntls_key = '{cert}'\n"))
    assert status == 2
    assert f"[hub] tls_cert {cert} and tls_key {cert} are not a certificate (PEM) and its key" \
        in err


def test_a_password_that_is_not_utf8_makes_no_hash():
    from tests.club.parts import CROKISCORE

    done = subprocess.run([str(CROKISCORE), "club", "password"], input=b"\xe9" * 12 + b"\n",
                          capture_output=True, timeout=60)
    assert (done.returncode, done.stdout) == (2, b"")
    assert done.stderr == b"crokiscore club password: the password read is not UTF-8 text; " \
                          b"nothing made\n"
