"""The test run's Hypothesis profile (tests/conftest.py) is in force."""

from hypothesis import given, settings
from hypothesis import strategies as st


def test_hypothesis_has_no_deadline_and_no_example_database():
    assert settings.default.deadline is None
    assert settings.default.database is None


def test_hypothesis_draws_the_same_examples_on_every_run():
    def examples() -> list[int]:
        seen: list[int] = []

        @settings(max_examples=20)  # a test's own settings keep the profile's other choices
        @given(st.integers(0, 2**60))
        def draw(n: int) -> None:
            seen.append(n)

        draw()
        return seen

    first = examples()
    assert len(set(first)) > 5
    assert examples() == first
