"""`spyre-sched bench --quick` end to end, and the bound's promise: no emulated schedule is
faster than the roofline bound."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import spyre_sched
from spyre_sched.bench.measure import pipeline_available
from spyre_sched.bench.suite import suite_kernels
from spyre_sched.bench.summary import DERIVED_FIELDS, KERNEL_FIELDS, SUMMARY_FIELDS
from spyre_sched.cli import main
from spyre_sched.device import load_device
from spyre_sched.errors import SpyreSchedError
from spyre_sched.frontend import load_kernel
from spyre_sched.roofline import roofline

ROOT = Path(__file__).resolve().parents[2]
FIXTURE_BUNDLE = ROOT / "tests" / "lower" / "fixtures" / "add_96x64_bundle"


def _missing_pipeline() -> str | None:
    try:
        pipeline_available()
    except SpyreSchedError as err:
        return str(err)
    return None


MISSING = _missing_pipeline()
needs_pipeline = pytest.mark.skipif(MISSING is not None, reason=f"{MISSING}")


@pytest.fixture(scope="module")
def quick_bench(tmp_path_factory):
    """One `bench --quick` run shared by the tests below (it is the expensive part)."""
    out = tmp_path_factory.mktemp("bench") / "bench.json"
    result = CliRunner().invoke(main, ["bench", "--quick", "--jobs", "2", "--json", str(out)])
    return result, out


@needs_pipeline
def test_bench_quick_writes_json_with_every_field(quick_bench):
    result, out = quick_bench
    assert result.exit_code == 0, result.output
    doc = json.loads(out.read_text())
    assert doc["device"] == "spyre" and doc["quick"] is True
    assert [k["name"] for k in doc["kernels"]] == [p.stem for p in suite_kernels(quick=True)]
    for kernel in doc["kernels"]:
        missing = (set(KERNEL_FIELDS) | set(DERIVED_FIELDS)) - set(kernel)
        assert not missing, (kernel["name"], missing)
        assert kernel["error"] is None, kernel["error"]
        assert kernel["correct"] is True, (kernel["name"], kernel["solver"]["mismatches"],
                                           kernel["heuristic"]["mismatches"])
        for field in ("solver_cycles", "heuristic_cycles", "bound_cycles"):
            assert isinstance(kernel[field], int) and kernel[field] > 0
    assert set(SUMMARY_FIELDS) <= set(doc["summary"])
    assert "summary: geomean speedup over heuristic" in result.output


@needs_pipeline
def test_emulated_cycles_are_never_below_the_bound(quick_bench):
    _, out = quick_bench
    doc = json.loads(out.read_text())
    below = [(k["name"], strategy, k[f"{strategy}_cycles"], k["bound_cycles"], k["bound"])
             for k in doc["kernels"] for strategy in ("solver", "heuristic")
             if k[f"{strategy}_cycles"] is not None
             and k[f"{strategy}_cycles"] < k["bound_cycles"]]
    assert below == [], f"emulated faster than physically possible: {below}"
    assert doc["summary"]["below_bound"] == 0


def test_hand_written_bundle_is_not_below_the_bound():
    """The lowering's hand-written 96x64 add bundle, emulated: not faster than the bound."""
    if not FIXTURE_BUNDLE.is_dir():
        pytest.skip("the lowering's hand-written add bundle is not in this tree")
    result = spyre_sched.run(str(FIXTURE_BUNDLE))
    bound = roofline(load_kernel(FIXTURE_BUNDLE / "kernel.mlir"), load_device("spyre"))
    assert result.matches
    assert bound.bound_cycles == 246
    assert result.cycles >= bound.bound_cycles


def test_bench_with_an_unknown_kernel_or_device_exits_1():
    runner = CliRunner()
    for args, words in ((["bench", "--quick", "--kernel", "nope"], "no suite kernel named nope"),
                        (["bench", "--quick", "--device", "no_such_device"], "no_such_device")):
        result = runner.invoke(main, args)
        assert result.exit_code == 1, result.output
        assert "error" in result.output and words in result.output
