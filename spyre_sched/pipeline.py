"""The one place that lists the compiler's passes in order.

`SCHEDULE_STEPS` is the scheduler: KTIR -> ScheduleIR with open decisions,
device patterns applied at their checkpoints. Later stages (solve, lower) append their
own steps to a copy of the list and run them with the same `run_steps` driver, which
verifies the module after every step, prints it when asked, and stops after a named
step.

    from spyre_sched.pipeline import schedule
    module = schedule(kernel, "spyre")                       # open ScheduleIR
    module = schedule(kernel, "spyre", stop_after="naive-pipeline")
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr, UnitAttr
from xdsl.dialects.func import FuncOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import VerifyException

from spyre_sched.device import apply_device_patterns, load_device
from spyre_sched.dialects.registry import make_context
from spyre_sched.errors import SpyreSchedError, UnsupportedError, VerifyError
from spyre_sched.frontend import Kernel
from spyre_sched.normalize.affine_apply import AffineApplyToArith
from spyre_sched.normalize.block_accumulator import StackBlockAccumulators
from spyre_sched.normalize.body_index_to_float import BodyIndexToFloat
from spyre_sched.normalize.common import origin_of
from spyre_sched.normalize.compare_to_mask import CompareToMask
from spyre_sched.normalize.distributed_views import ResolveDistributedViews
from spyre_sched.normalize.drop_dead_values import DropDeadValues
from spyre_sched.normalize.extract_to_broadcast import ExtractToBroadcast
from spyre_sched.normalize.fill_inputs import FoldFillInputs
from spyre_sched.normalize.batch_matmul import BatchMatmulToMatmuls
from spyre_sched.normalize.fold_scalar_casts import FoldScalarCasts
from spyre_sched.normalize.identity_access_order import IdentityAccessOrder
from spyre_sched.normalize.indirect_subscripts import SimplifyIndirectSubscripts
from spyre_sched.normalize.indirect_variable_split import SplitIndirectVariables
from spyre_sched.normalize.inter_tile import LowerInterTile
from spyre_sched.normalize.linear_tile_id import LinearTileId
from spyre_sched.normalize.masked_views import MarkMaskedViews
from spyre_sched.normalize.matmul_to_generic import MatmulToGeneric
from spyre_sched.normalize.named_to_generic import LinalgNamedToGeneric
from spyre_sched.normalize.reduction_init import ReductionInitToFill
from spyre_sched.normalize.layout_through_elementwise import LayoutThroughElementwise
from spyre_sched.normalize.reshape_through_loops import ReshapeThroughLoops
from spyre_sched.normalize.reshape_to_access import ReshapeToAccess
from spyre_sched.normalize.scratchpad_arguments import PlaceScratchpadArguments
from spyre_sched.normalize.select_combiner import SelectCombiner
from spyre_sched.normalize.select_compare import SelectCompareToGeneric
from spyre_sched.normalize.sink_into_branches import SinkIntoBranches
from spyre_sched.normalize.slice_to_subtile import SliceToSubtile
from spyre_sched.normalize.splat_to_fill import SplatToFill
from spyre_sched.normalize.split_at_part_edges import SplitAtPartEdges
from spyre_sched.normalize.stored_fill_to_generic import StoredFillToGeneric
from spyre_sched.normalize.stores_after_reads import StoresAfterReads
from spyre_sched.normalize.remote_stores import MarkRemoteStores
from spyre_sched.normalize.tile_loop_bounds import TileLoopBounds
from spyre_sched.normalize.tensor_elementwise import TensorElementwiseToGeneric
from spyre_sched.normalize.unindexed_tiles import UnindexedTiles
from spyre_sched.normalize.untile_loops import UntileLoops
from spyre_sched.schedule.common import DEVICE_ATTR, ScheduleError
from spyre_sched.schedule.apply_keep import ApplyKeep
from spyre_sched.schedule.apply_share import ApplyShare
from spyre_sched.schedule.expand_paths import ExpandPaths
from spyre_sched.schedule.footprints import Footprints
from spyre_sched.schedule.fuse_compute import FuseCompute
from spyre_sched.schedule.fuse_tile_loops import FuseTileLoops
from spyre_sched.schedule.hoist import HoistInvariantTransfers
from spyre_sched.schedule.hoist_inner import HoistInnerInvariants
from spyre_sched.schedule.indirect_addresses import IndirectAddresses
from spyre_sched.schedule.indirect_views import IndirectViews
from spyre_sched.schedule.interchange_tile_loops import (
    REQUEST_ATTR as INTERCHANGE_ATTR,
    InterchangeTileLoops,
)
from spyre_sched.schedule.intermediates_in_memory import (
    REQUEST_ATTR,
    IntermediatesInMemory,
    moved_results,
)
from spyre_sched.schedule.keep_across import KeepAcrossPrograms
from spyre_sched.schedule.keep_resident import KeepResident
from spyre_sched.schedule.legality import LegalityCheck
from spyre_sched.schedule.naive_pipeline import NaivePipeline
from spyre_sched.schedule.nest_levels import NestByMemoryLevel
from spyre_sched.schedule.open_decisions import OpenDecisions
from spyre_sched.schedule.program_split import ProgramSplit
from spyre_sched.schedule.reductions import ChunkReductions
from spyre_sched.schedule.share_fetch import ShareFetch
from spyre_sched.schedule.stream_k_chunks import StreamKChunks
from spyre_sched.schedule.tile_intermediates import TileIntermediates
from spyre_sched.schedule.verify import verify_schedule_ir


@dataclass(frozen=True)
class DevicePatterns(ModulePass):
    """Apply the device's rewrite patterns for one checkpoint (from the device file)."""

    checkpoint: str = "pre_mapping"

    @property
    def step_name(self) -> str:
        return f"device-patterns-{self.checkpoint}"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        attr = op.attributes.get(DEVICE_ATTR)
        assert isinstance(attr, StringAttr)
        apply_device_patterns(load_device(attr.data), op, self.checkpoint)


