"""Pass keep-across-programs: offer the solver to keep an input in a scratchpad region
that outlives a program, when several programs read the same tile of it.

Softmax, as written, reads X in two programs (the row maxima, then the exponentials and
their sums): the program split follows the kernel's compute groups, and a program's
scratchpad buffers die when it returns, so the second program reads X from device
memory again. Fusing the programs is not the answer: a program is one pipeline
configuration, the kernel's author chose the groups, and the programs' computes are
different pipelines anyway. What the later program needs is what the kernel's own
`ct_local` views give it: bytes at a fixed place in the tile's scratchpad that no program
of the span allocates.

This pass finds, for each device-memory input, DMA transfers from the same view (the
same kernel argument, sizes, strides and coordinates: compared structurally, since each
program has its own copy of the address work) at the same tile position (each subscript
`base + index`, equal bases) into `input` staging buffers of the same whole-tile shape in
the kernel's scratchpad kind, in two or more programs that the orchestrator calls once
each, one after the other in one block (programs between the first and the last may be
under an `scf.if` of that block, as an exchange's guarded gathers are), none of which writes that argument. It leaves
the choice to the solver, as `keep-resident` does inside a program:

- `ktdf.keep_resident {decision = "pA.keep.X", operand = "X", last_program = B}` in the
  first program A (0 = re-read, 1 = keep);
- `ktdf.keep = <decision>` on the staging buffers and DMA transfers the choice changes
  (`ktdf.keep_role = "fill"` on A's, `"reread"` on the later programs');
- `ktdf.resident_regions = {<decision> = array<i64: START, END>}` on every program from A
  to B: where the region sits in the tile's scratchpad when the input is kept, placed
  now (aligned above the pinned bytes and above every region offered before in a program
  of its span) so that its place never depends on which other regions are kept. The
  solver counts, per program, the bytes from its pinned end to the highest kept region.

`apply-keep` (after `solve`) raises `ktdf.pinned_bytes` of every program of a kept
region's span over it (so the lowering allocates no buffer there), and rewrites A's DMA to fill the region (a `ct_local` view the compiler
adds) and the later programs' loads to read it. An input whose tile does not fit the
scratchpad next to the pinned bytes is not offered: re-reading stays the only schedule.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func, scf
from xdsl.dialects.builtin import (
    DenseArrayBase,
    DictionaryAttr,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    StringAttr,
    i64,
)
from xdsl.ir import Attribute, BlockArgument, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from spyre_sched.dialects import ktdf, ktdp
from spyre_sched.schedule.common import (
    PINNED_ATTR,
    constant_value,
    device_of,
    fresh_name,
    element_bytes,
    kernel_funcs,
    programs,
    structural_key,
)
from spyre_sched.schedule.keep_resident import (
    KEEP_ATTR,
    KEEP_ROLE_ATTR,
    dma_stage,
    full_shape,
    maker_of,
    portable,
    tile_position,
)

NAME = "keep-across-programs"
REGIONS_ATTR = "ktdf.resident_regions"
"""On every program a cross-program keep spans: decision name -> `array<i64: START, END>`,
the bytes of the tile's scratchpad the region occupies when the input is kept."""

def canonical(value: SSAValue, fn: func.FuncOp, kernel_args: int,
              memo: dict[SSAValue, object]) -> object | None:
    """`value` as a tree comparable between programs (`structural_key`): kernel
    arguments by position. None when it depends on anything else (an orchestrator value,
    a loop index)."""
    def argument(v: SSAValue) -> object | None:
        if isinstance(v, BlockArgument) and v.owner is fn.body.blocks[0] \
                and v.index < kernel_args:
            return ("arg", v.index)
        return None
    return structural_key(value, argument, memo)


@dataclass
class ProgramRead:
    """One program's DMA of the input: the transfer, its staging buffer, its whole-tile
    shape."""

    index: int
    fn: func.FuncOp
    transfer: ktdf.DataTransferOp
    buffer: ktdf.BufferOp
    shape: tuple[int, ...]


def _global_view(value: SSAValue) -> ktdp.ConstructMemoryViewOp | None:
    owner = value.owner
    if isinstance(owner, ktdp.ConstructMemoryViewOp) and "ct_local" not in str(owner.memory_space):
        return owner
    return None


