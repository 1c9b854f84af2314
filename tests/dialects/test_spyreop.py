"""The spyreop dialect: custom syntax round-trips, verifier rules and use inside linalg."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.context import Context
from xdsl.dialects import arith, builtin, func, linalg, math as math_dialect, tensor
from xdsl.dialects.builtin import f16, f32, i32
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import Block
from xdsl.parser import Parser
from xdsl.traits import Pure
from xdsl.utils.exceptions import ParseError, VerifyException

from spyre_sched.dialects import spyreop
from spyre_sched.dialects.spyreop import SPYREOP
from dialect_ir import parse_in, print_ir, run_filecheck

HERE = Path(__file__).parent


@pytest.fixture(scope="module")
def ctx() -> Context:
    context = Context()
    for dialect in (
        builtin.Builtin,
        func.Func,
        arith.Arith,
        math_dialect.Math,
        linalg.Linalg,
        tensor.Tensor,
        SPYREOP,
    ):
        context.load_dialect(dialect)
    return context


ARGS = (
    "%x: f16, %y: f16, %z: f16, %d: !spyreop.df16, %e: !spyreop.df16, %g: f32, %h: f32, "
    "%i: i32, %j: i32, %k: i64, %pf: !spyreop.fp16_fused, %pd: !spyreop.df16_fused, "
    "%t: tensor<64xf16>, %u: tensor<2x32xf32>, %v: tensor<3x64x!spyreop.df16>"
)


def in_func(body: str) -> str:
    return f"func.func @f({ARGS}) {{\n  {body}\n  func.return\n}}\n"


# Each line is written exactly as the printer must give it back.
ROUND_TRIP_LINES = [
    "%r = spyreop.exp %x : f16",
    "%r = spyreop.exp %d : !spyreop.df16",
    "%r = spyreop.gelu %g : f32",
    "%r = spyreop.sigmoid %x : f16",
    "%r = spyreop.silu %d : !spyreop.df16",
    "%r = spyreop.sqrt %g : f32",
    "%r = spyreop.rsqrt %x : f16",
    "%r = spyreop.reciprocal %g : f32",
    "%r = spyreop.softplus %x beta 2.000000e-01 threshold 1.000000e-01 : f16",
    "%r = spyreop.softplus %g beta -3.500000e+00 threshold 2.000000e+01 : f32",
    "%r = spyreop.softplus %d beta 1.000000e+00 threshold 0x7F800000 : !spyreop.df16",
    "%r = spyreop.softplus %x beta 1.23456788 threshold 0.000000e+00 : f16",
    "%r = spyreop.realdiv %x, %y : f16",
    "%r = spyreop.realdiv %d, %e : !spyreop.df16",
    *(
        f"%r = spyreop.compare <{p}> %g, %h : f32"
        for p in ("equal", "notequal", "greaterthan", "greaterequal", "lesserthan", "lesserequal")
    ),
    "%r = spyreop.select %x, %y, %z : f16",
    "%m, %sq = spyreop.exx2 %x : f16",
    "%m, %sq = spyreop.exx2 %g : f32",
    "%p = spyreop.exx2_fused %x : f16 -> !spyreop.fp16_fused",
    "%p = spyreop.exx2_fused %d : !spyreop.df16 -> !spyreop.df16_fused",
    "%p = spyreop.exx2_fused %g : f32 -> !spyreop.fp32_fused",
    "%r = spyreop.layernormscale %x squares %y : f16",
    "%r = spyreop.layernormscale_fused %pf : !spyreop.fp16_fused -> f16",
    "%r = spyreop.layernormscale_fused %pd : !spyreop.df16_fused -> !spyreop.df16",
    "%r = spyreop.layernormnorm %x squares %y scale %z weight %y bias %x : f16",
    "%r = spyreop.addi32toi32 %i, %j",
    "%r = spyreop.addi64toi64 %k, %k",
    "%r = spyreop.muli32toi32 %i, %j",
    "%r = spyreop.muli32toi32 %i, %j {note = 1 : i64}",
    "%r = spyreop.idx32toaddr %i base %j stride %i",
    "%r = spyreop.idx32toaddr %i base 0 stride 4",
    "%r = spyreop.idx32toaddr %i base -2147483648 stride %j",
    "%r = spyreop.idx32toaddr %i base %j stride 2147483647",
    *(
        "%r = spyreop.slice_reduction %t {reduction_kind = #spyreop.reduction_kind<"
        + kind
        + ">, reduction_scope = #spyreop.reduction_scope<in_slice>} : tensor<64xf16> -> tensor<64xf16>"
        for kind in ("add", "sub", "max", "min", "mul", "abs_max")
    ),
    "%r = spyreop.slice_reduction %u {reduction_kind = #spyreop.reduction_kind<max>, "
    "reduction_scope = #spyreop.reduction_scope<across_slice>} : tensor<2x32xf32> -> tensor<2x32xf32>",
    "%r = spyreop.slice_reduction %v {reduction_kind = #spyreop.reduction_kind<min>, "
    "reduction_scope = #spyreop.reduction_scope<in_slice>} "
    ": tensor<3x64x!spyreop.df16> -> tensor<3x64x!spyreop.df16>",
]


def op_lines(printed: str) -> list[str]:
    return [line.strip() for line in printed.splitlines() if "spyreop." in line and "=" in line]


@pytest.mark.parametrize("line", ROUND_TRIP_LINES)
def test_round_trip_exact_text(ctx: Context, line: str) -> None:
    printed = print_ir(parse_in(ctx, in_func(line)))
    assert op_lines(printed) == [line]
    # What we print parses again, to the same text.
    assert print_ir(parse_in(ctx, printed)) == printed
    # And the generic form round-trips to the same custom text.
    generic = print_ir(parse_in(ctx, in_func(line)), generic=True)
    assert print_ir(parse_in(ctx, generic)) == printed


def test_alternative_spellings_normalise(ctx: Context) -> None:
    """Integer or short float literals are accepted and printed in MLIR's f32 style."""
    printed = print_ir(parse_in(ctx, in_func("%r = spyreop.softplus %x beta 2 threshold -0.5 : f16")))
    assert op_lines(printed) == [
        "%r = spyreop.softplus %x beta 2.000000e+00 threshold -5.000000e-01 : f16"
    ]


