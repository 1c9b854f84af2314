"""End to end: the quick LayerNorm with its FIFOs' depth split per phase (each compute's
FIFOs share the datapath's queue, the phases take it in turns; the normalisation's split
is the solver's) matches the reference on
the emulator, which holds the FIFOs of each datapath to its queue depth together, and the
cost model, which uses the same depths, stays close to it."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LAYERNORM = ROOT / "bench" / "kernels" / "quick" / "layernorm.mlir"


def test_layernorm_with_phase_depths_matches_and_is_predicted(tmp_path: Path) -> None:
    import spyre_sched
    from spyre_sched.api import compile as compile_kernel
    from spyre_sched.lower.bundle import write_bundle

    schedule = compile_kernel(str(LAYERNORM), device="spyre")
    out = tmp_path / "out"
    write_bundle(schedule, out, kernel_text=LAYERNORM.read_bytes())
    program = (out / "local_schedule_0.mlir").read_text()
    result = spyre_sched.run(str(out), seed=3)
    assert result.matches, result.mismatches
    depths = [int(d) for d in re.findall(
        r'dataflow.fifo @\w+ "lx_load" -> "sfu" \{depth = (\d+)', program)]
    # four computes with 1, 1, 2 and 5 FIFOs: 16, 16, 8 + 8 (the even split), then the
    # normalisation's five as the solver gave them the queue (the phases take the queue
    # in turns; the five share it in send order, each at most all of it)
    chosen = schedule.decisions[0]["fifo_depths"]
    assert depths[:4] == [16, 16, 8, 8]
    assert depths[4:] == [chosen[f"p0.c3.fifo{j}"] for j in range(5)]
    assert max(depths[4:]) <= 16 and min(depths[4:]) >= 1
    assert abs(result.predicted_cycles / result.cycles - 1) < 0.10, \
        (result.predicted_cycles, result.cycles)
