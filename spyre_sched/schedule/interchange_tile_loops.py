"""Pass 8d', interchange-tile-loops: the other order of a tile pipeline's two tile loops,
when asked; otherwise only say where it would change what is fetched.

A program's tile loops nest in its dims' order (nest-by-memory-level), so a matmul's
row tiles are outside its column tiles and hoist-inner-invariants keeps A's row tile
(T0 x K) around the column loop while B's panels (K x T1) are fetched per output tile:
per core A is read once and B once per row tile. Interchanged, B's panel is kept around
the row loop and A's row tiles are fetched per output tile: B read once, A once per
column tile. Which reads less depends on the core's block of C (taller than wide favours
the interchange) and on what the scratchpad holds beside it, so it is the solver's
decision (`order`, docs/solver.md): the kernel is scheduled in both orders, and the
solver's model holds both forms of such a program and chooses one.

A nest is offered when it is a perfect nest of two parallel tile loops around a tile
pipeline (each loop's body its tile's `derive_size` and the next loop or the pipeline;
the inner loop's bounds defined outside the outer one), and the pipeline has an input
fill (a DMA-in that is its buffer's only writer) that depends on the inner loop's index
and not the outer one's: the fill the interchange would let hoist-inner-invariants keep.

Without a request the pass rewrites nothing: it lists the programs it would change on
the top module (`ktdf.interchangeable`). With the top module's request
(`ktdf.interchange_tile_loops`, set by `api.compile` for the second schedule) it swaps
the two loops of every offered nest (bounds, steps, loop attributes, the uses of their
indices; each `derive_size` moves with its dim) and marks the program's function
(`ktdf.tile_loops_interchanged`). Every iteration of a tile pipeline writes its own
output tile, so the order of the iterations is free.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import ArrayAttr, ModuleOp, UnitAttr
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from spyre_sched.dialects import ktdf
from spyre_sched.schedule.common import DIM_ATTR, int_attr, programs
from spyre_sched.schedule.hoist import defined_inside, fill_of
from spyre_sched.schedule.hoist_inner import tile_loops_around
from spyre_sched.schedule.ir_build import depends_on

NAME = "interchange-tile-loops"
#: on the top module: interchange the offered nests (the second schedule of a kernel)
REQUEST_ATTR = "ktdf.interchange_tile_loops"
#: on the top module, set where the pass was not asked to: the programs it would change
OFFERED_ATTR = "ktdf.interchangeable"
#: on a program's function whose nests were interchanged
INTERCHANGED_ATTR = "ktdf.tile_loops_interchanged"


def _fill_values(transfer: ktdf.DataTransferOp) -> list[SSAValue]:
    return [v for v in [*transfer.mixed_source_offsets(), *transfer.mixed_source_sizes(),
                        *transfer.mixed_dest_offsets(), *transfer.mixed_dest_sizes()]
            if isinstance(v, SSAValue)]


def offered_nests(fn: Operation) -> list[tuple[scf.ForOp, scf.ForOp]]:
    """(outer, inner) tile loops of each nest of `fn` the interchange would change."""
    found = []
    for pipe in [p for p in fn.walk() if isinstance(p, ktdf.PipelineOp)]:
        if pipe.modulo is not None or pipe.private is None \
                or not isinstance(pipe.parent_op(), scf.ForOp):
            continue
        loops = tile_loops_around(pipe)
        if len(loops) != 2:
            continue
        outer, inner = loops
        if any(defined_inside(v, outer) for v in inner.operands):
            continue
        outer_iv, inner_iv = outer.body.block.args[0], inner.body.block.args[0]
        made = [o for o in pipe.private.body.block.ops if not isinstance(o, ktdf.PrivateYieldOp)]
        for value, op in zip(pipe.private.res, made):
            if not isinstance(op, ktdf.BufferOp) or op.role.data != "input":
                continue
            fill = fill_of(pipe, value)
            writers = [u.operation for u in value.uses
                       if isinstance(u.operation, ktdf.DataTransferOp)
                       and u.operation.dest == value]
            if fill is None or writers != [fill[1]]:
                continue
            values = _fill_values(fill[1])
            if any(depends_on(v, {inner_iv}) for v in values) and \
                    not any(depends_on(v, {outer_iv}) for v in values):
                found.append((outer, inner))
                break
    return found


def interchange(outer: scf.ForOp, inner: scf.ForOp) -> None:
    """Swap the perfect nest `outer { derive; inner { derive; pipeline } }` in place."""
    outer_derive = next(iter(outer.body.block.ops))
    inner_derive = next(iter(inner.body.block.ops))
    for k in range(3):  # lower bound, upper bound, step
        a, b = outer.operands[k], inner.operands[k]
        outer.operands[k], inner.operands[k] = b, a
    for key in (ktdf.LOOP_TYPE_ATTR, DIM_ATTR):
        a, b = outer.attributes.get(key), inner.attributes.get(key)
        if b is not None:
            outer.attributes[key] = b
        if a is not None:
            inner.attributes[key] = a
    outer_iv, inner_iv = outer.body.block.args[0], inner.body.block.args[0]
    outer_uses = [(u.operation, u.index) for u in outer_iv.uses]
    inner_uses = [(u.operation, u.index) for u in inner_iv.uses]
    for op, i in outer_uses:
        op.operands[i] = inner_iv
    for op, i in inner_uses:
        op.operands[i] = outer_iv
    outer_iv.name_hint, inner_iv.name_hint = inner_iv.name_hint, outer_iv.name_hint
    # each dim's tile extent now comes from the other loop's index: move it there
    outer_derive.detach()
    inner_derive.detach()
    outer.body.block.insert_op_before(inner_derive, inner)
    inner.body.block.insert_op_before(outer_derive, next(iter(inner.body.block.ops)))


@dataclass(frozen=True)
class InterchangeTileLoops(ModulePass):
    """Interchange the offered tile nests when asked; else list the programs that have one."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        asked = op.attributes.pop(REQUEST_ATTR, None) is not None
        offered = []
        for index, fn in programs(op):
            nests = offered_nests(fn)
            if not nests:
                continue
            offered.append(index)
            if asked:
                for outer, inner in nests:
                    interchange(outer, inner)
                fn.attributes[INTERCHANGED_ATTR] = UnitAttr()
        if offered and not asked:
            op.attributes[OFFERED_ATTR] = ArrayAttr([int_attr(i) for i in offered])
