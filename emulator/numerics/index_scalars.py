"""`index` arithmetic on Python ints: the fast path for loop counters and address offsets.

Executors keep scalar `index` values as Python ints (no numpy boxing per loop iteration).
These functions give exactly the op table's results for the `index` type (64-bit, signless:
the op reads the bits signed or unsigned), with one deliberate difference: where a signed
op's exact result does not fit in 64 bits (the table wraps it), an index computation is
refused with an `ExecutionError`: address arithmetic that wraps builds views that cannot
exist, so it is a bug in the kernel, not a value.
"""

from __future__ import annotations

import operator
from collections.abc import Callable

from spyre_sched.errors import ExecutionError

INDEX_BITS = 64
_MODULUS = 1 << INDEX_BITS
_MASK = _MODULUS - 1
_INDEX_RANGE = range(-(1 << (INDEX_BITS - 1)), 1 << (INDEX_BITS - 1))


def _unsigned(a: int) -> int:
    return a & _MASK


def _signed(a: int) -> int:
    a &= _MASK
    return a - _MODULUS if a >> (INDEX_BITS - 1) else a


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


# name -> (exact function on the operands' readings, reads unsigned, may divide)
_BINARY: dict[str, tuple[Callable[[int, int], int], bool, bool]] = {
    "arith.addi": (operator.add, False, False),
    "arith.subi": (operator.sub, False, False),
    "arith.muli": (operator.mul, False, False),
    "arith.divsi": (_trunc_div, False, True),
    "arith.remsi": (lambda a, b: a - _trunc_div(a, b) * b, False, True),
    "arith.floordivsi": (operator.floordiv, False, True),
    "arith.ceildivsi": (lambda a, b: -(-a // b), False, True),
    "arith.maxsi": (max, False, False),
    "arith.minsi": (min, False, False),
    "arith.divui": (operator.floordiv, True, True),
    "arith.remui": (operator.mod, True, True),
    "arith.maxui": (max, True, False),
    "arith.minui": (min, True, False),
    "arith.andi": (operator.and_, True, False),
    "arith.ori": (operator.or_, True, False),
    "arith.xori": (operator.xor, True, False),
}

INDEX_BINARY_OPS = frozenset(_BINARY)
"""The binary ops `index_binary` computes; others go through the op table."""

# Predicate numbers as arith.cmpi encodes them (eq ne slt sle sgt sge ult ule ugt uge).
_CMPI = {0: (operator.eq, False), 1: (operator.ne, False), 2: (operator.lt, False),
         3: (operator.le, False), 4: (operator.gt, False), 5: (operator.ge, False),
         6: (operator.lt, True), 7: (operator.le, True), 8: (operator.gt, True),
         9: (operator.ge, True)}


def index_binary(name: str, a: int, b: int) -> int:
    """`name` (e.g. "arith.divui") on two index values held as signed Python ints."""
    fn, reads_unsigned, divides = _BINARY[name]
    if reads_unsigned:
        a, b = _unsigned(a), _unsigned(b)
    if divides and b == 0:
        raise ExecutionError("integer division by zero")
    value = fn(a, b)
    if reads_unsigned:
        return _signed(value)
    if value not in _INDEX_RANGE:
        raise ExecutionError(
            f"operands ({a}, {b}) give {value}, which overflows a 64-bit index")
    return value


def index_compare(predicate: int, a: int, b: int) -> bool:
    """`arith.cmpi` with predicate number `predicate` on two index values."""
    relation, reads_unsigned = _CMPI[predicate]
    if reads_unsigned:
        return relation(_unsigned(a), _unsigned(b))
    return relation(a, b)
