"""The emulator on a bundle: the hand-written add fixture, prepare once / launch many,
corrupted bundles give the right error (never a hang), `spyre-sched run` and its exit code."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import emulator.reference as reference
import spyre_sched
from emulator.bundle_files import seal
from emulator.runtime import Runtime
from spyre_sched.cli import main
from spyre_sched.errors import ExecutionError, SpyreSchedError

FIXTURE = Path(__file__).parents[2] / "lower" / "fixtures" / "add_96x64_bundle"
PROGRAM = "local_schedule_0.mlir"


@pytest.fixture(scope="module")
def runtime():
    return Runtime("spyre")


@pytest.fixture(scope="module")
def prepared(runtime):
    return runtime.prepare(FIXTURE)


def edited(tmp_path: Path, old: str, new: str, file: str = PROGRAM, count: int = 1) -> Path:
    """A copy of the fixture with `old` replaced by `new` in `file` (must occur), sealed
    again (the edit is deliberate: the runtime's own checks are under test)."""
    bundle = tmp_path / "bundle"
    shutil.copytree(FIXTURE, bundle)
    text = (bundle / file).read_text()
    assert old in text, f"fixture no longer contains {old!r}"
    (bundle / file).write_text(text.replace(old, new, count))
    seal(bundle)
    return bundle


def inputs(seed=0):
    rng = np.random.default_rng(seed)
    return {k: rng.uniform(-2, 2, (96, 64)).astype(np.float16) for k in "AB"}


def launch_add(runtime, prepared, data, **kw):
    a = runtime.allocate_tensor(data["A"], "f16")
    b = runtime.allocate_tensor(data["B"], "f16")
    c = runtime.allocate((96, 64), "f16")
    result = runtime.launch(prepared, {"A": a, "B": b, "C": c}, **kw)
    return result, runtime.read_tensor(c, (96, 64), "f16")


def test_fixture_matches_the_reference_bit_for_bit(runtime, prepared):
    data = inputs()
    result, out = launch_add(runtime, prepared, data)
    want = reference.run(FIXTURE / "kernel.mlir", data)["C"]
    assert np.array_equal(out.view(np.uint16), want.view(np.uint16))
    assert result.cycles > 0
    # every unit of the program ran and counted its time
    assert len(result.measurements.units) == 32 * 2 + 64 * 3
    for stats in result.measurements.units.values():
        assert stats.busy + stats.stalled_input + stats.stalled_output + stats.stalled_shared \
            <= result.cycles
    assert result.measurements.datapath_bytes["ddr->core0.dma_load"] == 2 * 3 * 64 * 2


def test_prepare_once_launch_twice_at_different_addresses(runtime, prepared):
    first, second = inputs(1), inputs(2)
    _, out1 = launch_add(runtime, prepared, first)
    runtime.allocate((1000,), "f16")  # the second launch's tensors lie elsewhere
    _, out2 = launch_add(runtime, prepared, second)
    for data, out in ((first, out1), (second, out2)):
        want = (data["A"].astype(np.float32) + data["B"].astype(np.float32)).astype(np.float16)
        assert np.array_equal(out, want)


def test_launch_takes_arrays_and_returns_outputs(runtime, prepared):
    data = inputs(3)
    c = runtime.allocate((96, 64), "f16")
    result = runtime.launch(prepared, {"A": data["A"], "B": data["B"], "C": c})
    want = (data["A"].astype(np.float32) + data["B"].astype(np.float32)).astype(np.float16)
    assert np.array_equal(result.outputs["C"], want)


def test_unset_argument_and_out_of_range_address_are_errors(runtime, prepared):
    with pytest.raises(ExecutionError, match="argument 'C' of add is not set"):
        runtime.launch(prepared, {"A": 0, "B": 100000})
    past_end = runtime.global_memory.size // 2  # element offset of the last byte / 2
    with pytest.raises(ExecutionError, match="is not an address in ddr"):
        runtime.launch(prepared, {"A": 0, "B": 100000, "C": past_end})


def test_symbol_left_unset_names_the_symbol(tmp_path, runtime):
    plan = json.loads((FIXTURE / "jobplan.json").read_text())
    plan["execute"][0]["symbols"].remove(5)
    bundle = edited(tmp_path, "{", "{", file="jobplan.json")
    (bundle / "jobplan.json").write_text(json.dumps(plan))
    seal(bundle)
    prepared = runtime.prepare(bundle)
    with pytest.raises(ExecutionError, match=r"symbol\(s\) 5 are not set"):
        launch_add(runtime, prepared, inputs())


def test_fifo_depth_zero_is_rejected_at_prepare(tmp_path, runtime):
    bundle = edited(tmp_path, '"sfu" {depth = 8 : i64}', '"sfu" {depth = 0 : i64}')
    with pytest.raises(SpyreSchedError) as err:
        runtime.prepare(bundle)
    assert "depth must be at least 1" in str(err.value)
    assert f"{PROGRAM}:" in str(err.value)  # located in the file


def test_fifo_deeper_than_its_datapath_is_rejected(tmp_path, runtime):
    bundle = edited(tmp_path, '"sfu" {depth = 8 : i64}', '"sfu" {depth = 17 : i64}')
    with pytest.raises(ExecutionError, match=r"needs more entries than the datapath's queue "
                                             r"holds \(16\)"):
        runtime.prepare(bundle)


def test_fifos_over_the_queue_together_share_it_and_still_match(tmp_path, runtime):
    """Depths adding up to more than the datapath holds are taken in turns (a shared
    queue, docs/dataflowir.md): A's and B's FIFOs (12 + 8 > 16) run at the same time here,
    so the queue binds (test_emu_shared_queue.py checks the occupancy); the result is exact."""
    bundle = edited(tmp_path, '"sfu" {depth = 8 : i64}', '"sfu" {depth = 12 : i64}')
    prepared = runtime.prepare(bundle)
    data = inputs(4)
    result, out = launch_add(runtime, prepared, data)
    want = (data["A"].astype(np.float32) + data["B"].astype(np.float32)).astype(np.float16)
    assert np.array_equal(out, want)
    _, base = launch_add(runtime, runtime.prepare(FIXTURE), data)
    assert np.array_equal(base, out)


def test_missing_sync_is_a_deadlock_not_a_hang(tmp_path, runtime):
    bundle = edited(tmp_path, "        dataflow.sync_send @ab_full peer %c0\n", "")
    prepared = runtime.prepare(bundle)
    with pytest.raises(ExecutionError) as err:
        launch_add(runtime, prepared, inputs())
    text = str(err.value)
    assert "deadlock" in text
    assert "core0.corelet0.lx_load at 'dataflow.sync_recv" in text
    assert "sync token ab_full" in text


def test_address_past_the_end_of_the_scratchpad(tmp_path, runtime):
    bundle = edited(tmp_path, "%lx_B = arith.constant 768 : index",
                    "%lx_B = arith.constant 2097100 : index")
    prepared = runtime.prepare(bundle)
    with pytest.raises(ExecutionError) as err:
        launch_add(runtime, prepared, inputs())
    text = str(err.value)
    assert "outside memory core" in text and "agen.composite_load_and_store" in text
    assert "unit core" in text and "cycle" in text


def test_scratchpad_access_outside_every_buffer(tmp_path, runtime):
    schedule = json.loads((FIXTURE / "schedule.json").read_text())
    schedule["buffers"][1]["bytes"] = 384  # B keeps one of its two slots
    bundle = edited(tmp_path, "{", "{", file="schedule.json")
    (bundle / "schedule.json").write_text(json.dumps(schedule))
    seal(bundle)
    prepared = runtime.prepare(bundle)
    data = inputs()
    # one tile per core: only slot 0 is used, so this launch is fine ...
    launch_add(runtime, prepared, data)
    schedule["buffers"][1]["offset"] = 800
    (bundle / "schedule.json").write_text(json.dumps(schedule))
    seal(bundle)
    with pytest.raises(ExecutionError, match="not inside one allocated buffer"):
        launch_add(runtime, runtime.prepare(bundle), data)


def test_api_run_on_the_fixture(tmp_path):
    result = spyre_sched.run(FIXTURE, trace=tmp_path / "trace.json")
    assert result.matches and result.max_error == {"C": 0.0}
    assert result.cycles > 0 and result.predicted_cycles is None
    assert set(result.outputs) == {"C"}
    assert "core0.corelet1.sfu" in result.units
    doc = json.loads((tmp_path / "trace.json").read_text())
    tracks = {e["args"]["name"] for e in doc["traceEvents"] if e.get("name") == "thread_name"}
    assert "core31.dma_store" in tracks
    assert any(e["ph"] == "C" for e in doc["traceEvents"])


def test_cli_run_matches_and_prints_json(tmp_path):
    runner = CliRunner()
    out = runner.invoke(main, ["run", str(FIXTURE), "--json", "--save-outputs",
                               str(tmp_path / "out.npz")])
    assert out.exit_code == 0, out.output
    doc = json.loads(out.output)
    assert doc["matches"] is True and doc["cycles"] > 0
    assert np.load(tmp_path / "out.npz")["C"].shape == (96, 64)


def test_a_subtract_instead_of_the_add_is_a_mismatch(tmp_path):
    """The emulator runs the DataflowIR, not the KTIR: editing the vector op changes the result."""
    bundle = edited(tmp_path, "vectorchain.add", "vectorchain.sub")
    out = CliRunner().invoke(main, ["run", str(bundle)])
    assert out.exit_code == 1, out.output
    assert "MISMATCH" in out.output and "%C" in out.output


def test_bundle_whose_kernel_was_edited_is_refused(tmp_path):
    bundle = edited(tmp_path, "func.func", "func.func", file="kernel.mlir")
    (bundle / "kernel.mlir").write_text((bundle / "kernel.mlir").read_text() + "\n")
    out = CliRunner().invoke(main, ["run", str(bundle)])
    assert out.exit_code == 1
    assert "kernel.mlir does not match its sha256 in manifest.json" in out.output


def test_cli_trace_is_trace_event_json(tmp_path):
    trace = tmp_path / "t.json"
    out = CliRunner().invoke(main, ["run", str(FIXTURE), "--trace", str(trace), "--seed", "4"])
    assert out.exit_code == 0, out.output
    doc = json.loads(trace.read_text())
    events = doc["traceEvents"]
    assert doc["displayTimeUnit"] == "ns"
    slices = [e for e in events if e["ph"] == "X"]
    assert slices and all(e["dur"] >= 0 and e["ts"] >= 0 for e in slices)
    counters = [e for e in events if e["ph"] == "C"]
    assert counters and all("entries" in e["args"] for e in counters)
    times = [e["ts"] for e in counters if e["name"] == counters[0]["name"]]
    assert times == sorted(times)


def test_a_bundle_for_another_device_is_refused():
    with pytest.raises(ExecutionError, match="compiled for device spyre, but this runtime emulates sample_device"):
        Runtime("sample_device").prepare(FIXTURE)
