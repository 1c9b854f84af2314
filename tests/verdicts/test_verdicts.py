"""No false verdicts: what `run` compares, and when it may say MATCH (docs/numerics.md,
docs/emulator.md "Comparing with the reference").

- a device's pattern (spyre's silu = x * sigmoid(x)) is what the reference evaluates, so
  a plain SiLU kernel matches bit for bit, and the report never says "bit-exact" beside
  a non-zero error;
- a kernel with a proven race is not compiled (compile, run, explain, the API) unless
  races are allowed;
- a non-finite reference value must be matched exactly, an element with an infinite
  bound is counted as not checked and keeps the verdict from MATCH;
- a sum a loop carries in a vector is bounded for that vector's type (its accumulator);
- an elementwise result's bound keeps the interval its hardware value lies in, so a
  written-out sigmoid after a reordered sum keeps 1 + exp(-x) positive;
- a kernel that stores through a constant address has those ranges as outputs; nothing
  compared is never a MATCH; memory starts poisoned, so a forgotten store fails.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import emulator.reference as reference
import spyre_sched
from emulator.numerics import comparison_classes, compare_with_bound, round_to, element_type
from emulator.numerics.poison import POISON_BYTE, poisoned
from emulator.reference.memory import DeviceMemory
from emulator.runtime import Runtime
from spyre_sched.cli import main
from spyre_sched.emulate import ReferenceRun, compare, report
from spyre_sched.frontend import parse_kernel
from spyre_sched.errors import AnalysisError, ExecutionError

ROOT = Path(__file__).parents[2]
KERNELS = Path(__file__).parent / "kernels"


def cli(*args: str):
    return CliRunner().invoke(main, [str(a) for a in args])


# ---- a device pattern's rounding -------------------------------------------------------


def test_the_reference_evaluates_the_devices_silu():
    """spyre defines silu(x) as mulf(x, sigmoid(x)): two roundings. The reference given the
    device computes exactly that; without a device, the op as written (one rounding)."""
    kernel = reference.as_kernel(KERNELS / "silu.mlir")
    inputs = reference.make_inputs(kernel, 0)
    as_written = reference.run(kernel, inputs)["Y"]
    on_spyre = reference.run(kernel, inputs, device="spyre")["Y"]
    x = inputs["A"].astype(np.float64)
    f16 = element_type("f16")
    sigmoid = round_to(f16, 1.0 / (1.0 + np.exp(-x)))
    assert np.array_equal(on_spyre, round_to(f16, x * sigmoid.astype(np.float64)))
    assert np.count_nonzero(on_spyre != as_written) > 1000  # the two roundings differ
    # the kernel object itself is not rewritten: it still runs the op as written
    assert np.array_equal(reference.run(kernel, inputs)["Y"], as_written)


def test_a_silu_kernel_matches_bit_for_bit_and_the_report_agrees_with_itself():
    result = spyre_sched.run(KERNELS / "silu.mlir", strategy="heuristic")
    assert result.verdict == "MATCH" and result.matches, result.mismatches
    check = result.checks["Y"]
    assert (check.exact, check.bounded, check.unchecked, check.failed) == (32768, 0, 0, 0)
    text = report(result)
    assert ("output %Y: max error 0; 32768 elements: 32768 compared bit for bit, 0 within a "
            "finite bound, 0 not checked (no finite bound)") in text
    assert "result: MATCH" in text


def test_a_non_zero_error_is_never_called_bit_exact():
    """The report's line for an output that fails: its error and its failures side by side."""
    want = np.array([1.0, 2.0, 3.0], dtype=np.float16)
    got = want.copy()
    got[1] = np.nextafter(got[1], np.float16(4))
    check = compare("Y", got, want, None)
    line = spyre_sched.emulate.check_line("Y", check)
    assert "bit-exact" not in line
    assert line.startswith("output %Y: max error 0.00195312; 3 elements: 3 compared bit for bit")
    assert line.endswith("; 1 fail") and "bit-exact required" in check.problem


# ---- races -----------------------------------------------------------------------------

RACE = ("write race: stores through %Ct: tiles 30 and 31 both write coordinate [62, 63] in "
        "global")


@pytest.mark.parametrize("command", [
    ["compile", "-o", "{tmp}/bundle"], ["compile", "--emit", "ktdf"],
    ["compile", "--emit", "solved"], ["run"], ["explain"]])