#: The normal form (spyre_sched/normalize): every spelling of a kernel's compute brought
#: to the one the scheduler reads, after the legality check has seen the kernel as written.
NORMALIZE_STEPS: tuple[ModulePass, ...] = (
    IdentityAccessOrder(),
    SimplifyIndirectSubscripts(),
    SplitIndirectVariables(),
    UnindexedTiles(),
    MarkMaskedViews(),
    LowerInterTile(),
    # (before reshape-to-access: a batch of one is the 2-D matmul between reshapes)
    BatchMatmulToMatmuls(),
    ReshapeThroughLoops(),
    ReshapeToAccess(),
    SplitAtPartEdges(),
    ResolveDistributedViews(),
    LinearTileId(),
    DropDeadValues(),
    AffineApplyToArith(),
    FoldScalarCasts(),
    TileLoopBounds(),
    SliceToSubtile(),
    ExtractToBroadcast(),
    SplatToFill(),
    SelectCompareToGeneric(),
    TensorElementwiseToGeneric(),
    LinalgNamedToGeneric(),
    MatmulToGeneric(),
    LayoutThroughElementwise(),
    BodyIndexToFloat(),
    SelectCombiner(),
    CompareToMask(),
    FoldFillInputs(),
    StackBlockAccumulators(),
    UntileLoops(),
    ReductionInitToFill(),
    SinkIntoBranches(),
    StoredFillToGeneric(),
    StoresAfterReads(),
    MarkRemoteStores(),
)

