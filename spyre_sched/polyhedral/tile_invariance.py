"""Does a store do the same thing in every compute tile?

A store is tile-invariant when nothing it depends on can differ between tiles: its
stored value, its access tile's subscripts, the bounds of the loops and the conditions
of the `scf.if`s around it, and everything those are computed from, reach neither the
tile id (`ktdp.get_compute_tile_id`) nor an inter-tile op, and read memory only through
views every tile sees alike (device memory, or a scratchpad named by its core). A view
of the executing core's own scratchpad (`ct_local` without `ct_id`) names a different
memory in each tile, so reading through it (data or an indirect tile's indices) makes
the store tile-dependent.

Every tile then runs the same sequence of such stores with the same values (what they
read is the same memory, and a store of another tile into it that is not ordered before
the read is a read/write race, reported on its own). Two tiles writing one element
through tile-invariant stores is thus not a race: whatever the interleaving, the element
ends with the value the last of those stores in the common sequence writes. The test is
on the IR's data flow, so it errs on the side of "dependent": a store whose subscripts
use the tile id only times zero is dependent here.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue

from spyre_sched.dialects.ktdp import ConstructMemoryViewOp, GetComputeTileIdOp, LoadOp
from spyre_sched.polyhedral.accesses import AccessModel


def _differs_by_tile(op: Operation, loads: dict[int, AccessModel]) -> bool:
    """The tile id, an inter-tile op, a view of the executing core's own scratchpad (a
    load's data or an indirect tile's index tensor read there), or a load the model
    does not know."""
    if isinstance(op, GetComputeTileIdOp) or op.name.startswith("ktdp.inter_tile"):
        return True
    if isinstance(op, ConstructMemoryViewOp):
        return op.memory_space.space == "ct_local" and op.memory_space.tile is None
    return isinstance(op, LoadOp) and id(op) not in loads


class TileInvariance:
    """Answers "is this store tile-invariant?" for one kernel, remembering what it saw."""

    def __init__(self, accesses: list[AccessModel]):
        self._loads = {id(a.op): a for a in accesses if a.kind == "load"}
        self._known: dict[int, bool] = {}

    def store_is_invariant(self, access: AccessModel) -> bool:
        return self._invariant(access.op)

    def _invariant(self, root: Operation) -> bool:
        """No op reached from `root` backwards differs by tile: what it reads, the
        definitions of those values (with what their nested ops read: an `scf.if`'s
        yields, a generic's body), and the operands of every op enclosing any of them
        (loop bounds, conditions), up to the function, whose arguments every tile
        shares."""
        if id(root) in self._known:
            return self._known[id(root)]
        seen: set[tuple[int, bool]] = set()
        pending: list[tuple[Operation, bool]] = [(root, True)]
        answer = True
        while pending:
            op, whole = pending.pop()
            if (id(op), whole) in seen:
                continue
            seen.add((id(op), whole))
            if _differs_by_tile(op, self._loads):
                answer = False
                break
            for value in (_inputs(op) if whole else op.operands):
                pending.extend(_sources(value))
            parent = op.parent_op()
            if parent is not None and not isinstance(parent, (FuncOp, ModuleOp)):
                pending.append((parent, False))
        self._known[id(root)] = answer
        return answer


def _inputs(op: Operation):
    """The values `op` reads: its operands and those its nested ops read."""
    yield from op.operands
    for region in op.regions:
        for block in region.blocks:
            for inner in block.ops:
                yield from _inputs(inner)


def _sources(value: SSAValue) -> list[tuple[Operation, bool]]:
    """The ops a value comes from, each with whether what its nested ops read counts: its
    defining op (it does); for a block argument, the op owning the block (its operands
    only: bounds, initial values, a generic's inputs) and the block's terminator (what
    each iteration passes on)."""
    if isinstance(value, OpResult):
        return [(value.op, True)]
    if isinstance(value, BlockArgument):
        block: Block = value.block
        owner = block.parent_op()
        if owner is None or isinstance(owner, (FuncOp, ModuleOp)):
            return []
        return [(owner, False)] + ([(block.last_op, True)] if block.last_op is not None else [])
    return []
