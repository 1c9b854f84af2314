"""Kernels the fuzzer found failing, kept as regression tests: each runs through `run`
with the configuration that failed. One not fixed yet is marked xfail(strict): it fails
the suite as soon as it passes, so the mark is removed with the fix."""

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