#: The scheduler, in order. Each entry is a pass instance; `step_name` names it for
#: --stop-after and --print-ir-after-all.
SCHEDULE_STEPS: tuple[ModulePass, ...] = (
    DevicePatterns("pre_mapping"),
    # the compiler's choice of where the caller pins scratchpad arguments, so that every
    # later pass (the checks first) sees the kernel's scratchpad bytes as constants
    PlaceScratchpadArguments(),
    LegalityCheck(),
    *NORMALIZE_STEPS,
    # (moves results only in a kernel marked for it: `schedule`, `api.compile`)
    IntermediatesInMemory(),
    ProgramSplit(),
    DevicePatterns("pre_scheduling"),
    FuseCompute(),
    IndirectViews(),
    NaivePipeline(),
    ExpandPaths(),
    NestByMemoryLevel(),
    HoistInvariantTransfers(),
    ChunkReductions(),
    FuseTileLoops(),
    TileIntermediates(),
    # (a no-op unless asked: the second schedule of a kernel whose tile loops have two
    # orders the solver chooses between)
    InterchangeTileLoops(),
    HoistInnerInvariants(),
    StreamKChunks(),
    OpenDecisions(),
    KeepResident(),
    KeepAcrossPrograms(),
    ShareFetch(),
    DevicePatterns("post_scheduling"),
    IndirectAddresses(),
    Footprints(),
)

#: Run right after `solve` (spyre_sched.api.compile appends them to the solve step): they
#: turn solved choices that change the IR's structure into that structure.
POST_SOLVE_STEPS: tuple[ModulePass, ...] = (
    ApplyKeep(),
    ApplyShare(),
)

#: Passes run on KTIR input before any ScheduleIR exists (skipped for ScheduleIR input).
KTIR_ONLY = ("device-patterns-pre_mapping", "place-scratchpad-arguments", "legality-check",
             *(step.name for step in NORMALIZE_STEPS))


def step_name(step: ModulePass) -> str:
    return getattr(step, "step_name", None) or step.name


def step_names(steps: Sequence[ModulePass] = SCHEDULE_STEPS) -> list[str]:
    return [step_name(s) for s in steps]


PrintHook = Callable[[str, ModuleOp], None]


def run_steps(module: ModuleOp, steps: Sequence[ModulePass], *, stop_after: str | None = None,
              print_after_all: PrintHook | None = None, kernel: Kernel | None = None,
              ctx: Context | None = None, verify_each: bool | None = None) -> ModuleOp:
    """Run `steps` in order on `module` (in place) and verify the result.

    Verifying the whole module after every pass is a quarter of a compile's time, so by
    default it is verified once, after the last pass run; `verify_each` (implied by
    `print_after_all`, or set by the environment variable `SPYRE_SCHED_VERIFY_EACH=1`)
    verifies after every pass, to name the pass that broke the IR."""
    names = step_names(steps)
    if stop_after is not None and stop_after not in names:
        raise UnsupportedError(f"--stop-after {stop_after}: no such pass; the passes are "
                               + ", ".join(names))
    if verify_each is None:
        verify_each = print_after_all is not None or os.environ.get(VERIFY_EACH_ENV) == "1"
    ctx = ctx or make_context()
    ran: list[str] = []
    for step in steps:
        name = step_name(step)
        try:
            step.apply(ctx, module)
            ran.append(name)
            if verify_each:
                _verify(module, name)
        except SpyreSchedError as err:
            raise _located(err, kernel) from None
        if print_after_all is not None:
            print_after_all(name, module)
        if name == stop_after:
            if step is not steps[-1]:  # saved, this module resumes after `name`
                module.attributes[STOPPED_AFTER_ATTR] = StringAttr(name)
            break
    if not verify_each and ran:
        _verify(module, ran[0] if len(ran) == 1 else
                f"{ran[0]} .. {ran[-1]} (--verify-each names the pass that broke it)")
    return module


def _located(err: SpyreSchedError, kernel: Kernel | None) -> SpyreSchedError:
    """Give an error about a kernel op (a pass's `ScheduleError`, or an analysis error
    naming its `op`) the op's FILE:LINE:COL when we know it."""
    op = getattr(err, "op", None)
    op = origin_of(op) if op is not None else None
    if kernel is not None and op is not None and op in kernel.op_locations:
        if isinstance(err, ScheduleError):
            located = UnsupportedError(err.message, kernel.location_of(op))
            located.pass_name = err.pass_name  # type: ignore[attr-defined]
            return located
        if err.location is None:
            err.location = kernel.location_of(op)
    return err


