"""The CP-SAT model on hand-made decision data: exactness, optimality against brute
force, constraint edge cases, objectives, determinism, the heuristic and the trace."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from handmade import elementwise_problem

from spyre_sched import api
from spyre_sched.solve.extract import extract

from spyre_sched.solve import cost
from spyre_sched.solve.brute_force import brute_force
from spyre_sched.solve.explain import build_trace, render_trace
from spyre_sched.solve.heuristic import heuristic, v1_choice
from spyre_sched.solve.problem import InfeasibleError
from spyre_sched.solve.solver import solve

ROOT = Path(__file__).resolve().parents[2]


def _labels(solution):
    return {k: c.label for k, c in solution.values.items()}


@pytest.mark.parametrize("rows,vecs,objective,capacity", [
    (3, 4, "latency", 2 << 20),
    (3, 4, "memory", 2 << 20),
    (4, 2, "latency", 4096),       # capacity binds: large tiles and deep buffers excluded
    (2, 3, "memory", 3000),
    (5, 1, "latency", 3 * 128 * 3),
])
def test_cp_sat_optimum_agrees_with_brute_force(rows, vecs, objective, capacity):
    problem = elementwise_problem(rows, vecs, capacity=capacity)
    best = brute_force(problem, objective)
    assert best is not None
    solution = solve(problem, objective)
    assert solution.stats.status == "OPTIMAL"
    assert cost.objective_key(problem, solution.choice, objective) == best[1]
    assert cost.feasible(problem, solution.choice)


def test_brute_force_agrees_on_two_programs_with_pinned_scratchpad():
    problem = elementwise_problem(3, 2, programs=2, pinned=1024, capacity=4096, modulos=(1, 2))
    for objective in ("latency", "memory"):
        best = brute_force(problem, objective)
        solution = solve(problem, objective)
        assert cost.objective_key(problem, solution.choice, objective) == best[1]


def test_objective_of_cp_sat_equals_plain_python_cost():
    problem = elementwise_problem(8, 16)
    solution = solve(problem)
    (phase,) = solution.stats.phases
    assert phase.status == "OPTIMAL"
    assert int(phase.objective) == cost.kernel_cycles(problem, solution.choice)
    assert int(phase.bound) == int(phase.objective) and phase.gap == 0


def test_kernel_that_only_fits_single_buffered():
    # three buffers of one stick each: double-buffered needs 768 B, single 384 B
    problem = elementwise_problem(3, 3, capacity=700, modulos=(1, 2))
    solution = solve(problem)
    assert _labels(solution)["p0.pipe.outer.modulo"] == "1"
    assert solution.peak_scratchpad <= 700
    # the heuristic's modulo 2 is not legal here: it falls back to 1
    assert heuristic(problem).values["p0.pipe.outer.modulo"].value == 1
    # with even loops V1 picks tiles of 2, which do not fit even single-buffered
    with pytest.raises(InfeasibleError) as err:
        heuristic(elementwise_problem(2, 2, capacity=700, modulos=(1, 2)))
    assert "the heuristic (V1) schedule does not fit" in str(err.value)
    assert "needs 1.5 KiB of scratchpad, has 700 B" in str(err.value)


def test_kernel_that_fits_nothing_is_explained_in_words():
    problem = elementwise_problem(2, 2, capacity=300, pinned=0)
    with pytest.raises(InfeasibleError) as err:
        solve(problem)
    text = str(err.value)
    assert "buffers of program 0" in text
    assert "with double buffering" in text and "768 B" in text
    assert "even single-buffered the smallest tiles need 384 B" in text
    assert "scratchpad holds 300 B" in text
    assert err.value.conflicting == ["scratchpad of program 0"]


def test_pinned_ct_local_region_eats_scratchpad():
    free = solve(elementwise_problem(4, 4, capacity=8192))
    pinned = solve(elementwise_problem(4, 4, capacity=8192, pinned=6144))
    assert free.peak_scratchpad > 8192 - 6144
    assert pinned.peak_scratchpad <= 8192
    assert pinned.peak_scratchpad - 6144 < free.peak_scratchpad
    assert pinned.cycles > free.cycles
    with pytest.raises(InfeasibleError) as err:
        solve(elementwise_problem(4, 4, capacity=8192, pinned=8000))
    assert "plus 7.8 KiB pinned by the kernel (E 7.8 KiB)" in str(err.value)


def test_memory_objective_picks_a_smaller_footprint_than_latency():
    problem = elementwise_problem(8, 16)
    fast = solve(problem, "latency")
    small = solve(problem, "memory")
    assert small.peak_scratchpad < fast.peak_scratchpad
    assert small.cycles >= fast.cycles
    assert [p.minimises for p in small.stats.phases] == ["peak scratchpad bytes", "cycles"]


def test_fifo_and_register_limits_are_constraints():
    problem = elementwise_problem(4, 2, accumulator=True, fifo_entries=6)
    solution = solve(problem)
    # FIFO: modulo x 6 <= 16 -> modulo <= 2; registers: rows x 256 <= 4096 always
    assert solution.values["p0.pipe.outer.modulo"].value <= 2
    tight = elementwise_problem(4, 2, fifo_entries=17)
    with pytest.raises(InfeasibleError) as err:
        solve(tight)
    assert "FIFO p0.fifo of program 0 needs at least 17 entries in flight; its depth is 16" \
        in str(err.value)


def test_same_input_same_schedule_byte_for_byte():
    def run(**kw):
        s = solve(elementwise_problem(4, 8, programs=2), **kw)
        trace = build_trace(s)
        trace["solver"] = trace["wall_time"] = None  # wall times differ; the schedule not
        return json.dumps(trace, sort_keys=True)
    first = run()
    assert run() == first
    assert run(workers=2) == run(workers=2)


def test_time_limit_reports_status_and_gap():
    s = solve(elementwise_problem(8, 16), time_limit=5.0)
    assert s.stats.time_limit == 5.0
    assert s.stats.status in ("OPTIMAL", "FEASIBLE")
    assert 0.0 <= s.stats.gap


def test_heuristic_reproduces_the_v1_rules():
    problem = elementwise_problem(3, 4)
    labels = {k: problem.decision(k).candidates[i].label
              for k, i in v1_choice(problem).items()}
    # rows 3 (odd): tile 1; vectors 4 (even): tile 2; modulo 2; 2 corelets on the
    # outermost loop whose trip count they divide (d0 has 3 rows: no; d1 has 4: yes)
    assert labels == {"p0.tile.d0": "1", "p0.tile.d1": "2", "p0.pipe.outer.modulo": "2",
                      "p0.distribute": "2 on d1"}
    odd = elementwise_problem(3, 5)
    (dist,) = [odd.decision("p0.distribute").candidates[v1_choice(odd)["p0.distribute"]]]
    assert dist.label == "2 on d0"  # neither divides: the outermost long enough
    h = heuristic(problem)
    assert h.strategy == "heuristic" and h.stats is None
    assert h.cycles >= solve(problem).cycles


def test_trace_names_decisions_candidates_reasons_and_solver_figures():
    problem = elementwise_problem(4, 4, capacity=4096)
    s = solve(problem)
    trace = build_trace(s)
    text = render_trace(trace)
    assert "CP-SAT: OPTIMAL" in text and "variables" in text and "branches" in text
    d = {x["decision"]: x for x in trace["programs"][0]["decisions"]}
    assert set(d) == {"p0.tile.d0", "p0.tile.d1", "p0.pipe.outer.modulo", "p0.distribute"}
    for x in d.values():
        assert x["why"] and x["candidates"] and x["chosen"] in x["candidates"]
    # capacity binds at 4 KiB: some larger tile or deeper buffering breaks it
    assert any("binding constraint" in x["why"] for x in d.values())
    assert trace["programs"][0]["pipelines"][0]["cycles"] == s.cycles
    json.dumps(trace)  # plain data


def test_time_limit_before_cp_sat_finds_one_returns_the_hint_with_bound_and_gap():
    """Anytime: CP-SAT is hinted with the V1 schedule; when the limit stops it before a
    solution of its own, that hint is the best schedule known, reported FEASIBLE with the
    model's own lower bound and the gap, and said so (never a silent fallback)."""
    problem = elementwise_problem(8, 16, programs=3)
    s = solve(problem, time_limit=1e-9)
    assert s.choice == v1_choice(problem)
    (phase,) = s.stats.phases
    assert s.stats.status == "FEASIBLE" and s.stats.found_by == "hint"
    assert phase.cp_sat_status == "UNKNOWN"
    assert phase.objective == s.cycles
    assert 0 < phase.bound <= phase.objective and 0 <= phase.gap < 1
    assert phase.bound <= solve(problem).cycles  # a true lower bound
    assert "time limit" in s.notes[0] and "V1 heuristic" in s.notes[0] and "gap" in s.notes[0]
    trace = build_trace(s)
    json.loads(json.dumps(trace, allow_nan=False))  # no NaN in the JSON
    text = render_trace(trace)
    assert "CP-SAT: FEASIBLE" in text and "found by the hint" in text


