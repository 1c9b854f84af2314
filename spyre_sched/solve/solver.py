"""Solve a `Problem` with CP-SAT: objectives, determinism, time limit, statistics.

Deterministic by construction: one worker and a fixed seed by default (or a fixed worker
count with `interleave_search`), and decisions/combinations are created in a fixed order,
so the same problem gives the same choice byte for byte.
"""

from __future__ import annotations

from collections.abc import Mapping
import itertools
import math
import time

from ortools.sat.python import cp_model

from spyre_sched.solve import cost
from spyre_sched.solve.explain import explain_infeasible
from spyre_sched.solve.heuristic import v1_choice
from spyre_sched.solve.model import BuiltModel, build, components
from spyre_sched.solve.problem import (
    LINK_KINDS,
    Problem,
    SolveError,
    decision_readers,
    program_decision_names,
)
from spyre_sched.solve.part_bounds import fewest_bytes, part_bounds, program_bounds
from spyre_sched.solve.solution import PhaseStats, Solution, SolverStats

OBJECTIVES = ("latency", "memory")
GAP = 1e-4
"""The relative gap at which CP-SAT stops: exact below 10,000 cycles (the objective is an
integer), and it lets a large part's products stop once the bound is that close (CP-SAT
spent 30 s proving the last 0.002% of the 3-D add's 1.37e9 cycles)."""
SEARCH_BUDGET = 30.0
"""CP-SAT's deterministic time for a search phase when no time limit is given: the kernels
of the suite, the examples and the tests prove their optimum in well under a second of
it; a 70B model's FFN block (two matmuls streamed in K chunks in one tile pipeline) found
its schedule early and then searched for a bound it never proved, for as long as it was
let run. Stopped at the budget, the best schedule found is used and the trace gives its
gap, the same on every run (deterministic time, unlike seconds)."""

COMPARE_BUDGET = 2.0
"""CP-SAT's deterministic time for the solve that tells the trace what a choice made
between two forms of a program did not choose (`loop_orders`): a figure for the reader,
not a decision, so the compile does not pay a second full search for it."""

TIE_BREAK_BUDGET = 0.5
"""CP-SAT's deterministic time (reproducible, unlike seconds) for choosing, among the
schedules of the least cycles, the one with the least scratchpad and then the most vectors
per instruction (`BuiltModel.tie_break`); 0.2 stopped short of the least scratchpad on the
4096x4096 add (docs/solver.md, "Objectives")."""


def _gap(objective: float, bound: float) -> float:
    return abs(objective - bound) / max(1.0, abs(objective))


def _parameters(solver: cp_model.CpSolver, workers: int, seed: int,
                time_limit: float | None, log: list[str] | None) -> None:
    p = solver.parameters
    p.num_workers = workers
    p.random_seed = seed
    if workers > 1:
        p.interleave_search = True  # a fixed, reproducible schedule of the workers
    if time_limit is not None:
        p.max_time_in_seconds = float(time_limit)
    if log is not None:
        p.log_search_progress = True
        p.log_to_stdout = False
        solver.log_callback = log.append


def _run(built: BuiltModel, minimise, label: str, workers: int, seed: int,
         time_limit: float | None, log: list[str] | None,
         hint: dict[str, int] | None = None,
         budget: float | None = None,
         gap: float = GAP) -> tuple[cp_model.CpSolver, int, PhaseStats]:
    built.model.minimize(minimise)
    built.model.clear_hints()
    if hint is not None:
        built.add_hint(hint)
    solver = cp_model.CpSolver()
    _parameters(solver, workers, seed, time_limit, log)
    # presolve's probing took ~90% of the 3-D add's solve (3.0 s -> 0.25 s CPU without it)
    # and 70% of a 64-program chain's (deterministic time 0.40 -> 0.12), with the same
    # schedule and bound there and on every kernel of examples/ and the bench suite
    solver.parameters.cp_model_probing_level = 0
    solver.parameters.relative_gap_limit = gap
    if budget is not None:
        solver.parameters.max_deterministic_time = budget
    solver.parameters.symmetry_level = 0
    if log is not None:
        log.append(f"---- phase: minimise {label} ----")
    status = solver.solve(built.model)
    has = status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    obj = solver.objective_value if has else float("nan")
    bound = solver.best_objective_bound if has else float("nan")
    stats = PhaseStats(label, solver.status_name(status), obj, bound,
                       _gap(obj, bound) if has else float("nan"), solver.wall_time,
                       solver.num_branches, solver.num_conflicts)
    return solver, status, stats


