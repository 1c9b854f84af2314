"""spyreop intrinsics: documented formulas, types, wrap, slice reductions."""

import math

import numpy as np
import pytest

from emulator.numerics import LAYERNORM_EPS, apply_op, reduce, round_to
from spyre_sched.errors import ExecutionError, UnsupportedError

X = np.linspace(-6, 6, 240).astype(np.float32)  # no zero (reciprocal)


def gelu_sigmoid_form(x):
    u = math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)
    return x / (1 + math.exp(-2 * u))


def f32(values):
    return np.asarray(values, dtype=np.float64).astype(np.float32)


@pytest.mark.parametrize("name,formula", [
    ("exp", math.exp),
    ("sigmoid", lambda x: 1 / (1 + math.exp(-x))),
    ("silu", lambda x: x / (1 + math.exp(-x))),
    ("softplus", lambda x: math.log1p(math.exp(x))),
    ("gelu", gelu_sigmoid_form),
    ("reciprocal", lambda x: 1 / x),
])
@pytest.mark.parametrize("type_name", ["f32", "f16", "df16"])
def test_unary_intrinsics_follow_their_formula(name, formula, type_name):
    x = round_to(type_name, X)
    got = apply_op(f"spyreop.{name}", type_name, x)
    want = round_to(type_name, np.array([formula(float(v)) for v in x]))
    assert got.dtype == round_to(type_name, np.float32(0)).dtype
    # one rounding of a float32-accurate value: equal, or one step apart on the type's grid
    diff = np.abs(got.astype(np.float64) - want.astype(np.float64))
    step = np.abs(want.astype(np.float64)) * {"f32": 2**-23, "f16": 2**-10, "df16": 2**-9}[type_name]
    assert np.all(diff <= step + 1e-30), name


def test_gelu_is_the_tanh_approximation():
    x = np.linspace(-3, 6, 200)
    tanh_form = 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)))
    assert np.allclose(apply_op("spyreop.gelu", "f32", x), tanh_form, rtol=1e-6, atol=1e-7)
    assert abs(apply_op("spyreop.gelu", "f32", np.float32(1.0)) - 0.8411920) < 1e-6


def test_sqrt_rsqrt_realdiv():
    x = f32([4.0, 2.0, 0.25])
    assert apply_op("spyreop.sqrt", "f32", x).tolist() == [2.0, np.float32(math.sqrt(2)), 0.5]
    assert apply_op("spyreop.rsqrt", "f32", x).tolist() == [0.5, np.float32(1 / math.sqrt(2)), 2.0]
    assert apply_op("spyreop.realdiv", "f16", np.float16(1), np.float16(3)) == np.float16(1 / 3)


def test_sigmoid_and_silu_do_not_overflow():
    x = f32([-1e4, -100, 100, 1e4])
    assert apply_op("spyreop.sigmoid", "f32", x).tolist() == [0.0, np.float32(math.exp(-100)), 1.0, 1.0]
    assert apply_op("spyreop.silu", "f16", np.float16([-60000, 60000])).tolist() == [-0.0, 60000.0]


def test_softplus_threshold_branch_and_beta():
    x = f32([4.0, 6.0, -3.0])
    got = apply_op("spyreop.softplus", "f32", x, beta=2.0, threshold=10.0)
    assert got[1] == 6.0  # beta*x = 12 > 10: identity branch
    assert got[0] == np.float32(math.log1p(math.exp(8.0)) / 2)
    assert got[2] == np.float32(math.log1p(math.exp(-6.0)) / 2)
    at_threshold = apply_op("spyreop.softplus", "f32", f32(5.0), beta=2.0, threshold=10.0)
    assert at_threshold == np.float32(math.log1p(math.exp(10.0)) / 2)  # not strictly above
    big = apply_op("spyreop.softplus", "f32", f32(1000.0), threshold=1e9)
    assert big == 1000.0  # stable even when exp overflows


def test_df16_overflow_gives_nan():
    assert np.isnan(apply_op("spyreop.exp", "df16", np.float32(25.0)))  # e^25 > 8.57e9
    assert apply_op("spyreop.exp", "df16", np.float32(22.0)) == round_to("df16", np.float32(math.exp(22)))


@pytest.mark.parametrize("predicate,want", [
    ("equal", [0, 1, 0, 0]), ("notequal", [1, 0, 1, 1]),
    ("greaterthan", [0, 0, 1, 0]), ("greaterequal", [0, 1, 1, 0]),
    ("lesserthan", [1, 0, 0, 0]), ("lesserequal", [1, 1, 0, 0]),
])
def test_compare_gives_one_or_zero_in_the_operand_type(predicate, want):
    a = np.float16([1, 2, 3, np.nan])
    b = np.float16([2, 2, 2, 2])
    got = apply_op("spyreop.compare", "f16", a, b, predicate=predicate)
    assert got.dtype == np.float16 and got.tolist() == want


