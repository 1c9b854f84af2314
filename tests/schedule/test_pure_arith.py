"""xDSL leaves `arith.remui` and `arith.extsi` without the `Pure` trait their siblings
have; program-split copies side-effect-free scalar work into each program, so a tile's
neighbour `(t + 1) remui n` must count as such (else it became a program argument
computed from the tile id in the orchestrator, which the lowering refuses)."""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerType
from xdsl.utils.test_value import create_ssa_value

from spyre_sched.xdsl_compat import has_no_side_effects


def test_remui_and_extsi_have_no_side_effects():
    a, b = create_ssa_value(IndexType()), create_ssa_value(IndexType())
    remui = arith.RemUIOp(a, b)
    extsi = arith.ExtSIOp(create_ssa_value(IntegerType(16)), IntegerType(32))
    assert has_no_side_effects(remui) and has_no_side_effects(extsi)
    assert has_no_side_effects(arith.RemSIOp(a, b))
