"""Kernels the fuzzer found failing, kept as regression tests: each runs through `run`
with the configuration that failed. One not fixed yet is marked xfail(strict): it fails
the suite as soon as it passes, so the mark is removed with the fix (none is open now)."""

from __future__ import annotations

from pathlib import Path


import spyre_sched

FOUND = Path(__file__).parent / "found"


def test_row_sum_split_over_instances_and_partial_tiles():
    result = spyre_sched.run(str(FOUND / "row_sum_split_rows.mlir"), strategy="solver",
                             objective="latency")
    assert result.verdict == "MATCH", result.mismatches


def test_row_sum_split_rows_matches_under_the_heuristic():
    result = spyre_sched.run(str(FOUND / "row_sum_split_rows.mlir"), strategy="heuristic")
    assert result.verdict == "MATCH", result.mismatches


def test_broadcast_row_that_is_the_only_input():
    result = spyre_sched.run(str(FOUND / "broadcast_row_only_input.mlir"), strategy="heuristic")
    assert result.verdict == "MATCH", result.mismatches


def test_inout_argument_with_rows_at_run_time_below_the_bound():
    result = spyre_sched.run(str(FOUND / "inout_rows_at_run_time.mlir"), strategy="heuristic",
                             runtime_args={"n": 7})
    assert result.verdict == "MATCH", result.mismatches


def test_error_bound_through_gelu_after_a_row_sum():
    result = spyre_sched.run(str(FOUND / "gelu_after_row_sum.mlir"), strategy="heuristic")
    assert result.verdict == "MATCH", result.mismatches
    assert sum(c.bounded for c in result.checks.values()) > 0


def test_an_input_too_large_to_make_whole_is_refused_naming_it(tmp_path):
    """A mutant (seed 32) widened a view's coordinate set to 2^40 columns: the reference
    makes only the window the kernel reads (a `WindowedInput`), which `run` took for an
    array (exit 2). Its memory is placed whole or refused, naming the argument."""
    from spyre_sched.fuzz.commands import invoke

    text = (FOUND.parents[2] / "examples" / "add_96x64.mlir").read_text()
    wide = "#wideA = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 1099511627776 >= 0)>\n"
    text = wide + text.replace("%Av = ktdp.construct_memory_view %A, sizes: [96, 64], strides: [64, 1] {\n"
                               "      coordinate_set = #whole", "%Av = ktdp.construct_memory_view %A, "
                               "sizes: [96, 64], strides: [64, 1] {\n      coordinate_set = #wideA")
    assert "#wideA," in text
    kernel = tmp_path / "wide.mlir"
    kernel.write_text(text)
    code, output = invoke(["run", str(kernel), "--strategy", "heuristic"], None)
    assert code == 1, output
    assert "argument 'A'" in output and "does not fit the emulated device" in output


def test_a_masked_store_reads_its_source_when_issued():
    result = spyre_sched.run(str(FOUND / "masked_store_read_at_issue.mlir"),
                             device="sample_device", strategy="solver", objective="memory")
    assert result.verdict == "MATCH", result.mismatches
    assert result.decisions["p0.tile.l1.d0"] == 1  # one row per iteration: the case found


def test_each_box_of_a_gathered_tile_reads_its_own_address_buffer():
    result = spyre_sched.run(str(FOUND / "gather_two_boxes_own_addresses.mlir"),
                             strategy="solver", objective="latency")
    assert result.verdict == "MATCH", result.mismatches


def test_store_coverage_of_a_3d_grid_is_made_tile_by_tile():
    from spyre_sched.frontend import load_kernel, parse_kernel
    from spyre_sched.polyhedral.kernel_model import KernelModel
    from spyre_sched.polyhedral.races import store_coverage

    path = FOUND / "coverage_3d_grid_column_sums.mlir"
    [covered] = store_coverage(KernelModel(load_kernel(str(path)).func))
    assert covered.complete
    # one sum fewer per tile: the last of each tile's 100 is never written, and found
    text = path.read_text()
    whole = "(d0 >= 0, -d0 + 99 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>"
    assert text.count(whole) == 1
    short = text.replace(whole, whole.replace("99", "98"))
    [gap] = store_coverage(KernelModel(parse_kernel(short, "short.mlir").func))
    assert not gap.complete and gap.missing[0] % 100 == 99


