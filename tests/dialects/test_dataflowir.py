"""The DataflowIR dialects (dataflow, agen, vectorchain, uniform, symbol): round trip and
FileCheck of every op, the generic form, and one negative case per verifier rule."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from xdsl.utils.exceptions import ParseError, VerifyException

from spyre_sched.dialects.agen import AGEN, AccessAttr, box_bounds
from spyre_sched.dialects.dataflow import DATAFLOW, engine_of, instance_index
from spyre_sched.dialects.symbol import SYMBOL
from spyre_sched.dialects.uniform import UNIFORM
from spyre_sched.dialects.vectorchain import VECTORCHAIN, AddOp, MaxOp
from dialect_ir import check_round_trip_and_filecheck, parse, print_ir

HERE = Path(__file__).parent
ROUNDTRIP = HERE / "dataflowir_roundtrip.mlir"


def test_every_op_and_attribute_is_covered() -> None:
    text = ROUNDTRIP.read_text()
    for dialect in (DATAFLOW, AGEN, VECTORCHAIN, UNIFORM, SYMBOL):
        for op in dialect.operations:
            assert re.search(rf"{re.escape(op.name)}[ (]", text), op.name
        for attr in dialect.attributes:
            assert attr.name in text, attr.name


def test_round_trip_and_filecheck() -> None:
    check_round_trip_and_filecheck(ROUNDTRIP)


def test_generic_form_round_trips() -> None:
    module = parse(ROUNDTRIP.read_text())
    generic = print_ir(module, generic=True)
    assert print_ir(parse(generic)) == print_ir(module)


def test_instance_names() -> None:
    assert instance_index("core3.corelet1.sfu", "core") == 3
    assert instance_index("core3.corelet1.sfu", "corelet") == 1
    assert instance_index("core12.dma_load", "corelet") == 0
    assert engine_of("core3.corelet1.lx_load") == "lx_load"


def test_access_shape_and_bounds() -> None:
    module = parse(ROUNDTRIP.read_text())
    accesses = [a for op in module.walk() for a in op.properties.values()
                if isinstance(a, AccessAttr)]
    transposed = [a for a in accesses if a.stride_list == (1, 2)]
    assert transposed and transposed[0].shape() == (64, 2)
    masked = [a for a in accesses if len(a.set.data.constraints) == 5]
    assert masked and masked[0].bounds() == [(0, 1), (0, 63)]  # the mask does not shrink the box
    assert box_bounds(masked[0].set.data) == [(0, 1), (0, 63)]


def test_binary_ops_name_their_scalar_semantics() -> None:
    module = parse(ROUNDTRIP.read_text())
    adds = [op for op in module.walk() if isinstance(op, AddOp)]
    maxes = [op for op in module.walk() if isinstance(op, MaxOp)]
    assert adds[0].scalar_op() == "arith.addf" and maxes[0].scalar_op() == "arith.maximumf"


# ---- negative cases: one per verifier rule ---------------------------------------------

ROW = ("#agen.access<set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>, "
       "order = affine_map<(d0, d1) -> (d0, d1)>, strides = [64, 1]>")


def program(decls: str = "", sfu: str = "", load: str = "") -> str:
    return f"""
