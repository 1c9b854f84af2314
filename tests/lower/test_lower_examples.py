"""Every example kernel through the whole compiler on both shipped devices: scheduled,
solved, lowered, written as a bundle that passes the bundle checks (round trip, symbols
against the kernel's own addresses), and emulated with results equal to the reference.

sample_device has one core, so there the examples run with `grid = [1]` (tile 0's share):
the project maps one compute tile to one core."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lower_bundle_checks import check_bundle
from tests.example_device_matrix import in_default_run

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.mlir"))
# a KTIR loop kept in the orchestrator (it updates its rows in place, so it is not
# folded): the job plan unrolls it, one call per row
LOOPED = ROOT / "tests" / "schedule" / "kernels" / "looped_add_in_place.mlir"


def kernel_for(device: str, example: Path, tmp_path: Path) -> Path:
    if device == "spyre":
        return example
    text = example.read_text()
    if "construct_distributed_memory_view" in text or "ktdp.inter_tile_" in text:
        # its data lives in (or is exchanged between) the scratchpads of cores 0..n-1
        pytest.skip(f"{example.name} names cores that sample_device (one core) does not have")
    text = re.sub(r"grid = \[\d+\]", "grid = [1]", text)
    path = tmp_path / example.name
    path.write_text(text)
    return path


@pytest.mark.parametrize("example,device,strategy", [
    pytest.param(example, device, strategy, id=f"{example.stem}-{device}-{strategy}",
                 marks=[] if in_default_run(example.stem, device) else [pytest.mark.slow])
    for example in EXAMPLES for device, strategy in (("spyre", "solver"),
                                                     ("sample_device", "heuristic"))])
def test_example_compiles_and_runs(example: Path, device: str, strategy: str, tmp_path: Path) -> None:
    import spyre_sched
    from spyre_sched.api import compile as compile_kernel
    from spyre_sched.lower.bundle import write_bundle

    kernel = kernel_for(device, example, tmp_path)
    schedule = compile_kernel(str(kernel), device=device, strategy=strategy)
    out = write_bundle(schedule, tmp_path / "bundle")
    check_bundle(out)
    result = spyre_sched.run(str(out))
    assert result.matches, result.mismatches


def test_orchestrator_loop_becomes_one_call_per_iteration(tmp_path: Path) -> None:
    import json

    import spyre_sched
    from spyre_sched.api import compile as compile_kernel
    from spyre_sched.lower.bundle import write_bundle

    out = write_bundle(compile_kernel(str(LOOPED), device="spyre", strategy="heuristic"),
                       tmp_path / "bundle")
    check_bundle(out)
    plan = json.loads((out / "jobplan.json").read_text())
    launches = [s for s in plan["execute"] if s["step"] == "launch"]
    bindings = [s["bindings"]["k"] for s in plan["execute"] if s["step"] == "evaluate_symbols"]
    assert len(launches) == 2 and bindings == [0, 1]
    result = spyre_sched.run(str(out))
    assert result.matches, result.mismatches
