"""The comparison rule's formulas (emulator.numerics.error_bounds, docs/numerics.md Rule 3):
reordered sums stay within their bound and a dropped chunk does not; bounds carried through
elementwise ops contain every value the op can give on the operands' intervals; the
comparison is bit for bit where the bound is 0."""

from __future__ import annotations

import numpy as np
import pytest

from emulator.numerics import (
    apply_op,
    compare_with_bound,
    comparison_classes,
    elementwise_error_bound,
    reduce,
    reduction_error_bound,
    round_to,
)


def chunked_sum(x: np.ndarray, width: int, reverse: bool = False) -> np.ndarray:
    """What the emulator does: each chunk's exact sum rounded to f32, chunks added in f32."""
    starts = list(range(0, x.shape[-1], width))
    acc = np.zeros(x.shape[:-1], dtype=np.float32)
    for s in reversed(starts) if reverse else starts:
        acc = (acc + reduce("add", x[..., s:s + width], -1, "f32")).astype(np.float32)
    return acc


@pytest.fixture(scope="module")
def rows():
    rng = np.random.default_rng(3)
    # f32 terms with cancellation (squares and signed values of very different sizes)
    x = rng.uniform(-2, 2, (64, 1024)) * 10.0 ** rng.integers(-3, 4, (64, 1024))
    return round_to("f32", x)


@pytest.mark.parametrize("width", [1, 8, 32, 100, 1024])
@pytest.mark.parametrize("reverse", [False, True])
def test_hardware_order_sums_stay_within_the_bound(rows, width, reverse):
    oracle = reduce("add", rows, -1, "f32")
    bound = reduction_error_bound("add", rows, None, "f32", "f32", oracle)
    hardware = chunked_sum(rows, width, reverse)
    assert (np.abs(hardware.astype(np.float64) - oracle) <= bound).all()


def test_f16_sum_accumulated_in_f16_stays_within_its_looser_bound(rows):
    x = round_to("f16", rows / 1000).astype(np.float16)
    oracle = reduce("add", x, -1, "f16")
    bound = reduction_error_bound("add", x, None, "f16", "f16", oracle)
    acc = np.zeros(64, dtype=np.float16)
    for j in range(x.shape[1]):
        acc = (acc + x[:, j]).astype(np.float16)
    assert (np.abs(acc.astype(np.float64) - oracle) <= bound).all()


def test_a_long_positive_f16_sum_keeps_a_bound_below_itself():
    """1024 terms in (0, 1], as a softmax's row sums them, accumulated in f16: the bound
    (growth (1 + u)^1023 - 1 = 0.65) stays below the sum, so a division by it keeps a
    finite bound (gamma_1023 = 1.0 did not), and the worst f16 order stays inside it:
    largest terms first, each partial rounded to f16."""
    from emulator.numerics.error_bounds import gamma, rounding_growth

    assert rounding_growth(1023, 2.0**-11) < 0.66 < gamma(1023, 2.0**-11)
    rng = np.random.default_rng(11)
    x = np.exp(-rng.uniform(0, 3, (16, 1024))).astype(np.float16)
    oracle = reduce("add", x, -1, "f16")
    bound = reduction_error_bound("add", x, None, "f16", "f16", oracle)
    assert (bound < np.abs(oracle.astype(np.float64))).all()
    acc = np.zeros(16, dtype=np.float16)
    for j in np.argsort(-x, axis=1).T:
        acc = (acc + x[np.arange(16), j]).astype(np.float16)
    assert (np.abs(acc.astype(np.float64) - oracle) <= bound).all()


def test_a_dropped_chunk_exceeds_the_bound(rows):
    oracle = reduce("add", rows, -1, "f32")
    bound = reduction_error_bound("add", rows, None, "f32", "f32", oracle)
    dropped = chunked_sum(rows[:, 32:], 32)
    assert (np.abs(dropped.astype(np.float64) - oracle) > bound).all()


def test_terms_with_their_own_bounds_add_them():
    terms = np.array([[1.0, 2.0, 3.0]])
    plain = reduction_error_bound("add", terms, None, "f32", "f32", [6.0])
    carried = reduction_error_bound("add", terms, np.array([[0.5, 0.0, 0.25]]), "f32", "f32",
                                    [6.0])
    assert carried[0] > plain[0] + 0.75 - 1e-12


