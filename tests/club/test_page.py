"""The live scoreboard in a real headless browser (Debian's Chromium): it shows every board,
follows the play within moments of each event, lists finished matches and the players' counts,
and lets the organiser, and only the organiser, set a board's next match."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select, WebDriverWait

from device.club.password import make_hash
from tests.club.browser import chromium
from tests.club.mosquitto import Mosquitto
from tests.club.parts import MATCHES, FedBox, HubThread, box_config, hub_settings, until

PASSWORD = "club-night-secret"


@pytest.fixture(scope="module")
def browser() -> Iterator[WebDriver]:
    driver = chromium()
    try:
        yield driver
    finally:
        driver.quit()


def text(browser: WebDriver, selector: str) -> str | None:
    """The element's text, read in one go (the page replaces a board's card on each change)."""
    return browser.execute_script("const e = document.querySelector(arguments[0]); "
                                  "return e ? e.innerText : null;", selector)


def card(board: str, part: str = "") -> str:
    return f'article[data-board="{board}"] {part}'.strip()


def wait(browser: WebDriver, check, what: str, timeout: float = 15):  # type: ignore[no-untyped-def]
    return WebDriverWait(browser, timeout, poll_frequency=0.05,
                         ignored_exceptions=(StaleElementReferenceException,)).until(
        lambda d: check(d), message=what)


def card_shows(browser: WebDriver, board: str, seq: int, score: list[int]) -> bool:
    got = browser.execute_script(
        "const e = document.querySelector(arguments[0]); if (!e) return null; "
        "return [e.dataset.seq, e.querySelector('.score').innerText];", card(board))
    return got == [str(seq), f"{score[0]} – {score[1]}"]


def test_the_page_shows_every_board_and_follows_the_play(broker: Mosquitto, browser: WebDriver,
                                                         tmp_path: Path) -> None:
    with HubThread(hub_settings(tmp_path, broker.address)) as hub, \
            FedBox(box_config(tmp_path, broker.address, "board-1"),
                   MATCHES / "tournament-singles.jsonl") as one, \
            FedBox(box_config(tmp_path, broker.address, "board-2"),
                   MATCHES / "casual-100-doubles.jsonl") as two, \
            FedBox(box_config(tmp_path, broker.address, "board-3"),
                   MATCHES / "crokidarts.jsonl") as three:
        one.start(events=10)
        two.start(events=5)
        three.start(events=5)
        until(lambda: hub.events() == 11 + 6 + 6, 20, "the boards' events at the hub")
        browser.get(hub.url + "/")
        wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "article.board")) == 3,
             "three boards on the page")
        assert text(browser, card("board-1", ".teams")) == "Ann\nv\nBob"
        assert text(browser, card("board-2", ".teams")) == "Ann & Cat\nv\nBob & Dan"
        # a crokidarts board is counted in legs and sets, by its state's scoring
        darts = text(browser, card("board-3", ".progress"))
        assert darts is not None and "set 1 · leg" in darts and "round" not in darts, darts
        wait(browser, lambda d: d.find_element(By.ID, "link").text == "live", "the live link")
        for upto in (18, 40):   # past round 1's reading, then into round 3
            one.feed_more(upto)
            m = one.app.match
            wait(browser, lambda d, m=m: card_shows(d, "board-1", m.depth, list(m.summary().score)),
                 f"the page to follow board-1 to event {m.depth}")
            progress = text(browser, card("board-1", ".progress"))
            assert progress is not None and f"round {m.summary().round}" in progress
        one.feed_more()
        wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#results tbody tr")) == 1,
             "the finished match in the results")
        row = text(browser, "#results tbody tr")
        assert row is not None and row.split("\t")[:4] == ["board-1", "Ann v Bob", "4–4", "draw"]
        names = browser.execute_script("return [...document.querySelectorAll('#players tbody tr')]"
                                       ".map((r) => r.cells[0].innerText);")
        assert sorted(names) == ["Ann", "Bob"]
        assert "finished" in (text(browser, card("board-1")) or "")
        browser.save_screenshot(str(tmp_path / "club-page.png"))


def test_the_organiser_sets_a_boards_next_match_and_ok_starts_it(
        broker: Mosquitto, browser: WebDriver, tmp_path: Path) -> None:
    settings = hub_settings(tmp_path, broker.address, password_hash=make_hash(PASSWORD),
                            event="Club night")
    with HubThread(settings) as hub, \
            FedBox(box_config(tmp_path, broker.address, "board-5"),
                   MATCHES / "tournament-singles.jsonl") as box:
        box.start()
        until(lambda: hub.events() == 80, 20, "the first match at the hub")
        browser.get(hub.url + "/")
        wait(browser, lambda d: text(d, card("board-5")), "the board on the page")
        assert not browser.find_element(By.ID, "organise").is_displayed()
        browser.find_element(By.ID, "organiser").click()
        login = browser.find_element(By.ID, "login-form")
        login.find_element(By.NAME, "password").send_keys("guess")
        login.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait(browser, lambda d: d.find_element(By.ID, "login-said").text == "wrong password",
             "the wrong password refused")
        login.find_element(By.NAME, "password").clear()
        login.find_element(By.NAME, "password").send_keys(PASSWORD)
        login.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait(browser, lambda d: d.find_element(By.ID, "organise").is_displayed(),
             "the organiser's form")
        form = browser.find_element(By.ID, "assign")
        wait(browser, lambda d: len(Select(form.find_element(By.NAME, "rules")).options) > 1,
             "the rule sets in the form")
        Select(form.find_element(By.NAME, "board")).select_by_value("board-5")
        Select(form.find_element(By.NAME, "rules")).select_by_value("casual-100")
        form.find_element(By.NAME, "players").send_keys("Cat, Dan")
        form.find_element(By.NAME, "event").send_keys("Thursday league")
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait(browser, lambda d: "next Cat v Dan" in d.find_element(By.ID, "assign-said").text,
             "the assignment confirmed")
        until(lambda: box.app.assigned is not None, 10, "the box to hear of it")
        assert box.app.assigned.players == ("Cat", "Dan")
        wait(browser, lambda d: "next: Cat v Dan" in (text(d, card("board-5")) or ""),
             "the card's next match")
        box.daemon.hardware.table.press("ok")   # the operator, at the finished scoreboard
        until(lambda: box.app.match.players == ("Cat", "Dan"), 10, "the assigned match started")
        rows = until(lambda: [r for r in hub.get("/api/matches") if r["players"] == ["Cat", "Dan"]],
                     10, "the new match at the hub")
        assert rows[0]["event"] == "Thursday league" and rows[0]["rules"] == "casual-100"
        wait(browser, lambda d: text(d, card("board-5", ".teams")) == "Cat\nv\nDan"
             and "next:" not in (text(d, card("board-5")) or ""), "the card with the new match")
