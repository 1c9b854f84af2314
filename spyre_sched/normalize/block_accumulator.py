"""Normal-form pass `stack-block-accumulators`: a kernel's `scf.for` that walks a tile in
blocks and combines each block into a loop-carried value (`acc = acc + x_k`, RMSNorm's and
LayerNorm's user-chunked row sums) gets its blocks stacked along a new dim, so the combine
becomes a reduction over that dim.

Why: `untile-loops` folds a loop by growing its tiles along the dim they move in. An
accumulator combined elementwise with every block would then read element j of block k at
j + k * B, which no projected-permutation indexing map can say. Stacked, the blocks sit
side by side along a dim of their own:

- every access tile that moves with the loop reads through a view of the same memory with
  one more dim K, placed before the dim the tile moves in, whose stride is how far the tile
  moves per iteration; the tile sits at K = k (the loop now counts k = 0 .. trips - 1 and
  computes the old induction value) with its moving coordinate at the first iteration's;
- every tensor computed from the blocks gets the K dim (extent 1) at the same place;
- the combine `acc (op) x_k` becomes a reduction over K into the carried value.

`untile-loops` then folds the loop as a user-chunked reduction: K grows to the trip count
and the reduction sums the stacked blocks. The combiner must be associative and
commutative so that the order the schedule picks does not matter: integer add, mul, and,
or, xor, max, min, and float max, min and add. A float add is the one whose value then
depends on the order; the oracle's comparison treats a loop-carried float accumulator as a
sum over the loop's iterations (docs/numerics.md, "Sources: a sum a loop carries"). A float product
is left alone: reordered products must match bit for bit, which nothing guarantees.

A loop this pass does not understand is left as it is (`untile-loops` then folds it
another way or says why it cannot): bounds that are not constants, a store in the body,
an op other than scalar arithmetic, access tiles, loads and `linalg` compute, a carried
value used otherwise than by one combine whose result the loop yields, a block that does
not move, or a compute that reduces over the dim the blocks move in.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, scf, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AffineSetAttr,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    TensorType,
    i64,
)
from xdsl.dialects.linalg.ops import FillOp, GenericOp, YieldOp
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from spyre_sched.xdsl_compat import has_no_side_effects
from spyre_sched.dialects import ktdp
from spyre_sched.normalize.common import PARALLEL, REDUCTION, box_set, kernel_of, note_origin
from spyre_sched.normalize.untile_loops import BlockLoop, Refuse
from spyre_sched.polyhedral.point_sets import box_bounds

NAME = "stack-block-accumulators"

#: combiners whose result does not depend on the order of the terms (a float sum's
#: rounding aside, which the comparison bounds)
COMBINERS = frozenset({
    "arith.addf", "arith.maxnumf", "arith.minnumf", "arith.maximumf", "arith.minimumf",
    "arith.addi", "arith.muli", "arith.andi", "arith.ori", "arith.xori", "arith.maxsi",
    "arith.minsi", "arith.maxui", "arith.minui",
})

DYNAMIC = -(2**63)


def combiner_of(op: Operation, carried: BlockArgument) -> tuple[Operation, SSAValue] | None:
    """(the combining scalar op, the per-iteration operand) when `op` is an all-parallel
    generic of identity maps that combines `carried` with one other tensor by one
    associative, commutative op; else None."""
    if not isinstance(op, GenericOp) or len(op.inputs) != 2 or len(op.outputs) != 1:
        return None
    if carried not in op.inputs or op.inputs[0] is op.inputs[1]:
        return None
    if any(str(t.data) != "parallel" for t in op.iterator_types.data):
        return None
    if any(m.data != AffineMap.identity(m.data.num_dims) for m in op.indexing_maps.data):
        return None
    body = list(op.body.block.ops)
    if len(body) != 2 or body[0].name not in COMBINERS or not isinstance(body[1], YieldOp):
        return None
    args = op.body.block.args
    if set(body[0].operands) != {args[0], args[1]} or body[1].operands[0] is not \
            body[0].results[0]:
        return None
    other = op.inputs[1] if op.inputs[0] is carried else op.inputs[0]
    return body[0], other


class _Stack:
    """One loop's analysis and rewrite."""

    def __init__(self, loop: scf.ForOp):
        self.loop = loop
        self.body = loop.body.block
        self.shape = BlockLoop(loop)  # bounds, trips, the tiles' movement
        #: carried block argument -> the generic combining it
        self.combines: dict[BlockArgument, GenericOp] = {}
        #: tensor value that gets the K dim -> the position K takes in it
        self.moving: dict[SSAValue, int] = {}
        #: moving generic -> (its loop dim that K goes before, K's position in each operand,
        #: None where the operand does not get it)
        self.generics: dict[GenericOp, tuple[int, list[int | None]]] = {}
        #: combine -> the position of K in the tensor it combines
        self.reduce_at: dict[GenericOp, int] = {}

    def analyse(self) -> None:
        body, loop = self.body, self.loop
        if not loop.iter_args:
            raise Refuse("it carries no value")
        yielded = list(body.last_op.operands)  # type: ignore[union-attr]
        for k, arg in enumerate(body.args[1:]):
            uses = [u.operation for u in arg.uses]
            found = combiner_of(uses[0], arg) if len(uses) == 1 else None
            if found is None or yielded[k] is not uses[0].results[0] \
                    or len(list(uses[0].results[0].uses)) != 1:
                raise Refuse("a carried value is not combined with each block by one op")
            self.combines[arg] = uses[0]  # type: ignore[assignment]
        combines = set(self.combines.values())
        for op in body.ops:
            if isinstance(op, scf.YieldOp | tensor.EmptyOp | FillOp):
                continue
            if isinstance(op, ktdp.ConstructAccessTileOp):
                self.shape.tile(op)
                if op.result in self.shape.tiles:
                    self._check_view(op)
            elif isinstance(op, ktdp.LoadOp):
                if op.tile in self.shape.tiles:
                    self.moving[op.result] = self.shape.tiles[op.tile][0]
            elif isinstance(op, GenericOp):
                if op in combines:
                    others = [v for v in op.inputs if v not in self.combines]
                    if len(others) != 1 or others[0] not in self.moving:
                        raise Refuse("what a carried value is combined with does not move "
                                     "with the loop")
                    self.reduce_at[op] = self.moving[others[0]]
                    continue
                self._generic(op)
            elif op.regions or not has_no_side_effects(op) \
                    or any(isinstance(r.type, TensorType) for r in op.results):
                raise Refuse(f"its body holds {op.name}")
            else:
                self.shape.scalar(op)
        if not self.moving:
            raise Refuse("nothing in it moves with the loop")

    def _check_view(self, op: ktdp.ConstructAccessTileOp) -> None:
        view = op.view.owner
        if not isinstance(view, ktdp.ConstructMemoryViewOp) or view.strides \
                or box_bounds(view.coordinate_set.data, []) is None:
            raise Refuse("a moving tile's view is not a memory view with constant strides "
                         "and a box of coordinates")
        rank = len(op.result.type.get_shape())
        if op.access_tile_order.data != AffineMap.identity(rank):
            raise Refuse("a moving tile's order is not the identity")

    def _generic(self, op: GenericOp) -> None:
        maps = [m.data for m in op.indexing_maps.data]
        dims = set()
        for value, amap in zip(op.inputs, maps):
            if value in self.moving:
                expr = amap.results[self.moving[value]]
                if not isinstance(expr, AffineDimExpr):
                    raise Refuse("a compute reads a block through a map that is not a "
                                 "projection")
                dims.add(expr.position)
        if not dims:
            return
        if len(dims) > 1:
            raise Refuse("a compute reads blocks along different dims")
        dim = dims.pop()
        if str(op.iterator_types.data[dim].data) != "parallel":
            raise Refuse("a compute reduces over the dim the blocks move in")
        out_map = maps[len(op.inputs)]
        positions = [r.position if isinstance(r, AffineDimExpr) else None
                     for r in out_map.results]
        if dim not in positions or len(op.outputs) != 1:
            raise Refuse("a compute drops the dim the blocks move in")
        init = op.outputs[0]
        owner = init.owner
        made = owner.outputs[0].owner if isinstance(owner, FillOp) else owner
        if not (isinstance(made, tensor.EmptyOp) and isinstance(owner, Operation)
                and owner.parent_block() is self.body and len(list(init.uses)) == 1):
            raise Refuse("a compute on the blocks writes into a tensor made outside the "
                         "loop or shared")
        q = positions.index(dim)
        self.generics[op] = (dim, [self.moving.get(v) for v in op.inputs] + [q])
        self.moving[op.res[0]] = q

    # -- rewriting -------------------------------------------------------------------

    def rewrite(self) -> None:
        loop, body = self.loop, self.body
        shape = self.shape
        before = InsertPoint.before(loop)
        index = IndexType()

        def constant(v: int) -> SSAValue:
            op = arith.ConstantOp(IntegerAttr(v, index))
            Rewriter.insert_op(op, before)
            return op.result

        # the loop counts blocks: k = 0 .. trips - 1, the old induction value lb + k * step
        iv = body.args[0]
        if shape.lb != 0 or shape.step != 1:
            c_step, c_lb = constant(shape.step), constant(shape.lb)
            mul = arith.MuliOp(iv, c_step)
            old = arith.AddiOp(c_lb, mul)
            Rewriter.insert_op([mul, old], InsertPoint.at_start(body))
            old.result.name_hint = iv.name_hint
            for use in list(iv.uses):
                if use.operation is not mul:
                    use.operation.operands[use.index] = old.result
            iv.name_hint = "block"
        lb, ub, step = constant(0), constant(shape.trips), constant(1)
        for slot, value in ((0, lb), (1, ub), (2, step)):
            loop.operands[slot] = value
        views: dict[tuple[SSAValue, int, int], SSAValue] = {}
        for op in list(body.ops):
            if isinstance(op, ktdp.ConstructAccessTileOp) and op.result in shape.tiles:
                self._stack_tile(op, iv, views)
            elif isinstance(op, ktdp.LoadOp) and op.result in self.moving:
                new = ktdp.LoadOp.build(operands=[op.tile], result_types=[
                    _with_unit(op.result.type, self.moving[op.result])])
                _replace(op, new)
            elif isinstance(op, GenericOp) and op in self.generics:
                self._stack_generic(op)
            elif isinstance(op, GenericOp) and op in set(self.combines.values()):
                self._reduce(op)

    def _stack_tile(self, op: ktdp.ConstructAccessTileOp, k: SSAValue,
                    views: dict) -> None:
        dim, _ = self.shape.tiles[op.result]
        bounds = box_bounds(op.access_tile_set.data, [])
        assert bounds is not None  # legality-check: rectangular tiles only
        lo, hi = bounds[dim]
        move = hi - lo + 1  # how far the tile moves per iteration (BlockLoop checked it)
        key = (op.view, dim, move)
        if key not in views:
            views[key] = _stacked_view(op.view.owner, dim, move, self.shape.trips,
                                       self.loop)
        base = op.base_map.data
        nsym = base.num_symbols
        ksym = AffineExpr.symbol(nsym)
        results = list(base.results)
        results[dim] = results[dim] - ksym * move
        results.insert(dim, ksym)
        new_map = AffineMap(0, nsym + 1, tuple(results))
        tile_bounds = list(bounds)
        tile_bounds.insert(dim, (0, 0))
        new = ktdp.ConstructAccessTileOp.build(
            operands=[views[key], [*op.indices, k], list(op.tile_symbols)],
            properties={"base_map": AffineMapAttr(new_map),
                        "access_tile_set": AffineSetAttr(box_set(tile_bounds)),
                        "access_tile_order": AffineMapAttr(AffineMap.identity(len(results)))},
            attributes=dict(op.attributes),
            result_types=[ktdp.AccessTileType([h - lo_ + 1 for lo_, h in tile_bounds])])
        _replace(op, new)

    def _stack_generic(self, op: GenericOp) -> None:
        dim, positions = self.generics[op]
        q = positions[-1]
        maps = [m.data for m in op.indexing_maps.data]
        n = maps[0].num_dims
        kdim = AffineExpr.dimension(dim)
        shift = [AffineExpr.dimension(i if i < dim else i + 1) for i in range(n)]
        new_maps = []
        for at, amap in zip(positions, maps):
            results = [r.replace_dims_and_symbols(shift, []) for r in amap.results]
            if at is not None:
                results.insert(at, kdim)
            new_maps.append(AffineMapAttr(AffineMap(n + 1, 0, tuple(results))))
        iterators = list(op.iterator_types.data)
        iterators.insert(dim, PARALLEL)
        init = op.outputs[0]
        new_init = _stack_init(init, q)
        result_type = _with_unit(op.res[0].type, q)
        new = GenericOp(list(op.inputs), [new_init], op.detach_region(op.body), new_maps,
                        iterators, [result_type])
        _replace(op, new)

    def _reduce(self, op: GenericOp) -> None:
        carried = next(a for a, g in self.combines.items() if g is op)
        combine, other = combiner_of(op, carried)  # type: ignore[misc]
        at = self.reduce_at[op]
        rank = len(carried.type.get_shape())  # type: ignore[attr-defined]
        block = Block(arg_types=[a.type for a in op.body.block.args[:2]])
        v_arg, acc_arg = block.args
        old_args = op.body.block.args
        mapping = {old_args[op.inputs.index(carried)]: acc_arg,
                   old_args[op.inputs.index(other)]: v_arg}
        scalar = combine.clone(value_mapper=mapping)
        block.add_ops([scalar, YieldOp(scalar.results[0])])
        dims = [AffineExpr.dimension(i) for i in range(rank + 1)]
        out = AffineMap(rank + 1, 0, tuple(d for i, d in enumerate(dims) if i != at))
        iterators = [REDUCTION if i == at else PARALLEL for i in range(rank + 1)]
        new = GenericOp([other], [carried], Region(block),
                        [AffineMapAttr(AffineMap.identity(rank + 1)), AffineMapAttr(out)],
                        iterators, [carried.type])
        old_init = op.outputs[0]
        _replace(op, new)
        _erase_if_unused(old_init)


