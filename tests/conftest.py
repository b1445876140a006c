"""Settings for the whole test run.

Hypothesis tests run the same examples every time (``derandomize``: the examples come from a hash
of each test, not from a fresh random seed, and no database of earlier failures is replayed), so a
green run means the same on every machine and a failure seen once is seen again. They have no
per-example deadline: on a loaded machine a slow example is not a bug, and speed is measured by the
benchmarks under bench/. ``pytest --hypothesis-profile NAME`` still picks another profile.
"""

from hypothesis import settings

settings.register_profile("crokiscore", derandomize=True, deadline=None, database=None)
settings.load_profile("crokiscore")