func.func @body() {{
  dataflow.fifo @x "lx_load" -> "sfu" {{depth = 8 : i64}} : vector<64xf16>
  dataflow.sync @t "lx_load" -> "sfu" {{initial = 0 : i64}}
  {decls}
  dataflow.program_unit @p0_lx_load attributes {{engine = "lx_load", units = ["core0.corelet0.lx_load"]}} {{
    %c0 = arith.constant 0 : index
    {load}
  }}
  dataflow.program_unit @p0_sfu attributes {{engine = "sfu", units = ["core0.corelet0.sfu"]}} {{
    %c0 = arith.constant 0 : index
    {sfu}
  }}
  func.return
}}
"""


def test_valid_base_case_parses() -> None:
    parse(program(load=f'%v = agen.vector_load "lx"[%c0] {ROW} : vector<1x64xf16>\n'
                       "dataflow.send %v to @x : vector<1x64xf16>\ndataflow.sync_send @t",
                  sfu="%x = dataflow.receive @x : vector<1x64xf16>\ndataflow.sync_recv @t"))


NEGATIVE = {
    "fifo depth zero": (program('dataflow.fifo @z "lx_load" -> "sfu" {depth = 0 : i64} : vector<64xf16>'),
                        "depth must be at least 1"),
    "fifo entry not 1-D": (program('dataflow.fifo @z "lx_load" -> "sfu" {depth = 2 : i64} : vector<2x64xf16>'),
                           "an entry is a 1-D vector"),
    "fifo to itself": (program('dataflow.fifo @z "sfu" -> "sfu" {depth = 2 : i64} : vector<64xf16>'),
                       "source and target are the same engine"),
    "negative initial tokens": (program('dataflow.sync @z "sfu" -> "lx_load" {initial = -1 : i64}'),
                                "initial tokens must be >= 0"),
    "unit of another engine": (
        program().replace('units = ["core0.corelet0.sfu"]', 'units = ["core0.corelet0.lx_store"]'),
        "is not a 'sfu' engine"),
    "unit listed twice": (
        program().replace('units = ["core0.corelet0.sfu"]',
                          'units = ["core0.corelet0.sfu", "core0.corelet0.sfu"]'), "listed twice"),
    "no units": (program().replace('units = ["core0.corelet0.sfu"]', "units = []"),
                 "lists no unit instances"),
    # a bundle mutant: the ops inside are verified before the unit (was a KeyError)
    "unit without an engine": (
        program(sfu='%i = dataflow.instance_index "core" : index').replace(
            'engine = "sfu", units', 'engile = "sfu", units'),
        "its dataflow.program_unit names no engine"),
    "send by the fifo's target": (program(sfu="%v = dataflow.receive @x : vector<1x64xf16>\n"
                                              "dataflow.send %v to @x : vector<1x64xf16>"),
                                  "the fifo's source is 'lx_load'"),
    "receive of an undeclared fifo": (program(sfu="%v = dataflow.receive @nope : vector<1x64xf16>"),
                                      "no dataflow.fifo @nope"),
    "partial entry": (program(sfu="%v = dataflow.receive @x : vector<1x32xf16>"),
                      "not a whole number of 64-element entries"),
    "wrong element type": (program(sfu="%v = dataflow.receive @x : vector<1x64xf32>"),
                           "differs from the fifo's"),
    "sync by the wrong end": (program(sfu="dataflow.sync_send @t"), "sync channel's source is 'lx_load'"),
    "undeclared sync": (program(sfu="dataflow.sync_recv @nope"), "no dataflow.sync @nope"),
    "unknown instance level": (program(sfu='%i = dataflow.instance_index "chip" : index'),
                               "level must be one of"),
    "send outside a program unit": (
        program("%c = arith.constant 0 : index\n"
                '%v = agen.vector_load "lx"[%c] ' + ROW + " : vector<1x64xf16>\n"
                "dataflow.send %v to @x : vector<1x64xf16>"),
        "must be inside a dataflow.program_unit"),
    "load shape differs from access": (
        program(load=f'%v = agen.vector_load "lx"[%c0] {ROW} : vector<2x64xf16>'),
        "the access moves [1, 64]"),
    "access without an upper bound": (
        program(load='%v = agen.vector_load "lx"[%c0] #agen.access<set = affine_set<(d0) : (d0 >= 0)>, '
                     "order = affine_map<(d0) -> (d0)>, strides = [1]> : vector<4xf16>"),
        "needs a constant lower and upper bound"),
    "access order not a permutation": (
        program(load='%v = agen.vector_load "lx"[%c0] #agen.access<set = affine_set<(d0, d1) : '
                     "(d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>, order = affine_map<(d0, d1) -> (d0, d0)>, "
                     "strides = [64, 1]> : vector<1x64xf16>"),
        "must be a permutation"),
    "access strides count": (
        program(load=f'%v = agen.vector_load "lx"[%c0] {ROW.replace("[64, 1]", "[1]")} : vector<1x64xf16>'),
        "1 strides for a set of 2 dims"),
    "access with the wrong attribute": (
        program(load='%v = agen.vector_load "lx"[%c0] affine_map<(d0) -> (d0)> : vector<1x64xf16>'),
        "must be an #agen.access"),
    "composite point counts differ": (
        program(load=f'agen.composite_load_and_store "ddr"[%c0] {ROW} to "lx"[%c0] '
                     f'{ROW.replace("-d1 + 63", "-d1 + 31")} : f16'),
        "the source moves 64 points"),
    "clip symbols": (
        program(load=f'agen.composite_load_and_store "ddr"[%c0] {ROW} to "lx"[%c0] {ROW} clip(%c0) '
                     '{clip = affine_set<(d0, d1)[s0, s1] : (-d1 - s0 + s1 >= 0)>, clip_side = "source"} : f16'),
        "one symbol per clip value (1)"),
    "clip side": (
        program(load=f'agen.composite_load_and_store "ddr"[%c0] {ROW} to "lx"[%c0] {ROW} clip(%c0) '
                     '{clip = affine_set<(d0, d1)[s0] : (-d1 - s0 >= 0)>, clip_side = "both"} : f16'),
        'clip_side must be "source" or "target"'),
    "empty memory name": (program(load=f'%v = agen.vector_load ""[%c0] {ROW} : vector<1x64xf16>'),
                          "memory name is empty"),
    "binary operand types differ": (
        program(sfu="%a = vectorchain.constant_bitstream \"3c00\" : vector<1xf16>\n"
                    '%b = vectorchain.constant_bitstream "3f800000" : vector<1xf32>\n'
                    "%c = vectorchain.add %a, %b : vector<1xf16>"), None),
    "splat of bits without a bit layout": (
        program(sfu="%c = arith.constant 15360 : index\n"
                    "%a = vectorchain.splat_bits %c : vector<1xindex>"),
        "no bit layout for index"),
    "bitstream length": (program(sfu='%a = vectorchain.constant_bitstream "3c" : vector<1xf16>'),
                         "needs 4 lowercase hex digits"),
    "shuffle index out of range": (
        program(sfu='%a = vectorchain.constant_bitstream "3c00" : vector<1xf16>\n'
                    "%b = vectorchain.shuffle %a {pattern = array<i64: 1>} : vector<1xf16> -> vector<64xf16>"),
        "pattern indices must be in [0, 1)"),
    "apply needs a full name": (
        program(sfu='%a = vectorchain.constant_bitstream "3c00" : vector<1xf16>\n'
                    '%b = vectorchain.apply "exp"(%a) : (vector<1xf16>) -> vector<1xf16>'),
        "must be a full op name"),
    "apply shapes differ": (
        program(sfu='%a = vectorchain.constant_bitstream "3c00" : vector<1xf16>\n'
                    '%b = vectorchain.apply "math.exp"(%a) : (vector<1xf16>) -> vector<2xf16>'),
        "differs from the result's"),
    "reduce keeps the last dim": (
        program(sfu='%a = vectorchain.constant_bitstream "3c003c00" : vector<1x2xf16>\n'
                    '%b = vectorchain.reduce "add" %a : vector<1x2xf16> -> vector<1x2xf32>'),
        "reducing the last dim"),
    "reduce into another count": (
        program(sfu='%a = vectorchain.constant_bitstream "3c003c003c003c00" : vector<2x2xf16>\n'
                    '%b = vectorchain.reduce "add" %a : vector<2x2xf16> -> vector<1xf32>'),
        "gives 2 element(s)"),
    "reduce kind": (
        program(sfu='%a = vectorchain.constant_bitstream "3c003c00" : vector<1x2xf16>\n'
                    '%b = vectorchain.reduce "avg" %a : vector<1x2xf16> -> vector<1x1xf32>'),
        "unknown kind 'avg'"),
    "matmul shapes": (
        program(sfu='%a = vectorchain.constant_bitstream "3c003c00" : vector<1x2xf16>\n'
                    '%c = vectorchain.constant_bitstream "3f800000" : vector<1x1xf32>\n'
                    '%b = vectorchain.matmul "f16" %a, %a, %c : vector<1x2xf16>, vector<1x2xf16>, '
                    'vector<1x1xf32> -> vector<1x1xf32>'),
        "are not R x K times K x C"),
    "map keys and values": (
        program("%c = arith.constant 0 : index\n"
                "%m = uniform.def_immutable_mapping(%c) {keys = array<i64: 0, 1>} : !uniform.map"),
        "2 keys but 1 values"),
    "map keys repeat": (
        program("%c = arith.constant 0 : index\n"
                "%m = uniform.def_immutable_mapping(%c, %c) {keys = array<i64: 1, 1>} : !uniform.map"),
        "keys must be distinct"),
    "negative symbol id": (program("%s = symbol.create_symbol {SymbolId = -2 : i64} : index"),
                           "symbol ids are non-negative"),
}


@pytest.mark.parametrize("case", sorted(NEGATIVE), ids=lambda c: c.replace(" ", "_"))
def test_verifier_rejects(case: str) -> None:
    text, message = NEGATIVE[case]
    with pytest.raises((VerifyException, ParseError)) as err:
        parse(text)
    if message is not None:
        assert message in str(err.value)
