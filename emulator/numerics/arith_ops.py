"""Semantics of the `arith` dialect's scalar ops, vectorised.

Floats: each op computes in the type's compute dtype (float32 for 16-bit floats, float64 for
f32/f64) and rounds its result to the type once (`round_to`).  IEEE behaviour otherwise:
x/0 gives +-inf (df16: the special code, decoding to NaN), 0/0 gives NaN, `remf` is C fmod.

Integers wrap modulo 2**width (two's complement).  Where MLIR leaves results undefined we pick:
* division or remainder by zero (divsi, divui, remsi, remui, floordivsi, ceildivsi): error;
* signed division overflow (INT_MIN / -1): quotient INT_MIN, remainder 0 (wraps);
* shift by >= width (amount read unsigned): shli, shrui give 0; shrsi gives the sign fill;
* fptosi/fptoui of NaN give 0, of out-of-range values saturate to the integer range
  (like LLVM's fptosi.sat), after truncation toward zero.
"""

from __future__ import annotations

import numpy as np

from spyre_sched.errors import ExecutionError

from . import ieee_minmax
from .element_types import constant, element_type, from_bits, round_to, to_bits, wrap_int
from .int_views import signed, signed_range, unsigned, unsigned_max
from .op_table import REQUIRED, register


def _compute(et, *arrays):
    return [a.astype(et.compute_dtype, copy=False) for a in arrays]


# ---- float arithmetic -----------------------------------------------------------------------


# numpy's own float16 +, -, *, / compute in float32 and round to float16 once, which is
# this table's rule for f16 (float32 holds 2 * 11 + 2 bits, so the result is the correctly
# rounded one either way): one pass instead of three conversions. Likewise numpy's float32
# loops give f32's result (float64 holds 2 * 24 + 2 bits). Which NaN payload comes out of
# two NaN operands is numpy's (and the CPU's) choice, so each loop is probed once, in both
# operand orders for + and *, and used only where it matches bit for bit.


_NATIVE_LOOPS = (np.add, np.subtract, np.multiply, np.divide)
#: element type -> (its numpy dtype, the wider dtype this table computes it in)
_NATIVE_TYPES = {"f16": (np.float16, np.float32), "f32": (np.float32, np.float64)}


def _probe_operands(dtype) -> tuple[np.ndarray, np.ndarray]:
    """Operand pairs for the probe: random bit patterns (every class: zeros, subnormals,
    infinities, NaNs with payloads), NaNs against anything, and pairs of close magnitude
    (cancellation, rounding ties)."""
    bits = np.dtype(dtype).itemsize * 8
    uint = np.dtype(f"uint{bits}")
    rng = np.random.default_rng(20261201)
    if bits == 16:
        every = np.arange(2**16, dtype=np.uint32).astype(np.uint16).view(np.float16)
        nan = every[np.isnan(every)]
        a = np.concatenate([rng.choice(every, 8192), rng.choice(nan, 2048), every[:4096]])
        b = np.concatenate([rng.choice(every, 8192), rng.choice(nan, 2048), every[-4096:]])
        return a, b
    raw = rng.integers(0, 2**bits, 3 * 8192, dtype=np.uint64).astype(uint)
    a, b = raw[:8192].view(dtype), raw[8192:16384].view(dtype)
    near = raw[16384:] ^ (rng.integers(0, 256, 8192, dtype=np.uint64).astype(uint)
                          | (rng.integers(0, 2, 8192, dtype=np.uint64).astype(uint) << (bits - 1)))
    nan = np.where(np.isnan(a), a, np.array(np.nan, dtype=dtype))
    tiny = (raw[:2048] & uint.type((1 << (bits - 9)) - 1)).view(dtype)  # subnormals
    return (np.concatenate([a, nan[:2048], raw[16384:].view(dtype), tiny]),
            np.concatenate([b, b[:2048], near.view(dtype), tiny[::-1]]))


