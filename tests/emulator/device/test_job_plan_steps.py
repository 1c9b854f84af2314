"""The runtime's walk over job-plan steps (emulator/job_plan.py): run-time loops, launch-time
conditions, per-core conditions on the tile id, and malformed plans."""

from __future__ import annotations

import pytest

from emulator.job_plan import Execution, check_steps, evaluate
from spyre_sched.errors import ExecutionError, ParseError


def _call(program: str, call: int = 0) -> list[dict]:
    return [{"step": "evaluate_symbols", "program": program, "call": call,
             "bindings": {"i": ["arg", "i"]} if program == "loop" else {}, "symbols": [0] if program == "loop" else []},
            {"step": "write_symbols", "program": program, "call": call},
            {"step": "launch", "program": program, "call": call}]


def _run(steps: list[dict], env: dict[str, int], grid=(4, 2)):
    launched = []
    symbols = {0: {"id": 0, "kind": "shape", "expr": ["mul", ["arg", "i"], 2]}}
    execution = Execution(list(grid), lambda p, s, cores, label: launched.append((p, dict(s), cores, label)),
                          symbols, lambda entry, value: None)
    execution.run(steps, env)
    return launched


def test_a_run_time_loop_launches_once_per_counter_value() -> None:
    steps = [{"step": "for", "var": "i", "lb": 0, "ub": ["arg", "n"], "stride": 64, "body": _call("loop")}]
    launched = _run(steps, {"n": 192})
    assert [(s[0], s[1], s[3]) for s in launched] == [
        ("loop", {0: 0}, "loop#0[i=0]"), ("loop", {0: 128}, "loop#0[i=64]"), ("loop", {0: 256}, "loop#0[i=128]")]
    assert all(s[2] is None for s in launched)  # every core
    assert _run(steps, {"n": 0}) == []


def test_a_launch_time_condition_picks_one_branch() -> None:
    steps = [{"step": "if", "cond": ["ne", ["arg", "f"], 0], "then": _call("a"), "else": _call("b", 1)}]
    assert [s[0] for s in _run(steps, {"f": 1})] == ["a"]
    assert [s[0] for s in _run(steps, {"f": 0})] == ["b"]


def test_a_condition_on_a_tile_coordinate_launches_on_the_cores_where_it_holds() -> None:
    # grid [4, 2]: core t is tile (t % 4, t // 4)
    steps = [{"step": "if", "cond": ["eq", ["tile", 1], 1], "then": _call("a"),
              "else": [{"step": "if", "cond": ["slt", ["tile"], 2], "then": _call("b", 1), "else": []}]}]
    launched = _run(steps, {})
    assert [(s[0], s[2]) for s in launched] == [("a", frozenset({4, 5, 6, 7})), ("b", frozenset({0, 1}))]


def test_a_condition_false_on_every_core_launches_nothing() -> None:
    steps = [{"step": "if", "cond": ["sgt", ["tile"], 100], "then": _call("a"), "else": []}]
    assert _run(steps, {}) == []


def test_the_tile_id_outside_a_per_core_condition_is_an_error() -> None:
    with pytest.raises(ExecutionError, match="only known in a per-core condition"):
        evaluate(["tile"], {}, "binding")
    with pytest.raises(ExecutionError, match="has no dimension 2"):
        evaluate(["tile", 2], {}, "cond", (0, 1), 4)


def test_a_loop_with_a_step_that_is_not_positive_is_an_error() -> None:
    steps = [{"step": "for", "var": "i", "lb": 0, "ub": 4, "stride": ["arg", "s"], "body": _call("loop")}]
    with pytest.raises(ExecutionError, match="step 0; it must be positive"):
        _run(steps, {"s": 0})


@pytest.mark.parametrize("steps, message", [
    ([{"step": "for", "var": "i", "lb": 0, "ub": 4, "body": []}], "a 'for' step has no 'stride'"),
    ([{"step": "if", "then": []}], "an 'if' step has no 'cond'"),
    ([{"step": "if", "cond": 1, "then": _call("missing")}], "names program 'missing'"),
    ({"step": "launch"}, "must be a list"),
])
def test_malformed_plans_are_refused_at_prepare(steps, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        check_steps(steps, {"a": object()}, "jobplan.json")
