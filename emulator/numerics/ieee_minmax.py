"""IEEE-754-2019 maximum/minimum (NaN-propagating) and maximumNumber/minimumNumber.

numpy's maximum/minimum propagate NaN but pick an arbitrary zero for (-0, +0); these order
-0 below +0 so results are deterministic, as `arith.maximumf` requires.  `maxnum`/`minnum`
return the non-NaN operand when exactly one is NaN (`arith.maxnumf`), with the same zero order.
"""

from __future__ import annotations

import numpy as np


def _zero_fix(a, b, result, want_positive: bool):
    both_zero = (a == 0) & (b == 0)
    if want_positive:
        chosen = np.where(np.signbit(a), b, a)
    else:
        chosen = np.where(np.signbit(a), a, b)
    return np.where(both_zero, chosen, result)


def maximum(a, b):
    return _zero_fix(a, b, np.maximum(a, b), want_positive=True)


def minimum(a, b):
    return _zero_fix(a, b, np.minimum(a, b), want_positive=False)


def maxnum(a, b):
    return _zero_fix(a, b, np.fmax(a, b), want_positive=True)


def minnum(a, b):
    return _zero_fix(a, b, np.fmin(a, b), want_positive=False)
