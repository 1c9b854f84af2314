"""How far an executor that sums in hardware order may lie from the oracle, output by output.

The one comparison rule of docs/numerics.md ("Rule 3"), in three parts, all on whole numpy
arrays:

* **Sources.** A float `add` reduction may be summed in another order, chunk by chunk in
  the accumulator type. With terms x_i (init included) whose own error bounds are e_i (0
  for exact terms), n terms, y_ref the oracle's result in the element type et:

      A     = sum_i (|x_i| + e_i)
      E     = gamma_d(u_acc) * A + (n - 1) * tiny_acc * (1 + gamma_d) + sum_i e_i

  with gamma_k(u) = (1 + u)^k - 1, the most k roundings can move a value, and d the
  most roundings a term goes through: n - 1 in any order, or the smaller depth an
  executor states for its own order (a bundle's `summation_depth`)
      bound = (1 + u_et) * E + (2 * u_et * |y_ref| + 3 * tiny_et) / (1 - u_et)

  (`reduction_error_bound`). A max/min reduction is exact in any order; its bound is
  max_i e_i. Other reductions (products, integers) must match bit for bit.
* **Propagation.** An elementwise op z = g(a, b, ...) whose operands carry bounds e_a, ...
  gets e_z = max over the corners c of the box [a - e_a, a + e_a] x ... of |g(c) - z|,
  evaluated with the op's own implementation (so its roundings are included). That is the
  exact worst case when g is monotone in each operand with the others fixed
  (`MONOTONE_OPS`), or, for a one-operand op monotone between a few turning points
  (gelu), when those points inside the interval are evaluated too (`TURNING_POINTS`);
  division-like ops need the divisor's interval to exclude 0, and
  approximated elementary functions get two ulps of slack (`elementwise_error_bound`).
* **Comparison.** An output passes where |emulated - reference| <= its bound when the bound
  is finite (an infinite reference: within it of the overflow threshold), and bit for bit
  where the bound is 0 or the reference is NaN; an element whose bound is infinite is not
  checked, and says so
  (`comparison_classes`, `compare_with_bound`).
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from .element_types import element_type

UNIT_ROUNDOFF = {"f16": 2.0**-11, "bf16": 2.0**-8, "df16": 2.0**-10, "f32": 2.0**-24,
                 "f64": 2.0**-53}
"""u = 2**-p for a format of p significant bits (round to nearest)."""

SMALLEST_SPACING = {"f16": 2.0**-24, "bf16": 2.0**-133, "df16": 2.0**-31 * (1 + 2.0**-9),
                    "f32": 2.0**-149, "f64": 2.0**-1074}
"""The largest rounding step near zero: the subnormal spacing, or for df16 (no subnormals,
flush to zero) its smallest positive value."""

#: Elementwise float ops monotone in each operand when the others are fixed (the direction
#: may depend on them): the extremes of the op over a box of operands are at its corners.
MONOTONE_OPS = frozenset({
    "arith.addf", "arith.subf", "arith.mulf", "arith.divf", "arith.negf", "arith.extf",
    "arith.truncf", "arith.maximumf", "arith.minimumf", "arith.maxnumf", "arith.minnumf",
    "arith.select", "math.absf", "math.fma", "math.exp", "math.exp2", "math.expm1",
    "math.log", "math.log2", "math.log10", "math.log1p", "math.sqrt", "math.rsqrt",
    "math.cbrt", "math.tanh", "math.erf", "math.erfc", "math.atan", "math.asin", "math.acos",
    "math.asinh", "math.acosh", "math.atanh", "math.sinh", "math.floor", "math.ceil",
    "math.round", "math.roundeven", "math.trunc", "spyreop.exp", "spyreop.rsqrt",
    "spyreop.sqrt", "spyreop.reciprocal", "spyreop.realdiv", "spyreop.sigmoid",
    "spyreop.softplus",
})
# math.absf is not monotone: it falls to 0 and rises after it, so 0 is its turning point
# (TURNING_POINTS): over a box holding 0 its range starts at 0, not at the smaller corner.

#: one-operand ops monotone on each side of a few turning points: over an operand interval
#: holding one, the extreme is at a corner or at that point, so it is evaluated there too.
#: gelu (the tanh approximation, `spyreop_ops`) falls from 0 to its minimum near -0.7525
#: and rises after it; it is flat there, so the point's last digits hardly matter.
TURNING_POINTS = {"spyreop.gelu": (-0.7524614142056467,), "math.absf": (0.0,)}

#: op -> index of the operand that divides: monotone only on each side of 0
DIVISOR_OPERAND = {"arith.divf": 1, "spyreop.realdiv": 1, "spyreop.reciprocal": 0}
#: operands that must be exact for the corner rule (a select's condition)
EXACT_OPERANDS = {"arith.select": (0,)}
#: implementations that are not correctly rounded: allowed to be non-monotone by an ulp
APPROXIMATE_OPS = frozenset({
    "math.exp", "math.exp2", "math.expm1", "math.log", "math.log2", "math.log10",
    "math.log1p", "math.cbrt", "math.tanh", "math.erf", "math.erfc", "math.atan", "math.asin",
    "math.acos", "math.asinh", "math.acosh", "math.atanh", "math.sinh", "spyreop.exp",
    "spyreop.sigmoid", "spyreop.softplus", "spyreop.gelu",
})


def gamma(n: int, unit_roundoff: float) -> float:
    """gamma_n = n u / (1 - n u), the bound on the relative error of n roundings."""
    nu = n * unit_roundoff
    if nu >= 1:
        return math.inf
    return nu / (1 - nu)


def rounding_growth(n: int, unit_roundoff: float) -> float:
    """(1 + u)^n - 1: the most n roundings can move a value relative to itself (each
    multiplies it by some 1 + d, |d| <= u). gamma_n is the usual upper bound of it, and
    loose once n u nears 1: 1023 f16 roundings give 0.65 where gamma gives 1.0 (a positive
    sum that may not reach 0 against one that may). Evaluated in float64 and widened by
    2^-40 relative, far above float64's own error here."""
    if n <= 0:
        return 0.0
    return math.expm1(n * math.log1p(unit_roundoff)) * (1 + 2.0**-40)


