"""The phases of a program (the stages of its run-once pipeline) join as the emulator runs
them: a phase's loads are issued as soon as the DMA unit is free, its compute starts when
they have landed and the phase before has computed (docs/solver.md, "Phases overlap").
The exact cost model prices the chosen schedule's own idle DMA time; the CP-SAT model,
whose parts keep each phase's least slack, adds the rest, and equals it."""

from __future__ import annotations

import itertools

from ortools.sat.python import cp_model

from spyre_sched.solve import cost, model
from spyre_sched.solve.brute_force import brute_force
from spyre_sched.solve.problem import (
    Candidate,
    Compute,
    Decision,
    Pipeline,
    Problem,
    Program,
    Quantity,
    Stage,
    Transfer,
)
from spyre_sched.solve.solver import solve

LOAD_OCCUPANCY, LOAD_LATENCY = 10, 100  # 1280 bytes at 128 per cycle, landing 100 later


def _model_equals_exact_on_every_assignment(problem: Problem) -> None:
    """The CP-SAT model's cycles equal the exact cost model's for every assignment."""
    built = model.build(problem)
    built.model.minimize(built.cycles)
    names = [d.name for d in problem.decisions]
    for values in itertools.product(*(range(len(d.candidates)) for d in problem.decisions)):
        choice = dict(zip(names, values))
        built.model.clear_assumptions()
        built.model.add_assumptions([built.one_hot[d][i] for d, i in choice.items()])
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        assert solver.solve(built.model) == cp_model.OPTIMAL
        assert solver.value(built.cycles) == cost.kernel_cycles(problem, choice), choice


def _phase(name: str, d: Decision, iterations: int = 1, modulo: str | int = 1) -> Stage:
    """One phase: a load from device memory, then a compute of `d`'s vectors (one cycle
    each, latency 6)."""
    load = Transfer(f"{name}.load", Quantity.const(1280), 128, LOAD_LATENCY,
                    shared_bandwidth=1 << 20, sharers=1, source="ddr", target="lx",
                    shared_memory="ddr")
    work = Compute(f"{name}.c", Quantity.of([d], lambda c: 64 * c.value), 1, 64, latency=6)
    inner = Pipeline(name, Quantity.const(iterations), (
        Stage(f"{name}.ld", "dma_load", (load,)), Stage(f"{name}.c", "sfu", (work,))),
        modulo=modulo)
    return Stage(name, "dma+sfu", (inner,))


def _problem(second_iterations: int = 1) -> Problem:
    ds = [Decision(f"p0.{x}", "tile", 0, (Candidate(1), Candidate(100))) for x in "abc"]
    modulo: str | int = 1
    if second_iterations > 1:
        ds.append(Decision("p0.b.modulo", "modulo", 0, (Candidate(1), Candidate(2))))
        modulo = "p0.b.modulo"
    phases = Pipeline("pipe0", Quantity.const(1), (
        _phase("a", ds[0]), _phase("b", ds[1], second_iterations, modulo), _phase("c", ds[2])))
    return Problem("k", "d", 1 << 20, tuple(ds), (Program(0, "p", (phases,)),))


def _choice(a: int, b: int, c: int) -> dict[str, int]:
    return {"p0.a": a, "p0.b": b, "p0.c": c}


ONE = LOAD_OCCUPANCY + LOAD_LATENCY  # a phase's load, issued to landed


def test_a_long_first_phase_hides_the_next_phases_loads():
    """Phase a computes 100 cycles: b's load (issued when a's is, 10 cycles later) has
    landed long before, and so has c's (issued 10 cycles after b's), although b's own
    compute (1 cycle) is far shorter than c's load: the idle time a left over carries."""
    problem = _problem()
    a_end = ONE + 100 + 6
    assert cost.kernel_cycles(problem, _choice(1, 0, 0)) == a_end + (1 + 6) + (1 + 6)


