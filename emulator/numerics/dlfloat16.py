"""DLFloat16 (`!spyreop.df16`): IBM's 16-bit deep-learning float, 1-6-9.

Bit layout of a code (uint16):  ``s eeeeee mmmmmmmmm``  (sign bit 15, exponent bits 14-9,
mantissa bits 8-0), exponent bias 31, implicit leading one, **no subnormals**.

What every code means (our definition; both executors share it):

* ``0x0000`` / ``0x8000``: +0 / -0.
* ``0x7FFF`` / ``0xFFFF`` (exponent and mantissa all ones): the ONE special code, standing for
  NaN, +-infinity and overflow alike.  Decoding it gives NaN (either sign).
* every other code, including exponent field 0 with a non-zero mantissa and exponent
  field 63 with mantissa below 511, is a normal number
  ``(-1)**s * 2**(e - 31) * (1 + m / 512)``.

Hence:  smallest positive  = 2**-31 * (1 + 2**-9)  ~ 4.665e-10  (code 0x0001),
        largest finite     = 2**32  * (1 + 510/512) ~ 8.573e9   (code 0x7FFE).

Encoding a real value x (float16, float32 or float64 input; one rounding, from x's exact value):

1. NaN -> 0x7FFF; +inf -> 0x7FFF; -inf -> 0xFFFF.
2. Round |x| to 10 significant bits (1 + 9 mantissa bits), **half away from zero**, with the
   exponent unbounded.
3. Rounded magnitude below the smallest positive value (that is: below 2**-31 * (1 + 2**-9),
   which includes 2**-31 itself, the position of the zero code) -> signed zero (flush).
4. Rounded magnitude above the largest finite value (i.e. landing on the special code's
   position or beyond; |x| >= 2**32 * (1 + 510.5/512)) -> the special code with x's sign.
"""

from __future__ import annotations

import numpy as np

DF16_BIAS = 31
DF16_MANTISSA_BITS = 9
DF16_POS_SPECIAL = np.uint16(0x7FFF)
DF16_NEG_SPECIAL = np.uint16(0xFFFF)
DF16_MAX = float(2.0**32 * (1 + 510 / 512))
DF16_MIN_POSITIVE = float(2.0**-31 * (1 + 1 / 512))

# (float dtype, same-size unsigned dtype, mantissa bits, exponent bias, exponent all-ones)
_SOURCE_FORMATS = {
    np.dtype(np.float32): (np.uint32, 23, 127, 0xFF),
    np.dtype(np.float64): (np.uint64, 52, 1023, 0x7FF),
}


def df16_from_float(x) -> np.ndarray:
    """Encode a float array (any float dtype; ints are converted) to DLFloat16 uint16 codes.

    float16/float32 inputs are encoded from float32 bits, everything else from float64 bits;
    both conversions are exact, so the result is the same (the float32 path is faster).
    """
    arr = np.asarray(x)
    if arr.dtype not in _SOURCE_FORMATS:
        target = np.float32 if arr.dtype == np.float16 else np.float64
        with np.errstate(invalid="ignore"):  # signalling-NaN payloads warn; they stay NaN
            arr = arr.astype(target)  # exact for float16/float32 and ints up to 2**53
    utype, mant_bits, bias, exp_ones = _SOURCE_FORMATS[arr.dtype]
    width = 8 * arr.dtype.itemsize
    bits = arr.view(utype)
    sign = (bits >> utype(width - 1)).astype(np.uint16)
    biased = ((bits >> utype(mant_bits)) & utype(exp_ones)).astype(np.int32)
    mant = bits & utype((1 << mant_bits) - 1)
    dropped = mant_bits - DF16_MANTISSA_BITS
    # Round half away from zero on the magnitude: add half an ulp of the 9-bit mantissa, truncate.
    rounded = (mant + utype(1 << (dropped - 1))) >> utype(dropped)
    carry = (rounded >> utype(DF16_MANTISSA_BITS)).astype(np.int32)  # 1 when rounding reached 2.0
    m9 = (rounded & utype(0x1FF)).astype(np.int32)
    field = biased - bias + DF16_BIAS + carry
    # Source subnormals/zero (biased == 0) are far below df16's range: flush.
    tiny = (field < 0) | (biased == 0)
    overflow = (field > 63) | ((field == 63) & (m9 == 511))
    nonfinite = biased == exp_ones
    signed_zero = sign << np.uint16(15)
    code = signed_zero | (np.clip(field, 0, 63).astype(np.uint16) << np.uint16(9)) | m9.astype(np.uint16)
    code = np.where(tiny, signed_zero, code)
    code = np.where(overflow | nonfinite, signed_zero | DF16_POS_SPECIAL, code)
    code = np.where(np.isnan(arr), DF16_POS_SPECIAL, code)
    return code.astype(np.uint16)


def df16_from_f32(x) -> np.ndarray:
    """Encode a float32 array to DLFloat16 codes (alias of `df16_from_float`)."""
    return df16_from_float(np.asarray(x, dtype=np.float32))


def df16_to_f32(codes) -> np.ndarray:
    """Decode DLFloat16 codes to float32 (exact: every df16 value is a float32 value)."""
    c = np.asarray(codes)
    if c.dtype != np.uint16:
        c = c.astype(np.uint16)
    c32 = c.astype(np.uint32)
    sign = (c32 >> np.uint32(15)) << np.uint32(31)
    field = (c32 >> np.uint32(9)) & np.uint32(0x3F)
    m9 = c32 & np.uint32(0x1FF)
    # Re-bias the exponent for float32 (bias 127) and left-align the 9 mantissa bits in 23.
    f32_bits = sign | ((field + np.uint32(127 - DF16_BIAS)) << np.uint32(23)) | (m9 << np.uint32(14))
    is_zero = (c32 & np.uint32(0x7FFF)) == 0
    f32_bits = np.where(is_zero, sign, f32_bits)
    out = f32_bits.astype(np.uint32).view(np.float32)
    is_special = (c32 & np.uint32(0x7FFF)) == np.uint32(0x7FFF)
    return np.where(is_special, np.float32(np.nan), out).astype(np.float32)


def df16_round(x) -> np.ndarray:
    """Round a float array to the nearest DLFloat16 value (as float32); specials become NaN."""
    return df16_to_f32(df16_from_float(x))