def accumulation_error(abs_terms_sum, n: int, accumulator_type: str,
                       max_roundings: int | None = None):
    """Bound on |hardware sum - exact sum| of n terms whose absolute values sum to
    `abs_terms_sum`, accumulated in `accumulator_type`:
    ((1 + u_acc)^d - 1) * sum |x_i| + (n - 1) * tiny_acc * (1 + that), where d, the most
    roundings any term goes through, is n - 1 in any order (Higham, section 4.2) and
    `max_roundings` when the executor states a smaller depth for its order (a tree, or
    lanes then chunks: docs/numerics.md, "The depth a bundle states")."""
    acc = element_type(accumulator_type).name
    steps = max(n - 1, 0)
    depth = steps if max_roundings is None else min(steps, max(int(max_roundings), 0))
    growth = rounding_growth(depth, UNIT_ROUNDOFF[acc])
    with np.errstate(invalid="ignore", over="ignore"):
        # an underflowing step's absolute error is itself carried through later roundings;
        # a sum of n terms has n - 1 additions whatever its shape
        return (growth * np.asarray(abs_terms_sum, dtype=np.float64)
                + steps * SMALLEST_SPACING[acc] * (1 + growth))


def reduction_error_bound(kind: str, terms, term_errors, accumulator_type: str,
                          element_type_name: str, oracle, axis=-1,
                          max_roundings: int | None = None) -> np.ndarray:
    """Per output of a float reduction of `kind` over `axis` of `terms` (init included): the
    bound on |hardware - oracle| (module doc). `term_errors`: bounds of the terms (None or
    an array broadcasting against `terms`). Returns None for a reduction that must match
    bit for bit (products; or every output reduced from fewer than two exact terms).
    `max_roundings`: the executor's stated summation depth (None: any order)."""
    x = np.asarray(terms, dtype=np.float64)
    axes = axis if isinstance(axis, tuple) else (axis,)
    n = int(np.prod([x.shape[a] for a in axes])) if axes else 1
    errors = None if term_errors is None else np.broadcast_to(
        np.asarray(term_errors, dtype=np.float64), x.shape)
    with np.errstate(invalid="ignore", over="ignore"):
        if kind in ("max", "min", "maxnum", "minnum"):
            return None if errors is None else errors.max(axis=axes) if n else None
        if kind != "add":
            return None
        if n < 2 and errors is None:
            return None
        absolute = np.abs(x) if errors is None else np.abs(x) + errors
        total = absolute.sum(axis=axes)
        carried = 0.0 if errors is None else errors.sum(axis=axes)
        positive = negative = None
        pos_inf = neg_inf = False
        if overflow_threshold(element_type(accumulator_type).name) is not None:
            low = x if errors is None else x - errors
            high = x if errors is None else x + errors
            finite = np.isfinite(x)
            positive = np.where(finite & (high > 0), high, 0.0).sum(axis=axes)
            negative = np.where(finite & (low < 0), -low, 0.0).sum(axis=axes)
            pos_inf = (x == np.inf).any(axis=axes)
            neg_inf = (x == -np.inf).any(axis=axes)
        bound = sum_error_bound(total, n, accumulator_type, element_type_name, oracle,
                                max_roundings, carried, positive, negative, pos_inf, neg_inf)
        if errors is not None:
            bound = np.where(np.isnan(errors).any(axis=axes), np.nan, bound)
        return bound