def _hinted(stats: PhaseStats, value: int, bound: float) -> PhaseStats:
    """The phase's figures when CP-SAT stopped (UNKNOWN) before a solution of its own: the
    hint is the best schedule known, `value` its exact figure, `bound` a valid lower
    bound (the model's own, which holds whatever CP-SAT did)."""
    bound = min(float(value), bound)
    return PhaseStats(stats.minimises, "FEASIBLE", float(value), bound,
                      _gap(float(value), bound), stats.wall_time, stats.branches,
                      stats.conflicts, "hint", stats.status)


def _v1_hint(problem: Problem) -> dict[str, int] | None:
    """The V1 heuristic's schedule when it fits (CP-SAT's first hint), else None."""
    try:
        choice = v1_choice(problem)
    except SolveError:
        return None
    return choice if cost.feasible(problem, choice) else None


def solve(problem: Problem, objective: str = "latency", *, time_limit: float | None = None,
          workers: int = 1, seed: int = 0, log: bool = False,
          fixed: Mapping[str, int] | None = None,
          search_budget: float | None = None) -> Solution:
    """The best schedule under `objective`, or `InfeasibleError` explained in words.

    Anytime: CP-SAT starts from the V1 heuristic's schedule (a hint) when it fits, so a
    time limit returns the best schedule found with its bound and gap. When the limit
    stops CP-SAT before it has a solution of its own (status UNKNOWN: presolve had not
    finished), the hint is that best schedule; the phase says so (`found_by = "hint"`),
    its bound is the model's own lower bound, and a note says it in words.

    `fixed` (decision name -> candidate index) pins decisions: the solver chooses only
    the others (the bench's split of a speedup by decision kind). `search_budget`: the
    deterministic budget per phase without a time limit (default `SEARCH_BUDGET`)."""
    if objective not in OBJECTIVES:
        raise SolveError(f"unknown objective '{objective}'; expected one of "
                         f"{', '.join(OBJECTIVES)}")
    if workers < 1:
        raise SolveError(f"--workers must be at least 1, not {workers}")
    start = time.perf_counter()
    if fixed:
        from spyre_sched.solve.pinning import pin

        pinned = pin(problem, fixed)
        found = solve(pinned.problem, objective, time_limit=time_limit, workers=workers,
                      seed=seed, log=log, search_budget=search_budget)
        return Solution(problem, pinned.original(found.choice), objective, "solver",
                        found.stats, found.log, found.notes)
    built = build(problem)
    parts_solved: dict[tuple, tuple] = {}  # (the programs' solves reuse the parts')
    # (the bounds below add up over programs: a program that runs only in one of its
    # forms is left to the model, which takes the least of the forms' own bounds)
    forms = {p.index for p in problem.programs if p.variant is not None}
    bounds = [b for b in part_bounds(problem, seed, GAP, parts_solved)
              if b.program not in forms]
    for b in bounds:
        part = built.parts_of[b.program][b.part]
        built.model.add(part.cycles >= b.least).only_enforce_if(
            [built.one_hot[d][v] for d, v in b.links.items()])
    programs = [] if forms else program_bounds(problem, seed, GAP, parts_solved)
    for b in programs:
        built.model.add(built.program_cycles[b.program] >= b.least)
    if bounds:
        least: dict[tuple[int, int], int] = {}
        for b in bounds:  # (a bound for every value of the links: the least of them)
            least[b.program, b.part] = min(least.get((b.program, b.part), b.least), b.least)
        built.cycles_bound = max(built.cycles_bound, sum(least.values()))
    if programs:
        # (a program no decision changes adds its constant cycles)
        bounded = {b.program for b in programs}
        fixed = sum(cost.program_cycles(problem, p, {}) for p in problem.programs
                    if p.index not in bounded and not program_decision_names(p))
        built.cycles_bound = max(built.cycles_bound, sum(b.least for b in programs) + fixed)
    build_time = time.perf_counter() - start
    lines: list[str] | None = [] if log else None
    phases: list[PhaseStats] = []
    tie_breaks: list[PhaseStats] = []  # (see SolverStats.tie_breaks)
    polished = False
    notes: list[str] = []
    hint = _v1_hint(problem)
    hint_from = "the V1 heuristic's schedule"
    hint_cycles = None  # (the exact cycles of the programs' choices together, when hinted)
    if bounds:
        # each part's best choice alone, where together they fit
        # (each program's choice alone fits it; a single program's parts alone may not
        # fit the scratchpad they share)
        together = dict(hint or v1_choice(problem))
        if programs:
            for pb in programs:
                together.update(pb.choice)
        else:
            for b in bounds:
                if all(together[d] == v for d, v in b.links.items()):
                    together.update(b.choice)
        if cost.feasible(problem, together):
            key = cost.objective_key(problem, together, objective)
            if hint is None or key <= cost.objective_key(problem, hint, objective):
                hint, hint_from = together, "the programs' and parts' own best choices alone"
                hint_cycles = key[-1]
    elif hint is not None:
        # one part: products of variables leave CP-SAT a long way from its optimum, so
        # start it from the V1 schedule improved one decision at a time (the exact cost)
        hint = descend(problem, hint, objective)
        hint_from = "the V1 heuristic's schedule improved one decision at a time"
    choice: dict[str, int] | None = None
    proven = None
    budget = (search_budget or SEARCH_BUDGET) if time_limit is None else None
    if objective == "latency" and programs and hint_from.startswith("the programs'") and \
            hint_cycles == built.cycles_bound:
        proven = _programs_optimal(problem, built, programs, hint, seed)
    if proven is not None:
        # the programs' own optima add up to the kernel's lower bound: their schedules
        # together are optimal, and with only links shared the tie-break is theirs too
        optimum = float(built.cycles_bound)
        if lines is not None:
            lines.append("---- the programs' own optima add up to the kernel's lower bound "
                         f"({built.cycles_bound} cycles): the kernel's model is not searched "
                         "----")
        phases.append(PhaseStats("cycles", "OPTIMAL", optimum, optimum, 0.0, 0.0, 0, 0,
                                 "programs"))
        choice, status, solver = proven, cp_model.OPTIMAL, None
    elif objective == "memory":
        solver, status, stats = _run(built, built.peak, "peak scratchpad bytes", workers, seed,
                                     time_limit, lines, hint=hint, budget=budget)
        _note_budget(stats, budget, notes)
        if status == cp_model.UNKNOWN:
            choice = _from_hint(problem, hint, time_limit, notes, "peak scratchpad",
                                hint_from)
            stats = _hinted(stats, cost.peak_scratchpad(problem, choice), built.peak_bound)
            first = choice
        else:
            _check_status(problem, status, time_limit)
            first = built.choice(solver)
        phases.append(stats)
        peak = cost.peak_scratchpad(problem, first)
        built.model.add(built.peak <= peak)
        solver, status, stats = _run(built, built.cycles, "cycles", workers, seed,
                                     time_limit, lines, hint=first, budget=budget)
        _note_budget(stats, budget, notes)
        if status == cp_model.UNKNOWN:
            choice = first
            stats = _hinted(stats, cost.kernel_cycles(problem, first), built.cycles_bound)
            notes.append(f"{_limit(time_limit)} hit while minimising cycles at "
                         f"the smallest peak found: the first phase's schedule is used "
                         f"(bound {stats.bound:.0f}, gap {stats.gap:.4g})")
        phases.append(stats)
        if status == cp_model.OPTIMAL:
            # of equal peak and cycles, the least scratchpad over every program (the
            # programs below the peak hold no more than they need), then the most
            # vectors per instruction: the latency objective's tie-break, the peak held
            solver, choice, tie_stats = _tie_break(
                problem, built, solver, built.tie_break, MEMORY_TIE_BREAK,
                "scratchpad bytes, then vectors per instruction, at the least peak and "
                "cycles", workers, seed, time_limit, lines)
            tie_breaks.append(tie_stats)
            polished = choice is not None
    else:
        solver, status, stats = _run(built, built.cycles, "cycles", workers, seed, time_limit,
                                     lines, hint=hint, budget=budget)
        _note_budget(stats, budget, notes)
        if status == cp_model.UNKNOWN:
            choice = _from_hint(problem, hint, time_limit, notes, "cycles", hint_from)
            stats = _hinted(stats, cost.kernel_cycles(problem, choice), built.cycles_bound)
            notes[-1] += f" (bound {stats.bound:.0f}, gap {stats.gap:.4g})"
        phases.append(stats)
        if status == cp_model.OPTIMAL:
            # schedules of equal cycles differ in the buffers they hold (a deeper modulo
            # that hides nothing more) and in the vectors each instruction moves: of
            # those, the one with the least scratchpad, then the most vectors per
            # instruction, that CP-SAT finds within a deterministic budget (the same on
            # every run; `BuiltModel.tie_break`)
            solver, choice, tie_stats = _tie_break(
                problem, built, solver, built.tie_break, TIE_BREAK,
                "scratchpad bytes, then vectors per instruction, at the least cycles",
                workers, seed, time_limit, lines)
            tie_breaks.append(tie_stats)
            polished = choice is not None
    if choice is None:
        _check_status(problem, status, time_limit)
        choice = built.choice(solver)
    if solver is None:
        # (the programs' models' figures: each program's model at its least cycles)
        model_cycles = built.cycles_bound
    else:
        model_cycles = int(round(solver.value(built.cycles))) \
            if status in (cp_model.OPTIMAL, cp_model.FEASIBLE) else None
    solver_stats = SolverStats(built.num_variables, built.num_constraints,
                               built.evaluations, phases, workers, seed, time_limit,
                               build_time, model_cycles, tie_breaks, polished)
    solution = Solution(problem, choice, objective, "solver", solver_stats,
                        "\n".join(lines) if lines is not None else "", notes)
    # The model is exact: at a proven optimum its figure for the chosen schedule is the
    # plain-Python cost (a schedule found under a time limit may leave the program-cycles
    # variable above the max it bounds: the trace then shows both figures).
    if model_cycles is not None and phases[-1].status == "OPTIMAL" and phases[-1].gap == 0 \
            and model_cycles != solution.cycles:  # pragma: no cover - a bug, not bad input
        raise AssertionError(f"CP-SAT objective {model_cycles} != cost model "
                             f"{solution.cycles}")
    return solution