def test_a_kernel_with_a_proven_race_is_not_compiled(command, tmp_path):
    racy = KERNELS / "racy_add.mlir"
    checked = cli("check", racy)
    assert checked.exit_code == 1 and RACE in checked.output
    args = [a.format(tmp=tmp_path) for a in command]
    out = cli(args[0], racy, *args[1:])
    assert out.exit_code == 1, out.output
    assert f"racy_add.mlir:30:3: error: {RACE}; a kernel with a proven race is not compiled" \
        in out.output and "--allow-races" in out.output
    assert not (tmp_path / "bundle").exists()


def test_allow_races_compiles_it_anyway(tmp_path):
    racy = KERNELS / "racy_add.mlir"
    out = cli("compile", racy, "-o", tmp_path / "bundle", "--allow-races",
              "--strategy", "heuristic")
    assert out.exit_code == 0, out.output
    assert cli("explain", racy, "--allow-races", "--strategy", "heuristic").exit_code == 0
    with pytest.raises(AnalysisError, match="write race"):
        spyre_sched.compile(racy, strategy="heuristic")
    assert spyre_sched.compile(racy, strategy="heuristic", allow_races=True).decisions
    result = spyre_sched.run(racy, strategy="heuristic", allow_races=True)
    assert result.verdict in ("MATCH", "MISMATCH")  # timing decides; it ran


# ---- non-finite values and infinite bounds ---------------------------------------------


def test_nan_input_softmax_tampered_outputs_fail():
    """Rows 0-2 meet a NaN, +inf and -inf: the reference's outputs there are NaN (every
    element of rows 0 and 1), a NaN every order gives (each corner of the bound is NaN
    too). Replacing 1,024 outputs by 0.5 (or flipping an infinity) used to pass under
    infinite bounds; now those values are compared exactly."""
    kernel = reference.as_kernel(ROOT / "examples/softmax_rows.mlir")
    x = reference.make_inputs(kernel, 0)["X"].copy()
    x[0, 5], x[1, 7], x[2, 9] = np.nan, np.inf, -np.inf
    outputs, bounds = reference.run_with_error_bounds(kernel, {"X": x}, "f32", device="spyre")
    want, bound = outputs["Y"], bounds["Y"]
    assert np.isnan(want[:2]).all() and comparison_classes(want, bound)[0][:2].all()
    untouched = compare("Y", want.copy(), want, bound)
    assert untouched.failed == 0 and untouched.unchecked == 0
    assert untouched.exact + untouched.bounded == want.size
    tampered = want.copy()
    tampered[:4] = 0.5  # 1,024 elements
    check = compare("Y", tampered, want, bound)
    assert check.failed == 1024 and "reference np.float16(nan)" in check.problem


def test_infinities_must_be_the_same_infinity():
    want = np.array([np.inf, -np.inf, np.nan, 1.0], dtype=np.float32)
    bound = np.full(4, np.inf)
    flipped = np.array([-np.inf, np.inf, 1.0, 1.0], dtype=np.float32)
    passes, _, _ = compare_with_bound(flipped, want, bound)
    assert passes.tolist() == [False, False, False, True]
    # an infinity under an infinite bound is not checked (another order of the sum may
    # stay finite) but keeps its sign; NaN stays bit for bit
    exact, bounded, unchecked = comparison_classes(want, bound)
    assert exact.tolist() == [False, False, True, False]
    assert unchecked.tolist() == [True, True, False, True] and not bounded.any()


def test_an_element_with_an_infinite_bound_is_not_checked_and_not_a_match(tmp_path):
    """The caller's reference run gives one element an infinite bound: it is counted as
    not checked and the verdict is UNCHECKED (exit 1), not MATCH."""
    bundle = tmp_path / "bundle"
    assert cli("compile", KERNELS / "zero_rows.mlir", "-o", bundle,
               "--strategy", "heuristic").exit_code == 0
    first = spyre_sched.run(bundle)
    assert first.verdict == "MATCH"
    bounds = {"C": np.zeros(first.reference_run.outputs["C"].shape)}
    bounds["C"][0, :3] = np.inf
    loose = ReferenceRun(first.reference_run.outputs, bounds, first.reference_run.accumulator)
    result = spyre_sched.run(bundle, reference=loose)
    assert result.verdict == "UNCHECKED" and not result.matches and not result.mismatches
    assert result.checks["C"].unchecked == 3
    assert "3 of 4224 elements not checked" in result.unchecked[0]
    text = report(result)
    assert "3 not checked (no finite bound)" in text and "result: UNCHECKED" in text
    assert result.as_dict()["elements"]["C"] == {
        "elements": 4224, "exact": 4221, "bounded": 0, "unchecked": 3, "failed": 0}


