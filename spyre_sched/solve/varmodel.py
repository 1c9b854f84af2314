"""A program part stated with CP-SAT variables: decisions, stage times, pipeline cycles
and buffer bytes are variables and constraints, so the model grows with the sizes of the
figures' own tables (each over the few decisions it reads), not with the product of all
the part's candidates.

`model.program_table` enumerates a part's candidate combinations in Python and keeps
their Pareto front; that is exact and tight, but its cost is the product of the
candidates (a 512x4096x16384 3-D add: 1.76 M combinations). Above `model.COMBINATION_LIMIT`
evaluations a part is stated here instead (docs/solver.md, "Parts stated with
variables"):

- every decision is an index variable `idx_d = Σ i · x[d][i]` over its one-hot;
- a figure of the problem (a transfer's bytes, an iteration count, a buffer's bytes, a
  FIFO's entries) is a table over the decisions in its scope: an `add_element` for one
  decision, an `add_allowed_assignments` for several;
- a stage's figures (its fill, its steady state per modulo candidate, its busy time of a
  shared memory) are evaluated by the exact cost model (`cost.py`) once per row of the
  stage's own scope, and stated as one table;
- a stage that runs a nested pipeline costs that pipeline's cycles (a variable, stated
  the same way, recursively);
- a pipeline: `slowest = max over engines (Σ steady)` (`add_max_equality`), the steady
  state of each stage chosen by the modulo's literal (`only_enforce_if`), and
  `cycles = fill_drain + (N − 1) · S` with `S = slowest` (buffered) or `fill_drain`
  (unbuffered), the product by `add_multiplication_equality`; a shared memory's busy time
  `N × busy per iteration` likewise;
- a buffer's bytes: `bytes × m` per modulo literal.

Every relation is exact (no linearisation): for any assignment the model's cycles equal
`cost.program_parts`. What is stated here must have the structure this module knows
(`supported` says why not otherwise): stages of transfers and computes, or one nested
pipeline; no streaming overlap between stages, no prefetch slack, no shared-memory
traffic inside a nested pipeline, at least one iteration. Other parts keep the tables.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

from ortools.sat.python import cp_model

from spyre_sched.device.model import occupancy_cycles
from spyre_sched.solve import cost, streaming
from spyre_sched.solve.problem import (
    Pipeline,
    Problem,
    Program,
    Quantity,
    Stage,
    Transfer,
    iterations_scope,
    stage_scope,
)


@dataclass
class StatedPart:
    """What the model holds of a part stated with variables (the counterpart of
    `model.ProgramTable` in the statistics)."""

    program: Program
    scope: tuple[str, ...]
    enumerated: int
    """Rows the exact cost model was evaluated on (all the part's figure tables)."""
    cycles: cp_model.LinearExprT = 0
    shared_busy: dict[str, cp_model.LinearExprT] = field(default_factory=dict)
    buffer_bytes: cp_model.LinearExprT = 0
    other_bytes: dict[str, cp_model.LinearExprT] = field(default_factory=dict)
    fifos: list[cp_model.LinearExprT] = field(default_factory=list)
    registers: list[cp_model.LinearExprT] = field(default_factory=list)
    cycles_bound: int = 0
    """A lower bound on `cycles` that holds for every assignment."""
    busy_bound: dict[str, int] = field(default_factory=dict)
    """Likewise per shared memory, on `shared_busy` (the cut `_Stater.pipeline` states)."""
    bytes_bound: int = 0
    keys: list = field(default_factory=list)
    """(no enumerated front: empty, so `BuiltModel.front` counts nothing for it)"""


def unsupported(problem: Problem, part: Program) -> str | None:
    """Why the part cannot be stated here (None: it can)."""
    for p in part.pipelines:
        why = _pipeline_unsupported(problem, p, nested=False)
        if why:
            return why
    return None


def _pipeline_unsupported(problem: Problem, p: Pipeline, nested: bool) -> str | None:
    if _least_iterations(p) < 1:
        return f"pipeline {p.name}: some choice runs it no time at all"
    if streaming.overlaps(p):
        return f"pipeline {p.name}: its stages stream into each other"
    if any(cost._slack(problem, p)):
        return f"pipeline {p.name}: a later phase's loads overlap an earlier phase"
    for st in p.stages:
        pipes = [w for w in st.work if isinstance(w, Pipeline)]
        if pipes and len(st.work) != 1:
            return f"stage {st.name}: a nested pipeline beside other work"
        if nested and any(isinstance(w, Transfer) and w.shared_bandwidth is not None
                          and w.shared_memory for w in st.work):
            return f"stage {st.name}: shared-memory traffic inside a nested pipeline"
        for q in pipes:
            why = _pipeline_unsupported(problem, q, nested=True)
            if why:
                return why
    return None


class _Stater:
    """States one part's figures over the decisions' one-hot literals."""

    def __init__(self, model: cp_model.CpModel, problem: Problem,
                 one_hot: dict[str, list[cp_model.IntVar]], prefix: str):
        self.model = model
        self.problem = problem
        self.one_hot = one_hot
        self.prefix = prefix
        self.index: dict[str, cp_model.IntVar] = {}
        self.rows = 0
        self.counter = itertools.count()
        self.busy_least: dict[str, int] = {}

    def name(self, what: str) -> str:
        return f"{self.prefix}.{what}{next(self.counter)}"

    def idx(self, d: str) -> cp_model.IntVar:
        found = self.index.get(d)
        if found is None:
            lits = self.one_hot[d]
            found = self.model.new_int_var(0, len(lits) - 1, f"{d}.index")
            self.model.add(found == sum(i * lit for i, lit in enumerate(lits)))
            self.index[d] = found
        return found

    def candidates(self, scope: tuple[str, ...]) -> list[tuple[int, ...]]:
        within = self.problem.within_pairs(scope)
        keys = itertools.product(*(range(len(self.problem.decision(d).candidates))
                                   for d in scope))
        if not within:
            return list(keys)
        return [k for k in keys if self.problem.within_ok(dict(zip(scope, k)), within)]

    def table(self, scope: tuple[str, ...], keys: list[tuple[int, ...]],
              columns: list[list[int]], what: str) -> list[cp_model.LinearExprT]:
        """Variables equal to `columns[c][row]` where the decisions of `scope` take
        `keys[row]`: constants when a column never changes, an element constraint for a
        one-decision scope, one allowed-assignments table otherwise."""
        self.rows += len(keys)
        out: list[cp_model.LinearExprT] = []
        varying: list[int] = []
        for c, col in enumerate(columns):
            if min(col) == max(col):
                out.append(col[0])
            else:
                out.append(self.model.new_int_var(min(col), max(col), self.name(what)))
                varying.append(c)
        if not varying:
            return out
        # one element constraint per column over the scope's mixed-radix row index (rows a
        # `within` pair rules out repeat a legal value: their literals are forbidden)
        sizes = [len(self.problem.decision(d).candidates) for d in scope]
        strides = [math.prod(sizes[k + 1:]) for k in range(len(scope))]
        if len(scope) == 1:
            index: cp_model.LinearExprT = self.idx(scope[0])
        else:
            index = self.model.new_int_var(0, math.prod(sizes) - 1, self.name("row"))
            self.model.add(index == sum(st * self.idx(d) for st, d in zip(strides, scope)))
        for c in varying:
            by_index = [columns[c][0]] * math.prod(sizes)
            for key, v in zip(keys, columns[c]):
                by_index[sum(st * k for st, k in zip(strides, key))] = v
            self.model.add_element(index, by_index, out[c])
        return out

    def quantity(self, q: Quantity, what: str) -> cp_model.LinearExprT:
        """`q` as an expression: a product of small tables (`Quantity.factors`) by
        multiplication equalities and a division for the rounding, else one table."""
        if not q.scope:
            return q.table[()]
        if q.factors:
            value: cp_model.LinearExprT = 1
            hi = 1
            for f in q.factors:
                hi *= f.most()
                value = self.product(value, self.quantity(f, what), hi, what)
            if q.round_to > 1:
                r = q.round_to
                units = self.model.new_int_var(0, -(-hi // r), self.name(what + ".units"))
                self.model.add_division_equality(units, value + (r - 1), r)
                value = r * units
            return value
        keys = self.candidates(q.scope)
        return self.table(q.scope, keys, [[q.table[k] for k in keys]], what)[0]

    def ceil_div(self, expr: cp_model.LinearExprT, by: int, hi: int,
                 what: str) -> cp_model.LinearExprT:
        if isinstance(expr, int):
            return -(-expr // by)
        if by == 1:
            return expr
        out = self.model.new_int_var(0, -(-hi // by), self.name(what))
        self.model.add_division_equality(out, expr + (by - 1), by)
        return out

    def maximum(self, exprs: list[cp_model.LinearExprT], hi: int,
                what: str) -> cp_model.LinearExprT:
        if len(exprs) == 1:
            return exprs[0]
        out = self.model.new_int_var(0, hi, self.name(what))
        self.model.add_max_equality(out, exprs)
        return out

    def transfers(self, st: Stage, staggered: tuple[str, ...], hidden: int, shared: list[str]):
        """(occupancy, latency, fill, busy per shared memory, upper bound of one
        iteration) of a stage of transfers whose bytes are products (`Quantity.factors`)
        and never 0, stated arithmetically: the cost model's formulas (`cost.py`:
        `transfer_one_shot`, `transfer_alone`, `stage_fill`, `_add_shared`) with the
        bytes as a variable."""
        occupancy, hi_total, gain = [], 0, []
        busy: dict[str, list] = {m: [] for m in shared}
        busy_hi: dict[str, int] = {m: 0 for m in shared}
        for w in st.work:
            nbytes, hi = self.quantity(w.bytes, "bytes"), w.bytes.most()
            own = self.ceil_div(nbytes, w.bandwidth, hi, "own")
            own_hi = -(-hi // w.bandwidth)
            wait = w.latency if w.awaited else 0  # (the unit waits for it to land)
            if w.shared_bandwidth is None:
                occupancy.append(own + wait)
                hi_total += own_hi + wait
                continue
            everyone = self.ceil_div(nbytes * w.sharers, w.shared_bandwidth, hi * w.sharers,
                                     "shared")
            every_hi = -(-hi * w.sharers // w.shared_bandwidth)
            occ = self.maximum([own, everyone], max(own_hi, every_hi), "occupancy")
            occupancy.append(occ + wait)
            hi_total += max(own_hi, every_hi) + wait
            if w.shared_memory:
                busy[w.shared_memory].append(everyone)
                busy_hi[w.shared_memory] += every_hi
            if w.shared_memory in staggered:
                alone = self.maximum([own, self.ceil_div(nbytes, w.shared_bandwidth, hi,
                                                         "alone")], hi_total, "alone")
                gain.append(occ - alone)
        latency = max((0 if w.awaited else w.latency) for w in st.work)
        total = sum(occupancy)
        fill = total + latency - min(latency, hidden) - sum(gain)
        out_busy = {m: (sum(busy[m]), busy_hi[m]) for m in shared}
        return total, latency, fill, out_busy, hi_total + latency

    def modulo(self, modulo: str | int) -> list[tuple[int, cp_model.IntVar | None]]:
        """(value, literal) per candidate of the modulo (literal None: fixed)."""
        if isinstance(modulo, int):
            return [(modulo, None)]
        d = self.problem.decision(modulo)
        return [(cost.candidate_modulo(d.kind, c), lit)
                for c, lit in zip(d.candidates, self.one_hot[modulo])]

    def product(self, a: cp_model.LinearExprT, b: cp_model.LinearExprT,
                upper: int, what: str) -> cp_model.LinearExprT:
        if isinstance(a, int) or isinstance(b, int):
            return a * b  # (a constant factor keeps it linear)
        out = self.model.new_int_var(0, upper, self.name(what))
        self.model.add_multiplication_equality(out, [a, b])
        return out

    # ---- a stage and a pipeline --------------------------------------------------------

    def stage(self, st: Stage, staggered: tuple[str, ...], hidden: int,
              modulos: list[tuple[int, cp_model.IntVar | None]], shared: list[str]):
        """(fill, steady per modulo candidate, busy per iteration per shared memory,
        bounds) of a stage: upper and lower bounds of the fill, the largest steady."""
        if len(st.work) == 1 and isinstance(st.work[0], Pipeline):
            inner = st.work[0]
            cycles, _, lo, hi = self.pipeline(inner)  # (no shared traffic inside: `unsupported`)
            return cycles, [cycles] * len(modulos), {}, lo, hi, hi
        if st.work and all(isinstance(w, Transfer) and w.bytes.factors and w.bytes.least() > 0
                           for w in st.work):
            occupancy, latency, fill, busy, one_hi = self.transfers(st, staggered, hidden,
                                                                   shared)
            fill_lo = self._least_fill(st, staggered, hidden)
            return (fill, self.steady(occupancy, latency, one_hi, modulos), busy, fill_lo,
                    one_hi, one_hi)
        scope = stage_scope(st)
        keys = self.candidates(scope)
        occs, lats, fills, busy_cols = [], [], [], {m: [] for m in shared}
        memo: dict[tuple, tuple] = {}
        for key in keys:
            ch = dict(zip(scope, key))
            values = tuple(q.at(ch) for w in st.work for q in _quantities(w))
            found = memo.get(values)
            if found is None:
                occupancy, latency = cost._stage_parts(self.problem, st, ch, None)
                fill = cost.stage_fill(self.problem, st, ch, staggered, None, hidden, 0)
                busy = {m: 0 for m in shared}
                for w in st.work:
                    if isinstance(w, Transfer) and w.shared_bandwidth is not None and \
                            w.shared_memory:
                        busy[w.shared_memory] += occupancy_cycles(w.bytes.at(ch) * w.sharers,
                                                                  w.shared_bandwidth)
                found = memo[values] = (occupancy, latency, fill, busy)
            occs.append(found[0])
            lats.append(found[1])
            fills.append(found[2])
            for m in shared:
                busy_cols[m].append(found[3][m])
        got = self.table(scope, keys, [occs, lats, fills, *(busy_cols[m] for m in shared)],
                         "stage")
        occupancy, latency, fill = got[:3]
        one_hi = max(o + l for o, l in zip(occs, lats))
        busy = {m: (b, max(busy_cols[m])) for m, b in zip(shared, got[3:])}
        return (fill, self.steady(occupancy, latency, one_hi, modulos, max(lats) == 0), busy,
                min(fills), max(fills), one_hi)

    def steady(self, occupancy, latency, one_hi: int, modulos, no_latency: bool = False):
        """Per modulo candidate m: one iteration (m < 2), else
        max(occupancy, ceil((occupancy + latency) / m)) (`cost.stage_times`)."""
        one = occupancy + latency
        out = []
        for m, _ in modulos:
            if m < 2 or no_latency:
                out.append(one)  # (no latency to hide: one iteration is the occupancy)
            elif isinstance(one, int):
                out.append(max(occupancy, -(-one // m)))
            else:
                part = self.ceil_div(one, m, one_hi, "inflight")
                out.append(self.maximum([occupancy, part], one_hi, "steady"))
        return out

    def _least_fill(self, st: Stage, staggered: tuple[str, ...], hidden: int) -> int:
        """The stage's fill at its factors' least values (it only grows with the bytes)."""
        least = {w.name: w.bytes.least() for w in st.work}
        fake = Stage(st.name, st.engine, tuple(
            Transfer(w.name, Quantity.const(least[w.name]), w.bandwidth, w.latency,
                     w.shared_bandwidth, w.sharers, w.source, w.target, w.shared_memory,
                     w.awaited)
            for w in st.work), st.staggered, st.overlapped, st.prefetch_slack)
        return cost.stage_fill(self.problem, fake, {}, staggered, None, hidden, 0)

    def iterations(self, p: Pipeline) -> tuple[cp_model.LinearExprT, int, int]:
        """(N, its least and largest value): the product of the loops' trip counts, one
        small table each, when the count is given as one (`Quantity.factors`) and the
        instances are one; else one table over the count's scope."""
        if p.iterations.factors and not p.instances.scope and p.instances.table[()] == 1:
            n: cp_model.LinearExprT = 1
            lo = hi = 1
            for f in p.iterations.factors:
                hi_f = f.most()
                n = self.product(n, self.quantity(f, "trip"), hi * hi_f, "iterations")
                lo, hi = lo * f.least(), hi * hi_f
            return n, lo, hi
        scope = iterations_scope(p)
        keys = self.candidates(scope)
        counts = [cost.pipeline_iterations(p, dict(zip(scope, k))) for k in keys]
        n = self.table(scope, keys, [counts], "iterations")[0] if scope else counts[0]
        return n, min(counts), max(counts)

    def pipeline(self, p: Pipeline):
        """(cycles, busy per shared memory over the whole run, lower and upper bound of
        the cycles) of one run of `p`."""
        n, n_lo, n_hi = self.iterations(p)
        modulos = self.modulo(p.modulo)
        shared = sorted({w.shared_memory for st in p.stages for w in st.work
                         if isinstance(w, Transfer) and w.shared_bandwidth is not None
                         and w.shared_memory})
        fills, engines, busy_it = [], {}, {m: [] for m in shared}
        fill_lo = fill_hi = steady_hi = 0
        busy_hi: dict[str, int] = {}
        for st, stag, hidden in zip(p.stages, cost.staggered_stages(p),
                                    cost.overlapped_latency(p)):
            fill, steady, busy, lo, hi, s_hi = self.stage(st, stag, hidden, modulos, shared)
            fills.append(fill)
            fill_lo, fill_hi, steady_hi = fill_lo + lo, fill_hi + hi, steady_hi + s_hi
            engines.setdefault(st.engine, []).append(steady)
            for m, (b, b_hi) in busy.items():
                busy_it[m].append(b)
                busy_hi[m] = busy_hi.get(m, 0) + b_hi
        fill_drain = sum(fills)
        # the slowest engine per modulo candidate: its stages' steady times add up, and a
        # shared memory is an engine busy for every transfer through it
        options = []
        for k, (m, lit) in enumerate(modulos):
            terms = [sum(s[k] for s in steadies) for steadies in engines.values()]
            terms += [sum(b) for b in busy_it.values() if b]
            options.append((m, lit, terms))
        upper_s = max(fill_hi, steady_hi + sum(busy_hi.values()))
        per = self.model.new_int_var(0, max(upper_s, 0), self.name("slowest"))
        for m, lit, terms in options:
            if m < 2:
                ct = self.model.add(per == fill_drain)
            else:
                slowest = self.model.new_int_var(0, max(upper_s, 0), self.name("engines"))
                self.model.add_max_equality(slowest, terms or [0])
                ct = self.model.add(per == slowest)
            if lit is not None:
                ct.only_enforce_if(lit)
        if n_hi <= 1:
            cycles: cp_model.LinearExprT = fill_drain
        else:
            cycles = fill_drain + self.product(n - 1, per, (n_hi - 1) * max(upper_s, 0),
                                               "repeat")
        busy_total = {m: self.product(n, sum(parts), n_hi * busy_hi[m], "busy")
                      for m, parts in busy_it.items() if parts}
        for m, total in busy_total.items():
            # a cut CP-SAT cannot derive from the products: N x ceil(bytes x sharers / bw)
            # is at least what all the iterations' bytes need, whatever the tiles
            least = 0
            for st in p.stages:
                for w in st.work:
                    if isinstance(w, Transfer) and w.shared_memory == m and \
                            w.shared_bandwidth is not None:
                        moved = least_product([p.iterations, w.bytes]) \
                            if p.iterations.factors and not p.instances.scope \
                            and p.instances.table[()] == 1 else 0
                        least += -(-moved * w.sharers // w.shared_bandwidth)
            if least and not isinstance(total, int):
                self.model.add(total >= least)
            self.busy_least[m] = self.busy_least.get(m, 0) + least
        return cycles, busy_total, fill_lo, fill_hi + (n_hi - 1) * max(upper_s, 0)


def least_product(quantities: list[Quantity]) -> int:
    """A lower bound of the product of `quantities` (all non-negative) over every
    choice, tighter than the product of their least values: the factors that read one
    and the same decision are multiplied per candidate before taking the least (a tile
    count times a tile's bytes is the whole extent, whatever the tile). Rounding up
    (`round_to`) is left out, which keeps it a bound."""
    factors: list[Quantity] = []
    for q in quantities:
        factors += list(q.factors) if q.factors else [q]
    by_decision: dict[str, list[Quantity]] = {}
    value = 1
    for f in factors:
        if len(f.scope) == 1:
            by_decision.setdefault(f.scope[0], []).append(f)
        else:
            value *= f.least()
    for group in by_decision.values():
        value *= min(math.prod(f.table[key] for f in group) for key in group[0].table)
    return value


def _least_iterations(p: Pipeline) -> int:
    return p.iterations.least()


def _quantities(w) -> list[Quantity]:
    if isinstance(w, Transfer):
        return [w.bytes]
    if isinstance(w, Pipeline):
        return []
    return [w.elements, w.instances, w.steps, w.period]


def state(model: cp_model.CpModel, problem: Problem, part: Program, scope: tuple[str, ...],
          one_hot: dict[str, list[cp_model.IntVar]], n: int) -> StatedPart:
    """The part's figures as variables (`unsupported(problem, part)` must be None)."""
    s = _Stater(model, problem, one_hot, f"p{part.index}.part{n}")
    out = StatedPart(part, scope, 0)
    cycles, busy = [], {}
    for p in part.pipelines:
        c, b, lo, _ = s.pipeline(p)
        cycles.append(c)
        out.cycles_bound += lo
        for m, expr in b.items():
            busy.setdefault(m, []).append(expr)
    out.cycles = part.calls * sum(cycles)
    out.cycles_bound *= part.calls
    out.shared_busy = {m: part.calls * sum(v) for m, v in busy.items()}
    out.busy_bound = {m: part.calls * v for m, v in s.busy_least.items()}
    others = problem.other_memories
    spad: list[cp_model.LinearExprT] = []
    other: dict[str, list] = {}
    for b in part.buffers:
        nbytes = s.quantity(b.bytes, "bytes")
        lo, hi = b.bytes.least(), b.bytes.most()
        options = s.modulo(b.modulo)
        if len(options) == 1:
            total: cp_model.LinearExprT = options[0][0] * nbytes
            low = options[0][0] * lo
        else:
            top = max(m for m, _ in options)
            total = model.new_int_var(0, top * hi, s.name("copies"))
            for m, lit in options:
                model.add(total == m * nbytes).only_enforce_if(lit)
            low = min(m for m, _ in options) * lo
        if b.memory in others:
            other.setdefault(b.memory, []).append(total)
        else:
            spad.append(total)
            out.bytes_bound += low
    out.buffer_bytes = sum(spad)
    out.other_bytes = {k: sum(v) for k, v in other.items()}
    out.fifos = [s.quantity(f.entries, "fifo") for f in part.fifos]
    out.registers = [s.quantity(r.bytes, "registers") for r in part.registers]
    for lim in part.instance_limits:
        keys = [k for k in s.candidates(lim.decisions)
                if lim.product(problem, dict(zip(lim.decisions, k))) <= lim.available]
        s.rows += math.prod(len(problem.decision(d).candidates) for d in lim.decisions)
        model.add_allowed_assignments([s.idx(d) for d in lim.decisions], keys)
    out.enumerated = s.rows
    return out