def test_memory_objective_under_a_tiny_time_limit_still_reports_bound_and_gap():
    problem = elementwise_problem(4, 8, programs=2)
    s = solve(problem, "memory", time_limit=1e-9)
    assert [p.found_by for p in s.stats.phases] == ["hint", "hint"]
    assert all(p.bound <= p.objective for p in s.stats.phases)
    assert cost.feasible(problem, s.choice)


def test_parts_of_a_program_couple_through_its_scratchpad():
    """Two computes run one after the other in a once-run pipeline: the model splits them
    into two tables, and the scratchpad they share decides between them (brute force over
    the full product agrees)."""
    import dataclasses

    from handmade import elementwise_program

    from spyre_sched.solve.model import components
    from spyre_sched.solve.problem import Pipeline, Problem, Program, Quantity, Stage

    d0, a = elementwise_program(0, 3, 2, modulos=(1, 2, 3))
    d1, b = elementwise_program(1, 2, 3, modulos=(1, 2, 3))
    decisions = tuple(dataclasses.replace(d, program=0) for d in (*d0, *d1))
    once = Pipeline("p0.once", Quantity.const(1), (
        Stage("first", "corelets", a.pipelines), Stage("second", "corelets", b.pipelines)))
    program = Program(0, "local_schedule_0", (once,), a.buffers + b.buffers)
    for capacity in (3000, 1800, 1200):
        problem = Problem("two", "spyre", capacity, decisions, (program,), corelets=2)
        assert len(components(problem, program)) == 2
        best = brute_force(problem)
        s = solve(problem)
        assert (s.cycles,) == best[1]
        assert s.peak_scratchpad <= capacity


