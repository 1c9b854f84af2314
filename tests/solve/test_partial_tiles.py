"""A tile that does not divide its dim leaves a partial last tile, and the transfers of a
tile loop move the dim's whole extent over its iterations, not N full tiles
(docs/solver.md, "Partial last tiles"): the model's cycles for such a schedule are within
a few percent of the emulator's, and the CP-SAT model states the same figures as the exact
cost model."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

from spyre_sched import api
from spyre_sched.solve import cost, model
from spyre_sched.solve.extract import extract
from spyre_sched.solve.heuristic import v1_choice
from spyre_sched.solve.problem import MEAN_SCALE, Compute, Quantity, Transfer, all_pipelines

from model_agreement import assert_model_equals_exact, emulate_choice, v1_with

ROOT = Path(__file__).resolve().parents[2]
# 32 tiles of 3 x 384 f16: a 2-row tile cuts the 3 rows into 2 + 1
RELU_RESIDUAL = ROOT / "bench" / "kernels" / "quick" / "heldout" / "relu_residual.mlir"


def _problem():
    module, _, _ = api.load_schedule_input(str(RELU_RESIDUAL), "spyre")
    return extract(module).problem


def test_a_tile_loop_moves_the_extent_over_its_iterations():
    """2 x 192 tiles of a 3 x 384 tile: four iterations move 3 x 384 elements, a
    quarter of that each (not 2 x 192)."""
    problem = _problem()
    choice = v1_with(problem, {"p0.tile.lx.d0": 2, "p0.tile.lx.d1": 192})
    (pipe,) = [p for p in all_pipelines(problem.programs[0]) if p.name == "p0.pipe.lx"]
    assert cost.pipeline_iterations(pipe, choice) == 4
    loads = [w for w in pipe.stages[0].work if isinstance(w, Transfer)]
    assert [t.bytes.at(choice) for t in loads] == [3 * 384 * 2 // 4] * 2


def test_a_partial_last_tile_is_priced_at_its_own_size(tmp_path, monkeypatch):
    """2 x 384 tiles: the second of the two iterations moves one row. Pricing it as a
    full tile said +29.6%."""
    values = {"p0.tile.lx.d0": 2, "p0.tile.lx.d1": 384, "p0.pipe.lx.modulo": 6}
    (predicted,), (emulated,) = emulate_choice(RELU_RESIDUAL, values, tmp_path, monkeypatch)
    assert abs(predicted / emulated - 1) < 0.05, (predicted, emulated)


def test_the_model_states_the_partial_tiles_exactly():
    """Assignments of relu_residual with tiles that leave a partial last one (and random
    others): the CP-SAT cycles are the exact cost model's."""
    problem = _problem()
    built = model.build(problem, with_assumptions=True)
    built.model.minimize(built.cycles)
    rng = random.Random(5)
    v1 = v1_choice(problem)
    rows = problem.decision("p0.tile.lx.d0")
    checked = tries = 0
    while checked < 6:
        tries += 1
        assert tries < 200
        choice = {d.name: v1[d.name] if d.kind in ("fifo", "chunk")
                  else rng.randrange(len(d.candidates)) for d in problem.decisions}
        choice[rows.name] = [c.value for c in rows.candidates].index(2)
        if any(v.kind in ("within", "instances", "fifo")
               for v in cost.violations(problem, choice)):
            continue
        assert_model_equals_exact(problem, built, choice, None)
        checked += 1


# 32 tiles of 7 x 192 f16: a tile of 3 rows cuts them into 3 + 3 + 1
ROW_RELU_SUM = ROOT / "bench" / "kernels" / "quick" / "heldout" / "row_relu_sum.mlir"


def test_a_nested_loop_over_a_partial_tiles_rows_counts_their_mean():
    """The per-row pipeline inside a tile of rows runs as many iterations as the tile has
    rows: 3, 3 and 1 for 3-row tiles of 7 rows on one instance, a mean of 7/3, counted as
    2 (the nearest whole count), not as a full tile's 3; on two instances 2, 2 and 1 (a
    mean of 5/3: 2); 4-row tiles (4 + 3, a mean of 3.5) count 4, whole and 1-row tiles
    their rows."""
    module, _, _ = api.load_schedule_input(str(ROW_RELU_SUM), "spyre")
    problem = extract(module).problem
    (inner,) = [p for p in all_pipelines(problem.programs[0]) if p.name.endswith(".inner")]
    for rows, instances, want in ((3, 1, 2), (3, 2, 2), (4, 1, 4), (7, 1, 7), (1, 1, 1)):
        choice = v1_with(problem, {"p0.tile.lx.d0": rows, "p0.distribute.d0": instances})
        assert cost.pipeline_iterations(inner, choice) == want, (rows, instances)