def test_max_reduction_is_exact_unless_its_terms_carry_bounds():
    terms = np.array([[1.0, 5.0, 3.0]])
    assert reduction_error_bound("max", terms, None, "f32", "f32", [5.0]) is None
    got = reduction_error_bound("max", terms, np.array([[0.1, 0.2, 0.7]]), "f32", "f32", [5.0])
    assert got[0] == pytest.approx(0.7)
    assert reduction_error_bound("mul", terms, None, "f32", "f32", [15.0]) is None
    # one exact term: nothing can be reordered
    assert reduction_error_bound("add", np.array([[4.0]]), None, "f32", "f32", [4.0]) is None


def _op(name, et, result_type=None):
    return lambda values: apply_op(name, et, *values, result_type=result_type)


@pytest.mark.parametrize("name, et, result_type, lo, hi", [
    ("arith.addf", "f32", None, -4, 4),
    ("arith.subf", "f32", None, -4, 4),
    ("arith.mulf", "f32", None, -4, 4),
    ("arith.divf", "f32", None, 0.5, 4),
    ("math.exp", "f32", None, -4, 4),
    ("math.rsqrt", "f32", None, 0.5, 4),
    ("arith.truncf", "f32", "f16", -4, 4),
    ("spyreop.gelu", "f16", None, -3, 2),
    ("spyreop.gelu", "f32", None, -3, 2),
])
def test_corner_rule_contains_every_value_on_the_box(name, et, result_type, lo, hi):
    """Sample operands inside [a - e, a + e] (on the type's grid): the op's result never
    moves further from g(a) than the bound."""
    rng = np.random.default_rng(7)
    arity = 1 if name in ("math.exp", "math.rsqrt", "arith.truncf", "spyreop.gelu") else 2
    a = [round_to(et, rng.uniform(lo, hi, 4000)) for _ in range(arity)]
    e = [np.abs(v) * 10.0 ** rng.uniform(-7, -3, 4000) for v in a]
    g = _op(name, et, result_type)
    z = g(a)
    bound = elementwise_error_bound(name, g, a, e, z, result_type or et)
    for _ in range(20):
        moved = [round_to(et, v + rng.uniform(-1, 1, v.shape) * err) for v, err in zip(a, e)]
        moved = [np.clip(m, v - err, v + err) for m, v, err in zip(moved, a, e)]
        moved = [round_to(et, m) for m in moved]
        inside = np.all([np.abs(m - v) <= err for m, v, err in zip(moved, a, e)], axis=0)
        deviation = np.abs(g(moved).astype(np.float64) - z)
        assert (deviation[inside] <= bound[inside]).all()


@pytest.mark.parametrize("et", ["f16", "f32"])
def test_gelu_bound_reaches_its_minimum_inside_the_interval(et):
    """gelu is not monotone: over an interval holding its minimum (near -0.7525) the
    extreme may be there, not at a corner; every value on the interval's grid stays
    within the bound."""
    g = _op("spyreop.gelu", et)
    a = [round_to(et, np.array([-0.45, -0.5, -1.0, 1.0]))]
    e = [np.array([0.31, 0.4, 0.5, 0.1])]
    z = g(a).astype(np.float64)
    bound = elementwise_error_bound("spyreop.gelu", g, a, e, z, et)
    for k in range(4):
        grid = np.unique(round_to(et, np.linspace(a[0][k] - e[0][k], a[0][k] + e[0][k], 4001)))
        grid = grid[np.abs(grid - a[0][k]) <= e[0][k]]
        assert (np.abs(g([grid]).astype(np.float64) - z[k]) <= bound[k]).all()
    assert np.isfinite(bound).all()


def test_gelu_turning_point_is_its_minimum():
    """The rule's turning point for gelu: the op falls before it and rises after it."""
    from emulator.numerics.error_bounds import TURNING_POINTS

    (m,) = TURNING_POINTS["spyreop.gelu"]
    x = np.concatenate([np.linspace(-8, m, 2000), np.linspace(m, 8, 2000)])
    y = apply_op("spyreop.gelu", "f32", x.astype(np.float32)).astype(np.float64)
    assert (np.diff(y[:2000]) <= 0).all() and (np.diff(y[2000:]) >= 0).all()


def test_exact_operands_give_no_bound():
    g = _op("arith.addf", "f32")
    a = [np.float32(1.0), np.float32(2.0)]
    assert elementwise_error_bound("arith.addf", g, a, [None, None], g(a), "f32") is None