def _reads(index: int, fn: func.FuncOp, kernel_args: int, scratch: str) -> dict[tuple, list[ProgramRead]]:
    """The program's unmarked whole-tile DMA loads of device-memory inputs, by (view,
    tile bases) in canonical form."""
    memo: dict[SSAValue, object] = {}
    decisions = ktdf.decision_ops(fn)
    found: dict[tuple, list[ProgramRead]] = {}
    for t in fn.walk():
        if not isinstance(t, ktdf.DataTransferOp) or KEEP_ATTR in t.attributes \
                or _global_view(t.source) is None or t.mode != "copy":
            continue
        buffer = maker_of(t.dest)
        if not isinstance(buffer, ktdf.BufferOp) or buffer.role.data != "input" \
                or KEEP_ATTR in buffer.attributes or buffer.memory != scratch:
            continue
        position = tile_position(t)
        stage = dma_stage(t)
        if position is None or stage is None or not all(portable(v, stage) for v in position[1]):
            continue
        shape = full_shape(buffer, decisions)
        if shape is None or not _covers(t, position[1], shape):
            continue
        key = (canonical(t.source, fn, kernel_args, memo),
               tuple(canonical(b, fn, kernel_args, memo) for b in position[0]))
        if key[0] is None or any(b is None for b in key[1]):
            continue
        found.setdefault(key, []).append(ProgramRead(index, fn, t, buffer, shape))
    return found


def _covers(t: ktdf.DataTransferOp, index: list[SSAValue], shape: tuple[int, ...]) -> bool:
    """Does the transfer walk the program's whole tile, inside [0, shape), as a tile loop
    does? Per dim: the index is 0 and the size the whole extent, or the index is the
    induction variable of an `scf.for` from 0 to the extent stepping by a tile decision
    and the size `derive_size` of that loop. Anything else (a chunk loop, a point loop
    over rows the buffer does not hold) could address outside the region."""
    sizes = t.mixed_source_sizes()
    if len(sizes) != len(index) or len(index) != len(shape):
        return False
    for i, size, extent in zip(index, sizes, shape):
        size_value = size if isinstance(size, int) else (
            size.value.data if isinstance(size, IntegerAttr) else constant_value(size))
        if constant_value(i) == 0:
            if size_value != extent:
                return False
            continue
        if not isinstance(i, BlockArgument) or not isinstance(i.owner.parent_op(), scf.ForOp):
            return False
        loop = i.owner.parent_op()
        assert isinstance(loop, scf.ForOp)
        if i is not loop.body.block.args[0] or constant_value(loop.lb) != 0 \
                or constant_value(loop.ub) != extent \
                or not isinstance(loop.step.owner, ktdf.ReserveSizeOp):
            return False
        derive = size.owner if isinstance(size, SSAValue) else None
        if not isinstance(derive, ktdf.DeriveSizeOp) or derive.offset is not i \
                or derive.size is not loop.step:
            return False
    return True


def _writes_argument(fn: func.FuncOp, view_key: object, kernel_args: int) -> bool:
    """Does the program write device memory through a view of the same argument?"""
    memo: dict[SSAValue, object] = {}
    target = view_key[3][0] if isinstance(view_key, tuple) else None  # the offset operand
    for t in fn.walk():
        if isinstance(t, ktdf.DataTransferOp):
            view = _global_view(t.dest)
            if view is not None and canonical(view.offset, fn, kernel_args, memo) == target:
                return True
    return False


def _calls_in_order(orchestrator: func.FuncOp, names: list[str]) -> bool:
    """Each program called exactly once, in the given order, the first and the last in one
    block; those between may sit under `scf.if`s of that block (a program the guard skips
    still allocates nothing over the region)."""
    calls = {n: [c for c in orchestrator.walk() if isinstance(c, func.CallOp)
                 and c.callee.root_reference.data == n] for n in names}
    if any(len(c) != 1 for c in calls.values()):
        return False
    ops = [calls[n][0] for n in names]
    block = ops[0].parent_block()
    if block is None or ops[-1].parent_block() is not block:
        return False
    placed = []
    for op in ops:
        while op.parent_block() is not block:
            op = op.parent_op()
            if op is None or not isinstance(op, scf.IfOp):
                return False
        placed.append(op)
    order = {op: k for k, op in enumerate(block.ops)}
    return all(order[a] <= order[b] for a, b in zip(placed, placed[1:])) \
        and order[placed[0]] < order[placed[-1]]


