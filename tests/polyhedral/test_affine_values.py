from spyre_sched.frontend import parse_kernel
from spyre_sched.polyhedral.affine_values import AffineValues, VariableKind
from spyre_sched.polyhedral.isl_text import conj, make_set, witness

KERNEL = """
func.func @k(%P: index, %q: i32) attributes {grid = [4, 2]} {
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %x, %y = ktdp.get_compute_tile_id : index, index
  %a = arith.muli %x, %c3 : index
  %b = arith.addi %a, %y : index
  %c = arith.subi %b, %c4 : index
  %d = arith.divsi %b, %c4 : index
  %e = arith.remui %b, %c4 : index
  %f = arith.index_cast %q : i32 to index
  %g = affine.apply affine_map<(i)[s] -> (i * 2 + s)>(%b)[%f]
  %h = arith.muli %b, %f : index
  %m = arith.maxsi %b, %c3 : index
  return
}
"""


def test_affine_forms():
    func = parse_kernel(KERNEL, "k.mlir").func
    values = AffineValues(func)
    ops = {r.name_hint: r for op in func.walk() for r in op.results}
    form = lambda n: values.form(ops[n])  # noqa: E731
    env = {"tile": 6, "q": 5}  # tile 6 of a 4x2 grid: x = 2, y = 1

    def ev(n):
        f = form(n)
        return f.expr.eval([], [env.get(v.name, 0) for v in f.variables])

    assert ev("x") == 2 and ev("y") == 1
    assert ev("b") == 7 and ev("c") == 3 and ev("d") == 1 and ev("e") == 3
    assert ev("g") == 19 and ev("c3") == 3 and form("c4").constant == 4
    # b * q: affine once the tile is fixed; max: piecewise affine. Both are variables
    # whose constraints define them; at tile 6 (b = 7) and q = 5 they are 35 and 7.
    assert [v.kind for v in form("h").used] == [VariableKind.DERIVED]
    assert [v.kind for v in form("m").used] == [VariableKind.DERIVED]
    for name, want in (("h", 35), ("m", 7)):
        var = form(name).used[0]
        names = [v.name for v in values.variables]
        pinned = make_set(names, [], conj(values.context(), "tile = 6", "q = 5"))
        point = witness(pinned)
        assert point[var.name] == want
        other = make_set(names, [], conj(values.context(), "tile = 6", "q = 5",
                                         f"{var.name} != {want}"))
        assert other.is_empty()
    assert {v.name for v in form("g").used} == {"tile", "q"}
    assert values.tile.upper == 7


def test_derived_values_are_computed_at_an_instance():
    # a max and a product with an argument are derived variables: an instance computes
    # them from their definitions (they were read as 0, so a distributed view's parts
    # were found at the wrong rows for a subscript written with arith.minsi)
    from spyre_sched.polyhedral.replay import with_derived

    func = parse_kernel(KERNEL, "k.mlir").func
    values = AffineValues(func)
    for op in func.walk():  # variables are made as values are read
        for r in op.results:
            if r.name_hint in ("h", "m"):
                values.form(r)
    got = with_derived(values, {"tile": 6, "q": 5})
    derived = {v.value.name_hint: got[v.name] for v in values.derived}
    assert derived == {"h": 35, "m": 7}
    # a value the instance does not determine (h needs q) stays out
    names = {v.value.name_hint: v.name for v in values.derived}
    partial = with_derived(values, {"tile": 6})
    assert names["h"] not in partial and partial[names["m"]] == 7
