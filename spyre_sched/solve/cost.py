"""The cost model, in plain Python integers (docs/solver.md writes it down).

For one pipeline with N = ceil(iterations / instances) iterations per instance and
modulo m:

    buffered (m >= 2):  cycles = max(fill_drain + (N - 1) * pace, each shared memory's bound)
    unbuffered (m = 1): cycles = max(fill_drain + (N - 1) * period + skew, the same bounds)
    one stage of transfers, any m: fill_drain + (N - 1) * its occupancy, the same bounds
                        (nothing waits for them to land: `issues_back_to_back`)

where fill_drain = the sum over stages of one iteration's time through the stage (the
fill and the drain of the pipeline together); pace = the largest occupancy per iteration
of a unit when every iteration has a buffer copy (N <= m), else the largest steady-state
time per iteration of a unit (stages that run on the same unit cannot overlap, so their
times add); period = how long one copy of a buffer is held (a writer's start to its
reader's reads landed) or the busiest unit, at most fill_drain (`unbuffered_period`;
skew: the last core's one-time wait, `unbuffered_skew`); a memory whose bandwidth all
cores share, busy for every transfer through it (bytes × sharers ÷ its bandwidth),
bounds it by its N iterations' busy time plus the stages before its first and after its
last transfer (N >= 2): it serves the cores from the first core's first transfer on, so
its busy time is not added to a pass that already waited for its fill. A stage's unit
issues its work back to back:

    occupancy  = sum of its work's occupancies     latency = the largest of its latencies
    one iteration = occupancy + latency
    steady        = max(occupancy, ceil((latency + occupancy) / m)), or for a stage whose
                    transfers reach one shared memory, its queue's (`port_steady`)

    transfer: occupancy = max(ceil(bytes / bandwidth), ceil(bytes * sharers / shared_bw)),
              latency = the hop's latency (occupancy + latency is the device's formula);
              an address buffer's fetch is awaited: occupancy + latency, latency 0
    compute:  occupancy = ceil(elements * ops / (lanes * instances)) + (steps - 1) * latency,
              latency = the unit's (steps: dependent steps of a carried accumulator)
    nested pipeline: occupancy = its busiest inner unit's over its N iterations
              (`nested_pace`), latency = its own cycles less that

A program costs `calls` × the sum of its top-level pipelines; programs add. Memory: a
program's scratchpad = sum of its buffers' bytes × their modulo + the kernel's pinned
bytes; the peak is the largest over programs. The CP-SAT model looks these same
functions up per candidate combination, so its objective equals `kernel_cycles`.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

from spyre_sched.solve.problem import (
    MEAN_SCALE,
    Candidate,
    Choice,
    Compute,
    Pipeline,
    Problem,
    Program,
    Quantity,
    Stage,
    Transfer,
    pipeline_scope,
    stage_scope,
    through_shared_memory,
)
from spyre_sched.device.model import occupancy_cycles, transfer_cycles
from spyre_sched.solve import streaming
from spyre_sched.solve.units import fmt_bytes_apart


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def modulo_value(problem: Problem, modulo: str | int, choice: Choice) -> int:
    if isinstance(modulo, int):
        return modulo
    d = problem.decision(modulo)
    return candidate_modulo(d.kind, d.candidates[choice[modulo]])


def candidate_modulo(kind: str, c: Candidate) -> int:
    """Iterations a candidate keeps in flight. A modulo decision: its buffers' copies. A
    FIFO pipeline's `chunk` (the pipeline's modulo when the solver picks its FIFOs'
    depths): the vector the unit computes and the entries each FIFO holds behind it, so
    1 + the fewest entries the candidate asks of a FIFO; at least 2, since the producer
    pushes the next vector while the consumer computes even through one entry."""
    if kind == "chunk" and c.in_flight:
        return c.in_flight
    if kind == "chunk" and c.entries:
        return max(2, 1 + min(c.entries))
    return c.value


# ---- one piece of work ---------------------------------------------------------------


def transfer_one_shot(t: Transfer, choice: Choice) -> int:
    """One transfer from first byte out to last byte in: the device's formula, with the
    shared memory's bandwidth divided among the cores that run the program."""
    nbytes = t.bytes.at(choice)
    if nbytes == 0:
        return 0  # nothing to move (an input kept resident): the transfer is not issued
    own = transfer_cycles(nbytes, t.bandwidth, t.latency)
    if t.shared_bandwidth is None:
        return own
    return max(own, transfer_cycles(nbytes * t.sharers, t.shared_bandwidth, t.latency))


def transfer_steady(t: Transfer, choice: Choice, modulo: int) -> int:
    """Steady-state cycles per iteration: the path is busy `occupancy`; with m buffers,
    m - 1 transfers are in flight, so latency is hidden up to that depth."""
    one = transfer_one_shot(t, choice)
    occupancy = max(0, one - t.latency)
    if modulo < 2:
        return one
    return max(occupancy, _ceil_div(one, modulo))


def compute_steady(c: Compute, choice: Choice) -> int:
    """Cycles the unit is occupied per iteration: the lanes' throughput, or, when the
    invocations' in-order op chains take longer (`Compute.period`), those; and the sends
    of its results (`Compute.sends`, a matrix unit's)."""
    elements, instances = c.elements.at(choice), c.instances.at(choice)
    throughput = _ceil_div(elements * c.ops, c.lanes * instances)
    period = c.period.at(choice)
    sends = c.sends.at(choice)
    if not period:
        return throughput + sends
    invocations = _ceil_div(_ceil_div(elements, max(1, c.points)), instances)
    return max(throughput, invocations * period) + sends


def transfer_alone(t: Transfer, choice: Choice) -> int:
    """One transfer when the shared memory serves it at full speed: the cores arrive
    staggered (an earlier stage's traffic through the same memory spaced them out), so it
    waits for no other core's share."""
    nbytes = t.bytes.at(choice)
    if nbytes == 0:
        return 0
    own = transfer_cycles(nbytes, t.bandwidth, t.latency)
    if t.shared_bandwidth is None:
        return own
    return max(own, transfer_cycles(nbytes, t.shared_bandwidth, t.latency))


def shared_memories(stage: Stage) -> set[str]:
    """Shared memories the stage surely moves data through. A transfer that moves nothing
    for some choice (a re-read of an input the solver may keep resident) does not count:
    when it moves nothing it orders no cores, and the later stages pay all cores' share."""
    return {w.shared_memory for w in stage.work
            if through_shared_memory(w) and w.bytes.least() > 0}


def staggered_stages(p: Pipeline) -> list[tuple[str, ...]]:
    """Per stage, the shared memories an earlier stage of `p` already moved data through
    (plus what the stage was marked with when split off its pipeline)."""
    seen: set[str] = set()
    out: list[tuple[str, ...]] = []
    for st in p.stages:
        out.append(tuple(sorted(seen | set(st.staggered))))
        seen |= shared_memories(st)
    return out


def leading_transfer(stage: Stage) -> tuple[str, int] | None:
    """(engine, latency) of the longest transfer the stage's unit issues before it waits
    for anything (`leading_transfer_work`), or None when it starts with compute."""
    work = leading_transfer_work(stage)
    return None if work is None else (_leading_engine(stage), work.latency)


def _leading_engine(stage: Stage) -> str:
    first = stage.work[0]
    if isinstance(first, Pipeline) and first.stages:
        return _leading_engine(first.stages[0])
    return stage.engine


def _transfers_only(stage: Stage) -> bool:
    return bool(stage.work) and all(isinstance(w, Transfer) for w in stage.work)


def unit_waits(p: Pipeline) -> list[tuple[int, int, int]]:
    """(k, j, landing) for a stage k of transfers whose unit runs a later stage j of
    transfers that needs what k wrote (a device whose one DMA engine fills the scratchpad
    and drains it): j the next stage on that unit, reading k's target itself (j = k + 1)
    or fed by the stages between. The unit runs its stages in program order, so every
    iteration it sits idle from k's issue until j's input is there: k's landing (the
    lowering's token from the unit to itself, delivered once the transfers have landed,
    docs/dataflowir.md "Tokens") plus one iteration of each stage between. No copy of a
    buffer lets it run ahead."""
    out: list[tuple[int, int, int]] = []
    for k, st in enumerate(p.stages):
        if not _transfers_only(st):
            continue
        j = next((i for i in range(k + 1, len(p.stages))
                  if p.stages[i].engine == st.engine), None)
        if j is None or not _transfers_only(p.stages[j]):
            continue
        written = {w.target for w in st.work}
        if j == k + 1 and not any(w.source in written for w in p.stages[j].work):
            continue
        out.append((k, j, max(0 if w.awaited else w.latency for w in st.work)))
    return out


def landing_waits(p: Pipeline) -> list[int]:
    """Per stage, the landing its unit waits for before the very next stage
    (`unit_waits` with j = k + 1), else 0."""
    out = [0] * len(p.stages)
    for k, j, landing in unit_waits(p):
        if j == k + 1:
            out[k] = landing
    return out


def serial_units(p: Pipeline, occupancies: list, fills: list) -> dict[str, object]:
    """Per unit that waits for its own work (`unit_waits`): its busy and idle time per
    iteration, its stages' occupancies plus each wait (the landing and the fills of the
    stages between). Works on ints and on CP-SAT expressions alike."""
    waits = unit_waits(p)
    engines = {p.stages[k].engine for k, _, _ in waits}
    out: dict[str, object] = {}
    for engine in sorted(engines):
        total = sum(o for st, o in zip(p.stages, occupancies) if st.engine == engine)
        for k, j, landing in waits:
            if p.stages[k].engine == engine:
                total = total + landing + sum(fills[k + 1:j])
        out[engine] = total
    return out


