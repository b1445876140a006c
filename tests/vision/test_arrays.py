"""The reductions written out give numpy's own to the last bit."""

import warnings

import numpy as np
import pytest

from vision.arrays import channel_mean, channel_sq, channel_sum, median, nanmedian_rows


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(64, 64, 3), (7, 96, 28, 3), (500, 3), (5, 4)])
def test_channel_sums_are_numpys(dtype: type, shape: tuple[int, ...]) -> None:
    rng = np.random.default_rng(7)
    a = (rng.standard_normal(shape) * rng.uniform(0.01, 100.0, shape)).astype(dtype)
    assert np.array_equal(channel_sum(a), a.sum(axis=-1))
    assert np.array_equal(channel_mean(a), a.mean(axis=-1))
    assert np.array_equal(channel_sq(a), (a * a).sum(axis=-1))
    assert channel_mean(a).dtype == a.mean(axis=-1).dtype


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize(("shape", "axis"), [((300, 17, 3), 1), ((40, 37, 3), 1), ((40, 3), 0),
                                             ((41, 3), 0), ((6, 16, 3), 1), ((1, 1), 0)])
def test_median_is_numpys(dtype: type, shape: tuple[int, ...], axis: int) -> None:
    rng = np.random.default_rng(11)
    for a in ((rng.standard_normal(shape) * 50.0).astype(dtype),
              rng.integers(0, 4, shape).astype(dtype)):  # (ties)
        got, want = median(a, axis), np.median(a, axis=axis)
        assert got.dtype == want.dtype and np.array_equal(got, want)
    a = rng.standard_normal(shape).astype(dtype)
    a.flat[0] = np.nan
    assert np.array_equal(median(a, axis), np.median(a, axis=axis), equal_nan=True)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(720, 15), (1440, 16), (20, 7), (1, 1)])
def test_nanmedian_rows_is_numpys(dtype: type, shape: tuple[int, ...]) -> None:
    rng = np.random.default_rng(13)
    for share in (0.0, 0.3, 0.9):
        a = np.round(rng.standard_normal(shape) * 20.0).astype(dtype)  # (ties)
        a[rng.uniform(size=shape) < share] = np.nan
        a[0] = np.nan  # a row of NaNs only
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            want = np.nanmedian(a, axis=-1)
        got = nanmedian_rows(a)
        assert got.dtype == want.dtype and np.array_equal(got, want, equal_nan=True)