#: the module attribute naming the pass a module saved by --stop-after stopped after
STOPPED_AFTER_ATTR = "ktdf.stopped_after"

#: set to 1 to verify the module after every pass (as `--verify-each` does)
VERIFY_EACH_ENV = "SPYRE_SCHED_VERIFY_EACH"


def _verify(module: ModuleOp, name: str) -> None:
    try:
        module.verify()
        verify_schedule_ir(module)
    except VerifyException as err:
        first = str(err).strip().splitlines()[0]
        raise VerifyError(f"the IR after pass {name} does not verify: {first}",
                          f"pass {name}") from None


def schedule(kernel: Kernel, device: str, *, stop_after: str | None = None,
             print_after_all: PrintHook | None = None,
             steps: Sequence[ModulePass] = SCHEDULE_STEPS,
             verify_each: bool | None = None, in_memory: bool = False,
             interchange: bool = False) -> ModuleOp:
    """KTIR kernel -> ScheduleIR (open decisions) for `device` (a name or a path).

    The kernel's module is rewritten in place and returned. A kernel that footprints
    refuses (a program cannot fit its scratchpad at any tiles) is scheduled once more
    from a copy taken before the first pass, with the compute results that a later compute
    reads along its reduction sent through device memory (`intermediates-in-memory`); when
    that fails too, the first refusal is raised. `in_memory`: send them through device
    memory from the start. `interchange`: interchange the tile nests
    interchange-tile-loops offers (the second schedule of such a kernel)."""
    load_device(device)  # a bad device is reported before anything runs
    module = kernel.module
    for other in [op for op in module.ops if isinstance(op, FuncOp) and op.body.blocks
                  and op is not kernel.func]:
        other.detach()  # a file defining several kernels: the one chosen (--func) only
        other.erase()
    module.attributes[DEVICE_ATTR] = StringAttr(device)
    module.attributes.pop(STOPPED_AFTER_ATTR, None)  # a kernel saved by --stop-after, redone
    if in_memory:
        module.attributes[REQUEST_ATTR] = UnitAttr()
    if interchange:
        module.attributes[INTERCHANGE_ATTR] = UnitAttr()
    spare = module.clone() if not in_memory and any(
        isinstance(s, IntermediatesInMemory) for s in steps) else None
    try:
        return run_steps(module, steps, stop_after=stop_after, print_after_all=print_after_all,
                         kernel=kernel, verify_each=verify_each)
    except SpyreSchedError as err:
        if spare is None or getattr(err, "pass_name", None) != Footprints.name:
            raise
        refusal = err
    spare.attributes[REQUEST_ATTR] = UnitAttr()
    try:
        return run_steps(spare, steps, stop_after=stop_after, print_after_all=print_after_all,
                         verify_each=verify_each)
    except SpyreSchedError as again:
        if getattr(again, "pass_name", None) != IntermediatesInMemory.name:
            # (it had something to move: say what that gave)
            refusal.message += (f"; with {moved_results(spare)} in device memory: "
                                f"{again.message}")
        raise refusal from None


def reschedule(module: ModuleOp, *, print_after_all: PrintHook | None = None,
               steps: Sequence[ModulePass] = SCHEDULE_STEPS) -> ModuleOp:
    """ScheduleIR given as input: verify it as the last scheduler pass would. A module
    saved by `--stop-after PASS` (it says so in `ktdf.stopped_after`) first runs the
    passes after PASS."""
    stopped = module.attributes.get(STOPPED_AFTER_ATTR)
    if stopped is None:
        _verify(module, "input")
        if print_after_all is not None:
            print_after_all("input", module)
        return module
    names = step_names(steps)
    if not isinstance(stopped, StringAttr) or stopped.data not in names:
        raise UnsupportedError(f"the input's {STOPPED_AFTER_ATTR} names no pass of this "
                               "scheduler (the passes are " + ", ".join(names) + ")")
    del module.attributes[STOPPED_AFTER_ATTR]
    rest = steps[names.index(stopped.data) + 1:]
    return run_steps(module, rest, print_after_all=print_after_all)
