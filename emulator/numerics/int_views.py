"""Signed and unsigned readings of signless integer values.

MLIR integers are signless: the op decides whether bits mean a signed or an unsigned number.
Values are held in signed numpy dtypes of the type's width (i1: bool); these helpers give the
signed or unsigned reading as a numpy array that ops can compute on, and back.
"""

from __future__ import annotations

import numpy as np

from .element_types import ElementType


def signed(et: ElementType, values: np.ndarray) -> np.ndarray:
    """Signed reading.  i1 true is -1 (two's complement of one bit), as int8."""
    if et.width == 1:
        return np.where(values, np.int8(-1), np.int8(0))
    return values


def unsigned(et: ElementType, values: np.ndarray) -> np.ndarray:
    """Unsigned reading, as uint8/16/32/64 (i1: uint8 0 or 1)."""
    if et.width == 1:
        return values.astype(np.uint8)
    return values.astype(np.dtype(f"uint{et.width}"))


def signed_range(et: ElementType) -> tuple[int, int]:
    """(min, max) of the signed reading."""
    return -(1 << (et.width - 1)), (1 << (et.width - 1)) - 1


def unsigned_max(et: ElementType) -> int:
    return (1 << et.width) - 1
