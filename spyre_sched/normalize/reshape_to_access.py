"""Normal-form pass `reshape-to-access`: `tensor.collapse_shape` and `tensor.expand_shape`
become accesses of the shape they make.

A reshape keeps the elements in row-major order, so it moves no data: it only says in
which shape the same elements are seen. The scheduler moves tiles of memory, so a
reshape is brought to the memory side:

- a reshape of a loaded tile is a load, in the new shape, through a *reshaped access*:
  a view of the same memory whose dimensions have the new shape's strides, and an
  access tile on it at the loaded tile's position;
- a reshape whose every use is a store through a plain access tile stores its source
  instead, through the stored tile reshaped to the source's shape (a reduction's
  `tensor<128xf16>` stored as `1x128` is stored as 128 elements); one stored through an
  indirect tile, whose shape is its variables', is reshaped on the computing side
  (`layout-through-elementwise`);
- a reshape of a reshape reshapes the first one's source.

The new strides are those of the tile's memory seen in the new shape: dimensions of
extent 1 come and go freely, and dimensions are merged or split only where the tile is
contiguous across them in its view (row-major, each stride the next one's times its
extent). The reshaped view has the old view's origin and takes the whole tile offset
along its innermost dimension of more than one element, whose stride must divide every
stride of the old view (then the tile's subscripts become one subscript, computed
where the tile is, in a loop or not). A tile that is not one strided pattern in the new
shape, or whose innermost stride does not divide the view's (a column-major tile split
by rows), is staged through a slot of the executing tile's scratchpad, row-major there. A rank-0 tile (`tensor<1x1xf16>` collapsed to
`tensor<f16>`) has no dimension to take the offset: its view starts at the tile's
element, so its position must not depend on a loop counter.

A reshape of a tile loaded through an *indirect* access tile that only drops or adds
dimensions of extent 1 (its other extents equal, in order) is a load through the same
indirect tile with those variables gone: each dropped variable is its one value in the
subscripts, a new one ranges over {0}. Any other reshape of a gathered tile stays on the
gathered side, where the gather's shape is its variables' (`split-indirect-variables`
splits a paged variable in two and merges the pair back with a reshape): a reshaped value
only stored is stored through the stored tile reshaped, and one used by compute is moved
down to the stores by `layout-through-elementwise` (or refused there, where it cannot
follow).

Reshapes of other computed values (used by compute) are left to
`layout-through-elementwise`, which runs once every compute is a `linalg.generic`."""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AffineSetAttr,
    ArrayAttr,
    StringAttr,
    DenseArrayBase,
    MemRefType,
    ModuleOp,
    TensorType,
    i64,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.transforms.lower_affine import affine_expr_ops

from spyre_sched.dialects import ktdp
from spyre_sched.dialects.ktdf import MASKED_VIEW_ATTR
from spyre_sched.normalize.common import box_set, kernel_of, note_origin
from spyre_sched.normalize.scratchpad_slots import Slot, aligned, pinned_end, scratchpad_slot
from spyre_sched.polyhedral.point_sets import box_bounds
from spyre_sched.schedule.common import fail

NAME = "reshape-to-access"


def reshaped_strides(extents: list[int], strides: list[int], shape: list[int]) -> list[int] | None:
    """Element strides of `shape` over the memory of a row-major tile of `extents` laid
    out with `strides`, or None when that memory is not one strided pattern in `shape`.
    Dimensions of extent 1 take stride 0 (they never move)."""
    old = [(e, s) for e, s in zip(extents, strides) if e != 1]
    new = [k for k, n in enumerate(shape) if n != 1]
    out = [0] * len(shape)
    i = j = 0
    while i < len(old) and j < len(new):
        # the smallest run of old dims and new dims with equal products
        oi, nj = i + 1, j + 1
        po, pn = old[i][0], shape[new[j]]
        while po != pn:
            if po < pn:
                if oi == len(old):
                    return None
                po *= old[oi][0]
                oi += 1
            else:
                if nj == len(new):
                    return None
                pn *= shape[new[nj]]
                nj += 1
        # the old dims of the run must be contiguous (each stride the next one's times
        # its extent) to be cut again
        for a in range(i, oi - 1):
            if old[a][1] != old[a + 1][1] * old[a + 1][0]:
                return None
        stride = old[oi - 1][1]
        for b in reversed(range(j, nj)):
            out[new[b]] = stride
            stride *= shape[new[b]]
        i, j = oi, nj
    if i != len(old) or j != len(new):
        return None
    return out