def test_compare_unknown_predicate():
    with pytest.raises(ExecutionError, match="compare predicate"):
        apply_op("spyreop.compare", "f32", 1.0, 2.0, predicate="bigger")


def test_select_takes_t_where_c_is_nonzero():
    c = np.float32([0.0, 1.0, -2.0, -0.0, np.nan])
    t = np.float32([1, 1, 1, 1, 1])
    f = np.float32([9, 9, 9, 9, 9])
    assert apply_op("spyreop.select", "df16", c, t, f).tolist() == [9, 1, 1, 9, 1]


def test_layernorm_pipeline_matches_numpy_layernorm():
    rng = np.random.default_rng(3)
    x = rng.normal(2.0, 3.0, size=(4, 256)).astype(np.float32)
    w = rng.normal(size=256).astype(np.float32)
    b = rng.normal(size=256).astype(np.float32)
    xs, sq = apply_op("spyreop.exx2", "f32", x)
    assert np.array_equal(xs, x) and np.array_equal(sq, (x.astype(np.float64) ** 2).astype(np.float32))
    n = x.shape[1]
    mean = (reduce("add", xs, 1, "f32") / np.float32(n))[:, None]
    meansq = (reduce("add", sq, 1, "f32") / np.float32(n))[:, None]
    scale = apply_op("spyreop.layernormscale", "f32", mean, meansq)
    out = apply_op("spyreop.layernormnorm", "f32", x, mean, scale, w, b)
    x64 = x.astype(np.float64)
    want = (x64 - x64.mean(1, keepdims=True)) / np.sqrt(x64.var(1, keepdims=True) + LAYERNORM_EPS) * w + b
    assert np.allclose(out, want, rtol=1e-5, atol=1e-5)


def test_layernormscale_formula_eps_and_clamp():
    got = apply_op("spyreop.layernormscale", "f32", f32([1.0, 2.0]), f32([5.0, 3.9]))
    assert got[0] == np.float32(1 / math.sqrt(4.0 + 1e-5))
    assert got[1] == np.float32(1 / math.sqrt(1e-5))  # negative variance clamps to 0
    assert apply_op("spyreop.layernormscale", "f32", f32(0.0), f32(1.0), eps=1.0) == np.float32(1 / math.sqrt(2))


def test_layernormnorm_formula():
    got = apply_op("spyreop.layernormnorm", "f16", *(np.float16(v) for v in (5, 1, 0.5, 3, -1)))
    assert got == (5 - 1) * 0.5 * 3 - 1


def test_integer_intrinsics_wrap():
    big = np.int32(2**31 - 1)
    assert apply_op("spyreop.addi32toi32", "i32", big, np.int32(1)) == -2**31
    assert apply_op("spyreop.muli32toi32", "i32", np.int32(65536), np.int32(65537)) == 65536
    assert apply_op("spyreop.addi64toi64", "i64", np.int64(2**63 - 1), np.int64(2)) == -2**63 + 1
    i = np.arange(4, dtype=np.int32)
    assert apply_op("spyreop.idx32toaddr", "i32", i, np.int32(100), np.int32(64)).tolist() == [
        100, 164, 228, 292]
    assert apply_op("spyreop.idx32toaddr", "i32", np.int32(2**30), np.int32(0), np.int32(4)) == 0
    with pytest.raises(UnsupportedError, match="i32"):
        apply_op("spyreop.addi32toi32", "i64", 1, 2)


def test_intrinsics_refuse_other_float_types():
    with pytest.raises(UnsupportedError, match="f64"):
        apply_op("spyreop.exp", "f64", 1.0)


STICK = np.arange(1, 65, dtype=np.float32) / 8 - 4  # 64 lanes, includes negatives and zero


@pytest.mark.parametrize("kind,want", [
    ("add", lambda s: s.sum()), ("sub", lambda s: s[0] - s[1:].sum()), ("max", np.max),
    ("min", np.min), ("mul", lambda s: np.prod(s[s != 0])), ("abs_max", lambda s: np.abs(s).max()),
])
def test_slice_reduction_in_slice_broadcasts(kind, want):
    x = np.stack([STICK, STICK[::-1] * 2]).astype(np.float16)
    if kind == "mul":
        x = (np.where(x == 0, 1.0, x) / 2).astype(np.float16)
    got = apply_op("spyreop.slice_reduction", "f16", x, reduction_kind=kind)
    assert got.shape == (2, 64) and got.dtype == np.float16
    for row in range(2):
        with np.errstate(over="ignore"):  # the mul row overflows f16 on both sides
            expected = np.float16(want(x[row].astype(np.float64)))
        assert np.all(got[row] == expected), (kind, row)


