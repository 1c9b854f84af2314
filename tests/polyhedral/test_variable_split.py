"""`split_variables`: a variable read through `floordiv c` / `mod c` becomes quotient and
remainder exactly when that makes every subscript linear, and the split keeps every
subscript's value at every point of the box."""

from __future__ import annotations

import itertools

from xdsl.ir.affine import AffineExpr, AffineMap

from spyre_sched.polyhedral.variable_split import split_variables

d0, d1 = AffineExpr.dimension(0), AffineExpr.dimension(1)
s0 = AffineExpr.symbol(0)


def _eval(m: AffineMap, point, syms=()):
    return m.eval(list(point), list(syms))


def test_a_paged_row_becomes_page_and_row_and_every_subscript_keeps_its_value():
    box = [(0, 127), (0, 7)]  # (t, d)
    direct = AffineMap(2, 1, (d0 % 32 + s0, d1))
    index = AffineMap(2, 1, (s0, d0 // 32))
    split = split_variables(box, [direct, index])
    assert split is not None
    assert split.box == [(0, 3), (0, 31), (0, 7)]
    assert split.positions == [(0, 1), (2,)]
    assert split.divisors == {0: 32}
    for t, d in itertools.product(range(128), range(8)):
        q, r = divmod(t, 32)
        for old, new in zip([direct, index], split.maps):
            assert _eval(old, (t, d), (5,)) == _eval(new, (q, r, d), (5,))
    assert all("mod" not in str(r) and "floordiv" not in str(r)
               for m in split.maps for r in m.results)


def test_no_split_when_nothing_needs_one_or_none_makes_the_subscripts_linear():
    box = [(0, 127), (0, 7)]
    assert split_variables(box, [AffineMap(2, 0, (d0, d1))]) is None  # linear already
    # two divisors of one variable
    assert split_variables(box, [AffineMap(2, 0, (d0 // 16, d0 % 8))]) is None
    # a range that is not whole blocks of the divisor
    assert split_variables([(0, 99), (0, 7)], [AffineMap(2, 0, (d0 // 32, d0 % 32))]) is None
    # the variable inside a larger expression: not split (simplify-indirect-subscripts'
    # case when linear over the box, refused otherwise)
    assert split_variables(box, [AffineMap(2, 0, (((d0 + d1) // 32),))]) is None


def test_an_outer_value_known_to_be_a_multiple_is_read_as_one_and_the_variable_splits():
    from spyre_sched.polyhedral.variable_split import split_with_outer_multiples

    box = [(0, 63), (0, 7)]  # (t, d) of a tile whose rows start at s0 = 64 * tile
    direct = AffineMap(2, 1, ((s0 + d0) % 32, d1))
    index = AffineMap(2, 1, ((s0 + d0) // 32,))
    found = split_with_outer_multiples(box, [direct, index], [64])
    assert found is not None
    split, scaled = found
    assert scaled == {0: 32} and split.divisors == {0: 32}
    for row0, t, d in itertools.product((0, 64, 128), range(64), range(8)):
        q, r = divmod(t, 32)
        for old, new in zip([direct, index], split.maps):
            assert _eval(old, (t, d), (row0,)) == _eval(new, (q, r, d), (row0, row0 // 32))
    # inside one page the variable needs no split: the subscripts are linear as they are
    one_page = split_with_outer_multiples([(0, 31)], [AffineMap(1, 1, ((s0 + d0) % 32,)),
                                                      AffineMap(1, 1, ((s0 + d0) // 32,))],
                                          [32])
    assert one_page is not None and one_page[0].divisors == {}
    assert [str(m.results[0]) for m in one_page[0].maps] == ["d0", "s1"]
    # a start that is no multiple of the page leaves the subscripts as they are: refused
    assert split_with_outer_multiples(box, [direct, index], [48]) is None
