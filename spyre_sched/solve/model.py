"""The CP-SAT model: one model per kernel, linear, built from a `Problem`.

Encoding (no product of variables anywhere, no big-M):

- every decision is a one-hot vector of booleans, one per candidate;
- a program is split into parts that share no decision (`components`, after splitting
  pipelines whose cycles are a sum over stages: `separate`); each part gets one boolean
  per candidate combination of its decisions (exactly one true), channelled to the
  decisions' one-hots by `sum of the combinations with d = i == x[d][i]`; the part's
  cycles, scratchpad bytes, FIFO entries and register bytes are linear sums
  `value(c) * y_c` whose coefficients are the cost model's own functions (`cost.py`)
  evaluated per combination, so the objective is exactly the plain-Python cost of the
  solution and the LP relaxation of each table is exact;
- combinations that another combination of the same part dominates (no more cycles, no
  more of any constrained resource: scratchpad bytes, FIFO entries, register bytes) are
  left out: every objective here (cycles; peak scratchpad then cycles) and every
  constraint is monotone in those figures, so a dominated combination can never be
  needed. What remains per part is its Pareto front, which keeps the model small and its
  bounds tight.

The parts of a program couple through its constraints (the scratchpad they share is
stated over their sum); programs couple through the kernel's pinned scratchpad and, for the memory objective,
through the peak over programs (`add_max_equality`). Constraints per program: scratchpad
(its buffers × modulo + pinned ≤ capacity), FIFO entries ≤ depth, register-file bytes ≤
capacity. Each can be put under an assumption literal (`with_assumptions=True`) so an
infeasible model names the conflicting ones.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field, replace

from ortools.sat.python import cp_model

from spyre_sched.solve import cost, levels, streaming, varmodel
from spyre_sched.solve.signature import part_signature
from spyre_sched.solve.problem import (
    LINK_KINDS,
    OUTSIDE_KINDS,
    FifoSplit,
    Pipeline,
    Problem,
    Program,
    Quantity,
    Stage,
    SolveError,
    modulo_scope,
    pipeline_scope,
)

COMBINATION_LIMIT = 200_000
"""Most candidate combinations one program part's table may evaluate (parts with nested
pipelines count the evaluations left after their inner level is pruned, `levels.py`).
A part above it is stated with variables instead (`varmodel.py`)."""


class TooManyCombinations(SolveError):
    """A part's table would need more than `COMBINATION_LIMIT` evaluations."""


@dataclass
class Constraint:
    """A named, explainable constraint of the model."""

    kind: str
    program: int
    name: str
    literal: cp_model.IntVar | None = None


@dataclass
class BuiltModel:
    model: cp_model.CpModel
    problem: Problem
    one_hot: dict[str, list[cp_model.IntVar]]
    cycles: cp_model.LinearExprT
    program_cycles: dict[int, cp_model.LinearExprT]
    program_bytes: dict[int, cp_model.LinearExprT]
    peak: cp_model.IntVar
    constraints: list[Constraint] = field(default_factory=list)
    tables: list = field(default_factory=list)
    cycles_bound: int = 0
    """A lower bound on the kernel's cycles that holds for every schedule (each part's
    least cycles): the bound reported when CP-SAT stops before its own."""
    peak_bound: int = 0
    """Likewise for the peak scratchpad."""
    part_vars: list = field(default_factory=list)
    """(table, its combination literals) per tabulated part, for hints."""

    def add_hint(self, choice: dict[str, int]) -> None:
        """Hint CP-SAT with a full assignment (the decisions' literals, and each table's
        combination when the assignment's is on its front)."""
        for name, lits in self.one_hot.items():
            for i, lit in enumerate(lits):
                self.model.add_hint(lit, i == choice[name])
        for t, ys in self.part_vars:
            key = tuple(choice[d] for d in t.scope)
            if key in t.keys:
                for y, k in zip(ys, t.keys):
                    self.model.add_hint(y, k == key)

    @property
    def stated(self) -> bool:
        """Some part is stated with variables (`varmodel.py`), not tabulated."""
        return any(isinstance(t, varmodel.StatedPart) for t in self.tables)

    @property
    def combinations(self) -> int:
        """Candidate combinations enumerated over all programs."""
        return sum(t.enumerated for t in self.tables)

    @property
    def front(self) -> int:
        """Non-dominated combinations the model keeps."""
        return sum(len(t.keys) for t in self.tables)

    def choice(self, solver: cp_model.CpSolver) -> dict[str, int]:
        out: dict[str, int] = {}
        for name, lits in self.one_hot.items():
            out[name] = next(i for i, v in enumerate(lits) if solver.boolean_value(v))
        return out

    @property
    def num_variables(self) -> int:
        return len(self.model.proto.variables)

    @property
    def num_constraints(self) -> int:
        return len(self.model.proto.constraints)


