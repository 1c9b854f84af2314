"""The CP-SAT model grows with the sum of a program's candidates, not their product: the
3-D add of `bench/solve_scale.py` at its quick and full shapes has ~15x as many tile
combinations at full size but a model of about the same size, no table of a figure reads
all three tiles at once (a tile loop's mean bytes per iteration are a quotient of small
tables, docs/solver.md "Partial last tiles"), and both solve to optimality. Sizes and
statuses are asserted, never time."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

from spyre_sched.api import load_schedule_input
from spyre_sched.solve import cost, model
from spyre_sched.solve.extract import extract
from spyre_sched.solve.solver import solve

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

from solve_scale import add3d  # noqa: E402

SHAPES = {"quick": (64, 1024, 4096), "full": (512, 4096, 16384)}


def _problem(tmp_path: Path, shape: tuple[int, int, int]):
    path = tmp_path / "add3d.mlir"
    path.write_text(add3d(*shape))
    module, _, _ = load_schedule_input(str(path), "spyre")
    return extract(module).problem


def _tiles(problem) -> int:
    return math.prod(len(d.candidates) for d in problem.decisions if d.kind == "tile")


def _largest_table(built) -> int:
    """The most entries of an element constraint (a table over several decisions)."""
    most = 0
    for ct in built.model.proto.constraints:
        if ct.HasField("element") if hasattr(ct, "HasField") else ct.has_element():
            most = max(most, len(ct.element.exprs))
    return most


def test_the_model_grows_with_the_sum_of_the_candidates(tmp_path: Path):
    sizes = {}
    for name, shape in SHAPES.items():
        problem = _problem(tmp_path, shape)
        built = model.build(problem)
        sizes[name] = (_tiles(problem), built.num_variables + built.num_constraints,
                       _largest_table(built))
    (quick_tiles, quick_size, _), (full_tiles, full_size, full_table) = \
        sizes["quick"], sizes["full"]
    assert full_tiles > 10 * quick_tiles, sizes
    assert full_size < 2 * quick_size, sizes
    # (the one table left is a compute's, over a chunk, an instance count and one tile)
    assert full_table < full_tiles // 10, sizes


@pytest.mark.parametrize("name", list(SHAPES))
def test_the_3d_add_solves_to_optimality(tmp_path: Path, name: str):
    problem = _problem(tmp_path, SHAPES[name])
    s = solve(problem)
    assert s.stats.status == "OPTIMAL", s.stats
    assert s.cycles == cost.kernel_cycles(problem, s.choice)