def test_slice_reduction_keeps_written_property_order(ctx: Context) -> None:
    line = (
        "%r = spyreop.slice_reduction %t {reduction_scope = #spyreop.reduction_scope<across_slice>, "
        "reduction_kind = #spyreop.reduction_kind<sub>} : tensor<64xf16> -> tensor<64xf16>"
    )
    module = parse_in(ctx, in_func(line))
    assert op_lines(print_ir(module)) == [line]
    op = next(o for o in module.walk() if isinstance(o, spyreop.SliceReductionOp))
    assert op.reduction_kind.data == spyreop.ReductionKind.SUB
    assert op.reduction_scope.data == spyreop.ReductionScope.ACROSS_SLICE


@settings(max_examples=40, deadline=None)
@given(st.floats(width=32, allow_nan=True, allow_infinity=True))
def test_softplus_floats_round_trip_bit_exactly(ctx: Context, threshold: float) -> None:
    line = f"%r = spyreop.softplus %g beta 1.0 threshold {_f32_text(threshold)} : f32"
    module = parse_in(ctx, in_func(line))
    printed = print_ir(module)
    again = parse_in(ctx, printed)
    first, second = (
        next(o for o in m.walk() if isinstance(o, spyreop.SoftplusOp)).threshold.value.data
        for m in (module, again)
    )
    assert np.float32(first).tobytes() == np.float32(second).tobytes() == np.float32(threshold).tobytes()
    assert print_ir(again) == printed


def _f32_text(value: float) -> str:
    if math.isfinite(value):
        return repr(value) if "e" in repr(value) or "." in repr(value) else f"{value}.0"
    return "0x" + np.float32(value).view(np.uint32).item().to_bytes(4, "big").hex().upper()


def test_filecheck_on_printed_output(ctx: Context) -> None:
    source = HERE / "spyreop_roundtrip.mlir"
    printed = print_ir(parse_in(ctx, source.read_text()))
    done = run_filecheck(source, printed)
    assert done.returncode == 0, done.stderr + "\n--- printed ---\n" + printed


