"""arith semantics: float rounding per op, integer wrap, predicates, casts."""

import math

import numpy as np
import pytest

from emulator.numerics import OPS, apply_op, round_to
from spyre_sched.errors import ExecutionError, UnsupportedError

F16_ULP_AT_ONE = 2.0**-10


# ---- floats --------------------------------------------------------------------------------


def test_f16_is_rounded_after_every_op():
    one = np.float16(1.0)
    half_ulp = np.float16(F16_ULP_AT_ONE / 2)
    step = apply_op("arith.addf", "f16", one, half_ulp)
    assert step.dtype == np.float16 and step == 1.0  # tie to even
    twice = apply_op("arith.addf", "f16", step, half_ulp)
    assert twice == 1.0  # rounded after each op: never accumulates
    once = np.float16(np.float32(one) + np.float32(half_ulp) + np.float32(half_ulp))
    assert once == 1.0 + F16_ULP_AT_ONE  # what a single final rounding would give


@pytest.mark.parametrize("op,fn", [("addf", np.add), ("subf", np.subtract),
                                   ("mulf", np.multiply), ("divf", np.divide),
                                   ("remf", np.fmod)])
def test_f16_binary_ops_equal_f32_compute_then_round(op, fn):
    rng = np.random.default_rng(7)
    a = (rng.normal(size=2000) * 50).astype(np.float16)
    b = (rng.normal(size=2000) * 3).astype(np.float16)
    got = apply_op(f"arith.{op}", "f16", a, b)
    with np.errstate(all="ignore"):
        want = fn(a.astype(np.float32), b.astype(np.float32)).astype(np.float16)
    assert got.dtype == np.float16
    assert np.array_equal(got, want, equal_nan=True)


def test_f32_ops_are_correctly_rounded_and_df16_rounds_through_dlfloat():
    a = np.float32(1.0)
    b = np.float32(2.0**-24)
    assert apply_op("arith.addf", "f32", a, b) == 1.0
    assert apply_op("arith.divf", "f32", np.float32(1), np.float32(3)) == np.float32(1) / np.float32(3)
    got = apply_op("arith.addf", "df16", np.float32(1.0), np.float32(2.0**-10))
    assert got.dtype == np.float32 and got == 1 + 2.0**-9  # half away from zero
    assert np.isnan(apply_op("arith.divf", "df16", np.float32(1), np.float32(0)))  # inf -> special


def test_operands_of_other_dtypes_are_rounded_to_the_type_first():
    got = apply_op("arith.addf", "f16", 1 + 2.0**-12, 0.0)  # python floats
    assert got.dtype == np.float16 and got == 1.0


def test_negf_and_division_by_zero():
    assert apply_op("arith.negf", "f16", np.float16(2.5)) == -2.5
    assert apply_op("arith.divf", "f32", np.float32([1, -1, 0]), np.float32(0)).tolist()[:2] == [
        math.inf, -math.inf]


def test_maximumf_minimumf_propagate_nan_and_order_zeros():
    a = np.array([1.0, np.nan, -0.0, 0.0, 2.0], dtype=np.float32)
    b = np.array([np.nan, 1.0, 0.0, -0.0, 3.0], dtype=np.float32)
    mx = apply_op("arith.maximumf", "f32", a, b)
    mn = apply_op("arith.minimumf", "f32", a, b)
    assert np.isnan(mx[:2]).all() and np.isnan(mn[:2]).all()
    assert not np.signbit(mx[2]) and not np.signbit(mx[3])
    assert np.signbit(mn[2]) and np.signbit(mn[3])
    assert mx[4] == 3 and mn[4] == 2
    mxn = apply_op("arith.maxnumf", "f32", a, b)
    mnn = apply_op("arith.minnumf", "f32", a, b)
    assert mxn[:2].tolist() == [1.0, 1.0] and mnn[:2].tolist() == [1.0, 1.0]
    assert not np.signbit(mxn[2]) and np.signbit(mnn[3])


