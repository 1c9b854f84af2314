"""End to end ScheduleIR for every example kernel on both shipped devices and on a test
device with three memory levels: it verifies, round-trips, is deterministic, and has the
structure each kernel calls for (hoisting, reductions, several programs, ct_local
operands without DMA, one tile level per staging memory)."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.dialects import scf

from spyre_sched.dialects import ktdf
from spyre_sched.errors import SpyreSchedError
from spyre_sched.schedule.common import programs
from tests.example_device_matrix import DEFAULT_DEVICE, example_device_params
from schedule_util import (
    DEVICES,
    EXAMPLES,
    KERNELS,
    THREE_LEVEL,
    parse_ir,
    print_ir,
    schedule_text,
    scheduled_example,
)

LEVELS = {"spyre": ["lx"], "sample_device": ["l1"], THREE_LEVEL: ["l2", "l1"]}
UNITS = {"spyre": {"dma", "load", "sfu", "store", "systolic"}, "sample_device": {"dma", "load", "sfu", "store"},
         THREE_LEVEL: {"dma", "fill", "drain", "load", "sfu", "store"}}


#: examples whose tiles read the scratchpads of cores 1..3 (inter-tile exchanges)
READS_OTHER_CORES = {"sharded_rmsnorm_4core", "splitk_matmul", "rmsnorm_2x2_rows",
                     "splitk_strided_groups"}


def dev_id(device: str) -> str:
    return Path(device).stem


@pytest.mark.parametrize("kernel,device", example_device_params(KERNELS, DEVICES, dev_id))
def test_example_schedules_verifies_and_round_trips(kernel: str, device: str) -> None:
    if kernel in READS_OTHER_CORES and Path(device).stem != "spyre":
        # reads of other cores' scratchpads need those cores (the other devices have one)
        with pytest.raises(SpyreSchedError, match=r"core [1-9][0-9]*'s scratchpad"):
            scheduled_example(kernel, device)
        return
    text = scheduled_example(kernel, device)
    module = parse_ir(text)
    assert print_ir(module) == text
    assert module.attributes["ktdf.device"].data == device  # type: ignore[attr-defined]
    names = ktdf.open_decisions(module)
    assert names, "every example leaves decisions to the solver"
    # A kernel that only copies (no FIFO: no compute unit) is staged in the scratchpad
    # only; the levels nearer a compute unit are there to feed it.
    computes = any(isinstance(op, ktdf.FifoOp) for op in module.walk())
    for level in LEVELS[device] if computes else LEVELS[device][:1]:
        assert any(f".tile.{level}." in n for n in names), (level, names)
    stages = [op for op in module.walk() if isinstance(op, ktdf.StageOp)]
    assert stages and all(s.units for s in stages)
    assert {u for s in stages for u in s.units} <= UNITS[device]
    for fifo in [op for op in module.walk() if isinstance(op, ktdf.FifoOp)]:
        slot = fifo.result.type
        assert {slot.source.data, slot.dest.data} <= UNITS[device]  # adjacent units only


@pytest.mark.parametrize("device", [
    pytest.param(d, marks=[] if d == DEFAULT_DEVICE else [pytest.mark.slow], id=dev_id(d))
    for d in DEVICES])
def test_schedule_is_deterministic(device: str) -> None:
    path = EXAMPLES / "softmax_rows.mlir"
    first = schedule_text(path.read_text(), device, str(path))
    assert schedule_text(path.read_text(), device, str(path)) == first
    assert first == scheduled_example("softmax_rows", device)


def test_add_decisions_are_the_contract_ones() -> None:
    module = parse_ir(scheduled_example("add_96x64", "spyre"))
    assert ktdf.open_decisions(module) == [
        "p0.tile.lx.d0", "p0.tile.lx.d1", "p0.pipe.lx.modulo", "p0.distribute.d0",
        "p0.distribute.d1"]
    ops = ktdf.decision_ops(module)
    assert ops["p0.tile.lx.d0"].legal_values() == [1, 2, 3]
    assert ops["p0.tile.lx.d1"].legal_values() == [64]
    assert ops["p0.distribute.d0"].max_instances.value.data == 2


def test_add_is_the_committed_contract_fixture() -> None:
    """docs/scheduleir.md's worked example is exactly what the scheduler prints: a change
    of the output must update the fixture (and the doc) in the same commit."""
    path = Path(__file__).parent / "fixtures" / "add_96x64.ktdf.mlir"
    body = "".join(line for line in path.read_text().splitlines(keepends=True)
                   if not line.startswith("//"))
    assert scheduled_example("add_96x64", "spyre") + "\n" == body


def test_three_level_device_nests_twice() -> None:
    module = parse_ir(scheduled_example("add_96x64", THREE_LEVEL))
    decisions = ktdf.decision_ops(module)
    assert decisions["p0.tile.l1.d0"].within.data == "p0.tile.l2.d0"  # type: ignore[union-attr]
    modulo = [op for op in module.walk() if isinstance(op, ktdf.PipelineOp) and op.modulo]
    assert [p.decision.data for p in modulo] == ["p0.pipe.l2.modulo", "p0.pipe.l1.modulo"]
    movers = [s.units for s in module.walk() if isinstance(s, ktdf.StageOp)
              and s.units in (["fill"], ["drain"])]
    assert movers == [["fill"], ["drain"]]  # L2 -> L1 in, L1 -> L2 out
    # instances split the L1 tiles (each corelet has its own L1), not the points
    parallel = [op for op in module.walk() if isinstance(op, ktdf.ParallelOp)]
    assert [p.max_instances.value.data for p in parallel] == [4, 4]
    assert all(isinstance(p.steps[0].owner, ktdf.ReserveSizeOp) for p in parallel)


def test_bias_is_hoisted_and_the_rows_are_not() -> None:
    module = parse_ir(scheduled_example("bias_add", "spyre"))
    buffers = {b.operand.data: b for b in module.walk() if isinstance(b, ktdf.BufferOp)}
    bias = buffers["bias"]
    assert bias.result.type.get_shape() == (256,)
    holder = bias.parent_op().parent_op()  # private -> pipeline
    assert isinstance(holder, ktdf.PipelineOp) and holder.modulo is None  # runs once
    assert not any(isinstance(p, scf.ForOp) for p in _ancestors(holder))
    x = buffers["X"]
    assert x.tile_dim_values() == ["p0.tile.lx.d0", "p0.tile.lx.d1"]  # varies: stays per tile
    assert any(isinstance(p, scf.ForOp) for p in _ancestors(x))
    assert buffers["Y"].role.data == "output"


def _ancestors(op):
    parent = op.parent_op()
    while parent is not None:
        yield parent
        parent = parent.parent_op()


def test_softmax_has_three_programs_and_no_dma_for_scratchpad_operands() -> None:
    module = parse_ir(scheduled_example("softmax_rows", "spyre"))
    assert [n for n, _ in programs(module)] == [0, 1, 2]
    local_views = {op.result for op in module.walk()
                   if op.name == "ktdp.construct_memory_view"
                   and op.memory_space.space == "ct_local"}  # type: ignore[attr-defined]
    for stage in [s for s in module.walk() if isinstance(s, ktdf.StageOp) and s.units == ["dma"]]:
        for t in [t for t in stage.walk() if isinstance(t, ktdf.DataTransferOp)]:
            assert t.source not in local_views and t.dest not in local_views
    splats = [t for t in module.walk() if isinstance(t, ktdf.DataTransferOp) and t.mode == "splat"]
    assert len(splats) == 2  # the row maxima and the row sums, widened to a vector


def test_row_sum_reduces_in_the_compute_stage() -> None:
    module = parse_ir(scheduled_example("row_sum", "spyre"))
    carried = [op for op in module.walk() if isinstance(op, scf.ForOp) and op.iter_args]
    assert len(carried) == 1
    assert carried[0].attributes["ktdf.reduction"].data == "arith.addf"  # type: ignore[attr-defined]
    assert isinstance(carried[0].parent_op(), ktdf.StageOp)
    x = next(b for b in module.walk() if isinstance(b, ktdf.BufferOp) and b.operand.data == "X")
    assert x.tile_dim_values() == ["p0.tile.lx.d0", 512]
    roles = sorted(b.role.data for b in module.walk() if isinstance(b, ktdf.BufferOp))
    assert roles == ["input", "intermediate", "output"]


def test_rmsnorm_is_two_computes_with_the_weights_hoisted() -> None:
    module = parse_ir(scheduled_example("rmsnorm", "spyre"))
    prefixes = [p.attributes["ktdf.compute"].data for p in module.walk()  # type: ignore[attr-defined]
                if isinstance(p, ktdf.PipelineOp) and "ktdf.compute" in p.attributes]
    assert prefixes == ["p0", "p0.c1"]
    w = next(b for b in module.walk() if isinstance(b, ktdf.BufferOp) and b.operand.data == "W")
    assert w.result.type.get_shape() == (512,)


def test_footprints_are_recorded() -> None:
    module = parse_ir(scheduled_example("bias_add", "spyre"))
    counts = {b.operand.data: b.attributes["elements_at_max"].value.data  # type: ignore[attr-defined]
              for b in module.walk() if isinstance(b, ktdf.BufferOp)}
    assert counts == {"bias": 256, "X": 4 * 256, "Y": 4 * 256}


def test_schedule_ir_input_is_accepted_again() -> None:
    from spyre_sched.api import load_schedule_input

    text = scheduled_example("fused_gelu", "sample_device")
    module, _, _ = load_schedule_input(text, "sample_device")
    assert print_ir(module) == text
