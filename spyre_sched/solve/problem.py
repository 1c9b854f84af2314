"""The solver's plain data: open decisions, their candidates, and every figure that
depends on them, with no IR and no islpy inside.

`extract.py` builds a `Problem` from ScheduleIR; tests build one by hand. The cost
model (`cost.py`), the CP-SAT model (`model.py`), the heuristic and the brute force all
read only this.

A figure that depends on decisions is a `Quantity`: a table from the candidate indices of
the decisions in its `scope` to an integer. Extraction fills the table by asking the
polyhedral layer once per candidate combination (footprints are counted, not multiplied
out), so the cost model and the CP-SAT model look values up instead of re-deriving them.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from spyre_sched.errors import SpyreSchedError

DECISION_KINDS = ("tile", "modulo", "distribute", "keep", "share", "chunk", "fifo", "order")
LINK_KINDS = ("keep", "share")
"""Decisions several independent parts of a program may share without being merged into
one part (their one-hots are shared; each part's least cycles alone is bounded per value
of them, `part_bounds.py`; docs/solver.md, section 4)."""
ROLES = ("input", "output", "intermediate", "accumulator", "hoisted", "staging")


class SolveError(SpyreSchedError):
    """The solver cannot produce a schedule (an infeasible model is explained in words)."""


class InfeasibleError(SolveError):
    """No assignment satisfies the constraints; `reasons` says which conflict, in words."""

    def __init__(self, message: str, reasons: list[str], conflicting: list[str]):
        super().__init__(message)
        self.reasons = reasons
        self.conflicting = conflicting


@dataclass(frozen=True)
class Candidate:
    """One legal value of a decision. `loop` names the distributed loop for a
    `distribute` decision (`value` is then the number of instances)."""

    value: int
    loop: str | None = None
    trip: int | None = None
    """Trip count of the distributed loop (what the heuristic's rule looks at)."""
    streams: bool = False
    """A `chunk` candidate whose vectors need not fit the pipeline's FIFOs: they stream
    through them (priced so; `FifoSplit`)."""
    entries: tuple[int, ...] = ()
    """A `chunk` candidate's entries per FIFO of its pipeline (in the order of the
    pipeline's `fifo` decisions, `FifoSplit.offset`): what each FIFO is given, and what
    its price assumes. A held chunk gives every FIFO its share of its queue (a whole chunk
    at least); a streaming one less than a chunk in some of them (docs/solver.md, "FIFO
    depth and vectors per instruction")."""
    in_send_order: bool = False
    """A `chunk` candidate whose entries add up to more than a FIFO queue holds: those
    FIFOs share the queue in send order (`FifoSplit.in_send_order`)."""
    in_flight: int = 0
    """A `chunk` candidate's vectors in flight when its queue, not its FIFOs' entries,
    bounds them (`cost.candidate_modulo`); 0 otherwise."""

    @property
    def label(self) -> str:
        order = " in send order" if self.in_send_order else ""
        profile = "/".join(str(e) for e in self.entries)
        if self.streams:
            return f"{self.value} streaming{order}" + (f" [{profile}]" if profile else "")
        if self.in_send_order:
            return f"{self.value}{order} [{profile}]"
        return f"{self.value} on {self.loop}" if self.loop else str(self.value)

    def as_data(self) -> int | dict[str, object]:
        return {"instances": self.value, "loop": self.loop} if self.loop else self.value


@dataclass(frozen=True)
class Decision:
    name: str
    """Stable, human-readable name from the IR (`p0.tile.d1`, `p0.pipe.outer.modulo`)."""
    kind: str
    """`tile` (extent in loop iterations), `modulo` (buffer copies), `distribute`, `keep`
    (0: re-read an input in every compute, 1: keep it resident in scratchpad), `chunk`
    (vectors an elementwise FIFO pipeline moves per instruction, at most; held in its
    FIFOs or streaming through them), `fifo` (the entries of a datapath's queue one
    FIFO gets: `FifoSplit`) or `order` (which form of a program runs: 0 its tile loops
    in its dims' order, 1 its two tile loops interchanged; `Program.variant`)."""
    program: int
    candidates: tuple[Candidate, ...]
    source: str = ""
    """Where it came from: the op and what it sizes (for the trace)."""
    extent: int | None = None
    """Extent of the iteration dim a tile decision splits."""
    step: int = 1
    """A tile decision's unit (its divisibility: a vector for the stick dim)."""
    trip: str | int | None = None
    """A distribute decision's loop trip count: a tile decision's name (the loop walks one
    tile, in steps of that decision's `step`) or a fixed count."""
    rule: str = ""
    """How the candidates were derived (divisibility, min_value, extent, pruning)."""
    within: str | None = None
    """A tile decision of an inner memory level: its value may not exceed the value of this
    (the enclosing level's tile of the same dim; ScheduleIR's `within`)."""

    def __post_init__(self) -> None:
        if self.kind not in DECISION_KINDS:
            raise SolveError(f"decision {self.name}: unknown kind '{self.kind}'")
        if not self.candidates:
            raise SolveError(f"decision {self.name} ({self.source or self.kind}) has no legal "
                             f"candidate{': ' + self.rule if self.rule else ''}")


Choice = Mapping[str, int]
"""A (partial) assignment: decision name -> candidate index."""


@dataclass(frozen=True)
class Quantity:
    """An integer that depends on the decisions in `scope`: `table[(i0, i1, ...)]` is its
    value when decision `scope[k]` takes candidate `i_k`."""

    scope: tuple[str, ...]
    table: Mapping[tuple[int, ...], int]
    factors: tuple[Quantity, ...] = ()
    """When not empty, the value is the product of these (each over part of `scope`),
    rounded up to a multiple of `round_to`, and `table` computes it on demand
    (`ProductTable`): a loop nest's iteration count, a transfer's or a buffer's bytes,
    whose full table would be the product of every tile's candidates."""
    round_to: int = 1
    divisors: tuple[Quantity, ...] = ()
    """When not empty (with `factors`), the product of `factors` is divided by the
    product of these, rounded up, before `round_to`: the mean bytes per iteration of a
    tile loop's transfers, the dims' extents over their trip counts (docs/solver.md,
    "Partial last tiles")."""

    def at(self, choice: Choice) -> int:
        return self.table[tuple(choice[d] for d in self.scope)]

    def least(self) -> int:
        """The smallest value over every candidate combination (factors are never
        negative: their product's least is the product of their least values)."""
        return self._range[0]

    def most(self) -> int:
        return self._range[1]

    @functools.cached_property
    def _range(self) -> tuple[int, int]:
        if not self.factors:
            return min(self.table.values()), max(self.table.values())
        low = high = 1
        for f in self.factors:
            low, high = low * f.least(), high * f.most()
        if self.divisors:
            below = above = 1
            for f in self.divisors:
                below, above = below * f.least(), above * f.most()
            low, high = -(-low // above), -(-high // max(1, below))
        r = self.round_to
        return -(-low // r) * r, -(-high // r) * r

    @staticmethod
    def product(factors: Sequence[Quantity], sizes: Mapping[str, int],
                round_to: int = 1) -> Quantity:
        """The product of `factors` rounded up to a multiple of `round_to`; `sizes` gives
        each decision's candidate count."""
        scope = tuple(dict.fromkeys(d for f in factors for d in f.scope))
        if len(factors) == 1 and round_to == 1:
            return factors[0]
        return Quantity(scope, ProductTable(scope, tuple(factors),
                                            tuple(sizes[d] for d in scope), round_to),
                        tuple(factors), round_to)

    @staticmethod
    def quotient(factors: Sequence[Quantity], divisors: Sequence[Quantity],
                 sizes: Mapping[str, int]) -> Quantity:
        """ceil(product of `factors` / product of `divisors`); every divisor is at least
        1. Stated in the CP-SAT model as two products and one division, so its size
        grows with the factors' own tables, not with their product."""
        if not divisors:
            return Quantity.product(factors, sizes)
        if any(f.least() < 1 for f in divisors):
            raise ValueError("a quotient's divisors are at least 1")
        every = (*factors, *divisors)
        scope = tuple(dict.fromkeys(d for f in every for d in f.scope))
        return Quantity(scope, ProductTable(scope, tuple(factors),
                                            tuple(sizes[d] for d in scope), 1,
                                            tuple(divisors)),
                        tuple(factors), 1, tuple(divisors))

    @staticmethod
    def const(value: int) -> Quantity:
        return Quantity((), {(): int(value)})

    @staticmethod
    def of(decisions: Sequence[Decision], fn: Callable[..., int]) -> Quantity:
        """Tabulate `fn(candidate_0, candidate_1, ...)` over every combination."""
        table: dict[tuple[int, ...], int] = {}
        ranges = [range(len(d.candidates)) for d in decisions]
        for key in itertools.product(*ranges):
            table[key] = int(fn(*(d.candidates[i] for d, i in zip(decisions, key))))
        return Quantity(tuple(d.name for d in decisions), table)


class ProductTable(Mapping):
    """The table of a product of quantities over the union of their scopes, evaluated on
    demand (iterating it enumerates the whole product: only brute force and small
    tables do)."""

    def __init__(self, scope: tuple[str, ...], factors: tuple[Quantity, ...],
                 sizes: tuple[int, ...], round_to: int = 1,
                 divisors: tuple[Quantity, ...] = ()):
        self._factors = [(f.table, tuple(scope.index(d) for d in f.scope)) for f in factors]
        self._divisors = [(f.table, tuple(scope.index(d) for d in f.scope)) for f in divisors]
        self._sizes = sizes
        self._round = max(1, round_to)
        self._memo: dict[tuple[int, ...], int] = {}  # the keys looked up so far

    def __getitem__(self, key: tuple[int, ...]) -> int:
        found = self._memo.get(key)
        if found is None:
            value = 1
            for table, pos in self._factors:
                value *= table[tuple(key[i] for i in pos)]
            if self._divisors:
                by = 1
                for table, pos in self._divisors:
                    by *= table[tuple(key[i] for i in pos)]
                value = -(-value // by)
            found = self._memo[key] = -(-value // self._round) * self._round
        return found

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        return itertools.product(*(range(n) for n in self._sizes))

    def __len__(self) -> int:
        n = 1
        for size in self._sizes:
            n *= size
        return n


@dataclass(frozen=True)
class Transfer:
    """Moves `bytes` per iteration over one hop (one unit), e.g. a DMA from device memory
    into scratchpad. `bandwidth`/`latency` are the hop's figures from the device model;
    `shared_bandwidth` is a memory's total bandwidth that `sharers` cores (all cores
    running the program) divide among themselves (device memory), or None."""

    name: str
    bytes: Quantity
    bandwidth: int
    latency: int
    shared_bandwidth: int | None = None
    sharers: int = 1
    source: str = ""
    target: str = ""
    shared_memory: str = ""
    """The memory whose bandwidth is shared: every transfer through it, of any stage,
    contends for it (it is an engine of its own in the cost model)."""
    awaited: bool = False
    """An address buffer's fetch: the indirect transfer after it reads the addresses, so
    the unit waits for the fetch to land before issuing it. Its latency is then time the
    unit spends, not time that overlaps the stage's later work."""
    ready: bool = False
    """Reads a region an earlier program filled (the gathered copy of a shared input): no
    work of its own program produces what it reads, so, like a load of a kernel input,
    its unit issues it as soon as it is free (`cost._is_load`)."""


def through_shared_memory(w: object) -> bool:
    """Is `w` a transfer through a memory whose bandwidth all cores share (named, so its
    busy time can be added up per memory)?"""
    return isinstance(w, Transfer) and w.shared_bandwidth is not None and bool(w.shared_memory)


@dataclass(frozen=True)
class Compute:
    """`elements` × `ops` lane-operations per iteration on a unit with `lanes` SIMD lanes,
    split over `instances` identical units; `latency` is the unit's pipeline depth."""

    name: str
    elements: Quantity
    ops: int
    lanes: int
    instances: Quantity = field(default_factory=lambda: Quantity.const(1))
    latency: int = 0
    steps: Quantity = field(default_factory=lambda: Quantity.const(1))
    """Dependent steps per iteration (a reduction's carried accumulator): each waits for
    the previous one's result, so the unit's latency is paid `steps` times."""
    points: int = 1
    """Elements of one invocation (one vector of the compute's shape)."""
    period: Quantity = field(default_factory=lambda: Quantity.const(0))
    """Cycles each invocation keeps the unit from starting the next (0: not known): the
    unit issues the vector ops in order, each waiting for its operands' results, and
    sends the result when it is ready (`extract.vector_period`); per vector, when the
    lowering runs several vectors per instruction (a chunk)."""
    instructions: Quantity = field(default_factory=lambda: Quantity.const(1))
    """Instructions per iteration that wait only for their own operands (a matrix unit's
    steps: the array keeps the partial sums, so a step never waits for the previous
    step's result). A stage streaming them needs one instruction after its last input
    (`streaming.ends`)."""
    sends: Quantity = field(default_factory=lambda: Quantity.const(0))
    """Cycles per iteration the unit spends sending results on, beside the lanes' work:
    a matrix unit's f32 sums leave the array through a send (their bytes over its
    datapath's bandwidth), once per block, and once per block and chunk when K is
    streamed. (A vector unit's sends are in its `period`.)"""


@dataclass(frozen=True)
class Stage:
    """One stage of a pipeline: what it runs per iteration, in order, on `engine` (the
    unit instance or kind that executes it; stages on one engine cannot overlap)."""

    name: str
    engine: str
    work: tuple[Transfer | Compute | Pipeline, ...]
    staggered: tuple[str, ...] = ()
    """Shared memories an earlier stage of the same pipeline already moved data through
    (set when a pipeline is split into one pipeline per stage, `model.separate`): the
    cores reach this stage staggered by that earlier stage, so one iteration of it pays
    its own transfer time, not all cores' share (docs/solver.md, "fill")."""
    overlapped: int = 0
    """Cycles of this stage's latency that the next stage of the same pipeline hides (set
    when split off its pipeline, like `staggered`; docs/solver.md, "Hoisted transfers")."""
    prefetch_slack: int = 0
    """Cycles the earlier stages of a run-once pipeline leave the unit of this stage's
    leading load idle (at least, whatever their decisions): that load is issued as soon
    as the unit is free, so up to this much of it hides behind them (set when split off
    its pipeline, like `staggered`; docs/solver.md, "Phases overlap")."""
    prefetch_chain: tuple = ()
    """The earlier stages whose time the unit of this stage's leading loads spends idle
    (`cost.prefetch_chain`: (stage, `whole` or `tail`, landing) each), set when split off a
    run-once pipeline: its slack for a choice is theirs, not only the least."""
    stagger_spread: tuple[tuple[str, tuple[tuple[Transfer, ...], ...]], ...] = ()
    """Per shared memory an earlier pipeline of the program marked this stage staggered
    with (`extract._stores_staggered`), the earlier traffic that spread the cores: one
    group of transfers per earlier stage through the memory (one iteration of it). The
    spread is the largest group's time at every core's share less at its own speed
    (`cost.stagger_spread`), and the stage's transfers through that memory gain at most
    that much from the stagger: a store of a whole row block after a pass of small loads
    finds the cores nearly together (docs/solver.md, "fill")."""


MEAN_SCALE = 4096
"""The fixed point of `Pipeline.mean`."""


@dataclass(frozen=True)
class Pipeline:
    """Stages overlapping across `iterations` (split over `instances`), rotating through
    `modulo` copies of its buffers: a decision name, or a fixed count (e.g. a FIFO's
    depth for a vector-granularity pipeline)."""

    name: str
    iterations: Quantity
    stages: tuple[Stage, ...]
    modulo: str | int = 1
    instances: Quantity = field(default_factory=lambda: Quantity.const(1))
    streams: bool = False
    """The stages are joined only by FIFOs (no buffers, no modulo clause): each starts on
    the first entries of the one before, so one pass through them overlaps
    (`solve/streaming.py`)."""
    outer_reads: int = 0
    """The last of its stages that reads a buffer of the pipeline around it (the one whose
    stage runs it) along a reduction, 0 when none after the first does: a run holds that
    buffer until this stage is done (`cost.nested_ends`). A tile pipeline's matrix loads
    read an operand hoisted around it after the tile's own fetches."""
    reader_fifos: tuple[tuple[str, int, int], ...] = ()
    """Per transfer of the `outer_reads` stage that reads the buffer around it into a FIFO
    the next stage receives from: (the transfer's name, the FIFO's bytes per entry, its
    depth in entries). When an iteration sends more entries than the FIFO holds, the last
    reads wait for the next stage to take the earlier entries (`cost.reader_lag`)."""
    reads_back: bool = False
    """A stage of it reads a buffer around it that a later stage of it writes (a K-chunked
    matmul's sums): the next run's read of a block waits for this run's write of that
    block, so a stage running it is busy at least one iteration's pass
    (`cost.nested_pace`)."""
    mean: Quantity | None = None
    """A nested pipeline whose iterations count the tiles of an enclosing tile loop that
    are not all full (its `iterations` their mean, rounded): the exact mean times
    `MEAN_SCALE`. Its cycles and pace are the figures at the whole counts either side,
    weighted by where the mean falls (`cost.at_mean`; docs/solver.md, "Partial last
    tiles"). None: `iterations` is exact."""


@dataclass(frozen=True)
class Buffer:
    """A scratchpad buffer of a program: `bytes` per copy (counted by the polyhedral
    layer), times the modulo of its pipeline (a decision name or a fixed count)."""

    name: str
    bytes: Quantity
    modulo: str | int = 1
    role: str = "staging"
    memory: str = ""


@dataclass(frozen=True)
class FifoUse:
    """Entries a pipeline keeps in flight in a FIFO (≤ its depth)."""

    name: str
    entries: Quantity
    depth: int


@dataclass(frozen=True)
class FifoSplit:
    """The FIFOs of one pipeline that share a datapath's queue at the same time (one
    phase), each given its own entries by a `fifo` decision: their depths add up to at
    most the queue's `depth`, and each is what the pipeline's `chunk` candidate is priced
    at (`Candidate.entries`): for a held chunk of c vectors its share of the queue, at
    least c, so a whole chunk waits in it while the unit behind is busy (docs/solver.md,
    "FIFO depth and vectors per instruction"). When the FIFOs are received in the order
    they are sent (`in_send_order`), the queue may be shared in that order instead: each
    FIFO gets up to the whole queue and only the queue bounds what they hold together."""

    name: str
    decisions: tuple[str, ...]
    depth: int
    chunk: str
    offset: int = 0
    """Position of the first of `decisions` in the chunk candidates' `entries`."""
    in_send_order: bool = False
    """The unit behind receives the FIFOs in the order they are sent, so they may hold
    more than `depth` entries between them (the queue holds at most `depth` of them):
    always so when there are more FIFOs than entries, and a choice (a chunk candidate
    whose entries add up to more) when the pipeline sends and receives them in one
    order."""

    def over_queue(self, depths: list[int]) -> bool:
        """Whether these depths give out more than the queue may: more than its entries
        in all (each their own), or more than its entries to one FIFO (in send order)."""
        if self.in_send_order:
            return max(depths, default=0) > self.depth
        return sum(depths) > self.depth

    def entries(self, chunk: Candidate, k: int) -> int:
        """The depth chunk candidate `chunk` gives the k-th FIFO of the split."""
        if chunk.entries:
            return chunk.entries[self.offset + k]
        return 1 if chunk.streams else chunk.value


@dataclass(frozen=True)
class RegisterUse:
    """Bytes an accumulator keeps in a compute unit's register file (≤ its capacity)."""

    name: str
    bytes: Quantity
    capacity: int


@dataclass(frozen=True)
class InstanceLimit:
    """Nested distributed loops of one instance group: the product of their instance
    counts is at most `available` (a legality rule, not a trade-off)."""

    group: str
    decisions: tuple[str, ...]
    available: int

    def product(self, problem: Problem, choice: Choice) -> int:
        out = 1
        for d in self.decisions:
            out *= problem.decision(d).candidates[choice[d]].value
        return out


@dataclass(frozen=True)
class PinnedRegion:
    """Scratchpad the kernel itself pins (`ct_local` views): bytes, whole kernel long."""

    name: str
    bytes: int
    source: str = ""
    alignment: int = 1
    """The scratchpad's access granularity: the lowering starts every buffer on it, so the
    region keeps compiler buffers off `reserved` bytes (lower/addresses.py)."""

    @property
    def reserved(self) -> int:
        """The bytes no compiler buffer can use: the region rounded up to `alignment`."""
        return -(-self.bytes // max(self.alignment, 1)) * max(self.alignment, 1)


@dataclass(frozen=True)
class Program:
    index: int
    name: str
    pipelines: tuple[Pipeline, ...]
    buffers: tuple[Buffer, ...] = ()
    fifos: tuple[FifoUse, ...] = ()
    registers: tuple[RegisterUse, ...] = ()
    instance_limits: tuple[InstanceLimit, ...] = ()
    calls: int = 1
    """How many times the orchestrator calls it (KTIR loops around the call)."""
    assumed: tuple[str, ...] = ()
    """What `calls` assumes that only a launch decides (a run-time loop counted once, a
    launch-time branch counted as taken); empty when the calls are known at compile time."""
    fifo_splits: tuple[FifoSplit, ...] = ()
    variant: tuple[str, int] | None = None
    """(an `order` decision, its candidate index): this program is one form of a program
    of the kernel and runs only when the decision takes that candidate (the other forms
    are programs of their own index, the same `name`); None: it always runs."""


@dataclass(frozen=True)
class Problem:
    kernel: str
    device: str
    scratchpad_bytes: int
    """Capacity of one core's scratchpad."""
    decisions: tuple[Decision, ...]
    programs: tuple[Program, ...]
    pinned: tuple[PinnedRegion, ...] = ()
    corelets: int = 1
    """Identical instances per core (the heuristic's instance count)."""
    other_memories: Mapping[str, int] = field(default_factory=dict)
    """Capacities of memory kinds other than the scratchpad (`ct_local`) one, per core:
    a buffer whose `memory` is one of these counts there, every other buffer in the
    scratchpad (with the pinned regions)."""

    def __post_init__(self) -> None:
        names = [d.name for d in self.decisions]
        dup = sorted(n for n, count in Counter(names).items() if count > 1)
        if dup:
            raise SolveError(f"decision names must be unique; repeated: {', '.join(dup)}")
        known = set(names)
        for q, where in self.quantities():
            for d in q.scope:
                if d not in known:
                    raise SolveError(f"{where} depends on unknown decision '{d}'")
        for p in self.programs:
            for pipe in _pipelines(p.pipelines):
                if isinstance(pipe.modulo, str) and pipe.modulo not in known:
                    raise SolveError(f"pipeline {pipe.name}: unknown modulo decision "
                                     f"'{pipe.modulo}'")
            for b in p.buffers:
                if isinstance(b.modulo, str) and b.modulo not in known:
                    raise SolveError(f"buffer {b.name}: unknown modulo decision '{b.modulo}'")
            for lim in p.instance_limits:
                for d in lim.decisions:
                    if d not in known:
                        raise SolveError(f"instance group {lim.group}: unknown decision '{d}'")
            for split in p.fifo_splits:
                for d in (*split.decisions, split.chunk):
                    if d not in known:
                        raise SolveError(f"FIFO split {split.name}: unknown decision '{d}'")
            if p.variant is not None and (p.variant[0] not in known or self.decision(
                    p.variant[0]).kind != "order"):
                raise SolveError(f"program {p.index}: its form's decision "
                                 f"'{p.variant[0]}' is not an order decision")

    def runs(self, program: Program, choice: Choice) -> bool:
        """Does `program` run under `choice` (always, or its form is the one chosen)?"""
        return program.variant is None or choice[program.variant[0]] == program.variant[1]

    def running(self, choice: Choice) -> list[Program]:
        """The programs that run under `choice`."""
        return [p for p in self.programs if self.runs(p, choice)]

    @property
    def pinned_bytes(self) -> int:
        """What the pinned regions take from the scratchpad's capacity (aligned: `reserved`)."""
        return sum(r.reserved for r in self.pinned)

    @functools.cached_property
    def _by_name(self) -> dict[str, Decision]:
        return {d.name: d for d in self.decisions}

    def decision(self, name: str) -> Decision:
        found = self._by_name.get(name)
        if found is None:
            raise SolveError(f"no decision named '{name}'")
        return found

    @functools.cached_property
    def shared_memories(self) -> tuple[str, ...]:
        """The shared memories (device memory) any transfer of the problem goes through,
        sorted (worked out once: every program's table asks)."""
        found: set[str] = set()
        for prog in self.programs:
            for pipe in _pipelines(prog.pipelines):
                for st in pipe.stages:
                    for w in st.work:
                        if isinstance(w, Transfer) and w.shared_bandwidth is not None \
                                and w.shared_memory:
                            found.add(w.shared_memory)
        return tuple(sorted(found))

    @functools.cached_property
    def _by_program(self) -> dict[int, list[Decision]]:
        out: dict[int, list[Decision]] = {}
        for d in self.decisions:
            out.setdefault(d.program, []).append(d)
        return out

    def program_decisions(self, index: int) -> list[Decision]:
        return list(self._by_program.get(index, ()))

    def quantities(self) -> Iterator[tuple[Quantity, str]]:
        """Every decision-dependent figure, with a name for messages."""
        for p in self.programs:
            for pipe in _pipelines(p.pipelines):
                yield pipe.iterations, f"pipeline {pipe.name} iterations"
                yield pipe.instances, f"pipeline {pipe.name} instances"
                if pipe.mean is not None:
                    yield pipe.mean, f"pipeline {pipe.name} mean iterations"
                for st in pipe.stages:
                    for w in st.work:
                        if isinstance(w, Transfer):
                            yield w.bytes, f"transfer {w.name}"
                        elif isinstance(w, Compute):
                            yield w.elements, f"compute {w.name}"
                            yield w.instances, f"compute {w.name} instances"
                            yield w.steps, f"compute {w.name} steps"
                            yield w.period, f"compute {w.name} period"
            for b in p.buffers:
                yield b.bytes, f"buffer {b.name}"
            for f in p.fifos:
                yield f.entries, f"fifo {f.name}"
            for r in p.registers:
                yield r.bytes, f"register use {r.name}"

    def choices(self) -> Iterator[dict[str, int]]:
        """Every full assignment (for brute force): decision order, candidate order."""
        names = [d.name for d in self.decisions]
        for key in itertools.product(*(range(len(d.candidates)) for d in self.decisions)):
            yield dict(zip(names, key))

    def chunk_depths(self, chunk: str, index: int) -> dict[str, int]:
        """The `fifo` decisions' candidates that give each FIFO of `chunk`'s pipeline the
        entries its candidate `index` is priced at (`FifoSplit`): moving a chunk moves
        them with it. A depth no candidate offers is left out (the chunk stays
        infeasible)."""
        candidate = self.decision(chunk).candidates[index]
        out: dict[str, int] = {}
        for prog in self.programs:
            for split in prog.fifo_splits:
                if split.chunk != chunk:
                    continue
                for k, name in enumerate(split.decisions):
                    values = [c.value for c in self.decision(name).candidates]
                    if split.entries(candidate, k) in values:
                        out[name] = values.index(split.entries(candidate, k))
        return out

    def within_pairs(self, names: Sequence[str] | None = None) -> list[tuple[str, str]]:
        """(inner, outer) tile decisions bound by `within`, both among `names` (all: None)."""
        keep = None if names is None else set(names)
        return [(d.name, d.within) for d in self.decisions if d.within is not None
                and (keep is None or (d.name in keep and d.within in keep))]

    def within_ok(self, choice: Choice, pairs: Sequence[tuple[str, str]]) -> bool:
        """Every inner tile of `pairs` at most its outer tile (pairs not fully in `choice`
        are not checked)."""
        for inner, outer in pairs:
            if inner in choice and outer in choice and (
                    self.decision(inner).candidates[choice[inner]].value
                    > self.decision(outer).candidates[choice[outer]].value):
                return False
        return True

    def values(self, choice: Choice) -> dict[str, Candidate]:
        return {d.name: d.candidates[choice[d.name]] for d in self.decisions}


def _pipelines(pipes: Sequence[Pipeline]) -> Iterator[Pipeline]:
    """Pipelines and every pipeline nested in their stages, outer first."""
    for p in pipes:
        yield p
        for st in p.stages:
            yield from _pipelines([w for w in st.work if isinstance(w, Pipeline)])


def all_pipelines(program: Program) -> list[Pipeline]:
    return list(_pipelines(program.pipelines))


def modulo_scope(modulo: str | int) -> tuple[str, ...]:
    return (modulo,) if isinstance(modulo, str) else ()


def stage_scope(stage: Stage) -> tuple[str, ...]:
    """Decisions a stage's times depend on (without its pipeline's modulo)."""
    seen: dict[str, None] = {}
    for _, groups in stage.stagger_spread:  # (the spread its fill is capped by)
        for group in groups:
            for w in group:
                seen.update(dict.fromkeys(w.bytes.scope))
    for w in stage.work:
        if isinstance(w, Transfer):
            names = w.bytes.scope
        elif isinstance(w, Compute):
            names = (*w.elements.scope, *w.instances.scope, *w.steps.scope, *w.period.scope,
                     *w.instructions.scope, *w.sends.scope)
        else:
            names = pipeline_scope(w)
        for d in names:
            seen[d] = None
    return tuple(seen)


def iterations_scope(pipe: Pipeline) -> tuple[str, ...]:
    mean = pipe.mean.scope if pipe.mean is not None else ()
    return tuple(dict.fromkeys((*pipe.iterations.scope, *pipe.instances.scope, *mean)))


def pipeline_scope(pipe: Pipeline) -> tuple[str, ...]:
    """Decisions a pipeline's cycles depend on, in first-seen order."""
    seen: dict[str, None] = dict.fromkeys((*iterations_scope(pipe), *modulo_scope(pipe.modulo)))
    for st in pipe.stages:
        seen.update(dict.fromkeys(stage_scope(st)))
    return tuple(seen)


def decision_readers(problem: Problem) -> dict[str, set[int]]:
    """Per decision (every one of the problem's), the indices of the programs whose
    figures depend on it (`program_decision_names`)."""
    out: dict[str, set[int]] = {d.name: set() for d in problem.decisions}
    for prog in problem.programs:
        for name in program_decision_names(prog):
            out.setdefault(name, set()).add(prog.index)
    return out


def program_decision_names(program: Program) -> tuple[str, ...]:
    """Decisions any of a program's figures depend on (cycles, buffers, FIFOs, register
    files, instance limits), in first-seen order: another decision leaves them as they are."""
    seen: dict[str, None] = {}
    for p in program.pipelines:
        seen.update(dict.fromkeys(pipeline_scope(p)))
    for b in program.buffers:
        seen.update(dict.fromkeys((*b.bytes.scope, *modulo_scope(b.modulo))))
    for f in program.fifos:
        seen.update(dict.fromkeys(f.entries.scope))
    for r in program.registers:
        seen.update(dict.fromkeys(r.bytes.scope))
    for lim in program.instance_limits:
        seen.update(dict.fromkeys(lim.decisions))
    for split in program.fifo_splits:
        seen.update(dict.fromkeys((split.chunk, *split.decisions)))
    if program.variant is not None:  # (whether it runs at all)
        seen[program.variant[0]] = None
    return tuple(seen)


def rewrite(value, leaf: Callable[[object], object]):
    """`value` (a problem's plain data: dataclasses, tuples, lists and leaves) with every
    part for which `leaf(part)` returns something other than None replaced by that. The
    walk goes into dataclasses (their init fields), tuples and lists; what it leaves
    unchanged stays the same object, and an object reached twice is rewritten once."""
    memo: dict[int, object] = {}

    def walk(obj):
        found = memo.get(id(obj))
        if found is not None:
            return found
        out = leaf(obj)
        if out is None:
            if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
                changes = {f.name: walk(getattr(obj, f.name)) for f in dataclasses.fields(obj)
                           if f.init}
                out = obj if all(changes[k] is getattr(obj, k) for k in changes) \
                    else dataclasses.replace(obj, **changes)
            elif isinstance(obj, (tuple, list)):
                items = [walk(x) for x in obj]
                out = obj if all(a is b for a, b in zip(items, obj)) else type(obj)(items)
            else:
                out = obj
        memo[id(obj)] = out
        return out

    return walk(value)
