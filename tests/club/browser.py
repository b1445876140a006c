"""Debian's Chromium, headless, driven through Debian's chromedriver by Selenium."""

from __future__ import annotations

import tempfile
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")


def chromium(width: int = 1920, height: int = 1080) -> webdriver.Chrome:
    if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
        raise RuntimeError("Debian's chromium and chromium-driver are missing: `make "
                           "system-packages` installs them")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--disable-quic", "--no-first-run",
                "--disable-default-apps", "--disable-extensions",
                f"--window-size={width},{height}",
                f"--user-data-dir={tempfile.mkdtemp(prefix='crokiscore-chromium-')}"):
        options.add_argument(arg)
    return webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
