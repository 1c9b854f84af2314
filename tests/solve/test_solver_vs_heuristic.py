"""The solver's schedule, emulated, is never slower than the V1 heuristic's (equality
allowed) on the example kernels: the cost model ranks schedules the way the emulated
machine does. The add runs by default; every example (spyre: the sample device has one core, too few for their grids)
is opt-in (`pytest -m slow`)."""

from pathlib import Path

import pytest

import spyre_sched
from spyre_sched.emulate import run

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(p.name for p in (ROOT / "examples").glob("*.mlir"))
QUICK = ["add_96x64.mlir"]


def _emulated(kernel: str, device: str, strategy: str) -> tuple[int, int]:
    schedule = spyre_sched.compile(str(ROOT / "examples" / kernel), device=device,
                                   strategy=strategy)
    result = run(schedule)
    assert result.mismatches == []
    return schedule.predicted_cycles, result.cycles


def _check(kernel: str, device: str) -> None:
    solver_pred, solver = _emulated(kernel, device, "solver")
    heur_pred, heuristic = _emulated(kernel, device, "heuristic")
    # the model prefers the solver's schedule (it is the model's optimum) ...
    assert solver_pred <= heur_pred
    # ... and so does the emulated machine
    assert solver <= heuristic, (
        f"{kernel} on {device}: solver {solver} cycles (predicted {solver_pred}), "
        f"heuristic {heuristic} (predicted {heur_pred})")


@pytest.mark.parametrize("kernel", QUICK)
def test_solver_not_slower_than_heuristic_on_spyre(kernel):
    _check(kernel, "spyre")


@pytest.mark.slow
@pytest.mark.parametrize("device", ["spyre"])
@pytest.mark.parametrize("kernel", EXAMPLES)
def test_solver_not_slower_than_heuristic_everywhere(kernel, device):
    _check(kernel, device)