def overlapped_latency(p: Pipeline) -> list[int]:
    """Per stage, the cycles of its latency that the next stage hides. A stage made only of
    transfers (a hoisted load) whose next stage starts with a transfer on the same unit:
    the unit issues the next transfer as soon as it is no longer busy, and only the unit
    that reads the hoisted data waits for it (docs/dataflowir.md, "Tokens"), so the two
    latencies run side by side; the hoisted one adds only what exceeds the next one. Not
    when the next stage reads what this one wrote: its unit waits for the landing
    (`landing_waits`)."""
    out: list[int] = []
    for k, (st, wait) in enumerate(zip(p.stages, landing_waits(p))):
        hidden = st.overlapped
        if (k + 1 < len(p.stages) and st.work and not wait
                and all(isinstance(w, Transfer) for w in st.work)):
            nxt = leading_transfer(p.stages[k + 1])
            if nxt is not None and nxt[0] == st.engine:
                landing = max((0 if w.awaited else w.latency) for w in st.work)
                hidden = max(hidden, min(landing, nxt[1]))
        out.append(hidden)
    return out


def leading_transfer_work(stage: Stage) -> Transfer | None:
    """Of the transfers a stage's unit issues back to back before it waits for anything,
    the one with the longest latency (looking into a nested pipeline's first stage; a
    first stage of transfers only is followed by the next stage's, on the same unit: the
    nested pipeline's copies start free). None when the stage starts with compute."""
    if not stage.work:
        return None
    first = stage.work[0]
    if isinstance(first, Transfer):
        run = itertools.takewhile(lambda w: isinstance(w, Transfer), stage.work)
        return max(run, key=lambda w: w.latency)
    if isinstance(first, Pipeline) and first.stages:
        lead = leading_transfer_work(first.stages[0])
        head = first.stages[0]
        if lead is not None and len(first.stages) > 1 and head.work \
                and all(isinstance(w, Transfer) for w in head.work):
            after = leading_transfer_work(first.stages[1])
            if after is not None and after.latency > lead.latency \
                    and _leading_engine(first.stages[1]) == _leading_engine(head):
                lead = after
        return lead
    return None


def unissued_overlap(problem: Problem, p: Pipeline, choice: Choice) -> list[int]:
    """Per stage of one of a program's own run-once pipelines, the latency
    `overlapped_latency` hid behind the next stage's leading transfer that this choice
    does not issue (it moves nothing: an input kept resident), which the stage pays
    after all. Nested pipelines keep the static overlap, like their prefetch slack; the
    CP-SAT model adds the same per program (`varmodel.state_phase_overlap`)."""
    out = [0] * len(p.stages)
    top = problem.__dict__.get("_top_pipelines")
    if top is None:
        top = problem.__dict__["_top_pipelines"] = {
            id(q): q for prog in problem.programs for q in prog.pipelines}
    if id(p) not in top or streaming.overlaps(p) or p.iterations.scope or \
            p.instances.scope or pipeline_iterations(p, {}) != 1:
        return out
    for k, (amount, nxt) in enumerate(unissued_overlap_terms(p)):
        if amount and nxt.bytes.at(choice) == 0:
            out[k] = amount
    return out


def unissued_overlap_terms(p: Pipeline) -> list[tuple[int, Transfer | None]]:
    """Per stage, the latency `overlapped_latency` hides behind the next stage's leading
    transfer (beyond what the stage carries), and that transfer: the stage pays the
    amount when a choice does not issue it. 0 where the stage's own transfers may move
    nothing (its latency then depends on the choice too)."""
    out: list[tuple[int, Transfer | None]] = []
    for k, hidden in enumerate(overlapped_latency(p)):
        st = p.stages[k]
        nxt = leading_transfer_work(p.stages[k + 1]) if k + 1 < len(p.stages) else None
        if hidden <= st.overlapped or nxt is None or \
                any(isinstance(w, Transfer) and w.bytes.least() == 0 for w in st.work):
            out.append((0, nxt))
            continue
        landing = max((0 if w.awaited else w.latency) for w in st.work)
        out.append((min(landing, hidden) - min(landing, st.overlapped), nxt))
    return out


def share_excess(t: Transfer, choice: Choice) -> int:
    """What every core's share of a shared memory adds to one transfer over its own
    speed: what a staggered arrival saves, and how far one such transfer spreads the
    cores."""
    return transfer_one_shot(t, choice) - transfer_alone(t, choice)


def stagger_spread(stage: Stage, choice: Choice) -> dict[str, int]:
    """Per shared memory in `Stage.stagger_spread`, the cycles by which the earlier traffic
    spread the cores: the largest of its groups' `share_excess` (one iteration of an
    earlier stage)."""
    return {memory: max(sum(share_excess(w, choice) for w in group) for group in groups)
            for memory, groups in stage.stagger_spread}


def stage_fill(problem: Problem, stage: Stage, choice: Choice, staggered: tuple[str, ...],
               memo: dict | None = None, overlapped: int = 0, prefetch_slack: int = 0,
               spread: bool = True) -> int:
    """One iteration through the stage during the fill and drain. A transfer through a
    shared memory that an earlier stage already used is not slowed to all cores' share:
    the first shared stage orders the cores (they are served one after another), so
    later stages of different cores overlap instead of waiting for each other, by at most
    the spread that earlier traffic made where an earlier pipeline marked the stage
    (`Stage.stagger_spread`; `spread=False`: no such bound, as in a repeating run). A
    leading load that earlier stages of a run-once pipeline leave room for
    (`prefetch_slack`) hides up to that much behind them."""
    occupancy, latency = _stage_parts(problem, stage, choice, memo)
    latency -= min(latency, overlapped)
    if staggered:
        gains: dict[str, int] = {}
        for w in stage.work:
            if isinstance(w, Transfer) and w.shared_memory in staggered:
                gains[w.shared_memory] = gains.get(w.shared_memory, 0) + \
                    share_excess(w, choice)
        caps = stagger_spread(stage, choice) if spread else {}
        for memory, gain in gains.items():
            occupancy -= min(gain, caps[memory]) if memory in caps else gain
    # (at most what is left of the fill: a load whose latency the next stage's leading
    # transfer already hides, or whose cores are spread, has less to hide)
    hidden = min(prefetch_slack, leading_load(problem, stage, choice, memo),
                 occupancy + latency) if prefetch_slack else 0
    return occupancy + latency - hidden


# ---- phases of a run-once pipeline overlap (docs/solver.md, "Phases overlap") ----------


def _is_load(w: object) -> bool:
    """A transfer that waits for no work of its program: out of the shared device memory
    (a DMA load of a kernel input), or out of a region an earlier program filled
    (`Transfer.ready`: a shared input's gathered copy, which its share choice may leave
    moving nothing, read in place)."""
    return isinstance(w, Transfer) and (w.ready or (
        through_shared_memory(w) and w.source == w.shared_memory))


def load_prefix_engine(stage: Stage) -> str | None:
    """The unit of the loads a stage starts with (itself made only of loads, or the first
    stage of the pipeline it runs), or None."""
    if stage.work and all(_is_load(w) for w in stage.work):
        return stage.engine
    if len(stage.work) == 1 and isinstance(stage.work[0], Pipeline) and stage.work[0].stages:
        return load_prefix_engine(stage.work[0].stages[0])
    return None


def leading_load(problem: Problem, stage: Stage, choice: Choice, memo: dict | None = None,
                 overlapped: int = 0) -> int:
    """Cycles the loads a stage starts with add to its fill, once (0 when it does not
    start with loads or they move nothing)."""
    if stage.work and all(_is_load(w) for w in stage.work):
        occupancy, latency = _stage_parts(problem, stage, choice, memo)
        return occupancy + latency - min(latency, overlapped)
    if len(stage.work) == 1 and isinstance(stage.work[0], Pipeline) and stage.work[0].stages:
        inner = stage.work[0]
        if pipeline_iterations(inner, choice) <= 0:
            return 0
        # Loads of the unit that follow each other at the start (a hoisted load, then the
        # first tile of the pipeline after it): the unit issues them back to back, each
        # as soon as it is free, and none waits for another's data.
        engine = load_prefix_engine(inner.stages[0])
        total = 0
        for st, hidden in zip(inner.stages, overlapped_latency(inner)):
            if load_prefix_engine(st) != engine:
                break
            part = leading_load(problem, st, choice, memo, hidden)
            if part == 0:
                break
            total += part
            if not all(_is_load(w) for w in st.work):
                break  # it goes on to compute: the loads it starts with end the run
        return total
    return 0


def _uses(stage: Stage, engine: str) -> bool:
    """Does the stage (or a pipeline it runs) issue transfers on `engine`?"""
    for w in stage.work:
        if isinstance(w, Transfer) and stage.engine == engine:
            return True
        if isinstance(w, Pipeline) and any(_uses(st, engine) for st in w.stages):
            return True
    return False