def test_a_divisor_interval_holding_zero_is_unbounded():
    g = _op("arith.divf", "f32")
    a = [np.array([1.0, 1.0], np.float32), np.array([0.001, 2.0], np.float32)]
    bound = elementwise_error_bound("arith.divf", g, a, [None, np.array([0.01, 0.01])],
                                    g(a), "f32")
    assert np.isinf(bound[0]) and np.isfinite(bound[1])


def test_an_infinity_every_corner_gives_is_exact():
    # a masked score: -inf minus a maximum that carries a bound is -inf at every corner
    g = _op("arith.subf", "f32")
    a = [np.array([-np.inf, 1.0], np.float32), np.array([2.0, 2.0], np.float32)]
    bound = elementwise_error_bound("arith.subf", g, a, [None, np.array([0.01, 0.01])],
                                    g(a), "f32")
    assert bound[0] == 0 and 0 < bound[1] < 0.1


def test_ops_outside_the_corner_rule_are_refused():
    g = _op("math.sin", "f32")
    with pytest.raises(ValueError, match="not monotone"):
        elementwise_error_bound("math.sin", g, [np.float32(1.0)], [np.array(0.1)],
                                g([np.float32(1.0)]), "f32")
    cond = _op("arith.select", "f32")
    with pytest.raises(ValueError, match="condition"):
        elementwise_error_bound("arith.select", cond, [np.bool_(True), 1.0, 2.0],
                                [np.array(0.1), None, None], 1.0, "f32")


def test_comparison_is_bit_for_bit_where_the_bound_is_zero():
    want = np.array([1.0, 0.0, np.nan, 2.0], dtype=np.float16)
    ok, diff, _ = compare_with_bound(want.copy(), want, np.zeros(4))
    assert ok.all() and not diff.any()
    one_ulp = want.copy()
    one_ulp[0] = np.nextafter(np.float16(1.0), np.float16(2.0))
    assert not compare_with_bound(one_ulp, want, np.zeros(4))[0][0]
    negative_zero = want.copy()
    negative_zero[1] = -0.0
    assert not compare_with_bound(negative_zero, want, None)[0][1]


def test_comparison_within_and_beyond_the_bound():
    want = np.array([1.0, 1.0, 1.0], dtype=np.float32)
    got = np.array([1.001, 1.01, np.nan], dtype=np.float32)
    ok, diff, ratio = compare_with_bound(got, want, np.array([0.002, 0.002, np.inf]))
    assert ok.tolist() == [True, False, False]
    assert ratio[0] == pytest.approx(0.5, rel=1e-3) and ratio[1] > 1


def test_an_infinite_reference_with_an_infinite_bound_is_not_checked():
    # exp of a sum whose bound straddles exp's overflow point: another order may stay finite
    want = np.array([np.inf, np.inf, np.nan, np.inf], dtype=np.float16)
    bound = np.array([np.inf, np.inf, np.inf, 0.0])
    got = np.array([65248, -np.inf, np.inf, 65248], dtype=np.float16)
    exact, bounded, unchecked = comparison_classes(want, bound)
    assert unchecked.tolist() == [True, True, False, False] and exact[2:].all()
    ok, _, _ = compare_with_bound(got, want, bound)
    # the other infinity fails, NaN stays bit for bit, a zero bound is bit for bit
    assert ok.tolist() == [True, False, False, False]


def test_an_infinite_reference_with_a_finite_bound_is_measured_from_the_overflow_point():
    want = np.array([np.inf, np.inf, -np.inf, np.inf], dtype=np.float16)
    bound = np.full(4, 300.0)
    got = np.array([65248, 64992, -65504, -65504], dtype=np.float16)
    exact, bounded, unchecked = comparison_classes(want, bound)
    assert bounded.all()
    ok, diff, _ = compare_with_bound(got, want, bound)
    # f16 overflows from 65520: 65248 is 272 from it, 64992 is 528; the other sign fails
    assert ok.tolist() == [True, False, True, False]
    assert diff[0] == 272 and diff[1] == 528 and diff[2] == 16


