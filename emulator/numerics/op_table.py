"""The table of scalar-op semantics and the one entry point `apply_op`.

Every op is registered once under its full IR name ("arith.addf", "math.exp",
"spyreop.gelu") with an `OpSpec`: how many array operands it takes, which element types it
accepts, its attributes (with defaults), and a vectorised numpy implementation.  The KTIR
reference interpreter and the device emulator both call `apply_op`, so they share every
rounding decision.

Calling convention::

    apply_op(name, element_type, *operands, result_type=None, **attrs)

* ``element_type`` is the element type of the op's operands ("f16", "df16", "i32", ...);
  for `arith.select`/`spyreop.select` it is the type of the two chosen values.
* ``result_type`` is required by casts (extf, truncf, sitofp, fptosi, extsi, trunci,
  index_cast, bitcast, ...) and ignored otherwise (comparisons give i1, everything else the
  operand type).
* operands are numpy arrays (or scalars) that broadcast together.  An operand already of the
  type's value dtype is trusted to hold values of the type; any other dtype is first
  converted (floats rounded to the type, integers wrapped).
* the result is in the value representation of the result type (see `element_types`); a
  few ops (`spyreop.exx2`) return a tuple of arrays.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from spyre_sched.errors import ExecutionError, UnsupportedError

from .element_types import ElementType, element_type, round_to, wrap_int

REQUIRED = object()  # marks an attribute without a default

# Attributes an IR op may carry that never change the numbers we compute.
IGNORED_ATTRS = frozenset({"fastmath", "overflowFlags", "overflow_flags"})


@dataclass(frozen=True)
class OpSpec:
    """Semantics of one scalar op."""

    name: str
    impl: Callable[..., Any]  # impl(et, result_type, operands: list[ndarray], **attrs)
    arity: int
    operand_kind: str  # "float" | "int" | "any"
    attrs: Mapping[str, Any] = field(default_factory=dict)
    allowed_types: frozenset[str] | None = None
    needs_result_type: bool = False
    result_kind: str = "any"  # kind a given result_type must have: "float" | "int" | "any"
    condition_first: bool = False  # first operand is an i1 (arith.select)
    doc: str = ""


OPS: dict[str, OpSpec] = {}


def register(name: str, arity: int, operand_kind: str, **spec_fields) -> Callable:
    """Decorator: register `impl` as the semantics of op `name`."""

    def wrap(impl: Callable) -> Callable:
        if name in OPS:
            raise RuntimeError(f"op {name} registered twice")
        OPS[name] = OpSpec(name, impl, arity, operand_kind, doc=(impl.__doc__ or "").strip(), **spec_fields)
        return impl

    return wrap


def as_values(et: ElementType, operand) -> np.ndarray:
    """Bring one operand into the value representation of `et` (see module doc)."""
    arr = np.asarray(operand)
    if arr.dtype == et.value_dtype:
        return arr
    if et.is_float:
        if arr.dtype.kind not in "fiub":
            raise ExecutionError(f"operand of dtype {arr.dtype} is not a number")
        return round_to(et, arr.astype(np.float64))
    if arr.dtype.kind == "f":
        raise ExecutionError(f"float operand given for integer type {et.name}")
    return wrap_int(et, arr)


def op_spec(name: str) -> OpSpec:
    """The spec of an op, or an `UnsupportedError` naming it."""
    try:
        return OPS[name]
    except KeyError:
        raise UnsupportedError(f"no scalar semantics for op '{name}'", f"op {name}") from None


def apply_op(name: str, element_type_name, *operands, result_type=None, **attrs):
    """Run op `name` elementwise over numpy arrays; see the module docstring."""
    spec = op_spec(name)
    where = f"op {name}"
    et = element_type(element_type_name)
    if spec.operand_kind != "any" and et.kind != spec.operand_kind:
        raise ExecutionError(f"needs {spec.operand_kind} operands, got element type {et.name}", where)
    if spec.allowed_types is not None and et.name not in spec.allowed_types:
        allowed = ", ".join(sorted(spec.allowed_types))
        raise UnsupportedError(f"element type {et.name} not supported (only {allowed})", where)
    if len(operands) != spec.arity:
        raise ExecutionError(f"takes {spec.arity} operand(s), got {len(operands)}", where)
    values = {}
    for key, val in attrs.items():
        if key in IGNORED_ATTRS:
            continue
        if key not in spec.attrs:
            known = ", ".join(spec.attrs) or "none"
            raise UnsupportedError(f"unknown attribute '{key}' (known: {known})", where)
        values[key] = val
    for key, default in spec.attrs.items():
        if key not in values:
            if default is REQUIRED:
                raise ExecutionError(f"missing attribute '{key}'", where)
            values[key] = default
    rt = None
    if spec.needs_result_type:
        if result_type is None:
            raise ExecutionError("needs result_type", where)
        rt = element_type(result_type)
        if spec.result_kind != "any" and rt.kind != spec.result_kind:
            raise ExecutionError(f"result type must be {spec.result_kind}, got {rt.name}", where)
    try:
        with np.errstate(all="ignore"):
            arrays = [
                as_values(element_type("i1") if i == 0 and spec.condition_first else et, operand)
                for i, operand in enumerate(operands)
            ]
            result = spec.impl(et, rt, *arrays, **values)
    except ExecutionError as err:
        if err.location is None:
            raise type(err)(err.message, where) from None
        raise
    # numpy hands back scalars for 0-d inputs; callers always get arrays.
    if isinstance(result, tuple):
        return tuple(np.asarray(r) for r in result)
    return np.asarray(result)