def _tail(problem: Problem, stage: Stage, engine: str, choice: Choice, memo: dict,
          landing: bool = True) -> int:
    """Cycles from the stage's last transfer on `engine` to its end (its last iteration's
    later stages): how long the engine sits idle before what follows the stage. The unit
    is free once it has issued its transfers (their occupancy), so the landing latency
    of the last one is idle time too (`landing`; not for a load stage right before the
    stage that prefetches: `overlapped_latency` already runs those latencies side by
    side)."""
    if any(isinstance(w, Transfer) for w in stage.work) and stage.engine == engine:
        if not landing:
            return 0
        return max((w.latency for w in stage.work if isinstance(w, Transfer)
                    and not w.awaited and w.bytes.at(choice) > 0), default=0)
    pipes = [w for w in stage.work if isinstance(w, Pipeline)]
    if len(pipes) != 1 or len(stage.work) != 1:
        return stage_one_iteration(problem, stage, choice, memo)
    inner = pipes[0]
    last = max((k for k, st in enumerate(inner.stages) if _uses(st, engine)), default=None)
    if last is None:
        return stage_one_iteration(problem, stage, choice, memo)
    after = sum(stage_one_iteration(problem, st, choice, memo) for st in inner.stages[last + 1:])
    tail = _tail(problem, inner.stages[last], engine, choice, memo) + after
    # Every iteration has a buffer copy of its own (N <= m): the unit issues all N
    # transfers back to back from the start, waiting for no compute, and sits idle for
    # the rest of the run (not only the last iteration's landing and later stages).
    n = pipeline_iterations(inner, choice)
    issuing = inner.stages[last]
    if 2 <= n <= modulo_value(problem, inner.modulo, choice) and issuing.engine == engine \
            and issuing.work and all(isinstance(w, Transfer) for w in issuing.work):
        fills = _profile(problem, inner, choice, memo)[2]
        issued = sum(fills[:last]) + n * stage_issue(problem, issuing, choice, memo)
        tail = max(tail, pipeline_cycles(problem, inner, choice, memo) - issued)
    return tail


PrefetchLink = tuple[Stage, str, bool]
"""One stage of a prefetch chain: (the stage, `whole` when the unit of the later loads
sits idle through all of it or `tail` when only after its last transfer there, and for
`tail` whether its last transfer's landing counts)."""


def prefetch_chain(p: Pipeline) -> list[tuple[PrefetchLink, ...]]:
    """Per stage of a run-once pipeline that starts with loads, the earlier stages whose
    time the unit of those loads spends idle, going back from it: every stage that never
    uses the unit whole, then the last one that does from its last transfer there to its
    end (a unit issues its next transfer as soon as it is free and a load of a kernel
    input waits for nothing else, docs/dataflowir.md "Tokens": the DMA of a later phase
    runs while an earlier phase computes). Empty for other stages and for pipelines that
    always run more than once (their stages repeat; the steady state covers them). A
    pipeline whose count the decisions set has its chains, which count only where the
    choice runs it once (`prefetch_slack`; not when its stages stream). A stage split off
    its pipeline carries its chain (`Stage.prefetch_chain`, like `staggered`)."""
    out: list[tuple[PrefetchLink, ...]] = [st.prefetch_chain for st in p.stages]
    if _ceil_div(p.iterations.least(), max(1, p.instances.most())) > 1 or \
            runs_vary(p) and streaming.overlaps(p):
        return out
    for k, st in enumerate(p.stages):
        engine = load_prefix_engine(st)
        if engine is None:
            continue
        chain: list[PrefetchLink] = []
        for before in reversed(p.stages[:k]):
            if _uses(before, engine):
                landing = not (before is p.stages[k - 1]
                               and all(_is_load(w) for w in before.work))
                chain.append((before, "tail", landing))
                break
            chain.append((before, "whole", False))
        out[k] = tuple(chain) or out[k]
    return out


def link_cycles(problem: Problem, link: PrefetchLink, engine: str, choice: Choice,
                memo: dict | None = None) -> int:
    """The idle time one link of a prefetch chain gives the unit `engine`."""
    stage, mode, landing = link
    if mode == "whole":
        return stage_one_iteration(problem, stage, choice, memo)
    return _tail(problem, stage, engine, choice, {} if memo is None else memo, landing)


def link_values(problem: Problem, link: PrefetchLink, engine: str
                ) -> dict[tuple[int, ...], int]:
    """`link_cycles` for every combination of the candidates of the link's stage's own
    decisions (`stage_scope`, in order), computed once per problem. The sub-results (a
    nested pipeline's stages, its inner pipelines) depend on fewer decisions and are
    shared across combinations, so the table costs little more than its size."""
    memo = problem.__dict__.setdefault("_link_values", {})
    key = (id(link[0]), link[1], link[2], engine)
    if key not in memo:
        scope = stage_scope(link[0])
        shared: dict = {}
        values = {k: link_cycles(problem, link, engine, dict(zip(scope, k)), shared)
                  for k in itertools.product(*(range(len(problem.decision(d).candidates))
                                               for d in scope))}
        memo[key] = (link[0], values)
    return memo[key][1]  # (holding the stage keeps its id from being reused)


def link_least(problem: Problem, link: PrefetchLink, engine: str) -> int:
    """`link_cycles` at its least over the stage's own decisions (a bound that holds
    whatever the solver picks)."""
    return min(link_values(problem, link, engine).values(), default=0)


def prefetch_slack(problem: Problem | None, p: Pipeline,
                   choice: Choice | None = None) -> list[int]:
    """Per stage, the cycles the earlier stages of a run-once pipeline leave the unit of
    its leading loads idle (`prefetch_chain`). For `choice` when given and `p` is one of
    a program's own pipelines of a fixed count: the phases of a program join as the
    emulator runs them. Otherwise at least, whatever the decisions (each link at its
    least): a nested pipeline's phases, a pipeline whose count the decisions set (none
    where `choice` runs it more than once; `varmodel` gates them the same way), and a
    stage split off a program's pipeline (a CP-SAT part, its least carried in
    `Stage.prefetch_slack`), to whose program `model.build` adds what a choice gives
    beyond the least (`varmodel.state_phase_overlap`)."""
    if problem is None:
        return [st.prefetch_slack for st in p.stages]
    if choice is not None and runs_vary(p) and pipeline_iterations(p, choice) > 1:
        return [0] * len(p.stages)  # (repeated, its stages' idle time is the steady state's)
    top = problem.__dict__.get("_top_pipelines")
    if top is None:
        top = problem.__dict__["_top_pipelines"] = {
            id(q): q for prog in problem.programs for q in prog.pipelines}
    # (stages streaming into each other overlap: their cost is not a sum of fills)
    exact = choice is not None and id(p) in top and not streaming.overlaps(p) \
        and not runs_vary(p)
    out = [0] * len(p.stages)
    for k, (st, chain) in enumerate(zip(p.stages, prefetch_chain(p))):
        engine = load_prefix_engine(st)
        if not chain or engine is None:
            out[k] = st.prefetch_slack
        elif exact and all(d in choice for link in chain for d in stage_scope(link[0])):
            out[k] = sum(link_cycles(problem, link, engine, choice) for link in chain)
            j = next((i for i, b in enumerate(p.stages) if b is chain[-1][0]), None)
            if j is not None:  # (a stage split off alone: what came before is not here)
                out[k] += carried_idle(problem, p.stages[j], engine, choice, out[j])
        elif st.prefetch_chain:
            out[k] = st.prefetch_slack
        else:
            out[k] = sum(link_least(problem, link, engine) for link in chain)
    return out


def runs_vary(p: Pipeline) -> bool:
    """Do the decisions set how many times the pipeline runs?"""
    return bool(p.iterations.scope or p.instances.scope)


def issues_freely(problem: Problem, stage: Stage, engine: str, choice: Choice) -> bool:
    """Does the stage issue all its transfers on `engine` waiting for no compute of its
    own? Loads alone do; so does a pipeline whose stages on the unit come first and do,
    when it runs once or every iteration has a buffer copy of its own (N <= m)."""
    if stage.work and all(_is_load(w) for w in stage.work):
        return stage.engine == engine
    if len(stage.work) != 1 or not isinstance(stage.work[0], Pipeline):
        return False
    inner = stage.work[0]
    n = pipeline_iterations(inner, choice)
    if n > 1 and n > modulo_value(problem, inner.modulo, choice):
        return False
    using = [_uses(st, engine) for st in inner.stages]
    if True in using[using.index(False) if False in using else len(using):]:
        return False  # (a stage on the unit after one that is not: it waits for that one)
    return any(using) and all(issues_freely(problem, st, engine, choice)
                              for st, u in zip(inner.stages, using) if u)


def carried_idle(problem: Problem, stage: Stage, engine: str, choice: Choice,
                 slack: int) -> int:
    """Idle time of `engine` before `stage` that its own leading loads did not use, which
    carries on past it: a stage that issues freely (`issues_freely`) issues its loads as
    soon as the unit is free, so the unit is free again its busy time after that, however
    long the stage's compute waits for the phase before. (Without it, the chain counts
    the unit idle only from the stage's own last transfer.)"""
    if slack <= 0 or load_prefix_engine(stage) != engine or \
            not issues_freely(problem, stage, engine, choice):
        return 0
    return max(0, slack - leading_load(problem, stage, choice))


REDUCE_STEP_EXTRA_OPS = 1
"""Vector ops one step of a carried accumulator adds to the body's own: the lowering turns
a reduction step into the body's ops and a lane `reduce` straight into the accumulator's
shape (a column sum: a `shuffle` of the row into it; docs/dataflowir.md), and the vector
unit issues them in order, each waiting for the previous one's result."""


def step_chain(c: Compute) -> int:
    """Dependent ops per step of a carried accumulator: each waits the unit's latency."""
    return c.ops + REDUCE_STEP_EXTRA_OPS