LINK_ASSIGNMENTS = 16
"""At most this many values of the link decisions that span programs are tried, one
after the other, for the tie-break of a kernel whose programs' optima add up
(`_programs_optimal`); with more, the kernel's model is searched."""


def _programs_optimal(problem: Problem, built: BuiltModel, programs: list,
                      hint: dict[str, int], seed: int) -> dict[str, int] | None:
    """The kernel's optimum without searching its model, when the programs' own solves
    prove it. The latency objective is the sum of the programs' cycles, and when only
    link decisions (a keep choice spanning programs) are shared by programs, each
    program's least cycles alone holds in the kernel (which only adds constraints): when
    those add up to the exact cost of the programs' choices together (`hint`: the caller
    checks it), no schedule does better. Of the schedules of those cycles, the
    tie-break's (the least scratchpad over the programs): every program must sit at its
    own least, so per value of the links that lets them, each program's least
    scratchpad at its least cycles (`part_bounds.fewest_bytes`), and the values whose
    programs add up to the least scratchpad (the first such in candidate order). None
    when any of this does not hold: the kernel's model is searched instead."""
    readers = decision_readers(problem)
    links = [d.name for d in problem.decisions if len(readers.get(d.name, ())) > 1]
    if any(problem.decision(d).kind not in LINK_KINDS for d in links):
        return None
    if any(readers.get(i) != readers.get(o) for i, o in problem.within_pairs()):
        return None
    values = [range(len(problem.decision(d).candidates)) for d in links]
    if math.prod(len(v) for v in values) > LINK_ASSIGNMENTS:
        return None
    optimum = built.cycles_bound
    best: tuple[int, dict[str, int]] | None = None
    for assignment in itertools.product(*values):
        at = dict(zip(links, assignment))
        found = fewest_bytes(programs, at, seed, GAP, TIE_BREAK_BUDGET)
        if found is None:
            continue  # (a program cannot reach its least at these links)
        choice = {**hint, **at, **found[1], **{name: 0 for name in built.unused}}
        # (the exact cost decides: programs without decisions add their constant cycles)
        if not cost.feasible(problem, choice) or cost.kernel_cycles(problem, choice) != optimum:
            continue  # (a span's regions together may not fit where each program's did)
        total = built.total_bytes_of(choice)
        if best is None or total < best[0]:
            best = (total, choice)
    return None if best is None else best[1]


