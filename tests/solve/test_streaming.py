"""Stages joined only by FIFOs stream into each other (`solve/streaming.py`): a chunked
reduction's chunk pipeline (DMA into the scratchpad, load into the FIFO) runs under the
sfu's sum instead of before it. Figures worked out by hand."""

from __future__ import annotations

from dataclasses import replace

from spyre_sched.solve import cost, streaming
from spyre_sched.solve.model import components, separate
from spyre_sched.solve.problem import (
    Buffer,
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


def _chunked(chunks=16, steps=512, chunk_bytes=2048, streams=True, modulos=(2,)):
    """rows x chunks of a row sum: [dma -> lx_load] per chunk, then the sfu's carried sum
    over `steps` vectors, then one store of the result."""
    mod = Decision("p0.chunk.modulo", "modulo", 0, tuple(Candidate(m) for m in modulos))
    dma = Transfer("chunk", Quantity.const(chunk_bytes), 128, 320)
    vectors = Transfer("vectors", Quantity.const(chunk_bytes), 128, 4)
    chunk = Pipeline("p0.chunk", Quantity.const(chunks), (
        Stage("dma", "dma_load", (dma,)), Stage("load", "lx_load", (vectors,))),
        modulo=mod.name)
    total = Compute("sum", Quantity.const(steps * 32), 2, 32, latency=6,
                    steps=Quantity.const(steps), points=32)
    store = Transfer("store", Quantity.const(4), 128, 4)
    inner = Pipeline("p0.inner", Quantity.const(1), (
        Stage("s0", "dma+load", (chunk,)), Stage("s1", "sfu", (total,)),
        Stage("s2", "lx_store", (store,))), modulo=16, streams=streams)
    outer = Pipeline("p0", Quantity.const(1), (Stage("c", "all", (inner,)),))
    program = Program(0, "p", (outer,), (Buffer("chunk", Quantity.const(chunk_bytes), mod.name),))
    return Problem("k", "d", 1 << 20, (mod,), (program,)), inner, chunk, total


def test_the_sum_runs_under_the_chunks_and_only_the_first_chunk_is_waited_for():
    problem, inner, chunk, total = _chunked()
    choice = {"p0.chunk.modulo": 0}
    # one chunk: DMA 16 + 320, then its vectors 16 + 4: 356; 16 chunks: the DMA engine's
    # steady max(16, ceil(336 / 2)) = 168 -> 356 + 15 x 168 = 2876
    assert cost.pipeline_profile(problem, chunk, choice)[0] == 356
    t0 = cost.pipeline_cycles(problem, chunk, choice)
    assert t0 == 356 + 15 * 168 == 2876
    # the sum: throughput 512 x 2 = 1024, chain 512 x (1 + 2 x 6) = 6656, latency 6
    t1 = cost.stage_one_iteration(problem, inner.stages[1], choice)
    assert t1 == 1024 + 6656 + 6 == 7686
    t2 = cost.stage_one_iteration(problem, inner.stages[2], choice)
    assert t2 == 1 + 4
    # the sfu is the slowest: the first chunk, the whole sum, the store
    assert cost.pipeline_cycles(problem, inner, choice) == 356 + t1 + t2
    added = cost.pipeline_cycles(problem, replace_streams(inner, False), choice)
    assert added == t0 + t1 + t2


def test_when_the_chunks_are_slower_the_sum_adds_only_its_last_step():
    problem, inner, chunk, total = _chunked(chunks=64, steps=64, chunk_bytes=8192)
    choice = {"p0.chunk.modulo": 0}
    t0 = cost.pipeline_cycles(problem, chunk, choice)
    t1 = cost.stage_one_iteration(problem, inner.stages[1], choice)
    assert t0 > t1
    last_step = -(-t1 // 64)
    assert cost.pipeline_cycles(problem, inner, choice) == t0 + last_step + 5


def test_only_streaming_pipelines_with_a_nested_stage_change():
    problem, inner, _, _ = _chunked()
    assert streaming.overlaps(inner)
    assert not streaming.overlaps(replace_streams(inner, False))
    flat = Pipeline("p", Quantity.const(1), inner.stages[1:], modulo=16, streams=True)
    assert not streaming.overlaps(flat)  # no nested stage: the sum, as before


def test_the_solver_keeps_a_streaming_pipeline_whole_and_agrees_with_the_cost_model():
    problem, inner, _, _ = _chunked(modulos=(1, 2, 3))
    # a run-once pipeline is split into one part per stage when its cost is their sum;
    # a streaming one is not a sum, so it stays whole
    (part,) = separate(inner)
    assert part is inner
    parts = components(problem, problem.programs[0])
    assert len(parts) == 1
    solution = solve(problem)
    best = min(cost.kernel_cycles(problem, {"p0.chunk.modulo": i}) for i in range(3))
    assert solution.cycles == best


def replace_streams(p: Pipeline, streams: bool) -> Pipeline:
    return replace(p, streams=streams)


def _fed_matmul(instructions=8, a_bytes=256, b_bytes=4096, macs=262144, streams=True):
    """One pass of a core's matmul tile: the load unit reads each K chunk's operands (A's
    rows, B's chunk) from the scratchpad into the FIFOs, the matrix unit runs one
    instruction per chunk, the store unit writes C's block."""
    k_chunks = Quantity.const(instructions)
    loads = (Transfer("a", Quantity.const(a_bytes * instructions), 128, 2),
             Transfer("b", Quantity.const(b_bytes * instructions), 128, 2))
    matmul = Compute("mm", Quantity.const(macs), 1, 64, latency=16, points=64,
                     instructions=k_chunks)
    store = Transfer("c", Quantity.const(512), 128, 4)
    inner = Pipeline("p0.inner", Quantity.const(1), (
        Stage("s0", "lx_load", loads), Stage("s1", "pt", (matmul,)),
        Stage("s2", "lx_store", (store,))), modulo=8, streams=streams)
    outer = Pipeline("p0", Quantity.const(1), (Stage("c", "all", (inner,)),))
    program = Program(0, "p", (outer,), ())
    return Problem("k", "d", 1 << 20, (), (program,)), inner


def test_loads_feeding_matrix_instructions_run_under_them():
    problem, inner = _fed_matmul()
    assert streaming.overlaps(inner)
    t0, t1, t2 = (cost.stage_one_iteration(problem, st, {}) for st in inner.stages)
    assert t1 > t0 > 8  # the matrix unit is the slowest; the loads are more than a chunk's
    # the matrix unit starts once the first instruction's operands are in (1/8 of the
    # loads) and the store follows its last instruction
    assert cost.pipeline_cycles(problem, inner, {}) == -(-t0 // 8) + t1 + t2
    assert cost.pipeline_cycles(problem, replace_streams(inner, False), {}) == t0 + t1 + t2


def test_loads_slower_than_the_matrix_unit_leave_it_only_its_last_instruction():
    problem, inner = _fed_matmul(b_bytes=65536, macs=16384)
    t0, t1, t2 = (cost.stage_one_iteration(problem, st, {}) for st in inner.stages)
    assert t0 > t1
    last = -(-(t1 - 16) // 8) + 16  # the last instruction and the unit's latency
    assert cost.pipeline_cycles(problem, inner, {}) == t0 + last + t2


def test_one_instruction_is_waited_for_whole():
    problem, inner = _fed_matmul(instructions=1)
    assert not streaming.overlaps(inner)  # nothing to start on early: the sum
    t0, t1, t2 = (cost.stage_one_iteration(problem, st, {}) for st in inner.stages)
    assert cost.pipeline_cycles(problem, inner, {}) == t0 + t1 + t2


def test_the_solver_states_the_fed_head_as_the_cost_model_does():
    # the instructions a decision sets (K chunks of 4 or 8): the head is the loads' fill
    # over a variable, stated in CP-SAT by a division; its optimum is the cost model's
    chunks = Decision("p0.k", "tile", 0, (Candidate(4), Candidate(8)))
    problem, inner = _fed_matmul()
    matmul = replace(inner.stages[1].work[0],
                     instructions=Quantity(("p0.k",), {(0,): 4, (1,): 8}))
    inner = replace(inner, stages=(inner.stages[0], replace(inner.stages[1], work=(matmul,)),
                                   inner.stages[2]))
    outer = Pipeline("p0", Quantity.const(1), (Stage("c", "all", (inner,)),))
    problem = replace(problem, decisions=(chunks,),
                      programs=(replace(problem.programs[0], pipelines=(outer,)),))
    costs = [cost.kernel_cycles(problem, {"p0.k": i}) for i in range(2)]
    assert costs[1] < costs[0]  # the first of 8 chunks comes sooner than the first of 4
    solution = solve(problem)
    assert solution.choice == {"p0.k": 1}
    assert solution.cycles == costs[1]