def carried_chain(c: Compute, choice: Choice) -> int:
    """Cycles the dependent steps of a carried accumulator add to the lanes' throughput
    (which already counts the body's ops once per vector). The unit issues a step's ops in
    order, each busy `b = ceil(points / lanes)` and waiting for the previous one's result
    the unit's latency later: one step takes `chain · b + (chain − 1) · latency`. The last
    op (the combine into the accumulator) is the only one that reads the previous step's
    result, so its own latency runs under the next step's first ops and is paid once, by
    the stage. Measured on the emulator: the f16 row sum's step (extf, reduce, add;
    latency 6) takes 15 cycles, as this says (docs/solver.md)."""
    steps = c.steps.at(choice)
    if steps <= 1:
        return 0
    busy = _ceil_div(max(1, c.points), c.lanes)
    return steps * (REDUCE_STEP_EXTRA_OPS * busy + (step_chain(c) - 1) * c.latency)


def work_parts(problem: Problem, w: Transfer | Compute | Pipeline, choice: Choice,
               memo: dict | None = None) -> tuple[int, int]:
    """(occupancy, latency) of one piece of work: how long it keeps its unit busy, and how
    much later its result lands."""
    if isinstance(w, Transfer):
        one = transfer_one_shot(w, choice)
        if one == 0:
            return 0, 0
        if w.awaited:  # the unit waits for it to land
            return one, 0
        return one - w.latency, w.latency
    if isinstance(w, Compute):
        return compute_steady(w, choice) + carried_chain(w, choice), w.latency
    return pipeline_cycles(problem, w, choice, memo), 0


def stage_times(problem: Problem, stage: Stage, choice: Choice, modulo: int,
                memo: dict | None = None, port_bytes: dict[str, int] | None = None,
                sides: tuple[bool, bool] = (False, False)) -> tuple[int, int]:
    """(one iteration, steady state) of a stage. Its unit issues the stage's work back to
    back: busy for the sum of the occupancies, done the largest latency later. With m
    buffers, m iterations are in flight, which hides the latency up to that depth:
    steady = max(occupancy, ceil((latency + occupancy) / m)); a stage that reaches a
    shared memory, given its pipeline's bytes through it (`port_bytes`), waits in the
    memory's queue instead of for every core's share (`port_steady`). A stage that runs a
    nested pipeline holds a copy of its neighbours' buffers only part of its run
    (`nested_hold`; `sides`: whether a stage comes before it, and after it)."""
    occupancy, latency = _stage_parts(problem, stage, choice, memo)
    one = occupancy + latency
    if modulo < 2:
        return one, one
    port = stage_port(stage, choice) if port_bytes is not None else None
    if port is not None:
        return one, port_steady(port, port_bytes.get(port.memory, 0), modulo)
    held = nested_hold(problem, stage, choice, memo, sides) if any(sides) else one
    return one, max(occupancy, _ceil_div(held, modulo))


def nested_ends(problem: Problem, inner: Pipeline, choice: Choice,
                memo: dict | None = None) -> tuple[int, int]:
    """(head, tail) of one run of the nested pipeline `inner`: from its start until the
    last of its stages that reads the buffer before the stage that runs it has done so
    (`Pipeline.outer_reads`, the first stage unless a later one reads it: the pipeline
    less the fills after that stage; a later stage that runs a pipeline of its own reads
    by that one's head), and from the start of its last stage's part until
    its end (the pipeline less the fills before it). Its last stage writes the buffer
    after."""
    if inner.mean is not None:
        memo = {} if memo is None else memo
        head = at_mean(inner, choice, memo,
                       lambda q: _nested_ends(problem, q, choice, memo)[0])
        tail = at_mean(inner, choice, memo,
                       lambda q: _nested_ends(problem, q, choice, memo)[1])
        return head, tail
    return _nested_ends(problem, inner, choice, memo)


def _nested_ends(problem: Problem, inner: Pipeline, choice: Choice,
                 memo: dict | None) -> tuple[int, int]:
    cycles = pipeline_cycles(problem, inner, choice, memo)
    fills = _profile(problem, inner, choice, memo)[2]
    total = sum(fills)
    k = inner.outer_reads
    part = fills[k]
    reader = inner.stages[k]
    if k > 0 and len(reader.work) == 1 and isinstance(reader.work[0], Pipeline):
        # a nested stage reads at its own head (its loads go first)
        part = min(part, nested_ends(problem, reader.work[0], choice, memo)[0])
    part = max(part, reader_lag(problem, inner, choice, memo))
    read = sum(fills[:k]) + part
    head = min(cycles, max(read, cycles - total + read))
    tail = min(cycles, max(fills[-1], cycles - total + fills[-1]))
    return head, tail


def reader_lag(problem: Problem, inner: Pipeline, choice: Choice,
               memo: dict | None = None) -> int:
    """The least time the stage of `inner` that reads the buffer around it
    (`Pipeline.outer_reads`) spends on one iteration's reads when it sends them on through
    a FIFO that holds fewer entries than the iteration sends (`Pipeline.reader_fifos`: a
    row's vectors into a reduction's FIFO): it places the last entries only as the next
    stage takes the earlier ones, so its last read comes after its first entry (the
    transfer's latency and one entry's time) and the next stage's time for all but the
    FIFO's depth of them (its occupancy per iteration, pro rata). 0 when every such FIFO
    holds an iteration."""
    if not inner.reader_fifos:  # (extract gives them only when a stage follows)
        return 0
    k = inner.outer_reads
    reader = {w.name: w for w in inner.stages[k].work if isinstance(w, Transfer)}
    consumer = None
    out = 0
    for name, entry_bytes, depth in inner.reader_fifos:
        w = reader[name]
        entries = _ceil_div(w.bytes.at(choice), entry_bytes)
        if entries <= depth:
            continue
        if consumer is None:
            consumer = _stage_parts(problem, inner.stages[k + 1], choice, memo)[0]
        first = w.latency + _ceil_div(entry_bytes, w.bandwidth)
        out = max(out, first + _ceil_div(consumer * (entries - depth), entries))
    return out


def nested_hold(problem: Problem, stage: Stage, choice: Choice, memo: dict | None,
                sides: tuple[bool, bool]) -> int:
    """How long a stage that runs a nested pipeline holds a copy of the buffers it shares
    with the stages around it: the buffer before until its head has read it, the buffer
    after from its tail on (`nested_ends`), the longer of the two it has. The units between
    run on meanwhile, so the copies pace the stage by this, not by the whole run (the
    stage's other work). Any other stage: its one iteration."""
    if not (len(stage.work) == 1 and isinstance(stage.work[0], Pipeline)):
        return sum(_stage_parts(problem, stage, choice, memo))
    inner = stage.work[0]
    if pipeline_iterations(inner, choice) <= 0:
        return 0
    head, tail = nested_ends(problem, inner, choice, memo)
    before, after = sides
    return max(head if before else 0, tail if after else 0)


# ---- a shared memory's queue in the steady state (docs/solver.md, "The port's queue") -

PORT_SCALE = 1024
"""Queue lengths are tabulated in 1/1024ths of a customer."""


@dataclass(frozen=True)
class StagePort:
    """A stage whose transfers reach one shared memory, as the steady state sees it."""

    memory: str
    bandwidth: int
    sharers: int
    alone: int
    """The stage's occupancy with every transfer served at the memory's full speed."""
    latency: int
    nbytes: int
    """Bytes per iteration (per core) the stage moves through the memory."""


def port_memory(stage: Stage) -> tuple[str, int, int] | None:
    """(memory, bandwidth, sharers) of the shared memory whose queue the stage's transfers
    wait in: the one they keep busiest (every core's bytes at their most, over its
    bandwidth; a row tile's X from device memory beside its sums read over the ring). The
    transfers through any other count at their own speed, like the stage's private work
    (`stage_port`). None when they reach none, or the stage runs a nested pipeline, or
    it awaits one of its transfers (a gather's address fetch): its unit then waits for
    the fetch and, in its turn at the memory, for every core's share of the gather, one
    iteration after the other, so its copies do not take turns in the queue and its
    occupancy (every core's share) is its pace."""
    if any(isinstance(w, Pipeline) or isinstance(w, Transfer) and w.awaited
           for w in stage.work):
        return None
    service: dict[tuple[str, int, int], Fraction] = {}
    for w in stage.work:
        if through_shared_memory(w):
            key = (w.shared_memory, w.shared_bandwidth, w.sharers)
            service[key] = service.get(key, 0) + Fraction(w.bytes.most() * w.sharers,
                                                           w.shared_bandwidth)
    return max(service, key=lambda k: (service[k], k)) if service else None


def stage_port(stage: Stage, choice: Choice) -> StagePort | None:
    """The stage's `StagePort` (None: `port_memory` is None)."""
    found = port_memory(stage)
    if found is None:
        return None
    memory, bandwidth, sharers = found
    alone = latency = nbytes = 0
    for w in stage.work:
        if isinstance(w, Transfer):
            one = transfer_alone(w, choice)
            if one == 0:
                continue
            if w.shared_memory == memory:
                nbytes += w.bytes.at(choice)
            if w.awaited:
                alone += one
            else:
                alone += one - w.latency
                latency = max(latency, w.latency)
        else:
            alone += compute_steady(w, choice) + carried_chain(w, choice)
            latency = max(latency, w.latency)
    return StagePort(memory, bandwidth, sharers, alone, latency, nbytes)


def pipeline_port_bytes(p: Pipeline, choice: Choice) -> dict[str, int]:
    """Bytes per iteration (per core) the pipeline's own stages move through each shared
    memory, loads and stores alike."""
    out: dict[str, int] = {}
    for st in p.stages:
        for w in st.work:
            if through_shared_memory(w):
                out[w.shared_memory] = out.get(w.shared_memory, 0) + w.bytes.at(choice)
    return out


