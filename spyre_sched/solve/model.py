"""The CP-SAT model: one model per kernel, built from a `Problem`.

- every decision is a one-hot vector of booleans, one per candidate;
- a program is split into parts that share no decision (`components`, after splitting
  pipelines whose cycles are a sum over stages: `separate`); each part's figures (its
  cycles, its shared-memory busy times, scratchpad and other bytes, FIFO entries,
  register bytes) are stated with variables by `varmodel.py`: each figure over the few
  decisions it reads, each stage evaluated by the exact cost model (`cost.py`) once per
  row of its own scope, their combination (sums, maxima over engines, products with the
  iteration count) left to CP-SAT. No Python loop runs over a part's candidate
  combinations, so the model grows with the sum of the candidates, not their product.

The parts of a program couple through its constraints (the scratchpad they share is
stated over their sum) and the shared-memory floor of its cycles; programs couple through
the kernel's pinned scratchpad and, for the memory objective, through the peak over
programs (`add_max_equality`). Constraints per program: scratchpad (its buffers × modulo
+ pinned ≤ capacity), FIFO entries ≤ depth, register-file bytes ≤ capacity, the FIFO
queue split. Each can be put under an assumption literal (`with_assumptions=True`) so an
infeasible model names the conflicting ones. A program that is one form of a kernel's
program (`Program.variant`: its tile loops in the other order, `loop_orders.py`) has its
constraints enforced, and its cycles and bytes counted, only under its form's literal.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ortools.sat.python import cp_model

from spyre_sched.solve import cost, streaming, varmodel
from spyre_sched.solve.problem import (
    LINK_KINDS,
    FifoSplit,
    Pipeline,
    Problem,
    Program,
    Quantity,
    Stage,
    modulo_scope,
    pipeline_scope,
)

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
    parts: list[varmodel.StatedPart] = field(default_factory=list)
    cycles_bound: int = 0
    """A lower bound on the kernel's cycles that holds for every schedule (each part's
    least cycles): the bound reported when CP-SAT stops before its own."""
    peak_bound: int = 0
    """Likewise for the peak scratchpad."""
    unused: tuple[str, ...] = ()
    """Decisions no figure depends on, fixed to their first candidate."""

    def add_hint(self, choice: dict[str, int]) -> None:
        """Hint CP-SAT with a full assignment: the decisions' literals and, worked out by
        propagation with the decisions fixed, every variable the model states over them
        (a hint on the decisions alone left CP-SAT searching for the rest)."""
        self.model.clear_assumptions()
        self.model.add_assumptions([lits[choice[name]] for name, lits in self.one_hot.items()])
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.max_deterministic_time = 1.0
        status = solver.solve(self.model)
        self.model.clear_assumptions()
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            proto = self.model.proto
            for k in range(len(proto.variables)):
                var = self.model.get_int_var_from_proto_index(k)
                self.model.add_hint(var, solver.value(var))
            return
        for name, lits in self.one_hot.items():
            for i, lit in enumerate(lits):
                self.model.add_hint(lit, i == choice[name])

    @property
    def parts_of(self) -> dict[int, list[varmodel.StatedPart]]:
        """Each program's parts, in `components` order."""
        out: dict[int, list[varmodel.StatedPart]] = {}
        for t in self.parts:
            out.setdefault(t.program.index, []).append(t)
        return out

    @property
    def total_bytes(self) -> cp_model.LinearExprT:
        """The scratchpad of every program added up (the first term of `tie_break`)."""
        return cp_model.LinearExpr.sum(list(self.program_bytes.values()))

    def _chunk_values(self) -> dict[str, list[int]]:
        return {name: [c.value for c in self.problem.decision(name).candidates]
                for name in self.one_hot if self.problem.decision(name).kind == "chunk"}

    @property
    def vectors(self) -> cp_model.LinearExprT | None:
        """The vectors per instruction over the chunk decisions, added up (None without
        one): of schedules the cost model prices alike (the FIFOs hide the instructions'
        count), the most is the fewest instructions for the same work."""
        chunks = self._chunk_values()
        if not chunks:
            return None
        return cp_model.LinearExpr.sum([
            cp_model.LinearExpr.weighted_sum(self.one_hot[name], values)
            for name, values in chunks.items()])

    @property
    def tie_break(self) -> cp_model.LinearExprT:
        """What the latency objective minimises among the schedules of its least cycles:
        the scratchpad (`total_bytes`) and, of equal scratchpad, the most `vectors`, as
        one sum whose first term outweighs every value of the second."""
        vectors = self.vectors
        if vectors is None:
            return self.total_bytes
        most = sum(max(values) for values in self._chunk_values().values())
        return self.total_bytes * (most + 1) - vectors

    def total_bytes_of(self, choice: dict[str, int]) -> int:
        return cost.total_scratchpad(self.problem, choice)

    @property
    def evaluations(self) -> int:
        """Rows the exact cost model was evaluated on, over all the parts' tables."""
        return sum(t.enumerated for t in self.parts)

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


