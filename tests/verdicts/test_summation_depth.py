"""The depth a bundle states (docs/numerics.md, "The depth a bundle states"): a reordered
sum's bound counts the accumulator roundings of the order the bundle really sums in (lanes,
blocks a loop carries, a reduce instruction), never more than the n - 1 of any order.

- a stated depth tightens the source bound, and one above n - 1 does not loosen it;
- the depth of a program: reduces once, carried adds once per iteration of each loop
  whose carried vector reaches them; a loop of unknown trip count gives no depth;
- a row statistic of 4096 f16 squares summed in f16 blocks the kernel carries has no
  finite order-free bound, and MATCHes within the bundle's.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

import emulator.reference as reference
import spyre_sched
from emulator.device.ir_file import parse_ir_text
from emulator.device.program import summation_depth
from emulator.numerics.error_bounds import (
    accumulation_error,
    reduction_error_bound,
    rounding_growth,
)
from spyre_sched.emulate import report

KERNELS = Path(__file__).parent / "kernels"


def test_a_stated_depth_tightens_the_bound_and_never_loosens_it():
    any_order = accumulation_error(100.0, 4096, "f16")
    assert accumulation_error(100.0, 4096, "f16", 4095) == any_order
    assert accumulation_error(100.0, 4096, "f16", 10**6) == any_order  # capped at n - 1
    deep = accumulation_error(100.0, 4096, "f16", 36)
    assert rounding_growth(36, 2.0**-11) * 100.0 <= deep < any_order
    # 4096 ones in f16: any order may move the sum by more than itself, 36 roundings not
    ones = np.ones(4096)
    free = reduction_error_bound("add", ones, None, "f16", "f16", 4096.0)
    stated = reduction_error_bound("add", ones, None, "f16", "f16", 4096.0, max_roundings=36)
    assert free > 4096.0 and stated < 0.02 * 4096.0


PROGRAM = """
builtin.module {
  func.func @sums(%n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %z = vectorchain.constant_bitstream "0000" : vector<1xf16>
    %zv = vectorchain.shuffle %z {pattern = array<i64: 0>} : vector<1xf16> -> vector<1x64xf16>
    %slot = scf.for %k = %c0 to %c4 step %c1 iter_args(%s = %c0) -> (index) {
      %lanes = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zv) -> (vector<1x64xf16>) {
        %t = vectorchain.constant_bitstream "3c00" : vector<1xf16>
        %tv = vectorchain.shuffle %t {pattern = array<i64: 0>} : vector<1xf16> -> vector<1x64xf16>
        %sq = vectorchain.mul %tv, %tv : vector<1x64xf16>
        %next = vectorchain.add %acc, %sq : vector<1x64xf16>
        scf.yield %next : vector<1x64xf16>
      }
      %total = scf.for %j = %c0 to %c16 step %c1 iter_args(%a = %z) -> (vector<1xf16>) {
        %r = vectorchain.reduce "add" %lanes : vector<1x64xf16> -> vector<1x1xf16>
        %r1 = vectorchain.shuffle %r {pattern = array<i64: 0>} : vector<1x1xf16> -> vector<1xf16>
        %b = vectorchain.add %a, %r1 : vector<1xf16>
        scf.yield %b : vector<1xf16>
      }
      %k1 = arith.addi %s, %c1 : index
      scf.yield %k1 : index
    }
    func.return
  }
}
"""


def _function(text: str):
    module, _ = parse_ir_text(text, "sums.mlir")
    return next(iter(module.ops))


def test_a_programs_depth_counts_carried_partials_once_per_iteration():
    # the lane add runs 8 times on a carried partial, the reduce once per term (its input
    # is not carried), the scalar add 16 times; the loop carrying only an index is not a sum
    assert summation_depth(_function(PROGRAM)) == 8 + 1 + 16


def test_a_carried_sum_in_a_loop_of_unknown_trip_count_has_no_depth():
    text = PROGRAM.replace("scf.for %i = %c0 to %c8", "scf.for %i = %c0 to %n")
    assert summation_depth(_function(text)) is None


def test_a_long_f16_row_statistic_is_checked_within_the_bundles_depth():
    kernel = KERNELS / "rstd_f16_blocks.mlir"
    inputs = reference.make_inputs(reference.as_kernel(kernel), 0)
    _, free = reference.run_with_error_bounds(kernel, inputs, "f16")
    assert not np.isfinite(free["R"]).any() and not np.isfinite(free["Y"]).any()
    result = spyre_sched.run(kernel, strategy="heuristic")
    depth = result.reference_run.summation_depth
    assert depth is not None and depth < 4095
    assert result.verdict == "MATCH", result.mismatches + result.unchecked
    assert result.checks["R"].bounded == 1 and result.checks["Y"].unchecked == 0
    assert f"at most {depth} roundings per term" in report(result)


def test_a_depth_below_the_truth_can_only_fail_never_pass_a_wrong_value():
    # bounds computed for fewer roundings than the bundle makes are tighter: at worst a
    # correct schedule is called a MISMATCH; they are never looser than any order's
    kernel = KERNELS / "rstd_f16_blocks.mlir"
    inputs = reference.make_inputs(reference.as_kernel(kernel), 0)
    _, tight = reference.run_with_error_bounds(kernel, inputs, "f16", max_roundings=0)
    _, stated = reference.run_with_error_bounds(kernel, inputs, "f16", max_roundings=36)
    assert (tight["R"] <= stated["R"]).all() and np.isfinite(stated["R"]).all()
