"""xDSL types -> the element-type names of `emulator.numerics` and numpy shapes."""

from __future__ import annotations

from functools import lru_cache

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    MemRefType,
    TensorType,
)
from xdsl.ir import Attribute

from spyre_sched.dialects.spyreop import DF16Type
from spyre_sched.errors import UnsupportedError


@lru_cache(maxsize=None)
def element_name(type_: Attribute) -> str:
    """"f16", "df16", "i32", "index", ... for a scalar type or the element type of a shaped one."""
    if isinstance(type_, TensorType | MemRefType):
        type_ = type_.element_type
    if isinstance(type_, Float16Type):
        return "f16"
    if isinstance(type_, Float32Type):
        return "f32"
    if isinstance(type_, Float64Type):
        return "f64"
    if isinstance(type_, BFloat16Type):
        return "bf16"
    if isinstance(type_, DF16Type):
        return "df16"
    if isinstance(type_, IndexType):
        return "index"
    if isinstance(type_, IntegerType):
        return f"i{type_.width.data}"
    raise UnsupportedError(f"element type {type_} is not supported by the reference interpreter")


def static_shape(type_: Attribute) -> tuple[int, ...] | None:
    """The shape of a tensor/memref type, or None when a dimension is dynamic."""
    shape = tuple(type_.get_shape())  # type: ignore[attr-defined]
    return None if any(d < 0 for d in shape) else shape
