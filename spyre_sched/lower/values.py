"""Index values of a program, as the lowering sees them: affine forms.

Every `index` value of a ScheduleIR program is, per core, `sum(coeff * atom) + constant`,
where an atom is a kernel argument (known at launch: it becomes a symbol) or a value that
only exists while a unit runs (a loop counter, an instance index: a DataflowIR SSA value).
The constant may differ from core to core (it depends on the compute tile id): then it is
a tuple with one entry per core. Keeping addresses in this form is what lets the lowering
split an address into "argument + this grid element's share" (a symbol per core) and the
part the unit computes itself (loop offsets).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from xdsl.ir import SSAValue

from spyre_sched.errors import UnsupportedError

Atom = Union[str, SSAValue]  # a kernel argument name, or a DataflowIR value
Const = Union[int, tuple[int, ...]]  # the same on every core, or one entry per core


def _const_add(a: Const, b: Const) -> Const:
    if isinstance(a, int) and isinstance(b, int):
        return a + b
    n = len(a) if isinstance(a, tuple) else len(b)  # type: ignore[arg-type]
    aa = a if isinstance(a, tuple) else (a,) * n
    bb = b if isinstance(b, tuple) else (b,) * n
    return _simplify(tuple(x + y for x, y in zip(aa, bb)))


def _simplify(c: Const) -> Const:
    if isinstance(c, tuple) and c and all(x == c[0] for x in c):
        return c[0]
    return c


@dataclass(frozen=True)
class Form:
    terms: tuple[tuple[Atom, int], ...] = ()
    const: Const = 0

    @staticmethod
    def constant(value: Const) -> Form:
        return Form((), _simplify(value))

    @staticmethod
    def atom(atom: Atom) -> Form:
        return Form(((atom, 1),), 0)

    # ---- queries -----------------------------------------------------------------------

    @property
    def is_constant(self) -> bool:
        """No atoms and the same on every core: a compile-time integer."""
        return not self.terms and isinstance(self.const, int)

    @property
    def value(self) -> int:
        if not self.is_constant:
            raise UnsupportedError(
                "a value the lowering needs at compile time (a tile extent, a loop bound, a "
                "transfer size) depends on run-time values or on the compute tile"
            )
        assert isinstance(self.const, int)
        return self.const

    def arg_terms(self) -> tuple[tuple[str, int], ...]:
        return tuple((a, c) for a, c in self.terms if isinstance(a, str))

    def dyn_terms(self) -> tuple[tuple[SSAValue, int], ...]:
        return tuple((a, c) for a, c in self.terms if not isinstance(a, str))

    def const_at(self, core: int) -> int:
        return self.const if isinstance(self.const, int) else self.const[core]

    # ---- arithmetic --------------------------------------------------------------------

    def __add__(self, other: Form) -> Form:
        terms: dict[Atom, int] = {}
        for a, c in (*self.terms, *other.terms):
            terms[a] = terms.get(a, 0) + c
        return Form(tuple((a, c) for a, c in terms.items() if c), _const_add(self.const, other.const))

    def scale(self, k: int) -> Form:
        if k == 0:
            return Form.constant(0)
        const = self.const * k if isinstance(self.const, int) else tuple(x * k for x in self.const)
        return Form(tuple((a, c * k) for a, c in self.terms), _simplify(const))

    def __sub__(self, other: Form) -> Form:
        return self + other.scale(-1)

    def times(self, other: Form) -> Form | None:
        """The product when it stays affine (one side a compile-time constant, or both
        constant per core), else None."""
        if other.is_constant:
            return self.scale(other.value)
        if self.is_constant:
            return other.scale(self.value)
        if not self.terms and not other.terms:
            n = len(self.const) if isinstance(self.const, tuple) else len(other.const)  # type: ignore[arg-type]
            a = self.const if isinstance(self.const, tuple) else (self.const,) * n
            b = other.const if isinstance(other.const, tuple) else (other.const,) * n
            return Form.constant(tuple(x * y for x, y in zip(a, b)))
        return None

    def split(self) -> tuple[Form, Form]:
        """(launch-time part: arguments and constants, run-time part: unit values)."""
        return Form(self.arg_terms(), self.const), Form(self.dyn_terms(), 0)
