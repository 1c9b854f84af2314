"""A float argument a generic body reads stays a launch-time value: the bundle is compiled
once without it, carries it as a "bits" symbol, and runs (and matches the reference) with
any value given at launch."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

import spyre_sched
from spyre_sched.emulate import compile_bundle

KERNEL = Path(__file__).parent / "kernels" / "scale_by_argument.mlir"


def test_one_bundle_runs_with_any_value_of_the_argument(tmp_path):
    bundle = tmp_path / "bundle"
    compile_bundle(KERNEL, bundle, "spyre", "latency", "heuristic")
    symbols = json.loads((bundle / "symbols.json").read_text())["symbols"]
    bits = [s for s in symbols if s["kind"] == "bits"]
    assert [(s["argument"], s["expr"]) for s in bits] == [("s", ["arg", "s"])]
    outputs = []
    for value in (-0.7, 3.0):
        result = spyre_sched.run(str(bundle), {}, runtime_args={"s": value})
        assert result.verdict == "MATCH", result.mismatches
        outputs.append(np.asarray(result.outputs["Y"], dtype=np.float64))
    assert not np.array_equal(outputs[0], outputs[1])

