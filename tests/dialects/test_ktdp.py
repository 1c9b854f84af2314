"""The ktdp dialect: round trips and FileCheck of every op, type and attribute, the
structural printing of affine subscripts, and one negative case per verifier rule
(through `parse_kernel`, so each error carries FILE:LINE:COL of the offending op)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects.builtin import ArrayAttr, StringAttr
from xdsl.ir.affine import AffineExpr
from xdsl.parser import Parser
from xdsl.printer import Printer

from spyre_sched.dialects.ktdp import (
    ConstructAccessTileOp,
    ConstructIndirectAccessTileOp,
    affine_expr_text,
    coordinates_grid,
    is_permutation,
)
from spyre_sched.errors import ParseError, SourceLocation, VerifyError
from spyre_sched.frontend import make_context, parse_kernel
from dialect_ir import print_ir, run_filecheck

HERE = Path(__file__).parent
CHECK_FILES = sorted(HERE.glob("ktdp_*.mlir"))


# ---------------------------------------------------------------------------------------
# Round trips and FileCheck
# ---------------------------------------------------------------------------------------


def test_every_ktdp_op_and_attribute_is_covered() -> None:
    from spyre_sched.dialects.ktdp import KTDP

    text = "\n".join(p.read_text() for p in CHECK_FILES)
    for op in KTDP.operations:
        assert re.search(rf"{re.escape(op.name)}[ (]", text), op.name
    for attr in KTDP.attributes:
        assert attr.name in text, attr.name


def _module(text: str, name: str):
    """The whole module of a file of several functions (any one of them named: a file of
    several kernels is parsed only with one chosen)."""
    first = re.search(r"func\.func\s+@([\w$.]+)", text)
    return parse_kernel(text, name, func=first.group(1) if first else None).module


@pytest.mark.parametrize("path", CHECK_FILES, ids=lambda p: p.name)
def test_round_trip(path: Path) -> None:
    """parse, print, parse the printed text, print again: the same text."""
    first = print_ir(_module(path.read_text(), str(path)))
    second = print_ir(_module(first, "printed.mlir"))
    assert first == second


@pytest.mark.parametrize("path", CHECK_FILES, ids=lambda p: p.name)
def test_filecheck(path: Path) -> None:
    printed = print_ir(_module(path.read_text(), str(path)))
    done = run_filecheck(path, printed)
    assert done.returncode == 0, done.stderr + "\n--- printed ---\n" + printed


def test_filecheck_catches_a_wrong_line(tmp_path: Path) -> None:
    source = (HERE / "ktdp_access.mlir").read_text()
    broken = tmp_path / "broken.mlir"
    broken.write_text(source.replace("%Av[ind(%Pv[%m]), (%k)]", "%Av[(%k), ind(%Pv[%m])]", 1))
    printed = print_ir(parse_kernel(source, "ktdp_access.mlir").module)
    assert run_filecheck(broken, printed).returncode != 0


def test_generic_form_round_trips() -> None:
    """The generic printout (properties spelled out) parses back to the same IR."""
    path = HERE / "ktdp_access.mlir"
    module = parse_kernel(path.read_text(), str(path)).module
    out = io.StringIO()
    Printer(out, print_generic_format=True).print_op(module)
    again = parse_kernel(out.getvalue(), "generic.mlir").module
    assert print_ir(again) == print_ir(module)


def test_aliases_and_inline_forms_give_the_same_ir() -> None:
    body = """