def test_an_overflow_keeps_a_finite_bound_through_exp_and_a_reciprocal():
    # exp(11.2) overflows f16 (from 65520), exp(11.0) = 59874 does not: the executor's
    # value lies 5,646 or less below the threshold, or is inf; 1 / (1 + it) is then at
    # most 1/59875 from the reference's 0
    x = np.array([11.203125], dtype=np.float16)
    e = np.array([0.203125])
    exp = _op("math.exp", "f16")
    y = exp([x])
    assert np.isposinf(y[0])
    bound = elementwise_error_bound("math.exp", exp, [x], [e], y, "f16", ["f16"])
    low = float(exp([np.array([11.0])])[0])
    # plus exp's approximation slack, four f16 units of the threshold (128)
    assert 65520 - low <= bound[0] <= 65520 - low + 130
    # without the operands' types the overflow has no reach, and no finite bound
    recip = _op("arith.divf", "f16")
    one = np.array([1.0], dtype=np.float16)
    z = recip([one, y])
    assert z[0] == 0
    loose = elementwise_error_bound("arith.divf", recip, [one, y], [None, bound], z, "f16")
    assert np.isinf(loose[0])
    tight = elementwise_error_bound("arith.divf", recip, [one, y], [None, bound], z, "f16",
                                    ["f16", "f16"])
    assert 0 < tight[0] <= 1 / 59000


def test_the_overflow_threshold_of_each_format():
    from emulator.numerics.error_bounds import overflow_threshold

    assert overflow_threshold("f16") == 65520
    assert overflow_threshold("f32") == float(np.finfo(np.float32).max) + 2.0**103
    assert overflow_threshold("bf16") == 2.0**128 - 2.0**119
    assert overflow_threshold("df16") is None  # df16 overflows to NaN


def test_an_infinity_where_the_reference_is_finite_is_read_as_the_overflow_threshold():
    want = np.array([64992, 64992, -64992, 100], dtype=np.float16)
    bound = np.full(4, 600.0)
    got = np.array([np.inf, -np.inf, -np.inf, np.inf], dtype=np.float16)
    ok, diff, _ = compare_with_bound(got, want, bound)
    # 64992 is 528 below f16's threshold 65520: within 600; the other side is not
    assert ok.tolist() == [True, False, True, False]
    assert diff[0] == 528 and diff[1] == 65520 + 64992


def test_a_sum_of_both_signs_that_may_overflow_its_accumulator_may_be_nan():
    # |terms| sum past f16's threshold while the exact sum is 0: an f16 accumulator may
    # overflow in a partial sum (inf - inf later is NaN)
    terms = np.array([[40000.0, 40000.0, -40000.0, -40000.0], [1.0, 2.0, -1.0, -2.0]])
    bound = reduction_error_bound("add", terms, None, "f16", "f16", terms.sum(axis=-1))
    assert np.isnan(bound[0]) and np.isfinite(bound[1])
    # in an f32 accumulator nothing overflows
    wide = reduction_error_bound("add", terms, None, "f32", "f16", terms.sum(axis=-1))
    assert np.isfinite(wide).all()
    # terms of one sign overflow only where the sum itself reaches the threshold: bounded
    same = reduction_error_bound("add", np.abs(terms), None, "f16", "f16",
                                 np.abs(terms).sum(axis=-1))
    assert not np.isnan(same).any()
    # a NaN bound is not checked, even by a new NaN; an infinite one still fails it
    want = np.zeros(2, dtype=np.float16)
    got = np.full(2, np.nan, dtype=np.float16)
    exact, bounded, unchecked = comparison_classes(want, np.array([np.nan, np.inf]))
    assert unchecked.all()
    ok, _, _ = compare_with_bound(got, want, np.array([np.nan, np.inf]))
    assert ok.tolist() == [True, False]


def test_a_corner_that_gives_nan_makes_the_bound_may_be_nan():
    # a - b where both may reach f16's threshold: inf - inf is a corner
    sub = _op("arith.subf", "f16")
    a = np.array([65000.0, 1.0], dtype=np.float16)
    e = np.array([1000.0, 1.0])
    z = sub([a, a])
    bound = elementwise_error_bound("arith.subf", sub, [a, a], [e, e], z, "f16", ["f16", "f16"])
    assert np.isnan(bound[0]) and bound[1] == 2.0


