"""Pass 8d, hoist-inner-invariants: fetch an input once per iteration of the tile loops it
depends on, not once per tile.

hoist-invariant-transfers takes an input out of the whole tile nest when its transfer does
not depend on the outermost tile loop and all of it fits. A matmul's A depends on the row
tile loop but not on the column tile loop inside it: each row tile of A (T0 x K) is
fetched again for every column tile, once per output tile. At 4096^3 on spyre that is
512 KiB per 64 x 128 output tile next to B's 1 MiB panel, and device memory, not the
matrix units, sets the pace (1.31x of the MAC bound). Here such a fill moves out of the
inner loops it does not depend on, into a run-once pipeline in the body of the
innermost loop it does depend on:

    for t0 { n0 = derive_size; for t1 { n1 = derive_size; pipeline modulo(?) {
        private { A tile, B tile, ... }
        stage [dma]: A[row + t0, 0] size [n0, K] -> A tile; B[...] -> B tile
        ... } } }

becomes

    for t0 { n0 = derive_size; pipeline { private { A tile }
        stage [dma]: A[row + t0, 0] size [n0, K] -> A tile
        stage: for t1 { n1 = derive_size; pipeline modulo(?) {
            private { B tile, ... }
            stage [dma]: B[...] -> B tile
            ... (the reads of the A tile as before) } } } }

The buffer keeps its shape and its readers their subscripts (the same tile of the dims
it uses); it leaves the tile pipeline's slots (one copy instead of one per stage in
flight). All fills that leave the same loops move into one such pipeline, and fills that
put the same data into the same kind of buffer become one buffer, filled once: an FFN's
gate = X @ Wg and up = X @ Wu, fused in one tile pipeline, each fetch X's row tile into
a buffer of their own until here. Done only when exact: the fill is a DMA-in from
outside the pipeline whose offsets and sizes depend on no index of the loops it leaves,
nothing else in the pipeline writes the buffer, and the loops form a perfect tile nest
(each body its tile's derive_size and the next loop or the pipeline).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import ModuleOp, UnitAttr
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from spyre_sched.dialects import ktdf
from spyre_sched.schedule.common import programs, structural_key
from spyre_sched.schedule.hoist import defined_inside, fill_of
from spyre_sched.schedule.ir_build import (
    depends_on,
    drop_resources,
    drop_stage,
    erase_dead,
    loop_dim,
    pipeline,
    rebuild,
    refresh_units,
)

NAME = "hoist-inner-invariants"
#: on the pipeline this pass makes: open-decisions names its depth by the loop it runs in
OUTER_FETCH_ATTR = "ktdf.outer_fetch"


def tile_loops_around(pipe: ktdf.PipelineOp) -> list[scf.ForOp]:
    """The perfect tile nest around `pipe`, outermost first: each loop's body is its
    tile's derive_size and then the next loop (or `pipe`)."""
    loops: list[scf.ForOp] = []
    child: Operation = pipe
    parent = pipe.parent_op()
    while isinstance(parent, scf.ForOp) and loop_dim(parent) is not None \
            and not ktdf.is_reduction_loop(parent) and not parent.iter_args \
            and isinstance(parent.step.owner, ktdf.ReserveSizeOp):
        body = [o for o in parent.body.block.ops if not isinstance(o, scf.YieldOp)]
        if len(body) != 2 or not isinstance(body[0], ktdf.DeriveSizeOp) or body[1] is not child:
            break
        loops.insert(0, parent)
        child, parent = parent, parent.parent_op()
    return loops


def _first_loop_left(transfer: ktdf.DataTransferOp, loops: list[scf.ForOp]) -> int | None:
    """The outermost depth j >= 1 such that the fill depends on no index of loops[j:]."""
    varying = [v for v in [*transfer.mixed_source_offsets(), *transfer.mixed_source_sizes(),
                           *transfer.mixed_dest_offsets(), *transfer.mixed_dest_sizes()]
               if isinstance(v, SSAValue)]
    for j in range(1, len(loops)):
        ivs = {loop.body.block.args[0] for loop in loops[j:]}
        if not any(depends_on(v, ivs) for v in varying):
            return j
    return None


def _invariant_fills(pipe: ktdf.PipelineOp, loops: list[scf.ForOp]) -> list[tuple]:
    """(buffer value, buffer op, stage, fill, j) for each input buffer of `pipe` filled only
    by a DMA-in that depends on no index of loops[j:]."""
    assert pipe.private is not None
    made = [o for o in pipe.private.body.block.ops if not isinstance(o, ktdf.PrivateYieldOp)]
    found = []
    for value, op in zip(pipe.private.res, made):
        if not isinstance(op, ktdf.BufferOp) or op.role.data != "input":
            continue
        fill = fill_of(pipe, value)
        if fill is None:
            continue
        writers = [u.operation for u in value.uses
                   if isinstance(u.operation, ktdf.DataTransferOp) and u.operation.dest == value]
        if writers != [fill[1]]:
            continue
        j = _first_loop_left(fill[1], loops)
        if j is not None:
            found.append((value, op, *fill, j))
    return found


