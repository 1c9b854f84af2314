"""Normal-form pass `layout-through-elementwise`: a reshape or a slice of a computed value
moves to the computation's inputs, until it reaches memory.

`reshape-to-access` brings a reshape of a loaded tile, or of a value only stored, to the
memory side, and `slice-to-subtile` a slice of a loaded tile. A reshape of a value that
is computed and then computed with again (an all-reduced `tensor<1024xf16>` expanded to
`4x256` for a residual add), or a `tensor.extract_slice` of a computed tile (the first
row of a sum, stored), is left to this pass, which runs once every compute is a
`linalg.generic`. An elementwise generic (identity maps, all-parallel) computes each
element from the same position of each input, so it commutes with any reshape, which
keeps row-major order, and with any box of positions:
`reshape(f(a, b)) = f(reshape(a), reshape(b))`, `slice(f(a, b)) = f(slice(a), slice(b))`.
The pass rewrites the generic over the new shape, reshaping (slicing) each tensor input
in its place, and repeats on those. A slice also moves through a generic whose inputs are
read at a projection of the position (a broadcast row, `(d0, d1) -> (d1)`): each input
is sliced along the dims its map keeps, and read whole where the box covers them.

- a reshape of a loaded tile becomes a load through a reshaped access
  (`reshape-to-access`'s rule), a slice of one a load of the sub-tile
  (`slice-to-subtile`'s rule);
- a reshape or slice of a `linalg.fill` or of a `tensor.empty` is a fill or an empty
  tensor of the new shape;
- a reshape of a reshape reshapes the first one's source.

A sliced value that other ops use too is computed again over the slice (only the slice's
elements).

A reshape that cannot move up (its value made by a generic that is not elementwise, by a
loop: a K loop's sums carried in the loop's shape by `reshape-through-loops`; in another
block; or used elsewhere too) moves down when every use of it is a store or an
elementwise generic of the same block whose own result can move down the same way:
`g(reshape(x), y) = reshape(g(x, inverse(y)))`. Each such generic runs over `x`'s shape,
its other operands reshaped back (the opposite reshape, which then moves up as above or
cancels the reshape it undoes), and once only stores use the reshape they store `x`
through a reshaped tile (`reshape-to-access`'s rule). A collapse moves down through any
generic whose maps are projected permutations, too (a transpose, a broadcast of another
operand, a reduction over other dims): each collapsed dim is a group of the source's
dims, the iteration dim it is read at becomes that group, every operand that reads such
a dim is expanded the same way, and the result is collapsed again by the groups it keeps
(`g(collapse(x), y) = collapse'(g'(x, expand(y)))`). A gathered tile's data, whose shape
is its variables' (`split-indirect-variables` merges a page and its rows back by such a
collapse), moves this way only; where it cannot (the merged rows read by a matmul), the
gathered tile is copied as it is into a slot of the executing tile's scratchpad and the
reshape reads the slot (`reshape-to-access`'s staging). Anything else (a reshape of a
computed value read by a matmul, an expand read by a reduction or a broadcast; a slice
of a value made by such a generic or across a loop or condition boundary; a slice with
run-time offsets, strides or a rank change) is refused with a located "not supported
yet"."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import AffineMapAttr, ModuleOp, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.dialects.linalg.ops import FillOp, GenericOp
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from spyre_sched.dialects import ktdp
from spyre_sched.normalize.common import (
    PARALLEL,
    enclosing_func,
    kernel_of,
    note_origin,
    origin_of,
    reassociation,
)
from spyre_sched.normalize.reshape_to_access import (
    gathered_beyond_unit_dims,
    reshape_load,
    stage_load,
    store_source,
)
from spyre_sched.normalize.slice_to_subtile import check_static_slice, slice_load
from spyre_sched.schedule.common import fail

NAME = "layout-through-elementwise"

Reshape = tensor.CollapseShapeOp | tensor.ExpandShapeOp
Layout = Reshape | tensor.ExtractSliceOp


def _shape(value: SSAValue) -> list[int]:
    assert isinstance(value.type, TensorType)
    return list(value.type.get_shape())


def _reshaped(value: SSAValue, shape: list[int]) -> TensorType:
    assert isinstance(value.type, TensorType)
    return TensorType(value.type.element_type, shape)


def _is_elementwise(generic: GenericOp) -> bool:
    if any(it != PARALLEL for it in generic.iterator_types):
        return False
    rank = len(generic.iterator_types)
    return all(m.data == AffineMap.identity(rank) for m in generic.indexing_maps)


def _refuse(op: Operation, why: str):
    return fail(op, NAME, f"not supported yet: {op.name} of a computed value {why} "
                "(reshapes and slices of loaded tiles, of stored values and of elementwise "
                "computes on them are)")


def _new_reshape(like: Operation, source: SSAValue, shape: list[int],
                 before: Operation) -> Operation:
    """A reshape of `source` to `shape` of the same kind as `like`, put before `before`
    (the result's element type is the source's: an input may differ from the output)."""
    made = type(like).create(operands=[source, *like.operands[1:]],
                             result_types=[_reshaped(source, shape)],
                             properties=dict(like.properties), attributes=dict(like.attributes))
    note_origin([made], like)
    Rewriter.insert_op(made, InsertPoint.before(before))
    return made


def _push(reshape: Operation) -> list[Operation]:
    """Rewrite one reshape or slice; returns the ones it made (to push in turn)."""
    source, result = reshape.operands[0], reshape.results[0]
    shape = _shape(result)
    producer = source.owner
    sliced = isinstance(reshape, tensor.ExtractSliceOp)
    if sliced:
        check_static_slice(reshape, NAME)
    if not isinstance(producer, Operation):
        return _sink_or_refuse(reshape, "defined by a loop or a block (an iteration argument)")
    if isinstance(producer, tensor.CollapseShapeOp | tensor.ExpandShapeOp) and not sliced:
        first = producer.operands[0]
        if first.type == result.type:  # the two undo each other
            _replace(reshape, first)
            _erase_if_unused(producer)
            return []
        reshape.operands[0] = first
        _erase_if_unused(producer)
        return [reshape]
    if isinstance(producer, ktdp.LoadOp):
        if sliced:
            slice_load(reshape)
        elif gathered_beyond_unit_dims(producer, reshape):
            # (the gather's shape is its variables': the reshape can only move down, or,
            # where it cannot follow, read the gathered rows back from a scratchpad slot)
            if _can_sink(reshape):
                return _sink(reshape)
            stage_load(reshape, producer, enclosing_func(reshape))
        else:
            reshape_load(reshape, enclosing_func(reshape))
        return []
    if len(list(source.uses)) != 1 and not sliced:
        return _sink_or_refuse(reshape, "that is also used elsewhere (it would be computed twice)")
    if producer.parent_block() is not reshape.parent_block():
        return _sink_or_refuse(reshape, "made in another block (a loop or condition boundary)")
    if isinstance(producer, tensor.EmptyOp):
        made = tensor.EmptyOp([], _reshaped(source, shape))
        note_origin([made], producer)
        Rewriter.insert_op(made, InsertPoint.before(producer))
        _replace(reshape, made.results[0])
        _erase_if_unused(producer)
        return []
    if isinstance(producer, FillOp):
        init = _new_reshape(reshape, producer.outputs[0], shape, producer)
        made = FillOp([producer.inputs[0]], [init.results[0]], [_reshaped(source, shape)],
                      attributes=dict(producer.attributes))
        return _replace_producer(reshape, producer, made, [init])
    if isinstance(producer, GenericOp) and _is_elementwise(producer) \
            and len(producer.results) == 1:
        pushed = [_new_reshape(reshape, v, shape, producer)
                  for v in [*producer.inputs, *producer.outputs]]
        made = _elementwise_over(producer, [p.results[0] for p in pushed], shape)
        return _replace_producer(reshape, producer, made, pushed)
    if sliced and isinstance(producer, GenericOp) and _is_projection(producer) \
            and len(producer.results) == 1:
        return _slice_projection(reshape, producer)
    return _sink_or_refuse(reshape, f"made by {origin_of(producer).name}, which is not "
                           "elementwise")


def _sink_or_refuse(reshape: Operation, why: str) -> list[Operation]:
    """A reshape that cannot move to its source's inputs moves the other way, to memory
    on the store side, when every use of it is an elementwise generic or a store;
    else it is refused, saying `why`."""
    if _can_sink(reshape):
        return _sink(reshape)
    raise _refuse(reshape, why)


def _can_sink(op: Operation) -> bool:
    return isinstance(op, Reshape) and _sinkable(op)


def _sinkable(op: Operation, collapsing: bool | None = None) -> bool:
    """Every use of `op`'s result (a reshape, then each generic sinking puts it after) is
    a store of the value or an input of an elementwise generic of one result in the same
    block, whose result is sinkable in turn; a collapse also sinks through a generic whose
    maps are projected permutations (`_through_projections`)."""
    if collapsing is None:
        collapsing = isinstance(op, tensor.CollapseShapeOp)
    for use in op.results[0].uses:
        user = use.operation
        if isinstance(user, ktdp.StoreOp) and use.index == 0:
            continue
        if collapsing and isinstance(user, GenericOp) and use.index < len(user.inputs) \
                and _projected(user) and user.parent_block() is op.parent_block() \
                and _sinkable(user, True):
            continue
        if not (isinstance(user, GenericOp) and _is_elementwise(user)
                and len(user.results) == 1 and use.index < len(user.inputs)
                and user.parent_block() is op.parent_block()
                and _sinkable(user, collapsing)):
            return False
    return True


def _dims(m: AffineMap) -> list[int] | None:
    """The dims a projected-permutation map reads, in order (None: another map)."""
    dims = [getattr(r, "position", None) for r in m.results]
    if None in dims or len(set(dims)) != len(dims):
        return None
    return dims  # type: ignore[return-value]


def _projected(generic: GenericOp) -> bool:
    """One result, every operand read at a projected permutation of the position (a
    transpose, a broadcast row or column, a reduction's output), and, when it reduces,
    one tensor input (a reduction of one value, not a contraction such as a matmul,
    which the scheduler reads in its own 2-D form)."""
    if len(generic.results) != 1 or len(generic.outputs) != 1 \
            or any(_dims(m.data) is None for m in generic.indexing_maps):
        return False
    tensors = [v for v in generic.inputs if isinstance(v.type, TensorType)]
    return all(it == PARALLEL for it in generic.iterator_types) or len(tensors) == 1


def _groups(reshape: Operation) -> list[list[int]]:
    return [[int(i.value.data) for i in group.data] for group in reshape.reassociation.data]


def _runs(dims: list[int], new_dims: list[list[int]]) -> list[list[int]]:
    """The reassociation of an operand read at `dims` once each iteration dim d is
    `new_dims[d]`: consecutive positions, as many for each of its dims."""
    runs, at = [], 0
    for d in dims:
        runs.append(list(range(at, at + len(new_dims[d]))))
        at += len(new_dims[d])
    return runs


def _through_projections(collapse: Operation, user: GenericOp) -> list[Operation]:
    """`g(collapse(x), y) = collapse'(g'(x, expand(y)))` for a generic `g` whose maps are
    projected permutations: each dim of the collapsed value is a group of `x`'s dims, so
    the iteration dim it is read at becomes that group's dims (of the same iterator
    type: a reduction over a merged dim reduces over its group in the same order), every
    map reads the new dims in its old dims' places, and every other operand that reads
    an expanded dim is expanded the same way (those expands move up). The result is
    collapsed back by the groups of the dims it keeps, and that collapse sinks on.
    (All-identity maps are `_sink`'s elementwise case.)"""
    source = collapse.operands[0]
    src_shape = _shape(source)
    groups = _groups(collapse)
    maps = [m.data for m in user.indexing_maps]
    operands = [*user.inputs, *user.outputs]
    mine = next(k for k, v in enumerate(operands) if v is collapse.results[0])
    # the new dims of each old iteration dim
    read = _dims(maps[mine])
    assert read is not None
    extent = {it: [src_shape[g] for g in groups[k]] for k, it in enumerate(read)}
    new_dims: list[list[int]] = []
    iterators = []
    for it, kind in enumerate(user.iterator_types):
        n = len(extent.get(it, [None]))
        new_dims.append(list(range(len(iterators), len(iterators) + n)))
        iterators += [kind] * n
    upward: list[Operation] = []
    new_operands: list[SSAValue] = []
    new_maps: list[AffineMapAttr] = []
    for k, (value, m) in enumerate(zip(operands, maps)):
        dims = _dims(m)
        assert dims is not None
        results = [AffineExpr.dimension(n) for d in dims for n in new_dims[d]]
        new_maps.append(AffineMapAttr(AffineMap(len(iterators), 0, tuple(results))))
        if k == mine:
            new_operands.append(source)
            continue
        if not isinstance(value.type, TensorType) or all(len(new_dims[d]) == 1 for d in dims):
            new_operands.append(value)
            continue
        shape = [n for d, size in zip(dims, _shape(value))
                 for n in (extent[d] if d in extent else [size])]
        grown = tensor.ExpandShapeOp(value, [], reassociation(_runs(dims, new_dims)), shape,
                                     _reshaped(value, shape))
        note_origin([grown], user)
        Rewriter.insert_op(grown, InsertPoint.before(user))
        upward.append(grown)
        new_operands.append(grown.results[0])
    inputs = len(user.inputs)
    out_dims = _dims(maps[-1])
    assert out_dims is not None
    out_shape = _shape(new_operands[-1])
    made = GenericOp(new_operands[:inputs], new_operands[inputs:], user.body.clone(),
                     new_maps, iterators, [_reshaped(user.results[0], out_shape)],
                     doc=user.doc, library_call=user.library_call)
    made.attributes.update(user.attributes)
    made.results[0].name_hint = user.results[0].name_hint
    note_origin([made], user)
    Rewriter.insert_op(made, InsertPoint.before(user))
    if out_shape == _shape(user.results[0]):  # (every merged dim reduced away)
        _replace(user, made.results[0])
        return upward
    after = tensor.CollapseShapeOp.create(
        operands=[made.results[0]], result_types=[user.results[0].type],
        properties={"reassociation": reassociation(_runs(out_dims, new_dims))})
    note_origin([after], collapse)
    Rewriter.insert_op(after, InsertPoint.before(user))
    _replace(user, after.results[0])
    return upward + _sink(after)


def _inverse(like: Operation, value: SSAValue, before: Operation) -> Operation:
    """The reshape undoing `like` (from its result's shape back to its source's), of
    `value`, put before `before`."""
    source = like.operands[0]
    if isinstance(like, tensor.ExpandShapeOp):
        made: Operation = tensor.CollapseShapeOp.create(
            operands=[value], result_types=[_reshaped(value, _shape(source))],
            properties={"reassociation": like.reassociation})
    else:
        made = tensor.ExpandShapeOp(value, [], like.properties["reassociation"],
                                    _shape(source), _reshaped(value, _shape(source)))
    note_origin([made], like)
    Rewriter.insert_op(made, InsertPoint.before(before))
    return made


def _sink(reshape: Operation) -> list[Operation]:
    """`g(reshape(x), y) = reshape(g(x, inverse(y)))` for an elementwise `g`: every
    generic using the reshape computes over its source's shape, its other operands
    reshaped back (those reshapes move to their sources' inputs in turn: returned), and
    the reshape of its result sinks the same way until every use is a store, which then
    stores the source through a reshaped tile (reshape-to-access's rule)."""
    source = reshape.operands[0]
    shape = _shape(source)
    upward: list[Operation] = []
    for user in list(dict.fromkeys(u.operation for u in reshape.results[0].uses)):
        if not isinstance(user, GenericOp):
            continue
        if not _is_elementwise(user):
            upward += _through_projections(reshape, user)  # (_sinkable: a collapse)
            continue
        # (elementwise: every operand a tensor of the user's shape)
        operands: list[SSAValue] = []
        for value in [*user.inputs, *user.outputs]:
            if value is reshape.results[0]:
                operands.append(source)
            else:
                back = _inverse(reshape, value, user)
                upward.append(back)
                operands.append(back.results[0])
        made = _elementwise_over(user, operands, shape)
        made.results[0].name_hint = user.results[0].name_hint
        note_origin([made], user)
        Rewriter.insert_op(made, InsertPoint.before(user))
        after = _new_reshape(reshape, made.results[0], _shape(user.results[0]), user)
        _replace(user, after.results[0])
        upward += _sink(after)
    store_source(reshape, enclosing_func(reshape))
    return upward


def _elementwise_over(generic: GenericOp, operands: list[SSAValue],
                      shape: list[int]) -> GenericOp:
    """Elementwise `generic` (one result) again over `shape`, on `operands` (its inputs,
    then its outputs, each a tensor of that shape)."""
    identity = AffineMapAttr(AffineMap.identity(len(shape)))
    inputs = len(generic.inputs)
    made = GenericOp(operands[:inputs], operands[inputs:], generic.body.clone(),
                     [identity] * len(operands), [PARALLEL] * len(shape),
                     [_reshaped(generic.results[0], shape)],
                     doc=generic.doc, library_call=generic.library_call)
    made.attributes.update(generic.attributes)
    return made


def _is_projection(generic: GenericOp) -> bool:
    """All-parallel, an identity output map, and inputs read at a projection of the
    position (a broadcast row or column: `(d0, d1) -> (d1)`, each result a distinct
    dim, in order)."""
    if any(it != PARALLEL for it in generic.iterator_types):
        return False
    rank = len(generic.iterator_types)
    maps = [m.data for m in generic.indexing_maps]
    if maps[-1] != AffineMap.identity(rank):
        return False
    for m in maps[:-1]:
        dims = [getattr(r, "position", None) for r in m.results]
        if any(not isinstance(r, AffineDimExpr) for r in m.results) or dims != sorted(set(dims)):
            return False
    return True


def _slice_projection(sliced: tensor.ExtractSliceOp, producer: GenericOp) -> list[Operation]:
    """A slice of an all-parallel generic whose inputs are projections of the position:
    the generic over the slice's box, each tensor input sliced along the dims its map
    keeps (an input the box covers whole is read as it is)."""
    offsets = list(sliced.static_offsets.get_values())
    sizes = list(sliced.static_sizes.get_values())
    pushed: list[Operation] = []
    inputs: list[SSAValue] = []
    for value, m in zip(producer.inputs, producer.indexing_maps):
        if not isinstance(value.type, TensorType):
            inputs.append(value)  # a scalar operand
            continue
        dims = [r.position for r in m.data.results]  # type: ignore[attr-defined]
        offs, extents = [offsets[d] for d in dims], [sizes[d] for d in dims]
        if not any(offs) and extents == _shape(value):
            inputs.append(value)
            continue
        cut = tensor.ExtractSliceOp.from_static_parameters(value, offs, extents)
        note_origin([cut], sliced)
        Rewriter.insert_op(cut, InsertPoint.before(producer))
        pushed.append(cut)
        inputs.append(cut.results[0])
    init = _new_reshape(sliced, producer.outputs[0], sizes, producer)
    pushed.append(init)
    made = GenericOp(inputs, [init.results[0]], producer.body.clone(),
                     list(producer.indexing_maps), list(producer.iterator_types),
                     [_reshaped(producer.results[0], sizes)],
                     doc=producer.doc, library_call=producer.library_call)
    made.attributes.update(producer.attributes)
    return _replace_producer(sliced, producer, made, pushed)


def _replace(reshape: Operation, value: SSAValue) -> None:
    value.name_hint = reshape.results[0].name_hint or value.name_hint
    reshape.results[0].replace_all_uses_with(value)
    reshape.detach()
    reshape.erase()


def _replace_producer(reshape: Operation, producer: Operation, made: Operation,
                      pushed: list[Operation]) -> list[Operation]:
    note_origin([made], producer)
    Rewriter.insert_op(made, InsertPoint.before(producer))
    _replace(reshape, made.results[0])
    _erase_if_unused(producer)
    return pushed


def _erase_if_unused(producer: Operation) -> None:
    """The producer goes once the reshape or slice was its only use (a sliced value
    used elsewhere too stays: the slice is computed again over its own box)."""
    if not any(r.uses for r in producer.results):
        producer.detach()
        producer.erase()


@dataclass(frozen=True)
class LayoutThroughElementwise(ModulePass):
    """Reshapes and slices of computed values -> the same computes over reshaped (sliced)
    inputs."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        del ctx
        for fn in kernel_of(op):
            assert isinstance(fn, FuncOp)
            work = [o for o in fn.walk() if isinstance(o, Layout)]
            while work:
                reshape = work.pop(0)
                if reshape.parent is None:
                    continue
                if not reshape.results[0].uses:
                    reshape.detach()
                    reshape.erase()
                    continue
                work[:0] = _push(reshape)