def test_filecheck_catches_a_wrong_line(ctx: Context, tmp_path: Path) -> None:
    """The FileCheck test above can fail: a changed CHECK line is reported."""
    source = (HERE / "spyreop_roundtrip.mlir").read_text()
    broken = tmp_path / "broken.mlir"
    broken.write_text(source.replace("// CHECK-NEXT: %a = spyreop.addi32toi32 %i, %j",
                                     "// CHECK-NEXT: %a = spyreop.addi32toi32 %j, %i"))
    printed = print_ir(parse_in(ctx, source))
    done = run_filecheck(broken, printed)
    assert done.returncode != 0


# ---------------------------------------------------------------------------------------
# Verifier rules, one negative case each, with the message.
# ---------------------------------------------------------------------------------------

VERIFY_ERRORS = [
    # float type sets
    ("%r = spyreop.exp %i : i32", "operand #0 must be f16, f32 or !spyreop.df16, but got i32"),
    ("%r = spyreop.sqrt %t : tensor<64xf16>", "operand #0 must be f16, f32 or !spyreop.df16, but got tensor<64xf16>"),
    # one type for operands and result: an IRDL constraint variable, xDSL's message
    ('%r = "spyreop.gelu"(%x) : (f16) -> f32', r"result 'result' at position 0 does not verify:\s+attribute f16 expected from variable 'T \(the one type of every operand and the result\)', but got f32"),
    ("%r = spyreop.realdiv %i, %j : i32", "operand #0 must be f16, f32 or !spyreop.df16, but got i32"),
    ('%r = "spyreop.realdiv"(%x, %g) : (f16, f32) -> f16', r"operand 'rhs' at position 1 does not verify:\s+attribute f16 expected from variable 'T \(the one type of every operand and the result\)', but got f32"),
    ('%r = "spyreop.select"(%x, %y, %d) : (f16, f16, !spyreop.df16) -> f16', r"operand 'false_value' at position 2 does not verify:\s+attribute f16 expected from variable 'T \(the one type of every operand and the result\)', but got !spyreop.df16"),
    ('%r = "spyreop.compare"(%g, %h) <{predicate = #spyreop.compare_predicate<equal>}> : (f32, f32) -> i1', "result #0 must have the operand type f32, but got i1"),
    # softplus
    ("%r = spyreop.softplus %x beta 0.0 threshold 1.0 : f16", "softplus beta must be non-zero"),
    ("%r = spyreop.softplus %x beta -0.0 threshold 1.0 : f16", "softplus beta must be non-zero"),
    ("%r = spyreop.softplus %k beta 1.0 threshold 1.0 : i64", "operand #0 must be f16, f32 or !spyreop.df16, but got i64"),
    # exx2 and pairs
    ('%m, %s = "spyreop.exx2"(%x) : (f16) -> (f16, f32)', "result #1 must have the operand type f16, but got f32"),
    ("%p = spyreop.exx2_fused %x : f16 -> !spyreop.df16_fused", "result type for a f16 operand must be !spyreop.fp16_fused, but got !spyreop.df16_fused"),
    ("%p = spyreop.exx2_fused %g : f32 -> f32", "result type for a f32 operand must be !spyreop.fp32_fused, but got f32"),
    ("%p = spyreop.exx2_fused %i : i32 -> !spyreop.fp16_fused", "operand #0 must be f16, f32 or !spyreop.df16, but got i32"),
    ("%r = spyreop.layernormscale_fused %pd : !spyreop.df16_fused -> f16", "result type for a !spyreop.df16_fused operand must be !spyreop.df16, but got f16"),
    ("%r = spyreop.layernormscale_fused %x : f16 -> f16", "operand #0 must be !spyreop.fp16_fused, !spyreop.df16_fused or !spyreop.fp32_fused, but got f16"),
    ('%r = "spyreop.layernormscale"(%x, %d) : (f16, !spyreop.df16) -> f16', r"operand #1 must have the type of operand #0 \(f16\), but got !spyreop.df16"),
    ('%r = "spyreop.layernormnorm"(%x, %y, %z, %y, %g) : (f16, f16, f16, f16, f32) -> f16', r"operand #4 must have the type of operand #0 \(f16\), but got f32"),
    # integer ops (the custom syntax fixes the types, so mismatches come in generic form)
    ('%r = "spyreop.addi32toi32"(%x, %j) : (f16, i32) -> i32', "operand #0 must be i32, but got f16"),
    ('%r = "spyreop.addi64toi64"(%k, %i) : (i64, i32) -> i64', "operand #1 must be i64, but got i32"),
    ('%r = "spyreop.muli32toi32"(%i, %j) : (i32, i32) -> i64', "result #0 must be i32, but got i64"),
    ('%r = "spyreop.idx32toaddr"(%k, %j, %i) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (i64, i32, i32) -> i32', r"operand #0 \(index\) must be i32, but got i64"),
    ('%r = "spyreop.idx32toaddr"(%i, %j, %k) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (i32, i32, i64) -> i32', "stride must be i32, but got i64"),
    ('%r = "spyreop.idx32toaddr"(%i, %j, %i) <{base_imm = 3 : i32, operandSegmentSizes = array<i32: 1, 1, 1>}> : (i32, i32, i32) -> i32', "base must be given exactly once"),
    ('%r = "spyreop.idx32toaddr"(%i, %j) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (i32, i32) -> i32', "stride must be given exactly once"),
    ('%r = "spyreop.idx32toaddr"(%i) <{base_imm = 3 : i64, stride_imm = 1 : i32, operandSegmentSizes = array<i32: 1, 0, 0>}> : (i32) -> i32', "base_imm type must be i32, but got i64"),
    # slice_reduction
    (
        "%r = spyreop.slice_reduction %u {reduction_kind = #spyreop.reduction_kind<add>, reduction_scope = #spyreop.reduction_scope<in_slice>} : tensor<2x32xf32> -> tensor<2x64xf32>",
        "result type must equal the operand type tensor<2x32xf32>, but got tensor<2x64xf32>",
    ),
    (
        "%r = spyreop.slice_reduction %u {reduction_kind = #spyreop.reduction_kind<add>, reduction_scope = #spyreop.reduction_scope<in_slice>} : tensor<2x32xf32> -> tensor<2x32xf16>",
        "result type must equal the operand type tensor<2x32xf32>, but got tensor<2x32xf16>",
    ),
    (
        '%r = "spyreop.slice_reduction"(%w) <{reduction_kind = #spyreop.reduction_kind<add>, reduction_scope = #spyreop.reduction_scope<in_slice>}> : (tensor<2x32xf16>) -> tensor<2x32xf16>',
        r"innermost dimension must be one stick \(64 elements of f16\), but got 32",
    ),
    (
        '%r = "spyreop.slice_reduction"(%w64) <{reduction_kind = #spyreop.reduction_kind<add>, reduction_scope = #spyreop.reduction_scope<in_slice>}> : (tensor<64xf32>) -> tensor<64xf32>',
        r"innermost dimension must be one stick \(32 elements of f32\), but got 64",
    ),
    (
        '%r = "spyreop.slice_reduction"(%wi) <{reduction_kind = #spyreop.reduction_kind<add>, reduction_scope = #spyreop.reduction_scope<in_slice>}> : (tensor<64xi16>) -> tensor<64xi16>',
        "operand #0 element type must be f16, f32 or !spyreop.df16, but got i16",
    ),
    (
        '%r = "spyreop.slice_reduction"(%x) <{reduction_kind = #spyreop.reduction_kind<add>, reduction_scope = #spyreop.reduction_scope<in_slice>}> : (f16) -> f16',
        "operand #0 must be a ranked tensor of f16, f32 or !spyreop.df16, but got f16",
    ),
    (
        '%r = "spyreop.slice_reduction"(%wd) <{reduction_kind = #spyreop.reduction_kind<add>, reduction_scope = #spyreop.reduction_scope<in_slice>}> : (tensor<2x?xf16>) -> tensor<2x?xf16>',
        r"innermost dimension must be one stick \(64 elements of f16\), but got \?",
    ),
]