def port_think(port: StagePort) -> int:
    """The stage's round trip away from the memory's queue, times its bandwidth (its
    transfers' service at the memory is the part of `alone` it leaves out)."""
    return (port.alone + port.latency) * port.bandwidth - port.nbytes


RHO_STEPS = (0, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16, 18, 20, 23, 26, 29, 33, 37, 42, 47, 53, 60,
             67, 76, 85, 96, 108, 121, 136, 154, 173, 195, 219, 246, 277, 312, 351, 395, 444, 500)
"""The think-to-service ratios the queue is read at: 0, then 4 to 500, each step 1/8 more
than the one before (rounded down). A ratio counts as the largest step at most it (the
queue only shortens as the ratio grows, so this never reads it short). Near a saturated
port the queue falls about one customer per unit of ratio, so a coarser grid reads it
long: at 47 services away, 64 customers and steps of 16, it read 31 customers for MVA's
16."""


def port_step(port: StagePort, pipeline_bytes: int) -> int:
    """Index in RHO_STEPS of floor(think x bandwidth / pipeline bytes) (`port_think`)."""
    think, per = port_think(port), max(pipeline_bytes, 1)
    return sum(1 for rho in RHO_STEPS[1:] if think >= rho * per)


@functools.lru_cache(maxsize=None)
def port_queue_table(customers: int) -> tuple[int, ...]:
    """Mean-value analysis of a closed queue: `customers` customers each visiting a server
    of service time 1 and spending `rho` away from it per round. Entry k (rho =
    RHO_STEPS[k]) is the mean queue an arriving customer finds (the other customers', by
    the arrival theorem), in 1/PORT_SCALE, rounded up."""
    out = []
    for rho in RHO_STEPS:
        queue = 0.0
        for k in range(1, customers):
            response = 1.0 + queue
            queue = k * response / (response + rho)
        out.append(math.ceil(queue * PORT_SCALE))
    return tuple(out)


def port_steady(port: StagePort, pipeline_bytes: int, modulo: int) -> int:
    """Steady state of a buffered stage that reaches a shared memory. The cores' m buffers
    are the customers of the memory's queue: each round visits it for the pipeline's bytes
    (loads and stores) and spends the stage's round trip away from it (`port_think`). A
    transfer waits for the queue it finds:

        k      = `port_step`: think x bandwidth / pipeline bytes, as a step of RHO_STEPS
        wait   = ceil(stage bytes x queue(cores x m)[k] / (bandwidth x PORT_SCALE))
        steady = max(alone, ceil((alone + latency + wait) / m))

    The memory's throughput (every core's bytes) bounds the pace as its own engine. (No
    bytes through the memory: no wait, whatever the bucket.)"""
    queue = port_queue_table(port.sharers * modulo)[port_step(port, pipeline_bytes)]
    wait = _ceil_div(port.nbytes * queue, port.bandwidth * PORT_SCALE)
    return max(port.alone, _ceil_div(port.alone + port.latency + wait, modulo))


def _memo_key(memo: dict, kind: str, obj: Stage | Pipeline, scope_of, choice: Choice
              ) -> tuple:
    """The key of `obj`'s figure `kind` in a cost memo: the values `choice` gives the
    decisions of its scope (looked up once per object). `.get`: a caller may give only
    the decisions the figures it asks for read."""
    scope = memo.get(id(obj))
    if scope is None:
        scope = memo[id(obj)] = scope_of(obj)
    return kind, id(obj), tuple(choice.get(d) for d in scope)


def _stage_parts(problem: Problem, stage: Stage, choice: Choice,
                 memo: dict | None) -> tuple[int, int]:
    """(occupancy, latency) of a stage; memoised per stage and the candidates of the
    decisions it depends on (they do not depend on the modulo), in `memo` when given."""
    if memo is None:
        memo = {}  # (its nested pipelines are reached again from each stage's fill and pace)
    key = _memo_key(memo, "parts", stage, stage_scope, choice)
    found = memo.get(key)
    if found is not None:
        return found
    occupancy = latency = 0
    if len(stage.work) == 1 and isinstance(stage.work[0], Pipeline):
        # its units run on into the next iteration: busy at the busiest one's pace, the
        # rest of one run is its depth (`nested_pace`)
        cycles = pipeline_cycles(problem, stage.work[0], choice, memo)
        occupancy = nested_pace(problem, stage.work[0], choice, memo)
        latency = cycles - occupancy
    else:
        for w in stage.work:
            occ, lat = work_parts(problem, w, choice, memo)
            occupancy += occ
            latency = max(latency, lat)
    memo[key] = (occupancy, latency)
    return occupancy, latency


def nested_pace(problem: Problem, inner: Pipeline, choice: Choice,
                memo: dict | None = None) -> int:
    """Cycles per outer iteration that a stage running the nested pipeline `inner` keeps
    its units busy: the busiest inner unit's occupancy over its N iterations (at most one
    run). Its units (lx_load -> sfu -> lx_store) each go on to the next outer iteration
    when done, so one run's whole length is depth, not occupancy (docs/solver.md,
    "A stage that runs a nested pipeline")."""
    if inner.mean is not None:
        memo = {} if memo is None else memo
        return at_mean(inner, choice, memo,
                       lambda q: _nested_pace(problem, q, choice, memo))
    return _nested_pace(problem, inner, choice, memo)


def _nested_pace(problem: Problem, inner: Pipeline, choice: Choice,
                 memo: dict | None) -> int:
    n = pipeline_iterations(inner, choice)
    if n <= 0:
        return 0
    one_pass, slowest, _, _, issue, _ = _profile(problem, inner, choice, memo)
    if modulo_value(problem, inner.modulo, choice) >= 2:
        # a unit waiting for one of the inner copies to come free (a load behind device
        # memory's latency) waits just as long in the next outer iteration: the outer
        # copies do not add inner ones, so the inner pipeline's own pace holds
        issue = max(issue, slowest)
    run = pipeline_cycles(problem, inner, choice, memo)
    pace = min(run, n * issue)
    if inner.reads_back:
        # the next outer iteration's first read waits for this one's first write back:
        # at least one iteration's pass (all of a run of one iteration)
        pace = max(pace, min(run, one_pass))
    return pace


def stage_issue(problem: Problem, stage: Stage, choice: Choice,
                memo: dict | None = None) -> int:
    """Cycles the stage keeps its unit busy per iteration when no buffer makes it wait: its
    occupancy (the steady state of `stage_times` with unlimited buffers)."""
    return _stage_parts(problem, stage, choice, memo)[0]


def stage_own_issue(problem: Problem, stage: Stage, choice: Choice,
                    memo: dict | None = None) -> int:
    """`stage_issue` with every shared memory serving the stage at its own speed (the
    cores staggered: `transfer_alone`); the shared memory's share of every core bounds the
    whole run instead (`shared_engine_cycles`)."""
    return stage_issue(problem, stage, choice, memo) - sum(
        share_excess(w, choice) for w in stage.work if isinstance(w, Transfer))


def stage_one_iteration(problem: Problem, stage: Stage, choice: Choice,
                        memo: dict | None = None) -> int:
    """One iteration through the stage (does not depend on the modulo)."""
    return stage_times(problem, stage, choice, 1, memo)[0]


# ---- pipelines, programs, the kernel ------------------------------------------------


def _add_shared(stage: Stage, choice: Choice, engines: dict[str, int]) -> None:
    """A memory whose bandwidth all cores share (device memory) is an engine too: every
    transfer through it, loads and stores alike, occupies it for bytes × sharers ÷ its
    bandwidth per iteration."""
    for w in stage.work:
        if through_shared_memory(w):
            key = f"{w.shared_memory} (shared)"
            engines[key] = engines.get(key, 0) + occupancy_cycles(
                w.bytes.at(choice) * w.sharers, w.shared_bandwidth)


def _slack(problem: Problem, p: Pipeline, choice: Choice | None = None) -> list[int]:
    """Per stage, the prefetch slack (`prefetch_slack`) for `choice`, or at least."""
    return prefetch_slack(problem, p, choice)


def pipeline_iterations(p: Pipeline, choice: Choice) -> int:
    return _ceil_div(p.iterations.at(choice), max(1, p.instances.at(choice)))


def at_mean(p: Pipeline, choice: Choice, memo: dict,
            figure: Callable[[Pipeline], int]) -> int:
    """`figure` of a nested pipeline at its exact mean iteration count (`Pipeline.mean`):
    the figure of the same pipeline run the whole counts either side of the mean,
    weighted by where the mean falls, rounded once. Its cycles and its units' busy time
    grow by one iteration's worth per iteration (the fill is paid once), so over the
    tiles of the loop around it the weighted figure is what they add up to: a matmul's
    tiles of 6, 6 and 4 row blocks are priced as 5.33 blocks each, not 5."""
    if p.mean is None:
        return figure(p)
    scaled = p.mean.at(choice)
    low, rest = divmod(scaled, MEAN_SCALE)
    if not rest and low == pipeline_iterations(p, choice):
        return figure(p)
    below, above = (figure(_run_of(p, n, memo)) if n > 0 else 0 for n in (low, low + 1))
    return below + ((above - below) * rest * 2 + MEAN_SCALE) // (2 * MEAN_SCALE)