def _with_unit(t: TensorType, at: int) -> TensorType:
    shape = list(t.get_shape())
    shape.insert(at, 1)
    return TensorType(t.element_type, shape)


def _stack_init(init: SSAValue, at: int) -> SSAValue:
    """The output tensor of a stacked compute (made in the body for it alone) rebuilt with
    the K dim."""
    owner = init.owner
    if isinstance(owner, FillOp):
        empty = owner.outputs[0]
        new_empty = _stack_init(empty, at)
        fill = FillOp([owner.inputs[0]], [new_empty], [_with_unit(init.type, at)])
        _replace(owner, fill)
        return fill.results[0]
    assert isinstance(owner, tensor.EmptyOp)
    new = tensor.EmptyOp([], _with_unit(init.type, at))
    _replace(owner, new)
    return new.tensor


def _stacked_view(view: ktdp.ConstructMemoryViewOp, dim: int, move: int, trips: int,
                  loop: scf.ForOp) -> SSAValue:
    """`view` with a dim K of `trips` inserted before `dim`: element (.., K, e, ..) is the
    view's element (.., e + move * K, ..)."""
    sizes = list(view.static_sizes.get_values())
    strides = list(view.static_strides.get_values())
    if sizes[dim] != DYNAMIC:
        # the coordinate set bounds what is valid; the size covers what K leaves of the dim
        sizes[dim] = max(1, sizes[dim] - move * (trips - 1))
    sizes.insert(dim, trips)
    strides.insert(dim, move * strides[dim])
    # a box, as the lowering needs: every point of it is a valid element of the view, and
    # every block the loop reads lies in it (its first and last iterations are in bounds)
    box = box_bounds(view.coordinate_set.data, [])
    assert box is not None  # _check_view
    lo, hi = box[dim]
    box[dim] = (lo, hi - move * (trips - 1))
    box.insert(dim, (0, trips - 1))
    mtype = view.result.type
    assert isinstance(mtype, MemRefType)
    new = ktdp.ConstructMemoryViewOp.build(
        operands=[view.offset, list(view.sizes), list(view.strides)],
        properties={"static_sizes": DenseArrayBase.from_list(i64, sizes),
                    "static_strides": DenseArrayBase.from_list(i64, strides),
                    "coordinate_set": AffineSetAttr(box_set(box)),
                    "memory_space": view.memory_space},
        attributes=dict(view.attributes),
        result_types=[MemRefType(mtype.element_type, sizes)])
    note_origin([new], view)
    Rewriter.insert_op(new, InsertPoint.after(view))  # beside the view it reshapes
    new.result.name_hint = (view.result.name_hint or "view") + "_blocks"
    return new.result