# ---- outputs at constant addresses, nothing compared, poisoned memory -------------------


def test_stores_through_a_constant_address_are_outputs(tmp_path):
    kernel = KERNELS / "address_store.mlir"
    (found,) = reference.stored_address_ranges(kernel)
    assert (found.name, found.offset, found.count, found.element_type) == \
        ("global@0x20000", 65536, 32768, "f16")
    saved = tmp_path / "ref.npz"
    out = cli("reference", kernel, "--save-outputs", saved)
    assert out.exit_code == 0 and out.output.startswith("global@0x20000: 32768 float16")
    inputs = reference.make_inputs(reference.as_kernel(kernel), 0)
    with np.load(saved) as data:
        assert data.files == ["global@0x20000"]
        a = inputs["A"].reshape(-1)
        assert np.array_equal(data["global@0x20000"], (a + a).astype(np.float16))
    ran = cli("run", kernel, "--strategy", "heuristic", "--json", "--save-outputs",
              tmp_path / "emu.npz")
    assert ran.exit_code == 0, ran.output
    doc = json.loads(ran.output)
    assert doc["verdict"] == "MATCH"
    assert doc["elements"]["global@0x20000"]["exact"] == 32768
    with np.load(tmp_path / "emu.npz") as data, np.load(saved) as want:
        assert np.array_equal(data["global@0x20000"], want["global@0x20000"])


def test_a_tensor_left_pinned_in_a_scratchpad_is_an_output():
    """The only output of pinned_output.mlir lies in core 2's scratchpad, stored by tile
    1 (over the ring): both executors read it back and it is compared; a store that lost
    it (the bytes left as the memory started) fails."""
    kernel = KERNELS / "pinned_output.mlir"
    (found,) = reference.stored_address_ranges(kernel)
    assert (found.name, found.offset, found.count, found.memory) == \
        ("ct_local(core 2)@0x0", 0, 2048, 2)
    x = np.random.default_rng(8).uniform(-2, 2, (128, 64)).astype(np.float16)
    for strategy in ("solver", "heuristic"):
        result = spyre_sched.run(kernel, {"X": x}, strategy=strategy)
        assert result.verdict == "MATCH", result.mismatches
        assert result.checks["ct_local(core 2)@0x0"].exact == 2048
        np.testing.assert_array_equal(result.outputs["ct_local(core 2)@0x0"],
                                      (x[32:64] + x[32:64]).reshape(-1))


def test_a_lost_store_into_a_scratchpad_fails(monkeypatch):
    launch = Runtime.launch

    def lossy(self, prepared, args, *rest, **options):
        result = launch(self, prepared, args, *rest, **options)
        self.write_tensor(0, np.full(64, np.nan, np.float16), "f16", core=2)
        return result

    monkeypatch.setattr(Runtime, "launch", lossy)
    result = spyre_sched.run(KERNELS / "pinned_output.mlir", strategy="heuristic")
    assert result.verdict == "MISMATCH"
    assert result.checks["ct_local(core 2)@0x0"].failed == 64


def test_nothing_compared_is_never_a_match(tmp_path):
    bundle = tmp_path / "bundle"
    assert cli("compile", KERNELS / "zero_rows.mlir", "-o", bundle,
               "--strategy", "heuristic").exit_code == 0
    first = spyre_sched.run(bundle)
    nothing = ReferenceRun({}, {}, first.reference_run.accumulator)
    result = spyre_sched.run(bundle, reference=nothing)
    assert result.verdict == "UNCHECKED" and not result.matches
    assert "no output element was compared" in report(result)


def test_reference_of_a_kernel_without_outputs_says_so(tmp_path):
    text = (KERNELS / "zero_rows.mlir").read_text()
    loads_only = re.sub(r"  ktdp\.store .*\n", "", text)
    path = tmp_path / "loads_only.mlir"
    path.write_text(loads_only)
    saved = tmp_path / "out.npz"
    out = cli("reference", path, "--save-outputs", saved)
    assert out.exit_code == 1 and "has no outputs" in out.output
    assert not saved.exists()