def _run_of(p: Pipeline, n: int, memo: dict) -> Pipeline:
    """`p` running exactly `n` iterations, still depending on the decisions its count
    does (`runs_vary`), kept in `memo`: figures are cached by the pipeline's identity."""
    key = ("run of", id(p), n)
    found = memo.get(key)
    if found is None:
        count = Quantity(p.iterations.scope, _Constant(n), (Quantity.const(n),))
        found = memo[key] = replace(p, iterations=count, instances=Quantity.const(1),
                                    mean=None)
    return found


class _Constant(Mapping):
    """The table of a count that is `n` whatever the candidates."""

    def __init__(self, n: int):
        self._n = n

    def __getitem__(self, key: tuple[int, ...]) -> int:
        return self._n

    def __iter__(self):
        return iter(())

    def __len__(self) -> int:
        return 0


def pipeline_cycles(problem: Problem, p: Pipeline, choice: Choice,
                    memo: dict | None = None) -> int:
    """Cycles of one run of the pipeline. Results are cached per pipeline and the
    candidates of the decisions it depends on, in `memo` when given (callers that
    enumerate choices share one), else for this call. A nested pipeline over partial
    tiles: at its mean count (`at_mean`)."""
    if memo is None:
        memo = {}
    if p.mean is not None:
        return at_mean(p, choice, memo, lambda q: _plain_cycles(problem, q, choice, memo))
    return _plain_cycles(problem, p, choice, memo)


def _plain_cycles(problem: Problem, p: Pipeline, choice: Choice, memo: dict) -> int:
    key = _memo_key(memo, "cycles", p, pipeline_scope, choice)
    if key not in memo:
        memo[key] = _pipeline_cycles(problem, p, choice, memo)
    return memo[key]


def _pipeline_cycles(problem: Problem, p: Pipeline, choice: Choice, memo: dict | None) -> int:
    n = pipeline_iterations(p, choice)
    if n <= 0:
        return 0
    fill_drain, slowest, fills, shared, issue, gaps = _profile(problem, p, choice, memo)
    m = modulo_value(problem, p.modulo, choice)
    if n < 2:
        return fill_drain
    if m < 2:
        cycles = fill_drain + (n - 1) * slowest + unbuffered_skew(p, choice, shared)
    else:
        cycles = fill_drain + repeats_cycles(n, m, slowest, issue)
    return max([cycles, *memory_bounds(p, n, shared, fills, gaps).values()])


def memory_bounds(p: Pipeline, n: int, shared: dict[str, int], fills: list[int],
                  gaps: dict[str, int]) -> dict[str, int]:
    """Per shared memory, the bound of a run of N >= 2 iterations (`shared_engine_cycles`
    plus an unbuffered run's `unbuffered_gaps`) from `_profile`'s figures. (A memory this
    choice moves nothing through, a re-read kept resident, orders nothing.)"""
    spans = shared_spans(p)
    return {mem: shared_engine_cycles(n, shared[mem], fills, spans[mem]) + gaps.get(mem, 0)
            for mem in spans if shared.get(mem)}


def pipeline_profile(problem: Problem, p: Pipeline, choice: Choice,
                     memo: dict | None = None) -> tuple[int, int]:
    """(fill_drain, slowest) of a pipeline, independent of its iteration count N: its
    cycles are `fill_drain + (N - 1) * slowest` for N > m (unbuffered, m < 2, `slowest`
    is `unbuffered_period`, `fill_drain` when N < 2), the units' `issue` pace instead for
    2 <= N <= m, and, for N >= 2, a shared memory's `shared_engine_cycles` when that is
    more (`_pipeline_cycles`). Both are monotone in everything below."""
    return _profile(problem, p, choice, memo)[:2]


def _profile(problem: Problem, p: Pipeline, choice: Choice, memo: dict | None = None
             ) -> tuple[int, int, list[int], dict[str, int], int, dict[str, int]]:
    """`pipeline_profile`, the stages' fills, per shared memory its busy cycles per
    iteration (the pipeline's own transfers through it), the busiest unit's occupancy
    per iteration (the pace at which iterations with a free buffer follow each other) and
    an unbuffered repeating run's `unbuffered_gaps` (empty otherwise).
    Memoised like `pipeline_cycles` (callers only read the result)."""
    if memo is None:
        memo = {}
    key = _memo_key(memo, "profile", p, pipeline_scope, choice)
    found = memo.get(key)
    if found is None:
        found = memo[key] = _profile_of(problem, p, choice, memo)
    return found


def _profile_of(problem: Problem, p: Pipeline, choice: Choice, memo: dict | None
                ) -> tuple[int, int, list[int], dict[str, int], int, dict[str, int]]:
    m = modulo_value(problem, p.modulo, choice)
    fills: list[int] = []
    per_engine: dict[str, int] = {}
    occupied: dict[str, int] = {}
    shared: dict[str, int] = {}
    unissued = unissued_overlap(problem, p, choice)
    port_bytes = pipeline_port_bytes(p, choice)
    issues: list[int] = []
    last = len(p.stages) - 1
    for i, (st, stag, hidden, free, back) in enumerate(zip(
            p.stages, staggered_stages(p), overlapped_latency(p), _slack(problem, p, choice),
            unissued)):
        _, steady = stage_times(problem, st, choice, m, memo, port_bytes, (i > 0, i < last))
        fills.append(stage_fill(problem, st, choice, stag, memo, hidden, free) + back)
        per_engine[st.engine] = per_engine.get(st.engine, 0) + steady
        issues.append(stage_issue(problem, st, choice, memo))
        occupied[st.engine] = occupied.get(st.engine, 0) + issues[-1]
        _add_shared(st, choice, shared)
    # a unit that waits for its own work runs one iteration after the other whatever the
    # copies: its busy and idle time per iteration bounds the pace too
    serial = serial_units(p, [stage_own_issue(problem, st, choice, memo) for st in p.stages],
                          fills)
    for engine, total in serial.items():
        per_engine[engine] = max(per_engine[engine], total)
        occupied[engine] = max(occupied[engine], total)
    # a shared memory is not one of the units' engines: it serves every core from the first
    # core's first transfer on, so it bounds the whole run (`shared_engine_cycles`), not a
    # pass that already waited for its fill
    shared = {key.removesuffix(" (shared)"): c for key, c in shared.items()}
    fill_drain = sum(fills)
    if streaming.overlaps(p):  # stages streaming through FIFOs overlap
        def nested_pass(q: Pipeline) -> int:
            return pipeline_profile(problem, q, choice, memo)[0]
        heads, tails = zip(*(streaming.ends(st, f, choice, nested_pass, after)
                             for st, f, after in zip(p.stages, fills,
                                                     streaming.consumers(p))))
        fill_drain = streaming.one_pass(fills, list(heads), list(tails))
    issue = max(occupied.values(), default=0)
    if issues_back_to_back(p):
        return fill_drain, issue, fills, shared, issue, {}
    if m < 2:
        if pipeline_iterations(p, choice) < 2 or not holds_buffer(p):
            return fill_drain, fill_drain, fills, shared, issue, {}
        parts, holds = unbuffered_holding(problem, p, choice, memo)
        return (fill_drain, unbuffered_period(p, parts, holds, fill_drain,
                                              list(serial.values())),
                fills, shared, issue, unbuffered_gaps(problem, p, choice, memo, holds))
    return fill_drain, max(per_engine.values(), default=0), fills, shared, issue, {}


# ---- an unbuffered pipeline's period (docs/solver.md, "Unbuffered iterations") ---------


def issues_back_to_back(p: Pipeline) -> bool:
    """One stage of transfers and nothing else: nothing of the pipeline reads what they
    write but the stage itself (an address fetch its gather reads, which the unit awaits),
    so no token makes its unit wait for the rest to land, and it issues the next
    iteration's as soon as it has issued this one's, whatever the copies: iterations
    follow each other at the stage's occupancy (an awaited fetch counted whole,
    `work_parts`), the other latency paid once (in the last one's pass)."""
    if len(p.stages) != 1 or not p.stages[0].work:
        return False
    return all(isinstance(w, Transfer) for w in p.stages[0].work)


def holds_buffer(p: Pipeline) -> bool:
    """Does an unbuffered run of `p` repeat at the pace its buffers are held (not one whole
    pass per iteration)? Two or more stages that hand data on through a buffer, not
    through FIFOs (stages that stream overlap already: `streaming.overlaps`)."""
    return len(p.stages) >= 2 and not streaming.overlaps(p)


def unbuffered_stage(problem: Problem, stage: Stage, choice: Choice, hidden: int,
                     memo: dict | None = None) -> tuple[int, int, int]:
    """(occupancy, head, tail) of a stage of an unbuffered pipeline, for its period.

    occupancy: what its units are busy per iteration. head: from the stage's start until
    it has read what the stage before wrote (it frees that buffer when those reads have
    landed). tail: from its start until what it writes for the next stage has landed.
    A stage of transfers or computes is one unit: both are its one iteration, a transfer
    through a shared memory at its own speed (in a repeating run the cores reach the
    memory staggered; every core's share is the memory's own term of the period). A
    stage that runs a nested pipeline (lx_load -> sfu -> lx_store) is several units: its
    first stage reads the buffer before it, its last writes the buffer after it, and the
    units between run on while those wait for their tokens, so its occupancy is the
    busiest inner unit's, head the pipeline less the fills after its first stage, tail the
    pipeline less the fills before its last."""
    if len(stage.work) == 1 and isinstance(stage.work[0], Pipeline):
        inner = stage.work[0]
        if pipeline_iterations(inner, choice) <= 0:
            return 0, 0, 0
        head, tail = nested_ends(problem, inner, choice, memo)
        return nested_pace(problem, inner, choice, memo), head, tail
    staggered = tuple(sorted({w.shared_memory for w in stage.work
                              if isinstance(w, Transfer) and w.shared_memory}))
    alone = stage_fill(problem, stage, choice, staggered, memo, hidden, spread=False)
    return stage_issue(problem, stage, choice, memo), alone, alone


