"""Device patterns (PDL in the device file) rewrite spyreop intrinsics at their checkpoint."""

from __future__ import annotations

import pytest
from xdsl.parser import Parser

from spyre_sched.device import apply_device_patterns, load_device
from spyre_sched.device.patterns import device_patterns
from spyre_sched.device.device_parser import device_context
from spyre_sched.errors import DeviceError

from ktdf_arch_testutil import TINY, line_of

KERNEL = """
func.func @f(%x: f16, %y: f32) -> (f16, f32) {
  %a = spyreop.silu %x : f16
  %b = spyreop.silu %y : f32
  %c = spyreop.exp %a : f16
  func.return %c, %b : f16, f32
}
"""


@pytest.mark.parametrize("name", ["spyre", "sample_device"])
def test_silu_expands_to_sigmoid_times_x(name):
    ctx = device_context()
    module = Parser(ctx, KERNEL).parse_module()
    fired = apply_device_patterns(load_device(name), module, "pre_mapping", ctx)
    module.verify()
    assert fired == {"expand_silu_f16": 1, "expand_silu_f32": 1}
    ops = [op.name for op in module.walk()][2:]
    assert ops == ["spyreop.sigmoid", "arith.mulf", "spyreop.sigmoid", "arith.mulf",
                   "spyreop.exp", "func.return"]
    mul = [op for op in module.walk() if op.name == "arith.mulf"][0]
    sig = [op for op in module.walk() if op.name == "spyreop.sigmoid"][0]
    assert mul.operands[0] is sig.operands[0]          # x * sigmoid(x)
    assert mul.operands[1] is sig.results[0]


def test_other_checkpoint_leaves_module_alone():
    ctx = device_context()
    module = Parser(ctx, KERNEL).parse_module()
    before = str(module)
    assert apply_device_patterns(load_device("spyre"), module, "post_lowering", ctx) == {}
    assert str(module) == before


def test_unknown_checkpoint_is_an_error():
    with pytest.raises(DeviceError, match="unknown checkpoint 'late'"):
        apply_device_patterns(load_device("spyre"), Parser(device_context(), KERNEL).parse_module(), "late")


def test_benefit_orders_patterns(write_device):
    # Two patterns match spyreop.exp; the higher benefit must win although it comes second.
    patterns = """
  ktdf_arch.patterns ["pre_scheduling", "post_scheduling"] {
    pdl.pattern @low : benefit(1) {
      %x = pdl.operand
      %t = pdl.type
      %op = pdl.operation "spyreop.exp" (%x : !pdl.value) -> (%t : !pdl.type)
      pdl.rewrite %op {
        %n = pdl.operation "spyreop.sigmoid" (%x : !pdl.value) -> (%t : !pdl.type)
        pdl.replace %op with %n
      }
    }
    pdl.pattern @high : benefit(5) {
      %x = pdl.operand
      %t = pdl.type
      %op = pdl.operation "spyreop.exp" (%x : !pdl.value) -> (%t : !pdl.type)
      pdl.rewrite %op {
        %n = pdl.operation "spyreop.sqrt" (%x : !pdl.value) -> (%t : !pdl.type)
        pdl.replace %op with %n
      }
    }
  }
}
"""
    text = TINY[: TINY.rindex("}")] + patterns
    dev = load_device(write_device(text))
    assert [p.sym_name.data for p in device_patterns(dev, "post_scheduling")] == ["high", "low"]
    ctx = device_context()
    module = Parser(ctx, KERNEL).parse_module()
    assert apply_device_patterns(dev, module, "pre_scheduling", ctx) == {"high": 1}
    assert "spyreop.sqrt" in str(module) and "spyreop.sigmoid" not in str(module)


def test_patterns_block_holds_only_pdl_patterns(write_device):
    text = TINY[: TINY.rindex("}")] + '  ktdf_arch.patterns ["pre_mapping"] {\n    %m = ktdf_arch.memory @m {kind = "X", size = 1}\n  }\n}\n'
    with pytest.raises(DeviceError, match="holds pdl.pattern ops, found ktdf_arch.memory") as info:
        load_device(write_device(text))
    assert info.value.location.line == line_of(text, "%m = ktdf_arch.memory")