CMPF_REFERENCE = {
    "false": lambda a, b, u: False, "true": lambda a, b, u: True,
    "oeq": lambda a, b, u: not u and a == b, "ogt": lambda a, b, u: not u and a > b,
    "oge": lambda a, b, u: not u and a >= b, "olt": lambda a, b, u: not u and a < b,
    "ole": lambda a, b, u: not u and a <= b, "one": lambda a, b, u: not u and a != b,
    "ord": lambda a, b, u: not u,
    "ueq": lambda a, b, u: u or a == b, "ugt": lambda a, b, u: u or a > b,
    "uge": lambda a, b, u: u or a >= b, "ult": lambda a, b, u: u or a < b,
    "ule": lambda a, b, u: u or a <= b, "une": lambda a, b, u: u or a != b,
    "uno": lambda a, b, u: u,
}


@pytest.mark.parametrize("predicate", sorted(CMPF_REFERENCE))
def test_cmpf_all_predicates_including_nan(predicate):
    vals = [-1.0, 0.0, -0.0, 1.0, math.inf, math.nan]
    a = np.array([x for x in vals for _ in vals], dtype=np.float16)
    b = np.array([y for _ in vals for y in vals], dtype=np.float16)
    got = apply_op("arith.cmpf", "f16", a, b, predicate=predicate)
    want = [CMPF_REFERENCE[predicate](x, y, math.isnan(x) or math.isnan(y))
            for x, y in zip(a.tolist(), b.tolist())]
    assert got.dtype == np.bool_ and got.tolist() == want


def test_cmpf_accepts_mlir_integer_predicates():
    assert apply_op("arith.cmpf", "f32", np.float32(1), np.float32(2), predicate=4)  # olt
    with pytest.raises(ExecutionError, match="predicate"):
        apply_op("arith.cmpf", "f32", np.float32(1), np.float32(2), predicate="bogus")


def test_select():
    c = np.array([True, False, True])
    got = apply_op("arith.select", "f16", c, np.float16([1, 2, 3]), np.float16([4, 5, 6]))
    assert got.tolist() == [1, 5, 3] and got.dtype == np.float16
    assert apply_op("arith.select", "i32", False, 1, 2) == 2


# ---- integers ------------------------------------------------------------------------------

INT_TYPES = {"i8": 8, "i16": 16, "i32": 32, "i64": 64}


def wrap(v: int, width: int) -> int:
    v &= (1 << width) - 1
    return v - (1 << width) if v >= 1 << (width - 1) else v


def trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