def unbuffered_holding(problem: Problem, p: Pipeline, choice: Choice,
                       memo: dict | None = None) -> tuple[list, list]:
    """(each stage's `unbuffered_stage`, the holds of `unbuffered_holds` from them)."""
    parts = [unbuffered_stage(problem, st, choice, hidden, memo)
             for st, hidden in zip(p.stages, overlapped_latency(p))]
    return parts, unbuffered_holds(p, [h for _, h, _ in parts], [t for _, _, t in parts])


def unbuffered_period(p: Pipeline, parts: list, holds: list, fill_drain: int,
                      serial: Sequence[int] = ()) -> int:
    """Cycles between iterations of a pipeline with one copy of its buffers (m = 1).

    A buffer's writer waits for the token its reader sends once its reads have landed
    (docs/dataflowir.md, "Tokens"), so the buffer between two stages is held from the
    writer's start to the reader's end: the writer's tail and the reader's head (stages
    on one unit before the reader write in a run, their tails add). The other units run
    on meanwhile, so the period is the longest such hold or the busiest unit's occupancy,
    never more than one whole pass (`fill_drain`, the period of the first design); a
    shared memory bounds the whole run instead (`shared_engine_cycles`). One stage, or
    stages that stream, hold no buffer: their period is one pass, which `_profile_of`
    takes without asking here. `parts`, `holds`: those of `unbuffered_holding`; `serial`:
    the per-iteration times of units that wait for their own work (`serial_units`)."""
    units: dict[str, int] = {}
    for st, (occupancy, _, _) in zip(p.stages, parts):
        units[st.engine] = units.get(st.engine, 0) + occupancy
    return min(fill_drain, max([*units.values(), *holds, *serial], default=0))


def skew_transfers(p: Pipeline) -> dict[str, Transfer]:
    """Per shared memory, the last transfer through it of the first stage of `p` that
    moves data through it: the transfer whose service orders the cores."""
    first: dict[str, tuple[Stage, Transfer]] = {}
    for st in p.stages:
        for w in st.work:
            if through_shared_memory(w) and w.bytes.most() > 0:
                if w.shared_memory not in first or first[w.shared_memory][0] is st:
                    first[w.shared_memory] = (st, w)
    return {mem: w for mem, (_, w) in first.items()}


def unbuffered_skew(p: Pipeline, choice: Choice, shared: dict[str, int]) -> int:
    """Cycles the last core falls behind once in an unbuffered run that holds buffers.
    The first iteration leaves the cores spaced as the shared memory served the
    transfer that ordered them (`skew_transfers`: all cores' share of it); each comes
    back a hold later, so the second round arrives within that spread while the memory
    needs its whole busy time per iteration (every transfer through it) to serve it:
    the last core waits the difference. From then on they arrive spaced by the whole
    round, and the period holds. One load per core (or a store alone) leaves none."""
    if not holds_buffer(p):
        return 0
    out = 0
    for mem, w in skew_transfers(p).items():
        spread = occupancy_cycles(w.bytes.at(choice) * w.sharers, w.shared_bandwidth)
        out = max(out, shared.get(mem, 0) - spread)
    return out


def unbuffered_gaps(problem: Problem, p: Pipeline, choice: Choice,
                    memo: dict | None = None, holds: list | None = None) -> dict[str, int]:
    """Per shared memory, the cycles it idles once in an unbuffered run that holds
    buffers: it serves the first round (every core's share of the transfer that orders
    them, `skew_transfers`) and cannot serve the second before the first core comes back
    a hold later (the hold of the boundary after that transfer's stage); it waits the
    difference. Added to the memory's bound (`shared_engine_cycles`). (`holds`: those of
    `unbuffered_holding`, when known.)"""
    if not holds_buffer(p):
        return {}
    if holds is None:
        holds = unbuffered_holding(problem, p, choice, memo)[1]
    spans = shared_spans(p)
    out = {}
    for mem, w in skew_transfers(p).items():
        hold = hold_after(p, holds, spans[mem][0])
        spread = occupancy_cycles(w.bytes.at(choice) * w.sharers, w.shared_bandwidth)
        out[mem] = max(0, hold - spread)
    return out


def hold_after(p: Pipeline, holds: list, k: int):
    """Of `unbuffered_holds`' holds (ints or CP-SAT expressions), the one of the first
    boundary after stage `k` (0 when there is none)."""
    boundaries = holding_boundaries(p)
    return next((h for j, h in zip(boundaries, holds) if j >= k), 0)


def holding_boundaries(p: Pipeline) -> list[int]:
    """The stages k whose buffer to stage k + 1 is held across the boundary: the next
    stage runs on another unit, or on the same unit after waiting for the landing
    (`landing_waits`)."""
    waits = landing_waits(p)
    return [k for k in range(len(p.stages) - 1)
            if p.stages[k + 1].engine != p.stages[k].engine or waits[k]]


def unbuffered_holds(p: Pipeline, heads: list, tails: list) -> list:
    """Per holding boundary (`holding_boundaries`): the writers' tails (the run of stages
    on the writer's unit that ends there) plus the reader's head. Works on ints and on
    CP-SAT expressions alike."""
    out = []
    write = 0
    held = set(holding_boundaries(p))
    for k in range(len(p.stages) - 1):
        same = k > 0 and p.stages[k - 1].engine == p.stages[k].engine and k - 1 not in held
        write = (write + tails[k]) if same else tails[k]
        if k in held:
            out.append(write + heads[k + 1])
    return out


def repeats_cycles(n: int, m: int, slowest: int, issue: int) -> int:
    """The cycles iterations 2..N of a buffered pipeline add after the first. When every
    iteration has a buffer copy of its own (N <= m) nothing waits for a copy to come
    back: the units issue each iteration as soon as they are free, at the busiest unit's
    occupancy (`issue`). Otherwise at the steady state (`slowest`), which spreads the
    time a copy is away over the m copies."""
    return (n - 1) * (issue if n <= m else slowest)


def shared_spans(p: Pipeline) -> dict[str, tuple[int, int, int]]:
    """Per shared memory the stages of `p` move data through (transfers that may move
    something): (the first such stage, the last one, the largest landing latency of the
    last one's transfers through it)."""
    out: dict[str, tuple[int, int, int]] = {}
    for k, st in enumerate(p.stages):
        through = [w for w in st.work if through_shared_memory(w) and w.bytes.most() > 0]
        for mem in sorted({w.shared_memory for w in through}):
            landing = max((0 if w.awaited else w.latency) for w in through
                          if w.shared_memory == mem)
            out[mem] = (out[mem][0] if mem in out else k, k, landing)
    return out


def shared_engine_cycles(n: int, busy: int, fills: Sequence[int],
                         span: tuple[int, int, int]) -> int:
    """A pipeline's cycles when a shared memory (device memory) is its bottleneck: the
    memory serves every core's transfers back to back, a later iteration's (or, with one
    copy, another core's) while an earlier one's land and compute, so it is busy `n x busy`
    with no fill of its own in between; before it, the first iteration's stages ahead
    of its first transfer, after it, the last transfer's landing and the stages that
    follow."""
    first, last, landing = span
    return sum(fills[:first]) + n * busy + landing + sum(fills[last + 1:])


def shared_memory_busy(problem: Problem, p: Pipeline, choice: Choice) -> dict[str, int]:
    """Per shared memory (device memory), the cycles one run of `p` keeps it busy: every
    transfer through it, nested pipelines' too, at bytes × sharers ÷ its bandwidth, each
    time it runs. Additive over pipelines (and over `model.separate`'s pieces)."""
    if p.mean is not None:
        per = shared_busy_per_iteration(problem, p, choice)
        memo: dict = {}
        return {mem: at_mean(p, choice, memo,
                             lambda q, m=mem: pipeline_iterations(q, choice) * per[m])
                for mem in per}
    n = pipeline_iterations(p, choice)
    if n <= 0:
        return {}
    return {mem: n * c for mem, c in shared_busy_per_iteration(problem, p, choice).items()}


def shared_busy_per_iteration(problem: Problem, p: Pipeline, choice: Choice) -> dict[str, int]:
    """`shared_memory_busy` of one iteration of `p` (it is N times this)."""
    busy: dict[str, int] = {}
    for st in p.stages:
        for w in st.work:
            if through_shared_memory(w):
                busy[w.shared_memory] = busy.get(w.shared_memory, 0) + occupancy_cycles(
                    w.bytes.at(choice) * w.sharers, w.shared_bandwidth)
            elif isinstance(w, Pipeline):
                for mem, cycles in shared_memory_busy(problem, w, choice).items():
                    busy[mem] = busy.get(mem, 0) + cycles
    return busy


def program_parts(problem: Problem, program: Program, choice: Choice,
                  memo: dict | None = None) -> tuple[int, dict[str, int]]:
    """(the program's pipelines' cycles, per shared memory the cycles it is busy), both
    times the program's calls: the two sums `program_cycles` takes the larger of."""
    if memo is None:
        memo = {}
    # Top-level pipelines differ in every combination: only nested ones are memoised.
    cycles = sum(_pipeline_cycles(problem, p, choice, memo) for p in program.pipelines)
    busy: dict[str, int] = {}
    for p in program.pipelines:
        for mem, c in shared_memory_busy(problem, p, choice).items():
            busy[mem] = busy.get(mem, 0) + c
    return program.calls * cycles, {m: program.calls * c for m, c in busy.items()}


