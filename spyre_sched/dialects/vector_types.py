"""Verifier checks on vector types that more than one dialect makes.

Not a dialect: a helper module of the dialects room (xdsl only), so `dataflow` and
`vectorchain` refuse a dynamic or empty vector with the same words.
"""

from __future__ import annotations

from xdsl.dialects.builtin import VectorType
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import VerifyException


def static_vector(op: Operation, type_: Attribute, what: str) -> VectorType:
    """`type_` as a vector with a static, non-empty shape, or a VerifyException naming `op`."""
    if not isinstance(type_, VectorType) or any(d <= 0 for d in type_.get_shape()):
        raise VerifyException(f"{op.name}: {what} must be a vector with a static, non-empty shape")
    return type_
