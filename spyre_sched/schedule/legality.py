"""Pass 1, legality-check: refuse, at the op, what this scheduler cannot schedule yet.

Runs on the KTIR module before anything is rewritten, so every error points at the op
the kernel author wrote ("not supported yet: ..."). What passes here, later passes
handle: elementwise, broadcast and reduction work (named elementwise ops,
`linalg.generic` with projected-permutation maps, `linalg.map`, `linalg.broadcast`, `linalg.reduce`,
`linalg.fill`, `linalg.matmul`, `linalg.transpose`, `arith`/`math` ops on tensors, `tensor.splat`, slices of loaded tiles) on
f16 and f32, brought to
one spelling by the normal-form passes that follow (`spyre_sched/normalize`), rectangular access tiles in their natural order, views in device memory, the
tile's own scratchpad or (read only) another core's, KTIR `scf.for`/`scf.if` around load -> compute -> store chains,
grids of any rank (the normal form numbers their tiles along one dimension), views with run-time sizes (`ktdp.runtime_arg`) and static strides
(access tiles keep static shapes; the run-time value bounds the orchestrator's loops).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.linalg.ops import (
    BroadcastOp,
    FillOp,
    GenericOp,
    MatmulOp,
    ReduceOp,
    TransposeOp,
)
from xdsl.dialects.builtin import (
    AffineMapAttr,
    MemRefType,
    ModuleOp,
    TensorType,
)
from xdsl.dialects.linalg.abstract_ops import ElementwiseOperation
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass

from spyre_sched.dialects import ktdp
from spyre_sched.dialects.linalg_ktir import BatchMatmulOp, MapOp, inside_linalg_body
from spyre_sched.errors import DeviceError, UnsupportedError
from spyre_sched.polyhedral.distributed import Unresolved, resolve
from spyre_sched.polyhedral.exchanges import ExchangeRefused, plan_exchange
from spyre_sched.polyhedral.kernel_model import KernelModel
from spyre_sched.polyhedral.point_sets import box_bounds
from spyre_sched.polyhedral.tile_image import projected_dims
from spyre_sched.schedule.common import device_of, fail, kernel_funcs
from spyre_sched.schedule.indirect_views import check_indirect_tile

NAME = "legality-check"

ELEMENT_TYPES = ("f16", "f32", "bf16")
#: element types of index tensors (the views indirect access tiles read coordinates from)
INDEX_TYPES = ("i32", "i64")

#: ops that may appear in the kernel outside linalg bodies
_KERNEL_DIALECTS = ("arith.", "math.", "affine.apply", "scf.for", "scf.if", "scf.yield",
                    "func.return", "tensor.empty", "tensor.splat", "tensor.extract_slice",
                    "tensor.extract", "tensor.from_elements", "tensor.collapse_shape",
                    "tensor.expand_shape", "ktdp.")


def _has_df16(attr: Attribute) -> bool:
    return "df16" in str(attr)


def check_op(op: Operation, device) -> None:
    """Raise a located `not supported yet` error if `op` is out of scope."""
    types = [r.type for r in op.results] + [o.type for o in op.operands]
    if any(_has_df16(t) for t in types):
        raise fail(op, NAME, "not supported yet: df16 (DLFloat16) data")
    if isinstance(op, ktdp.ConstructMemoryViewOp):
        _check_view(op, device)
    elif isinstance(op, ktdp.ConstructAccessTileOp):
        _check_tile(op)
    elif isinstance(op, ktdp.ConstructIndirectAccessTileOp):
        check_indirect_tile(op, NAME)
    elif isinstance(op, ktdp.LoadOp | ktdp.StoreOp):
        if not isinstance(op.tile.owner, ktdp.ConstructAccessTileOp | ktdp.ConstructIndirectAccessTileOp):
            raise fail(op, NAME, "not supported yet: an access tile that is not built by "
                       "ktdp.construct_access_tile in the kernel")
    elif isinstance(op, GenericOp):
        _check_generic(op)
    elif isinstance(op, ReduceOp):
        _check_tensor_types(op)
        _check_reduction_init(op, op.init)
    elif isinstance(op, ElementwiseOperation | FillOp | BroadcastOp | MatmulOp | TransposeOp
                    | MapOp | BatchMatmulOp):
        _check_tensor_types(op)
    elif op.name.startswith("linalg.") and op.name != "linalg.yield" \
            and not inside_linalg_body(op):
        raise fail(op, NAME, f"not supported yet: {op.name} (the linalg ops scheduled are "
                   "linalg.generic, the named elementwise ops, linalg.map, linalg.broadcast, "
                   "linalg.reduce, linalg.fill, linalg.matmul, linalg.batch_matmul and "
                   "linalg.transpose)")
    elif not inside_linalg_body(op) and not op.name.startswith(_KERNEL_DIALECTS) \
            and not isinstance(op, func.FuncOp):
        raise fail(op, NAME, f"not supported yet: {op.name} in a kernel")
    elif not inside_linalg_body(op) and op.name.startswith(("arith.", "math.", "tensor.splat")):
        _check_tensor_types(op)


def _check_view(op: ktdp.ConstructMemoryViewOp, device) -> None:
    if op.strides:
        raise fail(op, NAME, "not supported yet: views with run-time strides (run-time sizes "
                   "with static strides are supported)")
    mtype = op.result.type
    assert isinstance(mtype, MemRefType)
    if str(mtype.element_type) in INDEX_TYPES and _only_indexes(op):
        pass  # an index tensor: its values become addresses, never computed with
    elif str(mtype.element_type) not in ELEMENT_TYPES:
        raise fail(op, NAME, f"not supported yet: element type {mtype.element_type} "
                   f"(this version schedules {' and '.join(ELEMENT_TYPES)})")
    space = op.memory_space
    if space.space == "ct_local" and op.sizes:
        raise fail(op, NAME, "not supported yet: scratchpad (ct_local) views with run-time "
                   "sizes (the region the kernel pins must be known at compile time)")
    if space.space == "ct_local" and space.tile is not None and not _only_a_part(op) \
            and not 0 <= int(space.tile) < device.num_cores:
        raise fail(op, NAME, f"a view in core {space.tile}'s scratchpad (ct_id = "
                   f"{space.tile}), but device {device.name} has cores 0..{device.num_cores - 1}")
    try:
        device.memory_kind_for(space.space)
    except DeviceError as err:
        raise fail(op, NAME, err.message) from None


def _check_distributed(kernel: func.FuncOp) -> None:
    """A distributed view is scheduled when it reads as one plain view (the normal form's
    `resolve-distributed-views` makes it one); one that does not is refused here."""
    views = [op for op in kernel.walk() if isinstance(op, ktdp.ConstructDistributedMemoryViewOp)]
    if not views:
        return
    try:
        model = KernelModel(kernel)
    except UnsupportedError as err:
        raise fail(getattr(err, "op", None) or views[0], NAME, err.message) from None
    for view in views:
        try:
            resolve(model, view)
        except Unresolved as err:
            raise fail(err.op or view, NAME, err.message) from None


def _only_a_part(op: ktdp.ConstructMemoryViewOp) -> bool:
    """A view used only as a part of distributed views (most of which never name their
    cores' scratchpads: `_check_distributed` decides)."""
    uses = list(op.result.uses)
    return bool(uses) and all(isinstance(u.operation, ktdp.ConstructDistributedMemoryViewOp)
                              for u in uses)


def _check_exchanges(kernel: func.FuncOp) -> None:
    """Inter-tile exchanges are scheduled when every consumer tile needs the partials of
    the same producer tiles, once (`lower-inter-tile`); one that waits for a partial no
    tile produces is a deadlock, refused here."""
    users = [op for op in kernel.walk()
             if isinstance(op, (ktdp.InterTileConsumeOp, ktdp.InterTileReduceOp))]
    if not users:
        return
    try:
        model = KernelModel(kernel)
    except UnsupportedError as err:
        raise fail(getattr(err, "op", None) or users[0], NAME, err.message) from None
    for op in users:
        try:
            plan_exchange(model, op)
        except ExchangeRefused as err:
            raise fail(err.op, NAME, err.message) from None
        except UnsupportedError as err:
            raise fail(op, NAME, err.message) from None


def _only_indexes(op: ktdp.ConstructMemoryViewOp) -> bool:
    """Every use of the view is as an index tensor of an indirect access tile."""
    uses = list(op.result.uses)
    return bool(uses) and all(
        isinstance(u.operation, ktdp.ConstructIndirectAccessTileOp)
        and u.operation.view is not op.result for u in uses)


def _check_tile(op: ktdp.ConstructAccessTileOp) -> None:
    if op.tile_symbols:
        raise fail(op, NAME, "not supported yet: access tiles whose set has symbols")
    if box_bounds(op.access_tile_set.data, []) is None:
        raise fail(op, NAME, "not supported yet: non-rectangular access tiles (strided, "
                   "skewed or triangular sets)")


def _check_tensor_types(op: Operation) -> None:
    for value in [*op.operands, *op.results]:
        t = value.type
        if isinstance(t, TensorType) and str(t.element_type) not in ELEMENT_TYPES \
                and not _a_selecting_comparison(value):
            raise fail(op, NAME, f"not supported yet: element type {t.element_type}")


def _a_selecting_comparison(value) -> bool:
    """An i1 tensor of an `arith.cmpf` used only as the condition of selects (the normal
    form computes the pair in one generic, the comparison as a float mask)."""
    owner = value.owner
    uses = list(value.uses)
    return (isinstance(owner, Operation) and owner.name == "arith.cmpf" and bool(uses)
            and all(u.operation.name == "arith.select" and u.index == 0 for u in uses))


def _check_generic(op: GenericOp) -> None:
    _check_tensor_types(op)
    if len(op.outputs) != 1:
        raise fail(op, NAME, "not supported yet: a linalg.generic with several outputs")
    for m in op.indexing_maps.data:
        assert isinstance(m, AffineMapAttr)
        if projected_dims(m.data) is None:
            raise fail(op, NAME, f"not supported yet: indexing map {m.data} (only projected "
                       "permutations: elementwise, broadcast and reduction access)")
    kinds = [str(t.data) for t in op.iterator_types.data]
    if any(k not in ("parallel", "reduction") for k in kinds):
        raise fail(op, NAME, f"not supported yet: iterator types {kinds}")
    if "reduction" in kinds:
        _check_reduction_init(op, op.outputs[0])


def _check_reduction_init(op: Operation, init) -> None:
    """Any tensor may start a reduction: a fill, a splat, a loaded or computed tensor (the
    normal form starts the reduction from its combiner's identity and combines the
    initial value after, or refuses a combiner it does not know), or a loop-carried
    accumulator (folded with its loop)."""
    if not isinstance(init.type, TensorType):
        raise fail(op, NAME, "not supported yet: a reduction into a memref")


@dataclass(frozen=True)
class LegalityCheck(ModulePass):
    """Refuse out-of-scope KTIR with a located "not supported yet" error."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        device = device_of(op, NAME)
        funcs = kernel_funcs(op)
        if len(funcs) != 1:
            raise fail(op, NAME, f"expected one kernel function, found {len(funcs)}")
        kernel = funcs[0]
        for inner in kernel.walk():
            if inner is not kernel:
                check_op(inner, device)
        _check_distributed(kernel)
        _check_exchanges(kernel)
