"""Reductions over a colour axis, written out: the same sums numpy's reductions make, quicker.

A top view's per-pixel sums over its three channels (a difference's size, its brightness) are
reductions over an axis of three, which numpy walks one short row at a time, several times
slower than three whole-image additions. It adds such a row's values in order, ``(c0 + c1) +
c2``, as these do, so the results are the same to the last bit (tests/vision/test_arrays.py).
"""

from __future__ import annotations

import numpy as np


def channel_sum(a: np.ndarray) -> np.ndarray:
    """``a.sum(axis=-1)`` for an array of three channels (last axis), in its dtype."""
    if a.shape[-1] != 3:
        return a.sum(axis=-1)
    return (a[..., 0] + a[..., 1]) + a[..., 2]


def channel_mean(a: np.ndarray) -> np.ndarray:
    """``a.mean(axis=-1)`` for an array of three channels: their sum over three."""
    return channel_sum(a) / a.dtype.type(a.shape[-1])


def channel_sq(a: np.ndarray) -> np.ndarray:
    """``(a * a).sum(axis=-1)`` for an array of three channels: the squared norm."""
    if a.shape[-1] != 3:
        return (a * a).sum(axis=-1)
    x, y, z = a[..., 0], a[..., 1], a[..., 2]
    return (x * x + y * y) + z * z


def median(a: np.ndarray, axis: int) -> np.ndarray:
    """``np.median(a, axis=axis)``, to the last bit: the middle value, or the two middle
    values' mean, partitioned along a contiguous copy of that axis. numpy's own walks a short
    axis (a disc's few dozen samples) across the array's memory, several times slower."""
    a = np.asarray(a)
    m = a.shape[axis]
    if m == 0 or a.dtype.kind != "f" or np.isnan(a).any():
        return np.median(a, axis=axis)  # (numpy's own answers for NaNs and no values)
    last = np.ascontiguousarray(np.moveaxis(a, axis, -1))
    half = m // 2
    if m % 2:
        return np.partition(last, half, axis=-1)[..., half]
    part = np.partition(last, (half - 1, half), axis=-1)
    return (part[..., half - 1] + part[..., half]) / a.dtype.type(2)
