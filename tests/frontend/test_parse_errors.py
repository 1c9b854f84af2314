"""Front-end diagnostics: syntax errors, unknown ops/dialects/types, undefined values,
malformed grids and non-kernel files, each at FILE:LINE:COL with the line shown."""

from __future__ import annotations

import pytest

from spyre_sched.errors import ParseError, SourceLocation, VerifyError
from spyre_sched.frontend import load_kernel, parse_kernel

GOOD = """\
func.func @k(%A: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  LINE
  return
}
"""


def fail(line: str, kind=ParseError) -> tuple[str, SourceLocation]:
    with pytest.raises(kind) as info:
        parse_kernel(GOOD.replace("LINE", line), "f.mlir")
    err = info.value
    assert isinstance(err.location, SourceLocation)
    return err.message, err.location


@pytest.mark.parametrize(
    "line, message, col",
    [
        ("%x = arith.addi %c0 %c0 : index", "Expected ','", 23),
        ("%x = arith.frob %c0 : index", "unknown operation 'arith.frob'", 8),
        ("%x = foo.bar %c0 : index", "unknown dialect 'foo' (in operation 'foo.bar')", 8),
        ('%x = "foo.bar"(%c0) : (index) -> index', "unknown dialect 'foo' (in operation 'foo.bar')", 9),
        ("%x = arith.addi %c0, %nowhere : index", "values used but not defined: [%nowhere]", 24),
        ('%x = "ktdp.get_compute_tile_id"() : () -> !foo.t', "unknown dialect 'foo' (in type '!foo.t')", 45),
        ('%x = "ktdp.get_compute_tile_id"() : () -> !ktdp.nothing', "unknown type '!ktdp.nothing'", 45),
        ('%x = "ktdp.get_compute_tile_id"() {a = #ktdp.zz} : () -> index', "unknown attribute '#ktdp.zz'", 42),
        ("%x = linalg.reduce { arith.frob } ins(%c0 : index) outs(%c0 : index) dimensions = [0]",
         "unknown combiner operation 'arith.frob'", 24),
    ],
)
def test_parse_error_location(line: str, message: str, col: int) -> None:
    got, loc = fail(line)
    assert got == message
    assert (loc.file, loc.line, loc.col) == ("f.mlir", 3, col)
    assert loc.line_text == "  " + line


def test_error_text_shows_line_and_caret() -> None:
    with pytest.raises(ParseError) as info:
        parse_kernel(GOOD.replace("LINE", "%x = arith.frob %c0 : index"), "f.mlir")
    assert str(info.value) == (
        "f.mlir:3:8: error: unknown operation 'arith.frob'\n"
        "  %x = arith.frob %c0 : index\n"
        "       ^"
    )


def test_unterminated_function() -> None:
    with pytest.raises(ParseError) as info:
        parse_kernel("func.func @k() {\n  %c0 = arith.constant 0 : index\n", "f.mlir")
    assert str(info.value).startswith("f.mlir:")


@pytest.mark.parametrize("grid", ["[0]", '["a"]', "3"])
def test_bad_grid(grid: str) -> None:
    text = GOOD.replace("[2]", grid).replace("LINE", "")
    with pytest.raises(VerifyError) as info:
        parse_kernel(text, "f.mlir")
    assert info.value.message == "'grid' must be a list of positive integers, e.g. grid = [32]"
    assert info.value.location.line == 1


def test_grid_checked_before_ct_id_rules() -> None:
    """A bad grid is reported as such, not as a crash in a verifier that reads it."""
    text = GOOD.replace("[2]", '["a"]').replace(
        "LINE", "%v = ktdp.construct_memory_view %A, sizes: [4], strides: [1] "
        "{coordinate_set = affine_set<(d0) : (d0 >= 0)>, "
        "memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<4xf16>")
    with pytest.raises(VerifyError, match="'grid' must be a list"):
        parse_kernel(text, "f.mlir")


def test_no_kernel_function() -> None:
    with pytest.raises((ParseError, VerifyError), match="defines no func.func kernel"):
        parse_kernel("// nothing but a comment\n#s = affine_set<(d0) : (d0 >= 0)>\n", "empty.mlir")


def test_stray_token_after_the_module() -> None:
    with pytest.raises(ParseError) as info:
        parse_kernel("func.func @k() {\n  return\n}\n}\n", "f.mlir")
    assert info.value.message == "expected an operation"
    assert (info.value.location.line, info.value.location.col) == (4, 1)


def test_missing_terminator_is_located_at_the_op() -> None:
    text = ('func.func @k() attributes {grid = [1]} {\n'
            '  %x = "test.op"() : () -> index\n'
            '}\n')
    with pytest.raises((VerifyError, ParseError)) as info:
        parse_kernel(text, "f.mlir")
    assert info.value.location.line == 2