def _replace(old: Operation, new: Operation) -> None:
    note_origin([new], old)
    Rewriter.insert_op(new, InsertPoint.before(old))
    for a, b in zip(old.results, new.results):
        b.name_hint = a.name_hint
        a.replace_all_uses_with(b)
    Rewriter.erase_op(old)


def _erase_if_unused(value: SSAValue) -> None:
    owner = value.owner
    if isinstance(owner, Operation) and not any(r.uses for r in owner.results):
        inputs = list(owner.operands)
        Rewriter.erase_op(owner)
        for v in inputs:
            if isinstance(v.type, TensorType):
                _erase_if_unused(v)


def _loops(op: Operation) -> list[scf.ForOp]:
    """The `scf.for` loops under `op`, inner loops first."""
    found: list[scf.ForOp] = []
    for region in op.regions:
        for block in region.blocks:
            for inner in block.ops:
                found.extend(_loops(inner))
    if isinstance(op, scf.ForOp):
        found.append(op)
    return found


@dataclass(frozen=True)
class StackBlockAccumulators(ModulePass):
    """Stack the blocks of loops that combine each block into a carried value."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in kernel_of(op):
            for loop in _loops(fn):
                try:
                    state = _Stack(loop)
                    state.analyse()
                except Refuse:
                    continue  # untile-loops folds it another way or says why not
                state.rewrite()
