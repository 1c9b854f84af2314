"""Normal-form pass `split-at-part-edges`: a loop whose access through a distributed view
reaches one part per iteration, but different parts over its iterations, is split into
consecutive loops at the iterations where the part changes.

A copy loop over a tensor whose halves are two arrays (`scf.for %off = 0 to 2*s step 32`
over columns held by `%A0` below `s` and by `%A1` from `s` on) reads one part per
iteration, but the access as written reaches both, so no one view can replace the
distributed view for it. Split at `s`, each loop's copy of the access reaches one part,
and `resolve-distributed-views` gives each its part's view (its `access` resolution). The
loops keep the step and the body; values the loop carries pass from each loop to the next,
so the iterations run in the same order with the same values. Only loops with constant
bounds are split, when every iteration's access reaches at most one part on every tile
(`polyhedral.distributed.part_edges`).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from spyre_sched.dialects import ktdp
from spyre_sched.normalize.common import kernel_of, note_origin
from spyre_sched.polyhedral.distributed import part_edges, spans_parts
from spyre_sched.polyhedral.kernel_model import KernelModel

NAME = "split-at-part-edges"

def _index(value: int) -> arith.ConstantOp:
    return arith.ConstantOp(IntegerAttr(value, IndexType()))


def _split(loop: Operation, edges: list[int]) -> None:
    """`loop` -> one loop per run: [lb, e1), [e1, e2), ..., [ek, ub), chained through
    the values it carries."""
    at = InsertPoint.before(loop)
    bounds = [loop.operands[0]]
    for edge in edges:
        constant = _index(edge)
        constant.result.name_hint = f"c{edge}"
        note_origin([constant], loop)
        Rewriter.insert_op(constant, at)
        bounds.append(constant.result)
    bounds.append(loop.operands[1])
    carried = list(loop.operands[3:])
    last = None
    for lower, upper in zip(bounds, bounds[1:]):
        piece = loop.clone()
        piece.operands = [lower, upper, loop.operands[2], *carried]
        note_origin([piece], loop)
        Rewriter.insert_op(piece, at)
        carried = list(piece.results)
        last = piece
    assert last is not None
    for old, new in zip(loop.results, last.results):
        old.replace_by(new)
    Rewriter.erase_op(loop)


@dataclass(frozen=True)
class SplitAtPartEdges(ModulePass):
    """Split loops at the iterations where an access through a distributed view moves from
    one part to the next."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in kernel_of(op):
            if not any(isinstance(o, ktdp.ConstructDistributedMemoryViewOp) for o in fn.walk()):
                continue
            for _ in range(64):  # one split per round: the model is rebuilt after each
                model = KernelModel(fn)
                found = None
                for access in model.accesses:
                    if spans_parts(model, access):
                        found = part_edges(model, access)
                        if found is not None:
                            break
                if found is None:
                    break
                _split(*found)