func.func @k(%A: index) attributes {{grid = [1]}} {{
  %c0 = arith.constant 0 : index
  %v = ktdp.construct_memory_view %A, sizes: [4], strides: [1] {{
      coordinate_set = {s}, memory_space = #ktdp.memory_space<global> }} : memref<4xf16>
  %t = ktdp.construct_access_tile %v[%c0] {{access_tile_set = {s}, access_tile_order = {m}}}
      : memref<4xf16> -> !ktdp.access_tile<4xindex>
  return
}}"""
    s, m = "affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>", "affine_map<(d0) -> (d0)>"
    inline = body.format(s=s, m=m)
    aliased = f"#s = {s}\n#m = {m}\n" + body.format(s="#s", m="#m")
    assert print_ir(parse_kernel(inline).module) == print_ir(parse_kernel(aliased).module)


def test_example_kernel_round_trips() -> None:
    path = HERE.parents[1] / "examples" / "add_96x64.mlir"
    kernel = parse_kernel(path.read_text(), str(path))
    first = print_ir(kernel.module)
    assert print_ir(parse_kernel(first).module) == first
    assert kernel.grid == (32,) and kernel.num_tiles == 32


# ---------------------------------------------------------------------------------------
# Structural printing of affine subscripts
# ---------------------------------------------------------------------------------------

NAMES = ["i", "j", "d0", "s1", "d10"]  # names that string replacement used to corrupt


def _leaf(expr) -> str:
    return f"%{NAMES[expr.position]}"


exprs = st.recursive(
    st.one_of(
        st.integers(-20, 20).map(AffineExpr.constant),
        st.integers(0, len(NAMES) - 1).map(AffineExpr.dimension),
    ),
    lambda sub: st.one_of(
        st.tuples(sub, sub).map(lambda p: p[0] + p[1]),
        st.tuples(sub, st.integers(-5, 5)).map(lambda p: p[0] * p[1]),
        st.tuples(sub, st.integers(1, 7)).map(lambda p: p[0] % p[1]),
        st.tuples(sub, st.integers(1, 7)).map(lambda p: p[0] // p[1]),
        st.tuples(sub, st.integers(1, 7)).map(lambda p: p[0].ceil_div(p[1])),
    ),
    max_leaves=8,
)


def _parse_expr(text: str) -> AffineExpr:
    from spyre_sched.xdsl_compat import (
        current_token,
        parse_affine_expr_with,
        parse_optional_token,
    )

    parser = Parser(make_context(), text)
    parse_affine_expr = parse_affine_expr_with(parser)

    def ident():
        tok = parse_optional_token(parser, current_token(parser).kind)
        return AffineExpr.dimension(NAMES.index(tok.text[1:]))

    def parse_id():
        if current_token(parser).text.startswith("%"):
            return ident()
        return None

    return parse_affine_expr(parse_id)


@settings(max_examples=150, deadline=None)
@given(exprs)
def test_affine_expr_text_reads_back_as_the_same_expression(expr: AffineExpr) -> None:
    """Same value everywhere (`+` is printed flat, so the tree may re-associate)."""
    from xdsl.ir.affine import AffineMap

    text = affine_expr_text(expr, _leaf)
    back = _parse_expr(text)
    points = [[-7, 3, 0, 11, -2], [5, -4, 9, 1, 8], [0, 0, 0, 0, 0], [13, 2, -9, -1, 6]]
    for point in points:
        assert AffineMap(5, 0, (back,)).eval(point, []) == AffineMap(5, 0, (expr,)).eval(
            point, []
        ), text


def test_affine_expr_text_parenthesizes_only_where_needed() -> None:
    i, j = AffineExpr.dimension(0), AffineExpr.dimension(1)
    assert affine_expr_text(i + 3, _leaf) == "%i + 3"
    assert affine_expr_text((i + j) // 2, _leaf) == "(%i + %j) floordiv 2"
    assert affine_expr_text(i % 4 * 2, _leaf) == "%i mod 4 * 2"
    assert affine_expr_text(i - (j + 1) // 2, _leaf) == "%i + (%j + 1) floordiv 2 * -1"


def test_is_permutation() -> None:
    from xdsl.ir.affine import AffineMap

    d0, d1 = AffineExpr.dimension(0), AffineExpr.dimension(1)
    assert is_permutation(AffineMap(2, 0, (d1, d0)))
    assert not is_permutation(AffineMap(2, 0, (d0, d0)))
    assert not is_permutation(AffineMap(2, 0, (d0, d1 + 1)))
    assert not is_permutation(AffineMap(2, 0, (d0,)))


def test_indirect_tile_variable_clashing_with_an_outer_name_is_renamed() -> None:
    """A variable named like an outer SSA value prints under a fresh name, same IR."""
    path = HERE / "ktdp_access.mlir"
    module = parse_kernel(path.read_text(), str(path)).module
    op = next(o for o in module.walk() if isinstance(o, ConstructIndirectAccessTileOp)
              and o.outer)
    op.properties["var_names"] = ArrayAttr([StringAttr("id"), StringAttr("k")])
    text = print_ir(op.parent_op())
    assert "intermediate_variables(%id_v0, %k)" in text
    again = parse_kernel(print_ir(module)).module
    twin = next(o for o in again.walk() if isinstance(o, ConstructIndirectAccessTileOp)
                and o.outer)
    assert twin.dim_map == op.dim_map and twin.index_maps == op.index_maps
    assert [v.type for v in twin.outer] == [v.type for v in op.outer]


def test_access_tile_subscripts_bind_dims_then_symbols() -> None:
    text = (HERE / "ktdp_access.mlir").read_text()
    module = parse_kernel(text).module
    aff = next(o for o in module.walk() if isinstance(o, ConstructAccessTileOp)
               and o.result.name_hint == "aff2")
    assert "%Av[%id * 3 + 3, %id mod 4 + -1]" in print_ir(aff.parent_op())


# ---------------------------------------------------------------------------------------
# Verifier rules: one failing kernel each, with message and location.
# ---------------------------------------------------------------------------------------

HEAD = """\
#s1 = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#s2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#m1 = affine_map<(d0) -> (d0)>
#m2 = affine_map<(d0, d1) -> (d0, d1)>
#g = affine_set<(g) : (g == 0)>
#t = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0)>
func.func @k(%A: index, %n: index, %R: !ktdp.runtime_arg<index, granularity = 4, upperbound = 8>) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %x = tensor.empty() : tensor<4xf16>
  %V = ktdp.construct_memory_view %A, sizes: [4, 4], strides: [4, 1] {coordinate_set = #s2, memory_space = #ktdp.memory_space<global>} : memref<4x4xf16>
  %V1 = ktdp.construct_memory_view %A, sizes: [4], strides: [1] {coordinate_set = #s1, memory_space = #ktdp.memory_space<global>} : memref<4xf16>
  %I = ktdp.construct_memory_view %A, sizes: [4], strides: [1] {coordinate_set = #s1, memory_space = #ktdp.memory_space<global>} : memref<4xi32>
  %T = ktdp.construct_access_tile %V1[%c0] {access_tile_set = #s1, access_tile_order = #m1} : memref<4xf16> -> !ktdp.access_tile<4xindex>
  %F = ktdp.inter_tile_produce producer_tiles_per_group = #t -> <(tensor<4xf16>), groups = #g> {
  ^bb0(%gid: index):
    ktdp.yield_partial %x : tensor<4xf16>
  }
"""
HEAD_LINES = HEAD.count("\n")

VIEW = "ktdp.construct_memory_view %A, sizes: {sizes}, strides: {strides} {{coordinate_set = {cset}, memory_space = {space}}} : {type}"


def view(sizes="[4]", strides="[1]", cset="#s1", space="#ktdp.memory_space<global>",
         type="memref<4xf16>") -> str:
    return "%v = " + VIEW.format(sizes=sizes, strides=strides, cset=cset, space=space, type=type)


def tile(subs="[%c0]", extra="", tset="#s1", order="#m1", vtype="memref<4xf16>",
         rtype="!ktdp.access_tile<4xindex>", view="%V1") -> str:
    return (f"%a = ktdp.construct_access_tile {view}{subs}{extra} {{access_tile_set = {tset}, "
            f"access_tile_order = {order}}} : {vtype} -> {rtype}")


def indirect(vars_="(%m)", subs="[ind(%I[%m])]", vset="#s1", order="#m1",
             types="memref<4xf16>, memref<4xi32>", rtype="!ktdp.access_tile<4xindex>",
             view="%V1") -> str:
    return (f"%a = ktdp.construct_indirect_access_tile intermediate_variables{vars_} {view}{subs} "
            f"{{variables_space_set = {vset}, variables_space_order = {order}}} : {types} -> {rtype}")


def produce(tiles="#t", ftype="<(tensor<4xf16>), groups = #g>", args="%gid: index",
            body="ktdp.yield_partial %x : tensor<4xf16>") -> str:
    return (f"%f = ktdp.inter_tile_produce producer_tiles_per_group = {tiles} -> {ftype} {{\n"
            f"  ^bb0({args}):\n    {body}\n  }}")


def reduce_(identity="%x : tensor<4xf16>", args="%l: tensor<4xf16>, %r: tensor<4xf16>",
            body="ktdp.yield_reduced %l : tensor<4xf16>", result="tensor<4xf16>") -> str:
    return (f"%s = ktdp.inter_tile_reduce(%F) consumer_tiles_per_group = #t, identity({identity}) "
            f": <(tensor<4xf16>), groups = #g> -> {result} {{\n  ^bb0({args}):\n    {body}\n  }}")


GOOD_TILE = "%a = ktdp.construct_access_tile %V1[%c0] {access_tile_set = #s1, access_tile_order = #m1} : memref<4xf16> -> !ktdp.access_tile<4xindex>"

# (case id, body whose first line holds the offending op, message regex)
VERIFY_CASES = [
    # types
    ("tile-elt-index", tile(rtype="!ktdp.access_tile<4xf16>"),
     r"!ktdp.access_tile holds coordinates: its element type must be index, got f16"),
    ("tile-extent", tile(rtype="!ktdp.access_tile<0xindex>"),
     r"!ktdp.access_tile extent 0 of dim 0 must be positive"),
    ("runtime-arg-type", "%r = ktdp.runtime_arg_extract value from %n : !ktdp.runtime_arg<tensor<4xf32>> -> index",
     r"!ktdp.runtime_arg value type must be index, an integer or a float, got tensor<4xf32>"),
    ("runtime-arg-result", "%r = ktdp.runtime_arg_extract value from %R : <index, granularity = 4, upperbound = 8> -> i32",
     r"the result type i32 must be the run-time argument's type index"),
    ("runtime-arg-positive", "%r = ktdp.runtime_arg_extract value from %n : !ktdp.runtime_arg<index, granularity = 0, upperbound = 8> -> index",
     r"!ktdp.runtime_arg granularity must be positive, got 0"),
    ("runtime-arg-negative", "%r = ktdp.runtime_arg_extract value from %n : !ktdp.runtime_arg<index, granularity = 4, upperbound = -8> -> index",
     r"!ktdp.runtime_arg upperbound must be positive, got -8"),
    ("future-groups", produce(ftype="<(tensor<4xf16>), groups = affine_set<(a, b) : (a == 0)>>"),
     r"!ktdp.tile_future groups must be an affine_set<\(g\) : ...> over one group id, got 2 dims"),
    # get_compute_tile_id
    ("tile-id-none", '"ktdp.get_compute_tile_id"() : () -> ()',
     r"ktdp.get_compute_tile_id needs at least one result"),
    ("tile-id-type", "%p = ktdp.get_compute_tile_id : i32",
     r"result 'ids' at position 0 does not verify: .*index"),
    # construct_memory_view
    ("view-rank", view(sizes="[4, 4]", strides="[4, 1]"),
     r"rank mismatch: 2 sizes, 2 strides, memref rank 1, coordinate_set has 1 dims"),
    ("view-symbols", view(sizes="[%n]", type="memref<?xf16>", cset="affine_set<(d0)[s0, s1] : (d0 >= 0)>"),
     r"coordinate_set has 2 symbols but there are only 1 dynamic sizes"),
    ("view-size-positive", view(sizes="[0]", type="memref<0xf16>"),
     r"size 0 of dim 0 must be positive"),
    ("view-ct-id", view(space="#ktdp.memory_space<ct_local, ct_id = 4>"),
     r"memory space names compute tile 4, but the grid \[4\] has only 4 tiles"),
    ("view-core", view(space="#ktdp.spyre_memory_space<LX, core = 7>"),
     r"memory space names compute tile 7, but the grid \[4\] has only 4 tiles"),
    ("view-offset-type", "%v = ktdp.construct_memory_view %x, sizes: [4], strides: [1] {coordinate_set = #s1, memory_space = #ktdp.memory_space<global>} : memref<4xf16>",
     r"%x.* (uses|is used with) .*type|type mismatch|index"),
    # construct_distributed_memory_view
    ("dist-rank", "%d = ktdp.construct_distributed_memory_view (%V1, %V : memref<4xf16>, memref<4x4xf16>) : memref<8xf16>",
     r"view #1 has rank 2, the result has rank 1"),
    ("dist-elt", "%d = ktdp.construct_distributed_memory_view (%V1, %I : memref<4xf16>, memref<4xi32>) : memref<8xf16>",
     r"view #1 holds i32, the result holds f16"),
    ("dist-empty", '%d = "ktdp.construct_distributed_memory_view"() : () -> memref<8xf16>',
     r"ktdp.construct_distributed_memory_view needs views"),
    # construct_access_tile
    ("tile-subscripts", tile(subs="[%c0, %c0]"), r"2 subscripts for a view of rank 1"),
    ("tile-set-dims", tile(tset="#s2"), r"access_tile_set has 2 dims, the view has rank 1"),
    ("tile-symbols", tile(extra=" symbols(%n)"),
     r"access_tile_set has 0 symbols but symbols\(...\) gives 1"),
    ("tile-order", tile(view="%V", subs="[%c0, %c0]", tset="#s2", vtype="memref<4x4xf16>",
                        order="affine_map<(d0, d1) -> (d0, d0)>", rtype="!ktdp.access_tile<4x4xindex>"),
     r"access_tile_order .* must be a permutation of the 2 dims"),
    ("tile-order-expr", tile(order="affine_map<(d0) -> (d0 + 1)>"),
     r"must be a permutation of the 1 dims"),
    ("tile-result-rank", tile(rtype="!ktdp.access_tile<2x2xindex>"),
     r"result tile has rank 2, the view has rank 1"),
    # construct_indirect_access_tile
    ("ind-subscripts", indirect(subs="[ind(%I[%m]), (%m)]"), r"2 subscripts for a view of rank 1"),
    ("ind-set-dims", indirect(vset="#s2"), r"1 intermediate_variables but variables_space_set has 2 dims"),
    ("ind-set-symbols", indirect(vset="affine_set<(d0)[s0] : (d0 >= 0)>"),
     r"variables_space_set has 1 symbols but symbols\(...\) gives 0"),
    ("ind-distinct", indirect(vars_="(%m, %m)", vset="#s2", order="#m2", rtype="!ktdp.access_tile<4x4xindex>"),
     r"intermediate_variables names must be distinct"),
    ("ind-order", indirect(order="affine_map<(d0) -> (0)>"), r"variables_space_order must be a permutation of the 1"),
    ("ind-index-type", indirect(subs="[ind(%V1[%m])]", types="memref<4xf16>, memref<4xf16>"),
     r"index tensor #0 must hold i32 or i64, not f16"),
    ("ind-index-rank", indirect(subs="[ind(%I[%m, %m])]"), r"index tensor #0 has rank 1 but 2 subscripts"),
    ("ind-result-rank", indirect(rtype="!ktdp.access_tile<4x4xindex>"),
     r"result tile has rank 2, expected one dim per intermediate variable \(1\)"),
    ("ind-types-count", indirect(types="memref<4xf16>"),
     r"expected 2 memref types \(the view, then one per ind\(...\) tensor\), got 1"),
    # load / store
    ("load-shape", "%a = ktdp.load %T : !ktdp.access_tile<4xindex> -> tensor<2x2xf16>",
     r"ktdp.load: tensor shape \[2, 2\] does not match access tile shape \[4\]"),
    ("load-elt", "%a = ktdp.load %T : !ktdp.access_tile<4xindex> -> tensor<4xf32>",
     r"ktdp.load: tensor element type f32 does not match the view's f16"),
    ("store-shape", "%y = tensor.empty() : tensor<8xf16>\n  ktdp.store %y, %T : tensor<8xf16>, !ktdp.access_tile<4xindex>",
     r"ktdp.store: tensor shape \[8\] does not match access tile shape \[4\]", 2),
    ("store-elt", "%y = tensor.empty() : tensor<4xi32>\n  ktdp.store %y, %T : tensor<4xi32>, !ktdp.access_tile<4xindex>",
     r"ktdp.store: tensor element type i32 does not match the view's f16", 2),
    ("load-not-a-tile", '%a = "ktdp.load"(%c0) : (index) -> tensor<4xf16>',
     r"operand 'tile' at position 0 does not verify: index should be of base attribute ktdp.access_tile"),
    # runtime_arg_extract
    ("extract-field", '%r = "ktdp.runtime_arg_extract"(%R) <{field = "size"}> : (!ktdp.runtime_arg<index, granularity = 4, upperbound = 8>) -> index',
     r"ktdp.runtime_arg_extract: field must be one of value, granularity, upperbound"),
    ("extract-keyword", "%r = ktdp.runtime_arg_extract size from %R : !ktdp.runtime_arg<index, granularity = 4, upperbound = 8> -> index",
     r"Expected one of 'granularity', 'upperbound', 'value' for ktdp.runtime_arg_extract"),
    ("extract-operand", '%r = "ktdp.runtime_arg_extract"(%n) <{field = "value"}> : (index) -> index',
     r"operand 'arg' at position 0 does not verify: index should be of base attribute ktdp.runtime_arg"),
    # inter_tile_produce / yield_partial
    ("produce-tiles", produce(tiles="#g"),
     r"producer_tiles_per_group must be an affine_set<\(i\)\[g\] : ...> over one tile id and one group symbol, got 1 dims and 0 symbols"),
    ("produce-block-arg", produce(args="%gid: i32"),
     r"the body takes one argument, the group id \(index\)"),
    ("produce-yield-types", produce(body="ktdp.yield_partial %c0 : index"),
     r"yield_partial types do not match the future's partial types"),
    ("produce-terminator", produce(body="%u = arith.constant 1 : index"),
     r"(body must end in ktdp.yield_partial|terminat)"),
    ("yield-partial-parent", "%u = scf.execute_region -> (index) {\n    ktdp.yield_partial %c0 : index\n  }",
     r"ktdp.yield_partial.*expects parent op .*ktdp.inter_tile_produce", 2),
    # inter_tile_consume
    ("consume-tiles", "%r = ktdp.inter_tile_consume(%F) consumer_tiles_per_group = #s2 : <(tensor<4xf16>), groups = #g> -> tensor<4xf16>",
     r"consumer_tiles_per_group must be an affine_set<\(i\)\[g\] : ...>"),
    ("consume-dep", "%r = ktdp.inter_tile_consume(%F) consumer_tiles_per_group = #t, producer_dependency_per_consumer = #s1 : <(tensor<4xf16>), groups = #g> -> tensor<4xf16>",
     r"producer_dependency_per_consumer must be an affine_set<\(p\)\[c\] : ...>"),
    ("consume-count", "%r, %q = ktdp.inter_tile_consume(%F) consumer_tiles_per_group = #t : <(tensor<4xf16>), groups = #g> -> tensor<4xf16>, tensor<4xf16>",
     r"2 results for a future of 1 partials"),
    ("consume-elements", "%r = ktdp.inter_tile_consume(%F) consumer_tiles_per_group = #t : <(tensor<4xf16>), groups = #g> -> tensor<8xf16>",
     r"result #0 type tensor<8xf16> must hold the same elements as the partial type tensor<4xf16>"),
    ("consume-future-type", "%r = ktdp.inter_tile_consume(%F) consumer_tiles_per_group = #t : <(tensor<8xf16>), groups = #g> -> tensor<8xf16>",
     r"(type|tile_future)"),
    # inter_tile_reduce / yield_reduced
    ("reduce-identity", reduce_(identity="%c0 : index"), r"identity types must match the partial types"),
    ("reduce-args", reduce_(args="%l: tensor<4xf16>"), r"the combiner takes \(lhs..., rhs...\) of the partial types"),
    ("reduce-yield", reduce_(body="ktdp.yield_reduced %c0 : index"),
     r"the combiner must end in ktdp.yield_reduced of the partial types"),
    ("reduce-pure", reduce_(body="%u = ktdp.get_compute_tile_id : index\n    ktdp.yield_reduced %l : tensor<4xf16>"),
     r"the combiner must be pure; it contains ktdp.get_compute_tile_id"),
    ("reduce-result", reduce_(result="tensor<4xi32>"),
     r"result #0 type tensor<4xi32> must hold the same elements as the partial type tensor<4xf16>"),
    ("yield-reduced-parent", "%u = scf.execute_region -> (index) {\n    ktdp.yield_reduced %c0 : index\n  }",
     r"ktdp.yield_reduced.*expects parent op .*ktdp.inter_tile_reduce", 2),
]


@pytest.mark.parametrize(
    "body, message, line_offset",
    [pytest.param(c[1], c[2], c[3] if len(c) > 3 else 1, id=c[0]) for c in VERIFY_CASES],
)
def test_verifier_rule(body: str, message: str, line_offset: int) -> None:
    import re

    text = HEAD + "  " + body + "\n  return\n}\n"
    with pytest.raises((VerifyError, ParseError)) as info:
        parse_kernel(text, "bad.mlir")
    err = info.value
    assert re.search(message, err.message), err.message
    loc = err.location
    assert isinstance(loc, SourceLocation), loc
    assert loc.file == "bad.mlir"
    assert loc.line == HEAD_LINES + line_offset, (str(err), loc.line)
    assert str(err).startswith(f"bad.mlir:{loc.line}:{loc.col}: error: ")


def test_head_itself_is_valid() -> None:
    kernel = parse_kernel(HEAD + "  return\n}\n", "good.mlir")
    assert kernel.grid == (4,)


def test_ct_id_inside_the_grid_is_fine() -> None:
    parse_kernel(HEAD + "  " + view(space="#ktdp.memory_space<ct_local, ct_id = 3>") + "\n  return\n}\n")


def test_tile_id_with_one_result_per_grid_dim() -> None:
    text = HEAD.replace("grid = [4]", "grid = [2, 2]") + "  %p, %q = ktdp.get_compute_tile_id : index, index\n  return\n}\n"
    assert parse_kernel(text).grid == (2, 2)


def test_tile_id_with_more_results_than_grid_dims() -> None:
    """The public KTIR interpreter gives a 1-D grid's kernel `%x, %y` (its y is 0): the
    grid is seen with dimensions of extent 1 added."""
    text = HEAD + "  %p, %q, %r = ktdp.get_compute_tile_id : index, index, index\n  return\n}\n"
    assert parse_kernel(text).grid == (4,)
    assert coordinates_grid((4,), 3) == (4, 1, 1)


def test_tile_id_with_fewer_results_than_grid_dims_is_refused() -> None:
    text = HEAD.replace("grid = [4]", "grid = [2, 2, 2]") + \
        "  %p, %q = ktdp.get_compute_tile_id : index, index\n  return\n}\n"
    with pytest.raises(VerifyError, match=r"ktdp.get_compute_tile_id has 2 results but the "
                                          r"grid \[2, 2, 2\] has 3 dimensions"):
        parse_kernel(text)


def test_a_view_without_a_coordinate_set_covers_its_whole_index_space() -> None:
    """The published spelling leaves `coordinate_set` out when the view is all of its
    sizes: static sizes bound the dims, a run-time size is the set's next symbol."""
    kernel = parse_kernel("""
func.func @whole(%A: index, %n: index) {
  %v = ktdp.construct_memory_view %A, sizes: [4, 64], strides: [64, 1] {
      memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %w = ktdp.construct_memory_view %A, sizes: [%n, 8], strides: [8, 1] {
      memory_space = #ktdp.memory_space<global>} : memref<?x8xf16>
  return
}
""")
    views = [op for op in kernel.func.walk() if op.name == "ktdp.construct_memory_view"]
    assert str(views[0].coordinate_set.data) == \
        "(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)"
    assert str(views[1].coordinate_set.data) == \
        "(d0, d1)[s0] : (d0 >= 0, ((s0 + -1) + (d0 * -1)) >= 0, d1 >= 0, ((d1 * -1) + 7) >= 0)"
