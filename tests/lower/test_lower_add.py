"""The thin path: SCHED's ScheduleIR for the 96x64 add, decisions filled by hand (as the
solver writes them back), lowered to a bundle that is valid, matches the hand-written
fixture in structure, and runs on the emulator with the right numbers."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from xdsl.parser import Parser

from lower_bundle_checks import check_bundle, parse_file
from spyre_sched.dialects import ktdf
from spyre_sched.dialects.dataflow import FifoOp, ProgramUnitOp, SyncOp
from spyre_sched.dialects.registry import make_context
from spyre_sched.lower.bundle import bundle_from_schedule_ir, write
from spyre_sched.lower.lowering import lower

ROOT = Path(__file__).resolve().parents[2]
SCHEDULE = ROOT / "tests" / "schedule" / "fixtures" / "add_96x64.ktdf.mlir"
KERNEL = ROOT / "examples" / "add_96x64.mlir"
FIXTURE = Path(__file__).parent / "fixtures" / "add_96x64_bundle"

SOLVED = {"p0.tile.lx.d0": 3, "p0.tile.lx.d1": 64, "p0.pipe.lx.modulo": 2,
          "p0.distribute.d0": 2, "p0.distribute.d1": 1}


def solved_text(values: dict[str, int]) -> str:
    module = Parser(make_context(), SCHEDULE.read_text()).parse_module()
    for name, op in ktdf.decision_ops(module).items():
        ktdf.set_decision(op, values[name])
    return str(module)


def compile_add(tmp_path: Path, values=SOLVED, name="bundle") -> Path:
    bundle = bundle_from_schedule_ir(solved_text(values), kernel_text=KERNEL.read_bytes(),
                                     objective="latency", strategy="hand")
    return write(bundle, tmp_path / name)


def program_shape(path: Path):
    module = parse_file(path)
    units = {op.engine.data: len(op.unit_names) for op in module.walk() if isinstance(op, ProgramUnitOp)}
    fifos = sorted((op.source.data, op.target.data, op.depth.value.data) for op in module.walk()
                   if isinstance(op, FifoOp))
    syncs = sorted((op.source.data, op.target.data, op.initial.value.data) for op in module.walk()
                   if isinstance(op, SyncOp))
    return units, fifos, syncs


def test_add_bundle_is_valid_and_shaped_like_the_fixture(tmp_path: Path) -> None:
    out = compile_add(tmp_path)
    check_bundle(out)
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in FIXTURE.iterdir())
    assert program_shape(out / "local_schedule_0.mlir") == program_shape(FIXTURE / "local_schedule_0.mlir")
    ours = json.loads((out / "schedule.json").read_text())
    theirs = json.loads((FIXTURE / "schedule.json").read_text())
    assert ours["decisions"] == {**theirs["decisions"], "p0.distribute.d1": 1, "p0.tile.lx.d1": 64}
    assert [(b["offset"], b["bytes"], b["slots"]) for b in ours["buffers"]] == \
        [(b["offset"], b["bytes"], b["slots"]) for b in theirs["buffers"]]
    ours_sym = json.loads((out / "symbols.json").read_text())["symbols"]
    theirs_sym = json.loads((FIXTURE / "symbols.json").read_text())["symbols"]
    assert len(ours_sym) == len(theirs_sym) == 96


def test_open_schedule_is_rejected() -> None:
    module = Parser(make_context(), SCHEDULE.read_text()).parse_module()
    with pytest.raises(Exception, match="open decisions"):
        lower(module)


@pytest.mark.parametrize("values", [
    SOLVED,
    {**SOLVED, "p0.tile.lx.d0": 1},                          # 3 tiles: the slot rotates
    {**SOLVED, "p0.tile.lx.d0": 2, "p0.pipe.lx.modulo": 3},  # a partial last tile
    {**SOLVED, "p0.distribute.d0": 1, "p0.tile.lx.d0": 1, "p0.pipe.lx.modulo": 1},
])
def test_add_runs_on_the_emulator(tmp_path: Path, values) -> None:
    from emulator.runtime import Runtime

    out = compile_add(tmp_path, values)
    check_bundle(out)
    rt = Runtime("spyre")
    rng = np.random.default_rng(1)
    a = rng.standard_normal((96, 64)).astype(np.float16)
    b = rng.standard_normal((96, 64)).astype(np.float16)
    prepared = rt.prepare(out)
    for shift in (0, 1):  # prepare once, launch twice at different addresses
        pa, pb = rt.allocate_tensor(a), rt.allocate_tensor(b)
        pc = rt.allocate((96, 64), "f16")
        rt.launch(prepared, {"A": pa, "B": pb, "C": pc} if shift == 0 else {"A": pb, "B": pa, "C": pc})
        assert np.array_equal(rt.read_tensor(pc, (96, 64), "f16"), (a + b).astype(np.float16))


def test_two_runs_give_identical_bytes(tmp_path: Path) -> None:
    first = compile_add(tmp_path, name="one")
    second = compile_add(tmp_path, name="two")
    for f in sorted(first.iterdir()):
        assert f.read_bytes() == (second / f.name).read_bytes(), f.name
