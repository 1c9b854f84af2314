"""What the normal-form passes share: building an elementwise `linalg.generic`, a box
as an affine set, the kernel function a pass rewrites, and which of its arguments a value
depends on."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from weakref import WeakKeyDictionary

from xdsl.dialects import tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AffineSetAttr,
    AnyFloat,
    ArrayAttr,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    TensorType,
    i64,
)
from xdsl.dialects.func import FuncOp
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

from spyre_sched.dialects import ktdp
from spyre_sched.schedule.common import kernel_funcs
from spyre_sched.errors import fold_hint
from spyre_sched.polyhedral.point_sets import box_set

#: op made by a normal-form pass -> the op it replaced, so an error a later pass reports on
#: it can point at what the kernel author wrote (`spyre_sched.pipeline` follows the chain)
ORIGIN: WeakKeyDictionary[Operation, Operation] = WeakKeyDictionary()


def note_origin(new_ops: Sequence[Operation], old: Operation) -> None:
    for op in new_ops:
        ORIGIN[op] = ORIGIN.get(old, old)


def origin_of(op: Operation) -> Operation:
    """The op of the kernel as written that `op` was made from (itself if none)."""
    return ORIGIN.get(op, op)


PARALLEL = IteratorTypeAttr.parallel()
REDUCTION = IteratorTypeAttr.reduction()


def element_type(t: Attribute) -> Attribute:
    return t.element_type if isinstance(t, TensorType) else t


def empty_like(result_type: TensorType) -> tensor.EmptyOp:
    return tensor.EmptyOp([], result_type)


def parallel_generic(inputs: Sequence[SSAValue], input_maps: Sequence[AffineMap],
                     init: SSAValue, result_type: TensorType,
                     body: Callable[[Sequence[SSAValue]], tuple[list[Operation], SSAValue]]
                     ) -> GenericOp:
    """An all-parallel generic over `result_type`'s shape writing `init` (identity output
    map). `body(args)` gets the scalar block arguments of the inputs and returns the ops
    that compute the element and the value to yield."""
    rank = result_type.get_num_dims()
    block = Block(arg_types=[element_type(v.type) for v in inputs]
                  + [result_type.element_type])
    ops, value = body(block.args[:len(inputs)])
    for op in ops:
        block.add_op(op)
    block.add_op(YieldOp(value))
    maps = [AffineMapAttr(m) for m in input_maps] + [AffineMapAttr(AffineMap.identity(rank))]
    return GenericOp(list(inputs), [init], Region(block), maps, [PARALLEL] * rank,
                     [result_type])


def replace_naming_result(rewriter, op: Operation, ops: Sequence[Operation],
                          value: SSAValue) -> None:
    """Replace `op`'s one result by `value` (computed by `ops`), the name going to `value`
    only (the rewriter would give it to every new result)."""
    name = op.results[0].name_hint
    note_origin(ops, op)
    rewriter.replace(op, list(ops), [value])
    for inner in ops:
        for result in inner.results:
            result.name_hint = name if result is value else None


def kernel_of(module: ModuleOp) -> list[Operation]:
    """The kernel functions of the module (the normal form runs before program split)."""
    return list(kernel_funcs(module))


def reassociation(groups: Sequence[Sequence[int]]) -> ArrayAttr:
    """A reshape's `reassociation` property: each group of dims of the higher-rank side."""
    return ArrayAttr([ArrayAttr([IntegerAttr(i, i64) for i in group]) for group in groups])


def view_and_tile(offset: SSAValue, sizes: list[int], strides: list[int], view_box,
                  space: Attribute, element: Attribute, subscripts: Sequence[SSAValue],
                  tile_box) -> tuple[Operation, Operation]:
    """A view of constant sizes and strides at `offset` (coordinates `view_box`) and an
    access tile on it at `subscripts` over `tile_box`, in identity order."""
    view = ktdp.ConstructMemoryViewOp.build(
        operands=[offset, [], []],
        properties={
            "static_sizes": DenseArrayBase.from_list(i64, sizes),
            "static_strides": DenseArrayBase.from_list(i64, strides),
            "coordinate_set": AffineSetAttr(box_set(view_box)),
            "memory_space": space,
        },
        result_types=[MemRefType(element, sizes)],
    )
    rank = len(tile_box)
    tile = ktdp.ConstructAccessTileOp.build(
        operands=[view.results[0], list(subscripts), []],
        properties={
            # (the subscripts are the base map's symbols)
            "base_map": AffineMapAttr(AffineMap(0, rank, tuple(AffineExpr.symbol(k)
                                                              for k in range(rank)))),
            "access_tile_set": AffineSetAttr(box_set(tile_box)),
            "access_tile_order": AffineMapAttr(AffineMap.identity(rank)),
        },
        result_types=[ktdp.AccessTileType([hi - lo + 1 for lo, hi in tile_box])],
    )
    return view, tile


def enclosing_func(op: Operation) -> FuncOp:
    """The function holding `op`."""
    current = op.parent_op()
    while not isinstance(current, FuncOp):
        assert current is not None
        current = current.parent_op()
    return current


def argument_hint(values: Sequence[SSAValue]) -> str:
    """For an error about `values` not being constants: the kernel's scalar arguments they
    are computed from, and the `--arg` options that fix them at compile time; "" when
    they come from none (a loop's induction variable, a value read from memory) or from
    run-time arguments (`!ktdp.runtime_arg`, symbols of the launch)."""
    names: list[str] = []
    seen: set[SSAValue] = set()
    work = list(values)
    while work:
        value = work.pop()
        # (scalars only: a value read from memory does not depend on its pointer's value,
        # and a run-time argument's type is not a scalar's)
        if value in seen or not isinstance(value.type, IndexType | IntegerType | AnyFloat):
            continue
        seen.add(value)
        if isinstance(value, BlockArgument):
            if isinstance(value.block.parent_op(), FuncOp) and value.name_hint \
                    and value.name_hint not in names:
                names.append(value.name_hint)
            continue
        work.extend(value.owner.operands)
    if not names:
        return ""
    names.sort()
    which = ", ".join(f"%{name}" for name in names)
    return f"; they depend on the kernel's argument{'s' if len(names) > 1 else ''} {which}: " \
           + fold_hint(names)
