"""Keeping an input resident: the keep choice as the solver sees it (footprint
against traffic), the fallback to re-reading when the scratchpad does not allow it, the
vector unit's op chain and the overlap of a run-once pipeline's phases in the cost
model, and the kept schedule on the emulator (compulsory traffic, same outputs)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from xdsl.parser import Parser

import spyre_sched
from spyre_sched import api
from spyre_sched.dialects.registry import make_context
from spyre_sched.solve import cost
from spyre_sched.solve.extract import extract, vector_period
from spyre_sched.solve.model import components
from spyre_sched.solve.solver import solve

ROOT = Path(__file__).resolve().parents[2]
RMSNORM = ROOT / "bench/kernels/quick/rmsnorm.mlir"
LAYERNORM = ROOT / "bench/kernels/quick/layernorm.mlir"


def _open_ir(path: Path, pinned: int | None = None) -> str:
    module, _, _ = api.load_schedule_input(str(path), "spyre")
    text = api.print_ir(module)
    if pinned is not None:
        text = text.replace("ktdf.pinned_bytes = 0 : i64", f"ktdf.pinned_bytes = {pinned} : i64")
    return text


def _problem(text: str):
    return extract(Parser(make_context(), text).parse_module()).problem


def test_keep_is_a_decision_with_its_footprint_and_traffic() -> None:
    problem = _problem(_open_ir(RMSNORM))
    keep = problem.decision("p0.keep.X")
    assert keep.kind == "keep" and [c.value for c in keep.candidates] == [0, 1]
    (prog,) = problem.programs
    resident = [b for b in prog.buffers if b.role == "resident"]
    assert len(resident) == 1 and resident[0].bytes.scope == ("p0.keep.X",)
    assert resident[0].bytes.table == {(0,): 0, (1,): 2 * 256 * 2}
    staging = [b for b in prog.buffers if "p0.keep.X" in b.bytes.scope and b.role == "input"]
    assert len(staging) == 2
    for b in staging:  # the staging buffers exist only when X is re-read
        k = b.bytes.scope.index("p0.keep.X")
        assert all(v == 0 for key, v in b.bytes.table.items() if key[k] == 1)
        assert any(v > 0 for key, v in b.bytes.table.items() if key[k] == 0)


def test_keep_does_not_join_the_computes_into_one_table() -> None:
    problem = _problem(_open_ir(LAYERNORM))
    (prog,) = problem.programs
    parts = components(problem, prog)
    with_keep = [p for p in parts if any("p0.keep.X" in q.scope for q in
                                        [b.bytes for b in p.buffers])]
    assert len(parts) >= 3 and len(with_keep) >= 2


@pytest.mark.slow
def test_solver_keeps_x_at_a_proven_optimum() -> None:
    """The solver keeps X, re-reading it would cost more, and CP-SAT proves the optimum
    (the candidates' product, 37.6 G with the FIFO and fetch-depth decisions, is past
    what brute force enumerates; `test_solve_ir` compares with it where it can)."""
    problem = _problem(_open_ir(RMSNORM))
    solution = solve(problem)
    assert problem.decision("p0.keep.X").candidates[solution.choice["p0.keep.X"]].value == 1
    kept = dict(solution.choice, **{"p0.keep.X": 0})
    assert cost.kernel_cycles(problem, kept) > solution.cycles  # re-reading costs traffic
    assert solution.stats.status == "OPTIMAL" and solution.stats.gap == 0
    assert solution.stats.model_objective == solution.cycles == cost.kernel_cycles(
        problem, solution.choice)


def test_re_reads_when_the_scratchpad_does_not_allow_keeping() -> None:
    # 1500 B left: keeping X needs its 1 KiB tile + W's 512 B + Y's smallest tile > 1500;
    # re-reading needs single-row staging tiles only.
    capacity = 2 * 1024 * 1024
    text = _open_ir(RMSNORM, pinned=capacity - 1500)
    schedule = spyre_sched.compile(text, device="spyre")
    (p0,) = schedule.decisions
    assert p0["keep"] == {"p0.keep.X": 0}
    assert schedule.scratchpad_bytes <= capacity
    assert 'role = "resident"' not in schedule.schedule_ir
    assert len(re.findall(r"data_transfer from %Xv", schedule.schedule_ir)) == 2
    roomy = spyre_sched.compile(_open_ir(RMSNORM), device="spyre")
    assert roomy.decisions[0]["keep"] == {"p0.keep.X": 1}
    assert len(re.findall(r"data_transfer from %Xv", roomy.schedule_ir)) == 1


def test_heuristic_re_reads() -> None:
    schedule = spyre_sched.compile(str(RMSNORM), strategy="heuristic")
    assert schedule.decisions[0]["keep"] == {"p0.keep.X": 0}


def test_vector_period_follows_the_op_chain() -> None:
    # x -> extf -> mulf(c) -> truncf: a 3-op chain; the constant is made before the loop
    text = """
    func.func @f(%a: tensor<1x32xf16>) -> tensor<1x32xf16> {
      %e = tensor.empty() : tensor<1x32xf16>
      %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                            affine_map<(d0, d1) -> (d0, d1)>],
                           iterator_types = ["parallel", "parallel"]}
          ins(%a : tensor<1x32xf16>) outs(%e : tensor<1x32xf16>) {
      ^bb0(%x: f16, %o: f16):
        %c = arith.constant 2.0 : f32
        %w = arith.extf %x : f16 to f32
        %m = arith.mulf %w, %c : f32
        %t = arith.truncf %m : f32 to f16
        linalg.yield %t : f16
      } -> tensor<1x32xf16>
      func.return %r : tensor<1x32xf16>
    }
    """
    module = Parser(make_context(), text).parse_module()
    (generic,) = [op for op in module.walk() if op.name == "linalg.generic"]
    # (the lowering hoists it: ready at once); extf 0..1 (ready 7); mulf 7..8 (ready 14);
    # truncf 14..15 (ready 21); send at 21: 22
    assert vector_period(generic, 32, 32, 6) == 22
    # 4 vectors per instruction, every vector op busy 4: extf 0..4 (ready 10); mulf
    # 10..14 (20); truncf 20..24 (30); send: 31
    assert vector_period(generic, 128, 32, 6) == 31


def test_vector_period_of_a_reduction_within_the_vector() -> None:
    # a row's max in one step: the lowering issues reduce, shuffle, then the combine with
    # the accumulator, each waiting for the one before, and sends the result: the inputs
    # span the iteration space (no broadcast shuffle)
    text = """
    func.func @f(%a: tensor<1x32xf16>, %i: tensor<1xf16>) -> tensor<1xf16> {
      %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                            affine_map<(d0, d1) -> (d0)>],
                           iterator_types = ["parallel", "reduction"]}
          ins(%a : tensor<1x32xf16>) outs(%i : tensor<1xf16>) {
      ^bb0(%x: f16, %acc: f16):
        %m = arith.maximumf %x, %acc : f16
        linalg.yield %m : f16
      } -> tensor<1xf16>
      func.return %r : tensor<1xf16>
    }
    """
    module = Parser(make_context(), text).parse_module()
    (generic,) = [op for op in module.walk() if op.name == "linalg.generic"]
    # reduce 0..1 (ready 7, in the accumulator's shape); maximumf 7..8 (14); send at 14:
    # 15, as the emulator runs it (22 while a shuffle sat between the two)
    assert vector_period(generic, 32, 64, 6) == 15


def test_layernorm_normalisation_costs_its_chain() -> None:
    problem = _problem(_open_ir(LAYERNORM))
    periods = []

    def visit(p):
        for st in p.stages:
            for w in st.work:
                if hasattr(w, "period") and w.period.at({d: 0 for d in w.period.scope}):
                    periods.append(w.period.at({d: 0 for d in w.period.scope}))
                elif hasattr(w, "stages"):
                    visit(w)
    for p in problem.programs[0].pipelines:
        visit(p)
    # one normalised vector: its dependent ops' chain, the constants (eps, 1/n) made once
    # before the loop (82 while they were made for every vector)
    assert 60 in periods


@pytest.mark.parametrize("path", [RMSNORM, LAYERNORM], ids=lambda p: p.stem)
def test_kept_schedule_moves_compulsory_traffic_and_matches(path: Path) -> None:
    schedule = spyre_sched.compile(str(path), device="spyre")
    assert schedule.decisions[0]["keep"] == {"p0.keep.X": 1}
    result = spyre_sched.run(schedule, seed=0)
    assert result.matches
    loaded = {k: v for k, v in result.datapath_bytes.items() if k.endswith("dma_load->core0.lx")}
    # X's 2x256 f16 tile once, plus the broadcast rows (W, or gamma and beta) once
    broadcast = 512 if path == RMSNORM else 1024
    assert loaded == {"core0.dma_load->core0.lx": 2 * 256 * 2 + broadcast}
    # the model follows the emulator on these schedules (within 15%: on the quick shapes
    # the cores' stores are neither fully ordered nor fully colliding in device memory;
    # the full-size figures are in docs/benchmarks.md)
    assert abs(result.predicted_cycles - result.cycles) <= 0.15 * result.cycles