def _tie_break(problem: Problem, built: BuiltModel, solver: cp_model.CpSolver, minimise,
               key: str, label: str, workers: int, seed: int, time_limit: float | None,
               lines: list[str] | None
               ) -> tuple[cp_model.CpSolver, dict[str, int] | None, PhaseStats]:
    """Among the schedules of `solver`'s optimum (its cycles held), the least of
    `minimise` within `TIE_BREAK_BUDGET`, at gap 0 (the vectors are the last few units of
    a sum scaled by bytes, well inside `GAP` of it). Returns the solver whose solution to
    take, the schedule when the budget stopped it short of proving its least (then
    polished one decision at a time under the exact cost model, `descend` with `key`:
    which of the equal schedules the budget reached depends on the model's form; else
    None), and the solve's figures."""
    first = built.choice(solver)
    built.model.add(built.cycles <= cost.kernel_cycles(problem, first))
    tie, status, stats = _run(built, minimise, label, workers, seed, time_limit, lines,
                              hint=first, budget=TIE_BREAK_BUDGET, gap=0.0)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        solver = tie
    polished = None if status == cp_model.OPTIMAL else descend(
        problem, built.choice(solver), key)
    return solver, polished, stats


TIE_BREAK = "tie-break"
"""`descend`'s key for the latency objective's tie-break: cycles, then the scratchpad of
every program added up, then the most vectors per instruction (`BuiltModel.tie_break`)."""
MEMORY_TIE_BREAK = "memory-tie-break"
"""`descend`'s key for the memory objective's: the peak scratchpad, cycles, the scratchpad
of every program added up, then the most vectors per instruction."""


