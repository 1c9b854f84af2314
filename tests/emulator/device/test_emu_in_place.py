"""The emulator runs ops that cannot block in place (emulator/device/codegen.py IN_PLACE)
instead of yielding each one to the event loop. Both ways must give the same run: the
same outputs bit for bit, cycles, per-unit busy / stall / instruction figures, bytes per
datapath and trace file. Every example kernel with both strategies on both shipped devices
(three by default, the rest opt-in with -m slow), the benchmark suite's quick kernels
(opt-in), hand-made bundles, and bundles of bench/add_bundle.py's shape drawn by
hypothesis (tile rows, chunk, sizes: the in-place load / store checks and the FIFO
hand-offs at every ratio of DMA tile to chunk)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import spyre_sched
from emulator.bundle_files import seal
from emulator.device import codegen
from spyre_sched.emulate import compile_bundle

from emu_figures import launch_figures

ROOT = Path(__file__).parents[3]
EXAMPLES = ROOT / "examples"
KERNELS = ["add_96x64", "bias_add", "fused_gelu", "row_sum", "rmsnorm", "softmax_rows"]
# By default: an elementwise kernel, a reduction, and softmax (reductions, apply, broadcast).
FAST = {("add_96x64", "heuristic"), ("row_sum", "solver"), ("softmax_rows", "heuristic")}


def _figures(bundle: Path, tmp_path: Path, in_place: bool, monkeypatch) -> dict:
    monkeypatch.setattr(codegen, "IN_PLACE", in_place)
    trace = tmp_path / f"trace_{in_place}.json"
    result = spyre_sched.run(bundle, seed=7, trace=trace)
    assert result.matches, result.mismatches
    return launch_figures(result, trace)


def _same_both_ways(bundle: Path, tmp_path: Path, monkeypatch) -> None:
    plain = _figures(bundle, tmp_path, False, monkeypatch)
    fast = _figures(bundle, tmp_path, True, monkeypatch)
    for key in plain:
        assert fast[key] == plain[key], f"{key} differs between the plain and the in-place run"


def _cases():
    for kernel in KERNELS:
        for strategy in ("solver", "heuristic"):
            for device in ("spyre", "sample_device"):
                fast = (kernel, strategy) in FAST and (device == "spyre" or kernel == "row_sum")
                yield pytest.param(kernel, strategy, device, marks=[] if fast else [pytest.mark.slow],
                                   id=f"{kernel}-{strategy}-{device}")


@pytest.mark.parametrize("kernel, strategy, device", list(_cases()))
def test_example_same_in_place_and_plain(kernel, strategy, device, tmp_path, monkeypatch):
    source = EXAMPLES / f"{kernel}.mlir"
    if device == "sample_device":  # one core: the example's first compute tile
        text = source.read_text().replace("grid = [32]", "grid = [1]")
        source = tmp_path / f"{kernel}.mlir"
        source.write_text(text)
    bundle = tmp_path / "bundle"
    compile_bundle(source, bundle, device, "latency", strategy)
    _same_both_ways(bundle, tmp_path, monkeypatch)


BENCH_QUICK = ROOT / "bench" / "kernels" / "quick"


@pytest.mark.slow
@pytest.mark.parametrize("kernel", sorted(p.stem for p in BENCH_QUICK.glob("*.mlir")))
@pytest.mark.parametrize("strategy", ["solver", "heuristic"])
def test_bench_quick_kernel_same_in_place_and_plain(kernel, strategy, tmp_path, monkeypatch):
    bundle = tmp_path / "bundle"
    compile_bundle(BENCH_QUICK / f"{kernel}.mlir", bundle, "spyre", "latency", strategy)
    _same_both_ways(bundle, tmp_path, monkeypatch)


def test_lowering_fixture_same_in_place_and_plain(tmp_path, monkeypatch):
    _same_both_ways(ROOT / "tests" / "lower" / "fixtures" / "add_96x64_bundle", tmp_path, monkeypatch)


def _add_bundle():
    spec = importlib.util.spec_from_file_location("add_bundle", ROOT / "bench" / "add_bundle.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("tile_rows, chunk", [(2, 8), (4, 4)])
def test_bench_add_bundle_same_in_place_and_plain(tile_rows, chunk, tmp_path, monkeypatch):
    """The speed benchmark's bundle shape (every unit, FIFO and DMA of 32 cores), smaller."""
    bundle = _add_bundle().write(tmp_path / "add", 256, 1024, tile_rows=tile_rows, chunk=chunk)
    _same_both_ways(Path(bundle), tmp_path, monkeypatch)


