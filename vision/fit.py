"""A small Levenberg-Marquardt solver for the board fit (numpy only: vision uses no SciPy).

The camera has fourteen numbers and the board gives a thousand or so ring points, so a dense
solver with a forward-difference Jacobian is plenty. Directions the data cannot see (the board's
turn about its own centre: circles look the same turned) are held by a little absolute damping
rather than by special cases in the model.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class FitResult:
    x: np.ndarray
    cost: float         # half the sum of squared residuals at x
    iterations: int
    jacobian: np.ndarray


def jacobian(fun: Callable[[np.ndarray], np.ndarray], x: np.ndarray, r0: np.ndarray,
             steps: np.ndarray) -> np.ndarray:
    jac = np.empty((r0.size, x.size))
    for i, h in enumerate(steps):
        xi = x.copy()
        xi[i] += h
        jac[:, i] = (fun(xi) - r0) / h
    return jac


def least_squares(fun: Callable[[np.ndarray], Any], x0: np.ndarray, steps: np.ndarray,
                  *, max_iter: int = 30, tol: float = 1e-9,
                  with_jacobian: bool = False) -> FitResult:
    """Minimises ``sum(fun(x)**2)`` from ``x0``; ``steps`` are the finite-difference steps, one
    per parameter, also the scale on which the damping is measured. With ``with_jacobian``,
    ``fun`` returns the residuals and their Jacobian."""
    x = np.asarray(x0, np.float64).copy()
    steps = np.asarray(steps, np.float64)
    if with_jacobian:
        def res_of(v: np.ndarray) -> np.ndarray:
            return fun(v, False)

        r, jac = fun(x)
    else:
        res_of = fun
        r = fun(x)
        jac = jacobian(fun, x, r, steps)
    cost = 0.5 * float(r @ r)
    lam = 1e-3
    it = 0
    for it in range(1, max_iter + 1):  # noqa: B007 (it is returned)
        js = jac * steps  # in units of each parameter's step
        a = js.T @ js
        g = js.T @ r
        diag = np.diag(a).copy()
        floor = 1e-9 * max(float(diag.max(initial=0.0)), 1e-12)
        improved = done = False
        for _ in range(12):
            damp = lam * (diag + floor) + floor
            try:
                dz = -np.linalg.solve(a + np.diag(damp), g)
            except np.linalg.LinAlgError:
                lam *= 10
                continue
            xn = x + dz * steps
            rn = res_of(xn)
            cn = 0.5 * float(rn @ rn)
            if np.isfinite(cn) and cn < cost:
                done = cost - cn < tol * max(cost, 1e-12)
                x, r, cost = xn, rn, cn
                lam = max(lam / 5, 1e-9)
                improved = True
                break
            lam *= 8
        if not improved or done:
            break
        if with_jacobian:
            r, jac = fun(x)
        else:
            jac = jacobian(fun, x, r, steps)
    return FitResult(x, cost, it, jac)
