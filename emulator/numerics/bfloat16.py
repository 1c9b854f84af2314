"""bfloat16: the top 16 bits of a float32, rounded to nearest even.  Codes are uint16.

Values arrive as float64 or float32; float64 is first rounded to float32 *to odd* (the
float32 next to the value whose last bit is 1 when inexact), then to bf16 to nearest even:
with 24 >= 8 + 2 bits, that is the correct rounding of the float64 value (rounding to
nearest twice would not be). NaN becomes the quiet NaN code 0x7FC0 with the sign kept;
infinities stay.
"""

from __future__ import annotations

import numpy as np


def _float32_to_odd(x: np.ndarray) -> np.ndarray:
    """float64 -> float32 rounded to odd (finite results; overflow stays infinite)."""
    with np.errstate(over="ignore", invalid="ignore"):
        nearest = x.astype(np.float32)
        inexact = np.isfinite(nearest) & (nearest.astype(np.float64) != x)
        even = (nearest.view(np.uint32) & np.uint32(1)) == 0
        toward = np.where(x > nearest, np.float32(np.inf), np.float32(-np.inf))
        return np.where(inexact & even, np.nextafter(nearest, toward), nearest)


def bf16_from_float(x) -> np.ndarray:
    """Encode floats to bfloat16 codes (round to nearest, ties to even)."""
    arr = np.asarray(x)
    arr = _float32_to_odd(arr) if arr.dtype == np.float64 else arr.astype(np.float32)
    bits = arr.view(np.uint32)
    lsb = (bits >> np.uint32(16)) & np.uint32(1)
    rounded = (bits.astype(np.uint64) + np.uint64(0x7FFF) + lsb.astype(np.uint64)) >> np.uint64(16)
    code = rounded.astype(np.uint16)
    nan_code = ((bits >> np.uint32(16)) & np.uint32(0x8000)).astype(np.uint16) | np.uint16(0x7FC0)
    return np.where(np.isnan(arr), nan_code, code).astype(np.uint16)


def bf16_to_f32(codes) -> np.ndarray:
    """Decode bfloat16 codes to float32 (exact)."""
    c = np.asarray(codes).astype(np.uint32)
    return np.asarray(c << np.uint32(16)).view(np.float32)
