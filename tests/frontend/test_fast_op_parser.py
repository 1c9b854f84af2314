"""The fast path for common op shapes (spyre_sched/fast_op_parser.py) changes nothing but
speed: every .mlir file of the repository, and random kernels built to hit its edge cases
(forward references, redefinitions, wrong types, bad tokens, locations, constants out of
range), parse to byte-identical generic IR with the same op locations, or fail with the
same located error, with the fast path on and off."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from xdsl.printer import Printer
from xdsl.utils.exceptions import ParseError as XdslParseError
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.lexer import Input

from spyre_sched.dialects.registry import make_context
from spyre_sched.errors import SpyreSchedError
from spyre_sched.frontend import parse_kernel
from spyre_sched.located_parser import LocatedParser
from spyre_sched.verify import first_line, verify_module
from spyre_sched.xdsl_compat import _LinearTimeLexer, token_after, verifies_only_its_definition

ROOT = Path(__file__).resolve().parents[2]
MLIR_FILES = sorted(p for top in ("examples", "tests", "bench", "devices")
                    for p in (ROOT / top).rglob("*.mlir"))


def _default_sample(files: list[Path]) -> list[Path]:
    """Every example, and the first file of every other folder: each folder holds one
    family of spellings (devices, pass tests, bundles), so the default run meets them all
    at a fraction of the cost. The slow run parses every file."""
    seen: set[Path] = set()
    sample = []
    for path in files:
        if path.parent.name == "examples" or path.parent not in seen:
            sample.append(path)
        seen.add(path.parent)
    return sample


DEFAULT_FILES = _default_sample(MLIR_FILES)


def _generic(module) -> str:
    out = io.StringIO()
    Printer(stream=out, print_generic_format=True).print_op(module)
    return out.getvalue()


def parsed_by_parser(text: str, fast: bool) -> tuple:
    """What the located parser makes of `text`: the generic IR and each op's start
    offset in walk order, or xDSL's error (message and offset)."""
    try:
        parser = LocatedParser(make_context(), text, "t.mlir", fast_ops=fast)
        module = parser.parse_module()
    except XdslParseError as err:
        return ("error", err.msg, err.span.start)
    except Exception as err:  # noqa: BLE001 - whatever it is, both ways must agree
        return ("exception", type(err).__name__, str(err))
    positions = [parser.op_positions.get(op) for op in module.walk()]
    return ("ok", _generic(module), positions)


def parsed_as_kernel(text: str, fast: bool) -> tuple:
    """What `parse_kernel` makes of `text`: every op's location and the warnings, or the
    error (class and located text). (The IR itself is compared by `parsed_by_parser`.)"""
    try:
        kernel = parse_kernel(text, "k.mlir", fast_ops=fast)
    except SpyreSchedError as err:
        return ("error", type(err).__name__, str(err))
    locations = [str(kernel.location_of(op)) for op in kernel.module.walk()]
    warnings = [d.message for d in kernel.warnings]
    return ("ok", locations, warnings)


def fast_path_was_used(text: str) -> int:
    """How many ops of `text` the fast path read (0 when the text does not parse)."""
    parser = LocatedParser(make_context(), text, "t.mlir")
    read = 0
    original = parser._fast.try_read  # noqa: SLF001 - counting, not changing

    def counting(start):
        nonlocal read
        op = original(start)
        read += op is not None
        return op

    parser._fast.try_read = counting  # noqa: SLF001
    try:
        parser.parse_module()
    except Exception:  # noqa: BLE001
        return 0
    return read


def _parses_the_same_both_ways(path: Path) -> None:
    text = path.read_text()
    assert parsed_by_parser(text, True) == parsed_by_parser(text, False)
    assert parsed_as_kernel(text, True) == parsed_as_kernel(text, False)