def test_the_bound_of_a_launch_counts_its_run_time_rows():
    from spyre_sched.device import load_device
    from spyre_sched.frontend import load_kernel
    from spyre_sched.fuzz.runner import Config, run_kernel
    from spyre_sched.roofline import roofline

    path = FOUND / "runtime_rows_matmul_bound.mlir"
    spyre = load_device("spyre")
    largest = roofline(load_kernel(str(path)), spyre).bound_cycles
    eight = roofline(load_kernel(str(path)), spyre, {"n": 8}).bound_cycles
    assert eight * 2 == largest  # MAC-bound: half the rows, half the MACs
    [outcome] = run_kernel(path.read_text(), {"n": 8}, 1,
                           only=[Config("spyre", "solver", "latency")]).outcomes
    assert outcome.status == "match", (outcome.status, outcome.detail)
    assert outcome.bound == eight <= outcome.cycles


def test_an_overflow_another_order_avoids_is_unchecked_not_a_mismatch():
    result = spyre_sched.run(str(FOUND / "exp_of_matmul_at_overflow.mlir"), seed=292,
                             strategy="heuristic")
    assert result.verdict == "UNCHECKED", result.mismatches
    assert not result.mismatches
    assert result.checks["Y"].unchecked > 0 and result.checks["Y"].bounded > 0


def test_a_nan_after_a_matmul_whose_partial_sums_may_overflow_is_not_a_mismatch():
    """The emulator's f16 partial sums overflowed where the reference's exact sum did not,
    and mm - mm gave NaN where the reference has 0.0: the bound of such a sum says its
    value may be NaN, so those elements are unchecked (and counted), never failed."""
    result = spyre_sched.run(str(FOUND / "nan_after_matmul_overflow.mlir"),
                             strategy="solver", objective="latency")
    assert result.verdict == "UNCHECKED", result.mismatches
    assert not result.mismatches
    check = result.checks["Y"]
    assert check.unchecked > 0 and check.failed == 0


def test_a_matmul_that_feeds_no_store_is_not_in_the_bound():
    """The matmul's result reaches no output: the scheduler drops it, and the bound counted
    its 80 KB of weights (2,500 cycles against 1,305 emulated). Dead work is not counted."""
    from spyre_sched.device import load_device
    from spyre_sched.frontend import load_kernel
    from spyre_sched.roofline import roofline

    path = FOUND / "dead_matmul_below_bound.mlir"
    result = spyre_sched.run(str(path), strategy="solver", objective="latency")
    assert result.verdict == "MATCH", result.mismatches
    bound = roofline(load_kernel(path), load_device("spyre"), {})
    assert result.cycles >= bound.program_bound_cycles >= bound.bound_cycles
    assert any("feed no store" in note for note in bound.notes)


def test_a_reference_nan_from_an_avoidable_overflow_is_not_required():
    """The reference's exp(exp(s)) overflowed where the emulator's reordered sum s did not,
    so the reference has NaN (inf - inf) and the emulator 0.0: that NaN is not a value
    every order gives, so the element is unchecked, never a MISMATCH."""
    result = spyre_sched.run(str(FOUND / "nan_from_an_overflow_another_order_avoids.mlir"),
                             strategy="heuristic", seed=453)
    assert result.verdict == "UNCHECKED", result.mismatches
    assert not result.mismatches and result.checks["Y"].exact > 0


def test_a_reference_nan_from_overflowed_products_is_not_required():
    """The reference's f16 products overflowed to both infinities (NaN sum) where the
    matrix unit, adding products unrounded, stayed finite: unchecked, not a MISMATCH."""
    result = spyre_sched.run(
        str(FOUND / "nan_from_products_the_matrix_unit_does_not_round.mlir"),
        strategy="heuristic", seed=951)
    assert result.verdict == "UNCHECKED", result.mismatches
    assert not result.mismatches and result.checks["Y"].bounded > 0


def test_a_reciprocal_of_a_value_that_may_change_sign_bounds_nothing_after_it():
    result = spyre_sched.run(str(FOUND / "reciprocal_of_a_sum_that_may_change_sign.mlir"),
                             strategy="solver", objective="latency")
    assert result.verdict == "MATCH", result.mismatches
    assert result.checks["Y"].bounded > 0


def test_paged_rows_merged_through_a_broadcast_bias_column():
    for strategy in ("solver", "heuristic"):
        result = spyre_sched.run(str(FOUND / "paged_rows_plus_bias_column.mlir"), strategy=strategy)
        assert result.verdict == "MATCH", result.mismatches


def test_paged_rows_merged_through_a_row_sum():
    for strategy in ("solver", "heuristic"):
        result = spyre_sched.run(str(FOUND / "paged_rows_summed.mlir"), strategy=strategy)
        assert result.verdict == "MATCH", result.mismatches


def test_paged_rows_plus_a_column_major_tile_staged_for_the_reshape():
    for strategy in ("solver", "heuristic"):
        result = spyre_sched.run(str(FOUND / "paged_rows_plus_column_major_tile.mlir"),
                                 strategy=strategy)
        assert result.verdict == "MATCH", result.mismatches