def sum_error_bound(abs_total, n: int, accumulator_type: str, element_type_name: str,
                    oracle, max_roundings: int | None = None, carried=0.0, positive=None,
                    negative=None, pos_inf=False, neg_inf=False) -> np.ndarray:
    """`reduction_error_bound` of a float sum from what it reads of the terms, per output:
    `abs_total` = sum of |term| (+ its bound), `carried` = sum of the terms' bounds, and
    (for an accumulator that overflows) `positive` / `negative` = the magnitudes the terms
    may reach on each side, `pos_inf` / `neg_inf` = whether a term is that infinity. A
    caller that has these without the terms (a matmul: |A| @ |B|) gets the same bound."""
    with np.errstate(invalid="ignore", over="ignore"):
        may_be_nan = np.zeros(np.shape(abs_total), dtype=bool)
        e_sum = accumulation_error(abs_total, n, accumulator_type, max_roundings) + carried
        et = element_type(element_type_name).name
        u, tiny = UNIT_ROUNDOFF[et], SMALLEST_SPACING[et]
        y = np.abs(np.asarray(oracle, dtype=np.float64))
        bound = (1 + u) * e_sum + (2 * u * y + 3 * tiny) / (1 - u)
        # A partial sum overflows the accumulator to +inf only where the positive terms'
        # magnitudes (bounds included) reach its threshold or a term is +inf (an overflow
        # of its own), to -inf likewise; both may meet as NaN (docs/numerics.md, "may be
        # NaN": anything passes). Even infinite terms of both signs are no sure NaN: the
        # hardware may fuse the op that made a term into its sum (a matrix unit adds each
        # product unrounded, so an f16 product past 65,504 need not overflow there).
        # One side alone may stand where the reference's sum is finite: no finite bound.
        threshold = overflow_threshold(element_type(accumulator_type).name)
        if threshold is not None:
            def reaches(magnitudes):
                grown = magnitudes + accumulation_error(magnitudes, n, accumulator_type,
                                                        max_roundings)
                return grown >= threshold

            to_pos = pos_inf | reaches(positive)
            to_neg = neg_inf | reaches(negative)
            may_be_nan = to_pos & to_neg
            bound = np.where((to_pos | to_neg) & np.isfinite(y), np.inf, bound)
        bound = np.where(np.isnan(bound), np.inf, bound)
        return np.where(may_be_nan, np.nan, bound)


def hardware_sum_error_bound(terms, accumulator_type: str, element_type_name: str,
                             oracle, hardware, axis: int = -1) -> np.ndarray:
    """Per output, given both results: how far `hardware` (a sum accumulated in
    `accumulator_type` in any order, then rounded once to the element type) may lie from
    `oracle` (the exact sum rounded once): accumulation_error + u_et * (|oracle| +
    |hardware|) + 2 * tiny_et. docs/numerics.md derives it."""
    x = np.abs(np.asarray(terms, dtype=np.float64))
    n = x.shape[axis]
    et = element_type(element_type_name).name
    results = (np.abs(np.asarray(oracle, dtype=np.float64))
               + np.abs(np.asarray(hardware, dtype=np.float64)))
    with np.errstate(invalid="ignore", over="ignore"):
        return (accumulation_error(x.sum(axis=axis), n, accumulator_type)
                + UNIT_ROUNDOFF[et] * results + 2 * SMALLEST_SPACING[et])


