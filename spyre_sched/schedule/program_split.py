"""Pass 2, program-split: one program per compute group, the kernel becomes the
orchestrator.

A compute group is what a `ktdp.store` needs through tensor values, walking back through
the compute (linalg, tensor.empty) to the `ktdp.load`s it reads; groups that share a load
or a compute op are one group. Each group becomes `builtin.module @program_N` holding
`func.func @local_schedule_N`, with its own copy of the scalar and address work it needs
(constants, tile id, views, access tiles, the values captured by linalg bodies). Its
arguments are the kernel's, then any value it uses that the orchestrator computes inside
a loop or condition. The kernel keeps its control flow and calls the programs where
their last store was, in order; work that only fed the groups is removed from it.

A program runs all its loads and stores when it is called, so two groups of one block
that access memory both may reach, one of them storing, are called in the kernel's order
of those accesses: a group whose load comes before another group's store into that
memory is called first even where its last store comes later (its call moves after the
other's). Groups whose accesses of one memory interleave (each must come first) are
refused as "not supported yet".
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    FunctionType,
    MemRefType,
    ModuleOp,
    StringAttr,
)
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from spyre_sched.xdsl_compat import has_no_side_effects
from spyre_sched.dialects import ktdp
from spyre_sched.polyhedral.memory_overlap import MemoryIndex, tiles_may_overlap
from spyre_sched.schedule.common import (
    PINNED_ATTR,
    PROGRAM_PREFIX,
    SCHEDULE_PREFIX,
    constant_value,
    element_bytes,
    fail,
    int_attr,
    kernel_funcs,
    tensor_producers,
)

NAME = "program-split"


def compute_groups(kernel: func.FuncOp) -> list[list[Operation]]:
    """Compute groups in program order of their last op (stores that share a load or a
    compute op are merged)."""
    order = {op: k for k, op in enumerate(kernel.walk())}
    groups: list[set[Operation]] = []
    for op in kernel.walk():
        if isinstance(op, ktdp.StoreOp):
            members = set(tensor_producers([op]))
            for other in [g for g in groups if g & members]:
                members |= other
                groups.remove(other)
            groups.append(members)
    ordered = [sorted(g, key=order.__getitem__) for g in groups]
    return sorted(ordered, key=lambda g: order[g[-1]])


def _accesses(group: list[Operation]) -> list[ktdp.LoadOp | ktdp.StoreOp]:
    return [op for op in group if isinstance(op, (ktdp.LoadOp, ktdp.StoreOp))]


def _conflict_order(first: list[Operation], second: list[Operation],
                    order: dict[Operation, int]) -> tuple[bool, bool]:
    """(some access of `first` must come before a conflicting one of `second`, and the
    other way round): a load and a store, or two stores, of memory both may reach."""
    before = after = False
    for a in _accesses(first):
        for b in _accesses(second):
            if isinstance(a, ktdp.LoadOp) and isinstance(b, ktdp.LoadOp):
                continue
            if not tiles_may_overlap(a.tile, b.tile):
                continue
            if order[a] < order[b]:
                before = True
            else:
                after = True
    return before, after


def call_order(groups: list[list[Operation]], order: dict[Operation, int]
               ) -> list[list[Operation]]:
    """The groups in the order their programs are called: by their last op, except that a
    group is called after every group of its block with an access of the same memory
    that comes earlier in the kernel."""
    preds: dict[int, set[int]] = {k: set() for k in range(len(groups))}
    for i, j in _pairs_sharing_memory(groups):
        gi, gj = groups[i], groups[j]
        if gi[0].parent_block() is not gj[0].parent_block():
            continue
        before, after = _conflict_order(gi, gj, order)
        if before and after:
            store = next(op for op in gj if isinstance(op, ktdp.StoreOp))
            raise fail(store, NAME, "not supported yet: two programs whose loads and "
                       "stores of one memory interleave (each would have to run first)")
        if before:
            preds[j].add(i)
        elif after:
            preds[i].add(j)
    # the ready group that comes first in the kernel, each time (Kahn's order on a heap)
    waiting = {k: len(p) for k, p in preds.items()}
    succs: dict[int, list[int]] = {k: [] for k in preds}
    for k, p in preds.items():
        for q in p:
            succs[q].append(k)
    ready = [k for k, n in waiting.items() if n == 0]
    heapq.heapify(ready)
    done: list[int] = []
    while ready:
        k = heapq.heappop(ready)
        done.append(k)
        for s in succs[k]:
            waiting[s] -= 1
            if waiting[s] == 0:
                heapq.heappush(ready, s)
    if len(done) < len(groups):
        stuck = min(k for k, n in waiting.items() if n > 0)
        store = next(op for op in groups[stuck] if isinstance(op, ktdp.StoreOp))
        raise fail(store, NAME, "not supported yet: programs whose loads and stores of "
                   "one memory order them in a cycle")
    return [groups[k] for k in done]


def _pairs_sharing_memory(groups: list[list[Operation]]) -> list[tuple[int, int]]:
    """Pairs i < j of groups where a store of one may reach memory an access of the other
    reaches, by memory keys (`MemoryIndex`): only those can conflict."""
    index: MemoryIndex[int] = MemoryIndex()
    for k, group in enumerate(groups):
        for op in _accesses(group):
            index.add(op.tile, k)
    pairs: set[tuple[int, int]] = set()
    for k, group in enumerate(groups):
        for op in _accesses(group):
            if isinstance(op, ktdp.StoreOp):
                pairs.update((min(k, j), max(k, j)) for j in index.near(op.tile) if j != k)
    return sorted(pairs)


def _captured(op: Operation) -> list[SSAValue]:
    """Operands of `op` and of every op nested in it that are defined outside `op`."""
    inside = {r for o in op.walk() for r in o.results}
    inside |= {a for o in op.walk() for reg in o.regions for b in reg.blocks for a in b.args}
    return [v for o in op.walk() for v in o.operands if v not in inside]


def _slice(group: list[Operation], kernel: func.FuncOp,
           order: dict[Operation, int]) -> tuple[list[Operation], list[SSAValue]]:
    """The ops a group needs besides itself, and the values it must receive as extra
    arguments (defined by control flow the orchestrator keeps). `order`: the kernel's ops
    by their place in it (walked once for all the groups, not once per group)."""
    kernel_args = set(kernel.body.block.args)
    needed: set[Operation] = set(group)
    external: list[SSAValue] = []
    work = [v for op in group for v in _captured(op)]
    while work:
        value = work.pop()
        if value in kernel_args or value in external:
            continue
        owner = value.owner
        if owner in needed:
            continue
        if isinstance(value, BlockArgument) or not isinstance(owner, Operation) \
                or owner.regions or not has_no_side_effects(owner):
            external.append(value)
            continue
        if owner not in needed:
            needed.add(owner)
            work.extend(_captured(owner))
    return sorted(needed, key=order.__getitem__), sorted(
        external, key=lambda v: (order.get(v.owner, -1) if isinstance(v.owner, Operation) else -1,
                                 getattr(v, "index", 0)))


def pinned_bytes(kernel: func.FuncOp) -> int:
    """Bytes at the start of the tile's scratchpad the kernel's ct_local views occupy."""
    end = 0
    for op in kernel.walk():
        if isinstance(op, ktdp.ConstructMemoryViewOp) and op.memory_space.space == "ct_local":
            offset = constant_value(op.offset)
            if offset is None:
                raise fail(op, NAME, "not supported yet: a ct_local view at an offset that "
                           "is not a constant")
            mtype = op.result.type
            assert isinstance(mtype, MemRefType)
            sizes = op.static_sizes.get_values()
            strides = op.static_strides.get_values()
            last = offset + sum((s - 1) * st for s, st in zip(sizes, strides))
            end = max(end, (last + 1) * element_bytes(mtype.element_type))
    return end


def _build_program(index: int, group: list[Operation], kernel: func.FuncOp, pinned: int,
                   order: dict[Operation, int]) -> tuple[ModuleOp, list[SSAValue]]:
    ops, external = _slice(group, kernel, order)
    args = list(kernel.body.block.args)
    block = Block(arg_types=[a.type for a in args] + [v.type for v in external])
    mapping: dict[SSAValue, SSAValue] = {}
    for old, new in zip([*args, *external], block.args):
        mapping[old] = new
        if old.name_hint:
            new.name_hint = old.name_hint
    for op in ops:
        block.add_op(op.clone(value_mapper=mapping))
    block.add_op(func.ReturnOp())
    name = f"{SCHEDULE_PREFIX}{index}"
    fn = func.FuncOp(name, FunctionType.from_lists(list(block.arg_types), []), Region(block))
    for key in ("grid",):
        if key in kernel.attributes:
            fn.attributes[key] = kernel.attributes[key]
    fn.attributes[PINNED_ATTR] = int_attr(pinned)
    program = ModuleOp([fn])
    program.sym_name = StringAttr(f"{PROGRAM_PREFIX}{index}")
    return program, external


def _remove_dead(kernel: func.FuncOp) -> None:
    """Drop side-effect-free ops of the orchestrator nobody uses any more."""
    changed = True
    while changed:
        changed = False
        for op in reversed(list(kernel.walk())):
            if op is kernel or op.results == () or isinstance(op, func.CallOp):
                continue
            if op.regions and not _tensor_linalg(op):
                continue  # loops and branches are kept
            if all(not r.uses for r in op.results) and (has_no_side_effects(op)
                                                        or _tensor_linalg(op)):
                Rewriter.erase_op(op)
                changed = True


def _tensor_linalg(op: Operation) -> bool:
    """A linalg op on tensors (no memref operand): its body only computes its result, so
    it has no effect but that result (xDSL does not mark linalg ops side-effect free)."""
    return op.name.startswith("linalg.") and not any(
        isinstance(v.type, MemRefType) for v in op.operands)


@dataclass(frozen=True)
class ProgramSplit(ModulePass):
    """Cut the kernel into programs (one per compute group) and an orchestrator."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        funcs = kernel_funcs(op)
        if len(funcs) != 1:
            raise fail(op, NAME, f"expected one kernel function, found {len(funcs)}")
        kernel = funcs[0]
        # an op nobody reads (a fill an earlier pass folded into its reader) may still use
        # a value a group takes with it when it moves into its program
        _remove_dead(kernel)
        groups = compute_groups(kernel)
        if not groups:
            raise fail(kernel, NAME, "the kernel stores nothing: there is no program to schedule")
        for group in groups:
            block = group[0].parent_block()
            for member in group:
                if member.parent_block() is not block:
                    raise fail(member, NAME, "not supported yet: a load -> compute -> store "
                               "chain that crosses a loop or condition boundary")
        pinned = pinned_bytes(kernel)
        order = {o: k for k, o in enumerate(kernel.walk())}
        groups = call_order(groups, order)
        built = [_build_program(k, g, kernel, pinned, order) for k, g in enumerate(groups)]
        args = list(kernel.body.block.args)
        decls: list[Operation] = []
        # per block, the last call placed: a group called after another whose last op
        # comes later is called right after that call
        last_call: dict[Block, tuple[int, Operation]] = {}
        for index, (group, (program, external)) in enumerate(zip(groups, built)):
            name = f"{SCHEDULE_PREFIX}{index}"
            operands = [*args, *external]
            call = func.CallOp(name, operands, [])
            block = group[-1].parent_block()
            assert block is not None
            at, anchor = order[group[-1]], group[-1]
            if block in last_call and last_call[block][0] > at:
                at, anchor = last_call[block]
            Rewriter.insert_op(call, _after(anchor))
            last_call[block] = (at, call)
            for member in reversed(group):
                Rewriter.erase_op(member, safe_erase=False)
            decls.append(func.FuncOp.external(name, [v.type for v in operands], []))
        _remove_dead(kernel)
        for decl in decls:
            op.body.block.add_op(decl)
        for program, _ in built:
            op.body.block.add_op(program)


def _after(op: Operation):
    from xdsl.rewriter import InsertPoint

    return InsertPoint.after(op)