def separate(pipe: Pipeline, factor: int = 1, problem: Problem | None = None,
             nested: bool = False) -> list[Pipeline]:
    """A pipeline whose cycles are a sum over its stages, as one pipeline per stage.

    When the iterations per instance are a constant N (no decision in them) and the
    pipeline runs at most once (or is one unbuffered stage), its cycles are N × sum over
    stages of (occupancy + latency): each stage's term is a one-stage pipeline of N iterations, and
    a stage that only runs a nested pipeline contributes N × that pipeline's cycles (split
    again the same way). The sum is exactly `cost.pipeline_cycles`; what it buys is that
    decisions of different stages (e.g. the computes of a program run one after the
    other) no longer multiply into one table."""
    const = not pipe.iterations.scope and not pipe.instances.scope
    if const:
        n = -(-pipe.iterations.table[()] // max(1, pipe.instances.table[()]))
        # (stages that stream into each other overlap: their cost is not a sum, keep them whole)
        # (an unbuffered pipeline that holds buffers repeats at the pace they are held,
        # `cost.unbuffered_period`: not a sum over its stages either)
        if (n <= 1 or (isinstance(pipe.modulo, int) and pipe.modulo < 2
                       and not cost.holds_buffer(pipe))) and \
                not streaming.overlaps(pipe):
            out: list[Pipeline] = []
            if n <= 0:
                return out
            # (with what a stage split off earlier carries: splitting again keeps it)
            # (a nested pipeline's phases keep their least slack: `cost.prefetch_slack`)
            slack = cost._slack(problem, pipe)
            chains = [()] * len(pipe.stages) if nested else cost.prefetch_chain(pipe)
            for st, stag, hidden, free, chain in zip(
                    pipe.stages, cost.staggered_stages(pipe), cost.overlapped_latency(pipe),
                    slack, chains):
                if stag != st.staggered or hidden != st.overlapped or \
                        free != st.prefetch_slack or chain != st.prefetch_chain:
                    st = replace(st, staggered=stag, overlapped=hidden, prefetch_slack=free,
                                 prefetch_chain=chain)
                if len(st.work) == 1 and isinstance(st.work[0], Pipeline) and \
                        not st.prefetch_chain and not st.prefetch_slack:
                    out += separate(st.work[0], factor * n, problem, True)
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
    stated: list[varmodel.StatedPart] = []
    used: set[str] = set()
    peak_upper = problem.pinned_bytes
    cycles_bound = 0
    peak_bound = problem.pinned_bytes
    shared = shared_memories_of(problem)
    # a program that is one form of a kernel's program (`Program.variant`) states its
    # figures like any other, but its constraints hold, and its cycles and bytes count,
    # only when its form is chosen; the kernel's bounds take the least of the forms
    cycles_least: dict[tuple[str, int] | None, int] = {}
    peak_least: dict[tuple[str, int] | None, int] = {}
    for prog in problem.programs:
        runs = [] if prog.variant is None else [one_hot[prog.variant[0]][prog.variant[1]]]
        if prog.variant is not None:
            used.add(prog.variant[0])
        parts = [varmodel.state(model, problem, part, program_scope(problem, part), one_hot, n)
                 for n, part in enumerate(components(problem, prog))]
        cycles_terms, bytes_terms = [], []
        busy_terms: dict[str, list] = {}
        other_terms: dict[str, list] = {}
        fifo_terms: list[tuple[object, cp_model.LinearExprT]] = []
        register_terms: list[tuple[object, cp_model.LinearExprT]] = []
        for t in parts:
            stated.append(t)
            used.update(t.scope)
            cycles_terms.append(t.cycles)
            bytes_terms.append(t.buffer_bytes)
            for mem in shared:
                if mem in t.shared_busy:
                    busy_terms.setdefault(mem, []).append(t.shared_busy[mem])
            for kind in sorted(problem.other_memories):
                other_terms.setdefault(kind, []).append(t.other_bytes.get(kind, 0))
            fifo_terms += list(zip(t.program.fifos, t.fifos))
            register_terms += list(zip(t.program.registers, t.registers))
        # the phases' join beyond the least slack the parts were stated with
        hidden, hidden_most = varmodel.state_phase_overlap(model, problem, prog, one_hot)
        pipelines_sum = cp_model.LinearExpr.sum(cycles_terms) - \
            cp_model.LinearExpr.sum(hidden)
        busy_sums = [cp_model.LinearExpr.sum(terms) for terms in busy_terms.values()]
        if busy_sums or runs:
            # cost.program_cycles: never less than a shared memory's busy time
            upper = max([sum(t.cycles_most for t in parts),
                         *(sum(t.busy_most.get(m, 0) for t in parts) for m in busy_terms)])
            floor = model.new_int_var(0, max(upper, 0), f"p{prog.index}.cycles")
            # floor >= every sum: minimising the cycles makes it their max (two linear
            # inequalities; add_max_equality's reified form solved ~100x slower here)
            for term in (pipelines_sum, *busy_sums):
                model.add(floor >= term).only_enforce_if(runs)
            if runs:
                model.add(floor == 0).only_enforce_if(runs[0].Not())
            program_cycles[prog.index] = floor
        else:
            program_cycles[prog.index] = pipelines_sum
        stated_bytes = cp_model.LinearExpr.sum(bytes_terms) + problem.pinned_bytes
        bytes_most = sum(t.bytes_most for t in parts) + problem.pinned_bytes
        if runs:
            held = model.new_int_var(0, max(bytes_most, 0), f"p{prog.index}.bytes")
            model.add(held == stated_bytes).only_enforce_if(runs)
            model.add(held == 0).only_enforce_if(runs[0].Not())
            program_bytes[prog.index] = held
        else:
            program_bytes[prog.index] = stated_bytes
        peak_upper = max(peak_upper, bytes_most)
        form = prog.variant[0] if prog.variant is not None else None
        key = None if form is None else (form, prog.index)
        cycles_least[key] = max(sum(t.cycles_bound for t in parts) - hidden_most,
                                *(sum(t.busy_bound.get(mem, 0) for t in parts)
                                  for mem in shared), 0)
        peak_least[key] = sum(t.bytes_bound for t in parts) + problem.pinned_bytes

        def guarded(kind: str, name: str, ct: cp_model.Constraint, index: int) -> None:
            lit = None
            ct.only_enforce_if(runs)
            if with_assumptions:
                lit = model.new_bool_var(f"assume {name}")
                ct.only_enforce_if(lit)
            constraints.append(Constraint(kind, index, name, lit))

        guarded("capacity", f"scratchpad of program {prog.index}",
                model.add(program_bytes[prog.index] <= problem.scratchpad_bytes), prog.index)
        for kind, size in sorted(problem.other_memories.items()):
            guarded("capacity", f"{kind} of program {prog.index}",
                    model.add(cp_model.LinearExpr.sum(other_terms.get(kind, [])) <= size),
                    prog.index)
        for f, expr in fifo_terms:
            guarded("fifo", f"FIFO {f.name}", model.add(expr <= f.depth), prog.index)
        for r, expr in register_terms:
            guarded("registers", f"register file for {r.name}",
                    model.add(expr <= r.capacity), prog.index)
        for split in prog.fifo_splits:
            _state_fifo_split(model, problem, split, one_hot, guarded, prog.index, runs)
            used.update((split.chunk, *split.decisions))
        if key is None:
            cycles_bound += cycles_least.pop(None)
            peak_bound = max(peak_bound, peak_least.pop(None))
    # a kernel's program with several forms runs one of them: the least of their bounds
    for form in dict.fromkeys(f for f, _ in cycles_least):
        cycles_bound += min(v for (f, _), v in cycles_least.items() if f == form)
        peak_bound = max(peak_bound, min(v for (f, _), v in peak_least.items() if f == form))
    # An inner level's tile is at most the enclosing level's (stated here too for the rare
    # pair whose decisions fall into different parts).
    for inner, outer in problem.within_pairs():
        for i, ci in enumerate(problem.decision(inner).candidates):
            for j, cj in enumerate(problem.decision(outer).candidates):
                if ci.value > cj.value:
                    model.add_bool_or([one_hot[inner][i].Not(), one_hot[outer][j].Not()])
    # A decision no figure depends on cannot matter: fix it to its first candidate.
    unused = tuple(d.name for d in problem.decisions if d.name not in used)
    for name in unused:
        model.add(one_hot[name][0] == 1)
    peak = model.new_int_var(0, max(peak_upper, 0), "peak_scratchpad")
    if program_bytes:
        model.add_max_equality(peak, list(program_bytes.values()))
    else:
        model.add(peak == problem.pinned_bytes)
    if with_assumptions:
        model.add_assumptions([c.literal for c in constraints if c.literal is not None])
    cycles = cp_model.LinearExpr.sum(list(program_cycles.values())) if program_cycles else 0
    return BuiltModel(model, problem, one_hot, cycles, program_cycles, program_bytes, peak,
                      constraints, stated, cycles_bound, peak_bound, unused)


def _state_fifo_split(model: cp_model.CpModel, problem: Problem, split: FifoSplit,
                      one_hot: dict[str, list], guarded, program: int,
                      runs: list | None = None) -> None:
    """A datapath's queue given out among its FIFOs (their depths add up to at most the
    queue), and each chunk candidate giving each of them exactly its entries (what its
    price assumes; a held chunk of c vectors: each FIFO's share of its queue, at least c):
    linear in the decisions' one-hots, so the depths are chosen by CP-SAT alongside the
    tables, never enumerated with them."""
    depth = {d: cp_model.LinearExpr.weighted_sum(
        one_hot[d], [c.value for c in problem.decision(d).candidates]) for d in split.decisions}
    if not split.in_send_order:  # (in send order each depth's domain is the bound)
        guarded("fifo", f"queue {split.name}",
                model.add(cp_model.LinearExpr.sum(list(depth.values())) <= split.depth),
                program)
    for i, c in enumerate(problem.decision(split.chunk).candidates):
        for k, d in enumerate(split.decisions):
            model.add(depth[d] == split.entries(c, k)).only_enforce_if(
                [one_hot[split.chunk][i], *(runs or [])])
