"""Vectorised erf and erfc in float64 (numpy has neither).

|x| < 2.5: the everywhere-positive series
          erf(x) = 2/sqrt(pi) * exp(-x^2) * sum_{n>=0} (2x^2)^n x / (1*3*...*(2n+1)),
          which has no cancellation; 40 terms reach double precision for |x| < 2.5.
|x| >= 2.5: Laplace's continued fraction for erfc,
          erfc(x) = exp(-x^2)/sqrt(pi) * 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + 2/(x + ...))))),
          evaluated bottom-up with depth 40; it converges fast for x >= 2.5.
Both are evaluated on the whole array with a fixed number of terms (a loop over terms, not
over elements).  Measured against math.erf: max abs error ~1e-15; relative error of erfc ~1e-11
while erfc(x) is a normal float64 (x < 26.5).
"""

from __future__ import annotations

import numpy as np

_SERIES_TERMS = 40
_CF_DEPTH = 40
_SPLIT = 2.5
_TWO_OVER_SQRT_PI = 2.0 / np.sqrt(np.pi)
_ONE_OVER_SQRT_PI = 1.0 / np.sqrt(np.pi)


def _erf_series(x: np.ndarray) -> np.ndarray:
    two_x2 = 2.0 * x * x
    term = x.copy()
    total = x.copy()
    for n in range(1, _SERIES_TERMS):
        term = term * two_x2 / (2 * n + 1)
        total = total + term
    return _TWO_OVER_SQRT_PI * np.exp(-x * x) * total


def _erfc_continued_fraction(ax: np.ndarray) -> np.ndarray:
    """erfc(ax) for ax >= _SPLIT."""
    tail = ax.copy()
    for k in range(_CF_DEPTH, 0, -1):
        tail = ax + (k / 2.0) / tail
    return np.exp(-ax * ax) * _ONE_OVER_SQRT_PI / tail


def _by_region(x, near_fn, far_fn) -> np.ndarray:
    """Evaluate `near_fn(x)` where |x| < _SPLIT and `far_fn(x, |x|)` elsewhere (NaN stays
    NaN), in float64."""
    arr = np.asarray(x, dtype=np.float64)
    ax = np.abs(arr)
    near = ax < _SPLIT
    far = ~near & ~np.isnan(arr)
    out = np.full(arr.shape, np.nan)
    with np.errstate(all="ignore"):
        out[near] = near_fn(arr[near])
        out[far] = far_fn(arr[far], ax[far])
    return out


def erf(x) -> np.ndarray:
    """erf of a float array, computed in float64 (result float64)."""
    return _by_region(
        x, _erf_series, lambda v, av: np.copysign(1.0 - _erfc_continued_fraction(av), v)
    )


def erfc(x) -> np.ndarray:
    """erfc = 1 - erf, with full relative accuracy in the positive tail (float64)."""

    def far(v, av):
        tail = _erfc_continued_fraction(av)
        return np.where(v > 0, tail, 2.0 - tail)

    return _by_region(x, lambda v: 1.0 - _erf_series(v), far)