def test_a_short_first_phase_hides_part_of_the_next_load():
    """Phase a computes 1 cycle and is done at 117: b's load, issued at 10, lands at 120,
    so b computes from 120 to 127; c's load, issued at 20, lands at 130, and c computes
    from 130 to 137. (Summing the phases, less the least idle time, said more.)"""
    problem = _problem()
    b_end = LOAD_OCCUPANCY + ONE + 1 + 6
    c_end = 2 * LOAD_OCCUPANCY + ONE + 1 + 6
    assert (b_end, c_end) == (127, 137)
    assert cost.kernel_cycles(problem, _choice(0, 0, 0)) == c_end


def test_a_phase_whose_iterations_each_have_a_copy_issues_its_loads_at_once():
    """Phase b runs two iterations; with two copies the DMA issues both loads back to back
    and is idle for the rest of b (its tail), with one copy the second load waits for the
    first iteration's compute."""
    problem = _problem(second_iterations=2)
    b = problem.programs[0].pipelines[0].stages[1]
    inner = b.work[0]
    both = {**_choice(0, 1, 0), "p0.b.modulo": 1}
    alone = {**_choice(0, 1, 0), "p0.b.modulo": 0}
    assert cost._tail(problem, b, "dma_load", both, {}) == \
        cost.pipeline_cycles(problem, inner, both) - 2 * LOAD_OCCUPANCY
    assert cost._tail(problem, b, "dma_load", alone, {}) == LOAD_LATENCY + 100 + 6


def test_the_model_equals_the_cost_model_on_every_assignment():
    """The parts hold each phase's least slack; the program's term adds the rest: CP-SAT's
    program cycles are the exact model's for every assignment, and its optimum is brute
    force's."""
    for problem in (_problem(), _problem(second_iterations=2)):
        _model_equals_exact_on_every_assignment(problem)
        s = solve(problem)
        assert (s.cycles,) == brute_force(problem)[1]
        assert s.stats.model_objective == s.cycles


