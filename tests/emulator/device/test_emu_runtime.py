"""The runtime on a hand-written program with a run-time row count: one prepare, launches
at different addresses and shapes; unset, out-of-range and misnamed arguments."""

from __future__ import annotations

import gc
import json
from pathlib import Path

import numpy as np
import pytest

from emulator.bundle_files import seal
from emulator.runtime import Runtime
from spyre_sched.errors import ExecutionError

PROGRAM = Path(__file__).parent / "programs" / "add_2core.mlir"


@pytest.fixture(scope="module")
def runtime():
    return Runtime("spyre")


@pytest.fixture(scope="module")
def image(runtime):
    return runtime.prepare_program(PROGRAM)


def place(runtime, seed):
    rng = np.random.default_rng(seed)
    a, b = (rng.uniform(-2, 2, (6, 64)).astype(np.float16) for _ in range(2))
    return a, b, [runtime.allocate_tensor(a, "f16"), runtime.allocate_tensor(b, "f16"),
                  runtime.allocate((6, 64), "f16")]


def test_prepare_once_launch_with_different_addresses_and_shapes(runtime, image):
    cycles = {}
    for seed, rows in ((0, 3), (1, 1), (2, 2)):
        a, b, offsets = place(runtime, seed)
        symbols = {i: off * 2 for i, off in enumerate(offsets)} | {3: rows}
        measured = runtime.run_program(image, symbols)
        out = runtime.read_tensor(offsets[2], (6, 64), "f16")
        want = (a.astype(np.float32) + b.astype(np.float32)).astype(np.float16)
        for core in (0, 1):
            done = slice(3 * core, 3 * core + rows)
            assert np.array_equal(out[done], want[done])
        cycles[rows] = measured.cycles
    assert cycles[1] < cycles[2] < cycles[3]  # fewer rows, less vector work


def test_a_symbol_left_unset(runtime, image):
    _, _, offsets = place(runtime, 3)
    with pytest.raises(ExecutionError, match=r"symbol\(s\) 3 are not set"):
        runtime.run_program(image, {i: off * 2 for i, off in enumerate(offsets)})


def _bundle(tmp_path: Path) -> Path:
    bundle = tmp_path / "bundle"
    bundle.mkdir()
    (bundle / "local_schedule_0.mlir").write_text(PROGRAM.read_text())
    args = [{"name": n, "kind": "pointer", "element_type": "f16", "shape": [6, 64],
             "role": "out" if n == "C" else "in"} for n in "ABC"]
    args.append({"name": "N", "kind": "runtime", "type": "index", "upperbound": 3, "granularity": 1})
    symbols = [{"id": i, "program": "local_schedule_0", "kind": "address", "memory": "ddr",
                "expr": ["mul", ["arg", n], 2]} for i, n in enumerate("ABC")]
    symbols.append({"id": 3, "program": "local_schedule_0", "kind": "shape", "expr": ["arg", "N"]})
    plan = {"kernel": "add", "device": "spyre", "grid": [2], "arguments": args,
            "prepare": [{"step": "load_program", "program": "local_schedule_0",
                         "file": "local_schedule_0.mlir"}],
            "execute": [{"step": "evaluate_symbols", "program": "local_schedule_0", "call": 0,
                         "bindings": {n: ["arg", n] for n in ("A", "B", "C", "N")},
                         "symbols": [0, 1, 2, 3]},
                        {"step": "write_symbols", "program": "local_schedule_0", "call": 0},
                        {"step": "launch", "program": "local_schedule_0", "call": 0}]}
    (bundle / "jobplan.json").write_text(json.dumps(plan))
    (bundle / "symbols.json").write_text(json.dumps({"symbols": symbols}))
    (bundle / "schedule.json").write_text(json.dumps({"predicted_cycles": None}))
    (bundle / "global.mlir").write_text(
        'builtin.module attributes {dataflow.device = "spyre", dataflow.kernel = "add"} {\n'
        '  func.func @add(%A: index, %B: index, %C: index, %N: index) attributes {grid = [2]} {\n'
        '    func.call @local_schedule_0(%A, %B, %C, %N) : (index, index, index, index) -> ()\n'
        '    func.return\n  }\n'
        '  func.func private @local_schedule_0(index, index, index, index) -> ()\n}\n')
    seal(bundle)
    return bundle


def test_run_time_arguments_through_the_job_plan(runtime, tmp_path):
    prepared = runtime.prepare(_bundle(tmp_path))
    a, b, (oa, ob, oc) = place(runtime, 5)
    result = runtime.launch(prepared, {"A": oa, "B": ob, "C": oc}, {"N": 2})
    want = (a.astype(np.float32) + b.astype(np.float32)).astype(np.float16)
    assert np.array_equal(result.outputs["C"][0:2], want[0:2])
    with pytest.raises(ExecutionError, match=r"'N' = 4 is outside \[1, 3\]"):
        runtime.launch(prepared, {"A": oa, "B": ob, "C": oc}, {"N": 4})
    with pytest.raises(ExecutionError, match=r"'N' = 0 must be a positive integer"):
        runtime.launch(prepared, {"A": oa, "B": ob, "C": oc}, {"N": 0})
    with pytest.raises(ExecutionError, match="argument 'N' of add is not set"):
        runtime.launch(prepared, {"A": oa, "B": ob, "C": oc})
    with pytest.raises(ExecutionError, match="'M' is not an argument of add"):
        runtime.launch(prepared, {"A": oa, "B": ob, "C": oc, "M": 1}, {"N": 1})


@pytest.mark.parametrize("on_before", [True, False])
def test_the_cyclic_collector_is_paused_while_a_program_runs(runtime, image, monkeypatch,
                                                             on_before):
    """A launch allocates millions of objects that reference counting frees; the
    collector's passes over the long-lived heap were a quarter of a full-size FFN's
    launch. Paused while the units run, and left as it was found afterwards, also when
    the program faults."""
    from emulator.device.sim import Simulator
    seen = []
    real_run = Simulator.run

    def run(self):
        seen.append(gc.isenabled())
        return real_run(self)

    monkeypatch.setattr(Simulator, "run", run)
    _, _, offsets = place(runtime, 4)
    symbols = {i: off * 2 for i, off in enumerate(offsets)} | {3: 2}
    was = gc.isenabled()
    try:
        if not on_before:
            gc.disable()
        runtime.run_program(image, symbols)
        assert gc.isenabled() is on_before
        with pytest.raises(ExecutionError):
            runtime.run_program(image, symbols, max_cycles=1)
        assert gc.isenabled() is on_before
    finally:
        gc.enable() if was else gc.disable()
    assert seen == [False, False]