def test_load_kernel_missing_file(tmp_path) -> None:
    with pytest.raises(ParseError) as info:
        load_kernel(tmp_path / "nope.mlir")
    assert str(info.value).endswith("error: cannot read kernel file: No such file or directory")


def test_first_kernel_with_grid_is_chosen() -> None:
    text = ("func.func @helper() {\n  return\n}\n"
            "func.func @main() attributes {grid = [2, 3]} {\n  return\n}\n")
    kernel = parse_kernel(text)
    assert kernel.name == "main" and kernel.grid == (2, 3) and kernel.num_tiles == 6


@pytest.mark.parametrize(
    "body, line, col, message",
    [
        # Two lines swapped: the use now comes first (xDSL accepts the forward reference).
        ("  %y = arith.addi %x, %x : index\n  %x = arith.constant 1 : index\n", 2, 3,
         "'arith.addi' uses %x before it is defined (defined later, on line 3)"),
        # A loop body uses a value the enclosing block defines only after the loop.
        ("  %c0 = arith.constant 0 : index\n"
         "  scf.for %i = %c0 to %c0 step %c0 {\n    %y = arith.addi %x, %i : index\n  }\n"
         "  %x = arith.constant 1 : index\n", 4, 5,
         "'arith.addi' uses %x before it is defined (defined later, on line 6)"),
    ],
)
def test_use_before_definition_is_located_at_the_use(body, line, col, message) -> None:
    text = "func.func @k() attributes {grid = [1]} {\n" + body + "  return\n}\n"
    with pytest.raises(VerifyError) as info:
        parse_kernel(text, "f.mlir")
    assert info.value.message == message
    assert (info.value.location.line, info.value.location.col) == (line, col)


@pytest.mark.parametrize(
    "line, shown",
    [
        ("%x = arith.constant 9223372036854775808 : index", "9223372036854775808"),
        ("%x = arith.constant -9223372036854775809 : index", "-9223372036854775809"),
        # The set's normal form negates this constant: the message shows its size.
        ('%x = "ktdp.get_compute_tile_id"() {s = affine_set<(d0) : (d0 >= 9223372036854775808)>}'
         " : () -> index", "9223372036854775808"),
        ('%x = "ktdp.get_compute_tile_id"() {m = affine_map<(d0) -> (d0 + 4611686018427387904)>}'
         " : () -> index", "4611686018427387904"),
    ],
)
def test_integers_beyond_64_bits_are_located_errors(line: str, shown: str) -> None:
    message, loc = fail(line, VerifyError)
    assert message.endswith(
        f"the integer {shown} is too large (index values must fit in 64 bits, the constants "
        "of affine sets and maps in 63)")
    assert (loc.line, loc.col) == (3, 3)


def test_largest_index_constant_is_accepted() -> None:
    parse_kernel(GOOD.replace("LINE", "%x = arith.constant 9223372036854775807 : index"))


def test_unterminated_string_is_an_error_not_a_hang() -> None:
    # xDSL's string pattern takes time exponential in the rest of the line here.
    line = '%x = "ktdp.get_compute_tile_id() : () -> index' + " padding" * 8
    message, loc = fail(line)
    assert message == "string literal is not closed on its line"
    assert (loc.line, loc.col) == (3, 8)


@pytest.mark.parametrize(
    "expr, message",
    [
        ("d0 floordiv 0", "'floordiv' needs a positive integer constant on its right, got 0 "
                          "(in (d0 floordiv 0))"),
        ("d0 mod 0", "'mod' needs a positive integer constant on its right, got 0 (in (d0 mod 0))"),
        ("d0 ceildiv -2", "'ceildiv' needs a positive integer constant on its right, got -2 "
                          "(in (d0 ceildiv -2))"),
    ],
)
def test_affine_division_by_a_non_positive_constant(expr: str, message: str) -> None:
    line = f"%x = affine.apply affine_map<(d0) -> ({expr})>(%c0)"
    got, loc = fail(line, VerifyError)
    assert got == f"'affine.apply': {message}"
    assert (loc.line, loc.col) == (3, 3)


@pytest.mark.parametrize("text, message, where", [
    ("// a comment\n#\n", "expected a name after '#'", (2, 1)),
    ('"abc\n', "string literal is not closed on its line", (1, 1)),
])
def test_a_bad_first_token_is_located(text: str, message: str, where) -> None:
    # The parser reads the first token when it is created, before parsing starts.
    with pytest.raises(ParseError) as info:
        parse_kernel(text, "f.mlir")
    assert info.value.message == message
    assert (info.value.location.line, info.value.location.col) == where