PY_INT_OPS = {
    "addi": lambda a, b, w: wrap(a + b, w),
    "subi": lambda a, b, w: wrap(a - b, w),
    "muli": lambda a, b, w: wrap(a * b, w),
    "divsi": lambda a, b, w: wrap(trunc_div(a, b), w),
    "remsi": lambda a, b, w: wrap(a - b * trunc_div(a, b), w),
    "floordivsi": lambda a, b, w: wrap(a // b, w),
    "ceildivsi": lambda a, b, w: wrap(-((-a) // b), w),
    "divui": lambda a, b, w: wrap((a % (1 << w)) // (b % (1 << w)), w),
    "remui": lambda a, b, w: wrap((a % (1 << w)) % (b % (1 << w)), w),
    "andi": lambda a, b, w: wrap(a & b, w),
    "ori": lambda a, b, w: wrap(a | b, w),
    "xori": lambda a, b, w: wrap(a ^ b, w),
    "maxsi": lambda a, b, w: max(a, b),
    "minsi": lambda a, b, w: min(a, b),
    "maxui": lambda a, b, w: wrap(max(a % (1 << w), b % (1 << w)), w),
    "minui": lambda a, b, w: wrap(min(a % (1 << w), b % (1 << w)), w),
    "shli": lambda a, b, w: 0 if b % (1 << w) >= w else wrap(a << (b % (1 << w)), w),
    "shrui": lambda a, b, w: 0 if b % (1 << w) >= w else wrap((a % (1 << w)) >> (b % (1 << w)), w),
    "shrsi": lambda a, b, w: (-1 if a < 0 else 0) if b % (1 << w) >= w else a >> (b % (1 << w)),
}


def int_pairs(width: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Every pair of the edge values, then random pairs over the whole range (a fixed
    seed per case: the same pairs every run)."""
    lo, hi = -(1 << (width - 1)), (1 << (width - 1)) - 1
    edges = np.array([lo, hi, -1, 0, 1, width, width - 1, lo + 1, hi - 1], dtype=np.int64)
    a_edge, b_edge = (m.ravel() for m in np.meshgrid(edges, edges))
    rng = np.random.default_rng(seed)
    a_rand, b_rand = (rng.integers(lo, hi, size=200, endpoint=True, dtype=np.int64) for _ in "ab")
    dtype = f"int{width}"
    return (np.concatenate([a_edge, a_rand]).astype(dtype),
            np.concatenate([b_edge, b_rand]).astype(dtype))


@pytest.mark.parametrize("type_name", sorted(INT_TYPES))
@pytest.mark.parametrize("op", sorted(PY_INT_OPS))
def test_integer_ops_match_python_reference(op, type_name):
    width = INT_TYPES[type_name]
    a, b = int_pairs(width, seed=sorted(PY_INT_OPS).index(op) * 100 + width)
    if op in ("divsi", "remsi", "floordivsi", "ceildivsi", "divui", "remui"):
        b = np.where(b == 0, np.int64(3).astype(b.dtype), b)
    got = apply_op(f"arith.{op}", type_name, a, b)
    assert got.dtype == np.dtype(f"int{width}")
    want = [PY_INT_OPS[op](int(x), int(y), width) for x, y in zip(a, b)]
    assert got.tolist() == want


def test_wrap_examples_and_int_min_division():
    assert apply_op("arith.addi", "i8", np.int8(127), np.int8(1)) == -128
    assert apply_op("arith.muli", "i32", np.int32(65536), np.int32(65536)) == 0
    assert apply_op("arith.divsi", "i32", np.int32(-2**31), np.int32(-1)) == -2**31
    assert apply_op("arith.remsi", "i64", np.int64(-2**63), np.int64(-1)) == 0
    assert apply_op("arith.addi", "index", 2**62, 2**62) == -2**63


def test_i1_arithmetic():
    t, f = np.array(True), np.array(False)
    assert apply_op("arith.addi", "i1", t, t) == False  # noqa: E712  (1 + 1 wraps to 0)
    assert apply_op("arith.xori", "i1", t, f) == True  # noqa: E712
    assert apply_op("arith.cmpi", "i1", t, f, predicate="slt")  # true is -1 when signed
    assert not apply_op("arith.cmpi", "i1", t, f, predicate="ult")


def test_division_by_zero_is_an_error_with_location():
    with pytest.raises(ExecutionError, match="division by zero") as err:
        apply_op("arith.divsi", "i32", np.int32([1, 2]), np.int32([1, 0]))
    assert "arith.divsi" in str(err.value)


@pytest.mark.parametrize("predicate,want", [
    ("eq", [False, True, False]), ("ne", [True, False, True]),
    ("slt", [True, False, False]), ("sle", [True, True, False]),
    ("sgt", [False, False, True]), ("sge", [False, True, True]),
    ("ult", [False, False, True]), ("ule", [False, True, True]),
    ("ugt", [True, False, False]), ("uge", [True, True, False]),
])
def test_cmpi_signed_and_unsigned(predicate, want):
    a = np.int8([-1, 5, 5])
    b = np.int8([0, 5, -3])
    assert apply_op("arith.cmpi", "i8", a, b, predicate=predicate).tolist() == want


# ---- casts ---------------------------------------------------------------------------------


def test_int_casts():
    x = np.int8([-1, 127, -128])
    assert apply_op("arith.extsi", "i8", x, result_type="i32").tolist() == [-1, 127, -128]
    assert apply_op("arith.extui", "i8", x, result_type="i32").tolist() == [255, 127, 128]
    assert apply_op("arith.extui", "i32", np.int32(-1), result_type="i64") == 2**32 - 1
    assert apply_op("arith.trunci", "i32", np.int32([300, -1]), result_type="i8").tolist() == [44, -1]
    assert apply_op("arith.extui", "i1", True, result_type="i8") == 1
    assert apply_op("arith.extsi", "i1", True, result_type="i8") == -1
    assert apply_op("arith.index_cast", "i32", np.int32(-5), result_type="index") == -5
    assert apply_op("arith.index_castui", "i32", np.int32(-5), result_type="index") == 2**32 - 5
    assert apply_op("arith.index_cast", "index", 2**40 + 3, result_type="i32") == 3
    with pytest.raises(ExecutionError, match="wider"):
        apply_op("arith.extsi", "i32", np.int32(1), result_type="i8")
    with pytest.raises(ExecutionError, match="index"):
        apply_op("arith.index_cast", "i32", np.int32(1), result_type="i64")


def test_float_casts():
    h = apply_op("arith.truncf", "f32", np.float32([1 + 2.0**-11, 70000.0]), result_type="f16")
    assert h.dtype == np.float16 and h.tolist() == [1.0, math.inf]
    d = apply_op("arith.truncf", "f32", np.float32(1 + 2.0**-10), result_type="df16")
    assert d == 1 + 2.0**-9
    e = apply_op("arith.extf", "f16", np.float16(0.1), result_type="f32")
    assert e.dtype == np.float32 and e == np.float32(np.float16(0.1))
    assert apply_op("arith.extf", "df16", np.float32(1.5), result_type="f32") == 1.5
    with pytest.raises(ExecutionError, match="narrower"):
        apply_op("arith.truncf", "f16", np.float16(1), result_type="f32")


def test_int_float_conversions():
    assert apply_op("arith.sitofp", "i8", np.int8(-3), result_type="f16") == -3
    assert apply_op("arith.uitofp", "i8", np.int8(-3), result_type="f32") == 253
    assert apply_op("arith.sitofp", "i32", np.int32(2049), result_type="f16") == 2048  # rounds
    got = apply_op("arith.fptosi", "f32", np.float32([2.9, -2.9, np.nan, 1e10, -1e10]),
                   result_type="i32")
    assert got.tolist() == [2, -2, 0, 2**31 - 1, -2**31]
    got = apply_op("arith.fptoui", "f32", np.float32([2.9, -2.9, np.nan, 1e10]), result_type="i32")
    assert got.tolist() == [2, 0, 0, -1]  # 2**32 - 1 read signed
    got = apply_op("arith.fptosi", "f64", np.float64([9.3e18, -9.3e18]), result_type="i64")
    assert got.tolist() == [2**63 - 1, -2**63]
    got = apply_op("arith.fptoui", "f64", np.float64([1.9e19, 1e19]), result_type="i64")
    assert got.tolist() == [-1, wrap(10**19, 64)]


def test_bitcast():
    assert apply_op("arith.bitcast", "f32", np.float32(1.0), result_type="i32") == 0x3F800000
    assert apply_op("arith.bitcast", "i16", np.int16(0x3C00), result_type="f16") == 1.0
    assert apply_op("arith.bitcast", "i16", np.int16(31 << 9), result_type="df16") == 1.0
    assert apply_op("arith.bitcast", "df16", np.float32(-1.0), result_type="i16") == wrap(0x8000 | 31 << 9, 16)
    with pytest.raises(ExecutionError, match="bitcast"):
        apply_op("arith.bitcast", "f32", np.float32(1.0), result_type="i16")


def test_constant_op_and_calling_errors():
    c = apply_op("arith.constant", "f16", value=0.5, shape=(2,))
    assert c.dtype == np.float16 and c.tolist() == [0.5, 0.5]
    with pytest.raises(UnsupportedError, match="no scalar semantics"):
        apply_op("arith.nosuchop", "f32", 1.0)
    with pytest.raises(ExecutionError, match="float"):
        apply_op("arith.addf", "i32", 1, 2)
    with pytest.raises(ExecutionError, match="operand"):
        apply_op("arith.addf", "f32", 1.0)
    with pytest.raises(ExecutionError, match="predicate"):
        apply_op("arith.cmpi", "i32", 1, 2)
    with pytest.raises(UnsupportedError, match="unknown attribute"):
        apply_op("arith.addf", "f32", 1.0, 2.0, rounding="up")
    assert apply_op("arith.addf", "f32", 1.0, 2.0, fastmath="fast") == 3.0  # ignored attribute
    with pytest.raises(ExecutionError, match="result_type"):
        apply_op("arith.extf", "f16", 1.0)


def test_required_arith_ops_are_all_registered():
    required = """addf subf mulf divf negf maximumf minimumf maxnumf minnumf remf cmpf select
    addi subi muli divsi divui remsi remui floordivsi ceildivsi andi ori xori shli shrsi shrui
    maxsi minsi maxui minui cmpi extf truncf sitofp uitofp fptosi fptoui extsi extui trunci
    index_cast index_castui bitcast constant""".split()
    assert [op for op in required if f"arith.{op}" not in OPS] == []
    assert round_to("f16", np.float32(1.0)).dtype == np.float16