def matches_hardware_order_sum(terms, accumulator_type: str, element_type_name: str,
                               oracle, hardware, axis: int = -1) -> np.ndarray:
    """Per output: whether an executor's sum passes the comparison rule of
    docs/numerics.md (within the bound when both are finite, else bit for bit)."""
    oracle = np.asarray(oracle, dtype=np.float64)
    hardware = np.asarray(hardware, dtype=np.float64)
    bound = hardware_sum_error_bound(terms, accumulator_type, element_type_name,
                                     oracle, hardware, axis)
    finite = np.isfinite(oracle) & np.isfinite(hardware)
    with np.errstate(invalid="ignore"):
        close = np.abs(hardware - oracle) <= bound
    same = (oracle == hardware) | (np.isnan(oracle) & np.isnan(hardware))
    return np.where(finite, close, same)


OVERFLOW_FORMATS = {"f16": (11, 15), "bf16": (8, 127), "f32": (24, 127), "f64": (53, 1023)}
"""(significant bits p, largest exponent emax) of the formats that overflow to an infinity
(df16 gives NaN instead)."""


def overflow_threshold(type_name: str | None) -> float | None:
    """The least magnitude that rounds to infinity in the type (its largest finite value
    plus half a step: 2^(emax+1) - 2^(emax-p); f16: 65520), None for a type without one."""
    if type_name not in OVERFLOW_FORMATS:
        return None
    p, emax = OVERFLOW_FORMATS[type_name]
    return 2.0 ** (emax + 1) - 2.0 ** (emax - p)


def _from_reference(g, z, threshold: float | None) -> np.ndarray:
    """How far a value g lies from the reference value z, by the rule's reading: |g - z|
    where both are finite; where z is an infinity (an overflow), 0 for that infinity and,
    for a finite g, its distance below the overflow threshold on z's side; where only g is
    an infinity, the distance from z to the threshold on g's side (the least value that
    rounds to g). inf for the other infinity, NaN, or a type without a threshold."""
    with np.errstate(all="ignore"):
        deviation = np.where(g == z, 0.0, np.abs(g - z))
        if threshold is not None:
            below = threshold - np.copysign(1.0, z) * g
            deviation = np.where(np.isinf(z) & np.isfinite(g), np.maximum(below, 0.0),
                                 deviation)
            # an infinity where z is finite: a value at least the threshold on its side
            # was rounded to it
            short = threshold - np.copysign(1.0, g) * z
            deviation = np.where(np.isfinite(z) & np.isinf(g), np.maximum(short, 0.0),
                                 deviation)
    return np.where(np.isnan(deviation), np.inf, deviation)


def _deviation(g, z, threshold: float | None) -> np.ndarray:
    """`_from_reference` for a corner's value g, with NaN ("may be anything") where
    exactly one of g and z is NaN: the executor's value may then be NaN where the
    reference's is not (infinities meeting, an operand that may be NaN), or a number where
    the reference's NaN came from overflows another order of a sum avoids. 0 where both
    are NaN (a NaN every corner gives is the executor's too)."""
    g_nan, z_nan = np.isnan(g), np.isnan(z)
    return np.where(g_nan != z_nan, np.nan,
                    np.where(g_nan & z_nan, 0.0, _from_reference(g, z, threshold)))


