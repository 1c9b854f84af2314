"""The order of a program's tile loops as a decision of the solver's one model: both forms
of the program in one problem (`loop_orders.merge`), a form's constraints and figures
counting only when it is chosen, the solution projected back to the chosen form; end to
end, a kernel whose tall blocks of C run with their tile loops interchanged."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from handmade import elementwise_problem

from spyre_sched import api
from spyre_sched.solve import cost, loop_orders
from spyre_sched.solve.brute_force import brute_force
from spyre_sched.solve.problem import Buffer, Quantity
from spyre_sched.solve.solver import solve

ROOT = Path(__file__).resolve().parents[2]
SMALL = str(ROOT / "tests" / "solve" / "devices" / "spyre_128k_lx.mlir")
TALL = str(ROOT / "tests" / "matmul" / "kernels" / "tall_block_interchanged.mlir")
K_STREAMED = str(ROOT / "tests" / "matmul" / "kernels" / "k_streamed.mlir")


def _forms(second_inputs: int, blocked: bool = False):
    """A program reading two inputs, and as its other form one reading `second_inputs`
    (fewer: faster), its scratchpad past any capacity when `blocked`."""
    first = elementwise_problem(2, 2, inputs=2)
    second = elementwise_problem(2, 2, inputs=second_inputs)
    if blocked:
        program = second.programs[0]
        huge = Buffer("p0.huge", Quantity.const(4 << 20), 1, "input", "lx")
        second = replace(second, programs=(replace(program,
                                                   buffers=(*program.buffers, huge)),))
    forms = loop_orders.merge(first, second, [0])
    assert forms is not None
    return first, second, forms


def test_the_model_chooses_the_faster_form_and_prices_only_it() -> None:
    first, second, forms = _forms(1)
    problem = forms.problem
    assert [p.variant for p in problem.programs] == [("p0.order", 0), ("p0.order", 1)]
    # the second form's decisions are its own (renamed apart), the order one decision
    assert problem.decision("p0.order").kind == "order"
    assert problem.decision("p0.tile.d0" + loop_orders.SUFFIX).program == 1
    solution = solve(problem)
    assert solution.choice["p0.order"] == 1
    # exactly the second form's own optimum, with the first form's figures left out
    assert solution.cycles == solve(second).cycles
    assert (solution.cycles,) == brute_force(problem, "latency")[1]
    projected, choice = loop_orders.project(forms, solution.choice)
    assert [p.index for p in projected.programs] == [0]
    assert cost.kernel_cycles(projected, choice) == solution.cycles
    assert {d.name for d in projected.decisions} == {d.name for d in second.decisions} \
        | {"p0.order"}


def test_a_form_that_does_not_fit_is_not_chosen_and_does_not_bind() -> None:
    first, _, forms = _forms(1, blocked=True)
    solution = solve(forms.problem)
    assert solution.choice["p0.order"] == 0
    assert solution.cycles == solve(first).cycles
    assert cost.feasible(forms.problem, solution.choice)


def test_pinning_the_order_keeps_the_dims_order() -> None:
    _, _, forms = _forms(1)
    pinned = solve(forms.problem, fixed={"p0.order": 0})
    assert pinned.choice["p0.order"] == 0


def test_a_tall_block_runs_its_tile_loops_interchanged() -> None:
    schedule = api.compile(TALL, device=SMALL)
    assert schedule.decisions[0]["loop_order"] == {"p0.order": "interchanged"}
    assert "ktdf.tile_loops_interchanged" in schedule.schedule_ir
    dims = api.compile(TALL, device=SMALL, pinned=("order",))
    assert dims.decisions[0]["loop_order"] == {"p0.order": "dims"}
    assert "ktdf.tile_loops_interchanged" not in dims.schedule_ir
    assert schedule.predicted_cycles < dims.predicted_cycles
    # the trace compares the two (the other order solved again when it is built)
    (order,) = [d for p in schedule.trace["programs"] for d in p["decisions"]
                if d["decision"] == "p0.order"]
    assert order["why"].endswith(f"its two tile loops interchanged: "
                                 f"{schedule.predicted_cycles} cycles, its dims' order at "
                                 f"best {dims.predicted_cycles}"), order["why"]
    # the V1 heuristic nests the tile loops in the dims' order: no second form
    v1 = api.compile(TALL, device=SMALL, strategy="heuristic")
    assert "loop_order" not in v1.decisions[0]


def test_k_streamed_keeps_its_dims_order() -> None:
    schedule = api.compile(K_STREAMED, device=SMALL)
    assert schedule.decisions[0]["loop_order"] == {"p0.order": "dims"}
    assert "ktdf.tile_loops_interchanged" not in schedule.schedule_ir


def test_an_interchanged_schedule_that_fails_leaves_the_dims_order(monkeypatch) -> None:
    """The second schedule refused (a 70B model's FFN: its interchanged gate and up do not
    fit): the dims' order is solved alone and a note says why."""
    from spyre_sched.errors import UnsupportedError

    load = api.load_schedule_input

    def refusing(*args, interchange=False, **kw):
        if interchange:
            raise UnsupportedError("program 0 needs more LX than a core has")
        return load(*args, **kw)

    monkeypatch.setattr(api, "load_schedule_input", refusing)
    schedule = api.compile(TALL, device=SMALL)
    assert "loop_order" not in schedule.decisions[0]
    assert any("interchanged the kernel does not schedule (program 0 needs more LX" in n
               and "only their dims' order was solved" in n for n in schedule.solution.notes)