EXTRA_ARGS = "%w: tensor<2x32xf16>, %w64: tensor<64xf32>, %wi: tensor<64xi16>, %wd: tensor<2x?xf16>"


def in_func_extra(body: str) -> str:
    return f"func.func @f({ARGS}, {EXTRA_ARGS}) {{\n  {body}\n  func.return\n}}\n"


@pytest.mark.parametrize(("line", "message"), VERIFY_ERRORS)
def test_verifier_rejects(ctx: Context, line: str, message: str) -> None:
    module = Parser(ctx, in_func_extra(line)).parse_module()
    with pytest.raises(VerifyException, match=message):
        module.verify()


PARSE_ERRORS = [
    ("%r = spyreop.compare <bigger> %x, %y : f16", "Expected `equal`, `notequal`"),
    ("%r = spyreop.softplus %x beta threshold 1.0 : f16", "float literal expected for beta"),
    ("%r = spyreop.softplus %x beta 1.0 : f16", "threshold"),
    ("%r = spyreop.idx32toaddr %i base 2147483648 stride 4", "base 2147483648 does not fit in i32"),
    ("%r = spyreop.idx32toaddr %i base 1.5 stride 4", "or SSA value for base"),
    ("%r = spyreop.addi32toi32 %x, %j", "type"),
    ("%r = spyreop.select %x, %y : f16", "Expected ','"),
    ("%r = spyreop.layernormnorm %x squares %y scale %z bias %x : f16", "weight"),
    (
        "%r = spyreop.slice_reduction %t {reduction_kind = #spyreop.reduction_kind<sum>, reduction_scope = #spyreop.reduction_scope<in_slice>} : tensor<64xf16> -> tensor<64xf16>",
        "Expected `add`, `sub`, `max`, `min`, `mul`, or `abs_max`",
    ),
    (
        "%r = spyreop.slice_reduction %t {reduction_kind = #spyreop.reduction_kind<add>, reduction_scope = #spyreop.reduction_scope<everywhere>} : tensor<64xf16> -> tensor<64xf16>",
        "Expected `in_slice`, or `across_slice`",
    ),
    ("%r = spyreop.softplus %g beta 0x1FFFFFFFF threshold 1.0 : f32", "does not fit the 32 bits"),
]


