from pathlib import Path

import pytest

from device.club.settings import load_hub
from device.config import ConfigError, load, parse

ROOT = Path(__file__).resolve().parents[2]


def test_the_shipped_examples_load():
    pi = load(ROOT / "examples" / "pi.toml")
    assert pi.backend == "pi" and pi.hole.pin == 17 and pi.display.address == 0x3C
    assert pi.touch.channels == (0, 1, 2, 3)
    sim = load(ROOT / "examples" / "sim.toml")
    assert sim.backend == "sim" and sim.camera.kind == "sim" and sim.display.driver == "dummy"


def test_every_key_of_the_pi_example_is_the_default():
    assert parse({}).hole == load(ROOT / "examples" / "pi.toml").hole


@pytest.mark.parametrize(("data", "message"), [
    ({"backend": "mac"}, "backend must be one of pi, sim"),
    ({"colour": 1}, "unknown key 'colour' in the top level"),
    ({"hole": {"pinn": 4}}, r"unknown key 'pinn' in \[hole\]; the keys there are: .*pin"),
    ({"hole": {"pin": 40}}, r"\[hole\] pin must be a whole number from 0 to 27, got 40"),
    ({"hole": {"pin": "17"}}, r"\[hole\] pin must be a whole number"),
    ({"hole": {"min_pulse_ms": 5, "max_pulse_ms": 2}}, "must be below max_pulse_ms"),
    ({"hole": 5}, r"\[hole\] must be a table"),
    ({"buttons": {"ok": 17}}, r"GPIO 17 is used twice: by \[hole\] pin and by \[buttons\] ok"),
    ({"buttons": {"menu": 2}}, r"GPIO 2 is used twice: by \[buttons\] menu and by the display"),
    ({"display": {"interface": "spi"}, "buttons": {"ok": 24}}, r"\[display\] dc_pin"),
    ({"touch": {"channels": [0, 1, 1, 2]}}, "four different sensor channels"),
    ({"camera": {"kind": "folder"}}, "needs folder"),
    ({"camera": {"colour_gains": [1.0]}}, r"colour_gains must be a list of 2 numbers"),
    ({"match": {"rules": "snooker"}}, r"\[match\] unknown rule set 'snooker'"),
    ({"match": {"players": ["A", "B", "C"]}}, r"\[match\] tournament-singles is played by 2"),
    ({"match": {"options": {"legs": 2}}}, "has no option 'legs'"),
    ({"vision": {"team_colours": [[1, 2, 3]]}}, "team_colours must be two"),
    ({"display": {"driver": "lcd"}}, "driver must be one of"),
])
def test_mistakes_are_refused_with_the_key_and_the_fix(data, message):
    with pytest.raises(ConfigError, match=message):
        parse(data)


def test_the_simulator_does_not_check_gpio_pins():
    assert parse({"backend": "sim", "buttons": {"ok": 17}}).buttons.ok == 17


def test_file_problems_are_named(tmp_path):
    with pytest.raises(ConfigError, match=r"not found; copy examples/pi\.toml"):
        load(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("backend = \n")
    with pytest.raises(ConfigError, match="is not valid TOML"):
        load(bad)
    binary = tmp_path / "bin.toml"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(ConfigError, match="not UTF-8"):
        load(binary)


def test_player_sets_are_name_lists():
    c = parse({"match": {"player_sets": [["Ann", "Bob"], ["A", "B", "C", "D"]]}})
    assert c.match.player_sets == (("Ann", "Bob"), ("A", "B", "C", "D"))
    with pytest.raises(ConfigError, match="player_sets must be a list of name lists"):
        parse({"match": {"player_sets": ["Ann", "Bob"]}})


@pytest.mark.parametrize("load_it", [load, load_hub], ids=["box", "hub"])
def test_only_a_file_is_read_as_a_config(tmp_path, load_it):
    """/dev/zero was read until memory ran out; a pipe without a writer waited for ever."""
    import os

    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    for path in (Path("/dev/zero"), fifo):
        with pytest.raises(ConfigError, match=r"is not a file \(a device, a pipe or a socket\): "
                                              "give the config file itself"):
            load_it(path)
    with pytest.raises(ConfigError, match="is a folder: give the file in it"):
        load_it(tmp_path)
    huge = tmp_path / "huge.toml"
    huge.write_bytes(b"# " + b"x" * 2_000_000 + b"\n")
    with pytest.raises(ConfigError, match=r"holds 2,000,003 bytes, far more than any config: is "
                                          r"it the right file\?"):
        load_it(huge)


@pytest.mark.parametrize(("text", "words"), [
    ("[hole]\npin = " + "9" * 5000 + "\n", "is not valid TOML: a number of more than 4300 digits"),
    ('store = "events\\u0000.db"\n', r"store must not hold a NUL character \(\\u0000\)"),
    ('[match]\nplayers = ["Ann", "B\\u0000b"]\n', r"players must not hold a NUL character"),
    ("[club]\nbroker = 'hub:\u00b2'\nclub = 'c'\nboard = 'b'\n",
     r"\[club\] broker: the port in 'hub:²' must be a number from 1 to 65535"),
    ("[club]\nbroker = 'hub:1'\nclub = 'c'\nboard = 'b'\nusername = \"a\\u0000\"\n",
     r"\[club\] username must not hold a NUL character"),
])
def test_what_toml_takes_but_no_setting_can_be(tmp_path, text, words):
    cfg = tmp_path / "c.toml"
    cfg.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=words):
        load(cfg)


def test_the_club_receipts_are_not_kept_in_the_event_store():
    club = {"broker": "hub:1883", "club": "c", "board": "b"}
    with pytest.raises(ConfigError, match=r"\[club\] receipts names the event store itself"):
        parse({"store": "/var/lib/crokiscore/events.db",
               "club": {**club, "receipts": "/var/lib/crokiscore/events.db"}})
    assert parse({"club": {**club, "receipts": "/var/lib/crokiscore/r.db"}}).club is not None