def elementwise_error_bound(op_name: str, evaluate, operands, errors, result,
                            result_type: str,
                            operand_types: list[str | None] | None = None,
                            operand_ranges: list | None = None,
                            with_range: bool = False):
    """e_z of z = g(operands) (`result`), with `errors[k]` the bound of operand k (None:
    exact); `evaluate(values)` applies g (the executors' own implementation) to a list of
    operand arrays. Returns None when no operand carries an error; raises `ValueError`
    naming the reason when the op is outside the corner rule.

    An infinite value with a finite bound e is an overflow (docs/numerics.md, Rule 3): the
    executor's value lies between e below its type's overflow threshold and that infinity,
    so those are its corners (`operand_types` name the operands' types; without one the
    overflow may reach any value), and an infinite z gets as bound how far below the
    threshold its corners reach.

    `operand_ranges[k]`, when given, is an interval (lo, hi) the executor's operand k
    lies in, narrower than its value +- its bound (the range this function gives with
    `with_range`): the corners are taken inside it, so `1 + exp(x)` keeps its sign however
    loose exp's bound is. `with_range` returns (bound, (lo, hi)): the least and largest
    value the op gives over the box, widened by an approximate op's slack (NaN where a
    corner is NaN: no range)."""
    varying = [k for k, e in enumerate(errors) if e is not None]
    if not varying:
        return (None, None) if with_range else None
    turning = TURNING_POINTS.get(op_name, ()) if len(operands) == 1 else ()
    if op_name not in MONOTONE_OPS and not turning:
        raise ValueError(f"{op_name} is not monotone in its operands")
    if any(k in EXACT_OPERANDS.get(op_name, ()) for k in varying):
        raise ValueError(f"the condition of {op_name} depends on a reordered sum")
    z = np.asarray(result, dtype=np.float64)
    worst = np.zeros(np.broadcast_shapes(z.shape, *(np.shape(errors[k]) for k in varying)))
    approximate = op_name in APPROXIMATE_OPS
    result_threshold = overflow_threshold(result_type)
    # the size the approximation's slack scales with: an overflow's is its threshold
    cap = np.inf if result_threshold is None else result_threshold
    largest = np.minimum(np.abs(z), cap) + worst if approximate else None
    types = operand_types or [None] * len(operands)
    with np.errstate(all="ignore"):
        lows, highs = [], []
        for k in varying:
            x = np.asarray(operands[k], dtype=np.float64)
            lo, hi = x - errors[k], x + errors[k]
            # an overflow reaches down to threshold - e (anywhere, without a threshold)
            threshold = overflow_threshold(types[k])
            e_k = np.asarray(errors[k], dtype=np.float64)
            reach = np.full(np.shape(e_k), -np.inf) if threshold is None else threshold - e_k
            overflow = e_k > 0
            lo = np.where(np.isposinf(x) & overflow, reach, lo)
            hi = np.where(np.isneginf(x) & overflow, -reach, hi)
            narrower = operand_ranges[k] if operand_ranges else None
            if narrower is not None:
                lo, hi = np.fmax(lo, narrower[0]), np.fmin(hi, narrower[1])
            lows.append(lo)
            highs.append(hi)
        least = np.full(worst.shape, np.inf)
        most = np.full(worst.shape, -np.inf)
        for corner in itertools.product((0, 1), repeat=len(varying)):
            values = list(operands)
            for k, side, lo, hi in zip(varying, corner, lows, highs):
                values[k] = hi if side else lo
            g = np.asarray(evaluate(values), dtype=np.float64)
            worst = np.maximum(worst, _deviation(g, z, result_threshold))
            least, most = np.minimum(least, g), np.maximum(most, g)
            if approximate:
                largest = np.maximum(largest, np.where(np.isinf(z), np.minimum(np.abs(g), cap),
                                                       np.abs(g)))
        for point in turning:  # an interior extreme (one operand: lows[0], highs[0])
            inside = (lows[0] <= point) & (point <= highs[0])
            if not np.any(inside):
                continue
            at = np.full(np.shape(lows[0]), point)
            g = np.asarray(evaluate([at]), dtype=np.float64)
            deviation = np.where(inside, _deviation(g, z, result_threshold), 0.0)
            worst = np.maximum(worst, deviation)
            least = np.where(inside, np.minimum(least, g), least)
            most = np.where(inside, np.maximum(most, g), most)
            if approximate:
                largest = np.maximum(largest, np.where(inside, np.abs(g), 0.0))
        # an operand that may be anything (a NaN bound) makes the result so: its corners
        # are NaN, which would otherwise read as a NaN every order gives
        anything = np.zeros(worst.shape, bool)
        for k in varying:
            anything = anything | np.isnan(np.asarray(errors[k], dtype=np.float64))
        worst = np.where(anything, np.nan, worst)
        divisor = DIVISOR_OPERAND.get(op_name)
        if divisor is not None and divisor in varying:
            at = varying.index(divisor)
            straddles = (lows[at] <= 0) & (highs[at] >= 0)
            worst = np.where(straddles & ~np.isnan(worst), np.inf, worst)
            # and the result may be anything: the corners' span (1 / [-1, 1] gives -1 and
            # 1) is not its range, which reaches both infinities through the pole
            least = np.where(straddles & ~np.isnan(least), -np.inf, least)
            most = np.where(straddles & ~np.isnan(most), np.inf, most)
        if approximate:
            et = element_type(result_type).name
            u, tiny = UNIT_ROUNDOFF[et], SMALLEST_SPACING[et]
            worst = worst + 4 * u * largest + 2 * tiny
            # each end of the range by its own size: over a box the op is monotone on, an
            # interior value's few ulps are ulps of a value beyond that end (an end's slack
            # taken from the largest corner, an overflow's infinity, lost the end's sign)
            least = least - (4 * u * np.abs(least) + 2 * tiny)
            most = most + (4 * u * np.abs(most) + 2 * tiny)
    if not with_range:
        return worst
    return worst, (least, most)


