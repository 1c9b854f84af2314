"""bfloat16: the top 16 bits of a float32, rounded to nearest even.  Codes are uint16.

Values arrive as float64 or float32; float64 is first rounded to float32 (numpy, nearest even),
then to bf16.  NaN becomes the quiet NaN code 0x7FC0 with the sign kept; infinities stay.
"""

from __future__ import annotations

import numpy as np


def bf16_from_float(x) -> np.ndarray:
    """Encode floats to bfloat16 codes (round to nearest, ties to even)."""
    arr = np.asarray(x, dtype=np.float32)
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
