"""Partial vectors: what the lowering does where the SIMD width does not divide an extent.

The schedule walks such a dim in whole vectors and sizes the last one with
`ktdf.tiling.derive_size` (e.g. 96 columns = one vector of 64 and one of 32). The lowering
keeps every FIFO entry a whole vector:

- a load stage reads the partial vector with a box of the full slot width and a `mask`
  on its access (`#agen.access<..., mask = affine_set<(d0, d1) : (-d1 + 31 >= 0)>>`):
  the lanes past the data are zero and are never read from memory;
- a store stage writes it with the same mask: those lanes are never written;
- elementwise compute runs on the whole vector (the padding lanes compute something that
  is never stored);
- a reduction must not see the padding lanes (a zero would win a `max` of negative
  numbers, `exp(0) = 1` would enter a sum): before the lane `reduce`, a `shuffle` keeps
  only the valid lanes (`vector<1x64xf16> -> vector<1x32xf16>`).

A partial vector costs a whole vector's time: the transfer moves the whole box
(docs/dataflowir.md, section 4) and compute is `ceil(elements / lanes)` cycles. The
shuffle adds one cycle plus the unit's latency to the partial step of a reduction.

This module finds, for a FIFO a compute unit reads, how many lanes of the entry are data:
from the sizes of the transfers that fill that FIFO (evaluated in the receiving engine's
environment: the sizes are defined outside the stages, so every engine sees them).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import scf
from xdsl.ir import Operation, SSAValue

from spyre_sched.dialects import ktdf
from spyre_sched.errors import UnsupportedError
from spyre_sched.lower.analysis import ProgramAnalysis
from spyre_sched.lower.values import Form

IndexForm = Callable[..., "Form | None"]
"""`index_form(op, env, num_tiles, emit, ranges)`: the form of an index-valued op's result."""


def fifo_fills(pa: ProgramAnalysis) -> dict[SSAValue, list[ktdf.DataTransferOp]]:
    """The transfers that push into each FIFO of the program."""
    found: dict[SSAValue, list[ktdf.DataTransferOp]] = {}
    for op in pa.func.walk():
        if isinstance(op, ktdf.DataTransferOp) and op.dest in pa.fifos:
            found.setdefault(op.dest, []).append(op)
    return found


UNKNOWN = "unknown"
"""`valid_extent`'s answer when the fill's sizes cannot be evaluated where the reader is."""


def _ancestors(op: Operation) -> list[Operation]:
    out = []
    cur = op.parent_op()
    while cur is not None:
        out.append(cur)
        cur = cur.parent_op()
    return out


def _loops_below(op: Operation, top: Operation) -> list[scf.ForOp]:
    """The scf.for loops between `op` and its ancestor `top`, outermost first."""
    loops = [a for a in _ancestors(op)[:_ancestors(op).index(top)] if isinstance(a, scf.ForOp)]
    return loops[::-1]


def _size_forms(fill: ktdf.DataTransferOp, read: Operation, env: dict[SSAValue, Form],
                num_tiles: int, ranges: dict, index_form: IndexForm) -> list[Form] | None:
    """The fill's destination sizes at the iteration the reader is at. The loops between
    the fill and the op holding both stages run in lockstep with the reader's (the load
    stage's own loops over a reduced dim, a chunk loop and the vector loop inside it): the
    k-th entry pushed is the k-th popped, so, pairing the loops outermost first with equal
    bounds, the fill's loop indices are the reader's."""
    local = dict(env)
    read_above = set(map(id, _ancestors(read)))
    common = next((a for a in _ancestors(fill) if id(a) in read_above), None)
    if common is None:
        return None

    def form_of(value: SSAValue) -> Form | None:
        if value in local:
            return local[value]
        owner = value.owner
        if not isinstance(owner, Operation) or not common.is_ancestor(owner):
            return None
        for operand in owner.operands:
            if form_of(operand) is None:
                return None
        try:
            found = index_form(owner, local, num_tiles, None, ranges)
        except (UnsupportedError, KeyError):
            return None
        if found is not None:
            local[value] = found
        return found

    fill_loops, read_loops = _loops_below(fill, common), _loops_below(read, common)
    if len(fill_loops) != len(read_loops):
        return None
    for f, r in zip(fill_loops, read_loops):
        for a, b in ((f.lb, r.lb), (f.ub, r.ub), (f.step, r.step)):
            fa = form_of(a)
            if fa is None or b not in local or fa != local[b]:
                return None
        if r.body.block.args[0] not in local:
            return None
        local[f.body.block.args[0]] = local[r.body.block.args[0]]
    out = []
    for s in fill.mixed_dest_sizes():
        form = form_of(s) if isinstance(s, SSAValue) else Form.constant(int(s))
        if form is None:
            return None
        out.append(form)
    return out


def valid_extent(fills: Sequence[ktdf.DataTransferOp], read: Operation,
                 env: dict[SSAValue, Form], num_tiles: int, ranges: dict,
                 slot: Sequence[int], index_form: IndexForm) -> tuple[int, ...] | str | None:
    """Lanes of data per dim of the FIFO entry `read` pops: None when the entry is whole,
    `UNKNOWN` when the fill's sizes cannot be evaluated here (a reduction over it is then
    refused, never summed with its padding). Several fills of one FIFO: the smallest.
    `index_form` evaluates index arithmetic (the engine emitter's, passed in)."""
    best: list[int] | None = None
    for fill in fills:
        static = [s for s in fill.mixed_dest_sizes() if not isinstance(s, SSAValue)]
        if len(static) == len(slot) and all(int(a) >= b for a, b in zip(static, slot)):
            continue  # a whole entry, whatever the loops
        forms = _size_forms(fill, read, env, num_tiles, ranges, index_form)
        if forms is None or len(forms) != len(slot) or not all(f.is_constant for f in forms):
            return UNKNOWN
        sizes = [f.value for f in forms]
        best = sizes if best is None else [min(a, b) for a, b in zip(best, sizes)]
    if best is None or all(b >= s for b, s in zip(best, slot)):
        return None
    return tuple(min(b, s) for b, s in zip(best, slot))


def keep_lanes_pattern(shape: Sequence[int], valid_last: int) -> list[int]:
    """Shuffle pattern taking the first `valid_last` lanes of the last dim of every row of
    a `shape` vector (row-major flat indices)."""
    rows = 1
    for d in shape[:-1]:
        rows *= d
    n = shape[-1]
    return [r * n + j for r in range(rows) for j in range(valid_last)]
