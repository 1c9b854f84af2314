"""A program that only copies gathered pages into a scratchpad slot (paged attention's keys
and values, one stage on the DMA unit: fetch a tile's page addresses, wait for them, gather)
repeats at that stage's occupancy: nothing in the program reads what the gather writes, so
its unit issues the next fetch as soon as the gather is issued and the gather's landing is
paid once, not per iteration. Priced as a whole pass per iteration before, V1's schedules
of paged_scores and paged_attention_step were predicted 65% and 72% above their emulated
cycles (its 4x2x64 tiles make 32 iterations a copy)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import spyre_sched

KERNELS = Path(__file__).resolve().parents[1] / "normalize" / "kernels"


def _inputs(kernel: str) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(3)
    table = np.array([[3, 0, 11, 3], [7, 5, 2, 9]], dtype=np.int32)
    inputs = {"Q": rng.uniform(-1, 1, (2, 16, 64)).astype(np.float16),
              "Kc": rng.uniform(-1, 1, (12, 32, 64)).astype(np.float16), "Idx": table}
    if kernel == "paged_attention_step":
        inputs["Vc"] = rng.uniform(-1, 1, (12, 32, 64)).astype(np.float16)
    return inputs


@pytest.mark.parametrize("kernel", ["paged_scores", "paged_attention_step"])
def test_a_gather_copy_program_is_priced_at_its_issue_pace(kernel):
    schedule = spyre_sched.compile(str(KERNELS / f"{kernel}.mlir"), strategy="heuristic")
    result = spyre_sched.run(schedule, _inputs(kernel))
    assert result.verdict == "MATCH", result.mismatches
    assert abs(schedule.predicted_cycles / result.cycles - 1) <= 0.06, (
        schedule.predicted_cycles, result.cycles)