@settings(max_examples=4, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tile_rows=st.sampled_from([1, 2, 4, 8]), chunk=st.sampled_from([1, 2, 4, 8]),
       rows=st.sampled_from([256, 512]), chunks_per_row=st.sampled_from([1, 2]))
@pytest.mark.slow
def test_generated_add_bundles_same_in_place_and_plain(tile_rows, chunk, rows, chunks_per_row,
                                                        tmp_path_factory, monkeypatch):
    """Bundles of the benchmark's shape over the 32 cores, drawn: the DMA tile from one to
    eight rows, the FIFO chunk from one to eight sticks (a FIFO of depth 8 then holds one
    to eight chunks, so units run up to several chunks ahead of each other)."""
    tmp = tmp_path_factory.mktemp("gen")
    cols = 64 * chunk * chunks_per_row
    bundle = _add_bundle().write(tmp / "add", rows, cols, tile_rows=tile_rows, chunk=chunk)
    _same_both_ways(Path(bundle), tmp, monkeypatch)


@pytest.mark.parametrize("in_place", [True, False])
def test_store_leaving_its_buffer_faults_after_accesses_inside(in_place, tmp_path, monkeypatch):
    """The in-place load / store skip the full check while an access stays inside the
    buffer window of their last one (Memory.window): an op whose first tile is inside its
    buffer and whose second is not must still fault, at that op, on both paths."""
    import json

    from spyre_sched.errors import ExecutionError

    monkeypatch.setattr(codegen, "IN_PLACE", in_place)
    bundle = Path(_add_bundle().write(tmp_path / "add", 256, 1024, tile_rows=2, chunk=8))
    schedule = json.loads((bundle / "schedule.json").read_text())
    c = next(b for b in schedule["buffers"] if b["name"] == "C")
    c["bytes"] = c["slot_bytes"]  # C keeps one of its two slots: the second tile is outside
    (bundle / "schedule.json").write_text(json.dumps(schedule))
    seal(bundle)  # a deliberate edit
    with pytest.raises(ExecutionError, match="not inside one allocated buffer") as err:
        spyre_sched.run(bundle, seed=7)
    assert "agen.vector_store" in str(err.value) and "lx_store" in str(err.value)


def test_route_that_does_not_exist_is_a_launch_fault_at_its_instruction(tmp_path):
    """Routes are looked up at prepare (ProgramImage.resolve_routes) to spare every launch
    the search; one that cannot be found is still reported by the launch, at the op."""
    from emulator.runtime import Runtime
    from spyre_sched.errors import ExecutionError

    bundle = Path(_add_bundle().write(tmp_path / "add", 256, 1024, tile_rows=2, chunk=8))
    program = bundle / "local_schedule_0.mlir"
    text = program.read_text()
    # the DMA store unit made to move ddr -> lx, which only the DMA load unit does
    text = text.replace('agen.composite_load_and_store "lx"[%src_C]', 'agen.composite_load_and_store "ddr"[%src_C]')
    text = text.replace('to "ddr"[%dst_C]', 'to "lx"[%dst_C]')
    program.write_text(text)
    seal(bundle)
    runtime = Runtime("spyre")
    prepared = runtime.prepare(bundle)  # not an error here
    shape = (256, 1024)
    args = {"A": runtime.allocate(shape, "f16"), "B": runtime.allocate(shape, "f16"),
            "C": runtime.allocate(shape, "f16")}
    with pytest.raises(ExecutionError, match="cannot move data") as err:
        runtime.launch(prepared, args)
    assert "agen.composite_load_and_store" in str(err.value) and "dma_store" in str(err.value)