def test_both_executors_start_from_the_poison_pattern():
    assert POISON_BYTE == 0xFF and (poisoned(8) == 0xFF).all()
    runtime = Runtime("spyre")
    fresh = runtime.read_tensor(runtime.allocate((4, 4), "f16"), (4, 4), "f16")
    assert np.isnan(fresh).all()
    memory = DeviceMemory(256, 2, 1024)
    assert (memory.buffer("global") == POISON_BYTE).all()
    assert (memory.buffer(1) == POISON_BYTE).all()  # a scratchpad, made on first use


def test_unwritten_elements_are_poison_in_both_and_compare_equal():
    """zero_rows never writes rows 64 and 65 of C: both executors leave them NaN."""
    result = spyre_sched.run(KERNELS / "zero_rows.mlir", strategy="heuristic")
    assert result.verdict == "MATCH", result.mismatches
    assert np.isnan(result.outputs["C"][64:]).all() and np.isnan(result.reference["C"][64:]).all()
    assert (result.outputs["C"][:64] == 0).all()


def test_a_forgotten_store_fails(monkeypatch, tmp_path):
    """A lowering that forgot a tile's store leaves its elements as the memory started.
    The right answer there is +0: zero-filled memory hid this; the poison does not."""
    bundle = tmp_path / "bundle"
    assert cli("compile", KERNELS / "zero_rows.mlir", "-o", bundle,
               "--strategy", "heuristic").exit_code == 0
    launch = Runtime.launch

    def forgetful(self, prepared, args, *rest, **options):
        result = launch(self, prepared, args, *rest, **options)
        # tile 5's two rows (elements 640..767 of C) as if never stored
        first = (args["C"] + 5 * 2 * 64) * 2
        self.global_memory.write_bytes(first, poisoned(2 * 64 * 2))
        return result

    monkeypatch.setattr(Runtime, "launch", forgetful)
    result = spyre_sched.run(bundle)
    assert result.verdict == "MISMATCH"
    assert (result.reference["C"][10:12] == 0).all()
    assert result.checks["C"].failed == 128
    assert "first at [10, 0]: emulated np.float16(nan), reference np.float16(0.0)" \
        in result.mismatches[0]


# ---- the accumulator a bound is for ---------------------------------------------------


def test_a_sum_carried_across_loop_iterations_is_bounded_in_its_own_type():
    # The bundle has no vectorchain.reduce: the column sum is a loop-carried f16 vector
    # add. Bounding it as an f32 accumulation said MISMATCH on a correct schedule.
    result = spyre_sched.run(str(KERNELS / "col_sum_f16.mlir"), strategy="heuristic")
    assert result.verdict == "MATCH", result.mismatches
    assert result.reference_run.accumulator == "f16"


def test_a_written_out_sigmoid_keeps_its_denominator_positive():
    # an f16 matmul summed in any order: exp(-gate) +- its bound reaches below zero, so
    # without the interval exp's hardware value lies in, 1 / (1 + exp(-gate)) is bounded
    # only by the overflow threshold (65,521); with it, by a few units
    kernel = KERNELS / "sigmoid_written_out_after_matmul.mlir"
    inputs = reference.make_inputs(reference.as_kernel(kernel), 0)
    _, bounds = reference.run_with_error_bounds(kernel, inputs, "f16")
    assert np.isfinite(bounds["Y"]).all() and bounds["Y"].max() < 4
    result = spyre_sched.run(kernel, strategy="heuristic")
    assert result.verdict == "MATCH", result.mismatches


def test_loads_through_constant_addresses_are_inputs(tmp_path):
    """Memory a kernel reads at hard-coded addresses (device memory, a named core's
    scratchpad) gets made values in both executors: the output is computed from them,
    so an output left as the poison memory starts with cannot pass as a copy of it."""
    kernel = KERNELS / "address_loads.mlir"
    found = reference.loaded_address_ranges(kernel)
    assert [(a.name, a.offset, a.count, a.memory) for a in found] == [
        ("ct_local(core 1)@0x0", 0, 4096, 1), ("global@0x0", 0, 4096, "global")]
    inputs = reference.make_inputs(reference.as_kernel(kernel), 0)
    assert set(inputs) == {"ct_local(core 1)@0x0", "global@0x0"}
    x = np.concatenate([inputs["global@0x0"], inputs["ct_local(core 1)@0x0"]])
    assert np.isfinite(x).all()
    result = spyre_sched.run(str(kernel), {}, strategy="heuristic")
    assert result.verdict == "MATCH", result.mismatches
    assert result.checks["global@0x8000"].exact == 8192
    assert np.array_equal(result.outputs["global@0x8000"], (x + x).astype(np.float16))
    # a caller's values for that memory are used as given
    given = {"global@0x0": np.ones(4096, np.float16),
             "ct_local(core 1)@0x0": np.full(4096, 3, np.float16)}
    result = spyre_sched.run(str(kernel), given, strategy="heuristic")
    assert result.verdict == "MATCH"
    assert set(np.unique(result.outputs["global@0x8000"])) == {2.0, 6.0}


