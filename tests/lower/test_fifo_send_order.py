"""FIFOs sharing a datapath queue in send order, through the lowering and the emulator:
the lowering declares them with more entries between them than the queue holds once it
has proven, on the program units it wrote, that the unit behind receives them in the
order they are sent (lower/fifo_order.py); the emulator holds them to the queue together
and the outputs match the reference. The kernels were found by the fuzzer on devices
whose queues hold 4 entries."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import spyre_sched
from spyre_sched.emulate import compile_bundle
from spyre_sched.lower import fifo_order
from spyre_sched.schedule import hoist_inner

ROOT = Path(__file__).resolve().parents[2]
KERNELS = ROOT / "tests/lower/kernels"


@pytest.mark.parametrize("name, device, args", [
    ("shared_queue_fused_computes", "sample_queue4", {"n": 21}),
    ("shared_queue_unrolled", "spyre_queue4", {}),
])
def test_a_queue_shared_in_send_order_is_proven_and_matches(tmp_path, monkeypatch, name,
                                                             device, args):
    proven: list[tuple[str, str, list[str]]] = []
    check = fifo_order.check_send_order

    def recording(program, units, groups):
        check(program, units, groups)
        proven.extend(groups)

    monkeypatch.setattr(fifo_order, "check_send_order", recording)
    # found before hoist-inner-invariants fetched shared_queue_unrolled's row vector once
    # per row tile: with that, the solver's schedule no longer shares a queue; the proof
    # is tested on the schedules the kernels were found with
    monkeypatch.setattr(hoist_inner, "hoist_program", lambda fn: 0)
    device_path = str(ROOT / f"tests/lower/devices/{device}.mlir")
    bundle = tmp_path / "bundle"
    compile_bundle(KERNELS / f"{name}.mlir", bundle, device_path, "latency", "solver")
    assert proven, "no FIFOs shared a queue in send order"
    declared = {}
    for program in bundle.glob("local_schedule_*.mlir"):
        declared.update(re.findall(r"dataflow.fifo @(\w+) \S+ -> \S+ \{depth = (\d+)",
                                   program.read_text()))
    for _, _, names in proven:  # more entries between them than the queue's 4
        assert sum(int(declared[n]) for n in names) > 4, names
    result = spyre_sched.run(str(bundle), {}, runtime_args=args, device=device_path)
    assert result.matches, result.mismatches
