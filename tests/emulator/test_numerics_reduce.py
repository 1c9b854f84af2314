"""Reductions: float64 accumulation with one final rounding, integer wrap, kinds, init."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from emulator.numerics import REDUCTION_KIND_OF_OP, apply_op, reduce, round_to
from spyre_sched.errors import ExecutionError


def test_f16_sum_rounds_once_at_the_end():
    x = np.array([1.0] + [2.0**-11] * 8, dtype=np.float16)
    got = reduce("add", x, 0, "f16")
    assert got.dtype == np.float16 and got == 1 + 2.0**-8  # exact sum, then one rounding
    stepwise = np.float16(1.0)
    for v in x[1:]:
        stepwise = apply_op("arith.addf", "f16", stepwise, v)
    assert stepwise == 1.0  # what per-step f16 rounding would give instead


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["f16", "df16", "bf16"]))
def test_16bit_float_sums_are_order_independent(seed, type_name):
    rng = np.random.default_rng(seed)
    x = (rng.standard_cauchy(size=(4, 1000)) * 10).astype(np.float32)
    x = round_to(type_name, x)
    whole = reduce("add", x, (0, 1), type_name)
    perm = rng.permutation(x.size)
    shuffled = reduce("add", x.reshape(-1)[perm], 0, type_name)
    partials = [reduce("add", chunk, 0, type_name, round_result=False)
                for chunk in np.array_split(x.reshape(-1)[perm], 7)]
    assert all(p.dtype == np.float64 for p in partials)
    combined = reduce("add", np.stack(partials), 0, type_name)  # float64 partials kept exact
    with np.errstate(invalid="ignore"):  # inf + -inf is NaN here too
        exact = round_to(type_name, np.sum(x.astype(np.float64)))  # sum of <8192 16-bit values is exact
    assert np.array_equal(whole, shuffled, equal_nan=True)
    assert np.array_equal(whole, exact, equal_nan=True)
    assert np.array_equal(combined, exact, equal_nan=True)


@pytest.mark.parametrize("kind", ["add", "mul", "max", "min", "maxnum", "minnum"])
def test_float_kinds_against_numpy(kind):
    rng = np.random.default_rng(2)
    x = rng.uniform(0.5, 1.5, size=(3, 5, 7)).astype(np.float32)
    fn = {"add": np.sum, "mul": np.prod, "max": np.max, "min": np.min,
          "maxnum": np.max, "minnum": np.min}[kind]
    got = reduce(kind, x, (0, 2), "f32")
    assert got.shape == (5,) and got.dtype == np.float32
    assert np.array_equal(got, fn(x.astype(np.float64), axis=(0, 2)).astype(np.float32))


def test_nan_and_signed_zero_rules():
    x = np.array([[1.0, np.nan, -3.0], [-0.0, 0.0, -0.0]], dtype=np.float32)
    assert np.isnan(reduce("max", x[0], 0, "f32")) and np.isnan(reduce("min", x[0], 0, "f32"))
    assert reduce("maxnum", x[0], 0, "f32") == 1 and reduce("minnum", x[0], 0, "f32") == -3
    assert not np.signbit(reduce("max", x[1], 0, "f32"))
    assert np.signbit(reduce("min", x[1], 0, "f32"))
    assert np.signbit(reduce("max", np.float32([-0.0, -0.0]), 0, "f32"))
    assert np.signbit(reduce("add", np.float32([-0.0, -0.0]), 0, "f32"))


def test_empty_reductions_give_identities_and_init_is_combined():
    empty = np.zeros((0, 3), dtype=np.float16)
    assert reduce("add", empty, 0, "f16").tolist() == [0, 0, 0]
    assert reduce("mul", empty, 0, "f16").tolist() == [1, 1, 1]
    assert reduce("max", empty, 0, "f16").tolist() == [-np.inf] * 3
    x = np.ones((2, 3), dtype=np.float16)
    assert reduce("add", x, 0, "f16", init=np.float16([10, 20, 30])).tolist() == [12, 22, 32]
    assert reduce("max", x, 1, "f16", init=np.float16(5)).tolist() == [5, 5]
    assert reduce("add", x, None, "f16").tolist() == 6


def test_integer_reductions_wrap_and_read_signed_or_unsigned():
    x = np.full(100, 100, dtype=np.int8)
    assert reduce("add", x, 0, "i8") == (100 * 100 + 128) % 256 - 128
    y = np.int8([-1, 5, 3])
    assert reduce("max", y, 0, "i8") == 5 and reduce("maxu", y, 0, "i8") == -1
    assert reduce("min", y, 0, "i8") == -1 and reduce("minu", y, 0, "i8") == 3
    assert reduce("mul", np.int32([65536, 65536, 3]), 0, "i32") == 0
    z = np.arange(12, dtype=np.int16).reshape(3, 4)
    assert reduce("xor", z, (0, 1), "i16") == np.bitwise_xor.reduce(z.ravel())
    assert reduce("and", z | 1, 1, "i16").tolist() == [1, 5, 9]
    assert reduce("or", z, 0, "i16").tolist() == [12, 13, 14, 15]
    assert reduce("add", np.array([True, True, True]), 0, "i1") == True  # noqa: E712
    assert reduce("add", np.int32([2**31 - 1]), 0, "i32", init=np.int32(1)) == -2**31
    assert reduce("max", np.zeros((0,), np.int8), 0, "i8") == -128


def test_kind_from_combiner_op_names():
    x = np.float16([1, 2, 3])
    assert reduce("arith.addf", x, 0, "f16") == 6
    assert reduce("arith.maximumf", x, 0, "f16") == 3
    assert reduce("arith.maxui", np.int8([-1, 1]), 0, "i8") == -1
    assert set(REDUCTION_KIND_OF_OP) >= {"arith.addf", "arith.mulf", "arith.addi"}


def test_reduction_errors():
    with pytest.raises(ExecutionError, match="reduction kind"):
        reduce("xor", np.float32([1]), 0, "f32")
    with pytest.raises(ExecutionError, match="out of range"):
        reduce("add", np.float32([1]), 1, "f32")
    with pytest.raises(ExecutionError, match="repeat"):
        reduce("add", np.zeros((2, 2), np.float32), (0, -2), "f32")


# ---- the exact-sum rule: order-independent for every float type --------------------------


def test_df16_sum_is_the_exact_sum_in_every_order():
    import itertools

    x = round_to("df16", np.array([2.0**32, 2.0**-30, -(2.0**32)]))
    results = {float(reduce("add", x[list(p)], 0, "df16")) for p in itertools.permutations(range(3))}
    assert results == {float(round_to("df16", np.float64(2.0**-30)))}


def test_sum_rounds_once_not_through_float64():
    # Exact 1 + 2**-24 + 2**-80: float64 gives the f32 tie 1 + 2**-24 (then even: 1.0);
    # rounded once, it is above the tie: 1 + 2**-23.
    x = np.float32([1.0, 2.0**-24, 2.0**-80])
    assert reduce("add", x, 0, "f32") == np.float32(1 + 2.0**-23)
    # bf16 likewise: 1 + 2**-8 + 2**-60 is above bf16's tie at 1 + 2**-8.
    y = round_to("bf16", np.array([1.0, 2.0**-8, 2.0**-60]))
    assert reduce("add", y, 0, "bf16") == np.float32(1 + 2.0**-7)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["bf16", "df16", "f32", "f16", "f64"]),
       st.integers(1, 40))
def test_cancelling_large_terms_never_change_the_sum(seed, type_name, big_exponent):
    # Small terms whose float64 sum is exact, plus large terms that cancel exactly: the
    # float64 running sum loses the small terms in some orders, the exact sum never does.
    rng = np.random.default_rng(seed)
    big_exponent = min(big_exponent, {"f16": 14, "df16": 31}.get(type_name, 40))  # finite
    small = round_to(type_name, rng.uniform(-1, 1, size=5) * 2.0**-20)
    big = round_to(type_name, np.float64(2.0**big_exponent) * rng.choice([1.0, 1.5], size=3))
    terms = np.concatenate([small, big, -big])
    # 5 close terms: exact in float64 for the 16/32-bit types; f64 needs fsum's rounding.
    want = round_to(type_name, np.float64(math.fsum(small.astype(np.float64))))
    for _ in range(4):
        got = reduce("add", terms[rng.permutation(terms.size)], 0, type_name)
        assert got.tobytes() == want.tobytes()
    # As rows of a 2-D reduction, and with init as one more term.
    rows = np.stack([terms, terms[::-1]])
    assert np.array_equal(reduce("add", rows, 1, type_name), np.stack([want, want]))
    init = np.asarray(big[:1].astype(np.float64))
    with_init = reduce("add", np.concatenate([terms, -big[:1]]), 0, type_name, init=init[0])
    assert with_init.tobytes() == want.tobytes()


def test_float64_fast_path_bound():
    from emulator.numerics import float64_sum_is_exact

    # 8192 f16 values of the largest magnitude and the smallest step: still exact.
    f16 = np.float64([65504.0] * 8191 + [2.0**-24])
    assert float64_sum_is_exact(f16[None, :])[0]
    assert not float64_sum_is_exact(np.float64([[2.0**32, 2.0**-30, -(2.0**32)]]))[0]
    assert float64_sum_is_exact(np.float64([[1.0, 2.0, 3.0], [0.0, -0.0, np.inf]])).all()


def test_zeros_and_non_finite_terms_bound_nothing():
    # Zeros and non-finite terms carry the (-inf, +inf) markers, not an |x| < 1 bound: a
    # row of small terms stays exact in float64 with a zero among them (the top marker
    # once came out 0, frexp's int32 exponents, and sent such rows to the slow exact sum).
    from emulator.numerics import float64_sum_is_exact
    from emulator.numerics.reductions import NO_LOW, NO_TOP, term_exponents

    top, low = term_exponents(np.float64([0.0, -0.0, np.inf, np.nan, 1.5, 2.0**-60]))
    assert (top[:4] == NO_TOP).all() and (low[:4] == NO_LOW).all()
    assert top[4:].tolist() == [1, -59] and low[4:].tolist() == [-1, -60]
    # 2**-10 + 2**-60 spans 51 bits: exact in float64, with or without a zero beside it
    small = np.float64([[2.0**-10, 2.0**-60], [2.0**-10, 2.0**-60]])
    with_zero = np.float64([[2.0**-10, 2.0**-60, 0.0], [0.0, 2.0**-10, 2.0**-60]])
    assert float64_sum_is_exact(small).all() and float64_sum_is_exact(with_zero).all()


def test_products_are_exact_and_order_independent():
    x = np.float32([3.0, 1 / 3, 3.0, 1 / 3, 7.0, 1 / 7, 1e30, 1e-30, 1e20, 1e-20])
    rng = np.random.default_rng(3)
    got = {reduce("mul", x[rng.permutation(x.size)], 0, "f32").tobytes() for _ in range(6)}
    assert len(got) == 1


def test_hardware_order_sums_are_within_the_error_bound():
    from emulator.numerics import hardware_sum_error_bound, matches_hardware_order_sum
    from emulator.numerics.error_bounds import rounding_growth

    rng = np.random.default_rng(11)
    x = round_to("f16", rng.normal(size=(16, 3000)) * 30)
    oracle = reduce("add", x, 1, "f16").astype(np.float64)
    for _ in range(3):
        order = rng.permutation(x.shape[1])
        acc = np.zeros(16, dtype=np.float32)
        for column in order:                     # sequential f32 accumulation, any order
            acc = (acc + x[:, column].astype(np.float32)).astype(np.float32)
        hardware = round_to("f16", acc).astype(np.float64)
        assert matches_hardware_order_sum(x, "f32", "f16", oracle, hardware, axis=1).all()
    # The bound is the formula of docs/numerics.md ...
    total = np.abs(x.astype(np.float64)).sum(axis=1)
    bound = hardware_sum_error_bound(x, "f32", "f16", oracle, hardware, axis=1)
    growth = rounding_growth(2999, 2.0**-24)  # (1 + u)^2999 - 1, below gamma_2999
    e = growth * total + 2999 * 2.0**-149 * (1 + growth)
    assert np.allclose(bound, e + 2.0**-11 * (np.abs(oracle) + np.abs(hardware)) + 2 * 2.0**-24)
    # ... and a sum beyond it fails; so does a NaN against a number.
    wrong = oracle + 2 * bound
    assert not matches_hardware_order_sum(x, "f32", "f16", oracle, wrong, axis=1).any()
    assert not matches_hardware_order_sum(x[:1], "f32", "f16", oracle[:1], [np.nan], axis=1)[0]


def _split_sum_rows(rng, n):
    """f32 and f64 rows that exercise the vectorised exact sum: ordinary values, squares,
    moderate and huge exponent spans, cancellation (partial and total), subnormals, ties
    of the final rounding, and non-finite terms."""
    def f32(a):
        return np.asarray(a, dtype=np.float32).astype(np.float64)
    normal = f32(rng.standard_normal((64, n)))
    scaled = f32(rng.standard_normal((64, n)) * 2.0 ** rng.integers(-20, 20, (64, n)))
    huge_span = f32(rng.standard_normal((64, n)) * 2.0 ** rng.integers(-120, 120, (64, n)))
    cancel = normal.copy()
    cancel[:, 1] = 2.0**40
    cancel[:, 2] = -2.0**40
    total_cancel = np.concatenate([normal[:, : n // 2], -normal[:, : n // 2]], axis=-1)
    subnormal = f32(rng.standard_normal((64, n)) * 2.0**-140)
    ties = np.zeros((64, n))
    ties[:, 0] = 1.0
    ties[:, 1] = rng.choice([1.0, -1.0], 64) * 2.0**-53
    ties[:, 2] = rng.choice([0.0, 2.0**-200], 64)
    nonfinite = normal.copy()
    nonfinite[::3, 0] = np.inf
    nonfinite[1::3, 0] = np.nan
    nonfinite[2::3, 1] = -np.inf
    return [normal, f32(scaled * scaled), scaled, huge_span, cancel, total_cancel, subnormal,
            ties, nonfinite, rng.standard_normal((64, n))]


@pytest.mark.parametrize("n", [4, 7, 64, 513])
def test_vectorised_exact_sum_matches_the_exact_path_bit_for_bit(n):
    # The vectorised sum decides most rows; every row it decides must be the exact path's
    # result (correctly rounded, or rounded to odd), and reduce() must be unchanged.
    from emulator.numerics import reductions
    rng = np.random.default_rng(n)
    decided_any = False
    for rows in _split_sum_rows(rng, n):
        for to_odd in (True, False):
            sums, decided = reductions.split_exact_sums(rows, to_odd)
            decided_any |= bool(decided.any())
            assert not decided[~np.isfinite(rows).all(axis=-1)].any()
            for i in np.nonzero(decided)[0]:
                want = np.float64(reductions._exact_sum(rows[i], to_odd))
                assert want.view(np.int64) == np.float64(sums[i]).view(np.int64), (rows[i], to_odd)
        for type_name in ("f32", "f64"):
            got = reduce("add", rows, -1, type_name, round_result=False)
            want = [reductions._exact_sum(r, type_name != "f64")
                    if not reductions.float64_sum_is_exact(r) else np.sum(r) for r in rows]
            np.testing.assert_array_equal(got.view(np.int64), np.asarray(want).view(np.int64))
    assert decided_any


@pytest.mark.parametrize("type_name", ["f32", "bf16", "f64"])
def test_few_term_sums_match_the_vectorised_path_bit_for_bit(type_name, monkeypatch):
    # Small reductions (a stick, say) are summed row by row in Python; turning that off
    # must give the same bits, signed zeros and init included.
    from emulator.numerics import reductions
    rng = np.random.default_rng(3)
    inputs = []
    for rows in _split_sum_rows(rng, 8):
        inputs.append((rows[:6], -1, None))
        inputs.append((rows[:4].reshape(2, 2, 8), (0, 2), None))
        inputs.append((rows[:3], 1, rows[3, :3]))
    zeros = np.array([[-0.0, -0.0, -0.0], [-0.0, 0.0, -0.0], [1.0, -1.0, -0.0], [0.0, 0.0, 0.0]])
    inputs += [(zeros, -1, None), (zeros, -1, np.array([-0.0, -0.0, 0.0, -0.0])),
               (zeros, 0, None)]
    for array, axes, init in inputs:
        array = round_to(type_name, array)
        init = None if init is None else round_to(type_name, init)
        small = reduce("add", array, axes, type_name, init=init, round_result=False)
        with monkeypatch.context() as patch:
            patch.setattr(reductions, "_FEW_TERMS", 0)
            large = reduce("add", array, axes, type_name, init=init, round_result=False)
        np.testing.assert_array_equal(np.asarray(small).view(np.int64),
                                      np.asarray(large).view(np.int64))
