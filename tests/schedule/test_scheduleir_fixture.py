"""The hand-checked ScheduleIR fixture of the contract (docs/scheduleir.md): it parses,
verifies, round-trips, names its decisions as the doc says, and solving it by hand with
`set_decision` gives IR the solved-form checks accept."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from spyre_sched.dialects.ktdf import (
    BufferOp,
    decision_ops,
    decision_value,
    open_decisions,
    set_decision,
    verify_solved,
)
from spyre_sched.dialects.registry import make_context
from spyre_sched.errors import AnalysisError
from spyre_sched.polyhedral.tile_image import image_size

FIXTURE = Path(__file__).parent / "fixtures" / "add_96x64.ktdf.mlir"


def load() -> ModuleOp:
    module = Parser(make_context(), FIXTURE.read_text()).parse_module()
    module.verify()
    return module


def text(module: ModuleOp) -> str:
    out = io.StringIO()
    Printer(out).print_op(module)
    return out.getvalue()


def test_fixture_round_trips() -> None:
    first = text(load())
    again = Parser(make_context(), first).parse_module()
    assert text(again) == first


def test_fixture_decisions_are_the_documented_ones() -> None:
    module = load()
    assert open_decisions(module) == [
        "p0.tile.lx.d0", "p0.tile.lx.d1", "p0.pipe.lx.modulo", "p0.distribute.d0",
        "p0.distribute.d1"]
    ops = decision_ops(module)
    assert ops["p0.tile.lx.d0"].legal_values() == [1, 2, 3]
    assert ops["p0.tile.lx.d1"].legal_values() == [64]
    with pytest.raises(VerifyException, match="open decisions"):
        verify_solved(module)


def test_solving_by_hand_gives_the_solved_form() -> None:
    module = load()
    ops = decision_ops(module)
    for name, value in [("p0.tile.lx.d0", 3), ("p0.tile.lx.d1", 64), ("p0.pipe.lx.modulo", 2),
                        ("p0.distribute.d0", 2), ("p0.distribute.d1", 1)]:
        set_decision(ops[name], value)
    verify_solved(module)
    printed = text(module)
    assert 'modulo(size: 2, decision = "p0.pipe.lx.modulo")' in printed
    assert "value = 3 : i64" in printed and "distribute(num_instances = 2)" in printed
    solved = Parser(make_context(), printed).parse_module()
    solved.verify()
    assert {n: decision_value(o) for n, o in decision_ops(solved).items()}["p0.tile.lx.d0"] == 3


def test_illegal_values_are_refused() -> None:
    ops = decision_ops(load())
    with pytest.raises(VerifyException, match="not legal"):
        set_decision(ops["p0.tile.lx.d1"], 32)
    with pytest.raises(VerifyException, match="legal range 1..2"):
        set_decision(ops["p0.distribute.d0"], 4)


def test_footprints_of_the_fixture_buffers() -> None:
    buffers = [op for op in load().walk() if isinstance(op, BufferOp)]
    assert [b.role.data for b in buffers] == ["input", "input", "output"]
    sizes = {"p0.tile.lx.d0": 2, "p0.tile.lx.d1": 64}
    for b in buffers:
        dims = [sizes[d] if isinstance(d, str) else d for d in b.tile_dim_values()]
        assert image_size(b.access_map.data, dims) == 128


def test_image_size_is_exact_for_any_affine_map() -> None:
    d0, d1 = AffineExpr.dimension(0), AffineExpr.dimension(1)
    assert image_size(AffineMap(2, 0, (d1,)), [3, 64]) == 64            # broadcast
    assert image_size(AffineMap(2, 0, (d0 + d1,)), [3, 64]) == 66       # skewed (halo)
    assert image_size(AffineMap(2, 0, (d0 * 2 + d1,)), [3, 4]) == 8     # strided overlap
    assert image_size(AffineMap(2, 0, (d1, d0)), [3, 5]) == 15          # transposed
    assert image_size(AffineMap(2, 0, ()), [3, 5]) == 1                 # a scalar
    with pytest.raises(AnalysisError):
        image_size(AffineMap(2, 0, (d0,)), [3])