def program_scope(problem: Problem, program: Program) -> tuple[str, ...]:
    """The decisions a program's figures depend on, in the problem's decision order."""
    names: set[str] = set()
    for p in program.pipelines:
        names.update(pipeline_scope(p))
    for b in program.buffers:
        names.update((*b.bytes.scope, *modulo_scope(b.modulo)))
    for f in program.fifos:
        names.update(f.entries.scope)
    for r in program.registers:
        names.update(r.bytes.scope)
    for lim in program.instance_limits:
        names.update(lim.decisions)
    return tuple(d.name for d in problem.decisions if d.name in names)


def separate(pipe: Pipeline, factor: int = 1, problem: Problem | None = None) -> list[Pipeline]:
    """A pipeline whose cycles are a sum over its stages, as one pipeline per stage.

    When the iterations per instance are a constant N (no decision in them) and the
    pipeline is unbuffered or runs at most once, its cycles are N × sum over stages of
    (occupancy + latency): each stage's term is a one-stage pipeline of N iterations, and
    a stage that only runs a nested pipeline contributes N × that pipeline's cycles (split
    again the same way). The sum is exactly `cost.pipeline_cycles`; what it buys is that
    decisions of different stages (e.g. the computes of a program run one after the
    other) no longer multiply into one table."""
    const = not pipe.iterations.scope and not pipe.instances.scope
    if const:
        n = -(-pipe.iterations.table[()] // max(1, pipe.instances.table[()]))
        # (stages that stream into each other overlap: their cost is not a sum, keep them whole)
        if (n <= 1 or (isinstance(pipe.modulo, int) and pipe.modulo < 2)) and \
                not streaming.overlaps(pipe):
            out: list[Pipeline] = []
            if n <= 0:
                return out
            slack = cost.prefetch_slack(problem, pipe)
            for st, stag, hidden, free in zip(pipe.stages, cost.staggered_stages(pipe),
                                              cost.overlapped_latency(pipe), slack):
                if stag != st.staggered or hidden != st.overlapped or free != st.prefetch_slack:
                    st = replace(st, staggered=stag, overlapped=hidden, prefetch_slack=free)
                if len(st.work) == 1 and isinstance(st.work[0], Pipeline) and \
                        not st.prefetch_slack:
                    out += separate(st.work[0], factor * n, problem)
                else:
                    out.append(Pipeline(f"{pipe.name}/{st.name}", Quantity.const(factor * n),
                                        (st,), modulo=1))
            return out
    if factor == 1:
        return [pipe]
    return [Pipeline(f"{pipe.name} x{factor}", Quantity.const(factor),
                     (Stage(pipe.name, "nested", (pipe,)),), modulo=1)]


def components(problem: Problem, program: Program) -> list[Program]:
    """The program split into parts that share no decision (union-find over the decisions
    of its pipelines, buffers, FIFOs, accumulators and instance groups). Each part is a
    `Program` of the same index and calls; their cycles and bytes add up to the program's.
    Parts couple only through the program's constraints (its scratchpad), which the model
    states over their sum: one table per part instead of one over their product."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    items: list[tuple[str, object, tuple[str, ...]]] = []
    pipes = [q for p in program.pipelines for q in separate(p, 1, problem)]
    items += [("pipelines", p, pipeline_scope(p)) for p in pipes]
    items += [("buffers", b, (*b.bytes.scope, *modulo_scope(b.modulo))) for b in program.buffers]
    items += [("fifos", f, f.entries.scope) for f in program.fifos]
    items += [("registers", r, r.bytes.scope) for r in program.registers]
    items += [("instance_limits", lim, lim.decisions) for lim in program.instance_limits]
    def joining(scope: tuple[str, ...]) -> tuple[str, ...]:
        # a link decision (a keep choice) does not join the parts that depend on it: each
        # part is tabulated per value of it, and the one-hot channels keep them agreeing
        return tuple(d for d in scope if problem.decision(d).kind not in LINK_KINDS) or scope

    for _, _, scope in items:
        scope = joining(scope)
        for d in scope:
            find(d)
        for a, b in zip(scope, scope[1:]):
            parent[find(a)] = find(b)
    groups: dict[str, dict[str, list]] = {}
    order: list[str] = []
    for field_name, item, scope in items:
        scope = joining(scope)
        root = find(scope[0]) if scope else ""
        if root not in groups:
            groups[root] = {k: [] for k in ("pipelines", "buffers", "fifos", "registers",
                                            "instance_limits")}
            order.append(root)
        groups[root][field_name].append(item)
    return [Program(program.index, program.name, tuple(g["pipelines"]), tuple(g["buffers"]),
                    tuple(g["fifos"]), tuple(g["registers"]), tuple(g["instance_limits"]),
                    program.calls)
            for g in (groups[r] for r in order)] or [program]


@dataclass
class ProgramTable:
    """A program's non-dominated candidate combinations and their figures."""

    program: Program
    scope: tuple[str, ...]
    keys: list[tuple[int, ...]]
    cycles: list[int]
    buffer_bytes: list[int]
    shared_busy: list[list[int]]
    """per combination, the cycles each of `problem`'s shared memories is busy"""
    other_bytes: list[list[int]]
    fifos: list[list[int]]
    registers: list[list[int]]
    enumerated: int


def program_table(problem: Problem, program: Program, whole: bool = False) -> ProgramTable:
    """The Pareto front of a program part's combinations. `whole`: the part is the whole
    program, so its cycles take the shared-memory floor directly (`cost.program_cycles`)
    and the busy times need not be kept apart (fewer incomparable rows)."""
    scope = program_scope(problem, program)
    sizes = [len(problem.decision(d).candidates) for d in scope]
    total = 1
    for n in sizes:
        total *= n
    choices = None
    if total > levels.ELIMINATE_ABOVE:
        # nested pipelines: drop dominated inner combinations before combining them with
        # the outer decisions (levels.py says why that keeps the optimum)
        try:
            found = levels.combinations(problem, program, scope, COMBINATION_LIMIT)
        except SolveError as err:
            raise TooManyCombinations(str(err)) from None
        if found is not None:
            choices, total = found
    if choices is None:
        if total > COMBINATION_LIMIT:
            raise TooManyCombinations(
                f"program {program.index} has {total} candidate combinations of "
                f"{', '.join(scope)} (limit {COMBINATION_LIMIT}) and no nested level to "
                "enumerate apart")
        choices = (dict(zip(scope, key)) for key in itertools.product(*(range(n) for n in sizes)))
    rows = []
    memo: dict = {}
    others = sorted(problem.other_memories)
    shared = [] if whole else shared_memories_of(problem)
    within = problem.within_pairs(scope)
    for ch in choices:
        key = tuple(ch[d] for d in scope)
        if within and not problem.within_ok(ch, within):
            continue  # an inner level's tile larger than the tile it walks
        if any(lim.product(problem, ch) > lim.available for lim in program.instance_limits):
            continue  # not legal: more instances than the group provides
        cycles, busy = cost.program_parts(problem, program, ch, memo)
        if whole and busy:
            cycles = max(cycles, *busy.values())
        figures = (cost.program_buffer_bytes(problem, program, ch),
                   *(cost.program_buffer_bytes(problem, program, ch, k) for k in others),
                   *(f.entries.at(ch) for f in program.fifos),
                   *(r.bytes.at(ch) for r in program.registers),
                   *(busy.get(m, 0) for m in shared))
        rows.append((cycles, figures, key))
    rows.sort()
    links = [k for k, d in enumerate(scope)
             if problem.decision(d).kind in LINK_KINDS + OUTSIDE_KINDS]
    front: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = []
    for row in rows:  # cycles ascending: dominated if an earlier row needs no more of anything
        # (and agrees on the link decisions other parts share: it must stand in for it)
        if any(all(kept[2][k] == row[2][k] for k in links)
               and all(a <= b for a, b in zip(kept[1], row[1])) for kept in front):
            continue
        front.append(row)
    if not front:
        raise SolveError(f"program {program.index}: no legal combination of its decisions")
    no, nf, nr = 1 + len(others), len(program.fifos), len(program.registers)
    ns = no + nf + nr
    return ProgramTable(
        program, scope, [r[2] for r in front], [r[0] for r in front],
        [r[1][0] for r in front], [list(r[1][ns:]) for r in front],
        [list(r[1][1:no]) for r in front],
        [list(r[1][no:no + nf]) for r in front], [list(r[1][no + nf:ns]) for r in front],
        total)


def _table_of(problem: Problem, part: Program, whole: bool,
              same_parts: dict[tuple, ProgramTable | TooManyCombinations]) -> ProgramTable:
    """`program_table`, computed once per part structure: a part the same as an earlier
    one up to names (`signature.py`) reuses its rows under its own decisions."""
    scope = program_scope(problem, part)
    key = (whole, part_signature(problem, part, scope))
    found = same_parts.get(key)
    if found is None:
        try:
            found = program_table(problem, part, whole=whole)
        except TooManyCombinations as err:
            found = err
        same_parts[key] = found
    if isinstance(found, TooManyCombinations):
        raise found
    return found if found.program is part else replace(found, program=part, scope=scope)


def shared_memories_of(problem: Problem) -> list[str]:
    """The shared memories (device memory) any transfer of the problem goes through."""
    return list(problem.shared_memories)


def build(problem: Problem, with_assumptions: bool = False) -> BuiltModel:
    model = cp_model.CpModel()
    one_hot: dict[str, list[cp_model.IntVar]] = {}
    for d in problem.decisions:
        lits = [model.new_bool_var(f"{d.name}={c.label}") for c in d.candidates]
        model.add_exactly_one(lits)
        one_hot[d.name] = lits
    program_cycles: dict[int, cp_model.LinearExprT] = {}
    program_bytes: dict[int, cp_model.LinearExprT] = {}
    constraints: list[Constraint] = []
    tables: list[ProgramTable] = []
    used: set[str] = set()
    peak_upper = problem.pinned_bytes
    cycles_bound = 0
    peak_bound = problem.pinned_bytes
    shared = shared_memories_of(problem)
    part_vars: list[tuple[ProgramTable, list[cp_model.IntVar]]] = []
    same_parts: dict[tuple, ProgramTable | TooManyCombinations] = {}
    for prog in problem.programs:
        pieces = components(problem, prog)
        whole = len(pieces) == 1
        parts = []
        for n, part in enumerate(pieces):
            try:
                parts.append(_table_of(problem, part, whole, same_parts))
            except TooManyCombinations as err:
                why = varmodel.unsupported(problem, part)
                if why is not None:
                    raise SolveError(f"{err}; stating it with variables instead is not "
                                     f"possible either: {why}") from None
                parts.append(varmodel.state(model, problem, part,
                                            program_scope(problem, part), one_hot, n))
        if whole and isinstance(parts[0], varmodel.StatedPart):
            whole = False  # its shared-memory busy times are kept apart (the floor below)
        cycles_terms, bytes_terms = [], []
        busy_terms: dict[int, list] = {}
        other_terms: dict[int, list] = {}
        fifo_terms: list[tuple[object, cp_model.LinearExprT]] = []
        register_terms: list[tuple[object, cp_model.LinearExprT]] = []
        for n, t in enumerate(parts):
            tables.append(t)
            used.update(t.scope)
            if isinstance(t, varmodel.StatedPart):
                cycles_terms.append(t.cycles)
                bytes_terms.append(t.buffer_bytes)
                for k, mem in enumerate(shared):
                    if mem in t.shared_busy:
                        busy_terms.setdefault(k, []).append(t.shared_busy[mem])
                for k, kind in enumerate(sorted(problem.other_memories)):
                    other_terms.setdefault(k, []).append(t.other_bytes.get(kind, 0))
                fifo_terms += list(zip(t.program.fifos, t.fifos))
                register_terms += list(zip(t.program.registers, t.registers))
                continue
            ys = [model.new_bool_var(f"p{prog.index}.part{n}.combination{j}")
                  for j in range(len(t.keys))]
            model.add_exactly_one(ys)
            part_vars.append((t, ys))
            for pos, d in enumerate(t.scope):
                for i, lit in enumerate(one_hot[d]):
                    model.add(cp_model.LinearExpr.sum(
                        [y for y, k in zip(ys, t.keys) if k[pos] == i]) == lit)
            cycles_terms.append(cp_model.LinearExpr.weighted_sum(ys, t.cycles))
            bytes_terms.append(cp_model.LinearExpr.weighted_sum(ys, t.buffer_bytes))
            for k in range(len(t.shared_busy[0]) if t.shared_busy else 0):
                busy_terms.setdefault(k, []).append(
                    cp_model.LinearExpr.weighted_sum(ys, [row[k] for row in t.shared_busy]))
            for k in range(len(problem.other_memories)):
                other_terms.setdefault(k, []).append(
                    cp_model.LinearExpr.weighted_sum(ys, [row[k] for row in t.other_bytes]))
            for k, f in enumerate(t.program.fifos):
                fifo_terms.append((f, cp_model.LinearExpr.weighted_sum(
                    ys, [row[k] for row in t.fifos])))
            for k, r in enumerate(t.program.registers):
                register_terms.append((r, cp_model.LinearExpr.weighted_sum(
                    ys, [row[k] for row in t.registers])))
        pipelines_sum = cp_model.LinearExpr.sum(cycles_terms)
        busy_sums = [cp_model.LinearExpr.sum(terms) for terms in busy_terms.values()]
        if busy_sums:
            # cost.program_cycles: never less than a shared memory's busy time
            if any(isinstance(t, varmodel.StatedPart) for t in parts):
                upper = 1 << 50
            else:
                upper = (sum(max(t.cycles) for t in parts)
                         + sum(max(max(row) for row in t.shared_busy) for t in parts))
            floor = model.new_int_var(0, upper, f"p{prog.index}.cycles")
            # floor >= every sum: minimising the cycles makes it their max (two linear
            # inequalities; add_max_equality's reified form solved ~100x slower here)
            for term in (pipelines_sum, *busy_sums):
                model.add(floor >= term)
            program_cycles[prog.index] = floor
        else:
            program_cycles[prog.index] = pipelines_sum
        program_bytes[prog.index] = cp_model.LinearExpr.sum(bytes_terms) + problem.pinned_bytes
        peak_upper = max(peak_upper, sum(_most_bytes(t) for t in parts)
                         + problem.pinned_bytes)
        cycles_bound += max(sum(_least_cycles(t) for t in parts),
                            *(sum(_least_busy(t, k, mem) for t in parts)
                              for k, mem in enumerate(shared)), 0)
        peak_bound = max(peak_bound, sum(_least_bytes(t) for t in parts) + problem.pinned_bytes)

        def guarded(kind: str, name: str, ct: cp_model.Constraint, index: int) -> None:
            lit = None
            if with_assumptions:
                lit = model.new_bool_var(f"assume {name}")
                ct.only_enforce_if(lit)
            constraints.append(Constraint(kind, index, name, lit))

        guarded("capacity", f"scratchpad of program {prog.index}",
                model.add(program_bytes[prog.index] <= problem.scratchpad_bytes), prog.index)
        for k, (kind, size) in enumerate(sorted(problem.other_memories.items())):
            guarded("capacity", f"{kind} of program {prog.index}",
                    model.add(cp_model.LinearExpr.sum(other_terms[k]) <= size), prog.index)
        for f, expr in fifo_terms:
            guarded("fifo", f"FIFO {f.name}", model.add(expr <= f.depth), prog.index)
        for r, expr in register_terms:
            guarded("registers", f"register file for {r.name}",
                    model.add(expr <= r.capacity), prog.index)
        for split in prog.fifo_splits:
            _state_fifo_split(model, problem, split, one_hot, guarded, prog.index)
            used.update((split.chunk, *split.decisions))
    # An inner level's tile is at most the enclosing level's (stated here too for the rare
    # pair whose decisions fall into different parts).
    for inner, outer in problem.within_pairs():
        for i, ci in enumerate(problem.decision(inner).candidates):
            for j, cj in enumerate(problem.decision(outer).candidates):
                if ci.value > cj.value:
                    model.add_bool_or([one_hot[inner][i].Not(), one_hot[outer][j].Not()])
    # A decision no figure depends on cannot matter: fix it to its first candidate.
    for d in problem.decisions:
        if d.name not in used:
            model.add(one_hot[d.name][0] == 1)
    peak = model.new_int_var(0, max(peak_upper, 0), "peak_scratchpad")
    if program_bytes:
        model.add_max_equality(peak, list(program_bytes.values()))
    else:
        model.add(peak == problem.pinned_bytes)
    if with_assumptions:
        model.add_assumptions([c.literal for c in constraints if c.literal is not None])
    cycles = cp_model.LinearExpr.sum(list(program_cycles.values())) if program_cycles else 0
    return BuiltModel(model, problem, one_hot, cycles, program_cycles, program_bytes, peak,
                      constraints, tables, cycles_bound, peak_bound, part_vars)


def _state_fifo_split(model: cp_model.CpModel, problem: Problem, split: FifoSplit,
                      one_hot: dict[str, list], guarded, program: int) -> None:
    """A datapath's queue given out among its FIFOs (their depths add up to at most the
    queue), and each chunk candidate asking each of them for its entries (a held chunk
    of c vectors: c in every FIFO):
    linear in the decisions' one-hots, so the depths are chosen by CP-SAT alongside the
    tables, never enumerated with them."""
    depth = {d: cp_model.LinearExpr.weighted_sum(
        one_hot[d], [c.value for c in problem.decision(d).candidates]) for d in split.decisions}
    guarded("fifo", f"queue {split.name}",
            model.add(cp_model.LinearExpr.sum(list(depth.values())) <= split.depth), program)
    for i, c in enumerate(problem.decision(split.chunk).candidates):
        for k, d in enumerate(split.decisions):
            need = c.entries[split.offset + k] if c.entries else (1 if c.streams else c.value)
            if need > 1:
                model.add(depth[d] >= need).only_enforce_if(one_hot[split.chunk][i])


def _least_cycles(t) -> int:
    return t.cycles_bound if isinstance(t, varmodel.StatedPart) else min(t.cycles)


def _least_busy(t, k: int, memory: str) -> int:
    """A lower bound of a part's busy time of shared memory `memory` (column k)."""
    if isinstance(t, varmodel.StatedPart):
        return t.busy_bound.get(memory, 0)
    if t.shared_busy and t.shared_busy[0]:
        return min(row[k] for row in t.shared_busy)
    return 0


def _least_bytes(t) -> int:
    return t.bytes_bound if isinstance(t, varmodel.StatedPart) else min(t.buffer_bytes)


def _most_bytes(t) -> int:
    if isinstance(t, varmodel.StatedPart):
        return cp_model.INT32_MAX
    return max(t.buffer_bytes)
