"""Step apply-share (after `solve`): keep the chosen form of each solved
`ktdf.share_fetch` (docs/scheduleir.md, "Fetching an input once for all cores").

- `value = 1` (fetch once, share): the reading program's direct transfer from device
  memory goes; the fetch program and the ring reads stay; the slice's region joins the
  pinned bytes of both programs (no buffer may take its bytes while the slices live).
- `value = 0`: the input's fill and relay transfers go, and so do the views they read;
  a fill or relay program left moving nothing (every input it gathers not shared) goes
  with its declaration and its call; the direct transfer stays.

The marks, the region entries and the `ktdf.share_fetch` op are removed either way: the
solved IR shows the chosen form.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import DenseArrayBase, DictionaryAttr, IntegerAttr, ModuleOp, StringAttr
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from spyre_sched.dialects import ktdf, ktdp
from spyre_sched.schedule.common import (
    PINNED_ATTR,
    PROGRAM_PREFIX,
    SCHEDULE_PREFIX,
    fail,
    int_attr,
    kernel_funcs,
    programs,
)
from spyre_sched.schedule.ir_build import drop_resources, drop_stage, erase_dead, refresh_units
from spyre_sched.schedule.keep_resident import dma_stage, owning_pipeline
from spyre_sched.schedule.keep_across import REGIONS_ATTR
from spyre_sched.schedule.share_fetch import SHARE_ATTR, SHARE_ROLE_ATTR

NAME = "apply-share"


def _marked(fn: Operation, name: str) -> list[ktdf.DataTransferOp]:
    return [op for op in fn.walk() if isinstance(op, ktdf.DataTransferOp)
            and op.attributes.get(SHARE_ATTR) is not None
            and op.attributes[SHARE_ATTR].data == name]  # type: ignore[union-attr]


def _role(op: Operation) -> str:
    return op.attributes[SHARE_ROLE_ATTR].data  # type: ignore[union-attr]


def _unmark(op: Operation) -> None:
    for key in (SHARE_ATTR, SHARE_ROLE_ATTR):
        op.attributes.pop(key, None)


def _region(fn: Operation, name: str) -> tuple[int, int] | None:
    """The region's bytes, and the entry dropped from `ktdf.resident_regions`."""
    old = fn.attributes.get(REGIONS_ATTR)
    if not isinstance(old, DictionaryAttr) or name not in old.data:
        return None
    bounds = old.data[name]
    entries = {k: v for k, v in old.data.items() if k != name}
    if entries:
        fn.attributes[REGIONS_ATTR] = DictionaryAttr(entries)
    else:
        del fn.attributes[REGIONS_ATTR]
    if not isinstance(bounds, DenseArrayBase) or len(bounds.get_values()) != 2:
        return None
    start, end = (int(v) for v in bounds.get_values())
    return start, end


def _pinned(fn: Operation) -> int:
    attr = fn.attributes.get(PINNED_ATTR)
    return attr.value.data if isinstance(attr, IntegerAttr) else 0


def _erase_transfer(t: ktdf.DataTransferOp) -> None:
    operands = list(t.operands)
    Rewriter.erase_op(t)
    erase_dead(operands)


def _drop_program(module: ModuleOp, index: int) -> None:
    callee = f"{SCHEDULE_PREFIX}{index}"
    for fn in kernel_funcs(module):
        for call in [c for c in fn.walk() if isinstance(c, func.CallOp)
                     and c.callee.root_reference.data == callee]:
            Rewriter.erase_op(call)
    for op in list(module.ops):
        if isinstance(op, func.FuncOp) and not op.body.blocks and op.sym_name.data == callee \
                or isinstance(op, ModuleOp) and op.sym_name is not None \
                and op.sym_name.data == f"{PROGRAM_PREFIX}{index}":
            Rewriter.erase_op(op)


def _erase_unused_values(fn: Operation) -> None:
    """The index arithmetic and views of a fill or relay program no transfer uses any
    more (`erase_dead` keeps a remainder: it may divide by zero; here the divisor is the
    constant tile count)."""
    body = fn.regions[0].blocks[0]
    changed = True
    while changed:
        changed = False
        for op in reversed(list(body.ops)):
            if op.results and not any(r.uses for r in op.results) and \
                    isinstance(op, arith.ConstantOp | arith.AddiOp | arith.MuliOp
                               | arith.RemUIOp | ktdp.ConstructMemoryViewOp):
                Rewriter.erase_op(op)
                changed = True


