"""A tile read and written back in place by one FIFO pipeline, each iteration its own box:
the write of a box takes its data from that box's read through the pipeline's FIFOs, so
it cannot land before the read, and other iterations touch other boxes. No token pair
orders the read before the write then (one kept the read of the next box waiting for
the previous box's write: the accumulator update of a K loop ran at a third of its pace).
A token stays where no FIFO carries the read's data to the write."""

from __future__ import annotations

from pathlib import Path

import numpy as np

import spyre_sched
from spyre_sched.lower.bundle import bundle_from_schedule_ir

ROOT = Path(__file__).parents[2]
K_LOOP = ROOT / "tests" / "matmul" / "kernels" / "batch_of_one_k_loop.mlir"


def _syncs(schedule) -> dict[str, set[str]]:
    bundle = bundle_from_schedule_ir(schedule.schedule_ir, kernel_text=None)
    out = {}
    for name, module in bundle.programs:
        out[name] = {op.sym_name.data for op in module.walk() if op.name == "dataflow.sync"}
    return out


def test_an_accumulator_updated_in_place_through_fifos_has_no_token():
    schedule = spyre_sched.compile(str(K_LOOP), device="spyre")
    syncs = _syncs(schedule)
    # program 1: the matmul, then the accumulator slot read, added to, written back
    assert not any("lx_load_to_lx_store" in s for s in syncs["local_schedule_1"]), syncs
    rng = np.random.default_rng(5)
    a = (rng.standard_normal((2, 32, 64)) * 0.5).astype(np.float16)
    b = (rng.standard_normal((2, 64, 32)) * 0.5).astype(np.float16)
    result = spyre_sched.run(schedule, {"A": a, "B": b})
    assert result.verdict == "MATCH", result.mismatches
    # the model never had the token: with it gone the schedule runs as predicted
    assert abs(schedule.predicted_cycles / result.cycles - 1) <= 0.05, (
        schedule.predicted_cycles, result.cycles)
