"""Pass 1m, intermediates-in-memory: a compute's result that a later compute reads along
its reduction goes through device memory.

The down projection of an FFN, Y = H @ Wd, reads H = silu(X @ Wg) * (X @ Wu) along its
K dim: every output tile of Y needs whole rows of H. Within one program H is therefore
held whole in the scratchpad (tile-intermediates holds a result one tile at a time only
where each tile reads its own box), next to the tiles of the matmuls that make it. At an
LLM's width (64 rows x 11008 f16 per core: 1.4 MiB of a 2 MiB scratchpad) no tiling
fits, and footprints refuses the kernel.

This pass stores such a result to device memory right after the compute that makes it
and loads it back for its readers:

    %h = linalg.generic ...                        // 64 x 11008 per tile
    ktdp.store %h, %t                              // %t: this tile's rows of %h_in_memory
    %h_loaded = ktdp.load %t
    %ys = linalg.generic ins(%h_loaded, %wd ...)

so program-split cuts the kernel there: one program computes H and stores it, the next
loads it with Wd, and each tiles as any matmul does. The memory is a workspace: a pointer
argument the pass appends to the kernel (`%<name>_in_memory`, listed in the kernel's
`ktdf.workspaces`), viewed as [tiles x d0, d1, ...] in global memory with tile t's result
at rows t x d0. The job plan gives it role "workspace": the runtime allocates it for each
launch and never reads it back, and the reference interpreter runs the kernel as written.

The pass moves results only in a module marked `ktdf.intermediates_in_memory`. Unmarked,
it counts the results it could move (`ktdf.results_read_along_reduction` on the module),
and the kernel is scheduled both ways where that helps: the scheduler marks the kernel
and schedules it again when footprints refuses it as written (`pipeline.schedule`), and
the solver strategy solves a kernel that fits both as written and with the results in
device memory, and keeps the better schedule by its objective (`api.compile`). Holding a
result costs no device-memory traffic, but holding it whole can crowd out the tiles that
keep the matmuls fed: on a 128 KiB scratchpad an FFN of 256 tokens x 128 -> 128 -> 128
runs in 83,770 cycles with H held and 31,481 with H in device memory, and at 2048 tokens
x 4096 -> 11008 no tiling holds H at all. Left as written: a
result made or read inside a loop or a branch of the kernel, and one whose store and load
program-split would put in one program (a load both sides read); when nothing is left to
move the pass refuses, and the scheduler reports the first refusal.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AffineSetAttr,
    ArrayAttr,
    DenseArrayBase,
    FunctionType,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StringAttr,
    TensorType,
    i64,
)
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from spyre_sched.dialects import ktdp
from spyre_sched.dialects.ktdf import WORKSPACES_ATTR, workspaces
from spyre_sched.polyhedral.affine_values import grid_of
from spyre_sched.schedule.common import fail, kernel_funcs, row_major_strides, whole_box
from spyre_sched.schedule.program_split import compute_groups

NAME = "intermediates-in-memory"
#: on the top module: send the results through device memory
REQUEST_ATTR = "ktdf.intermediates_in_memory"
#: on the top module, set where the pass was not asked to: how many results it could send
CANDIDATES_ATTR = "ktdf.results_read_along_reduction"
SUFFIX = "_in_memory"


def read_along_reduction(kernel: func.FuncOp) -> list[SSAValue]:
    """Results of a `linalg.generic` in the kernel's own block that a `linalg.generic` of
    that block reads along one of its reduction dims, in program order."""
    block = kernel.body.blocks[0]
    found: list[SSAValue] = []
    for op in block.ops:
        if not isinstance(op, GenericOp):
            continue
        reductions = {k for k, it in enumerate(op.iterator_types.data)
                      if it.data.value == "reduction"}
        maps = [m.data for m in op.indexing_maps.data]
        for value, amap in zip(op.inputs, maps):
            producer = value.owner
            if not isinstance(producer, GenericOp) or producer.parent_block() is not block \
                    or not isinstance(value.type, TensorType) or value in found:
                continue
            if amap.used_dims() & reductions:
                found.append(value)
    return found


def _tile_id(kernel: func.FuncOp) -> SSAValue:
    block = kernel.body.blocks[0]
    for op in block.ops:
        if isinstance(op, ktdp.GetComputeTileIdOp) and len(op.ids) == 1:
            return op.ids[0]
    op = ktdp.GetComputeTileIdOp()
    Rewriter.insert_op(op, InsertPoint.at_start(block))
    return op.ids[0]


def _unique_name(kernel: func.FuncOp, base: str) -> str:
    taken = {a.name_hint for a in kernel.body.blocks[0].args}
    name, k = base, 1
    while name in taken:
        name, k = f"{base}{k}", k + 1
    return name


def _add_argument(kernel: func.FuncOp, name: str) -> SSAValue:
    block = kernel.body.blocks[0]
    arg = block.insert_arg(IndexType(), len(block.args))
    arg.name_hint = name
    old = kernel.function_type
    kernel.function_type = FunctionType.from_lists([*old.inputs.data, IndexType()],
                                                   list(old.outputs.data))
    return arg


def _through_memory(kernel: func.FuncOp, value: SSAValue, tiles: int,
                    tile_id: SSAValue) -> tuple[ktdp.StoreOp, ktdp.LoadOp, str]:
    """Store `value` to a new workspace argument after its producer, load it back, and
    let its readers read the load."""
    assert isinstance(value.type, TensorType)
    shape = list(value.type.get_shape())
    element = value.type.element_type
    name = _unique_name(kernel, (value.name_hint or "intermediate") + SUFFIX)
    pointer = _add_argument(kernel, name)
    sizes = [tiles * shape[0], *shape[1:]]
    view = ktdp.ConstructMemoryViewOp.build(
        operands=[pointer, [], []],
        properties={"static_sizes": DenseArrayBase.from_list(i64, sizes),
                    "static_strides": DenseArrayBase.from_list(i64, row_major_strides(sizes)),
                    "coordinate_set": AffineSetAttr(whole_box(sizes)),
                    "memory_space": ktdp.MemorySpaceAttr(StringAttr("global"), NoneAttr())},
        result_types=[MemRefType(element, sizes)])
    view.result.name_hint = name + "_view"
    # this tile's rows: (tile id * d0, 0, ...)
    base = AffineMap(0, 1, (AffineExpr.symbol(0) * shape[0],
                            *[AffineExpr.constant(0)] * (len(shape) - 1)))
    tile = ktdp.ConstructAccessTileOp.build(
        operands=[view.result, [tile_id], []],
        result_types=[ktdp.AccessTileType(shape)],
        properties={"base_map": AffineMapAttr(base),
                    "access_tile_set": AffineSetAttr(whole_box(shape)),
                    "access_tile_order": AffineMapAttr(AffineMap.identity(len(shape)))})
    tile.result.name_hint = name + "_tile"
    producer = value.owner
    assert isinstance(producer, Operation)
    readers = list(value.uses)
    store = ktdp.StoreOp.build(operands=[value, tile.result])
    load = ktdp.LoadOp.build(operands=[tile.result], result_types=[value.type])
    load.result.name_hint = (value.name_hint or "intermediate") + "_loaded"
    Rewriter.insert_op([view, tile, store, load], InsertPoint.after(producer))
    for use in readers:
        use.operation.operands[use.index] = load.result
    return store, load, name


@dataclass(frozen=True)
class IntermediatesInMemory(ModulePass):
    """Send every result a later compute reads along its reduction through device memory,
    in a module marked `ktdf.intermediates_in_memory`; count them in any other."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if REQUEST_ATTR not in op.attributes:
            # (the solver schedules such a kernel both ways and keeps the faster)
            count = sum(len(read_along_reduction(k)) for k in kernel_funcs(op))
            if count:
                op.attributes[CANDIDATES_ATTR] = IntegerAttr(count, i64)
            return
        del op.attributes[REQUEST_ATTR]
        for kernel in kernel_funcs(op):
            values = read_along_reduction(kernel)
            if not values:
                raise fail(kernel, NAME, "no compute result that a later compute reads "
                           "along its reduction can go through device memory")
            tiles, tile_id = math.prod(grid_of(kernel)), _tile_id(kernel)
            moved = [_through_memory(kernel, v, tiles, tile_id) for v in values]
            groups = compute_groups(kernel)
            for store, load, name in moved:
                if any(store in g and load in g for g in groups):
                    raise fail(store, NAME, f"not supported yet: %{name} would be stored and "
                               "loaded back by one program (a load its producer and its "
                               "readers share)")
            names = [*workspaces(kernel), *(n for _, _, n in moved)]
            kernel.attributes[WORKSPACES_ATTR] = ArrayAttr([StringAttr(n) for n in names])


def moved_results(module: ModuleOp) -> str:
    """The results the pass sent through device memory in `module` ("%h, %g"), for a
    message."""
    names = [n for f in kernel_funcs(module) for n in workspaces(f)]
    return ", ".join("%" + n.removesuffix(SUFFIX) for n in names) or "nothing"
