"""DLFloat16 encode/decode, exhaustively over all 65,536 codes."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from emulator.numerics import (
    DF16_MAX,
    DF16_MIN_POSITIVE,
    df16_from_f32,
    df16_from_float,
    df16_to_f32,
)

ALL = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)
SPECIAL = (ALL & 0x7FFF) == 0x7FFF
POSITIVE = np.arange(0x0000, 0x7FFF, dtype=np.uint16)  # +0 .. largest finite


def reference_decode(code: int) -> Fraction | None:
    """Straight from the format definition; None for the special code."""
    sign, field, mant = code >> 15, (code >> 9) & 0x3F, code & 0x1FF
    if field == 63 and mant == 511:
        return None
    if field == 0 and mant == 0:
        return Fraction(0)
    value = Fraction(2) ** (field - 31) * (1 + Fraction(mant, 512))
    return -value if sign else value


def test_decode_matches_the_format_definition():
    decoded = df16_to_f32(ALL)
    assert decoded.dtype == np.float32
    sample = list(range(0, 1 << 16, 97)) + [0x0001, 0x01FF, 0x0200, 0x7E00, 0x7FFE, 0xFFFE, 0x8001]
    for code in sample:
        ref = reference_decode(code)
        if ref is None:
            assert np.isnan(decoded[code])
        else:
            assert Fraction(float(decoded[code])) == ref, hex(code)


def test_round_trip_is_identity_for_every_non_special_code():
    codes = ALL[~SPECIAL]
    assert np.array_equal(df16_from_f32(df16_to_f32(codes)), codes)
    assert np.array_equal(df16_from_float(df16_to_f32(codes).astype(np.float64)), codes)


def test_both_zeros_and_the_special_codes():
    zeros = df16_to_f32(np.array([0x0000, 0x8000], dtype=np.uint16))
    assert zeros[0] == 0 and not np.signbit(zeros[0])
    assert zeros[1] == 0 and np.signbit(zeros[1])
    assert np.all(np.isnan(df16_to_f32(ALL[SPECIAL])))
    assert SPECIAL.sum() == 2
    assert np.count_nonzero(np.isnan(df16_to_f32(ALL))) == 2


def test_positive_codes_decode_strictly_increasing_and_negative_mirror():
    pos = df16_to_f32(POSITIVE).astype(np.float64)
    assert np.all(np.diff(pos) > 0)
    neg = df16_to_f32(POSITIVE | np.uint16(0x8000)).astype(np.float64)
    assert np.array_equal(neg[1:], -pos[1:])
    assert pos[1] == DF16_MIN_POSITIVE and pos[-1] == DF16_MAX


def test_halfway_values_round_away_from_zero():
    pos = df16_to_f32(POSITIVE).astype(np.float64)
    lower = np.arange(1, 0x7FFE, dtype=np.uint16)  # pairs (k, k+1) of positive nonzero codes
    mid = (pos[lower] + pos[lower + 1]) / 2  # exact in float64
    assert np.array_equal(df16_from_float(mid), lower + 1)
    assert np.array_equal(df16_from_float(-mid), (lower + 1) | np.uint16(0x8000))
    assert np.array_equal(df16_from_f32(mid.astype(np.float32)), lower + 1)  # mid fits in f32
    just_below = np.nextafter(mid, 0.0)
    assert np.array_equal(df16_from_float(just_below), lower)
    just_above = np.nextafter(mid, np.inf)
    assert np.array_equal(df16_from_float(just_above), lower + 1)


def test_tiny_values_flush_to_signed_zero():
    tiny = np.array([1e-12, -1e-12, 2.0**-31, -(2.0**-31), 1e-45, 5e-324, 0.0, -0.0])
    assert df16_from_float(tiny).tolist() == [0, 0x8000, 0, 0x8000, 0, 0, 0, 0x8000]
    subnormal_f32 = np.array([1e-40, -1e-40], dtype=np.float32)
    assert df16_from_f32(subnormal_f32).tolist() == [0, 0x8000]
    # Between 2**-31 (the zero code's position) and the smallest positive value: round first.
    step = 2.0**-40
    assert df16_from_float(np.array([2.0**-31 + 0.5 * step, 2.0**-31 + 0.49 * step])).tolist() == [1, 0]


def test_nan_inf_and_overflow_map_to_the_special_code():
    values = np.array([np.nan, -np.nan, np.inf, -np.inf, 1e10, -1e10, 3e38, DF16_MAX, -DF16_MAX])
    assert df16_from_float(values).tolist() == [0x7FFF, 0x7FFF, 0x7FFF, 0xFFFF, 0x7FFF, 0xFFFF,
                                               0x7FFF, 0x7FFE, 0xFFFE]
    top = 2.0**32 * (1 + 510.5 / 512)  # halfway to the special code's position: overflows
    assert df16_from_float(np.array([top, np.nextafter(top, 0)])).tolist() == [0x7FFF, 0x7FFE]


def test_shapes_are_kept():
    x = np.ones((2, 3, 4), dtype=np.float32)
    assert df16_from_f32(x).shape == (2, 3, 4)
    assert df16_to_f32(df16_from_f32(np.float32(1.5))).shape == ()


def reference_encode(x: float) -> int:
    """Scalar encoder written from the definition with exact rational arithmetic."""
    if x != x:
        return 0x7FFF
    sign = 0x8000 if (x < 0 or (x == 0 and np.signbit(x))) else 0
    mag = Fraction(abs(x)) if abs(x) != float("inf") else None
    if mag is None:
        return sign | 0x7FFF
    if mag == 0:
        return sign
    e = mag.numerator.bit_length() - mag.denominator.bit_length()
    if Fraction(2) ** e > mag:
        e -= 1
    scaled = mag / Fraction(2) ** e * 512  # in [512, 1024)
    m = int(scaled)
    if scaled - m >= Fraction(1, 2):
        m += 1
    if m == 1024:
        m, e = 512, e + 1
    field = e + 31
    if field < 0 or (field == 0 and m == 512):
        return sign
    if field > 63 or (field == 63 and m == 1023):
        return sign | 0x7FFF
    return sign | (field << 9) | (m - 512)


@settings(max_examples=300, deadline=None)
@given(st.floats(allow_nan=True, allow_infinity=True, width=64)
       | st.floats(min_value=-1e10, max_value=1e10)
       | st.floats(min_value=-1e-8, max_value=1e-8))
def test_encoder_matches_exact_reference(x):
    assert int(df16_from_float(np.float64(x))) == reference_encode(x)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_every_float16_value_encodes_like_the_reference(dtype):
    halves = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(np.float16)
    got = df16_from_float(halves.astype(dtype))
    sample = np.arange(0, 1 << 16, 61)
    assert [int(c) for c in got[sample]] == [reference_encode(float(v)) for v in halves[sample]]


def test_float32_and_float64_encoders_agree_on_random_bit_patterns():
    rng = np.random.default_rng(11)
    x = rng.integers(0, 2**32, size=200_000, dtype=np.uint64).astype(np.uint32).view(np.float32)
    with np.errstate(invalid="ignore"):  # signalling-NaN patterns warn when widened
        wide = x.astype(np.float64)
    assert np.array_equal(df16_from_f32(x), df16_from_float(wide))
