"""Pointer arguments the caller pins in scratchpads (`ct_local` views on the argument):
the compiler chooses the offset (`place-scratchpad-arguments`), the job plan states the
placement, the runtime places the tensor there (whole in one core's scratchpad, a copy
in every core's own, or each part of a distributed tensor in its core's) and reads an
output back from there; the reference interpreter places the same tensor at its own
offset, so a MATCH compares the computations, not the addresses."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import spyre_sched
from emulator.bundle_fields import check_plan
from emulator.runtime import Runtime
from spyre_sched import api
from spyre_sched.errors import ParseError, SpyreSchedError
from spyre_sched.lower.bundle import write_bundle

ROOT = Path(__file__).resolve().parents[2]
KERNELS = ROOT / "tests" / "crosscore" / "kernels"
PINNED_INPUT = ROOT / "tests" / "emulator" / "kernels" / "pinned_input.mlir"
DISTRIBUTED = ROOT / "tests" / "emulator" / "kernels" / "distributed_argument.mlir"
OWN = KERNELS / "own_scratchpad_bias.mlir"
OUTPUT = KERNELS / "scratchpad_output_argument.mlir"
BESIDE = KERNELS / "scratchpad_argument_beside_pinned.mlir"
STRATEGIES = ["solver", "heuristic"]


def _f16(seed: int, shape) -> np.ndarray:
    return np.random.default_rng(seed).uniform(-2, 2, shape).astype(np.float16)


def _run(kernel: Path, strategy: str, inputs: dict) -> spyre_sched.RunResult:
    schedule = spyre_sched.compile(str(kernel), strategy=strategy)
    result = spyre_sched.run(schedule, inputs)
    assert result.verdict == "MATCH", result.mismatches
    return result


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_an_input_pinned_in_one_cores_scratchpad(strategy):
    w = _f16(1, (64,))
    result = _run(PINNED_INPUT, strategy, {"W": w})
    np.testing.assert_array_equal(result.outputs["Y"], np.tile(w + np.float16(1), (4, 1)))


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_a_distributed_input_and_output(strategy):
    x = _f16(2, (128, 64))
    result = _run(DISTRIBUTED, strategy, {"X": x})
    rows = [(32 * t + 16) % 112 for t in range(4)]
    np.testing.assert_array_equal(
        result.outputs["O"], np.concatenate([x[r:r + 32] for r in rows]))
    np.testing.assert_array_equal(result.outputs["Y"], x + x)


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_an_input_in_every_cores_own_scratchpad(strategy):
    x, b = _f16(3, (4, 64)), _f16(4, (64,))
    result = _run(OWN, strategy, {"X": x, "B": b})
    np.testing.assert_array_equal(result.outputs["Y"], x + b)


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_an_output_pinned_in_another_cores_scratchpad(strategy):
    x = _f16(5, (4, 64))
    result = _run(OUTPUT, strategy, {"X": x})
    np.testing.assert_array_equal(result.outputs["P"], x + x)


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_an_argument_is_placed_past_the_kernels_own_region(strategy):
    w, s = _f16(7, (64,)), _f16(8, (64,))
    result = _run(BESIDE, strategy, {"W": w, "ct_local(core 1)@0x0": s})
    np.testing.assert_array_equal(result.outputs["Y"], np.tile(w + s, (4, 1)))


def test_the_job_plan_states_each_placement(tmp_path):
    write_bundle(spyre_sched.compile(str(DISTRIBUTED)), tmp_path / "b", kernel_path=DISTRIBUTED)
    args = {a["name"]: a for a in json.loads((tmp_path / "b" / "jobplan.json").read_text())["arguments"]}
    assert "scratchpad" not in args["O"]  # in device memory: a pointer as ever
    x, y = args["X"]["scratchpad"], args["Y"]["scratchpad"]
    assert (args["X"]["role"], args["Y"]["role"]) == ("in", "out")
    assert x["offset"] == 0 and y["offset"] == 2048  # one after the other, 128-byte aligned
    assert [(p["core"], p["lo"], p["hi"], p["strides"]) for p in x["parts"]] == [
        (k, [32 * k, 0], [32 * k + 31, 63], [64, 1]) for k in range(4)]
    write_bundle(spyre_sched.compile(str(OWN)), tmp_path / "own", kernel_path=OWN)
    own = json.loads((tmp_path / "own" / "jobplan.json").read_text())["arguments"]
    assert [a.get("scratchpad") for a in own] == [None, {"offset": 0, "core": None}, None]


def test_the_runtime_places_and_reads_back_by_the_job_plan(tmp_path):
    """The runtime alone (no reference): arrays given for scratchpad arguments are placed
    as the job plan says and outputs read back from there."""
    bundle = write_bundle(spyre_sched.compile(str(DISTRIBUTED)), tmp_path / "b",
                          kernel_path=DISTRIBUTED)
    rt = Runtime("spyre")
    prepared = rt.prepare(bundle)
    x = _f16(6, (128, 64))
    o = rt.allocate((128, 64), "f16")
    y = np.zeros((128, 64), np.float16)
    launched = rt.launch(prepared, {"X": x, "O": o, "Y": y})
    np.testing.assert_array_equal(launched.outputs["Y"], x + x)
    # part 2 of X lies in core 2's scratchpad at the placed offset, as its view reads it
    np.testing.assert_array_equal(rt.read_tensor(0, (32, 64), "f16", core=2), x[64:96])


def test_an_argument_too_large_for_the_scratchpad_is_a_located_error(tmp_path):
    text = PINNED_INPUT.read_text()
    text = (text.replace("sizes: [64], strides: [1]", "sizes: [2097152], strides: [1]")
            .replace("memref<64xf16>", "memref<2097152xf16>")
            .replace("#w = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>",
                     "#w = affine_set<(d0) : (d0 >= 0, -d0 + 2097151 >= 0)>\n"
                     "#w64 = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>")
            .replace("{access_tile_set = #w,", "{access_tile_set = #w64,"))
    kernel = tmp_path / "big.mlir"
    kernel.write_text(text)
    with pytest.raises(SpyreSchedError) as err:
        spyre_sched.compile(str(kernel))
    message = str(err.value)
    assert "big.mlir:14:3" in message and "argument %W is pinned in scratchpads" in message
    assert "4194304 bytes" in message and "2097152-byte scratchpad" in message


def test_a_placement_without_its_offset_is_a_bundle_error(tmp_path):
    bundle = write_bundle(spyre_sched.compile(str(PINNED_INPUT)), tmp_path / "b",
                          kernel_path=PINNED_INPUT)
    plan = json.loads((bundle / "jobplan.json").read_text())
    check_plan(plan, "jobplan.json")
    del plan["arguments"][0]["scratchpad"]["offset"]
    with pytest.raises(ParseError, match=r"arguments\[0\]\.scratchpad\.offset"):
        check_plan(plan, "jobplan.json")


@pytest.mark.parametrize("stop_after", ["place-scratchpad-arguments", "mark-remote-stores"])
def test_a_kernel_printed_after_the_placement_runs_again(tmp_path, stop_after):
    """Printed after the placement, the views read the chosen offsets as constants and the
    function records the placement: still KTIR, the reference binds the unused pointer to
    its offset and reads the scratchpad regions as inputs at constant addresses, and it
    compiles and matches as the kernel did."""
    module, _, _ = api.load_schedule_input(str(DISTRIBUTED), "spyre", stop_after=stop_after)
    text = api.print_ir(module)
    assert "ktdf.scratchpad_arguments" in text and not api._is_schedule_ir(text)
    printed = tmp_path / "after.mlir"
    printed.write_text(text)
    x = _f16(9, (128, 64))
    parts = {f"ct_local(core {k})@0x0": x[32 * k:32 * k + 32] for k in range(4)}
    result = spyre_sched.run(str(printed), parts)
    assert result.verdict == "MATCH", result.mismatches
    rows = [(32 * t + 16) % 112 for t in range(4)]
    np.testing.assert_array_equal(
        result.outputs["O"], np.concatenate([x[r:r + 32] for r in rows]))