@pytest.mark.parametrize(("line", "message"), PARSE_ERRORS)
def test_parser_rejects(ctx: Context, line: str, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        Parser(ctx, in_func_extra(line)).parse_module().verify()


def test_slice_reduction_needs_both_properties(ctx: Context) -> None:
    line = (
        "%r = spyreop.slice_reduction %t {reduction_kind = #spyreop.reduction_kind<add>} "
        ": tensor<64xf16> -> tensor<64xf16>"
    )
    with pytest.raises((ParseError, VerifyException), match="reduction_scope"):
        Parser(ctx, in_func(line)).parse_module().verify()


# ---------------------------------------------------------------------------------------
# Use inside linalg.generic, Python construction, traits
# ---------------------------------------------------------------------------------------

GENERIC_KERNEL = """
func.func @softplus_gate(%in: tensor<4x64xf16>, %other: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %empty = tensor.empty() : tensor<4x64xf16>
  %out = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%in, %other : tensor<4x64xf16>, tensor<4x64xf16>) outs(%empty : tensor<4x64xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %sp = spyreop.softplus %a beta 1.000000e+00 threshold 2.000000e+01 : f16
    %gt = spyreop.compare <greaterthan> %a, %b : f16
    %sel = spyreop.select %gt, %sp, %b : f16
    %one = arith.constant 1.000000e+00 : f16
    %sum = arith.addf %sel, %one : f16
    %r = spyreop.reciprocal %sum : f16
    linalg.yield %r : f16
  } -> tensor<4x64xf16>
  func.return %out : tensor<4x64xf16>
}
"""


def test_ops_inside_linalg_generic(ctx: Context) -> None:
    module = parse_in(ctx, GENERIC_KERNEL)
    generic = next(o for o in module.walk() if isinstance(o, GenericOp))
    body_ops = [op.name for op in generic.body.block.ops]
    assert body_ops == [
        "spyreop.softplus",
        "spyreop.compare",
        "spyreop.select",
        "arith.constant",
        "arith.addf",
        "spyreop.reciprocal",
        "linalg.yield",
    ]
    printed = print_ir(module)
    assert "spyreop.select %gt, %sp, %b : f16" in printed
    assert print_ir(parse_in(ctx, printed)) == printed


def test_generic_body_type_mismatch_is_caught(ctx: Context) -> None:
    bad = GENERIC_KERNEL.replace(
        "%gt = spyreop.compare <greaterthan> %a, %b : f16",
        "%gt = spyreop.compare <greaterthan> %a, %b : f16\n"
        '    %bad = "spyreop.exp"(%a) : (f16) -> f32',
    )
    assert bad != GENERIC_KERNEL
    with pytest.raises(VerifyException, match=r"expected from variable 'T \(the one type of every "
                       r"operand and the result\)', but got f32"):
        Parser(ctx, bad).parse_module().verify()


def test_every_op_is_pure() -> None:
    assert len(SPYREOP._operations) == 21
    for op_class in SPYREOP._operations:
        assert op_class.has_trait(Pure), op_class.name


def test_python_construction_and_field_names() -> None:
    block = Block(arg_types=[f16, f16, i32, i32, spyreop.df16])
    x, y, i, j, d = block.args

    exp = spyreop.ExpOp(x)
    assert exp.input is x and exp.result.type == f16

    soft = spyreop.SoftplusOp(x, 0.5, 20.0)
    assert soft.beta.value.data == 0.5 and soft.threshold.value.data == 20.0

    cmp = spyreop.CompareOp("lesserthan", x, y)
    assert cmp.predicate.data is spyreop.ComparePredicate.LESSERTHAN
    assert (cmp.lhs, cmp.rhs) == (x, y)

    sel = spyreop.SelectOp(cmp, x, y)
    assert (sel.condition, sel.true_value, sel.false_value) == (cmp.result, x, y)

    exx2 = spyreop.Exx2Op(d)
    assert exx2.mean.type == exx2.squares.type == spyreop.df16

    fused = spyreop.Exx2FusedOp(d)
    assert fused.result.type == spyreop.df16_fused
    scale = spyreop.LayerNormScaleFusedOp(fused)
    assert scale.result.type == spyreop.df16

    norm = spyreop.LayerNormNormOp(x, y, x, y, x)
    assert (norm.input, norm.squares, norm.scale, norm.weight, norm.bias) == (x, y, x, y, x)

    addr_lit = spyreop.Idx32ToAddrOp(i, 0, 4)
    assert addr_lit.base is None and addr_lit.stride is None
    assert (addr_lit.base_imm.value.data, addr_lit.stride_imm.value.data) == (0, 4)
    addr_ssa = spyreop.Idx32ToAddrOp(i, j, 8)
    assert addr_ssa.base is j and addr_ssa.base_imm is None and addr_ssa.stride_imm.value.data == 8

    add = spyreop.AddI32ToI32Op(i, j)
    assert add.result.type == i32

    for op in (exp, soft, cmp, sel, exx2, fused, scale, norm, addr_lit, addr_ssa, add):
        block.add_op(op)
        op.verify()

    tensor_type = builtin.TensorType(f32, [8, 32])
    reduce_block = Block(arg_types=[tensor_type])
    red = spyreop.SliceReductionOp(reduce_block.args[0], "abs_max", "across_slice")
    reduce_block.add_op(red)
    red.verify()
    assert red.reduction_kind.data is spyreop.ReductionKind.ABS_MAX
    assert red.result.type == tensor_type


def test_type_sizes() -> None:
    assert spyreop.df16.bitwidth == 16 and spyreop.df16.size == 2
    assert spyreop.fp16_fused.size == 4
    assert spyreop.df16_fused.size == 4
    assert spyreop.fp32_fused.size == 8
    assert spyreop.fp32_fused.element_type == f32
    assert spyreop.stick_elements(f16) == 64 and spyreop.stick_elements(f32) == 32