@pytest.mark.parametrize("kind", ["add", "sub", "max", "min", "mul", "abs_max"])
def test_slice_reduction_across_slice_combines_lane_by_lane(kind):
    rng = np.random.default_rng(5)
    x = rng.normal(size=(3, 4, 64)).astype(np.float16)
    got = apply_op("spyreop.slice_reduction", "df16", x, reduction_kind=kind,
                   reduction_scope="across_slice")
    assert got.shape == x.shape and got.dtype == np.float32
    sticks = round_to("df16", x).astype(np.float64).reshape(12, 64)
    want = {"add": sticks.sum(0), "sub": sticks[0] - sticks[1:].sum(0), "max": sticks.max(0),
            "min": sticks.min(0), "mul": sticks.prod(0), "abs_max": np.abs(sticks).max(0)}[kind]
    assert np.array_equal(got, np.broadcast_to(round_to("df16", want), x.shape))


def test_slice_reduction_f32_stick_is_32_lanes():
    x = np.arange(64, dtype=np.float32).reshape(2, 32)
    got = apply_op("spyreop.slice_reduction", "f32", x, reduction_kind="max")
    assert got[:, 0].tolist() == [31, 63]
    with pytest.raises(ExecutionError, match="32 lanes"):
        apply_op("spyreop.slice_reduction", "f32", np.zeros(64, np.float32), reduction_kind="add")


def test_slice_reduction_errors():
    with pytest.raises(ExecutionError, match="64 lanes"):
        apply_op("spyreop.slice_reduction", "f16", np.zeros(32, np.float16), reduction_kind="add")
    with pytest.raises(ExecutionError, match="reduction_kind"):
        apply_op("spyreop.slice_reduction", "f16", np.zeros(64, np.float16), reduction_kind="avg")
    with pytest.raises(ExecutionError, match="reduction_scope"):
        apply_op("spyreop.slice_reduction", "f16", np.zeros(64, np.float16), reduction_kind="add",
                 reduction_scope="sideways")
    with pytest.raises(ExecutionError, match="missing attribute"):
        apply_op("spyreop.slice_reduction", "f16", np.zeros(64, np.float16))


def test_fused_pair_ops():
    x = np.float16([[1.5, -2.0]])
    pair = apply_op("spyreop.exx2_fused", "f16", x)
    assert pair.shape == (1, 2, 2) and pair.dtype == np.float16
    assert pair[..., 0].tolist() == x.tolist() and pair[..., 1].tolist() == [[2.25, 4.0]]
    mean_pair = np.float16([1.0, 5.0])  # mean 1, mean of squares 5: variance 4
    got = apply_op("spyreop.layernormscale_fused", "f16", mean_pair)
    assert got == np.float16(1 / math.sqrt(4 + LAYERNORM_EPS))
    with pytest.raises(ExecutionError, match="trailing axis"):
        apply_op("spyreop.layernormscale_fused", "f16", np.float16([1, 2, 3]))


@pytest.mark.parametrize("type_name", ["f16", "f32"])
def test_unchecked_intrinsics_give_the_checked_bits(type_name):
    """The emulator's per-op shortcut computes an intrinsic without round_to's error state
    (a launch ignores floating-point errors already): for every float intrinsic, on
    infinities, NaNs, signed zeros, huge and tiny values, the same bits as its impl."""
    from emulator.numerics.element_types import element_type
    from emulator.numerics.op_table import OPS, REQUIRED

    et = element_type(type_name)
    rng = np.random.default_rng(2)
    values = np.concatenate([rng.normal(0, 4, 40), [np.inf, -np.inf, np.nan, 0.0, -0.0, 1e30,
                                                   -1e30, 1e-30, 65504.0, 7e4]])
    values = round_to(type_name, values)
    checked = 0
    for name, spec in sorted(OPS.items()):
        unchecked = getattr(spec.impl, "unchecked", None)
        if unchecked is None:
            continue
        attrs = {k: ("greaterthan" if v is REQUIRED else v) for k, v in spec.attrs.items()}
        operands = [np.roll(values, 7 * i) for i in range(spec.arity)]
        if name.endswith("_fused") and "layernormscale" in name:
            operands = [np.stack([values, np.abs(values)], axis=-1)]
        with np.errstate(all="ignore"):
            want = spec.impl(et, None, *operands, **attrs)
            got = unchecked(et, attrs)(*operands)
        for w, g in zip(want if isinstance(want, tuple) else (want,),
                        got if isinstance(got, tuple) else (got,)):
            assert g.dtype == w.dtype and g.tobytes() == w.tobytes(), name
        checked += 1
    assert checked >= 15
    rsqrt = OPS["spyreop.rsqrt"].impl
    assert rsqrt.unchecked(element_type("df16"), {}) is None  # its rounding is not a cast
