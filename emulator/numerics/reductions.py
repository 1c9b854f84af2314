"""Reductions (`linalg.reduce`, reducing `linalg.generic`, `spyreop.slice_reduction`).

Shared semantics, which both executors must follow:

* floats (f16, bf16, df16, f32, f64) accumulate in **float64** and are rounded to the element
  type **once**, at the end.  float64 holds every sum of up to 8192 16-bit-float values
  exactly, so a reduction split across cores or chunks in any order gives bit-identical
  results; for f32 the order can only matter in the last float64 bits, far below f32's.
  A partial result that will be combined further must stay in float64
  (`round_result=False`) and be rounded with `round_to` only when final.
* `max`/`min` propagate NaN (like `arith.maximumf`); `maxnum`/`minnum` ignore NaN; -0 < +0.
* integers accumulate in 64-bit and wrap to the type at the end (the same as wrapping every
  step); `max`/`min` read signed, `maxu`/`minu` unsigned.
* `init` (the reduction's initial value, e.g. linalg.reduce's init operand) is combined with
  the accumulated value before the final rounding.  Reducing zero elements gives the identity.
"""

from __future__ import annotations

import numpy as np

from spyre_sched.errors import ExecutionError

from . import ieee_minmax
from .element_types import ElementType, element_type, round_to, wrap_int
from .int_views import signed, signed_range, unsigned, unsigned_max

FLOAT_KINDS = ("add", "mul", "max", "min", "maxnum", "minnum")
INT_KINDS = ("add", "mul", "max", "min", "maxu", "minu", "and", "or", "xor")

# Combiner op of a linalg.reduce body -> reduction kind.
REDUCTION_KIND_OF_OP = {
    "arith.addf": "add", "arith.mulf": "mul",
    "arith.maximumf": "max", "arith.minimumf": "min",
    "arith.maxnumf": "maxnum", "arith.minnumf": "minnum",
    "arith.addi": "add", "arith.muli": "mul",
    "arith.maxsi": "max", "arith.minsi": "min", "arith.maxui": "maxu", "arith.minui": "minu",
    "arith.andi": "and", "arith.ori": "or", "arith.xori": "xor",
}

_FLOAT_REDUCE = {
    "add": (np.add, 0.0), "mul": (np.multiply, 1.0),
    "max": (np.maximum, -np.inf), "min": (np.minimum, np.inf),
    "maxnum": (np.fmax, -np.inf), "minnum": (np.fmin, np.inf),
}
_FLOAT_COMBINE = {
    "add": np.add, "mul": np.multiply,
    "max": ieee_minmax.maximum, "min": ieee_minmax.minimum,
    "maxnum": ieee_minmax.maxnum, "minnum": ieee_minmax.minnum,
}


def _normalize_axes(axes, ndim: int) -> tuple[int, ...]:
    if axes is None:
        return tuple(range(ndim))
    if isinstance(axes, (int, np.integer)):
        axes = (int(axes),)
    out = []
    for ax in axes:
        if not -ndim <= ax < ndim:
            raise ExecutionError(f"reduction axis {ax} out of range for rank {ndim}")
        out.append(ax % ndim)
    if len(set(out)) != len(out):
        raise ExecutionError(f"reduction axes {tuple(axes)} repeat an axis")
    return tuple(sorted(out))


def _float_reduce(kind: str, acc: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    if not axes:
        return acc
    ufunc, identity = _FLOAT_REDUCE[kind]
    if kind in ("add", "mul"):
        out = ufunc.reduce(acc, axis=axes)
        if kind == "add" and all(acc.shape[a] for a in axes):
            # numpy's sum starts from +0; IEEE gives -0 when every term is -0.
            all_negative_zero = np.all((acc == 0) & np.signbit(acc), axis=axes)
            out = np.where(all_negative_zero, -0.0, out)
    else:
        out = ufunc.reduce(acc, axis=axes, initial=identity)  # empty max/min -> identity
    if kind in ("max", "min", "maxnum", "minnum"):
        # ufunc max/min may return either zero for {-0, +0}: order -0 < +0 explicitly.
        want_positive = kind in ("max", "maxnum")
        zeros = acc == 0
        has = np.any(zeros & (np.signbit(acc) != want_positive), axis=axes)
        out = np.where((out == 0) & has, 0.0 if want_positive else -0.0, out)
    return np.asarray(out, dtype=np.float64)


def _int_reduce(kind: str, et: ElementType, values: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    if kind in ("maxu", "minu"):
        u = unsigned(et, values).astype(np.uint64)
        if kind == "maxu":
            return np.maximum.reduce(u, axis=axes, initial=np.uint64(0))
        return np.minimum.reduce(u, axis=axes, initial=np.uint64(unsigned_max(et)))
    s = signed(et, values).astype(np.int64)
    low, high = signed_range(et)
    table = {
        "add": (np.add, 0), "mul": (np.multiply, 1), "max": (np.maximum, low),
        "min": (np.minimum, high), "and": (np.bitwise_and, -1), "or": (np.bitwise_or, 0),
        "xor": (np.bitwise_xor, 0),
    }
    ufunc, identity = table[kind]
    return ufunc.reduce(s, axis=axes, initial=np.int64(identity))


def _int_combine(kind: str, et: ElementType, a, b):
    if kind in ("maxu", "minu"):
        fn = np.maximum if kind == "maxu" else np.minimum
        return fn(np.asarray(a).astype(np.uint64), unsigned(et, b).astype(np.uint64))
    fn = {"add": np.add, "mul": np.multiply, "max": np.maximum, "min": np.minimum,
          "and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}[kind]
    return fn(np.asarray(a).astype(np.int64), signed(et, b).astype(np.int64))


def reduce(kind: str, array, axes, element_type_name, init=None, round_result: bool = True):
    """Reduce `array` (values of the element type) over `axes` (int, tuple, or None = all).

    `kind` is one of FLOAT_KINDS / INT_KINDS, or a combiner op name from
    REDUCTION_KIND_OF_OP.  With `round_result=False` the float64 (floats) or int64/uint64
    (integers) accumulator is returned unrounded, for combining partial reductions.
    """
    et = element_type(element_type_name)
    kind = REDUCTION_KIND_OF_OP.get(kind, kind)
    kinds = FLOAT_KINDS if et.is_float else INT_KINDS
    if kind not in kinds:
        raise ExecutionError(f"unknown {et.kind} reduction kind '{kind}' (known: {', '.join(kinds)})")
    arr = np.asarray(array)
    ax = _normalize_axes(axes, arr.ndim)
    with np.errstate(all="ignore"):
        if et.is_float:
            acc = _float_reduce(kind, arr.astype(np.float64), ax)
            if init is not None:
                acc = _FLOAT_COMBINE[kind](acc, np.asarray(init, dtype=np.float64))
            return round_to(et, acc) if round_result else acc
        acc = _int_reduce(kind, et, arr, ax)
        if init is not None:
            acc = _int_combine(kind, et, acc, np.asarray(init).astype(et.value_dtype))
        return wrap_int(et, acc) if round_result else acc
