"""Buffer lifetimes within a program, and the tokens that make sharing addresses safe.

A buffer belongs to the pipeline whose `ktdf.private` makes it. It is live while that
pipeline runs; when the pipeline sits inside a loop (`scf.for` or `ktdf.parallel`, at any
depth) it is live for the whole outermost such loop: its pipeline may run again in the
next iteration, its N-buffer slots rotate across iterations, and a pipeline around the
loop (a hoisted fill) overlaps the loop entirely. That op is the buffer's **scope**; the
lifetime is the scope's span in the program's op order (pre-order numbering of the
program function). Scopes are never inside a loop, so each runs once per launch, and two
scopes either nest (overlapping lifetimes) or follow one another.

Buffers whose lifetimes do not overlap may share addresses (`addresses.assign`). Each
engine runs its part of the program in program order, but different engines are only
ordered by data: nothing stops the DMA filling the next pipeline's buffer while a load
unit still reads the previous one. So for every placed pair that shares bytes, every
engine that touches the earlier buffer sends a token after the earlier scope (once its
transfers have landed: `dataflow.sync_send` semantics) and every engine that writes
the later buffer takes one from each of them before the later scope (its readers read
only after its writers, which the pipeline's own tokens already order). Tokens flow only
forward in program order, so they add no cycle.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects import scf
from xdsl.ir import Operation

from spyre_sched.dialects import dataflow as df
from spyre_sched.dialects import ktdf
from spyre_sched.lower.analysis import BufferInfo, ProgramAnalysis


@dataclass(frozen=True)
class ReuseEdge:
    """`source` engines finish `before` (the scope of a buffer whose bytes a later buffer
    reuses) before `target` engines start `after` (the later buffer's scope)."""

    name: str  # the dataflow.sync channel
    before: Operation
    after: Operation
    source: str
    target: str


@dataclass
class ReusePlan:
    edges: list[ReuseEdge] = field(default_factory=list)
    releases: dict[Operation, list[ReuseEdge]] = field(default_factory=dict)
    acquires: dict[Operation, list[ReuseEdge]] = field(default_factory=dict)


def scope_of(buf: BufferInfo) -> Operation:
    """The op whose run is the buffer's lifetime: its pipeline, or the outermost loop
    around it."""
    scope: Operation = buf.pipeline
    cur = buf.pipeline.parent_op()
    while cur is not None:
        if isinstance(cur, scf.ForOp | ktdf.ParallelOp):
            scope = cur
        cur = cur.parent_op()
    return scope


def op_spans(pa: ProgramAnalysis) -> dict[Operation, tuple[int, int]]:
    """[first, end) of every op of the program in pre-order: an op's span holds its
    descendants' spans."""
    spans: dict[Operation, tuple[int, int]] = {}
    counter = 0

    def visit(op: Operation) -> None:
        nonlocal counter
        start = counter
        counter += 1
        for region in op.regions:
            for block in region.blocks:
                for child in block.ops:
                    visit(child)
        spans[op] = (start, counter)

    visit(pa.func)
    return spans


def lifetimes(pa: ProgramAnalysis) -> list[tuple[int, int]]:
    """Per buffer of `pa` (in `pa.buffers` order), its lifetime [start, end)."""
    spans = op_spans(pa)
    return [spans[scope_of(b)] for b in pa.buffers.values()]


def buffer_engines(pa: ProgramAnalysis, value, *, writers_only: bool = False) -> set[str]:
    """Engines whose transfers read or write the buffer `value` (only write it)."""
    found = set()
    for use in value.uses:
        engine = pa.engine_of.get(use.operation)
        if engine is None:
            continue
        if writers_only and not (isinstance(use.operation, ktdf.DataTransferOp) and use.operation.dest is value):
            continue
        found.add(engine.name)
    return found


def filled_ahead(pa: ProgramAnalysis, value) -> bool:
    """Whether a core-level engine (a DMA, one per core) writes the buffer: such fills run
    ahead of the compute, and sharing bytes would make them wait for the compute."""
    return any(pa.engines[e].level == "core" for e in buffer_engines(pa, value, writers_only=True))


def plan_reuse(pa: ProgramAnalysis) -> ReusePlan:
    """The token edges every address-sharing pair of allocated buffers needs."""
    spans = op_spans(pa)
    items = [(value, buf, scope_of(buf)) for value, buf in pa.buffers.items()]
    wanted: dict[tuple[Operation, Operation, str, str], None] = {}
    for i, (va, a, sa) in enumerate(items):
        for vb, b, sb in items[i + 1:]:
            assert a.alloc is not None and b.alloc is not None
            if a.memory != b.memory or not (a.alloc.offset < b.alloc.end and b.alloc.offset < a.alloc.end):
                continue
            (s0, e0), (s1, e1) = spans[sa], spans[sb]
            if e0 <= s1:
                first, then, vfirst, vthen = sa, sb, va, vb
            elif e1 <= s0:
                first, then, vfirst, vthen = sb, sa, vb, va
            else:
                raise AssertionError(f"buffers {a.name} and {b.name} share bytes while both live")
            # Readers of the later buffer read after its writers (the pipeline's tokens
            # order every write/read pair), so ordering the writers is enough.
            targets = buffer_engines(pa, vthen, writers_only=True) or buffer_engines(pa, vthen)
            for src in sorted(buffer_engines(pa, vfirst)):
                for dst in sorted(targets):
                    if src == dst and (pa.engines[src].level == "core" or pa.corelets.get(src, 1) == 1):
                        continue  # one instance per core: its program order is enough
                    wanted[(first, then, src, dst)] = None
    def inside(x: Operation, y: Operation) -> bool:
        return spans[y][0] <= spans[x][0] and spans[x][1] <= spans[y][1]

    # (b, a) is implied by (b2, a2) of the same engines when b lies in b2 (the source
    # releases later) and a in a2 (the target acquires earlier)
    needed = [k for k in wanted if not any(
        o != k and o[2:] == k[2:] and inside(k[0], o[0]) and inside(k[1], o[1]) for o in wanted)]
    plan = ReusePlan()
    for n, (before, after, src, dst) in enumerate(sorted(needed, key=lambda k: (spans[k[0]], spans[k[1]], k[2], k[3]))):
        edge = ReuseEdge(f"p{pa.index}_reuse{n}_{src}_to_{dst}", before, after, src, dst)
        plan.edges.append(edge)
        plan.releases.setdefault(before, []).append(edge)
        plan.acquires.setdefault(after, []).append(edge)
    return plan


def declarations(plan: ReusePlan) -> list[Operation]:
    return [df.SyncOp(e.name, e.source, e.target, 0) for e in plan.edges]


def emit_tokens(emitter, op: Operation, *, before: bool) -> None:
    """Called by the engine emitter around every op it walks: before a later buffer's
    scope, take the tokens of the scopes it reuses; after an earlier scope, give them."""
    plan: ReusePlan | None = getattr(emitter.pa, "reuse", None)
    if plan is None:
        return
    edges = plan.acquires.get(op) if before else plan.releases.get(op)
    if not edges:
        return
    me = emitter.engine.name
    for edge in edges:
        if (edge.target if before else edge.source) != me:
            continue
        peer = edge.source if before else edge.target
        info = emitter.pa.engines[peer]
        peers = [None] if info.level == "core" else list(range(emitter.pa.corelets.get(peer, 1)))
        for k in peers:
            arg = None if k is None else emitter.const(k)
            emitter.emit(df.SyncRecvOp(edge.name, arg) if before else df.SyncSendOp(edge.name, arg))


__all__ = ["ReuseEdge", "ReusePlan", "scope_of", "lifetimes", "plan_reuse", "declarations",
           "emit_tokens"]