def test_v1_sees_loops_over_a_tile_as_dynamic_and_prefers_static_ones():
    """V1 parallelises before it sizes tiles: a loop that walks a tile has no trip count
    it can see. A balanced static loop wins, then an imbalanced static one (at least N
    long), then the first dynamic one."""
    from spyre_sched.solve.heuristic import _pick

    assert _pick([None, 4, 3], 2) == 1    # balanced static, though not outermost
    assert _pick([None, 3, 1], 2) == 1    # imbalanced static at least N long
    assert _pick([1, None, None], 2) == 1  # static but too short: first dynamic
    assert _pick([1, 1], 2) is None        # nothing qualifies: not distributed


def test_v1_tile_rule_starts_at_two_or_the_minimum():
    from spyre_sched.solve.heuristic import _tile
    from spyre_sched.solve.problem import Candidate, Decision

    def tile(values, extent, step=1):
        d = Decision("t", "tile", 0, tuple(Candidate(v) for v in values), extent=extent,
                     step=step)
        return d.candidates[_tile(d)].value

    assert tile([1, 2, 3, 4], extent=8) == 2
    assert tile([1, 2, 3], extent=9) == 1           # 2 does not divide 9
    assert tile([64, 128, 192], extent=1024, step=64) == 64  # the minimum is above 2


def test_heuristic_plus_keep_keeps_an_input_when_it_fits():
    from spyre_sched.solve.heuristic import v1_keep_choice

    for path in ("bench/kernels/quick/rmsnorm.mlir",):
        module, _, _ = api.load_schedule_input(str(ROOT / path), "spyre")
        problem = extract(module).problem
        v1, kept = v1_choice(problem), v1_keep_choice(problem)
        keeps = [d for d in problem.decisions if d.kind == "keep"]
        assert all(kept[d.name] == d.candidates.index(next(c for c in d.candidates
                                                            if c.value == 1))
                   for d in keeps)  # the quick kernels fit with every input kept
        assert {k: v for k, v in kept.items() if k not in {d.name for d in keeps}} == \
            {k: v for k, v in v1.items() if k not in {d.name for d in keeps}}
        assert heuristic(problem, keep=True).strategy == "heuristic+keep"
        assert cost.kernel_cycles(problem, kept) <= cost.kernel_cycles(problem, v1) \
            or not keeps


def test_pinned_kinds_stay_at_the_v1_values_and_random_schedules_fit():
    from spyre_sched.solve.random_schedule import random_choice

    problem = elementwise_problem(8, 16, programs=2)
    v1 = v1_choice(problem)
    free = solve(problem)
    pinned = solve(problem, fixed={d.name: v1[d.name] for d in problem.decisions
                                   if d.kind == "tile"})
    assert all(pinned.choice[d.name] == v1[d.name] for d in problem.decisions
               if d.kind == "tile")
    assert free.cycles <= pinned.cycles <= heuristic(problem).cycles
    schedules = [random_choice(problem, seed) for seed in range(4)]
    assert all(cost.feasible(problem, c) for c in schedules)
    assert random_choice(problem, 3) == schedules[3]  # deterministic per seed
    assert len({tuple(sorted(c.items())) for c in schedules}) > 1


def test_pinning_needs_a_known_kind_and_the_solver():
    from xdsl.context import Context
    from xdsl.dialects.builtin import ModuleOp

    from spyre_sched.solve.problem import SolveError
    from spyre_sched.solve.solve_pass import SolveDecisions

    with pytest.raises(SolveError, match="cannot pin decisions of kind bogus"):
        SolveDecisions(pinned=("bogus",)).apply(Context(), ModuleOp([]))
    with pytest.raises(SolveError, match="needs the solver strategy"):
        SolveDecisions(strategy="heuristic", pinned=("tile",)).apply(Context(), ModuleOp([]))