def test_a_range_keeps_a_sign_the_symmetric_bound_loses():
    # sigmoid written out, 1 / (1 + exp(-x)), on x = 2 +- 3: exp(-x) lies in
    # [exp(-5), exp(1)], so 1 + exp(-x) >= 1; its value +- bound reaches below 0
    neg, exp = _op("arith.negf", "f32"), _op("math.exp", "f32")
    add, div = _op("arith.addf", "f32"), _op("arith.divf", "f32")
    x = np.array([2.0], dtype=np.float32)
    e = np.array([3.0])
    n = neg([x])
    bn, rn = elementwise_error_bound("arith.negf", neg, [x], [e], n, "f32", ["f32"],
                                     with_range=True)
    z = exp([n])
    bz, rz = elementwise_error_bound("math.exp", exp, [n], [bn], z, "f32", ["f32"], [rn],
                                     with_range=True)
    assert 0 < rz[0][0] <= np.exp(-5) and rz[1][0] >= np.exp(1)
    assert z[0] - bz[0] < 0  # the symmetric interval holds negative values
    one = np.ones(1, dtype=np.float32)
    s = add([one, z])
    bs, rs = elementwise_error_bound("arith.addf", add, [one, z], [None, bz], s, "f32",
                                     ["f32", "f32"], [None, rz], with_range=True)
    assert rs[0][0] >= 1 and s[0] - bs[0] < 0
    q = div([one, s])
    loose = elementwise_error_bound("arith.divf", div, [one, s], [None, bs], q, "f32")
    assert np.isinf(loose[0])
    tight, rq = elementwise_error_bound("arith.divf", div, [one, s], [None, bs], q, "f32",
                                        ["f32", "f32"], [None, rs], with_range=True)
    # 1 / (1 + exp(-x)) over x in [-1, 5]: between 0.27 and 0.994, q = 0.88
    assert np.isfinite(tight[0]) and tight[0] < 0.62
    assert 0.26 < rq[0][0] and rq[1][0] < 1


def test_an_infinite_term_alone_does_not_make_a_sum_may_be_nan():
    # +inf plus small negative terms: the partials of the finite ones cannot overflow, so
    # the hardware's sum is +inf in any order (unchecked, but its sign is checked)
    terms = np.array([[np.inf, -1.0, -2.0, 3.0]])
    bound = reduction_error_bound("add", terms, None, "f16", "f16", np.array([np.inf]))
    assert np.isposinf(bound[0])


def test_infinite_terms_of_both_signs_may_be_anything_and_so_is_what_uses_them():
    # the hardware may add such terms unrounded (a matrix unit's products): no sure NaN
    terms = np.array([[np.inf, -np.inf, 1.0], [1.0, 2.0, 3.0]])
    bound = reduction_error_bound("add", terms, None, "f16", "f16", np.array([np.nan, 6.0]))
    assert np.isnan(bound[0]) and np.isfinite(bound[1])
    # one side alone, where the exact sum is finite: no finite bound (+inf may stand)
    big = np.array([[40000.0, 40000.0, -30000.0, -30000.0]])
    one_side = reduction_error_bound("add", big, None, "f16", "f16", np.array([20000.0]))
    assert np.isposinf(one_side[0])
    sub = _op("arith.subf", "f16")
    a = np.array([np.nan, 1.0], dtype=np.float16)
    e = np.array([np.nan, 1.0])
    z = sub([a, a])
    b = elementwise_error_bound("arith.subf", sub, [a, a], [e, e], z, "f16", ["f16", "f16"])
    assert np.isnan(b[0]) and b[1] == 2.0


def test_a_divisor_that_may_be_zero_leaves_no_range_to_narrow_what_follows():
    # exp(1 / x) + x on x = -0.024 +- 1.03 (a tanh of a sum that may change sign): 1 / x
    # may be anything, so exp of it may be anything too. The corners of the reciprocal,
    # 1 / -1.05 and 1 / 1.0, once taken as its range, bounded exp by e and let a
    # hardware value of +inf (x = +0.05) be judged a mismatch.
    rec, exp, add = (_op(name, "f16") for name in ("spyreop.reciprocal", "math.exp",
                                                   "arith.addf"))
    x = np.array([-0.02388, -0.5], dtype=np.float16)
    e = np.array([1.0258, 0.01])
    r = rec([x])
    br, rr = elementwise_error_bound("spyreop.reciprocal", rec, [x], [e], r, "f16", ["f16"],
                                     with_range=True)
    assert np.isinf(br[0]) and rr[0][0] == -np.inf and rr[1][0] == np.inf
    assert np.isfinite(br[1]) and np.isfinite(rr[0][1]) and np.isfinite(rr[1][1])
    z = exp([r])
    bz, rz = elementwise_error_bound("math.exp", exp, [r], [br], z, "f16", ["f16"], [rr],
                                     with_range=True)
    assert np.isinf(bz[0]) and np.isfinite(bz[1])
    y = add([z, x])
    by = elementwise_error_bound("arith.addf", add, [z, x], [bz, e], y, "f16",
                                 ["f16", "f16"], [rz, None])
    # the sum may reach f16's overflow: its bound spans the type (it was 3.7, from the
    # reciprocal's corners), and the hardware's +inf there passes
    assert by[0] >= 65504 and by[1] < 0.1
    ok, _, _ = compare_with_bound(np.array([np.inf, y[1]], dtype=np.float16), y, by)
    assert ok.tolist() == [True, True]