def test_outputs_that_are_all_poison_are_unchecked_not_a_match():
    kernel = KERNELS / "address_copy_of_poison.mlir"
    assert reference.loaded_address_ranges(kernel) == []  # the f16 and i32 views overlap
    result = spyre_sched.run(str(kernel), {})
    assert result.verdict == "UNCHECKED" and not result.mismatches
    assert "poison pattern" in result.unchecked[0]


def test_an_unknown_input_name_lists_the_inputs_at_constant_addresses_too():
    """A kernel with no arguments reads memory at hard-coded addresses: a misspelt input
    name is refused with the names it could have been, not with an empty list."""
    kernel = KERNELS / "address_loads.mlir"
    with pytest.raises(ExecutionError, match=re.escape(
            "'global@0x10' is not an argument of @address_loads (its arguments: none; its "
            "inputs at constant addresses: ct_local(core 1)@0x0, global@0x0; memory read "
            "through a constant address is an input only where no view of another element "
            "type overlaps it)")):
        reference.run(kernel, {"global@0x10": np.zeros(8, np.float16)})


def test_inputs_at_constant_addresses_count_against_the_memory_cap():
    kernel = reference.as_kernel(KERNELS / "address_loads.mlir")
    with pytest.raises(ExecutionError, match=r"making the random inputs needs 65536 bytes "
                       r"\(ct_local\(core 1\)@0x0 32768 bytes, global@0x0 32768 bytes\)"):
        reference.make_inputs(kernel, 0, memory_cap=60000)


def test_scattered_indices_at_a_constant_address_are_made_distinct():
    kernel = KERNELS / "address_scatter_add.mlir"
    inputs = reference.make_inputs(reference.as_kernel(kernel), 0)
    idx = inputs["global@0x0"]
    assert idx.dtype == np.int32 and len(set(idx.tolist())) == 64 and 0 <= idx.min() \
        and idx.max() <= 127
    result = spyre_sched.run(str(kernel), {}, strategy="heuristic")
    assert result.verdict == "MATCH", result.mismatches
    want = inputs["Y"].astype(np.float64)
    want[idx] += inputs["U"].astype(np.float64)
    assert np.array_equal(result.outputs["Y"], want.astype(np.float16))


def test_a_view_that_reaches_no_memory_makes_no_input():
    """A view at an offset far below 0 (a mutant: `arith.constant -9223372036854775808`)
    reaches no element of device memory: no input range for it (a negative count crashed
    `make_inputs`)."""
    text = (KERNELS / "address_loads.mlir").read_text().replace(
        "%c0 = arith.constant 0 : index",
        "%c0 = arith.constant 0 : index\n  %far = arith.constant -9223372036854775808 : index"
    ).replace("%Xg = ktdp.construct_memory_view %c0,", "%Xg = ktdp.construct_memory_view %far,")
    kernel = reference.as_kernel(parse_kernel(text, "far.mlir"))
    assert [a.name for a in reference.loaded_address_ranges(kernel)] == ["ct_local(core 1)@0x0"]
    assert set(reference.make_inputs(kernel, 0)) == {"ct_local(core 1)@0x0"}


def test_an_input_past_the_end_of_a_scratchpad_is_a_located_error():
    """A view at a constant address whose rows run past its core's scratchpad (a mutant's
    stride) gets an input that cannot be placed: an error at the kernel, not a crash."""
    text = (KERNELS / "address_loads.mlir").read_text().replace(
        "sizes: [32, 128], strides: [128, 1] {\n      coordinate_set = #bottom",
        "sizes: [32, 128], strides: [131072, 1] {\n      coordinate_set = #bottom")
    kernel = reference.as_kernel(parse_kernel(text, "past.mlir"))
    with pytest.raises(ExecutionError, match=r"input ct_local\(core 1\)@0x0: bytes .* are "
                       "outside the scratchpad of tile 1"):
        reference.run(kernel, reference.make_inputs(kernel, 0))