def _native(fn, type_name: str, commutative: bool):
    """`fn` on arrays of the type's dtype (operands swapped if need be) when it agrees bit
    for bit with computing in the wider dtype and rounding; None otherwise."""
    dtype, wide = _NATIVE_TYPES[type_name]
    a, b = _probe_operands(dtype)
    uint = np.dtype(f"uint{np.dtype(dtype).itemsize * 8}")
    with np.errstate(all="ignore"):
        want = fn(a.astype(wide), b.astype(wide)).astype(dtype).view(uint)
        candidates = [fn] + ([lambda x, y: fn(y, x)] if commutative else [])
        for candidate in candidates:
            if np.array_equal(candidate(a, b).view(uint), want):
                return candidate
    return None


_PROBED: dict[tuple[str, str], object] = {}  # (op, type) -> its native loop or None, probed on first use


def native_loop(name: str, type_name: str):
    """The numpy loop `arith.<name>` of `type_name` (f16 or f32) computes with on two
    arrays of the type's own dtype where it is this table's result bit for bit (the same
    call `impl` makes for f16, so the same bits), or None."""
    fn = _FLOAT_BINARY_FNS.get(name)
    if fn is None or fn not in _NATIVE_LOOPS or type_name not in _NATIVE_TYPES:
        return None
    key = (name, type_name)
    if key not in _PROBED:
        _PROBED[key] = _native(fn, type_name, fn in (np.add, np.multiply))
    return _PROBED[key]


def native_f16(name: str):
    """The numpy float16 loop `arith.<name>` uses on two float16 arrays (the same call
    `impl` makes, so the same bits), or None when it computes in float32 instead."""
    return native_loop(name, "f16")


_FLOAT_BINARY_FNS: dict[str, object] = {}


def _float_binary(name: str, fn):
    _FLOAT_BINARY_FNS[f"arith.{name}"] = fn

    @register(f"arith.{name}", 2, "float")
    def impl(et, rt, a, b):
        if et.name == "f16" and a.dtype == b.dtype == np.float16 and fn in _NATIVE_LOOPS:
            native = native_f16(f"arith.{name}")
            if native is not None:
                return native(a, b)
        ca, cb = _compute(et, a, b)
        return round_to(et, fn(ca, cb))

    impl.__doc__ = f"arith.{name}: computed in the compute dtype, rounded once."
    return impl


_float_binary("addf", np.add)
_float_binary("subf", np.subtract)
_float_binary("mulf", np.multiply)
_float_binary("divf", np.divide)
_float_binary("remf", np.fmod)
_float_binary("maximumf", ieee_minmax.maximum)
_float_binary("minimumf", ieee_minmax.minimum)
_float_binary("maxnumf", ieee_minmax.maxnum)
_float_binary("minnumf", ieee_minmax.minnum)


@register("arith.negf", 1, "float")
def _negf(et, rt, a):
    """Flip the sign (exact)."""
    return round_to(et, np.negative(a))


CMPF_PREDICATES = (
    "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
    "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true",
)  # index = MLIR's integer encoding of the predicate


def _predicate_name(pred, names: tuple[str, ...], op: str) -> str:
    if isinstance(pred, (int, np.integer)) and not isinstance(pred, bool):
        if 0 <= int(pred) < len(names):
            return names[int(pred)]
    elif str(pred) in names:
        return str(pred)
    raise ExecutionError(f"unknown {op} predicate {pred!r} (known: {', '.join(names)})")


@register("arith.cmpf", 2, "float", attrs={"predicate": REQUIRED})
def _cmpf(et, rt, a, b, predicate):
    """Ordered predicates are false when either operand is NaN, unordered ones true."""
    pred = _predicate_name(predicate, CMPF_PREDICATES, "arith.cmpf")
    ca, cb = _compute(et, a, b)
    unordered = np.isnan(ca) | np.isnan(cb)
    shape = np.broadcast_shapes(ca.shape, cb.shape)
    if pred == "false":
        return np.zeros(shape, dtype=bool)
    if pred == "true":
        return np.ones(shape, dtype=bool)
    if pred == "ord":
        return ~unordered
    if pred == "uno":
        return unordered
    relation = {"eq": np.equal, "gt": np.greater, "ge": np.greater_equal,
                "lt": np.less, "le": np.less_equal, "ne": np.not_equal}[pred[1:]]
    rel = relation(ca, cb)
    if pred[0] == "o":
        return rel & ~unordered
    return rel | unordered


