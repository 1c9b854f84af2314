"""A store of a whole row block after a pass of small loads is priced with the cores
nearly together (`Stage.stagger_spread`). The solver's schedule of the full-size RMSNorm
used to keep each core's 32 x 1024 row block resident for the normalisation and store
its output once, at the end of the pass: the 32 cores stored 64 KiB each at about the
same time, about 14,000 cycles of device memory, which the model priced at the core's
own speed (532 cycles), the earlier loads taken to have spread the cores out. They
spread them by about one load's share (~870 cycles): predicted 28,403 cycles for 35,747
emulated (-20.5%). Priced right, the solver tiles the normalisation pass and stores while
it computes: 29,677 cycles emulated, 30,077 predicted (layernorm 56,166 -> 47,457)."""

from __future__ import annotations

from pathlib import Path

import pytest

import spyre_sched

KERNELS = Path(__file__).parents[2] / "bench" / "kernels"


@pytest.mark.slow
@pytest.mark.parametrize("name", ["rmsnorm", "layernorm"])
def test_a_whole_row_blocks_store_after_its_pass_is_priced_with_the_cores_together(name):
    schedule = spyre_sched.compile(str(KERNELS / f"{name}.mlir"))
    result = spyre_sched.run(schedule)
    assert result.matches
    assert abs(schedule.predicted_cycles / result.cycles - 1) <= 0.05, (
        schedule.predicted_cycles, result.cycles)


def test_the_store_stage_gains_at_most_the_earlier_loads_spread():
    """The model alone (no emulation): the full-size RMSNorm's normalisation store is
    marked staggered by the statistics pass's loads, and on the old schedule (the row
    block whole, stored once) its fill pays every core's share beyond their spread: one
    iteration of those loads (a tile of X) at every core's share less at its own speed."""
    from spyre_sched.solve import cost
    from spyre_sched.solve.problem import Pipeline

    schedule = spyre_sched.compile(str(KERNELS / "rmsnorm.mlir"))
    problem, choice = schedule.solution.problem, dict(schedule.solution.choice)
    old = {"p0.c1.tile.lx.d0": 32, "p0.c1.tile.lx.d1": 1024, "p0.c1.pipe.lx.modulo": 1}
    for name, value in old.items():
        candidates = [c.value for c in problem.decision(name).candidates]
        choice[name] = candidates.index(value)

    def stages(p):
        for st in p.stages:
            yield st
            for w in st.work:
                if isinstance(w, Pipeline):
                    yield from stages(w)

    marked = [st for prog in problem.programs for p in prog.pipelines for st in stages(p)
              if st.stagger_spread]
    store = next(st for st in marked if st.engine == "dma_store")
    rows = problem.decision("p0.tile.lx.d0").candidates[choice["p0.tile.lx.d0"]].value
    tile = rows * 1024 * 2  # the statistics pass's tile of X, f16
    spread = cost.stagger_spread(store, choice)["ddr"]
    assert spread == -(-tile * 32 // 150) - -(-tile // 128)
    w = store.work[0]
    everyone = cost.transfer_one_shot(w, choice)
    alone = cost.transfer_alone(w, choice)
    assert everyone - alone > 10 * spread  # 64 KiB per core: far beyond the spread
    assert cost.stage_fill(problem, store, choice, store.staggered) == everyone - spread
    assert cost.stage_fill(problem, store, choice, store.staggered, spread=False) == alone


def test_a_load_a_keep_choice_could_empty_spreads_the_cores_when_it_runs():
    """The quick sharded RMSNorm's read-back program (random schedule, seed 1) loads its
    row tile of X from device memory (a load a keep choice could empty: X kept from the
    statistics program) and then stores the output tile. Counted only when it surely
    moves bytes, X's load did not spread the cores for the store, which then paid every
    core's share (212 cycles, 28 emulated): predicted 1,858 cycles for 1,666 (+11.5%).
    The spread is read at the choice, so a load the choice empties spreads nothing."""
    from spyre_sched.solve import cost
    from spyre_sched.solve.problem import Pipeline

    quick = KERNELS / "quick" / "sharded_rmsnorm.mlir"
    schedule = spyre_sched.compile(str(quick), strategy="random", seed=1)
    problem, choice = schedule.solution.problem, schedule.solution.choice
    (pipe,) = problem.programs[1].pipelines
    (outer,) = pipe.stages[1].work
    (rows,) = outer.stages[1].work
    assert isinstance(rows, Pipeline)
    load, _, store = rows.stages
    (x,) = [w for w in load.work if w.shared_memory == "ddr"]
    assert x.bytes.least() == 0 < x.bytes.at(choice)
    groups = dict(store.stagger_spread)["ddr"]
    assert any(x in group for group in groups)
    assert cost.stagger_spread(store, choice)["ddr"] == cost.share_excess(x, choice)
    result = spyre_sched.run(schedule)
    assert result.matches
    assert abs(result.predicted_cycles - result.cycles) <= 0.05 * result.cycles, (
        result.predicted_cycles, result.cycles)