def test_an_absolute_value_that_may_be_zero_keeps_zero_in_its_range():
    # |x| on x = 0.5 +- 1: the corners give 0.5 and 1.5, but |x| reaches 0 in between;
    # a range of [0.5, 1.5] would bound 1 / |x| where the hardware's may be huge
    absf, rec = _op("math.absf", "f32"), _op("spyreop.reciprocal", "f32")
    x = np.array([0.5, 3.0], dtype=np.float32)
    e = np.array([1.0, 1.0])
    a = absf([x])
    ba, ra = elementwise_error_bound("math.absf", absf, [x], [e], a, "f32", ["f32"],
                                     with_range=True)
    assert ra[0].tolist() == [0.0, 2.0] and ra[1].tolist() == [1.5, 4.0]
    assert ba.tolist() == [1.0, 1.0]
    r = rec([a])
    br = elementwise_error_bound("spyreop.reciprocal", rec, [a], [ba], r, "f32", ["f32"], [ra])
    assert np.isinf(br[0]) and np.isfinite(br[1])


def test_an_exp_that_may_overflow_keeps_the_low_end_of_its_range():
    # exp(x) on x = 9.82 +- 2.24 in f16 reaches past 65504 (an infinite corner); the
    # approximation's slack at the low end is a few ulps of exp(7.58) ~ 1960, not of the
    # infinite corner (which made the range (-inf, inf), and 1 + exp a divisor that may
    # be 0: the written-out sigmoid's denominator)
    exp = _op("math.exp", "f16")
    x = np.array([9.82], dtype=np.float16)
    z = exp([x])
    b, (lo, hi) = elementwise_error_bound("math.exp", exp, [x], [np.array([2.24])], z, "f16",
                                          ["f16"], with_range=True)
    assert 1900 < lo[0] < 1970 and hi[0] == np.inf


@pytest.mark.parametrize("seed, exponents", [(0, (-6, 4)), (1, (-12, 11.5)), (2, (-24, 2))])
def test_the_bound_and_the_interval_hold_every_value_inside_the_box(seed, exponents):
    """For every op the corner rule takes (one or two operands, f16 and f32): operands of
    random sign and magnitude, bounds from 1 % to twice their size (intervals that hold 0
    or reach the overflow); at random points inside each box the op's value lies within
    the bound of its result and inside the interval the rule gives beside it. (The rule
    had the interval wrong for a divisor holding 0, for an absolute value over 0 and at
    the low end of an exp that may overflow.)"""
    from emulator.numerics.error_bounds import MONOTONE_OPS, TURNING_POINTS
    from emulator.numerics.op_table import OPS

    rng = np.random.default_rng(seed)
    names = sorted((set(MONOTONE_OPS) | set(TURNING_POINTS))
                   - {"arith.select", "arith.extf", "arith.truncf", "math.fma"})
    failures = []
    for name in names:
        for et in ("f16", "f32"):
            n = 300
            dtype = np.float16 if et == "f16" else np.float32
            op = _op(name, et)
            with np.errstate(all="ignore"):  # (f16 operands may overflow to infinity)
                xs = [(rng.choice([-1, 1], n) * np.exp(rng.uniform(*exponents, n))).astype(dtype)
                      for _ in range(OPS[name].arity)]
                es = [np.abs(x.astype(np.float64)) * rng.choice([0.01, 0.5, 2.0], n) for x in xs]
                z = op(xs)
                bound, (lo, hi) = elementwise_error_bound(name, op, xs, es, z, et,
                                                          [et] * len(xs), with_range=True)
                zz = np.asarray(z, dtype=np.float64)
                for _ in range(20):
                    points = [(x + e * rng.uniform(-1, 1, n)).astype(dtype) for x, e in zip(xs, es)]
                    g = np.asarray(op(points), dtype=np.float64)
                    seen = np.isfinite(g) & np.isfinite(zz)
                    outside = seen & ~np.isnan(lo) & ((g < lo) | (g > hi))
                    beyond = seen & ~np.isnan(bound) & (np.abs(g - zz) > bound)
                    if outside.any() or beyond.any():
                        failures.append((name, et, outside.any(), beyond.any()))
                        break
    assert not failures
