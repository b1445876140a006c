"""One real Mosquitto broker per test module (tests that kill or cut it make their own)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.club.mosquitto import Mosquitto


@pytest.fixture(scope="module")
def broker() -> Iterator[Mosquitto]:
    with Mosquitto() as b:
        yield b
