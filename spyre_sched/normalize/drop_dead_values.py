"""Normal-form pass `drop-dead-values`: a value the kernel computes but never uses,
directly or through other values, is removed with the ops that make it.

The scheduler builds a program from what reaches a store; a compute op whose result
reaches no store belongs to no chain and would be left behind, its operands gone, when the
chain is rebuilt as a pipeline. Computing has no effect other than its result, so dropping
it changes nothing the kernel stores. ktdp ops (views, tiles, loads) stay: an argument's
accesses are what make it a pointer of the kernel, whether or not their data is used.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from spyre_sched.normalize.common import kernel_of

NAME = "drop-dead-values"

#: dialects whose ops only compute their results (tensor-level compute and index math)
_PURE_DIALECTS = frozenset({"linalg", "tensor", "arith", "math", "spyreop"})


def _droppable(op: Operation) -> bool:
    # ops without results (stores, yields, returns) are never dropped
    return (op.results != () and not any(result.uses for result in op.results)
            and op.name.split(".", 1)[0] in _PURE_DIALECTS)


@dataclass(frozen=True)
class DropDeadValues(ModulePass):
    """Erase, last op first, every pure compute op none of whose results is used."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in kernel_of(op):
            # One walk from the end: an op's users come after it, so erasing in reverse
            # order frees its operands' producers before they are reached.
            for inner in list(fn.body.walk(reverse=True)):
                if inner.parent is not None and _droppable(inner):
                    inner.detach()
                    inner.erase()
