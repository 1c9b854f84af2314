"""Known gap of the cost model, kept as an expected failure that fails once the gap is
closed (then it becomes a plain bound on the error).

The solver's schedule of the full-size RMSNorm keeps each core's 32 x 1024 row block
resident for the normalisation and stores its output once, at the end of the pass: the
32 cores store 64 KiB each at about the same time, about 14,000 cycles of device memory.
The model prices that one store at the core's own speed (532 cycles), because an
earlier stage of the program moved data through device memory and is taken to have
spread the cores out (`extract._stores_staggered`, `cost.stage_fill`). It spread them by
about one load's share of device memory (~870 cycles), not a 64 KiB store's: predicted
28,403 cycles for 35,747 emulated (-20.5%). The fix caps the stagger by the spread the
earlier traffic makes (docs/benchmarks.md, "The load unit's order")."""

from __future__ import annotations

from pathlib import Path

import pytest

import spyre_sched

KERNEL = Path(__file__).parents[2] / "bench" / "kernels" / "rmsnorm.mlir"


@pytest.mark.slow
def test_a_whole_row_blocks_store_after_its_pass_is_priced_with_the_cores_together():
    schedule = spyre_sched.compile(str(KERNEL))
    result = spyre_sched.run(schedule)
    assert result.matches
    error = schedule.predicted_cycles / result.cycles - 1
    if abs(error) > 0.10:
        pytest.xfail(f"known gap: predicted {schedule.predicted_cycles} for {result.cycles} "
                     f"({error:+.1%}): a whole row block's store priced as staggered")
    pytest.fail(f"the gap is closed ({error:+.1%}): make this a plain bound on the error")
