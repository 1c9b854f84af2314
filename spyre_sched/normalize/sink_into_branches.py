"""Normal-form pass `sink-into-branches`: tensors computed before an `scf.if` and used
only under it are computed under it.

A guarded writer loads and computes first and stores under a condition (`scf.if` on the
tile id or an argument). A program is a load -> compute -> store chain in one block, and
the orchestrator keeps the `scf.if`, so the chain that feeds the branch is moved into
each branch that reads it (cloned into both when both do; left where it was as well when
code after the `scf.if` also reads it). The chain is the loads, fills, empties and
generics the branch's tensors need, in their order.

Moving a load later is exact when no store runs between the load and the branch: the
pass sinks nothing across a `ktdp.store` (the stored bytes might be the loaded ones).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import scf, tensor
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.dialects.linalg.ops import FillOp, GenericOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from spyre_sched.dialects import ktdp
from spyre_sched.normalize.common import kernel_of

NAME = "sink-into-branches"

_MOVABLE = (ktdp.LoadOp, tensor.EmptyOp, FillOp, GenericOp)


def outside_tensors(region_op: Operation, block: Block) -> list[SSAValue]:
    """Tensor values used inside `region_op` that are defined by ops of `block`."""
    found: list[SSAValue] = []
    for inner in region_op.walk():
        if inner is region_op:
            continue
        for value in inner.operands:
            if isinstance(value.type, TensorType) and isinstance(value.owner, Operation) \
                    and value.owner.parent_block() is block and value not in found:
                found.append(value)
    return found


def chain_of(values: list[SSAValue], block: Block) -> list[Operation] | None:
    """The ops of `block` that compute `values` through tensors, in block order; None if
    one of them cannot move."""
    needed: set[Operation] = set()
    work = [v.owner for v in values]
    while work:
        op = work.pop()
        if not isinstance(op, Operation) or op in needed or op.parent_block() is not block:
            continue
        if not isinstance(op, _MOVABLE):
            return None
        needed.add(op)
        work.extend(v.owner for v in op.operands if isinstance(v.type, TensorType))
        for inner in op.walk():  # tensors a generic's body reads are not inputs
            work.extend(v.owner for v in inner.operands if isinstance(v.type, TensorType))
    return [op for op in block.ops if op in needed]


def store_between(first: Operation, last: Operation) -> bool:
    op = first.next_op
    while op is not None and op is not last:
        if any(isinstance(inner, ktdp.StoreOp) for inner in op.walk()):
            return True
        op = op.next_op
    return False


def _sink(branch: scf.IfOp) -> bool:
    block = branch.parent_block()
    assert block is not None
    values = outside_tensors(branch, block)
    if not values:
        return False
    chain = chain_of(values, block)
    if not chain or store_between(chain[0], branch):
        return False
    for region in branch.regions:
        if not region.blocks:
            continue
        target = region.block
        used = [v for v in values
                if any(use.operation is not branch and region.is_ancestor(use.operation)
                       for use in v.uses)]
        if not used:
            continue
        mapping = clone_chain_at_start(chain, target)
        for value in used:
            value.replace_uses_with_if(
                mapping[value], lambda use: region.is_ancestor(use.operation))
    for op in reversed(chain):
        if all(not r.uses for r in op.results):
            Rewriter.erase_op(op)
    return True


@dataclass(frozen=True)
class SinkIntoBranches(ModulePass):
    """Move the loads and compute a `scf.if` branch reads into the branch."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in kernel_of(op):
            # outer conditions first: what moves into them may move on into inner ones
            for branch in [o for o in fn.walk() if isinstance(o, scf.IfOp)]:
                _sink(branch)


def clone_chain_at_start(chain: list[Operation], block: Block) -> dict[SSAValue, SSAValue]:
    """`chain` cloned, in order, at the start of `block`; what each old result became."""
    mapping: dict[SSAValue, SSAValue] = {}
    point = InsertPoint.at_start(block)
    for op in chain:
        new = op.clone(value_mapper=mapping)
        for old, fresh in zip(op.results, new.results):
            mapping[old] = fresh
            fresh.name_hint = old.name_hint
        Rewriter.insert_op(new, point)
        point = InsertPoint.after(new)
    return mapping
