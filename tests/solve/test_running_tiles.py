"""A program the orchestrator calls under a condition on the tile id runs only on the
cores that take it (the job plan evaluates the condition per core): extraction prices it
for them, so device memory and the ring are shared among those cores, not all."""

from __future__ import annotations

from pathlib import Path

from spyre_sched import api
from spyre_sched.solve.extract import _programs, extract
from spyre_sched.solve.problem import Transfer, all_pipelines
from spyre_sched.solve.running_tiles import running_tiles

ROOT = Path(__file__).resolve().parents[2]
GUARDED = ROOT / "tests" / "lower" / "kernels" / "guarded_grid.mlir"


def _sharers(program) -> set[int]:
    return {w.sharers for p in all_pipelines(program) for st in p.stages for w in st.work
            if isinstance(w, Transfer) and w.shared_memory == "ddr"}


def test_each_branch_of_a_tile_condition_runs_on_its_cores():
    """On the 4x8 grid, tiles in the first three column blocks take the then branch (12
    tiles), the rest the else branch (20); the linear id runs down a column first, so
    the column is id // 4."""
    module, _, _ = api.load_schedule_input(str(GUARDED), "spyre")
    orchestrator, funcs = _programs(module)
    runs = running_tiles(orchestrator, 32)
    by_program = {f.sym_name.data: runs[f.sym_name.data] for _, f in funcs}
    assert sorted(by_program.values()) == sorted(
        [tuple(range(12)), tuple(range(12, 32))])
    problem = extract(module).problem
    assert sorted(s for p in problem.programs for s in _sharers(p)) == [12, 20]