@register("arith.select", 3, "any", condition_first=True)
def _select(et, rt, cond, t, f):
    """Elementwise `cond ? t : f` (cond is i1)."""
    return np.where(cond, t, f).astype(et.value_dtype, copy=False)


@register("arith.constant", 0, "any", attrs={"value": REQUIRED, "shape": None})
def _constant(et, rt, value, shape):
    """A typed constant (see `element_types.constant`)."""
    return constant(et, value, shape)


# ---- integer arithmetic ---------------------------------------------------------------------


def _int_binary(name: str, fn, reading=signed):
    @register(f"arith.{name}", 2, "int")
    def impl(et, rt, a, b):
        return wrap_int(et, fn(reading(et, a), reading(et, b)))

    impl.__doc__ = f"arith.{name}: wraps modulo 2**width."
    return impl


_int_binary("addi", np.add)
_int_binary("subi", np.subtract)
_int_binary("muli", np.multiply)
_int_binary("andi", np.bitwise_and)
_int_binary("ori", np.bitwise_or)
_int_binary("xori", np.bitwise_xor)
_int_binary("maxsi", np.maximum)
_int_binary("minsi", np.minimum)
_int_binary("maxui", np.maximum, unsigned)
_int_binary("minui", np.minimum, unsigned)


def _check_divisor(b):
    if np.any(b == 0):
        raise ExecutionError("integer division by zero")