def descend(problem: Problem, choice: dict[str, int], objective: str,
            rounds: int = 3) -> dict[str, int]:
    """`choice` improved one decision at a time (each candidate tried with the others
    fixed, a chunk with the FIFO depths it is priced at; the best feasible kept) under
    the exact cost model, for a few rounds: a hint for CP-SAT, or (`TIE_BREAK`,
    `MEMORY_TIE_BREAK`) the polish of a tie-break its budget stopped. A trial re-prices
    only the program parts (`model.components`) that read the decisions it moves, so a
    round costs Σ candidates evaluations of one part each."""
    best = dict(choice)
    parts = [(prog, part) for prog in problem.programs
             for part in components(problem, prog)]
    readers: dict[str, list[int]] = {d.name: [] for d in problem.decisions}
    for k, (_, part) in enumerate(parts):
        for name in program_decision_names(part):
            readers[name].append(k)
    programs_of = decision_readers(problem)
    chunks = {d.name for d in problem.decisions if d.kind == "chunk"}
    priced = [cost.program_parts(problem, part, best) for _, part in parts]
    spad = {p.index: cost.program_scratchpad(problem, p, best) for p in problem.programs}

    def key(figures: list, sp: dict[int, int], at: dict[str, int]) -> tuple[int, ...]:
        total = 0
        running = problem.running(at)
        for prog in running:
            cycles, busy = 0, {}
            for (owner, _), (c, b) in zip(parts, figures):
                if owner is prog:
                    cycles += c
                    for m, v in b.items():
                        busy[m] = busy.get(m, 0) + v
            total += max(cycles, *busy.values()) if busy else cycles
        peak = max((sp[p.index] for p in running), default=0)
        if objective in (TIE_BREAK, MEMORY_TIE_BREAK):
            vectors = sum(problem.decision(name).candidates[i].value
                          for name, i in at.items() if name in chunks)
            spad_total = sum(sp[p.index] for p in running)
            if objective == MEMORY_TIE_BREAK:
                return (peak, total, spad_total, -vectors)
            return (total, spad_total, -vectors)
        return (peak, total) if objective == "memory" else (total,)

    current = key(priced, spad, best)
    # (the parts priced apart may differ from the whole kernel's cycles by a few: a
    # tie-break move must keep the kernel's exact cycles)
    tie_break = objective in (TIE_BREAK, MEMORY_TIE_BREAK)
    least = cost.kernel_cycles(problem, best) if tie_break else 0
    for _ in range(rounds):
        improved = False
        for d in problem.decisions:
            if not programs_of[d.name]:
                continue
            progs = [p for p in problem.programs if p.index in programs_of[d.name]]
            pairs = [pair for pair in problem.within_pairs() if d.name in pair]
            for i in range(len(d.candidates)):
                if i == best[d.name]:
                    continue
                moved = {d.name: i}
                if d.name in chunks:  # (its FIFOs' depths move with it)
                    moved.update(problem.chunk_depths(d.name, i))
                trial = {**best, **moved}
                if cost.within_violations(problem, trial, pairs) or \
                        any(cost.program_violations(problem, p, trial) for p in progs
                            if problem.runs(p, trial)):
                    continue
                figures = list(priced)
                for k in sorted({k for name in moved for k in readers[name]}):
                    figures[k] = cost.program_parts(problem, parts[k][1], trial)
                sp = {**spad, **{p.index: cost.program_scratchpad(problem, p, trial)
                                 for p in progs}}
                k = key(figures, sp, trial)
                if k < current and (not tie_break or
                                    cost.kernel_cycles(problem, trial) <= least):
                    best, current, priced, spad, improved = trial, k, figures, sp, True
        if not improved:
            break
    return best


