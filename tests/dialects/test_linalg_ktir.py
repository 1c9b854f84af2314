"""linalg as KTIR uses it: `linalg.div` and the short-form `linalg.reduce`, which xDSL
0.75 lacks, parse, verify, mean what MLIR means, and round-trip."""

from __future__ import annotations

import io

from xdsl.dialects import arith
from xdsl.dialects.linalg import ops as linalg_ops
from xdsl.printer import Printer

from spyre_sched.frontend import parse_kernel
from spyre_sched.dialects.linalg_ktir import DivOp, ReduceOp

KERNEL = """\
func.func @k(%a: tensor<4x8xf16>, %b: tensor<4x8xi32>, %v: tensor<8xf16>) attributes {{grid = [1]}} {{
  %e = tensor.empty() : tensor<4x8xf16>
  %ei = tensor.empty() : tensor<4x8xi32>
  {body}
  return
}}
"""


def kernel(body: str):
    return parse_kernel(KERNEL.format(body=body), "k.mlir")


def printed(op) -> str:
    out = io.StringIO()
    Printer(out).print_op(op)
    return out.getvalue()


def test_div_float_and_integer() -> None:
    k = kernel(
        "%f = linalg.div ins(%a, %a : tensor<4x8xf16>, tensor<4x8xf16>) outs(%e : tensor<4x8xf16>) -> tensor<4x8xf16>\n"
        "  %i = linalg.div ins(%b, %b : tensor<4x8xi32>, tensor<4x8xi32>) outs(%ei : tensor<4x8xi32>) -> tensor<4x8xi32>"
    )
    divs = [op for op in k.module.walk() if isinstance(op, DivOp)]
    assert len(divs) == 2
    bodies = [type(d.body.block.first_op) for d in divs]
    assert bodies == [arith.DivfOp, arith.DivSIOp]
    text = printed(k.module)
    assert "linalg.div ins(%a, %a : tensor<4x8xf16>, tensor<4x8xf16>)" in text
    assert printed(parse_kernel(text).module) == text


def test_short_reduce_equals_long_reduce() -> None:
    short = kernel("%r = linalg.reduce { arith.addf } ins(%a : tensor<4x8xf16>) outs(%v : tensor<8xf16>) dimensions = [0]")
    long = kernel(
        "%r = linalg.reduce ins(%a : tensor<4x8xf16>) outs(%v : tensor<8xf16>) dimensions = [0]\n"
        "    (%in: f16, %acc: f16) {\n      %s = arith.addf %in, %acc : f16\n"
        "      linalg.yield %s : f16\n    }"
    )
    ops = [next(o for o in m.module.walk() if isinstance(o, linalg_ops.ReduceOp)) for m in (short, long)]
    assert isinstance(ops[0], ReduceOp)
    for op in ops:
        block = op.region.block
        add = block.first_op
        assert isinstance(add, arith.AddfOp)
        assert list(add.operands) == list(block.args)
        assert isinstance(block.last_op, linalg_ops.YieldOp)
        assert block.last_op.operands[0] is add.result
    assert printed(ops[0]).replace("%0", "%in").replace("%1", "%acc").replace("%2", "%s") == printed(ops[1])


def test_short_reduce_attributes_go_to_properties() -> None:
    k = kernel("%r = linalg.reduce { arith.maximumf {fastmath = #arith.fastmath<nnan>} } "
               "ins(%a : tensor<4x8xf16>) outs(%v : tensor<8xf16>) dimensions = [0]")
    mx = next(o for o in k.module.walk() if isinstance(o, arith.MaximumfOp))
    assert "fastmath" in mx.properties and "fastmath" not in mx.attributes


def test_short_reduce_is_verified() -> None:
    import pytest

    from spyre_sched.errors import VerifyError

    with pytest.raises(VerifyError, match="Output rank must equal input rank") as info:
        kernel("%r = linalg.reduce { arith.addf } ins(%a : tensor<4x8xf16>) outs(%a : tensor<4x8xf16>) dimensions = [0]")
    assert info.value.location.line == 4


def test_map_short_and_long_forms_mean_one_thing_and_round_trip() -> None:
    from spyre_sched.dialects.linalg_ktir import MapOp

    short = kernel("%m = linalg.map { arith.mulf } ins(%a, %a : tensor<4x8xf16>, tensor<4x8xf16>) "
                   "outs(%e : tensor<4x8xf16>)")
    long = kernel(
        "%m = linalg.map ins(%a, %a : tensor<4x8xf16>, tensor<4x8xf16>) outs(%e : tensor<4x8xf16>)\n"
        "    (%x: f16, %y: f16) {\n      %p = arith.mulf %x, %y : f16\n"
        "      linalg.yield %p : f16\n    }"
    )
    ops = [next(o for o in m.module.walk() if isinstance(o, MapOp)) for m in (short, long)]
    for op in ops:
        block = op.mapper.block
        assert len(block.args) == 2 and isinstance(block.first_op, arith.MulfOp)
        assert list(block.first_op.operands) == list(block.args)
        assert op.result[0].type == op.init.type
    text = printed(long.module)
    assert "linalg.map ins(%a, %a : tensor<4x8xf16>, tensor<4x8xf16>) outs(%e : tensor<4x8xf16>)" in text
    assert printed(parse_kernel(text).module) == text
    assert printed(ops[0]).replace("%0", "%x").replace("%1", "%y").replace("%2", "%p") == printed(ops[1])


def test_map_of_mismatched_shapes_is_refused_at_the_op() -> None:
    import pytest

    from spyre_sched.errors import VerifyError

    with pytest.raises(VerifyError, match="linalg.map: input 0 has shape") as info:
        kernel("%m = linalg.map { math.exp } ins(%v : tensor<8xf16>) outs(%e : tensor<4x8xf16>)")
    assert info.value.location.line == 4


def test_named_matmul_into_a_wider_accumulator_converts_its_operands() -> None:
    k = parse_kernel(
        "func.func @k(%a: tensor<4x8xf16>, %b: tensor<8x4xf16>, %c: tensor<4x4xf32>) "
        "attributes {grid = [1]} {\n"
        "  %m = linalg.matmul ins(%a, %b : tensor<4x8xf16>, tensor<8x4xf16>) "
        "outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>\n  return\n}\n", "k.mlir")
    [matmul] = [op for op in k.module.walk() if isinstance(op, linalg_ops.MatmulOp)]
    body = [op.name for op in matmul.body.block.ops]
    assert body == ["arith.extf", "arith.extf", "arith.mulf", "arith.addf", "linalg.yield"]
    assert "linalg.matmul ins(" in printed(matmul)