def _fill_key(buffer: ktdf.BufferOp, transfer: ktdf.DataTransferOp, inside: Operation,
              memo: dict[SSAValue, object]) -> tuple:
    """Two fills with the same key put the same data into buffers of the same kind: their
    subscripts computed alike inside `inside` from the same values outside it
    (`structural_key`); a fill whose subscripts cannot be compared is only itself."""
    def outside(v: SSAValue) -> object | None:
        return ("value", id(v)) if not defined_inside(v, inside) else None
    sides = [tuple(structural_key(v, outside, memo) if isinstance(v, SSAValue) else ("const", v)
                   for v in side)
             for side in (transfer.mixed_source_offsets(), transfer.mixed_source_sizes(),
                          transfer.mixed_dest_offsets(), transfer.mixed_dest_sizes())]
    if any(k is None for side in sides for k in side):
        return ("fill", id(transfer))
    return (str(buffer.results[0].type), str(buffer.properties), str(buffer.attributes),
            id(transfer.source), transfer.mode, str(transfer.attributes), *sides)


def hoist_inner(pipe: ktdf.PipelineOp) -> int:
    """Move each input fill of tile pipeline `pipe` that the inner tile loops do not
    change out of them; returns how many moved. The fills that leave the same loops move
    together, into one run-once pipeline around that loop; fills that put the same data
    into the same kind of buffer (two computes reading one operand's tile) become one
    buffer filled once."""
    moved = 0
    while True:
        loops = tile_loops_around(pipe)
        if len(loops) < 2 or pipe.private is None:
            return moved
        found = _invariant_fills(pipe, loops)
        if not found:
            return moved
        j = found[0][4]
        left = loops[j]
        keep = lambda v: defined_inside(v, left)  # noqa: E731 (made inside the loops left: cloned)
        memo: dict[SSAValue, object] = {}
        # (keyed before any is erased: a key names values outside the loops by identity)
        group = [(fill, _fill_key(fill[1], fill[3], left, memo)) for fill in found
                 if fill[4] == j]
        hoisted: dict[tuple, ktdf.BufferOp] = {}
        units: list[str] = []
        ops: list[Operation] = []
        doomed: set[SSAValue] = set()
        fetching: list[ktdf.StageOp] = []
        for (value, buffer, stage, transfer, _), key in group:
            new = hoisted.get(key)
            if new is None:
                new = hoisted[key] = buffer.clone()
                mixed = [[rebuild(v, {}, ops, keep) if isinstance(v, SSAValue) else v
                          for v in side]
                         for side in (transfer.mixed_source_offsets(),
                                      transfer.mixed_source_sizes(),
                                      transfer.mixed_dest_offsets(), transfer.mixed_dest_sizes())]
                fetch = ktdf.DataTransferOp(transfer.source, mixed[0], mixed[1], new.result,
                                            mixed[2], mixed[3],
                                            transfer.mode if transfer.mode != "copy" else None)
                fetch.attributes.update(transfer.attributes)
                ops.append(fetch)
            units += [u.data for u in stage.applicable_units.data
                      if u.data not in units] if stage.applicable_units else []
            feeding = [v for v in transfer.operands if isinstance(v.owner, Operation)]
            Rewriter.erase_op(transfer)
            erase_dead(feeding)
            value.replace_all_uses_with(new.result)
            doomed.add(value)
            if stage not in fetching:
                fetching.append(stage)
            moved += 1
        # (both rebuild the private: the values above are stale after them)
        drop_resources(pipe, doomed)
        for stage in fetching:
            if not any(isinstance(o, ktdf.DataTransferOp) for o in stage.walk()):
                drop_stage(pipe, stage)
        block, after = left.parent_block(), left.next_op
        assert block is not None and after is not None  # the loop body's yield
        left.detach()
        Rewriter.insert_op(pipeline(list(hoisted.values()), [(units, ops), ([], [left])],
                                    {OUTER_FETCH_ATTR: UnitAttr()}),
                           InsertPoint.before(after))


def hoist_program(fn: Operation) -> int:
    moved = 0
    for pipe in [p for p in fn.walk() if isinstance(p, ktdf.PipelineOp)]:
        if pipe.modulo is None and isinstance(pipe.parent_op(), scf.ForOp):
            moved += hoist_inner(pipe)
    if moved:
        refresh_units(fn)
    return moved


@dataclass(frozen=True)
class HoistInnerInvariants(ModulePass):
    """Fetch an input a tile pipeline reads once per iteration of the tile loops it
    depends on."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for _, fn in list(programs(op)):
            hoist_program(fn)
