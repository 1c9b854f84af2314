"""ktdf.parallel beyond the 1-D FIFO loop: several induction variables (a linearised
instance index) and N-buffered pipelines inside a loop distributed over corelets. Both
fixtures run on the emulator and are compared with the reference and with numpy."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xdsl.parser import Parser

from spyre_sched.dialects.registry import make_context
from spyre_sched.errors import UnsupportedError
from spyre_sched.lower.bundle import bundle_from_schedule_ir, write
from spyre_sched.lower.lowering import lower

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).parent


def _run(fixture: Path | str, kernel: Path, inputs: dict, tmp_path: Path):
    import spyre_sched

    text = fixture if isinstance(fixture, str) else fixture.read_text()
    bundle = bundle_from_schedule_ir(text, kernel_text=kernel.read_bytes())
    out = write(bundle, tmp_path / "bundle")
    result = spyre_sched.run(str(out), inputs=inputs)
    assert result.matches, result.mismatches
    return bundle, result


def test_two_dimensional_parallel_runs_and_matches_numpy(tmp_path: Path) -> None:
    rng = np.random.default_rng(5)
    x = rng.uniform(-4, 4, size=(128, 256)).astype(np.float16)
    bias = rng.uniform(-4, 4, size=(256,)).astype(np.float16)
    _, result = _run(HERE / "parallel_2d.ktdf.mlir", ROOT / "examples" / "bias_add.mlir",
                     {"X": x, "bias": bias}, tmp_path)
    assert np.array_equal(result.outputs["Y"], x + bias[None, :])


@pytest.mark.parametrize("instances", [2, 1])
def test_rotating_slots_per_corelet_run_and_match_numpy(instances: int, tmp_path: Path) -> None:
    text = (HERE / "row_sum_rotating_in_parallel.ktdf.mlir").read_text().replace(
        "distribute(num_instances = 2)", f"distribute(num_instances = {instances})")
    x = np.random.default_rng(7).uniform(-2, 2, size=(64, 512)).astype(np.float16)
    bundle, result = _run(text, ROOT / "tests" / "lower" / "kernels" / "row_sum_16.mlir", {"X": x}, tmp_path)
    sums = {b["name"]: b for b in bundle.schedule["buffers"]}
    # modulo 2 on each corelet, the corelets sharing LX: 2 slots of 128 bytes per corelet
    assert (sums["sum"]["slots"], sums["sum"]["slot_bytes"]) == (2 * instances, 128)
    expected = x.astype(np.float64).sum(axis=1).astype(np.float32).astype(np.float16)
    assert np.allclose(result.outputs["S"].astype(np.float32), expected.astype(np.float32), rtol=2e-3)


def _solved(text: str):
    module = Parser(make_context(), text).parse_module()
    module.verify()
    return module


def test_a_dma_inside_a_distributed_loop_is_refused() -> None:
    """One DMA per core cannot run a loop split over corelets: a located error."""
    text = (HERE / "add_rotating.ktdf.mlir").read_text()
    text = text.replace(
        "scf.for %t0 = %c0_1 to %c3_1 step %T0 {",
        'ktdf.parallel (%t0) = (%c0_1) to (%c3_1) step (%T0) distribute(num_instances = 2) '
        '{decision = "p0.distribute.t0", instance_group = "corelet", max_instances = 2 : i64} {')
    text = text.replace("      } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}\n", "      }\n")
    with pytest.raises(UnsupportedError, match="dma_load runs once per core and cannot run a "
                                               "ktdf.parallel distributed over 2 corelets") as err:
        lower(_solved(text))
    assert "ktdf.parallel" in str(err.value)


def test_partial_steps_of_a_multi_dimensional_parallel_are_refused() -> None:
    text = (HERE / "parallel_2d.ktdf.mlir").read_text()
    text = text.replace("step (%c1, %c64) distribute", "step (%c1, %c48) distribute")
    text = text.replace("%c64 = arith.constant 64 : index",
                        "%c64 = arith.constant 64 : index\n      %c48 = arith.constant 48 : index", 1)
    with pytest.raises(UnsupportedError, match="step 48 does not divide its extent 256"):
        lower(_solved(text))
