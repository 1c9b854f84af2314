"""What the static analyses cannot model exactly, and why: nothing is skipped silently.

Two kinds of gap:

* an access through an indirect tile (`ktdp.construct_indirect_access_tile`): some of its
  coordinates are read from memory at run time. Its touched set is over-approximated by
  every coordinate of the view in those dims, so out-of-bounds, race and coverage checks
  cannot say anything definite about it and leave it out; placement (`placement.pieces`)
  uses that over-approximation, marked `Piece.exact = False`;
* two accesses through different views of one tensor in one memory where a view has
  dynamic strides: their elements cannot be compared (neither by coordinate nor by
  address), so their races are not checked and a dependence between them is *assumed*
  (`dependences` reports it with `assumed` set), so no pass reorders what it cannot see.

`unmodelled(model)` lists every gap; `spyre-sched check` prints each as
"not checked: <op> at <location>: <why>".
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Operation

from spyre_sched.polyhedral.accesses import AccessModel
from spyre_sched.polyhedral.kernel_model import KernelModel

INDIRECT = ("an indirect access tile reads its coordinates from memory at run time, so "
            "out-of-bounds, race and coverage checks leave it out (placement takes every "
            "coordinate of the view it may index)")


@dataclass(frozen=True)
class Unmodelled:
    op: Operation
    """The access (ktdp.load / ktdp.store) that is not checked."""
    why: str
    other: Operation | None = None
    """The second access, for a pair that cannot be compared."""


def incomparable(a: AccessModel, b: AccessModel) -> str | None:
    """Why the elements `a` and `b` touch cannot be compared, or None when they can."""
    for p1 in a.view.parts:
        for p2 in b.view.parts:
            if p1.memory.space != p2.memory.space or p1.root_key != p2.root_key:
                continue
            if p1 is not p2 and not (p1.has_address() and p2.has_address()):
                return ("the two accesses go through different views of one tensor, one "
                        "with dynamic strides: their elements cannot be compared")
    return None


def unmodelled(model: KernelModel) -> list[Unmodelled]:
    """Every access the checks leave out, and every pair they cannot compare, in program
    order."""
    found = [Unmodelled(a.op, INDIRECT) for a in model.accesses if not a.exact]
    accesses = model.accesses
    for i, first in enumerate(accesses):
        for second in accesses[i:]:
            if "store" not in (first.kind, second.kind):
                continue
            reason = incomparable(first, second)
            if reason is None:
                continue
            what = ("write races between them are not checked" if first.kind == second.kind
                    else "a dependence between them is assumed")
            found.append(Unmodelled(first.op, f"{reason} ({what})", second.op))
    return found
