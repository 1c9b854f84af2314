"""Element types: dtypes, sizes, rounding, memory conversion, constants."""

import numpy as np
import pytest

from emulator.numerics import (
    compute_dtype,
    constant,
    element_size,
    element_type,
    from_bits,
    from_memory,
    round_to,
    storage_dtype,
    to_bits,
    to_memory,
    value_dtype,
)
from spyre_sched.errors import ExecutionError, SpyreSchedError, UnsupportedError


@pytest.mark.parametrize(
    "name,storage,size,value,compute",
    [
        ("f16", np.float16, 2, np.float16, np.float32),
        ("bf16", np.uint16, 2, np.float32, np.float32),
        ("df16", np.uint16, 2, np.float32, np.float32),
        ("f32", np.float32, 4, np.float32, np.float64),
        ("f64", np.float64, 8, np.float64, np.float64),
        ("i1", np.bool_, 1, np.bool_, np.bool_),
        ("i8", np.int8, 1, np.int8, np.int8),
        ("i16", np.int16, 2, np.int16, np.int16),
        ("i32", np.int32, 4, np.int32, np.int32),
        ("i64", np.int64, 8, np.int64, np.int64),
        ("index", np.int64, 8, np.int64, np.int64),
    ],
)
def test_dtypes_and_sizes(name, storage, size, value, compute):
    assert storage_dtype(name) == np.dtype(storage)
    assert element_size(name) == size
    assert value_dtype(name) == np.dtype(value)
    assert compute_dtype(name) == np.dtype(compute)


def test_type_aliases_and_unknown_type():
    assert element_type("!spyreop.df16").name == "df16"
    with pytest.raises(UnsupportedError, match="f8"):
        element_type("f8")
    assert issubclass(UnsupportedError, SpyreSchedError)


def test_round_to_f16_is_nearest_even():
    one = 1.0
    ulp = 2.0**-10
    x = np.array([one + ulp / 2, one + 3 * ulp / 2, one + ulp / 2 + 2.0**-30, 65520.0, 65519.0])
    got = round_to("f16", x)
    assert got.dtype == np.float16
    assert got.tolist() == [1.0, 1.0 + 2 * ulp, 1.0 + ulp, np.inf, 65504.0]


def test_round_to_df16_is_half_away_and_f32_is_nearest_even():
    assert round_to("df16", np.array([1 + 2.0**-10, -(1 + 2.0**-10)])).tolist() == [
        1 + 2.0**-9, -(1 + 2.0**-9)]
    assert np.isnan(round_to("df16", np.array(np.inf)))
    assert round_to("f32", np.array([1 + 2.0**-24])).tolist() == [1.0]
    assert round_to("f32", np.array([1 + 3 * 2.0**-24])).tolist() == [1 + 2.0**-22]


def test_round_to_bf16_nearest_even():
    x = np.array([1 + 2.0**-8, 1 + 3 * 2.0**-8, np.nan, -np.inf], dtype=np.float32)
    got = round_to("bf16", x)
    assert got[:2].tolist() == [1.0, 1 + 2.0**-6]
    assert np.isnan(got[2]) and got[3] == -np.inf


def test_integers_wrap_and_floats_are_refused():
    assert round_to("i8", np.array([127, 128, 255, 256, -129])).tolist() == [127, -128, -1, 0, 127]
    assert round_to("i1", np.array([0, 1, 2, 3])).tolist() == [False, True, False, True]
    with pytest.raises(ExecutionError):
        round_to("i32", np.array([1.5]))


@pytest.mark.parametrize("name", ["f16", "bf16", "df16", "f32", "f64", "i1", "i8", "i32", "index"])
def test_memory_round_trip(name):
    rng = np.random.default_rng(1)
    if element_type(name).is_float:
        values = round_to(name, rng.normal(size=100) * 100)
    else:
        values = round_to(name, rng.integers(-1000, 1000, size=100))
    stored = to_memory(name, values)
    assert stored.dtype == storage_dtype(name)
    assert np.array_equal(from_memory(name, stored), values)
    assert np.array_equal(from_bits(name, to_bits(name, values)), values)


def test_df16_memory_holds_codes_and_reinterprets_same_size_arrays():
    assert to_memory("df16", np.array([1.0], dtype=np.float32)).tolist() == [31 << 9]
    assert from_memory("df16", np.array([31 << 9], dtype=np.int16)).tolist() == [1.0]
    assert from_memory("f16", np.array([0x3C00], dtype=np.uint16)).tolist() == [1.0]
    with pytest.raises(ExecutionError, match="bytes"):
        from_memory("f16", np.array([1.0], dtype=np.float32))


def test_constants():
    assert constant("i8", 255).tolist() == -1
    assert constant("i64", 2**64 - 1).tolist() == -1
    assert constant("i1", True).dtype == np.bool_
    assert constant("index", 7, shape=(2, 2)).tolist() == [[7, 7], [7, 7]]
    assert constant("f16", 0.1).dtype == np.float16
    assert constant("f16", 0.1) == np.float16(0.1)
    assert constant("df16", [1.0, 1 + 2.0**-10]).tolist() == [1.0, 1 + 2.0**-9]
    with pytest.raises(ExecutionError):
        constant("i32", 1.5)