def _signed_trunc_divmod(et, a, b):
    """Quotient rounded toward zero and remainder with the dividend's sign; INT_MIN/-1 wraps."""
    sa, sb = signed(et, a), signed(et, b)
    _check_divisor(sb)
    minus_one = sb == -1
    safe_b = np.where(minus_one, np.ones_like(sb), sb)  # avoids the INT_MIN/-1 hardware trap
    rem = np.where(minus_one, np.zeros_like(sa), np.fmod(sa, safe_b))
    quo = np.where(minus_one, np.negative(sa), (sa - rem) // safe_b)
    return quo, rem, sb


@register("arith.divsi", 2, "int")
def _divsi(et, rt, a, b):
    """Signed division rounding toward zero."""
    quo, _, _ = _signed_trunc_divmod(et, a, b)
    return wrap_int(et, quo)


@register("arith.remsi", 2, "int")
def _remsi(et, rt, a, b):
    """Signed remainder; its sign is the dividend's."""
    _, rem, _ = _signed_trunc_divmod(et, a, b)
    return wrap_int(et, rem)


@register("arith.floordivsi", 2, "int")
def _floordivsi(et, rt, a, b):
    """Signed division rounding toward negative infinity."""
    quo, rem, sb = _signed_trunc_divmod(et, a, b)
    adjust = (rem != 0) & ((rem < 0) != (sb < 0))
    return wrap_int(et, quo - adjust.astype(quo.dtype))


@register("arith.ceildivsi", 2, "int")
def _ceildivsi(et, rt, a, b):
    """Signed division rounding toward positive infinity."""
    quo, rem, sb = _signed_trunc_divmod(et, a, b)
    adjust = (rem != 0) & ((rem < 0) == (sb < 0))
    return wrap_int(et, quo + adjust.astype(quo.dtype))


@register("arith.divui", 2, "int")
def _divui(et, rt, a, b):
    """Unsigned division."""
    ua, ub = unsigned(et, a), unsigned(et, b)
    _check_divisor(ub)
    return wrap_int(et, ua // ub)


@register("arith.remui", 2, "int")
def _remui(et, rt, a, b):
    """Unsigned remainder."""
    ua, ub = unsigned(et, a), unsigned(et, b)
    _check_divisor(ub)
    return wrap_int(et, ua % ub)


def _shift_amount(et, b):
    amount = unsigned(et, b)
    too_far = amount >= et.width
    return too_far, np.minimum(amount, max(et.width - 1, 0))


@register("arith.shli", 2, "int")
def _shli(et, rt, a, b):
    """Shift left; amounts >= width give 0."""
    too_far, amount = _shift_amount(et, b)
    ua = unsigned(et, a)
    shifted = np.left_shift(ua, amount.astype(ua.dtype))
    return wrap_int(et, np.where(too_far, np.zeros_like(ua), shifted))


@register("arith.shrui", 2, "int")
def _shrui(et, rt, a, b):
    """Logical shift right; amounts >= width give 0."""
    too_far, amount = _shift_amount(et, b)
    ua = unsigned(et, a)
    shifted = np.right_shift(ua, amount.astype(ua.dtype))
    return wrap_int(et, np.where(too_far, np.zeros_like(ua), shifted))


@register("arith.shrsi", 2, "int")
def _shrsi(et, rt, a, b):
    """Arithmetic shift right; amounts >= width give the sign fill (0 or -1)."""
    too_far, amount = _shift_amount(et, b)
    sa = signed(et, a)
    fill = np.where(sa < 0, -1, 0).astype(sa.dtype)
    shifted = np.right_shift(sa, amount.astype(sa.dtype))
    return wrap_int(et, np.where(too_far, fill, shifted))


CMPI_PREDICATES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")


@register("arith.cmpi", 2, "int", attrs={"predicate": REQUIRED})
def _cmpi(et, rt, a, b, predicate):
    """Integer comparison; s*/u* read the bits signed/unsigned."""
    pred = _predicate_name(predicate, CMPI_PREDICATES, "arith.cmpi")
    reading = unsigned if pred[0] == "u" else signed
    ra, rb = reading(et, a), reading(et, b)
    relation = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
                "gt": np.greater, "ge": np.greater_equal}[pred[-2:]]
    return np.asarray(relation(ra, rb), dtype=bool)


# ---- casts ----------------------------------------------------------------------------------


def _register_cast(name: str, operand_kind: str, result_kind: str):
    def deco(impl):
        return register(f"arith.{name}", 1, operand_kind, needs_result_type=True,
                        result_kind=result_kind)(impl)

    return deco


def _require_width(rt, et, relation: str):
    ok = {"wider": rt.width > et.width, "narrower": rt.width < et.width,
          "wider_or_equal": rt.width >= et.width, "narrower_or_equal": rt.width <= et.width}[relation]
    if not ok:
        must = relation.replace("_", " ")
        raise ExecutionError(f"cannot cast {et.name} to {rt.name}: result must be {must}")


@_register_cast("extf", "float", "float")
def _extf(et, rt, a):
    """Widen a float (exact)."""
    _require_width(rt, et, "wider_or_equal")
    return round_to(rt, a.astype(np.float64))


@_register_cast("truncf", "float", "float")
def _truncf(et, rt, a):
    """Narrow a float with the result type's rounding (df16: half away from zero)."""
    _require_width(rt, et, "narrower_or_equal")
    return round_to(rt, a.astype(np.float64))


#: (cast, operand type, result type) -> a function computing the cast bit for bit as its
#: rule does, without the layers in between, or None; made on first use
_NATIVE_CASTS: dict[tuple[str, str, str], object] = {}


def native_cast(name: str, type_name: str, result_name: str):
    """A fast exact `arith.extf` f16 -> f32 or `arith.truncf` f32 -> f16 on arrays of the
    operand type's dtype, or None. extf: a table of the cast's own result for each of the
    65536 f16 codes, indexed by the operand's bits (numpy's direct conversion would keep
    signalling NaNs signalling, the rule through float64 quiets them). truncf: numpy's
    direct conversion with NaNs quieted as the rule quiets them, where that agrees bit for bit with the rule on
    the f32 probe's values and on float32 values at and next to every f16 rounding tie."""
    key = (name, type_name, result_name)
    if key in _NATIVE_CASTS:
        return _NATIVE_CASTS[key]
    found = None
    with np.errstate(all="ignore"):
        halves = np.arange(2**16, dtype=np.uint32).astype(np.uint16).view(np.float16)
        if key == ("arith.extf", "f16", "f32"):
            table = _extf(element_type("f16"), element_type("f32"), halves).astype(np.float32)
            found = _table_lookup(table)
        elif key == ("arith.truncf", "f32", "f16"):
            a, b = _probe_operands(np.float32)
            wide = halves.astype(np.float32).view(np.uint32)
            ties = wide + np.uint32(1 << 12)
            values = np.concatenate([a, b, wide.view(np.float32), ties.view(np.float32),
                                     (ties - 1).view(np.float32), (ties + 1).view(np.float32)])
            want = _truncf(element_type("f32"), element_type("f16"), values)
            if np.array_equal(want.view(np.uint16), _to_f16_quieting(values).view(np.uint16)):
                found = _to_f16_quieting
    _NATIVE_CASTS[key] = found
    return found


def _table_lookup(table: np.ndarray):
    def convert(a):
        return table[a.view(np.uint16)]

    return convert


def _to_f16_quieting(a: np.ndarray) -> np.ndarray:
    """float32 -> float16 by numpy's direct conversion; a NaN gets the code the detour
    through float64 gives it (made quiet, then its payload's top bits)."""
    r = a.astype(np.float16)
    nan = np.isnan(r)
    if nan.any():
        bits = a.view(np.uint32)[nan]
        r.view(np.uint16)[nan] = (((bits >> 16) & 0x8000) | 0x7C00
                                  | (((bits | 0x400000) >> 13) & 0x3FF)).astype(np.uint16)
    return r


@_register_cast("sitofp", "int", "float")
def _sitofp(et, rt, a):
    """Signed integer to float, rounded to the result type."""
    return round_to(rt, signed(et, a).astype(np.float64))


@_register_cast("uitofp", "int", "float")
def _uitofp(et, rt, a):
    """Unsigned integer to float, rounded to the result type."""
    return round_to(rt, unsigned(et, a).astype(np.float64))


def _float_to_int(values, low: int, high: int):
    """Truncate toward zero, NaN -> 0, saturate to [low, high]; returns int64 or uint64."""
    v = np.trunc(values.astype(np.float64))
    above = v >= float(high) + 1.0  # high+1 is a power of two: exact in float64
    below = v < float(low)
    bad = above | below | np.isnan(v)
    target = np.uint64 if high >= 1 << 63 else np.int64
    inside = np.where(bad, 0.0, v).astype(target)
    return np.where(above, target(high), np.where(below, target(low), inside))


@_register_cast("fptosi", "float", "int")
def _fptosi(et, rt, a):
    """Float to signed integer: truncate toward zero, saturate, NaN -> 0."""
    low, high = signed_range(rt)
    return wrap_int(rt, _float_to_int(a, low, high))


@_register_cast("fptoui", "float", "int")
def _fptoui(et, rt, a):
    """Float to unsigned integer: truncate toward zero, saturate to [0, 2**w-1], NaN -> 0."""
    return wrap_int(rt, _float_to_int(a, 0, unsigned_max(rt)))


@_register_cast("extsi", "int", "int")
def _extsi(et, rt, a):
    """Sign-extend."""
    _require_width(rt, et, "wider")
    return wrap_int(rt, signed(et, a).astype(np.int64))


@_register_cast("extui", "int", "int")
def _extui(et, rt, a):
    """Zero-extend."""
    _require_width(rt, et, "wider")
    return wrap_int(rt, unsigned(et, a))


@_register_cast("trunci", "int", "int")
def _trunci(et, rt, a):
    """Keep the low bits."""
    _require_width(rt, et, "narrower")
    return wrap_int(rt, unsigned(et, a))


def _check_index_cast(et, rt):
    if (et.name == "index") == (rt.name == "index"):
        raise ExecutionError(f"index_cast needs exactly one index side, got {et.name} -> {rt.name}")


@_register_cast("index_cast", "int", "int")
def _index_cast(et, rt, a):
    """index <-> iN: sign-extend when widening, keep low bits when narrowing."""
    _check_index_cast(et, rt)
    return wrap_int(rt, signed(et, a).astype(np.int64))


@_register_cast("index_castui", "int", "int")
def _index_castui(et, rt, a):
    """index <-> iN: zero-extend when widening, keep low bits when narrowing."""
    _check_index_cast(et, rt)
    return wrap_int(rt, unsigned(et, a))


@register("arith.bitcast", 1, "any", needs_result_type=True)
def _bitcast(et, rt, a):
    """Reinterpret the stored bits as another type of the same size (df16: its uint16 code)."""
    if et.size != rt.size or (et.width == 1) != (rt.width == 1):
        raise ExecutionError(f"cannot bitcast {et.name} ({et.size} bytes) to {rt.name} ({rt.size} bytes)")
    return from_bits(rt, to_bits(et, a))