def _strided(tile: Operation, shape: list[int]) -> bool:
    """Whether `tile` (a plain access tile of a static, unmasked view) seen in `shape` is
    one strided pattern; True where the answer is not this function's to give (other
    views and tiles: `_reshaped_tile` refuses those, saying why)."""
    if not isinstance(tile, ktdp.ConstructAccessTileOp):
        return True
    view = tile.view.owner
    if not isinstance(view, ktdp.ConstructMemoryViewOp) or MASKED_VIEW_ATTR in view.attributes \
            or view.strides or view.coordinate_set.data.num_symbols:
        return True
    tbox = box_bounds(tile.access_tile_set.data, [])
    if tbox is None:
        return True
    extents = [hi - lo + 1 for lo, hi in tbox]
    vstrides = [int(s) for s in view.static_strides.get_values()]
    strides = reshaped_strides(extents, vstrides, shape)
    if strides is None or not shape:  # (rank 0: the view starts at the element)
        return strides is not None
    # and the reshaped view can take the whole offset along its innermost moving dim
    return not any(st % _innermost_step(strides, shape) for st in vstrides)


def _innermost_step(strides: list[int], shape: list[int]) -> int:
    """The stride of the reshaped tile's innermost dim of more than one element (its
    last dim when none has), which every stride of the reshaped view must be a multiple
    of: that dim takes the tile's whole offset."""
    moving = [k for k, n in enumerate(shape) if n != 1]
    return strides[moving[-1] if moving else len(shape) - 1] or 1


def _staging_slot(fn: FuncOp, ttype: TensorType) -> Slot:
    """A slot of the tile's shape in the executing tile's own scratchpad, past everything
    pinned there: the tile laid out row-major, so every reshape of it is strided."""
    return scratchpad_slot(fn, aligned(pinned_end(fn)), ttype, ())


def _top_level_before(op: Operation, fn: FuncOp) -> Operation:
    """The op of the function's body that holds `op`."""
    current = op
    while current.parent_block() is not fn.body.block:
        parent = current.parent_op()
        assert parent is not None
        current = parent
    return current


def _defined_at_top(value: SSAValue, fn: FuncOp) -> bool:
    owner = value.owner
    block = owner if isinstance(owner, Block) else owner.parent_block()
    return block is fn.body.block


