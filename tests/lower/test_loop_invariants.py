"""The lowering's loop-invariant motion on a program unit's body: scalar index arithmetic
that reads nothing a loop defines leaves the loop (innermost first, so it rises as far as
it can), arithmetic on the loop's counter stays, and a division or remainder stays even
when invariant (it faults on a zero divisor; a loop of no iterations never ran it)."""

from __future__ import annotations

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.ir import Block, Region

from spyre_sched.lower.loop_invariants import hoist_invariants

INDEX = IndexType()


def _const(value: int) -> arith.ConstantOp:
    return arith.ConstantOp(IntegerAttr(value, INDEX))


def _nest():
    """for i in [0, 4): for j in [0, 8): a = i * 128 (outer part), b = j * 2 + a,
    q = i floordiv n, r = 7 * 64 (invariant in both), with n an argument-like value."""
    c0, c1, c4, c8, c2, c7, c64, c128, n = (_const(v) for v in (0, 1, 4, 8, 2, 7, 64, 128, 3))
    inner_body = Block(arg_types=[INDEX])
    outer_body = Block(arg_types=[INDEX])
    i, j = outer_body.args[0], inner_body.args[0]
    a = arith.MuliOp(i, c128.result)
    jb = arith.MuliOp(j, c2.result)
    b = arith.AddiOp(jb.result, a.result)
    q = arith.FloorDivSIOp(i, n.result)  # speculatable by upstream's traits
    r = arith.MuliOp(c7.result, c64.result)
    inner_body.add_ops([a, jb, b, q, r, scf.YieldOp()])
    inner = scf.ForOp(c0.result, c8.result, c1.result, [], Region(inner_body))
    outer_body.add_ops([inner, scf.YieldOp()])
    outer = scf.ForOp(c0.result, c4.result, c1.result, [], Region(outer_body))
    top = Block()
    top.add_ops([c0, c1, c4, c8, c2, c7, c64, c128, n, outer])
    return Region(top), outer, inner, (a, jb, b, q, r)


def test_invariant_index_arithmetic_rises_as_far_as_it_can() -> None:
    region, outer, inner, (a, jb, b, q, r) = _nest()
    hoist_invariants(region)
    # i * 128 reads only the outer counter: it leaves the inner loop, not the outer one
    assert a.parent_op() is outer
    # 7 * 64 reads nothing either loop defines: it leaves both
    assert r.parent_op() is None and r.parent_block() is region.block
    # what reads the inner counter stays
    assert jb.parent_op() is inner and b.parent_op() is inner


def test_a_division_stays_where_it_was_written() -> None:
    region, outer, inner, (a, jb, b, q, r) = _nest()
    hoist_invariants(region)
    assert q.parent_op() is inner
