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
