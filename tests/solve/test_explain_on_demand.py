"""The explanation of each decision (every other candidate costed again) is built only
when someone asks for it: `explain`, `--solver-trace`, or the API's `Schedule.trace`;
`compile -o` and a plain `spyre_sched.compile` never build it. And when it is built, an
alternative is costed on the programs it moves, with the same figures a whole-kernel
re-cost gives."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import spyre_sched
from spyre_sched.cli import main
from spyre_sched.lower.bundle import _prediction, _solver_summary
from spyre_sched.solve import cost, explain

ROOT = Path(__file__).resolve().parents[2]
ADD = ROOT / "examples" / "add_96x64.mlir"
SOFTMAX = ROOT / "examples" / "softmax_rows.mlir"
sys.path.insert(0, str(ROOT / "bench"))

from multi_program import chain_kernel, independent_kernel  # noqa: E402


@pytest.fixture
def explained(monkeypatch) -> list[int]:
    """Counts calls of the explanation builder (one entry per call)."""
    calls: list[int] = []
    original = explain.decision_report

    def counted(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(explain, "decision_report", counted)
    return calls


def run(*args) -> object:
    return CliRunner().invoke(main, [str(a) for a in args])


def test_compile_to_a_bundle_builds_no_explanation(tmp_path: Path, explained) -> None:
    result = run("compile", ADD, "-o", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert explained == []
    result = run("compile", ADD, "--emit", "solved")
    assert result.exit_code == 0, result.output
    assert explained == []


def test_explain_and_solver_trace_build_it_once(tmp_path: Path, explained) -> None:
    result = run("explain", ADD)
    assert result.exit_code == 0, result.output
    assert "why:" in result.output
    assert len(explained) == 1
    trace_file = tmp_path / "trace.json"
    result = run("compile", ADD, "-o", tmp_path / "out", "--solver-trace", trace_file)
    assert result.exit_code == 0, result.output
    assert len(explained) == 2
    trace = json.loads(trace_file.read_text())
    assert all("why" in d for p in trace["programs"] for d in p["decisions"])


def test_the_api_explains_on_first_read_of_the_trace(explained) -> None:
    schedule = spyre_sched.compile(str(SOFTMAX))
    assert explained == []
    assert all("decisions" not in p for p in schedule.summary["programs"])
    trace = schedule.trace
    assert len(explained) == 1
    assert schedule.trace is trace and len(explained) == 1  # built once
    # the trace is the summary plus each program's decisions
    for with_why, without in zip(trace["programs"], schedule.summary["programs"]):
        assert {k: v for k, v in with_why.items() if k != "decisions"} == without
        assert with_why["decisions"] and all(d["why"] for d in with_why["decisions"])
    assert {k: v for k, v in trace.items() if k != "programs"} == \
        {k: v for k, v in schedule.summary.items() if k != "programs"}
    # what the bundle records is the same from either
    assert _solver_summary(schedule.summary) == _solver_summary(trace)
    assert _prediction(schedule.summary) == _prediction(trace)


def _whole_kernel_effect(problem, base, name, index):
    """What changing one decision does, by costing the whole kernel again (a chunk moves
    its FIFOs' depths with it: they are what it is priced at)."""
    alt = dict(base)
    alt[name] = index
    if problem.decision(name).kind == "chunk":
        alt.update(problem.chunk_depths(name, index))
    broken = cost.violations(problem, alt)
    if broken:
        return {"feasible": False, "breaks": [str(v) for v in broken]}
    return {"feasible": True,
            "delta_cycles": cost.kernel_cycles(problem, alt) - cost.kernel_cycles(problem, base),
            "delta_scratchpad": (cost.peak_scratchpad(problem, alt)
                                 - cost.peak_scratchpad(problem, base))}


@pytest.mark.parametrize("kernel", ["softmax_rows", "chain", "heuristic"])
def test_an_alternative_costs_what_the_whole_kernel_recost_says(kernel, tmp_path) -> None:
    if kernel == "chain":
        path = tmp_path / "chain.mlir"
        path.write_text(chain_kernel(3))
        schedule = spyre_sched.compile(str(path), objective="memory")
    elif kernel == "heuristic":
        schedule = spyre_sched.compile(str(SOFTMAX), strategy="heuristic")
    else:
        schedule = spyre_sched.compile(str(SOFTMAX))
    problem, choice = schedule.solution.problem, schedule.solution.choice
    effects = explain._Effects(problem, choice)
    seen_broken = seen_moved = 0
    for d in problem.decisions:
        for i in range(len(d.candidates)):
            if i == choice[d.name]:
                continue
            got = effects.effect(d.name, i)
            want = _whole_kernel_effect(problem, choice, d.name, i)
            assert {k: got[k] for k in want} == want, (d.name, i)
            seen_broken += not want["feasible"]
            seen_moved += bool(want.get("delta_cycles"))
    assert seen_moved  # the comparison covered alternatives that change the objective
    if kernel == "softmax_rows":
        assert seen_broken  # and alternatives that break a constraint


def _program_cycles_calls(kernel_text: str, tmp_path: Path, monkeypatch) -> int:
    path = tmp_path / "k.mlir"
    path.write_text(kernel_text)
    schedule = spyre_sched.compile(str(path))
    calls: list[int] = []
    original = cost.program_cycles

    def counted(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(cost, "program_cycles", counted)
    schedule.trace
    monkeypatch.setattr(cost, "program_cycles", original)
    return len(calls)


def test_the_explanation_costs_each_program_a_fixed_number_of_times(tmp_path, monkeypatch):
    # every alternative re-costs only its own program: twice the programs, twice the calls
    small = _program_cycles_calls(independent_kernel(2), tmp_path, monkeypatch)
    large = _program_cycles_calls(independent_kernel(4), tmp_path, monkeypatch)
    assert small > 0
    assert large == 2 * small
