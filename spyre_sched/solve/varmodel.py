"""The CP-SAT model of a program part: decisions, stage times, pipeline cycles and buffer
bytes are variables and constraints, so the model grows with the sizes of the figures'
own tables (each over the few decisions it reads), never with the product of all the
part's candidates (docs/solver.md, section 4):

- every decision is a one-hot over its candidates, read through an index variable
  `idx_d = Σ i · x[d][i]`;
- a figure of the problem (a transfer's bytes, an iteration count, a buffer's bytes, a
  FIFO's entries) that is a product of per-loop terms (`Quantity.factors`) is stated as
  the product (`add_multiplication_equality`) of one small table per factor (a quotient
  of such products, `Quantity.divisors`, adds one division); any other
  figure is one table over its own scope: a linear sum over the one-hot for one
  decision, an element constraint over the scope's row index for several;
- a stage of transfers whose bytes are such products is stated arithmetically by the
  cost model's own formulas; any other stage (computes, a mix, re-reads a keep decision
  may empty) is evaluated by the exact cost model (`cost.py`) once per row of the
  stage's own scope and stated as one table of its occupancy, latency, fill, streaming
  tail and shared-memory busy times; a stage that runs a nested pipeline costs that
  pipeline's cycles, a variable stated the same way, recursively;
- a pipeline: per modulo candidate (its literal enforces it) each stage's steady state
  and `slowest = max over units (Σ steady) and shared memories (busy)`
  (`add_max_equality`), the pace `S` (the units' largest occupancy when N <= m, else
  `slowest`), the fill and drain as the sum of the stages' fills or, for stages that
  stream into each other (`streaming.py`), the max over stages of the heads before, the
  stage and the tails after; `cycles = fill_drain + (N − 1) · S`, or each shared
  memory's bound when larger (m >= 2, N >= 2), 0 when a choice runs it no time at all; a
  shared memory's busy time `N × busy per iteration`;
- a buffer's bytes: `bytes × m` per modulo literal.

Every relation is exact (no linearisation): for any assignment the model's cycles equal
`cost.program_parts` (tests/solve/test_varmodel.py checks it on random assignments).
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass, field, replace

from ortools.sat.python import cp_model, cp_model_helper

from spyre_sched.device.model import occupancy_cycles
from spyre_sched.solve import cost, streaming
from spyre_sched.solve.problem import (
    MEAN_SCALE,
    Compute,
    Pipeline,
    Problem,
    Program,
    Quantity,
    Stage,
    Transfer,
    iterations_scope,
    pipeline_scope,
    stage_scope,
    through_shared_memory,
)


ROW_LITERALS = 1024
"""A table over several decisions with at most this many rows gets one literal per row
(an exact, tight linear form); a larger one an element constraint over its row index."""


@dataclass
class StatedPart:
    """What the model holds of one program part."""

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
    cycles_most: int = 0
    """An upper bound on `cycles`."""
    busy_bound: dict[str, int] = field(default_factory=dict)
    """Likewise per shared memory, on `shared_busy` (the cut `_Stater.pipeline` states)."""
    busy_most: dict[str, int] = field(default_factory=dict)
    bytes_bound: int = 0
    bytes_most: int = 0


@dataclass
class _StageFigures:
    """A stage as the pipeline around it reads it (expressions and their bounds)."""

    fill: cp_model.LinearExprT
    steady: list  # per modulo candidate
    engine_busy: dict[str, tuple]
    """per shared memory: (busy per iteration of the stage's own transfers, its most):
    the shared memory as an engine of this pipeline"""
    total_busy: dict[str, tuple]
    """per shared memory: (busy per iteration, nested pipelines' runs included, its most)"""
    head: cp_model.LinearExprT
    tail: cp_model.LinearExprT
    fill_lo: int
    fill_hi: int
    steady_hi: int
    occupancy: cp_model.LinearExprT = 0
    """busy cycles per iteration with buffers to spare (`cost.stage_issue`)"""
    occupancy_hi: int = 0
    unbuffered: tuple = (0, 0, 0)
    """(occupancy, head, tail) in an unbuffered pipeline (`cost.unbuffered_stage`), when
    the pipeline around it asked for them"""
    unbuffered_hi: int = 0
    own: cp_model.LinearExprT | None = None
    """the occupancy with every shared memory at the stage's own speed
    (`cost.stage_own_issue`); None: the occupancy"""
    own_hi: int = 0
    run: "_Run | None" = None
    """the run of the pipeline a nested stage runs"""


@dataclass
class _Run:
    """One run of a pipeline."""

    cycles: cp_model.LinearExprT
    busy: dict[str, tuple]
    """per shared memory: (busy cycles of the run, its most)"""
    lo: int
    hi: int
    fill_drain: cp_model.LinearExprT
    fill_drain_hi: int
    n: cp_model.LinearExprT = 0
    n_hi: int = 0
    figures: list = field(default_factory=list)
    engines: tuple = ()
    """the stages' units, in order (with `figures`: `cost.unbuffered_stage` of a stage
    that runs this pipeline)"""
    buffered_pace: cp_model.LinearExprT = 0
    buffered_pace_hi: int = 0
    """the slowest unit's steady time when the pipeline has two copies or more, else 0
    (`cost.nested_pace`)"""
    serial: tuple = ()
    serial_hi: tuple = ()
    """per unit that waits for its own work, its busy and idle time per iteration, and its
    most (`cost.serial_units`)"""
    outer_reads: int = 0
    """`Pipeline.outer_reads` of the pipeline run"""
    reads_back: bool = False
    """`Pipeline.reads_back` of the pipeline run"""
    read_end: cp_model.LinearExprT | None = None
    """a run over partial tiles (`_nested_run`): its head, weighted like its cycles"""
    reader_lag: tuple = (0, 0)
    """`cost.reader_lag` of the pipeline run, and its most"""


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
        self.stated: dict[int, tuple[Quantity, cp_model.LinearExprT]] = {}
        """Quantities stated so far, by identity (each is stated once; the entry keeps the
        quantity alive, so its id is not reused)."""

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
        `keys[row]`: constants when a column never changes, a linear sum over the one-hot
        for a one-decision scope (exact in the LP relaxation too), an element constraint
        over the scope's mixed-radix row index otherwise."""
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
        sizes = [len(self.problem.decision(d).candidates) for d in scope]
        if len(scope) == 1 and len(keys) == sizes[0]:
            lits = self.one_hot[scope[0]]
            for c in varying:
                by = dict(zip((k[0] for k in keys), columns[c]))
                self.model.add(out[c] == sum(by[i] * lit for i, lit in enumerate(lits)))
            return out
        if len(keys) <= ROW_LITERALS:
            # one literal per row, channelled to the one-hots: the relaxation of the
            # table is then its convex hull, which bounds the products that read it
            ys = [self.model.new_bool_var(self.name(what + ".row")) for _ in keys]
            self.model.add_exactly_one(ys)
            for pos, d in enumerate(scope):
                by_value: dict[int, list] = {}
                for y, key in zip(ys, keys):
                    by_value.setdefault(key[pos], []).append(y)
                for i, lit in enumerate(self.one_hot[d]):
                    self.model.add(sum(by_value.get(i, [])) == lit)
            for c in varying:
                self.model.add(out[c] == sum(v * y for v, y in zip(columns[c], ys)))
            return out
        # (rows a `within` pair rules out repeat a legal value: their literals are forbidden)
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
            # an element over a mixed-radix index learns little from one decision alone
            # (the index keeps its whole range until the others are fixed, and its LP
            # relaxation is empty): per decision, the column's least over the rows of
            # each candidate, linear in that decision's one-hot
            for pos, d in enumerate(scope):
                least: dict[int, int] = {}
                for key, v in zip(keys, columns[c]):
                    if v < least.get(key[pos], v + 1):
                        least[key[pos]] = v
                if len(set(least.values())) > 1:
                    self.model.add(out[c] >= sum(least.get(i, 0) * lit
                                                 for i, lit in enumerate(self.one_hot[d])))
        return out

    def quantity(self, q: Quantity, what: str) -> cp_model.LinearExprT:
        """`q` as an expression: a product of small tables (`Quantity.factors`) by
        multiplication equalities and a division for the rounding, else one table."""
        if not q.scope:
            return q.table[()]
        found = self.stated.get(id(q))
        if found is not None:
            return found[1]
        value = self._quantity(q, what)
        self.stated[id(q)] = (q, value)
        return value

    def _quantity(self, q: Quantity, what: str) -> cp_model.LinearExprT:
        if q.factors:
            value: cp_model.LinearExprT = 1
            hi = 1
            for f in q.factors:
                hi *= f.most()
                value = self.product(value, self.quantity(f, what), hi, what)
            if q.divisors:
                value, hi = self._quotient(value, q.divisors, hi, what)
            if q.round_to > 1:
                r = q.round_to
                units = self.model.new_int_var(0, -(-hi // r), self.name(what + ".units"))
                self.model.add_division_equality(units, value + (r - 1), r)
                value = r * units
            return value
        keys = self.candidates(q.scope)
        return self.table(q.scope, keys, [[q.table[k] for k in keys]], what)[0]

    def _quotient(self, value: cp_model.LinearExprT, divisors: tuple[Quantity, ...],
                  hi: int, what: str) -> tuple[cp_model.LinearExprT, int]:
        """ceil(value / product of `divisors`) (each at least 1), and its most."""
        by: cp_model.LinearExprT = 1
        by_lo = by_hi = 1
        for f in divisors:
            by_lo, by_hi = by_lo * f.least(), by_hi * f.most()
            term = self.quantity(f, what)
            if isinstance(by, int) or isinstance(term, int):
                by = by * term
            else:
                out = self.model.new_int_var(by_lo, by_hi, self.name(what + ".divisor"))
                self.model.add_multiplication_equality(out, [by, term])
                by = out
        most = -(-hi // by_lo)
        if isinstance(by, int):
            return self.ceil_div(value, by, hi, what + ".mean"), most
        out = self.model.new_int_var(0, most, self.name(what + ".mean"))
        self.model.add_division_equality(out, value + by - 1, by)
        return out, most

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
        if all(isinstance(e, int) for e in exprs):
            return max(exprs)
        out = self.model.new_int_var(0, hi, self.name(what))
        self.model.add_max_equality(out, exprs)
        return out

    def minimum(self, exprs: list[cp_model.LinearExprT], hi: int,
                what: str) -> cp_model.LinearExprT:
        if all(isinstance(e, int) for e in exprs):
            return min(exprs)
        out = self.model.new_int_var(0, hi, self.name(what))
        self.model.add_min_equality(out, exprs)
        return out

    def product(self, a: cp_model.LinearExprT, b: cp_model.LinearExprT,
                upper: int, what: str) -> cp_model.LinearExprT:
        if isinstance(a, int) or isinstance(b, int):
            return a * b  # (a constant factor keeps it linear)
        out = self.model.new_int_var(0, upper, self.name(what))
        self.model.add_multiplication_equality(out, [a, b])
        return out

    def modulo(self, modulo: str | int) -> list[tuple[int, cp_model.IntVar | None]]:
        """(value, literal) per candidate of the modulo (literal None: fixed)."""
        if isinstance(modulo, int):
            return [(modulo, None)]
        d = self.problem.decision(modulo)
        return [(cost.candidate_modulo(d.kind, c), lit)
                for c, lit in zip(d.candidates, self.one_hot[modulo])]

    # ---- stages ------------------------------------------------------------------------

    def stage(self, st: Stage, staggered: tuple[str, ...], hidden: int, slack: int,
              modulos: list[tuple[int, cp_model.IntVar | None]],
              shared: list[str], unbuffered: bool = False,
              port_bytes: tuple[dict[str, tuple], str | int] | None = None,
              sides: tuple[bool, bool] = (False, False),
              once: cp_model.IntVar | None = None) -> _StageFigures:
        """The stage's figures; with `unbuffered`, also its `cost.unbuffered_stage`;
        `port_bytes`: per shared memory, the pipeline's bytes through it per iteration
        (expression, least, most), and the pipeline's modulo, for `cost.port_steady`;
        `sides`: whether a stage comes before it and after it (`cost.nested_hold`);
        `once`: the literal under which its `slack` counts (`cost.prefetch_slack`: only
        where the pipeline runs once), None when it always does."""
        if len(st.work) == 1 and isinstance(st.work[0], Pipeline):
            return self._nested_stage(st, st.work[0], slack, modulos, unbuffered, sides,
                                      once)
        port = cost.port_memory(st)
        pipe_bytes = port_bytes[0].get(port[0]) if port is not None and port_bytes else None
        modulo = port_bytes[1] if port_bytes else 1
        if st.work and all(isinstance(w, Transfer) and w.bytes.factors and w.bytes.least() > 0
                           for w in st.work):
            return self._transfer_stage(st, staggered, hidden, slack, modulos, shared,
                                        port, pipe_bytes, modulo, once)
        return self._tabulated_stage(st, staggered, hidden, slack, modulos, shared, port,
                                     pipe_bytes, modulo, once)

    def gated(self, expr: cp_model.LinearExprT, hi: int, once: cp_model.IntVar | None,
              what: str) -> cp_model.LinearExprT:
        """`expr` (at least 0, at most `hi`) where `once` holds, else 0; `expr` itself when
        `once` is None."""
        if once is None:
            return expr
        out = self.model.new_int_var(0, hi, self.name(what))
        self.model.add(out == expr).only_enforce_if(once)
        self.model.add(out == 0).only_enforce_if(once.Not())
        return out

    def port_steady(self, port: tuple[str, int, int], pipe_bytes: tuple,
                    alone: cp_model.LinearExprT, alone_hi: int,
                    latency: cp_model.LinearExprT, latency_hi: int,
                    nbytes: cp_model.LinearExprT, nbytes_hi: int,
                    one: cp_model.LinearExprT, one_hi: int, modulos,
                    modulo: str | int) -> tuple[list, int]:
        """`cost.port_steady` per modulo candidate (one iteration, `one`, below 2 copies),
        and the most of any of them. The queue is read once, for the chosen modulo: linear
        in one literal per ratio step, its row chosen by the modulo's literal."""
        _, bandwidth, sharers = port
        if all(m < 2 for m, _ in modulos):
            return [one for _ in modulos], one_hi
        total, _, _ = pipe_bytes
        think = (alone + latency) * bandwidth - nbytes
        # one literal per step the ratio reaches (`cost.port_step`): think >= rho x bytes
        reached: list = []
        for rho in cost.RHO_STEPS[1:]:
            if isinstance(think, int) and isinstance(total, int):
                reached.append(int(think >= rho * max(total, 1)))
                continue
            lit = self.model.new_bool_var(self.name("port.step"))
            # (`cost.port_step` divides by at least 1 byte; when no byte moves the wait is
            # 0 whatever step is read, so the variable form need not say so)
            per = max(total, 1) if isinstance(total, int) else total
            self.model.add(think >= rho * per).only_enforce_if(lit)
            self.model.add(think < rho * per).only_enforce_if(lit.Not())
            if reached and not isinstance(reached[-1], int):
                self.model.add_implication(lit, reached[-1])
            reached.append(lit)
        rows = [cost.port_queue_table(sharers * m) if m >= 2 else (0,) * len(cost.RHO_STEPS)
                for m, _ in modulos]
        top = max(v for row in rows for v in row)

        def read(row: tuple[int, ...]) -> cp_model.LinearExprT:
            # the queue only shortens step by step: its first entry less each step's drop
            return row[0] + sum((row[k + 1] - row[k]) * lit for k, lit in enumerate(reached))

        if isinstance(modulo, int) or len(modulos) == 1:
            queue: cp_model.LinearExprT = read(rows[0])
        else:
            queue = self.model.new_int_var(0, top, self.name("port.queue"))
            for row, (_, lit) in zip(rows, modulos):
                self.model.add(queue == read(row)).only_enforce_if(lit)
        scale = bandwidth * cost.PORT_SCALE
        waited = self.product(nbytes, queue, nbytes_hi * top, "port.waited")
        wait = self.ceil_div(waited, scale, nbytes_hi * top, "port.wait")
        wait_hi = -(-nbytes_hi * top // scale)
        out, most = [], 0
        for m, _ in modulos:
            if m < 2:
                out.append(one)
                most = max(most, one_hi)
                continue
            round_hi = -(-(alone_hi + latency_hi + wait_hi) // m)
            paced = self.ceil_div(alone + latency + wait, m, alone_hi + latency_hi + wait_hi,
                                  "port.paced")
            out.append(self.maximum([alone, paced], max(alone_hi, round_hi), "port.steady"))
            most = max(most, alone_hi, round_hi)
        return out, most

    def _nested_pace(self, run: _Run) -> cp_model.LinearExprT:
        """`cost.nested_pace`: the busiest inner unit's occupancy (with two copies or more,
        at least the slowest unit's steady time) over the N iterations of the pipeline of
        `run`, at most the run."""
        if not run.figures:
            return 0
        occupied: dict[str, list] = {}
        occupied_hi: dict[str, int] = {}
        for engine, f in zip(run.engines, run.figures):
            occupied.setdefault(engine, []).append(f.occupancy)
            occupied_hi[engine] = occupied_hi.get(engine, 0) + f.occupancy_hi
        # (a unit that waits for its own work is busy or idle for its stages and waits)
        issue_hi = max([*occupied_hi.values(), *run.serial_hi], default=0)
        issue = self.maximum([sum(v) for v in occupied.values()] + list(run.serial), issue_hi,
                             "inner.issue")
        if run.buffered_pace_hi:  # (with copies: the inner pipeline's own pace holds)
            issue_hi = max(issue_hi, run.buffered_pace_hi)
            issue = self.maximum([issue, run.buffered_pace], issue_hi, "inner.buffered")
        paced = self.product(run.n, issue, run.n_hi * issue_hi, "inner.pace")
        pace = self.minimum([run.cycles, paced], run.hi, "inner.occupancy")
        if run.reads_back:  # (at least one iteration's pass: `cost.nested_pace`)
            one = self.minimum([run.cycles, run.fill_drain], run.hi, "inner.pass")
            pace = self.maximum([pace, one], run.hi, "inner.reads_back")
        return pace

    def _nested_run(self, inner: Pipeline, ends: bool):
        """(the run of nested pipeline `inner`, its pace in the stage that runs it
        (`cost.nested_pace`), and, when `ends`, that stage's (pace, head, tail) and their
        most (`cost.unbuffered_stage`), None when it has no stages). A pipeline over
        partial tiles (`Pipeline.mean`) is the runs of the whole counts either side of its
        mean, weighted as `cost.at_mean` does: its cycles, busy times, pace and ends."""
        if inner.mean is None:
            run = self.pipeline(inner)
            pace = self._nested_pace(run)
            return run, pace, (self._unbuffered_nested(run, pace)
                               if ends and run.figures else None)
        # the mean's whole part and the rest: scaled = MEAN_SCALE x low + rest
        least, most = inner.mean.least() // MEAN_SCALE, inner.mean.most() // MEAN_SCALE
        low = self.model.new_int_var(least, most, self.name("mean.low"))
        rest = self.model.new_int_var(0, MEAN_SCALE - 1, self.name("mean.rest"))
        self.model.add(self.quantity(inner.mean, "mean") == MEAN_SCALE * low + rest)
        below = self.pipeline(inner, count=(low, least, most))
        above = self.pipeline(inner, count=(low + 1, least + 1, most + 1))
        weigh = functools.partial(self._at_mean, rest)
        cycles = weigh(below.cycles, above.cycles, above.hi, "mean.cycles")
        busy = {m: (weigh(below.busy[m][0], above.busy[m][0], above.busy[m][1], "mean.busy"),
                    above.busy[m][1]) for m in above.busy}
        pace = weigh(self._nested_pace(below), self._nested_pace(above), above.hi,
                     "mean.pace")
        if not below.figures:
            return replace(below, cycles=cycles, busy=busy, hi=above.hi), pace, None
        (_, head_b, tail_b), _ = self._unbuffered_nested(below, 0)
        (_, head_a, tail_a), _ = self._unbuffered_nested(above, 0)
        head = weigh(head_b, head_a, above.hi, "mean.head")
        run = replace(below, cycles=cycles, busy=busy, hi=above.hi, read_end=head)
        if not ends:
            return run, pace, None
        return run, pace, ((pace, head, weigh(tail_b, tail_a, above.hi, "mean.tail")),
                           above.hi)

    def _at_mean(self, rest, below, above, hi: int, what: str) -> cp_model.LinearExprT:
        """`cost.at_mean`'s weighting: below + round((above - below) * rest / MEAN_SCALE),
        halves up (the figures grow with the count: above >= below)."""
        if all(isinstance(v, int) for v in (rest, below, above)):
            return below + ((above - below) * rest * 2 + MEAN_SCALE) // (2 * MEAN_SCALE)
        scaled = self.product(above - below, rest, hi * MEAN_SCALE, what)
        step = self.model.new_int_var(0, max(hi, 0), self.name(what))
        self.model.add(2 * MEAN_SCALE * step <= 2 * scaled + MEAN_SCALE)
        self.model.add(2 * scaled + MEAN_SCALE <= 2 * MEAN_SCALE * step + 2 * MEAN_SCALE - 1)
        return below + step

    def _unbuffered_nested(self, run: _Run, pace) -> tuple[tuple, int]:
        """`cost.unbuffered_stage` of a stage that runs the pipeline of `run`: its pace,
        head and tail."""
        return (pace, self._read_end(run), self._end(run, run.figures[-1].fill)), run.hi

    def _end(self, run: _Run, part) -> cp_model.LinearExprT:
        """The run less the fills after a part of it (`cost.nested_ends`)."""
        total = sum(f.fill for f in run.figures)
        longer = self.maximum([part, run.cycles - total + part], run.hi, "inner.end")
        return self.minimum([run.cycles, longer], run.hi, "inner.end")

    def _read_end(self, run: _Run) -> cp_model.LinearExprT:
        """`cost.nested_ends`' head: the run until its stage that reads the buffer around
        it has read it (a nested stage: its own run's head)."""
        if run.read_end is not None:
            return run.read_end
        k = run.outer_reads
        figures = run.figures
        part = figures[k].fill
        inner = figures[k].run
        if k > 0 and inner is not None and inner.figures:
            part = self.minimum([part, self._read_end(inner)], run.hi, "inner.read")
        lag, lag_hi = run.reader_lag
        if lag_hi:
            part = self.maximum([part, lag], max(run.hi, lag_hi), "inner.lag")
        return self._end(run, sum(f.fill for f in figures[:k]) + part)

    def _nested_stage(self, st: Stage, inner: Pipeline, slack: int, modulos,
                      unbuffered: bool = False,
                      sides: tuple[bool, bool] = (False, False),
                      once: cp_model.IntVar | None = None) -> _StageFigures:
        """A stage that runs a nested pipeline: its occupancy is that pipeline's cycles
        (latency 0, so every steady state is the same), less the part of its leading
        loads an earlier phase leaves room for (`cost.stage_fill`)."""
        run, pace, ends = self._nested_run(inner, unbuffered or (
            any(sides) and any(m >= 2 for m, _ in modulos)))
        fill: cp_model.LinearExprT = run.cycles
        fill_lo = run.lo
        if slack:
            scope = _leading_scope(st)
            keys = self.candidates(scope)
            loads = [cost.leading_load(self.problem, st, dict(zip(scope, k))) for k in keys]
            lead = self.table(scope, keys, [loads], "leading")[0] if scope else loads[0]
            fill = run.cycles - self.gated(self.minimum([slack, lead, run.cycles], slack,
                                                        "prefetched"),
                                           slack, once, "prefetched")
            fill_lo = max(0, run.lo - slack)
        first = self.minimum([fill, run.fill_drain], run.fill_drain_hi, "head")
        # its units run on into the next iteration (`cost.nested_pace`): busy at the
        # busiest one's pace, the rest of a run is latency the copies hide
        copied = any(sides) and any(m >= 2 for m, _ in modulos)
        held, held_hi = ends if unbuffered and ends else ((0, 0, 0), 0)
        if copied and ends:
            # the copies pace it by how long it holds its neighbours' buffers, not by the
            # whole run (`cost.nested_hold`)
            _, head, tail = ends[0]
            held_by = [e for e, side in zip((head, tail), sides) if side]
            hold = held_by[0] if len(held_by) == 1 else self.maximum(held_by, run.hi,
                                                                      "inner.hold")
            steady = [run.cycles if m < 2 else
                      self.maximum([pace, self.ceil_div(hold, m, run.hi, "inflight")],
                                   run.hi, "steady")
                      for m, _ in modulos]
        else:
            steady = self.steady(pace, run.cycles - pace, run.hi, modulos)
        return _StageFigures(fill, steady, {}, run.busy, first, first, fill_lo, run.hi,
                             run.hi, pace, run.hi, held, held_hi, run=run)

    def _transfer_stage(self, st: Stage, staggered: tuple[str, ...], hidden: int, slack: int,
                        modulos, shared: list[str], port=None,
                        pipe_bytes: tuple | None = None,
                        modulo: str | int = 1,
                        once: cp_model.IntVar | None = None) -> _StageFigures:
        """A stage of transfers whose bytes are products (`Quantity.factors`) and never 0,
        stated arithmetically: the cost model's formulas (`cost.py`: `transfer_one_shot`,
        `transfer_alone`, `stage_fill`, `leading_load`, `_add_shared`) with the bytes as a
        variable."""
        occupancy, hi_total, gain_all = [], 0, []
        gain: dict[str, list] = {}
        gain_hi: dict[str, list[int]] = {}
        alone_hi = 0
        port_bytes, port_hi = [], 0
        busy: dict[str, list] = {m: [] for m in shared}
        busy_hi: dict[str, int] = {m: 0 for m in shared}
        for w in st.work:
            nbytes, hi = self.quantity(w.bytes, "bytes"), w.bytes.most()
            if port is not None and w.shared_memory == port[0] and \
                    w.shared_bandwidth is not None:
                port_bytes.append(nbytes)
                port_hi += hi
            own = self.ceil_div(nbytes, w.bandwidth, hi, "own")
            own_hi = -(-hi // w.bandwidth)
            wait = w.latency if w.awaited else 0  # (the unit waits for it to land)
            if w.shared_bandwidth is None:
                occupancy.append(own + wait)
                hi_total += own_hi + wait
                alone_hi += own_hi + wait
                continue
            alone_hi += max(own_hi, -(-hi // w.shared_bandwidth)) + wait
            everyone, every_hi, occ = self.shared_occupancy(w, nbytes, hi, own, own_hi)
            occupancy.append(occ + wait)
            hi_total += max(own_hi, every_hi) + wait
            if w.shared_memory:
                busy[w.shared_memory].append(everyone)
                busy_hi[w.shared_memory] += every_hi
                excess = self.share_excess(w, nbytes, hi, own, occ, hi_total)
                gain_all.append(excess)
                if w.shared_memory in staggered:
                    gain.setdefault(w.shared_memory, []).append(excess)
                    gain_hi.setdefault(w.shared_memory, []).append(max(own_hi, every_hi))
        latency = max((0 if w.awaited else w.latency) for w in st.work)
        total = sum(occupancy)
        # (`cost.stage_fill`: a memory's gain at most the spread an earlier pipeline made)
        caps = dict(st.stagger_spread)
        gained = [self.minimum([sum(g), self.stagger_spread(caps[m])], sum(gain_hi[m]),
                               "stagger") if m in caps else sum(g)
                  for m, g in gain.items()]
        fill = total + latency - min(latency, hidden) - sum(gained)
        if slack and all(cost._is_load(w) for w in st.work):
            # its loads start as soon as the unit is free: up to `slack` of them hide
            fill = fill - self.gated(self.minimum([slack, total + latency, fill], slack,
                                                  "prefetched"), slack, once, "prefetched")
        one_hi = hi_total + latency
        out_busy = {m: (sum(busy[m]), busy_hi[m]) for m in shared if busy[m]}
        fill_lo = self._least_fill(st, staggered, hidden, slack)
        # (`cost.unbuffered_stage`: every shared memory at the stage's own speed)
        alone = total + latency - min(latency, hidden) - sum(gain_all)
        steady, steady_hi = self.steady(total, latency, one_hi, modulos), one_hi
        if port is not None and pipe_bytes is not None:
            steady, steady_hi = self.port_steady(
                port, pipe_bytes, total - sum(gain_all), alone_hi, latency, latency,
                sum(port_bytes), port_hi, total + latency, one_hi, modulos, modulo)
        return _StageFigures(fill, steady, out_busy, out_busy, fill, fill, fill_lo, one_hi,
                             max(one_hi, steady_hi), total, hi_total,
                             (total, alone, alone), one_hi, total - sum(gain_all), hi_total)

    def shared_occupancy(self, w: Transfer, nbytes: cp_model.LinearExprT, hi: int,
                         own: cp_model.LinearExprT, own_hi: int) -> tuple:
        """(every core's share of `w`'s shared memory, its most, `w`'s occupancy: the larger
        of that share and its own speed `own`): `cost.transfer_one_shot` less latency."""
        everyone = self.ceil_div(nbytes * w.sharers, w.shared_bandwidth, hi * w.sharers,
                                 "shared")
        every_hi = -(-hi * w.sharers // w.shared_bandwidth)
        return everyone, every_hi, self.maximum([own, everyone], max(own_hi, every_hi),
                                                "occupancy")

    def share_excess(self, w: Transfer, nbytes: cp_model.LinearExprT, hi: int,
                     own: cp_model.LinearExprT, occ: cp_model.LinearExprT,
                     alone_hi: int) -> cp_model.LinearExprT:
        """`cost.share_excess`: `w`'s occupancy `occ` less its time at the memory's full
        speed or its own, whichever is longer (`cost.transfer_alone`, at most
        `alone_hi`)."""
        alone = self.maximum([own, self.ceil_div(nbytes, w.shared_bandwidth, hi, "alone")],
                             alone_hi, "alone")
        return occ - alone

    def stagger_spread(self, groups: tuple[tuple[Transfer, ...], ...]
                       ) -> cp_model.LinearExprT:
        """`cost.stagger_spread` of one memory: the largest group's time at every core's
        share less at its own speed, stated from the transfers' bytes."""
        sums, his = [], []
        for group in groups:
            terms, hi_sum = [], 0
            for w in group:
                nbytes, hi = self.quantity(w.bytes, "bytes"), w.bytes.most()
                own = self.ceil_div(nbytes, w.bandwidth, hi, "own")
                own_hi = -(-hi // w.bandwidth)
                _, every_hi, occ = self.shared_occupancy(w, nbytes, hi, own, own_hi)
                terms.append(self.share_excess(w, nbytes, hi, own, occ,
                                               max(own_hi, every_hi)))
                hi_sum += max(own_hi, every_hi)
            sums.append(sum(terms))
            his.append(hi_sum)
        return self.maximum(sums, max(his), "spread")

    def _tabulated_stage(self, st: Stage, staggered: tuple[str, ...], hidden: int, slack: int,
                         modulos, shared: list[str], port=None,
                         pipe_bytes: tuple | None = None,
                         modulo: str | int = 1,
                         once: cp_model.IntVar | None = None) -> _StageFigures:
        """Any other stage, evaluated by the exact cost model once per row of its own
        scope: occupancy, latency, fill, streaming tail, and per shared memory its own
        transfers' busy time and the total with its nested pipelines' runs (with `once`,
        also the fill without the slack, the fill chosen by it)."""
        scope = stage_scope(st)
        keys = self.candidates(scope)
        columns: list[list[int]] = [[] for _ in range(5 + 2 * len(shared) + 3
                                                     + (once is not None) + 1)]
        memo: dict[tuple, tuple] = {}
        for key in keys:
            ch = dict(zip(scope, key))
            values = tuple(v for w in st.work for v in _values(w, ch))
            found = memo.get(values)
            if found is None:
                occupancy, latency = cost._stage_parts(self.problem, st, ch, None)
                fill = cost.stage_fill(self.problem, st, ch, staggered, None, hidden, slack)
                _, tail = streaming.ends(st, fill, ch, lambda q: 0)  # (no single nested run)
                own: dict[str, int] = {}
                cost._add_shared(st, ch, own)
                total = _busy_one_iteration(self.problem, st, ch)
                _, alone, _ = cost.unbuffered_stage(self.problem, st, ch, hidden)
                at = cost.stage_port(st, ch) if port is not None else None
                found = memo[values] = (
                    occupancy, latency, fill, tail,
                    *(own.get(f"{m} (shared)", 0) for m in shared),
                    *(total.get(m, 0) for m in shared), alone,
                    *((at.alone, at.latency, at.nbytes) if at is not None else (0, 0, 0)),
                    *((cost.stage_fill(self.problem, st, ch, staggered, None, hidden),)
                      if once is not None else ()),
                    cost.stage_own_issue(self.problem, st, ch))
            for col, v in zip(columns, found):
                col.append(v)
        got = self.table(scope, keys, columns, "stage")
        occupancy, latency, fill, tail = got[:4]
        n = len(shared)
        occs, lats = columns[0], columns[1]
        one_hi = max(o + l for o, l in zip(occs, lats))
        own_busy = {m: (got[4 + k], max(columns[4 + k])) for k, m in enumerate(shared)
                    if max(columns[4 + k]) > 0}
        total_busy = {m: (got[4 + n + k], max(columns[4 + n + k]))
                      for k, m in enumerate(shared) if max(columns[4 + n + k]) > 0}
        alone = got[4 + 2 * n]
        steady = self.steady(occupancy, latency, one_hi, modulos, max(lats) == 0)
        steady_hi = one_hi
        if port is not None and pipe_bytes is not None:
            k = 5 + 2 * n
            steady, steady_hi = self.port_steady(
                port, pipe_bytes, got[k], max(columns[k]), got[k + 1], max(columns[k + 1]),
                got[k + 2], max(columns[k + 2]), occupancy + latency, one_hi, modulos,
                modulo)
        fill_hi = max(columns[2])
        if once is not None:  # (the slack counts only where the pipeline runs once)
            whole = got[8 + 2 * n]
            gain_hi = max(w - f for w, f in zip(columns[8 + 2 * n], columns[2]))
            fill = whole - self.gated(whole - fill, gain_hi, once, "prefetched")
            fill_hi = max(columns[8 + 2 * n])
        return _StageFigures(fill, steady, own_busy, total_busy, fill, tail, min(columns[2]),
                             fill_hi, max(one_hi, steady_hi), occupancy, max(occs),
                             (occupancy, alone, alone), one_hi, got[-1], max(columns[-1]))

    def _fed_head(self, st: Stage, consumer: Stage | None,
                  figures: _StageFigures) -> cp_model.LinearExprT:
        """The stage's head in a streaming pass: its figures' own, or for transfers that
        feed a matrix compute its fill over that compute's instructions, rounded up
        (`streaming.ends`)."""
        fed = streaming.fed_instructions(st, consumer)
        if fed is None:
            return figures.head
        n = self.quantity(fed, "instructions")
        if isinstance(n, int):  # (at least 1: `fed_instructions`)
            return self.ceil_div(figures.fill, n, figures.fill_hi, "fed")
        out = self.model.new_int_var(0, figures.fill_hi, self.name("fed"))
        self.model.add_division_equality(out, figures.fill + n - 1, n)
        return out

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

    def _least_fill(self, st: Stage, staggered: tuple[str, ...], hidden: int,
                    slack: int) -> int:
        """The stage's fill at its factors' least values (it only grows with the bytes),
        the earlier traffic that caps its stagger at its most (the fill falls as that
        spread grows)."""
        def fixed(w: Transfer, nbytes: int) -> Transfer:
            return Transfer(w.name, Quantity.const(nbytes), w.bandwidth, w.latency,
                            w.shared_bandwidth, w.sharers, w.source, w.target,
                            w.shared_memory, w.awaited)

        spread = tuple((m, tuple(tuple(fixed(w, w.bytes.most()) for w in group)
                                 for group in groups))
                       for m, groups in st.stagger_spread)
        fake = Stage(st.name, st.engine, tuple(fixed(w, w.bytes.least()) for w in st.work),
                     st.staggered, st.overlapped, st.prefetch_slack, stagger_spread=spread)
        return cost.stage_fill(self.problem, fake, {}, staggered, None, hidden, slack)

    # ---- a pipeline --------------------------------------------------------------------

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

    def _port_bytes(self, p: Pipeline) -> dict[str, tuple]:
        """`cost.pipeline_port_bytes` per shared memory: (expression, least, most)."""
        out: dict[str, tuple] = {}
        for st in p.stages:
            for w in st.work:
                if through_shared_memory(w):
                    expr, lo, hi = out.get(w.shared_memory, (0, 0, 0))
                    out[w.shared_memory] = (expr + self.quantity(w.bytes, "bytes"),
                                            lo + w.bytes.least(), hi + w.bytes.most())
        return out

    def pipeline(self, p: Pipeline, top: bool = False,
                 count: tuple[cp_model.LinearExprT, int, int] | None = None) -> _Run:
        """One run of `p` (`cost.pipeline_cycles`, `cost.shared_memory_busy`); `count`:
        (N, its least, its most) when the run is not its own count (`_nested_run`)."""
        n, n_lo, n_hi = self.iterations(p) if count is None else count
        modulos = self.modulo(p.modulo)
        shared = sorted({w.shared_memory for st in p.stages for w in st.work
                         if through_shared_memory(w)}
                        | {m for st in p.stages for w in st.work if isinstance(w, Pipeline)
                           for m in _shared_inside(w)})
        # an unbuffered candidate repeats at the pace its buffers are held
        unbuffered = n_hi > 1 and any(m < 2 for m, _ in modulos) and cost.holds_buffer(p)
        port_bytes = (self._port_bytes(p), p.modulo)
        slacks, once = self._slacks(p, n, n_lo, n_hi)
        last = len(p.stages) - 1
        figures = [self.stage(st, stag, hidden, free, modulos, shared, unbuffered, port_bytes,
                              (i > 0, i < last), once)
                   for i, (st, stag, hidden, free) in enumerate(zip(
                       p.stages, cost.staggered_stages(p), cost.overlapped_latency(p),
                       slacks))]
        fill_hi = sum(f.fill_hi for f in figures)
        if streaming.overlaps(p):
            # stages streaming through FIFOs overlap: the slowest stage with the heads of
            # the ones before it and the tails of the ones after it (`streaming.one_pass`)
            heads = [self._fed_head(st, after, f) for st, after, f in
                     zip(p.stages, streaming.consumers(p), figures)]
            passes = [sum(heads[:k]) + figures[k].fill
                      + sum(f.tail for f in figures[k + 1:]) for k in range(len(figures))]
            fill_drain = self.maximum(passes, fill_hi, "pass")
            fill_lo = max(f.fill_lo for f in figures)
        else:
            fill_drain = sum(f.fill for f in figures)
            fill_lo = sum(f.fill_lo for f in figures)
        # the slowest unit per modulo candidate: its stages' steady times add up (a shared
        # memory bounds the whole run instead: `_shared_engines`)
        engines: dict[str, list] = {}
        for st, f in zip(p.stages, figures):
            engines.setdefault(st.engine, []).append(f.steady)
        # units that wait for their own work: busy and idle per iteration (`cost.serial_units`)
        # (at their own speed: `cost.stage_own_issue`)
        serial = list(cost.serial_units(
            p, [f.occupancy if f.own is None else f.own for f in figures],
            [f.fill for f in figures]).values())
        serial_hi = list(cost.serial_units(
            p, [f.occupancy_hi if f.own is None else f.own_hi for f in figures],
            [f.fill_hi for f in figures]).values())
        own: dict[str, list] = {}
        for f in figures:
            for m, (b, b_hi) in f.engine_busy.items():
                own.setdefault(m, []).append((b, b_hi))
        steady_hi = sum(f.steady_hi for f in figures) + sum(
            b_hi for parts in own.values() for _, b_hi in parts)
        upper_s = max(fill_hi, steady_hi, *serial_hi, 0)
        # (each boundary's hold of one copy, for the period and the memory's gap)
        holds = cost.unbuffered_holds(p, [f.unbuffered[1] for f in figures],
                                      [f.unbuffered[2] for f in figures]) if unbuffered else []
        period = self._unbuffered_period(p, figures, holds, fill_drain, fill_hi, serial,
                                         serial_hi) if unbuffered else fill_drain
        per = None
        # transfers alone: one after another at their occupancy, whatever the copies
        back_to_back = cost.issues_back_to_back(p)
        if back_to_back:
            period = figures[0].occupancy
        # the slowest unit per candidate of two copies or more
        # (a nested pipeline's is also its pace in the stage that runs it: `_nested_pace`)
        slowest = {k: figures[0].occupancy if back_to_back else
                   self.maximum([sum(s[k] for s in steadies) for steadies in engines.values()]
                                + serial, upper_s, "engines")
                   for k, (m, _) in enumerate(modulos) if m >= 2 and (n_hi > 1 or not top)}
        if slowest and n_hi > 1:
            per = self.model.new_int_var(0, upper_s, self.name("slowest"))
            options = []
            for k, (m, lit) in enumerate(modulos):
                option = period if m < 2 else slowest[k]
                options.append(option)
                ct = self.model.add(per == option)
                if lit is not None:
                    ct.only_enforce_if(lit)
            self._at_least_one_of(per, options, upper_s)
        elif n_hi > 1:
            per = period
        buffered: cp_model.LinearExprT = 0
        if slowest and not top:
            buffered = self.model.new_int_var(0, upper_s, self.name("buffered"))
            for k, (m, lit) in enumerate(modulos):
                ct = self.model.add(buffered == (slowest[k] if m >= 2 else 0))
                if lit is not None:
                    ct.only_enforce_if(lit)
        hi = fill_hi + (n_hi - 1) * upper_s
        skew, skew_hi = self._unbuffered_skew(p, own, n, n_lo, modulos) if unbuffered \
            else (0, 0)
        hi += skew_hi
        if n_hi <= 1:
            cycles: cp_model.LinearExprT = fill_drain
        else:
            if not any(m >= 2 for m, _ in modulos):
                left = n - 1 if n_lo >= 1 else self._less_one(n, n_hi)
                cycles = fill_drain + self.product(left, per, (n_hi - 1) * upper_s,
                                                   "repeat") + skew
            else:
                cycles = fill_drain + self._repeats(p, figures, n, n_lo, n_hi, modulos, per,
                                                    upper_s, serial, serial_hi) + skew
            gaps = self._unbuffered_gaps(p, figures, holds, modulos) if unbuffered else {}
            cycles, hi = self._shared_engines(p, figures, own, n, n_lo, n_hi, cycles, hi, gaps)
        lo = fill_lo if n_lo >= 1 else 0
        if n_lo < 1:
            # a choice that runs it no time at all costs nothing (`cost._pipeline_cycles`)
            runs = self.model.new_bool_var(self.name("runs"))
            self.model.add(n >= 1).only_enforce_if(runs)
            self.model.add(n == 0).only_enforce_if(runs.Not())
            zeroed = self.model.new_int_var(0, max(hi, 0), self.name("cycles"))
            self.model.add(zeroed == cycles).only_enforce_if(runs)
            self.model.add(zeroed == 0).only_enforce_if(runs.Not())
            cycles = zeroed
        per_iteration: dict[str, list] = {}
        for f in figures:
            for m, (b, b_hi) in f.total_busy.items():
                per_iteration.setdefault(m, []).append((b, b_hi))
        busy: dict[str, tuple] = {}
        for m, parts in per_iteration.items():
            b_hi = sum(h for _, h in parts)
            total = self.product(n, sum(b for b, _ in parts), n_hi * b_hi, "busy")
            busy[m] = (total, n_hi * b_hi)
            # a cut CP-SAT cannot derive from the products: N x ceil(bytes x sharers / bw)
            # is at least what all the iterations' bytes need, whatever the tiles
            least = 0
            if count is None and p.iterations.factors and not p.instances.scope \
                    and p.instances.table[()] == 1:
                for st in p.stages:
                    for w in st.work:
                        if isinstance(w, Transfer) and w.shared_memory == m and \
                                w.shared_bandwidth is not None:
                            moved = least_product([p.iterations, w.bytes])
                            least += -(-moved * w.sharers // w.shared_bandwidth)
            if least and not isinstance(total, int):
                self.model.add(total >= least)
            if top:
                self.busy_least[m] = self.busy_least.get(m, 0) + least
        return _Run(cycles, busy, lo, hi, fill_drain, fill_hi, n, n_hi, figures,
                    tuple(st.engine for st in p.stages), buffered,
                    upper_s if slowest and not top else 0, tuple(serial), tuple(serial_hi),
                    p.outer_reads, p.reads_back, reader_lag=self._reader_lag(p))

    def _reader_lag(self, p: Pipeline) -> tuple:
        """(`cost.reader_lag` of `p`, tabulated over the decisions of the reading stage and
        the one after it, its most)."""
        if not p.reader_fifos:
            return 0, 0
        k = p.outer_reads
        scope = tuple(dict.fromkeys((*stage_scope(p.stages[k]), *stage_scope(p.stages[k + 1]))))
        keys = self.candidates(scope)
        lags = [cost.reader_lag(self.problem, p, dict(zip(scope, key))) for key in keys]
        lag = self.table(scope, keys, [lags], "reader.lag")[0] if scope else lags[0]
        return lag, max(lags)

    def _slacks(self, p: Pipeline, n: cp_model.LinearExprT, n_lo: int, n_hi: int
                ) -> tuple[list[int], cp_model.IntVar | None]:
        """`cost.prefetch_slack` at least, and the literal under which it counts: a
        pipeline whose count the decisions set has its stages' slack only where it runs
        once (None: always, or never, and then no slack)."""
        slacks = cost._slack(self.problem, p)
        if not cost.runs_vary(p) or not any(slacks) or n_hi <= 1:
            return slacks, None
        if n_lo > 1:
            return [0] * len(slacks), None
        once = self.model.new_bool_var(self.name("once"))
        self.model.add(n <= 1).only_enforce_if(once)
        self.model.add(n >= 2).only_enforce_if(once.Not())
        return slacks, once

    def _spread(self, w: Transfer) -> cp_model.LinearExprT:
        """Every core's share of `w` at its shared memory: bytes × sharers ÷ bandwidth."""
        if w.bytes.factors:  # (stated arithmetically, like the transfer's stage)
            return self.ceil_div(self.quantity(w.bytes, "bytes") * w.sharers,
                                 w.shared_bandwidth, w.bytes.most() * w.sharers, "spread")
        scope = w.bytes.scope
        keys = self.candidates(scope)
        column = [occupancy_cycles(w.bytes.at(dict(zip(scope, key))) * w.sharers,
                                   w.shared_bandwidth) for key in keys]
        return self.table(scope, keys, [column], "spread")[0] if scope else column[0]

    def _unbuffered_gaps(self, p: Pipeline, figures: list[_StageFigures], holds: list,
                         modulos) -> dict[str, tuple[cp_model.LinearExprT, int]]:
        """`cost.unbuffered_gaps` under the unbuffered candidates' literals, 0 under the
        buffered ones; with each one's most."""
        hi = sum(f.unbuffered_hi for f in figures)
        spans = cost.shared_spans(p)
        out = {}
        for mem, w in cost.skew_transfers(p).items():
            hold = cost.hold_after(p, holds, spans[mem][0])
            gap = self.maximum([0, hold - self._spread(w)], hi, "gap")
            if isinstance(gap, int) and gap == 0:
                continue
            if not all(m < 2 for m, _ in modulos):
                gated = self.model.new_int_var(0, hi, self.name("gap"))
                for m, lit in modulos:
                    self.model.add(gated == (gap if m < 2 else 0)).only_enforce_if(lit)
                gap = gated
            out[mem] = (gap, hi)
        return out

    def _unbuffered_skew(self, p: Pipeline, own: dict, n, n_lo: int,
                         modulos) -> tuple[cp_model.LinearExprT, int]:
        """`cost.unbuffered_skew` under the unbuffered candidates' literals (and N >= 2),
        0 otherwise; and its most."""
        terms, hi = [0], 0
        for mem, w in cost.skew_transfers(p).items():
            parts = own.get(mem, [])
            terms.append(sum(b for b, _ in parts) - self._spread(w))
            hi = max(hi, sum(h for _, h in parts))
        skew = self.maximum(terms, hi, "skew")
        if isinstance(skew, int) and skew == 0:
            return 0, 0
        always = all(m < 2 for m, _ in modulos)
        if always and n_lo >= 2:
            return skew, hi
        # held: an unbuffered candidate is chosen and N >= 2, exactly
        held = self.model.new_bool_var(self.name("held"))
        conditions = []
        if n_lo < 2:
            two = self.model.new_bool_var(self.name("two"))
            self.model.add(n >= 2).only_enforce_if(two)
            self.model.add(n <= 1).only_enforce_if(two.Not())
            self.model.add_implication(held, two)
            conditions.append(two)
        if not always:
            unbuffered = [lit for m, lit in modulos if m < 2]
            self.model.add_bool_or([held.Not(), *unbuffered])
            for g in unbuffered:
                self.model.add_bool_or([g.Not(), *[c.Not() for c in conditions], held])
        else:
            self.model.add_bool_or([*[c.Not() for c in conditions], held])
        out = self.model.new_int_var(0, hi, self.name("skew"))
        self.model.add(out == skew).only_enforce_if(held)
        self.model.add(out == 0).only_enforce_if(held.Not())
        return out, hi

    def _unbuffered_period(self, p: Pipeline, figures: list[_StageFigures], holds: list,
                           fill_drain, fill_hi: int, serial: list = (),
                           serial_hi: list = ()) -> cp_model.LinearExprT:
        """`cost.unbuffered_period`: the longest hold of a buffer, the busiest unit's
        occupancy or a unit's time waiting for its own work, at most one pass."""
        units: dict[str, list] = {}
        for st, f in zip(p.stages, figures):
            units.setdefault(st.engine, []).append(f.unbuffered[0])
        terms = [sum(v) for v in units.values()] + holds + list(serial)
        hi = max(sum(f.unbuffered_hi for f in figures), *serial_hi, 0)
        return self.minimum([fill_drain, self.maximum(terms, hi, "held")], fill_hi, "period")

    def _repeats(self, p: Pipeline, figures: list[_StageFigures], n, n_lo: int, n_hi: int,
                 modulos, per, upper_s: int, serial: list = (),
                 serial_hi: list = ()) -> cp_model.LinearExprT:
        """Iterations 2..N after the first (`cost.repeats_cycles`): (N − 1) × the busiest
        unit's occupancy when N <= m, else (N − 1) × `per` (and always for m < 2)."""
        occupied: dict[str, list] = {}
        occupied_hi: dict[str, int] = {}
        for st, f in zip(p.stages, figures):
            occupied.setdefault(st.engine, []).append(f.occupancy)
            occupied_hi[st.engine] = occupied_hi.get(st.engine, 0) + f.occupancy_hi
        issue_hi = max([*occupied_hi.values(), *serial_hi], default=0)
        issue = self.maximum([sum(v) for v in occupied.values()] + list(serial), issue_hi,
                             "issue")
        pace = self.model.new_int_var(0, max(upper_s, issue_hi), self.name("pace"))
        self._at_least_one_of(pace, [per, issue], max(upper_s, issue_hi))
        for m, lit in modulos:
            if m < 2 or n_lo > m:
                ct = self.model.add(pace == per)
            elif n_hi <= m:
                ct = self.model.add(pace == issue)
            else:
                fits = self.model.new_bool_var(self.name("fits"))
                self.model.add(n <= m).only_enforce_if(fits)
                self.model.add(n >= m + 1).only_enforce_if(fits.Not())
                self.model.add(pace == issue).only_enforce_if(
                    [x for x in (lit, fits) if x is not None])
                ct = self.model.add(pace == per)
                ct.only_enforce_if([x for x in (lit, fits.Not()) if x is not None])
                continue
            if lit is not None:
                ct.only_enforce_if(lit)
        left = n - 1 if n_lo >= 1 else self._less_one(n, n_hi)
        return self.product(left, pace, (n_hi - 1) * max(upper_s, issue_hi), "repeat")

    def _shared_engines(self, p: Pipeline, figures: list[_StageFigures], own: dict,
                        n, n_lo: int, n_hi: int, cycles, hi: int, gaps: dict):
        """(cycles, their most) with each shared memory's `cost.shared_engine_cycles`
        (plus its `gaps` entry, `cost.unbuffered_gaps`): the larger of the two when
        N >= 2."""
        spans = cost.shared_spans(p)
        if not spans:
            return cycles, hi
        terms, terms_hi = [cycles], hi
        for mem, (first, last, landing) in spans.items():
            parts = own.get(mem, [])
            busy = sum(b for b, _ in parts)
            if isinstance(busy, int) and busy == 0:
                continue  # nothing moves through it (`cost._pipeline_cycles`)
            busy_hi = sum(h for _, h in parts)
            edges = sum(f.fill for f in figures[:first]) + landing + sum(
                f.fill for f in figures[last + 1:])
            edges_hi = sum(f.fill_hi for f in figures[:first]) + landing + sum(
                f.fill_hi for f in figures[last + 1:])
            gap, gap_hi = gaps.get(mem, (0, 0))
            term = self.product(n, busy, n_hi * busy_hi, "engine") + edges + gap
            edges_hi += gap_hi
            terms_hi = max(terms_hi, n_hi * busy_hi + edges_hi)
            if not isinstance(busy, int) and any(
                    w.bytes.least() == 0 for st in p.stages for w in st.work
                    if isinstance(w, Transfer) and w.shared_memory == mem
                    and w.shared_bandwidth is not None):
                # a choice that moves nothing through it (`cost._pipeline_cycles`): no bound
                moves = self.model.new_bool_var(self.name("moves"))
                self.model.add(busy >= 1).only_enforce_if(moves)
                self.model.add(busy == 0).only_enforce_if(moves.Not())
                gated = self.model.new_int_var(0, n_hi * busy_hi + edges_hi, self.name("engine"))
                self.model.add(gated == term).only_enforce_if(moves)
                self.model.add(gated == 0).only_enforce_if(moves.Not())
                term = gated
            terms.append(term)
        bound = self.maximum(terms, terms_hi, "bound")
        if n_lo >= 2:
            return bound, terms_hi
        # the memory bound holds only when the pipeline repeats
        out = self.model.new_int_var(0, terms_hi, self.name("cycles"))
        self.model.add(out >= cycles)  # (stated unconditionally: a bound before N is fixed)
        repeats = self.model.new_bool_var(self.name("repeats"))
        self.model.add(n >= 2).only_enforce_if(repeats)
        self.model.add(n <= 1).only_enforce_if(repeats.Not())
        self.model.add(out == cycles).only_enforce_if(repeats.Not())
        self.model.add(out == bound).only_enforce_if(repeats)
        return out, terms_hi

    def _at_least_one_of(self, var: cp_model.IntVar, options: list[cp_model.LinearExprT],
                         hi: int) -> None:
        """`var` is one of `options` (each under its own literal): at least their least,
        stated unconditionally. The equalities under literals bound nothing until a literal
        is fixed (nor in the LP relaxation), so without it a product over `var` (the
        repeats' N x pace) had no lower bound before the modulo was chosen."""
        distinct = list({repr(o): o for o in options}.values())
        if len(distinct) < 2:
            return
        if all(isinstance(o, int) for o in distinct):
            self.model.add(var >= min(distinct))
            return
        # (the least's domain reaches the options' own least values: an option that may
        # be negative under another literal must not be cut off by it)
        least = self.model.new_int_var(min(_least_value(o) for o in distinct), hi,
                                       self.name("least"))
        self.model.add_min_equality(least, distinct)
        self.model.add(var >= least)

    def _less_one(self, n: cp_model.LinearExprT, n_hi: int) -> cp_model.LinearExprT:
        """max(N − 1, 0), for an N that may be 0."""
        out = self.model.new_int_var(0, max(n_hi - 1, 0), self.name("repeats"))
        self.model.add_max_equality(out, [n - 1, 0])
        return out


def _least_value(expr: cp_model.LinearExprT) -> int:
    """The least value of `expr` over its variables' domains."""
    if isinstance(expr, int):
        return expr
    flat = cp_model_helper.FlatIntExpr(expr)
    return flat.offset + sum(c * (list(v.proto.domain)[0 if c > 0 else -1])
                             for v, c in zip(flat.vars, flat.coeffs))


def _leading_scope(st: Stage) -> tuple[str, ...]:
    """Decisions `cost.leading_load` of the stage reads."""
    if st.work and all(cost._is_load(w) for w in st.work):
        return stage_scope(st)
    if len(st.work) == 1 and isinstance(st.work[0], Pipeline) and st.work[0].stages:
        inner = st.work[0]
        # the run of the unit's loads at the start: the inner stages on the first one's
        # unit, up to the first that goes on to compute (which run it reaches depends on
        # the values, so the scope covers them all)
        names = list(iterations_scope(inner))
        engine = cost.load_prefix_engine(inner.stages[0])
        for inner_stage in inner.stages:
            if cost.load_prefix_engine(inner_stage) != engine:
                break
            names.extend(_leading_scope(inner_stage))
            if not all(cost._is_load(w) for w in inner_stage.work):
                break
        return tuple(dict.fromkeys(names))
    return ()


def _shared_inside(p: Pipeline) -> set[str]:
    """Shared memories any transfer of `p`, nested ones included, goes through."""
    out: set[str] = set()
    for st in p.stages:
        for w in st.work:
            if through_shared_memory(w):
                out.add(w.shared_memory)
            elif isinstance(w, Pipeline):
                out |= _shared_inside(w)
    return out


def _busy_one_iteration(problem: Problem, st: Stage, ch) -> dict[str, int]:
    """A stage's share of `cost.shared_busy_per_iteration`."""
    one = Pipeline("", Quantity.const(1), (st,))
    return cost.shared_busy_per_iteration(problem, one, ch)


def _values(w, ch) -> tuple:
    """What a stage's figures read of a piece of work under `ch`."""
    if isinstance(w, Transfer):
        return (w.bytes.at(ch),)
    if isinstance(w, Compute):
        return (w.elements.at(ch), w.instances.at(ch), w.steps.at(ch), w.period.at(ch),
                w.instructions.at(ch), w.sends.at(ch))
    return tuple(ch[d] for d in pipeline_scope(w))


LEAST_PRODUCT_ROWS = 4096
"""Most candidate combinations `least_product` tries for one group of factors (beyond,
the product of their least values, a weaker bound)."""


def least_product(quantities: list[Quantity]) -> int:
    """A lower bound of the product of `quantities` (all non-negative) over every
    choice, tighter than the product of their least values: the factors that share
    decisions are multiplied per combination of their candidates before taking the least
    (a tile count times a tile's bytes is the whole extent, whatever the tile). Rounding
    up (`round_to`) is left out, which keeps it a bound."""
    factors: list[Quantity] = []
    quotients: list[Quantity] = []
    for q in quantities:
        for f in (q.factors if q.factors else (q,)):
            (quotients if f.divisors else factors).append(f)
    for q in quotients:
        # ceil(a / b) · b >= a: a quotient whose divisors are among the other factors (a
        # tile loop's mean bytes times its trip counts) counts as its dividend
        left = list(factors)
        for d in q.divisors:
            same = next((f for f in left if _same_table(f, d)), None)
            if same is None:
                break
            left.remove(same)
        else:
            factors = left + list(q.factors)
            continue
        factors.append(q)
    # factors joined by the decisions they read (a tile loop's mean bytes read every cut
    # dim's tile: docs/solver.md, "Partial last tiles") take their least together
    groups: list[tuple[set[str], list[Quantity]]] = []
    value = 1
    for f in factors:
        if not f.scope:
            value *= f.least()
            continue
        scope, members = set(f.scope), [f]
        for g in [g for g in groups if g[0] & scope]:
            groups.remove(g)
            scope |= g[0]
            members += g[1]
        groups.append((scope, members))
    for scope, members in groups:
        candidates: dict[str, set[int]] = {d: set() for d in scope}
        for f in members:
            for d, i in _candidate_indices(f):
                candidates[d].add(i)
        names = sorted(scope)
        if math.prod(len(candidates[d]) for d in names) > LEAST_PRODUCT_ROWS:
            value *= math.prod(f.least() for f in members)
            continue
        least = None
        for key in itertools.product(*(sorted(candidates[d]) for d in names)):
            at = dict(zip(names, key))
            values = [f.table.get(tuple(at[d] for d in f.scope)) for f in members]
            if None not in values:
                least = math.prod(values) if least is None else min(least, math.prod(values))
        value *= least or 0
    return value


def _same_table(a: Quantity, b: Quantity) -> bool:
    if a is b:
        return True
    if a.factors or b.factors or a.scope != b.scope:
        return False
    return dict(a.table) == dict(b.table)


def _candidate_indices(f: Quantity) -> list[tuple[str, int]]:
    """(decision, candidate index) pairs `f`'s table reads, from its own small tables
    when it is a product (never iterating the product)."""
    if f.factors:
        return [pair for g in (*f.factors, *f.divisors) for pair in _candidate_indices(g)]
    return [(d, i) for key in f.table for d, i in zip(f.scope, key)]


def state(model: cp_model.CpModel, problem: Problem, part: Program, scope: tuple[str, ...],
          one_hot: dict[str, list[cp_model.IntVar]], n: int) -> StatedPart:
    """The part's figures as variables over the decisions' one-hots."""
    s = _Stater(model, problem, one_hot, f"p{part.index}.part{n}")
    out = StatedPart(part, scope, 0)
    cycles, busy, busy_hi = [], {}, {}
    for p in part.pipelines:
        run = s.pipeline(p, top=True)
        cycles.append(run.cycles)
        out.cycles_bound += run.lo
        out.cycles_most += run.hi
        for m, (expr, hi) in run.busy.items():
            busy.setdefault(m, []).append(expr)
            busy_hi[m] = busy_hi.get(m, 0) + hi
    out.cycles = part.calls * sum(cycles)
    out.cycles_bound *= part.calls
    out.cycles_most *= part.calls
    out.shared_busy = {m: part.calls * sum(v) for m, v in busy.items()}
    out.busy_most = {m: part.calls * v for m, v in busy_hi.items()}
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
            low, high = options[0][0] * lo, options[0][0] * hi
        else:
            top = max(m for m, _ in options)
            total = model.new_int_var(0, top * hi, s.name("copies"))
            for m, lit in options:
                model.add(total == m * nbytes).only_enforce_if(lit)
            low, high = min(m for m, _ in options) * lo, top * hi
        if b.memory in others:
            other.setdefault(b.memory, []).append(total)
        else:
            spad.append(total)
            out.bytes_bound += low
            out.bytes_most += high
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


def state_phase_overlap(model: cp_model.CpModel, problem: Problem, program: Program,
                        one_hot: dict[str, list[cp_model.IntVar]]
                        ) -> tuple[list[cp_model.LinearExprT], int]:
    """What the program's phases hide beyond the least (`cost.prefetch_slack`), as
    expressions to subtract from its pipelines' cycles, and their largest total.

    A stage split off a program's run-once pipeline (`model.separate`) is stated in its
    part with the least slack its chain of earlier stages leaves. For the chosen schedule
    the slack is more: each link's stage gives what it takes above its least (one table
    over that stage's own decisions), and the idle time the chain's last stage left over
    carries on when it issues freely (`cost.carried_idle`: a max with that stage's slack,
    stated here before it). The fill hides `min(lead, slack)`; the part already hides
    `min(lead, least)`; the difference is this term, so the parts stay separate and only
    it couples them."""
    s = _Stater(model, problem, one_hot, f"p{program.index}.phases")
    known = {d.name for d in problem.decisions}
    out: list[cp_model.LinearExprT] = []
    most = 0
    for p in program.pipelines:
        if p.iterations.scope or p.instances.scope or streaming.overlaps(p):
            continue
        runs = cost.pipeline_iterations(p, {})
        if runs == 1:
            # a stage whose latency hid behind a leading transfer the choice does not
            # issue pays it (`cost.unissued_overlap`): added, i.e. subtracted negated
            for amount, nxt in cost.unissued_overlap_terms(p):
                if not amount or nxt is None or nxt.bytes.least() > 0:
                    continue
                if any(d not in known for d in nxt.bytes.scope):
                    continue
                ks = s.candidates(nxt.bytes.scope)
                column = [amount if nxt.bytes.at(dict(zip(nxt.bytes.scope, key))) == 0
                          else 0 for key in ks]
                paid = s.table(nxt.bytes.scope, ks, [column], "phase.unissued")[0]
                out.append(-program.calls * paid)
        slack: dict[int, tuple[cp_model.LinearExprT, int]] = {}  # stage -> (slack, its most)
        for k, (st, chain) in enumerate(zip(p.stages, cost.prefetch_chain(p))):
            engine = cost.load_prefix_engine(st)
            if not chain or engine is None:
                continue
            scopes = [stage_scope(link[0]) for link in chain]
            if any(d not in known for sc in (*scopes, _leading_scope(st)) for d in sc):
                continue  # (a part alone: its chain's stages are not in the problem)
            least = sum(cost.link_least(problem, link, engine) for link in chain)
            total: list[cp_model.LinearExprT] = [least]
            hi = least
            for link, sc in zip(chain, scopes):
                floor = cost.link_least(problem, link, engine)
                ks = s.candidates(sc)
                values = cost.link_values(problem, link, engine)
                column = [values[key] - floor for key in ks]
                if max(column) > 0:
                    total.append(s.table(sc, ks, [column], "phase.gain")[0])
                    hi += max(column)
            j = next((i for i, b in enumerate(p.stages) if b is chain[-1][0]), None)
            if j in slack and cost.load_prefix_engine(p.stages[j]) == engine:
                before, before_hi = slack[j]
                sc = tuple(dict.fromkeys((*stage_scope(p.stages[j]),
                                          *_leading_scope(p.stages[j]))))
                ks = s.candidates(sc)
                # what the stage's leads use of its slack, or all of it when not free
                used = [cost.leading_load(problem, p.stages[j], ch)
                        if cost.issues_freely(problem, p.stages[j], engine, ch)
                        else before_hi for ch in (dict(zip(sc, key)) for key in ks)]
                if min(used) < before_hi:
                    lead_j = s.table(sc, ks, [used], "phase.used")[0] if sc else used[0]
                    left = s.maximum([0, before - lead_j], before_hi, "phase.carried")
                    total.append(left)
                    hi += before_hi
            slack[k] = (sum(total), hi)
            scope = _leading_scope(st)
            keys = s.candidates(scope)
            leads = [cost.leading_load(problem, st, dict(zip(scope, key))) for key in keys]
            in_part = [min(lead, least) for lead in leads]
            if hi == least or max(leads) <= least:
                continue  # (nothing beyond what the part already hides)
            lead, hidden_least = (s.table(scope, keys, [leads, in_part], "phase.lead")
                                  if scope else (leads[0], in_part[0]))
            hidden = s.minimum([lead, slack[k][0]], max(leads), "phase.hidden")
            out.append(program.calls * runs * (hidden - hidden_least))
            most += program.calls * runs * (max(leads) - min(in_part))
    return out, most