def _from_hint(problem: Problem, hint: dict[str, int] | None, time_limit: float | None,
               notes: list[str], minimising: str, hint_from: str) -> dict[str, int]:
    """The time limit hit before CP-SAT found any schedule: its hint (`hint_from` says
    what it is) is the best one known (else the error says to raise the limit)."""
    if hint is None:
        raise SolveError(f"CP-SAT found no schedule for {problem.kernel} within "
                         f"{_limit(time_limit)} and the V1 heuristic's does not fit; "
                         f"raise --time-limit")
    notes.append(f"{_limit(time_limit)} hit before CP-SAT found a schedule of its "
                 f"own (it stopped with status UNKNOWN while minimising {minimising}): the "
                 f"best schedule known is its hint, {hint_from}, reported "
                 f"FEASIBLE with the model's lower bound")
    return hint


def _limit(time_limit: float | None) -> str:
    """What stopped the search: the time limit given, or else the deterministic budget."""
    if time_limit is None:
        return f"CP-SAT's deterministic budget ({SEARCH_BUDGET:g})"
    return f"the time limit of {time_limit} s"


def _note_budget(stats: PhaseStats, budget: float | None, notes: list[str]) -> None:
    """Say so when a phase stopped at `SEARCH_BUDGET` before proving its optimum."""
    if budget is not None and stats.status == "FEASIBLE":
        notes.append(f"minimising {stats.minimises}: CP-SAT stopped at its deterministic budget "
                     f"({budget:g}) with the best schedule it found, not proven optimal "
                     f"(bound {stats.bound:.0f}, gap {stats.gap:.4g}); --time-limit lets "
                     f"it search longer")


def _check_status(problem: Problem, status: int, time_limit: float | None) -> None:
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return
    if status == cp_model.INFEASIBLE:
        raise explain_infeasible(problem)
    if status == cp_model.UNKNOWN:
        raise SolveError(f"CP-SAT found no schedule for {problem.kernel} within "
                         f"{_limit(time_limit)}; raise --time-limit")
    raise SolveError(f"CP-SAT rejected the model for {problem.kernel} "
                     f"(status {cp_model.CpSolver().status_name(status)}); this is a bug")