def test_a_later_phase_store_is_staggered_its_loads_are_not():
    """The first load through device memory serves the cores one after another; a later
    phase's store, after that phase's compute, finds them in that order and pays its own
    time in the fill, while the later phase's load (issued as soon as the DMA is free, by
    every core at once) still pays all cores' share."""
    from spyre_sched.solve.extract import _stores_staggered

    def ddr(name, source, target):
        return Transfer(name, Quantity.const(1024), 128, 20, shared_bandwidth=150, sharers=32,
                        source=source, target=target, shared_memory="ddr")

    work = Compute("c", Quantity.const(64), 1, 64, latency=6)
    later = Pipeline("later", Quantity.const(1), (
        Stage("ld", "dma_load", (ddr("x", "ddr", "lx"),)), Stage("c", "sfu", (work,)),
        Stage("st", "dma_store", (ddr("y", "lx", "ddr"),))), modulo=1)
    first = Pipeline("first", Quantity.const(1), (
        Stage("ld", "dma_load", (ddr("w", "ddr", "lx"),)), Stage("c", "sfu", (work,))))
    program = Pipeline("pipe0", Quantity.const(1), (
        Stage("a", "dma+sfu", (first,)), Stage("b", "dma+sfu", (later,))))
    marked = _stores_staggered(program, frozenset())
    ld, _, st = marked.stages[1].work[0].stages
    assert (ld.staggered, st.staggered) == ((), ("ddr",))
    assert marked.stages[0].work[0].stages[0].staggered == ()  # (the first load orders them)
    problem = Problem("k", "d", 1 << 20, (), (Program(0, "p", (marked,)),))
    store = marked.stages[1].work[0].stages[2]
    assert cost.stage_fill(problem, store, {}, store.staggered) == \
        -(-1024 // 128) + 20 < -(-1024 * 32 // 150) + 20  # (its own path's bandwidth)


def test_a_hoisted_load_pays_its_latency_when_the_next_load_is_not_issued():
    """W (hoisted) then a phase loading X: the unit issues X right behind W and the two
    latencies run side by side; with X kept resident its load moves nothing and is not
    issued, so W's landing is paid whole. Both models agree on both choices."""
    keep = Decision("p0.keep.X", "keep", 0, (Candidate(0), Candidate(1)))
    w = Transfer("w", Quantity.const(1280), 128, LOAD_LATENCY, source="ddr", target="lx")
    x = Transfer("x", Quantity.of([keep], lambda k: 0 if k.value else 1280), 128,
                 LOAD_LATENCY, source="ddr", target="lx")
    work = Compute("c", Quantity.const(64), 1, 64, latency=6)
    phase = Pipeline("x", Quantity.const(1), (
        Stage("x.ld", "dma_load", (x,)), Stage("x.c", "sfu", (work,))), modulo=1)
    pipe = Pipeline("pipe0", Quantity.const(1), (
        Stage("w", "dma_load", (w,)), Stage("phase", "dma+sfu", (phase,))))
    problem = Problem("k", "d", 1 << 20, (keep,), (Program(0, "p", (pipe,)),))
    loaded, kept = {"p0.keep.X": 0}, {"p0.keep.X": 1}
    assert cost.kernel_cycles(problem, loaded) == LOAD_OCCUPANCY + ONE + 1 + 6
    assert cost.kernel_cycles(problem, kept) == ONE + 1 + 6
    built = model.build(problem)
    built.model.minimize(built.cycles)
    for choice in (loaded, kept):
        built.model.clear_assumptions()
        built.model.add_assumptions([built.one_hot[d][i] for d, i in choice.items()])
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        assert solver.solve(built.model) == cp_model.OPTIMAL
        assert solver.value(built.cycles) == cost.kernel_cycles(problem, choice)


def _shared_phase(name: str, share: Decision, d: Decision) -> Stage:
    """A phase reading a shared input: the direct read from device memory when not shared
    (0), the copy out of the region earlier programs gathered when shared (1), then a
    compute of `d`'s vectors."""
    direct = Transfer(f"{name}.direct", Quantity.of([share], lambda s: 0 if s.value else 1280),
                      128, LOAD_LATENCY, shared_bandwidth=1 << 20, sharers=1, source="ddr",
                      target="lx", shared_memory="ddr")
    gathered = Transfer(f"{name}.gathered",
                        Quantity.of([share], lambda s: 1280 if s.value else 0), 128, 0,
                        source="lx", target="lx", ready=True)
    work = Compute(f"{name}.c", Quantity.of([d], lambda c: 64 * c.value), 1, 64, latency=6)
    inner = Pipeline(name, Quantity.const(1), (
        Stage(f"{name}.ld", "dma_load", (gathered, direct)), Stage(f"{name}.c", "sfu", (work,))),
        modulo=1)
    return Stage(name, "dma+sfu", (inner,))


def test_a_gathered_read_is_issued_while_the_phase_before_computes():
    """A shared input's read waits for nothing of its program, whichever form the share
    choice leaves moving bytes (the copy out of the gathered region or the direct read):
    phase b's read is issued as soon as a's has been, so a's 100-cycle compute hides it;
    before, the gathered form (not a load of device memory) made b wait for a's end.
    Both models agree on every assignment."""
    share = Decision("p0.share.W", "share", 0, (Candidate(0), Candidate(1)))
    ds = [Decision(f"p0.{x}", "tile", 0, (Candidate(1), Candidate(100))) for x in "ab"]
    pipe = Pipeline("pipe0", Quantity.const(1), (
        _shared_phase("a", share, ds[0]), _shared_phase("b", share, ds[1])))
    problem = Problem("k", "d", 1 << 20, (share, *ds), (Program(0, "p", (pipe,)),))
    direct, gathered = ({"p0.share.W": s, "p0.a": 1, "p0.b": 0} for s in (0, 1))
    assert cost.kernel_cycles(problem, direct) == ONE + 100 + 6 + 1 + 6
    assert cost.kernel_cycles(problem, gathered) == LOAD_OCCUPANCY + 100 + 6 + 1 + 6
    _model_equals_exact_on_every_assignment(problem)