def program_cycles(problem: Problem, program: Program, choice: Choice,
                   memo: dict | None = None) -> int:
    """The program's pipelines' cycles, but never less than the time a shared memory needs
    for all of the program's traffic through it. The pipeline formula lets a stage whose
    cores arrive staggered use the memory at full speed during fill and drain; for a
    pipeline that runs once or a few times that can add up to less than the memory can
    serve, i.e. below the roofline bound. The floor restores it."""
    cycles, busy = program_parts(problem, program, choice, memo)
    return max(cycles, *busy.values()) if busy else cycles


def kernel_cycles(problem: Problem, choice: Choice) -> int:
    memo: dict = {}  # (a nested pipeline is reached from many stages' fills and paces)
    return sum(program_cycles(problem, p, choice, memo) for p in problem.running(choice))


def program_buffer_bytes(problem: Problem, program: Program, choice: Choice,
                         memory: str | None = None) -> int:
    """Scratchpad of the program's own buffers (without the kernel's pinned regions), or,
    with `memory`, the bytes of its buffers in that other memory kind."""
    return sum(b.bytes.at(choice) * modulo_value(problem, b.modulo, choice)
               for b in program.buffers
               if (b.memory == memory if memory is not None
                   else b.memory not in problem.other_memories))


def program_scratchpad(problem: Problem, program: Program, choice: Choice) -> int:
    return program_buffer_bytes(problem, program, choice) + problem.pinned_bytes


def total_scratchpad(problem: Problem, choice: Choice) -> int:
    """The scratchpad of every running program added up (the latency objective's
    tie-break)."""
    return sum(program_scratchpad(problem, p, choice) for p in problem.running(choice))


def peak_scratchpad(problem: Problem, choice: Choice) -> int:
    return max((program_scratchpad(problem, p, choice) for p in problem.running(choice)),
               default=problem.pinned_bytes)


# ---- constraints ----------------------------------------------------------------------


@dataclass(frozen=True)
class Violation:
    kind: str
    """`capacity`, `fifo`, `entries` (a FIFO's depth not the entries its chunk is priced
    at), `registers`, `within` or `instances`."""
    program: int
    name: str
    need: int
    have: int

    def __str__(self) -> str:
        if self.kind == "fifo":
            return f"{self.name}: needs {self.need} entries, has {self.have}"
        if self.kind == "entries":
            return f"{self.name}: priced at exactly {self.need} entries, has {self.have}"
        if self.kind == "within":
            return f"{self.name}: {self.need} is larger than {self.have}"
        if self.kind == "instances":
            return f"{self.name}: needs {self.need}, the device has {self.have}"
        what = "scratchpad" if self.kind == "capacity" else "register file"
        need, have = fmt_bytes_apart(self.need, self.have)
        return f"{self.name}: needs {need} of {what}, has {have}"


def within_violations(problem: Problem, choice: Choice,
                      pairs: Sequence[tuple[str, str]] | None = None) -> list[Violation]:
    """Inner tiles larger than their outer tile, over `pairs` (all of them: None)."""
    out: list[Violation] = []
    for inner, outer in problem.within_pairs() if pairs is None else pairs:
        a = problem.decision(inner).candidates[choice[inner]].value
        b = problem.decision(outer).candidates[choice[outer]].value
        if a > b:
            out.append(Violation("within", problem.decision(inner).program,
                                 f"tile {inner} inside tile {outer}", a, b))
    return out


def program_violations(problem: Problem, p: Program, choice: Choice) -> list[Violation]:
    """The constraints of one program that `choice` breaks: its scratchpad (with the
    pinned regions), other memories, instance counts, FIFO depths, register files."""
    out: list[Violation] = []
    need = program_scratchpad(problem, p, choice)
    if need > problem.scratchpad_bytes:
        out.append(Violation("capacity", p.index, f"scratchpad of program {p.index}",
                             need, problem.scratchpad_bytes))
    for kind, size in sorted(problem.other_memories.items()):
        need = program_buffer_bytes(problem, p, choice, kind)
        if need > size:
            out.append(Violation("capacity", p.index, f"{kind} of program {p.index}",
                                 need, size))
    for lim in p.instance_limits:
        n = lim.product(problem, choice)
        if n > lim.available:
            out.append(Violation("instances", p.index,
                                 f"{lim.group} instances of program {p.index}",
                                 n, lim.available))
    for f in p.fifos:
        n = f.entries.at(choice)
        if n > f.depth:
            out.append(Violation("fifo", p.index, f"FIFO {f.name}", n, f.depth))
    for r in p.registers:
        n = r.bytes.at(choice)
        if n > r.capacity:
            out.append(Violation("registers", p.index, f"register file for {r.name}",
                                 n, r.capacity))
    out.extend(fifo_split_violations(problem, p, choice))
    return out


def fifo_split_violations(problem: Problem, p: Program, choice: Choice) -> list[Violation]:
    """A datapath's queue given out beyond its depth, and a FIFO whose depth is not the
    entries its pipeline's chunk is priced at (`FifoSplit`, `Candidate.entries`): deeper
    would keep more in flight than priced, shallower would block the producer."""
    out: list[Violation] = []
    for split in p.fifo_splits:
        depths = [modulo_value(problem, d, choice) for d in split.decisions]
        if split.over_queue(depths):
            given = max(depths) if split.in_send_order else sum(depths)
            out.append(Violation("fifo", p.index, f"queue {split.name}", given, split.depth))
        chunk = problem.decision(split.chunk).candidates[choice[split.chunk]]
        for k, d in enumerate(split.decisions):
            need = split.entries(chunk, k)
            depth = modulo_value(problem, d, choice)
            if depth != need:
                what = "streaming" if chunk.streams else "holding"
                out.append(Violation("entries", p.index,
                                     f"FIFO {d} {what} a chunk of {split.chunk}", need, depth))
    return out


def violations(problem: Problem, choice: Choice) -> list[Violation]:
    """Every constraint `choice` breaks: the tile nesting, then program by program."""
    out = within_violations(problem, choice)
    for p in problem.running(choice):
        out.extend(program_violations(problem, p, choice))
    return out


def feasible(problem: Problem, choice: Choice) -> bool:
    return not violations(problem, choice)


def objective_key(problem: Problem, choice: Choice, objective: str) -> tuple[int, ...]:
    """What the objective minimises, lexicographically."""
    cycles = kernel_cycles(problem, choice)
    if objective == "memory":
        return (peak_scratchpad(problem, choice), cycles)
    return (cycles,)


# ---- the breakdown the trace prints ---------------------------------------------------


@dataclass
class StageCost:
    name: str
    engine: str
    one_iteration: int
    steady: int
    nested: list[PipelineCost] = field(default_factory=list)


@dataclass
class PipelineCost:
    name: str
    iterations: int
    modulo: int
    fill_drain: int
    slowest: int
    bottleneck: str
    cycles: int
    engines: dict[str, int]
    stages: list[StageCost]
    issue: int = 0
    """the busiest unit's occupancy per iteration (iterations that find a copy free)"""
    shared_bound: dict[str, int] = field(default_factory=dict)
    """per shared memory its bound (`shared_engine_cycles`), where it applies"""

    def as_data(self) -> dict[str, object]:
        return {
            "pipeline": self.name, "iterations": self.iterations, "modulo": self.modulo,
            "fill_drain": self.fill_drain, "slowest": self.slowest,
            "bottleneck": self.bottleneck, "cycles": self.cycles,
            "issue": self.issue, "shared_bound": dict(self.shared_bound),
            "engines": dict(self.engines),
            "stages": [{"stage": s.name, "engine": s.engine, "one_iteration": s.one_iteration,
                        "steady": s.steady, "nested": [n.as_data() for n in s.nested]}
                       for s in self.stages],
        }


def pipeline_breakdown(problem: Problem, p: Pipeline, choice: Choice,
                       memo: dict | None = None) -> PipelineCost:
    if memo is None:
        memo = {}
    n = pipeline_iterations(p, choice)
    m = modulo_value(problem, p.modulo, choice)
    stages: list[StageCost] = []
    engines: dict[str, int] = {}
    fill_drain = 0
    port_bytes = pipeline_port_bytes(p, choice)
    last = len(p.stages) - 1
    for i, (st, stag, hidden, free) in enumerate(zip(
            p.stages, staggered_stages(p), overlapped_latency(p), _slack(problem, p, choice))):
        _, steady = stage_times(problem, st, choice, m, memo, port_bytes, (i > 0, i < last))
        one = stage_fill(problem, st, choice, stag, memo, hidden, free)
        nested = [pipeline_breakdown(problem, w, choice, memo) for w in st.work
                  if isinstance(w, Pipeline)]
        stages.append(StageCost(st.name, st.engine, one, steady, nested))
        engines[st.engine] = engines.get(st.engine, 0) + steady
        fill_drain += one
    bottleneck = max(engines, key=lambda e: (engines[e], e)) if engines else ""
    fill_drain, slowest, fills, shared, issue, gaps = _profile(problem, p, choice, memo)
    bound = memory_bounds(p, n, shared, fills, gaps) if n >= 2 else {}
    return PipelineCost(p.name, n, m, fill_drain, slowest, bottleneck,
                        pipeline_cycles(problem, p, choice, memo), engines, stages, issue, bound)
