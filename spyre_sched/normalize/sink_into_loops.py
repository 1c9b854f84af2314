"""Loads made before an `scf.for` and read in it, when `untile-loops` cannot fold the
loop: loaded again at the start of every iteration.

RoPE loads a block of `cos`/`sin` once and walks heads with an `scf.for` whose
iterations read blocks far apart (not a tiling of one extent, so not foldable). Such a
loop without loop-carried values is left to the orchestrator, which calls one program
per iteration; the chain that makes the tensors its body reads (loads, fills, empties,
generics: `sink-into-branches`' chain) is cloned at the start of the body, so each
iteration's program is a whole load -> compute -> store chain. Whether a tensor so
reloaded stays in the scratchpad across the calls is then the scheduler's choice (a
region that outlives a program, `keep-across-programs`).

Loading again is exact when nothing writes what the chain reads between the first load
and the last iteration: no `ktdp.store` between the chain and the loop, nor in the loop,
into a buffer the chain loads from. Buffers are told apart by the pointer argument a
view starts from (distinct pointer arguments are distinct buffers, as for every
analysis of the kernel; an offset computed from tile ids, loop counters and constants
stays in its argument's memory), and scratchpad views of constant start by the bytes
they span (device memory and scratchpads are distinct memories); any other view counts
as any buffer.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith, scf
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.rewriter import Rewriter

from spyre_sched.dialects import ktdp
from spyre_sched.normalize.sink_into_branches import (chain_of, clone_chain_at_start,
                                                      outside_tensors)
from spyre_sched.normalize.scratchpad_slots import scratchpad_span

#: stands for "any buffer": a view whose pointer cannot be traced to an argument
ANY = object()


@dataclass(frozen=True)
class ScratchpadRegion:
    """Bytes [start, end) of a scratchpad: the executing tile's own (`core` None) or a
    named core's (which may be the executing tile's own too)."""

    core: int | None
    start: int
    end: int


def _arguments_reached(value: SSAValue, seen: int = 0) -> set[BlockArgument] | None:
    """The function arguments an index expression is computed from (None: not known)."""
    owner = value.owner
    if isinstance(value, BlockArgument):
        return {value}
    if isinstance(owner, arith.ConstantOp) or isinstance(owner, ktdp.GetComputeTileIdOp):
        return set()
    if isinstance(owner, arith.AddiOp | arith.SubiOp | arith.MuliOp) and seen < 32:
        found: set[BlockArgument] = set()
        for operand in owner.operands:
            reached = _arguments_reached(operand, seen + 1)
            if reached is None:
                return None
            found |= reached
        return found
    return None


def _pointer(value: SSAValue) -> SSAValue | None:
    """The pointer argument a view's start is an offset from: the one argument its
    `addi`/`subi` chain reaches (tile ids, loop counters and constants add offsets within
    the argument's memory), or None when that is not one argument."""
    while isinstance(value.owner, arith.AddiOp | arith.SubiOp):
        a, b = value.owner.operands
        from_a, from_b = _arguments_reached(a), _arguments_reached(b)
        if from_a is None or from_b is None:
            return None
        if from_b == set() or (not from_a and isinstance(value.owner, arith.SubiOp)):
            value = a if from_b == set() else b
        elif from_a == set() and isinstance(value.owner, arith.AddiOp):
            value = b
        else:
            return None
    return value if isinstance(value, BlockArgument) else None


def _buffer(tile: SSAValue) -> object:
    owner = tile.owner
    view = owner.view.owner if isinstance(owner, ktdp.ConstructAccessTileOp) else None
    if not isinstance(view, ktdp.ConstructMemoryViewOp):
        return ANY
    if view.memory_space.space == "ct_local":
        return _scratchpad_region(view)
    pointer = _pointer(view.offset)
    return pointer if pointer is not None else ANY


def _scratchpad_region(view: ktdp.ConstructMemoryViewOp) -> object:
    """The bytes of the scratchpad a `ct_local` view of constant start and sizes spans."""
    span = scratchpad_span(view)
    return ANY if span is None else ScratchpadRegion(view.memory_space.tile, *span)


def _may_alias(a: object, b: object) -> bool:
    if a is ANY or b is ANY:
        return True
    if isinstance(a, ScratchpadRegion) and isinstance(b, ScratchpadRegion):
        # the executing tile's own scratchpad may be any named core's
        same_core = a.core is None or b.core is None or a.core == b.core
        return same_core and a.start < b.end and b.start < a.end
    return a is b  # two pointer arguments, or a scratchpad and device memory


def _writes_what_it_reads(loop: scf.ForOp, chain: list[Operation]) -> bool:
    """A store in the loop, or between the chain's first op and the loop (LayerNorm
    stores its row's mean and rstd there), into a buffer the chain loads from."""
    read = [_buffer(op.tile) for op in chain if isinstance(op, ktdp.LoadOp)]
    between = []
    op = chain[0].next_op
    while op is not None and op is not loop:
        between.append(op)
        op = op.next_op
    for outer in [loop, *between]:
        for inner in outer.walk():
            if isinstance(inner, ktdp.StoreOp):
                written = _buffer(inner.tile)
                if any(_may_alias(written, r) for r in read):
                    return True
    return False


def sink_into_loop(loop: scf.ForOp) -> bool:
    """Clone the chain of the tensors `loop` reads from before it into its body; False
    (nothing changed) when that would not be exact."""
    if loop.iter_args:
        return False
    block = loop.parent_block()
    assert block is not None
    values = outside_tensors(loop, block)
    chain = chain_of(values, block) if values else None
    if not chain or _writes_what_it_reads(loop, chain):
        return False
    mapping = clone_chain_at_start(chain, loop.body.block)
    for value in values:
        value.replace_uses_with_if(mapping[value], lambda use: loop.is_ancestor(use.operation))
    for op in reversed(chain):
        if all(not r.uses for r in op.results):
            Rewriter.erase_op(op)
    return True