@pytest.mark.parametrize("path", DEFAULT_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_file_of_every_folder_parses_the_same_both_ways(path: Path) -> None:
    _parses_the_same_both_ways(path)


@pytest.mark.slow
@pytest.mark.parametrize("path", sorted(set(MLIR_FILES) - set(DEFAULT_FILES)),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_every_other_repository_file_parses_the_same_both_ways(path: Path) -> None:
    _parses_the_same_both_ways(path)


def test_the_examples_exercise_the_fast_path() -> None:
    used = sum(fast_path_was_used(p.read_text()) for p in (ROOT / "examples").glob("*.mlir"))
    assert used >= 10


def kernel(*lines: str, args: str = "%A: index, %B: i32, %F: f16") -> str:
    body = "".join(f"  {line}\n" for line in lines)
    return (f"func.func @k({args}) attributes {{grid = [1]}} {{\n{body}  return\n}}\n")


def same_both_ways(text: str) -> tuple:
    fast, slow = parsed_as_kernel(text, True), parsed_as_kernel(text, False)
    assert fast == slow
    assert parsed_by_parser(text, True) == parsed_by_parser(text, False)
    return fast


# Each case repeats a line shape so that the second op of the shape takes the fast path.
EDGE_CASES = {
    "chain": kernel("%a = arith.addi %A, %A : index", "%b = arith.addi %a, %A : index",
                    "%c = arith.muli %b, %a : index"),
    "forward reference": kernel("%a = arith.addi %A, %A : index",
                                "%b = arith.addi %c, %A : index",
                                "%c = arith.addi %a, %A : index"),
    "undefined value": kernel("%a = arith.addi %A, %A : index",
                              "%b = arith.addi %zz, %A : index"),
    "redefinition": kernel("%a = arith.addi %A, %A : index", "%a = arith.addi %A, %A : index"),
    "redefinition of a forward reference": kernel(
        "%a = arith.addi %A, %A : index", "%b = arith.addi %c, %A : index",
        "%c = arith.addi %a, %A : index", "%c = arith.addi %a, %A : index"),
    "operand of another type": kernel("%a = arith.addi %A, %A : index",
                                      "%b = arith.addi %B, %B : index"),
    "type the op does not take": kernel("%a = arith.addi %F, %F : f16",
                                        "%b = arith.addi %F, %F : f16"),
    "bad token after the op": kernel("%a = arith.addi %A, %A : index",
                                     "%b = arith.addi %a, %A : index", "%c = ` oops"),
    "unterminated string after the op": kernel("%a = arith.addi %A, %A : index",
                                               "%b = arith.addi %a, %A : index",
                                               '"arith.addi (%a'),
    "location after the op": kernel(
        "%a = arith.addi %A, %A : index", "%b = arith.addi %a, %A : index",
        'loc("x.py":3:4)', "%c = arith.addi %b, %A : index loc(unknown)"),
    "comment after the op": kernel("%a = arith.addi %A, %A : index // one",
                                   "%b = arith.addi %a, %A : index // two"),
    "tuple index": kernel("%a = arith.addi %A, %A : index", "%b = arith.addi %a#0, %A : index",
                          "%c = arith.addi %a#1, %A : index"),
    "constants": kernel("%c0 = arith.constant 0 : index", "%c1 = arith.constant -7 : index",
                        "%c2 = arith.constant 127 : i8", "%c3 = arith.constant -128 : i8",
                        "%c4 = arith.constant 1.5 : f16", "%c5 = arith.constant -0.0 : f16",
                        "%c6 = arith.constant 3 : f32", "%c7 = arith.constant 2. : f32",
                        "%c8 = arith.constant 1.0e3 : f32", "%c9 = arith.constant 007 : i32"),
    "constant out of range": kernel("%c0 = arith.constant 1 : i8",
                                    "%c1 = arith.constant 300 : i8"),
    "unsigned-range constant": kernel("%c0 = arith.constant 1 : i8",
                                      "%c1 = arith.constant 255 : i8"),
    "float literal for an integer type": kernel("%c0 = arith.constant 1 : i32",
                                                "%c1 = arith.constant 1.5 : i32"),
    "constant of a type arith.constant refuses": kernel(
        "%c0 = arith.constant 1 : si32", "%c1 = arith.constant 2 : si32"),
    "index too large": kernel("%c0 = arith.constant 1 : index",
                              "%c1 = arith.constant 99999999999999999999999 : index"),
    "casts": kernel("%i = arith.index_cast %A : index to i32",
                    "%j = arith.index_cast %A : index to i32",
                    "%k = arith.index_cast %B : i32 to index"),
    "generic syntax": kernel('%a = "arith.addi"(%A, %A) : (index, index) -> index',
                             '%b = "arith.addi"(%a, %A) : (index, index) -> index',
                             '%c = "arith.addi"(%b, %A) : (index, index) -> i32'),
    "comparison": kernel("%p = arith.cmpi slt, %A, %A : index",
                         "%q = arith.cmpi slt, %A, %A : index"),
    "float ops": kernel("%x = arith.addf %F, %F : f16", "%y = arith.mulf %x, %F : f16",
                        "%z = arith.addf %y, %x : f16"),
    "unknown op": kernel("%a = arith.addi %A, %A : index", "%b = arith.bogus %a, %A : index"),
    "an op ending a region": (
        "func.func @k(%A: index) attributes {grid = [1]} {\n"
        "  %a = arith.addi %A, %A : index\n"
        "  scf.for %i = %A to %A step %A {\n"
        "    %b = arith.addi %i, %a : index\n"
        "    %c = arith.addi %b, %a : index\n"
        "  }\n"
        "  %d = arith.addi %a, %A : index\n"
        "  return\n}\n"),
    "a value used outside its region": (
        "func.func @k(%A: index) attributes {grid = [1]} {\n"
        "  %a = arith.addi %A, %A : index\n"
        "  scf.for %i = %A to %A step %A {\n"
        "    %b = arith.addi %i, %a : index\n"
        "  }\n"
        "  %d = arith.addi %b, %A : index\n"
        "  return\n}\n"),
    "the last op of the function is not a terminator": (
        "func.func @k(%A: index) attributes {grid = [1]} {\n"
        "  %a = arith.addi %A, %A : index\n"
        "  %b = arith.addi %a, %A : index\n}\n"),
    "crlf line ends": kernel("%a = arith.addi %A, %A : index",
                             "%b = arith.addi %a, %A : index").replace("\n", "\r\n"),
}


@pytest.mark.parametrize("name", list(EDGE_CASES))
def test_edge_cases_parse_the_same_both_ways(name: str) -> None:
    same_both_ways(EDGE_CASES[name])


def test_the_edge_cases_that_parse_use_the_fast_path() -> None:
    assert fast_path_was_used(EDGE_CASES["chain"]) == 1
    assert fast_path_was_used(EDGE_CASES["constants"]) >= 4
    assert fast_path_was_used(EDGE_CASES["generic syntax"]) == 1
    assert fast_path_was_used(EDGE_CASES["casts"]) == 1
    assert fast_path_was_used(EDGE_CASES["float ops"]) >= 1


def test_an_error_in_a_fast_shape_is_located_at_the_op() -> None:
    status, kind, message = same_both_ways(EDGE_CASES["redefinition"])
    assert (status, kind) == ("error", "ParseError")
    assert "k.mlir:3:3" in message and "already defined" in message
    status, kind, message = same_both_ways(EDGE_CASES["operand of another type"])
    assert "k.mlir:3:" in message


NAMES = ["%a", "%b", "%c", "%d", "%A", "%B", "%F"]
TYPES = ["index", "i32", "f16", "i8", "tensor<4xf16>"]
LINES = st.one_of(
    st.builds("{} = arith.{} {}, {} : {}".format, st.sampled_from(NAMES),
              st.sampled_from(["addi", "muli", "subi", "remui", "addf", "maxsi"]),
              st.sampled_from(NAMES), st.sampled_from(NAMES), st.sampled_from(TYPES)),
    st.builds("{} = arith.constant {} : {}".format, st.sampled_from(NAMES),
              st.sampled_from(["0", "1", "-1", "255", "-129", "1.5", "2.", "70000"]),
              st.sampled_from(TYPES)),
    st.builds("{} = arith.index_cast {} : {} to {}".format, st.sampled_from(NAMES),
              st.sampled_from(NAMES), st.sampled_from(TYPES), st.sampled_from(TYPES)),
    st.builds('{} = "arith.addi"({}, {}) : ({}, {}) -> {}'.format, st.sampled_from(NAMES),
              st.sampled_from(NAMES), st.sampled_from(NAMES), st.sampled_from(TYPES),
              st.sampled_from(TYPES), st.sampled_from(TYPES)),
)
SUFFIXES = st.sampled_from(["", "", "", " // note", " loc(unknown)", "  "])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(LINES, SUFFIXES), min_size=1, max_size=8))
def test_random_lines_parse_the_same_both_ways(lines) -> None:
    same_both_ways(kernel(*(line + suffix for line, suffix in lines)))


