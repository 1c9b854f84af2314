"""The CP-SAT model (`solve/varmodel.py`): exact for every assignment, and its optimum
is brute force's on problems small enough to enumerate."""

from __future__ import annotations

import functools
import random
import sys
import tempfile
from pathlib import Path

import pytest
from handmade import elementwise_problem
from ortools.sat.python import cp_model

from spyre_sched import api
from spyre_sched.solve import cost, model
from spyre_sched.solve.brute_force import brute_force
from spyre_sched.solve.extract import extract
from spyre_sched.solve.heuristic import v1_choice
from spyre_sched.solve.random_schedule import random_choice
from spyre_sched.solve.solver import solve

ROOT = Path(__file__).resolve().parents[2]
THREE = str(ROOT / "tests" / "schedule" / "devices" / "three_level.mlir")
SMALL_LX = str(ROOT / "tests" / "reductions" / "devices" / "small_lx.mlir")
ONE_DMA = str(ROOT / "tests" / "lower" / "devices" / "sample_one_dma.mlir")


@pytest.mark.parametrize("rows,vecs,objective,capacity", [
    (3, 4, "latency", 2 << 20),
    (4, 2, "latency", 4096),        # capacity binds
    (2, 3, "memory", 3000),
    (5, 1, "latency", 3 * 128 * 3),
])
def test_model_reaches_brute_force_optimum(rows, vecs, objective, capacity):
    problem = elementwise_problem(rows, vecs, capacity=capacity)
    best = brute_force(problem, objective)
    s = solve(problem, objective)
    assert s.stats.status == "OPTIMAL"
    assert cost.objective_key(problem, s.choice, objective) == best[1]
    assert cost.feasible(problem, s.choice)
    if objective == "latency":
        assert s.stats.model_objective == s.cycles


def test_fifo_registers_and_two_programs_reach_brute_force_optimum():
    problem = elementwise_problem(4, 2, programs=2, accumulator=True, fifo_entries=6,
                                  pinned=1024, capacity=8192)
    s = solve(problem)
    best = brute_force(problem)
    assert (s.cycles,) == best[1] and s.stats.model_objective == s.cycles


@functools.cache
def _problem(name: str):
    """Kernels whose parts have each structure the model states (the comments say which)."""
    if name == "row_sum_chunked":  # stages streaming into each other, a nested chunk loop
        sys.path.insert(0, str(ROOT / "tests" / "reductions"))
        import reduction_kernels

        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "row_sum.mlir"
            path.write_text(reduction_kernels.row_sum(2, 16448, 2))
            module, _, _ = api.load_schedule_input(str(path), SMALL_LX)
        return extract(module).problem
    kernel, device = {
        "layernorm": ("bench/kernels/quick/layernorm.mlir", "spyre"),  # fifo, chunk, slack
        "rmsnorm": ("examples/rmsnorm.mlir", "spyre"),      # keep, prefetch slack
        "add": ("bench/kernels/quick/add.mlir", "spyre"),   # shared device memory
        "bias_add_three_level": ("examples/bias_add.mlir", THREE),  # nested pipelines
        "softmax": ("examples/softmax_rows.mlir", "spyre"),  # several programs
        # a nested row-tile stage after the ring read it holds a copy of
        "sharded_rmsnorm": ("bench/kernels/quick/sharded_rmsnorm.mlir", "spyre"),
        # a load after a compute in a pipeline that runs once or twice, by the tiles
        "copy_and_double": ("tests/schedule/kernels/copy_and_double.mlir", "spyre"),
        # one DMA engine fills and drains: it waits for its own landings (`unit_waits`)
        "one_dma_engine": ("tests/lower/kernels/copy_one_dma_engine.mlir", ONE_DMA),
        # a row tile's fetch around a column tile pipeline whose DMA unit waits for its
        # own loads (a nested pipeline's pace counts that unit's idle time)
        "ffn_hidden_in_memory": ("tests/solve/kernels/ffn_hidden_in_memory.mlir",
                                 str(ROOT / "tests" / "solve" / "devices" / "spyre_128k_lx.mlir")),
        "matmul": ("bench/kernels/quick/matmul.mlir", "spyre"),  # the matrix unit
    }[name]
    module, _, _ = api.load_schedule_input(str(ROOT / kernel), device)
    return extract(module).problem


@pytest.mark.parametrize("name", [
    "layernorm", "add", "row_sum_chunked", "one_dma_engine", "sharded_rmsnorm",
    "copy_and_double", "ffn_hidden_in_memory", "matmul",
    *(pytest.param(n, marks=pytest.mark.slow)
      for n in ("rmsnorm", "bias_add_three_level", "softmax")),
])
def test_the_model_equals_the_cost_model_on_random_assignments(name):
    """For any assignment, every part's cycles and shared-memory busy times and every
    program's scratchpad are the exact cost model's: the assignment is forced through
    assumptions (the capacities are assumptions too, left out, so an assignment that does
    not fit is priced as well) and CP-SAT only propagates."""
    problem = _problem(name)
    built = model.build(problem, with_assumptions=True)
    built.model.minimize(built.cycles)  # (a program's floor over its sums is then their max)
    rng = random.Random(7)
    v1 = v1_choice(problem)
    checked = tries = 0
    while checked < 6:
        tries += 1
        assert tries < 200, f"{checked} of 200 random assignments could be checked"
        if checked < 2:  # random feasible schedules
            choice = random_choice(problem, seed=tries)
        else:  # anything, the FIFO depths and chunk kept legal as V1 sets them
            choice = {d.name: v1[d.name] if d.kind in ("fifo", "chunk")
                      else rng.randrange(len(d.candidates)) for d in problem.decisions}
        if any(v.kind in ("within", "instances", "fifo")
               for v in cost.violations(problem, choice)):
            continue  # illegal, not merely too large: the model forbids it outright
        built.model.clear_assumptions()
        built.model.add_assumptions([built.one_hot[d][i] for d, i in choice.items()])
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        assert solver.solve(built.model) in (cp_model.OPTIMAL, cp_model.FEASIBLE), choice
        for part in built.parts:
            cycles, busy = cost.program_parts(problem, part.program, choice)
            assert solver.value(part.cycles) == cycles, (part.program.index, choice)
            for mem, expr in part.shared_busy.items():
                assert solver.value(expr) == busy.get(mem, 0), (mem, choice)
        for p in problem.programs:
            assert solver.value(built.program_bytes[p.index]) == \
                cost.program_scratchpad(problem, p, choice)
            # (the parts together, with what the program's phases hide beyond the least)
            assert solver.value(built.program_cycles[p.index]) == \
                cost.program_cycles(problem, p, choice), (p.index, choice)
        checked += 1