def comparison_classes(want, bound=None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(exact, bounded, unchecked) masks over the elements of a reference output `want`
    whose bounds are `bound` (None: all 0), which split every element into one of three:

    * exact: compared bit for bit: the bound is 0, or the reference value is NaN (NaN
      must be matched by NaN, whatever the bound, unless the bound is NaN: a NaN that
      came from overflows another order of a sum avoids);
    * bounded: a finite positive bound, on a finite reference value or on an infinity (an
      overflow: the same infinity passes, or a finite value of its sign within the bound
      of where its type overflows, `_overflow_distance`);
    * unchecked: an infinite (or NaN) bound on a finite value or on an infinity: any real
      value lies within it, and so does the finite side of an overflow another order of a
      sum avoids; the element is not checked (only a new NaN, or for an infinity the other
      sign, fails it; nothing fails a NaN bound, which says the executor's value may be
      NaN), and a comparison that has such an element proves nothing about it."""
    w = np.asarray(want)
    if bound is None:
        zero = np.ones(w.shape, dtype=bool)
        return zero, ~zero, ~zero
    nan = np.isnan(w.astype(np.float64)) if w.dtype.kind == "f" else np.zeros(w.shape, bool)
    b = np.broadcast_to(np.asarray(bound, dtype=np.float64), w.shape)
    unbounded = ~np.isfinite(b)
    exact = (b == 0) | (nan & ~np.isnan(b))
    unchecked = ~exact & unbounded
    return exact, ~exact & ~unchecked, unchecked


def _overflow_distance(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """Where `want` or `got` is an infinity: how far `got` lies from `want` when an
    infinity stands for the values that round to it in `want`'s type (the overflow
    threshold, the largest finite value plus half its spacing, and beyond): 0 for the same
    infinity, the distance between a finite value and the threshold on the infinity's
    side, inf for the other infinity or NaN."""
    threshold = overflow_threshold({np.dtype(np.float16): "f16", np.dtype(np.float32): "f32",
                                    np.dtype(np.float64): "f64"}.get(want.dtype))
    g = got.astype(np.float64)
    return _from_reference(g, want.astype(np.float64), threshold)


def compare_with_bound(got, want, bound=None):
    """(passes, |got - want|, |got - want| / bound) element by element, by the classes of
    `comparison_classes`: bit for bit where the bound is 0 or absent or the reference is
    NaN (the same value and sign, NaN matching NaN), within the bound where it is finite
    (an infinity read as the overflow threshold on its side), anything but a new NaN (or
    an infinity's other sign) where it is infinite, and anything where it is NaN (not
    checked: its ratio is 0; `comparison_classes` tells those elements apart)."""
    got = np.asarray(got)
    want = np.asarray(want)
    if got.dtype.kind == "f" or want.dtype.kind == "f":
        g = got.astype(np.float64)
        w = want.astype(np.float64)
        same = ((g == w) & (np.signbit(g) == np.signbit(w))) | (np.isnan(g) & np.isnan(w))
        with np.errstate(invalid="ignore", over="ignore"):
            diff = np.where(same, 0.0, np.abs(g - w))
    else:
        same = got == want
        diff = np.where(same, 0.0, np.abs(got.astype(np.float64) - want.astype(np.float64)))
    diff = np.where(np.isnan(diff), np.inf, diff)
    if bound is None:
        return same, diff, np.where(same, 0.0, np.inf)
    exact, bounded, unchecked = comparison_classes(want, bound)
    b = np.broadcast_to(np.asarray(bound, dtype=np.float64), got.shape)
    infinite = np.isinf(want.astype(np.float64))
    overflowed = bounded & (infinite | np.isinf(got.astype(np.float64)))
    if overflowed.any():
        diff = np.where(overflowed, _overflow_distance(got, want), diff)
    with np.errstate(invalid="ignore", divide="ignore"):
        new_nan = np.isnan(got.astype(np.float64))
        sign_kept = ~infinite | (np.signbit(got.astype(np.float64))
                                 == np.signbit(want.astype(np.float64)))
        anything = unchecked & np.isnan(b)  # the bound says the value may be NaN
        passes = (same | (bounded & (diff <= b) & ~new_nan)
                  | (unchecked & ~new_nan & sign_kept) | anything)
        ratio = np.where(same | unchecked, 0.0,
                         np.where(bounded, diff / np.where(bounded, b, 1.0), np.inf))
    return passes, diff, ratio