# ---------------------------------------------------------------------------------------
# The pieces: the quick next-token lexer, and verification once per op shape
# ---------------------------------------------------------------------------------------

TOKEN_TEXT = st.text(alphabet=list("%ab_1$.-} \n\t/:=,(){}<>!#\"^@x9é"), max_size=12)


@settings(max_examples=300, deadline=None)
@given(TOKEN_TEXT, TOKEN_TEXT)
def test_the_quick_token_lexer_agrees_with_xdsls(before: str, after: str) -> None:
    text = "%x " + before + after  # the parser lexes `%x` when it is made
    position = 3 + len(before)
    parser = LocatedParser(make_context(), text, "t.mlir")

    def lexed(fn) -> tuple:
        try:
            token = fn()
        except XdslParseError as err:
            return ("error", err.msg, err.span.start)
        return (token.kind, token.span.start, token.span.end)

    def by_xdsl():
        lexer = _LinearTimeLexer(Input(text, "t.mlir"))
        lexer.pos = position
        return lexer.lex()

    assert lexed(lambda: token_after(parser, position)) == lexed(by_xdsl)


def test_only_classes_without_a_verifier_of_their_own_are_verified_once_per_shape() -> None:
    ctx = make_context()
    assert verifies_only_its_definition(ctx.get_optional_op("arith.addi"))
    assert verifies_only_its_definition(ctx.get_optional_op("arith.constant"))
    # a custom verifier, a trait that verifies, regions
    assert not verifies_only_its_definition(ctx.get_optional_op("arith.index_cast"))
    assert not verifies_only_its_definition(ctx.get_optional_op("func.return"))
    assert not verifies_only_its_definition(ctx.get_optional_op("scf.for"))
    assert not verifies_only_its_definition(ctx.get_optional_op("ktdp.load"))


