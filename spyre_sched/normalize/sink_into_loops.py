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
into a buffer the chain loads from. Buffers are told apart by the pointer
argument a view starts from (distinct pointer arguments are distinct buffers, as for
every analysis of the kernel); a view into the scratchpad or from a pointer that is not
an argument plus constants counts as any buffer.
"""

from __future__ import annotations

from xdsl.dialects import arith, scf
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.rewriter import Rewriter

from spyre_sched.dialects import ktdp
from spyre_sched.normalize.sink_into_branches import (chain_of, clone_chain_at_start,
                                                      outside_tensors)

#: stands for "any buffer": a view whose pointer cannot be traced to an argument
ANY = object()


def _buffer(tile: SSAValue) -> object:
    owner = tile.owner
    view = owner.view.owner if isinstance(owner, ktdp.ConstructAccessTileOp) else None
    if not isinstance(view, ktdp.ConstructMemoryViewOp) or view.memory_space.space == "ct_local":
        return ANY
    pointer = view.offset
    while isinstance(pointer.owner, arith.AddiOp | arith.SubiOp):
        a, b = pointer.owner.operands
        if isinstance(b.owner, arith.ConstantOp):
            pointer = a
        elif isinstance(a.owner, arith.ConstantOp) and isinstance(pointer.owner, arith.AddiOp):
            pointer = b
        else:
            return ANY
    return pointer if isinstance(pointer, BlockArgument) else ANY


def _writes_what_it_reads(loop: scf.ForOp, chain: list[Operation]) -> bool:
    """A store in the loop, or between the chain's first op and the loop (LayerNorm
    stores its row's mean and rstd there), into a buffer the chain loads from."""
    read = {_buffer(op.tile) for op in chain if isinstance(op, ktdp.LoadOp)}
    between = []
    op = chain[0].next_op
    while op is not None and op is not loop:
        between.append(op)
        op = op.next_op
    for outer in [loop, *between]:
        for inner in outer.walk():
            if isinstance(inner, ktdp.StoreOp):
                written = _buffer(inner.tile)
                if written is ANY or ANY in read or written in read:
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
