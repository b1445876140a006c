"""Reductions written out: the same numbers numpy's own give, to the last bit, quicker.

A top view's per-pixel sums over its three channels (a difference's size, its brightness) are
reductions over an axis of three, which numpy walks one short row at a time, several times
slower than three whole-image additions; it adds such a row's values in order, ``(c0 + c1) +
c2``, as these do. Medians over a disc's few dozen samples, or a ring's neighbours, are order
statistics: picked from a partition or sort along a contiguous axis they are the same values
numpy's slower paths pick (tests/vision/test_arrays.py holds each to numpy's own).
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


def nanmedian_rows(a: np.ndarray) -> np.ndarray:
    """``np.nanmedian(a, axis=-1)`` of a float array, to the last bit and without its
    warning for a row of NaNs only (NaN there too): each row sorted (NaNs last) and its
    middle value, or the mean of its two middle values in the array's precision, taken.
    numpy's own works through a large array's rows one at a time."""
    a = np.asarray(a)
    if a.dtype.kind != "f" or a.shape[-1] == 0:
        return np.nanmedian(a, axis=-1)
    v = np.sort(a, axis=-1)  # (NaNs sort last)
    count = a.shape[-1] - np.isnan(v).sum(axis=-1)
    lo = np.take_along_axis(v, np.maximum((count - 1) // 2, 0)[..., None], -1)[..., 0]
    hi = np.take_along_axis(v, np.maximum(count // 2, 0)[..., None], -1)[..., 0]
    return np.where(count > 0, (lo + hi) / a.dtype.type(2), a.dtype.type(np.nan))
