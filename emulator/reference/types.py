"""xDSL types -> the element-type names of `emulator.numerics` and numpy shapes."""

from __future__ import annotations

from functools import lru_cache

from xdsl.dialects.builtin import MemRefType, TensorType
from xdsl.ir import Attribute

from emulator.numerics import ELEMENT_TYPES
from spyre_sched.errors import UnsupportedError
from spyre_sched.polyhedral.views import element_name as polyhedral_element_name


@lru_cache(maxsize=None)
def element_name(type_: Attribute) -> str:
    """"f16", "df16", "i32", "index", ... for a scalar type or the element type of a shaped one
    (the polyhedral layer's naming), refused unless the shared numerics define it."""
    if isinstance(type_, TensorType | MemRefType):
        type_ = type_.element_type
    name = polyhedral_element_name(type_)
    if name not in ELEMENT_TYPES:
        raise UnsupportedError(f"element type {type_} is not supported by the reference interpreter")
    return name