def _reshaped_tile(access: Operation, tile: ktdp.ConstructAccessTileOp, shape: list[int],
                   fn: FuncOp, what: Operation) -> tuple[list[Operation], list[Operation], SSAValue]:
    """(the new view and what it needs, ops right before `access`, the new access tile)
    for `tile` seen in `shape`. The view goes where `_place_view` puts it."""
    view = tile.view.owner
    if not isinstance(view, ktdp.ConstructMemoryViewOp):
        raise fail(what, NAME, "not supported yet: reshaping a tile of a view that is not "
                   "built by ktdp.construct_memory_view in the kernel")
    if MASKED_VIEW_ATTR in view.attributes:
        raise fail(what, NAME, "not supported yet: reshaping a tile that sticks out of its "
                   "view (masked positions)")
    vset = view.coordinate_set.data
    # (sizes given as SSA values do not matter when the coordinate set is a box of
    # constants: the upstream paged copy computes its sizes with arith)
    vbox = None if vset.num_symbols else box_bounds(vset, [])
    if view.strides or vbox is None:
        raise fail(what, NAME, "not supported yet: reshaping a tile of a view with run-time "
                   "sizes or strides")
    tbox = box_bounds(tile.access_tile_set.data, [])
    assert tbox is not None  # legality-check: rectangular tiles only
    extents = [hi - lo + 1 for lo, hi in tbox]
    vstrides = [int(s) for s in view.static_strides.get_values()]
    strides = reshaped_strides(extents, vstrides, shape)
    if strides is None:
        raise fail(what, NAME, f"not supported yet: a reshape of a {list(extents)} tile to "
                   f"{list(shape)} whose elements are not one strided pattern in memory "
                   f"(view strides {vstrides})")
    base = tile.base_map.data
    indices = list(tile.indices)
    # element offset of the tile's first element from the view's origin, over the indices
    offset = AffineExpr.constant(0)
    for k, (expr, (lo, _), (vmin, _), st) in enumerate(zip(base.results, tbox, vbox, vstrides)):
        offset = offset + (expr + (lo - vmin)) * st
    mtype = view.result.type
    assert isinstance(mtype, MemRefType)
    props = {"memory_space": view.memory_space}
    moving = [k for k, n in enumerate(shape) if n != 1]
    before: list[Operation] = []
    here: list[Operation] = []
    if not shape:
        # rank 0: the view starts at the element
        if not all(_defined_at_top(v, fn) for v in [*indices, view.offset]):
            raise fail(what, NAME, "not supported yet: reshaping to rank 0 a tile whose "
                       "position depends on a loop counter or a condition")
        ops, start = affine_expr_ops(offset + AffineExpr.symbol(len(indices)), [],
                                     [*indices, view.offset])
        before += ops
        view_origin, subscripts, vsizes = start, [], []
        view_box: list[tuple[int, int]] = []
    else:
        inner = moving[-1] if moving else len(shape) - 1
        step = _innermost_step(strides, shape)
        span = sum((hi - lo) * abs(st) for (lo, hi), st in zip(vbox, vstrides))
        if any(st % step for st in vstrides):
            raise fail(what, NAME, f"not supported yet: a reshaped tile whose view strides "
                       f"{vstrides} are not multiples of its innermost stride {step}")
        strides = [s if s else step for s in strides]
        view_box = [(0, n - 1) for n in shape]
        # every element a tile reaches lies in the old view's memory: its last element
        view_box[inner] = (0, max(span // step, shape[inner] - 1))
        vsizes = [hi + 1 for _, hi in view_box]
        view_origin = view.offset
        subscripts = [AffineExpr.constant(0)] * len(shape)
        subscripts[inner] = AffineExpr.constant(0)
        for expr, (lo, _), (vmin, _), st in zip(base.results, tbox, vbox, vstrides):
            subscripts[inner] = subscripts[inner] + (expr + (lo - vmin)) * (st // step)
    new_view = ktdp.ConstructMemoryViewOp.build(
        operands=[view_origin, [], []],
        properties={
            "static_sizes": DenseArrayBase.from_list(i64, vsizes),
            "static_strides": DenseArrayBase.from_list(i64, strides if shape else []),
            "coordinate_set": AffineSetAttr(box_set(view_box)),
            **props,
        },
        result_types=[MemRefType(mtype.element_type, vsizes)],
    )
    if view.result.name_hint:
        new_view.result.name_hint = view.result.name_hint + "_r"
    before.append(new_view)
    new_tile = ktdp.ConstructAccessTileOp.build(
        operands=[new_view.result, indices, []],
        result_types=[ktdp.AccessTileType(list(shape))],
        properties={
            "base_map": AffineMapAttr(AffineMap(0, base.num_symbols, tuple(subscripts))),
            "access_tile_set": AffineSetAttr(box_set([(0, n - 1) for n in shape])),
            "access_tile_order": AffineMapAttr(AffineMap.identity(len(shape))),
        },
    )
    here.append(new_tile)
    return before, here, new_tile.result


def _reshaped_indirect(tile: ktdp.ConstructIndirectAccessTileOp, shape: list[int],
                       what: Operation) -> ktdp.ConstructIndirectAccessTileOp:
    """`tile` seen in `shape`, which differs from its own only by dimensions of extent 1:
    the same gather with its unit variables taken out (each replaced by its value) and a
    variable ranging over {0} for each unit dimension of `shape`."""
    box = box_bounds(tile.variables_space_set.data, []) if not tile.tile_symbols else None
    order = tile.variables_space_order.data
    identity = [getattr(r, "position", None) for r in order.results] == list(range(order.num_dims))
    if box is None or not identity:
        raise fail(what, NAME, "not supported yet: reshaping a gathered tile whose variables "
                   "are not a box in the identity order")
    extents = [hi - lo + 1 for lo, hi in box]
    # (the callers send any other reshape down, `gathered_beyond_unit_dims`)
    assert [n for n in extents if n != 1] == [n for n in shape if n != 1]
    kept = [k for k, n in enumerate(extents) if n != 1]
    moving = [k for k, n in enumerate(shape) if n != 1]
    new_of = dict(zip(kept, moving))
    dims = [AffineExpr.dimension(new_of[k]) if k in new_of else AffineExpr.constant(box[k][0])
            for k in range(len(extents))]
    names = [v.data for v in tile.var_names.data]

    def remap(m: AffineMap) -> AffineMap:
        syms = [AffineExpr.symbol(i) for i in range(m.num_symbols)]
        return AffineMap(len(shape), m.num_symbols,
                         tuple(r.replace_dims_and_symbols(dims, syms) for r in m.results))

    new_box = [(0, 0)] * len(shape)
    new_names = [f"{names[0] if names else 'v'}_unit{i}" for i in range(len(shape))]
    for k, i in new_of.items():
        new_box[i] = box[k]
        new_names[i] = names[k]
    return ktdp.ConstructIndirectAccessTileOp.build(
        operands=[tile.view, list(tile.index_views), list(tile.outer), []],
        properties={
            "var_names": ArrayAttr([StringAttr(n) for n in new_names]),
            "ind_dims": tile.ind_dims,
            "dim_map": AffineMapAttr(remap(tile.dim_map.data)),
            "index_maps": ArrayAttr([AffineMapAttr(remap(m.data)) for m in tile.index_maps.data]),
            "variables_space_set": AffineSetAttr(box_set(new_box)),
            "variables_space_order": AffineMapAttr(AffineMap.identity(len(shape))),
        },
        result_types=[ktdp.AccessTileType(list(shape))],
    )


def _shape(value: SSAValue) -> list[int]:
    t = value.type
    assert isinstance(t, TensorType)
    return list(t.get_shape())


def reshape_load(op: Operation, fn: FuncOp) -> None:
    """Rewrite reshape `op` of a loaded tile as a load through a reshaped access."""
    src, result = op.operands[0], op.results[0]
    load = src.owner
    assert isinstance(load, ktdp.LoadOp)
    if isinstance(load.tile.owner, ktdp.ConstructIndirectAccessTileOp):
        new_tile = _reshaped_indirect(load.tile.owner, _shape(result), op)
        new_load = ktdp.LoadOp.create(operands=[new_tile.result], result_types=[result.type],
                                      properties=dict(load.properties),
                                      attributes=dict(load.attributes))
        note_origin([new_tile, new_load], op)
        Rewriter.insert_op([new_tile, new_load], _insertion_before(op))
        new_load.result.name_hint = result.name_hint
        result.replace_all_uses_with(new_load.result)
        op.detach()
        op.erase()
        _drop_if_unused(load)
        return
    if not isinstance(load.tile.owner, ktdp.ConstructAccessTileOp):
        raise fail(op, NAME, "not supported yet: reshaping a tile not built by "
                   "ktdp.construct_access_tile or ktdp.construct_indirect_access_tile")
    if not _strided(load.tile.owner, _shape(result)):
        # the tile's rows are several strided runs: the load lands in a slot of the
        # executing tile's scratchpad (a plain copy) and the reshape reads the slot
        stage_load(op, load, fn)
        return
    before, here, tile = _reshaped_tile(load, load.tile.owner, _shape(result), fn, op)
    new_load = ktdp.LoadOp.create(operands=[tile], result_types=[result.type],
                                  properties=dict(load.properties),
                                  attributes=dict(load.attributes))
    note_origin([*before, *here, new_load], op)
    _place_view(before, load.tile.owner, op, fn)
    Rewriter.insert_op([*here, new_load], _insertion_before(op))
    new_load.result.name_hint = result.name_hint
    result.replace_all_uses_with(new_load.result)
    op.detach()
    op.erase()
    _drop_if_unused(load)


def _rewrite(op: Operation, fn: FuncOp) -> None:
    src, result = op.operands[0], op.results[0]
    if math.prod(_shape(src)) != math.prod(_shape(result)) or -1 in _shape(result):
        raise fail(op, NAME, "not supported yet: a reshape with run-time sizes")
    load = src.owner
    if isinstance(load, ktdp.LoadOp) and isinstance(
            load.tile.owner, ktdp.ConstructAccessTileOp | ktdp.ConstructIndirectAccessTileOp) \
            and not gathered_beyond_unit_dims(load, op):
        reshape_load(op, fn)
        return
    uses = list(result.uses)
    # a reshape of this reshape reshapes its source (both keep row-major order): it is
    # handed the source, and rewritten when the walk reaches it
    for use in uses:
        if isinstance(use.operation, tensor.CollapseShapeOp | tensor.ExpandShapeOp):
            use.operation.operands[0] = src
    uses = list(result.uses)
    if not uses:
        op.detach()
        op.erase()
        return
    if all(isinstance(u.operation, ktdp.StoreOp) and u.index == 0
           and isinstance(u.operation.tile.owner, ktdp.ConstructAccessTileOp) for u in uses):
        store_source(op, fn)
    # used by compute, or stored through an indirect tile (a scatter's tile keeps its
    # variables' shape): `layout-through-elementwise` moves it to the compute's inputs
    # once every compute is a linalg.generic


def stage_load(op: Operation, load: ktdp.LoadOp, fn: FuncOp) -> None:
    """Reshape `op` of `load` reads a slot of the executing tile's scratchpad that the
    loaded tile is stored into as it is (row-major there, so every reshape of it is one
    strided pattern)."""
    src_type = load.result.type
    assert isinstance(src_type, TensorType)
    slot = _staging_slot(fn, src_type)
    store = ktdp.StoreOp.build(operands=[load.result, slot.own])
    staged = ktdp.LoadOp.build(operands=[slot.own], result_types=[src_type])
    note_origin([store, staged], op)
    Rewriter.insert_op([store, staged], InsertPoint.after(load))
    staged.result.name_hint = load.result.name_hint
    op.operands[0] = staged.result
    reshape_load(op, fn)


def gathered_beyond_unit_dims(load: ktdp.LoadOp, op: Operation) -> bool:
    """Whether `load` reads through an indirect tile that `op` reshapes other than by
    dimensions of extent 1 (which `_reshaped_indirect` cannot take)."""
    if not isinstance(load.tile.owner, ktdp.ConstructIndirectAccessTileOp):
        return False
    return [n for n in _shape(op.operands[0]) if n != 1] != [n for n in _shape(op.results[0]) if n != 1]


def store_source(op: Operation, fn: FuncOp) -> None:
    """A reshape whose every use is a store (as the value stored): each store stores the
    reshape's source through its tile reshaped to the source's shape, and the reshape
    goes."""
    src, result = op.operands[0], op.results[0]
    for use in list(result.uses):
        store = use.operation
        assert isinstance(store, ktdp.StoreOp)
        tile_op = store.tile.owner
        if not isinstance(tile_op, ktdp.ConstructAccessTileOp):
            raise fail(store, NAME, "not supported yet: storing a reshape through an "
                       "indirect access tile")
        if not _strided(tile_op, _shape(src)):
            # the stored tile's rows are several strided runs: the value lands in a
            # slot of the executing tile's scratchpad, whose row-major layout any
            # reshape reads as one strided pattern, and is copied from there
            src_type = src.type
            assert isinstance(src_type, TensorType)
            slot = _staging_slot(fn, src_type)
            slot_tile = slot.own.owner
            assert isinstance(slot_tile, ktdp.ConstructAccessTileOp)
            into = ktdp.StoreOp.build(operands=[src, slot.own])
            before, here, tile = _reshaped_tile(store, slot_tile, _shape(result), fn, op)
            staged = ktdp.LoadOp.build(operands=[tile], result_types=[result.type])
            note_origin([into, *before, *here, staged], op)
            _place_view(before, slot_tile, store, fn)
            Rewriter.insert_op([into, *here, staged], _insertion_before(store))
            store.operands[0] = staged.result
            continue
        before, here, tile = _reshaped_tile(store, tile_op, _shape(src), fn, op)
        new_store = ktdp.StoreOp.create(operands=[src, tile],
                                        properties=dict(store.properties),
                                        attributes=dict(store.attributes))
        note_origin([*before, *here, new_store], op)
        _place_view(before, tile_op, store, fn)
        Rewriter.insert_op([*here, new_store], _insertion_before(store))
        store.detach()
        store.erase()
    op.detach()
    op.erase()


def _place_view(ops: list[Operation], tile: ktdp.ConstructAccessTileOp, access: Operation,
                fn: FuncOp) -> None:
    """A reshaped view of rank > 0 right after the view it reshapes (same origin); a rank-0
    one, whose origin is the tile's, before the function-level op holding the access."""
    view = ops[-1]
    assert isinstance(view, ktdp.ConstructMemoryViewOp)
    if view.offset is tile.view.owner.offset:  # type: ignore[union-attr]
        Rewriter.insert_op(ops, InsertPoint.after(tile.view.owner))  # type: ignore[arg-type]
    else:
        Rewriter.insert_op(ops, _insertion_before(_top_level_before(access, fn)))


def _insertion_before(op: Operation):
    return InsertPoint.before(op)


def _drop_if_unused(load: ktdp.LoadOp) -> None:
    if load.result.uses:
        return
    tile = load.tile.owner
    load.detach()
    load.erase()
    if isinstance(tile, ktdp.ConstructAccessTileOp | ktdp.ConstructIndirectAccessTileOp) \
            and not tile.result.uses:
        tile.detach()
        tile.erase()


@dataclass(frozen=True)
class ReshapeToAccess(ModulePass):
    """`tensor.collapse_shape` / `tensor.expand_shape` -> loads and stores through
    reshaped accesses."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in kernel_of(op):
            assert isinstance(fn, FuncOp)
            for inner in list(fn.walk()):
                if isinstance(inner, tensor.CollapseShapeOp | tensor.ExpandShapeOp) \
                        and inner.parent is not None:
                    _rewrite(inner, fn)