def _read_region(gathered: ktdf.DataTransferOp) -> None:
    """The in-place form: the computes' reads of the staging buffer read the gathered
    region's view at the same subscripts (the buffer was the box, written at its
    origin); the copy, the buffer and a stage left without a transfer go."""
    staging, region = gathered.dest, gathered.source
    pipe = owning_pipeline(staging)
    stage = dma_stage(gathered)
    for use in list(staging.uses):
        reader = use.operation
        if reader is gathered or not isinstance(reader, ktdf.DataTransferOp):
            continue
        mode = reader.mode if reader.mode != "copy" else None
        new = ktdf.DataTransferOp(region, reader.mixed_source_offsets(),
                                  reader.mixed_source_sizes(), reader.dest,
                                  reader.mixed_dest_offsets(), reader.mixed_dest_sizes(), mode)
        new.attributes.update(reader.attributes)
        Rewriter.replace_op(reader, new)
    Rewriter.erase_op(gathered)
    drop_resources(pipe, {staging})
    if stage is not None and not any(isinstance(o, ktdf.DataTransferOp) for o in stage.walk()):
        drop_stage(pipe, stage)


def apply_share(module: ModuleOp, progs: dict[int, Operation],
                choice: ktdf.ShareFetchOp) -> None:
    name = choice.decision.data
    value = ktdf.decision_value(choice)
    if value is None:
        raise fail(choice, NAME, f"share decision {name} is still open (run solve first)")
    fetch_index = choice.fetch_program.value.data
    reader = choice.parent_op()
    while reader is not None and not isinstance(reader, func.FuncOp):
        reader = reader.parent_op()
    if reader is None or progs.get(fetch_index) is None:
        raise fail(choice, NAME, f"share decision {name}: program {fetch_index} fetching "
                                 "the slices is missing")
    # the fetch program and the relay steps after it: every other program moving data
    # under this choice
    gathering = {index: fn for index, fn in progs.items()
                 if fn is not reader and _marked(fn, name)}
    reads = _marked(reader, name)
    direct = [t for t in reads if _role(t) == "direct"]
    gathered = [t for t in reads if _role(t) in ("gathered", "in_place")]
    staging = [b for b in reader.walk() if isinstance(b, ktdf.BufferOp)
               and b.attributes.get(SHARE_ATTR) == StringAttr(name)]
    if len(direct) != 1 or len(gathered) != 1 or fetch_index not in gathering:
        raise fail(choice, NAME, f"share decision {name}: expected one direct read, one "
                                 "read of the gathered region and a fill program marked "
                                 "ktdf.share")
    for b in staging:
        _unmark(b)
    if value == 0:
        _erase_transfer(gathered[0])
        _unmark(direct[0])
        for index, fn in sorted(gathering.items()):
            # the fill and relay programs may move other inputs' slices too: this
            # input's transfers go, a program left moving nothing goes whole
            for t in _marked(fn, name):
                _erase_transfer(t)
            _erase_unused_values(fn)
            _region(fn, name)
            if not any(isinstance(op, ktdf.DataTransferOp) for op in fn.walk()):
                _drop_program(module, index)
                del progs[index]
    else:
        _erase_transfer(direct[0])
        if _role(gathered[0]) == "in_place":
            _read_region(gathered[0])
        else:
            _unmark(gathered[0])
        for fn in gathering.values():
            for t in _marked(fn, name):
                _unmark(t)
        for fn in (reader, *gathering.values()):
            region = _region(fn, name)
            if region is None:
                raise fail(choice, NAME, f"share decision {name}: a program has no "
                                         f"{REGIONS_ATTR} entry placing the region")
            # the region lives from the fetch to the reader's read: no buffer of these
            # programs may take its bytes
            fn.attributes[PINNED_ATTR] = int_attr(max(_pinned(fn), region[1]))
    if value == 0:
        _region(reader, name)
    Rewriter.erase_op(choice)
    refresh_units(reader)


@dataclass(frozen=True)
class ApplyShare(ModulePass):
    """Keep the chosen form of each solved fetch-once choice."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        progs = dict(programs(op))
        for _, fn in sorted(progs.items()):
            for choice in [c for c in fn.walk() if isinstance(c, ktdf.ShareFetchOp)]:
                apply_share(op, progs, choice)