def test_a_partial_tiles_rows_on_one_instance_are_priced_at_their_mean(tmp_path,
                                                                         monkeypatch):
    """3-row tiles of 7 rows, one instance: with the nested rows of a full tile in every
    tile the model said +15.4% (2,130 cycles against 1,845 emulated), with their mean
    rounded to 2 rows -12.8%; at the exact mean 7/3, -3.6% (1,488 against 1,544)."""
    values = {"p0.tile.lx.d0": 3, "p0.pipe.lx.modulo": 4, "p0.distribute.d0": 1}
    (predicted,), (emulated,) = emulate_choice(ROW_RELU_SUM, values, tmp_path, monkeypatch)
    assert abs(predicted / emulated - 1) < 0.06, (predicted, emulated)
    assert predicted < 2130, predicted


# 256 x 512 x 128 on 4 tiles of a 128 KiB scratchpad: B streamed in K chunks
K_STREAMED = ROOT / "tests" / "matmul" / "kernels" / "k_streamed.mlir"
SPYRE_128K = str(ROOT / "tests" / "solve" / "devices" / "spyre_128k_lx.mlir")


def test_a_loop_inside_a_stage_counts_a_partial_chunks_steps_exactly():
    """192-deep chunks of K = 512 run 6, 6 and 4 matrix instructions per block: the
    matrix stage's work per chunk is their mean, 16/3 instructions' worth, rounded once
    (counted as 5 before, the solver took non-dividing chunks for it and predicted a 70B
    model's FFN below its MAC bound); the instructions that must be whole count 5. The
    matrix unit's send of each block's sums (2 KiB at 128 B a cycle) is its work too,
    once per block and chunk. The CP-SAT model states the same figures."""
    module, _, _ = api.load_schedule_input(str(K_STREAMED), SPYRE_128K)
    problem = extract(module).problem
    choice = v1_with(problem, {"p0.tile.lx.d2": 192, "p0.tile.lx.d0": 32,
                               "p0.tile.lx.d1": 64})
    (inner,) = [p for p in all_pipelines(problem.programs[0])
                if p.name == "p0.pipe.lx.d2.s1.inner"]
    (matrix,) = [w for w in inner.stages[1].work if isinstance(w, Compute)]  # load, pt, store
    one_step = 8 * 64 * 32  # an 8 x 32 block of A by a 32 x 64 block of B
    assert matrix.elements.at(choice) == round(one_step * 16 / 3)
    assert matrix.instructions.at(choice) == 5
    assert matrix.sends.at(choice) == 16
    built = model.build(problem, with_assumptions=True)
    built.model.minimize(built.cycles)
    assert_model_equals_exact(problem, built, choice, None)


def test_a_nested_pipeline_over_partial_tiles_runs_its_exact_mean():
    """3-row tiles of 7 rows on one instance: the per-row pipeline runs 3, 3 and 1
    times, a mean of 7/3. Its cycles are those of 2 and of 3 iterations weighted by where
    the mean falls (a third of the way), not those of 2 (the nearest whole count, which
    left a third of a row per tile unpriced); its busy time and pace likewise. The CP-SAT
    model states the same weighting."""
    module, _, _ = api.load_schedule_input(str(ROW_RELU_SUM), "spyre")
    problem = extract(module).problem
    (inner,) = [p for p in all_pipelines(problem.programs[0]) if p.name.endswith(".inner")]
    choice = v1_with(problem, {"p0.tile.lx.d0": 3, "p0.distribute.d0": 1})
    assert inner.mean.at(choice) == -(-7 * MEAN_SCALE // 3)
    two, three = (cost.pipeline_cycles(problem, replace(inner, iterations=Quantity.const(n),
                                                        mean=None), choice)
                  for n in (2, 3))
    assert three > two
    assert cost.pipeline_cycles(problem, inner, choice) == two + round((three - two) / 3)
    # whole means are left as they are: 7-row tiles
    whole = v1_with(problem, {"p0.tile.lx.d0": 7, "p0.distribute.d0": 1})
    assert inner.mean.at(whole) == 7 * MEAN_SCALE
    built = model.build(problem, with_assumptions=True)
    built.model.minimize(built.cycles)
    for rows in (2, 3, 4, 7):
        assert_model_equals_exact(problem, built,
                                  v1_with(problem, {"p0.tile.lx.d0": rows,
                                                    "p0.distribute.d0": 1}), rows)


def test_a_matrix_units_blocks_over_partial_row_tiles_run_their_exact_mean():
    """24-row tiles of k_streamed's 64 rows hold 3, 3 and 2 blocks of 8 rows: the block
    pipeline of each chunk runs 8/3 blocks on average, priced between 2 and 3 (it was 3:
    every tile as a full one); the CP-SAT model states the same."""
    module, _, _ = api.load_schedule_input(str(K_STREAMED), SPYRE_128K)
    problem = extract(module).problem
    choice = v1_with(problem, {"p0.tile.lx.d2": 128, "p0.tile.lx.d0": 24,
                               "p0.tile.lx.d1": 64, "p0.distribute.d0": 1})
    (inner,) = [p for p in all_pipelines(problem.programs[0])
                if p.name == "p0.pipe.lx.d2.s1.inner"]
    assert cost.pipeline_iterations(inner, choice) == 3
    assert inner.mean.at(choice) == -(-8 * MEAN_SCALE // 3)
    built = model.build(problem, with_assumptions=True)
    built.model.minimize(built.cycles)
    assert_model_equals_exact(problem, built, choice, None)
