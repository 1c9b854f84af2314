"""`known_factor`: the constant an index value is a multiple of, read from how it is made."""

from __future__ import annotations

from spyre_sched.frontend import parse_kernel
from spyre_sched.polyhedral.known_multiples import known_factor

KERNEL = """
func.func @k(%P: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c24 = arith.constant 24 : index
  %c64 = arith.constant 64 : index
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %c64 : index
  %two = arith.muli %row, %c24 : index
  %sum = arith.addi %row, %c24 : index
  %diff = arith.subi %row, %c16 : index
  %opaque = arith.addi %row, %P : index
  scf.for %i = %c16 to %c64 step %c24 {
    %j = arith.addi %row, %i : index
  }
  return
}
"""


def test_known_factors():
    func = parse_kernel(KERNEL, "k.mlir").func
    values = {r.name_hint: r for op in func.walk() for r in op.results}
    loop = next(op for op in func.walk() if op.name == "scf.for")
    assert known_factor(values["c0"]) == 0  # (a multiple of anything)
    assert known_factor(values["t"]) == 1
    assert known_factor(values["row"]) == 64
    assert known_factor(values["two"]) == 64 * 24
    assert known_factor(values["sum"]) == 8  # gcd(64, 24)
    assert known_factor(values["diff"]) == 16
    assert known_factor(values["opaque"]) == 1  # an argument: nothing known
    assert known_factor(loop.body.block.args[0]) == 8  # from 16 by 24: gcd(16, 24)
    assert known_factor(values["j"]) == 8