def first_failure_op_by_op(module) -> str | None:
    """What verifying every op on its own says first (verify_module before it verified
    each shape once)."""
    for op in module.walk():
        try:
            op.verify(verify_nested_ops=False)
        except VerifyException as err:
            return first_line(str(err))
    return None


SHAPES_IN_PLACES = {
    "an op of a verified shape ends a block": (
        "func.func @k(%A: index) attributes {grid = [1]} {\n"
        "  %a = arith.addi %A, %A : index\n"
        "  %b = arith.addi %a, %A : index\n}\n"),
    "an op of a verified shape ends a loop body": (
        "func.func @k(%A: index) attributes {grid = [1]} {\n"
        "  %a = arith.addi %A, %A : index\n"
        '  "scf.for"(%A, %A, %A) ({\n'
        "  ^bb0(%i: index):\n"
        "    %b = arith.addi %i, %a : index\n"
        "  }) : (index, index, index) -> ()\n"
        "  return\n}\n"),
    "two shapes, the second wrong": kernel(
        '%a = "arith.addi"(%A, %A) : (index, index) -> index',
        '%b = "arith.addi"(%A, %A) : (index, index) -> i32'),
}


@pytest.mark.parametrize("name", list(SHAPES_IN_PLACES))
def test_verifying_once_per_shape_reports_what_verifying_each_op_reports(name: str) -> None:
    text = SHAPES_IN_PLACES[name]
    parser = LocatedParser(make_context(), text, "k.mlir")
    module = parser.parse_module()
    expected = first_failure_op_by_op(module)
    assert expected is not None
    with pytest.raises(SpyreSchedError) as caught:
        verify_module(module, parser.op_locations(), "k.mlir")
    assert expected in str(caught.value)


def test_a_large_generated_kernel_is_read_by_the_fast_path() -> None:
    """bench/parse_scale.py's kernel: all but the first op of each shape and the ops with
    regions or attribute dictionaries take the fast path (what keeps 100,000 ops in
    seconds; the time itself is measured by the bench, never here)."""
    import sys

    sys.path.insert(0, str(ROOT / "bench"))
    from parse_scale import generate

    text = generate(5000)
    assert fast_path_was_used(text) >= 4980
    fast, slow = parsed_by_parser(text, True), parsed_by_parser(text, False)
    assert fast == slow


VIEWS = """func.func @k(%A: index) {{
  %o = arith.constant 0 : index
  %v0 = ktdp.construct_memory_view %o, sizes: [64, 128], strides: [128, 1] {{coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<ct_local>}} : memref<64x128xf16>
  %v1 = ktdp.construct_memory_view %o, sizes: [64, 128], strides: [128, 1] {{coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<ct_local>}} // again
      : memref<64x128xf16>
  %v2 = ktdp.construct_memory_view %o, sizes: [64, 128], strides: [128, 1] {{coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<ct_local>}} : {last}
  func.return
}}
"""


def test_an_attribute_or_type_read_again_is_the_same_and_errors_stay_located() -> None:
    # The located parser reads an attribute or type whose text it has met before in the
    # file from what it made then: the same objects, the same IR as xDSL's own reading,
    # and an error after one is still reported where it is.
    text = VIEWS.format(last="memref<64x128xf16>")
    assert parsed_by_parser(text, True) == parsed_by_parser(text, False)
    parser = LocatedParser(make_context(), text, "t.mlir")
    views = [op for op in parser.parse_module().walk() if op.name == "ktdp.construct_memory_view"]
    assert len(views) == 3
    assert views[1].coordinate_set is views[0].coordinate_set
    assert views[2].coordinate_set is views[0].coordinate_set
    assert views[1].result.type is views[0].result.type
    bad = VIEWS.format(last="memref<64x128xf17>")
    status, message, offset = parsed_by_parser(bad, True)
    assert status == "error"
    assert (status, message, offset) == parsed_by_parser(bad, False)
    assert bad[offset:].startswith("xf17") or bad[offset:].startswith("f17") \
        or bad[offset:].startswith("memref<64x128xf17")
