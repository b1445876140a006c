"""The colour-axis sums written out give numpy's reductions to the last bit."""

import numpy as np
import pytest

from vision.arrays import channel_mean, channel_sq, channel_sum


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(64, 64, 3), (7, 96, 28, 3), (500, 3), (5, 4)])
def test_channel_sums_are_numpys(dtype: type, shape: tuple[int, ...]) -> None:
    rng = np.random.default_rng(7)
    a = (rng.standard_normal(shape) * rng.uniform(0.01, 100.0, shape)).astype(dtype)
    assert np.array_equal(channel_sum(a), a.sum(axis=-1))
    assert np.array_equal(channel_mean(a), a.mean(axis=-1))
    assert np.array_equal(channel_sq(a), (a * a).sum(axis=-1))
    assert channel_mean(a).dtype == a.mean(axis=-1).dtype