def _pinned(fn: func.FuncOp) -> int:
    attr = fn.attributes.get(PINNED_ATTR)
    return attr.value.data if isinstance(attr, IntegerAttr) else 0


def _aligned(n: int, granularity: int) -> int:
    return -(-n // granularity) * granularity


def _add_region(fn: func.FuncOp, name: str, start: int, end: int) -> None:
    old = fn.attributes.get(REGIONS_ATTR)
    entries: dict[str, Attribute] = dict(old.data) if isinstance(old, DictionaryAttr) else {}
    entries[name] = DenseArrayBase.from_list(i64, [start, end])
    fn.attributes[REGIONS_ATTR] = DictionaryAttr(entries)


def offer_across(module: ModuleOp, device) -> int:
    """Add a cross-program keep choice for every input several programs read at the same
    tile; returns how many were added."""
    kernels = kernel_funcs(module)
    if len(kernels) != 1:
        return 0
    orchestrator = kernels[0]
    nargs = len(orchestrator.body.blocks[0].args)
    progs = dict(programs(module))
    scratch = device.memory_kind_for("ct_local")
    core_memory = device.scratchpad(0)
    capacity = core_memory.size
    granularity = device.access_granularity(core_memory.name)
    by_key: dict[tuple, list[ProgramRead]] = {}
    for index in sorted(progs):
        for key, reads in _reads(index, progs[index], nargs, scratch).items():
            if len(reads) == 1:  # several in one program: not this pass's pattern
                by_key.setdefault(key, []).append(reads[0])
    taken = {n for fn in progs.values() for n in ktdf.decision_ops(fn)}
    reserved = {i: _pinned(fn) for i, fn in progs.items()}
    added = 0
    for key, reads in by_key.items():
        if len(reads) < 2:
            continue
        first, last = reads[0], reads[-1]
        span = [i for i in sorted(progs) if first.index <= i <= last.index]
        mtype = first.buffer.result.type
        assert isinstance(mtype, MemRefType)
        if any(r.shape != first.shape or r.buffer.result.type.element_type != mtype.element_type
               or r.buffer.access_map != first.buffer.access_map for r in reads):
            continue
        if not _calls_in_order(orchestrator, [progs[i].sym_name.data for i in span]):
            continue
        if any(_writes_argument(progs[i], key[0], nargs) for i in span):
            continue
        nbytes = element_bytes(mtype.element_type)
        for s in first.shape:
            nbytes *= s
        # the region's place is fixed now, above the pinned bytes and every region
        # offered before in a program of its span, so that its bytes do not depend on
        # which other regions are kept
        start = _aligned(max(reserved[i] for i in span), granularity)
        end = start + nbytes
        if end > capacity:
            continue  # the tile alone does not fit: re-reading is the only schedule
        operand = first.buffer.operand.data
        name = fresh_name(f"p{first.index}.keep.{operand}", taken)
        for k, r in enumerate(reads):
            r.buffer.attributes[KEEP_ATTR] = StringAttr(name)
            r.transfer.attributes[KEEP_ATTR] = StringAttr(name)
            r.transfer.attributes[KEEP_ROLE_ATTR] = StringAttr("fill" if k == 0 else "reread")
        for i in span:
            _add_region(progs[i], name, start, end)
            reserved[i] = end
        body = first.fn.body.blocks[0]
        anchor = next(op for op in body.ops if op.is_ancestor(first.transfer))
        Rewriter.insert_op(ktdf.KeepResidentOp(name, operand, last_program=last.index),
                           InsertPoint.before(anchor))
        added += 1
    return added


@dataclass(frozen=True)
class KeepAcrossPrograms(ModulePass):
    """Offer the solver to keep an input several programs read in a region that
    outlives a program."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        offer_across(op, device_of(op, NAME))
