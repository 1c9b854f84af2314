"""Every malformed device is reported as a DeviceError at file:line:col."""

from __future__ import annotations

import pytest

from spyre_sched.device import find_route, load_device
from spyre_sched.device.load import DEVICES_DIR
from spyre_sched.errors import DeviceError, SourceLocation

from ktdf_arch_testutil import TINY, line_of


def test_tiny_device_is_valid(write_device):
    dev = load_device(write_device(TINY))
    assert dev.name == "tiny" and dev.clock_hz == 500 * 10**6
    assert find_route(dev, "ddr", "core0.vu").units == ("core0.dma",)


# (case, text replaced, replacement, expected message, line marker, column or None)
CASES = [
    ("unknown unit in datapath",
     "datapath %l1 to %vu", "datapath %l1 to %vvu",
     "datapath target refers to unknown unit or memory %vvu", "%vvu", 31),
    ("memory without size",
     '@l1 {kind = "L1", size = 1024}', '@l1 {kind = "L1"}',
     "memory core0.l1 has no size", "@l1", 5),
    ("memory without kind",
     '@l1 {kind = "L1", size = 1024}', "@l1 {size = 1024}",
     "memory core0.l1 has no kind", "@l1", None),
    ("compute unit without SIMD lanes",
     ', #ktdf_arch.feature.simd<lanes = {f16 = 8}>', "",
     "compute unit core0.vu has no SIMD lanes", "@vu", 5),
    ("no route from device memory to compute",
     "    ktdf_arch.datapath %l1 to %vu {bandwidth = 64} : memory, exec_unit\n", "",
     "no route from device memory ddr to compute unit core0.vu", "@vu", None),
    ("mapping to a kind no memory has",
     'ct_local = "L1"', 'ct_local = "SRAM"',
     "sends 'ct_local' to memory kind 'SRAM', but no memory has that kind", "ktdf_arch.device", 1),
    ("syntax error",
     "size = 1024}", "size = }",
     "", "size = }", None),
    ("unknown key on memory",
     "size = 1024}", "sise = 1024}",
     "unknown key 'sise' on memory core0.l1", "sise", None),
    ("unknown key in a feature",
     "word_size = 64, access_granularity = 64", "word_size = 64, granule = 64",
     "unknown key 'granule' in ktdf_arch.feature.load", "granule", None),
    ("datapath type mismatch",
     "%dma to %l1 {bandwidth = 64} : exec_unit, memory", "%dma to %l1 {bandwidth = 64} : exec_unit, exec_unit",
     "declared 'exec_unit' but the value is a 'memory'", "%dma to %l1", None),
    ("datapath without bandwidth",
     "%dma to %l1 {bandwidth = 64}", "%dma to %l1 {latency = 3}",
     "datapath core0.dma to core0.l1 has no bandwidth", "%dma to %l1", 5),
    ("a figure beyond any device (the solver's products would leave 64 bits)",
     "%dma to %l1 {bandwidth = 64}", "%dma to %l1 {bandwidth = 4611686018427387904}",
     "bandwidth of datapath core0.dma to core0.l1 must be at most 2^40", "%dma to %l1", 5),
    ("datapath joining two memories",
     "%l1 to %vu {bandwidth = 64} : memory, exec_unit", "%l1 to %ddr {bandwidth = 64} : memory, memory",
     "joins two memories", "%l1 to %ddr", None),
    ("group uses an outer value without sharing it",
     "share(%ddr) {", "{",
     "group core0 uses %ddr from outside without sharing it", "%ddr to %dma", 5),
    ("a name defined twice",
     "%dma = ktdf_arch.exec_unit @dma", "%dma = ktdf_arch.exec_unit @vu",
     "name 'core0.vu' is defined twice", "%vu =", 5),
    ("no clock",
     "clock = #ktdf_arch.clock<500 MHz>, ", "",
     "the device needs a clock", "ktdf_arch.device", 1),
    ("bad clock unit",
     "#ktdf_arch.clock<500 MHz>", "#ktdf_arch.clock<500 Mhz>",
     "expected a clock unit", "Mhz", None),
    ("unknown checkpoint",
     "  } -> memory\n}", '  } -> memory\n  ktdf_arch.patterns ["pre_parsing"] {\n  }\n}',
     "unknown checkpoint 'pre_parsing'", "pre_parsing", 3),
    ("op not allowed in a device",
     "  } -> memory\n}", "  } -> memory\n  %k = arith.constant 1 : i32\n}",
     "arith.constant is not allowed in a device body", "arith.constant", 3),
    ("no core",
     '@core0 {kind = "core"}', '@core0 {kind = "cluster"}',
     'the device has no group of kind "core"', "ktdf_arch.device", 1),
    ("yield count differs from results",
     "ktdf_arch.yield %l1", "ktdf_arch.yield %l1, %dma",
     "group core0 yields 2 values but declares 1 results", "@core0", 3),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_validation_error(case, write_device):
    _, old, new, message, marker, col = case
    assert old in TINY
    text = TINY.replace(old, new, 1)
    path = write_device(text)
    with pytest.raises(DeviceError) as info:
        load_device(path)
    err = info.value
    assert message in err.message
    assert isinstance(err.location, SourceLocation)
    assert err.location.file == str(path.resolve()) or err.location.file == str(path)
    assert err.location.line == line_of(text, marker)
    if col is not None:
        assert err.location.col == col
    assert f"dev.mlir:{err.location.line}:{err.location.col}: error: " in str(err)


def test_syntax_error_column(write_device):
    text = TINY.replace("size = 1024}", "size = }", 1)
    with pytest.raises(DeviceError) as info:
        load_device(write_device(text))
    line = text.splitlines()[line_of(text, "size = }") - 1]
    assert info.value.location.col == line.index("}") + 1


def test_replicated_datapath_count_mismatch(write_device):
    text = TINY.replace(
        "  } -> memory\n}",
        "  } -> memory\n"
        '  %g2 = ktdf_arch.group @many {kind = "pool", count = 3} {\n'
        '    %m = ktdf_arch.memory @m {kind = "X", size = 8}\n'
        "    ktdf_arch.yield %m\n"
        "  } -> memory\n"
        '  %g3 = ktdf_arch.group @few {kind = "pool", count = 2} {\n'
        '    %u = ktdf_arch.exec_unit @u {kind = "mover"}\n'
        "    ktdf_arch.yield %u\n"
        "  } -> exec_unit\n"
        "  ktdf_arch.datapath %g2 to %g3 {bandwidth = 1} : memory, exec_unit\n"
        "}")
    with pytest.raises(DeviceError, match="connects 3 instances to 2") as info:
        load_device(write_device(text))
    assert info.value.location.line == line_of(text, "%g2 to %g3")


def test_bad_switch_topology(write_device):
    text = TINY.replace(
        "  } -> memory\n}",
        '  } -> memory\n  ktdf_arch.switch @net ports(%c, %ddr) {topology = "mesh", bandwidth = 8}\n}')
    with pytest.raises(DeviceError, match="unknown topology 'mesh'") as info:
        load_device(write_device(text))
    assert info.value.location.line == line_of(text, "switch @net")


def test_import_missing_file(write_device):
    text = 'ktdf_arch.device @x import("nowhere.mlir")\n'
    with pytest.raises(DeviceError, match="imported device file not found: nowhere.mlir") as info:
        load_device(write_device(text))
    assert info.value.location.line == 1


def test_import_cycle(write_device):
    write_device('ktdf_arch.device @a import("b.mlir")\n', "a.mlir")
    path = write_device('ktdf_arch.device @b import("a.mlir")\n', "b.mlir")
    with pytest.raises(DeviceError, match="device imports form a cycle"):
        load_device(path)


def test_two_devices_in_one_file(write_device):
    text = TINY + TINY.replace("@tiny", "@tiny2")
    with pytest.raises(DeviceError, match="exactly one ktdf_arch.device, found 2"):
        load_device(write_device(text))


def test_ir_verification_error_has_location(write_device):
    text = TINY.replace("  } -> memory\n}", "  } -> memory\n  ktdf_arch.yield %c\n}")
    with pytest.raises(DeviceError, match="expects parent op 'ktdf_arch.group'") as info:
        load_device(write_device(text))
    assert info.value.location.line == line_of(text, "ktdf_arch.yield %c")


def test_group_may_be_empty(write_device):
    text = TINY.replace("  } -> memory\n}", '  } -> memory\n  ktdf_arch.group @spare {kind = "pool"} {\n  }\n}')
    dev = load_device(write_device(text))
    assert dev.groups["spare"].units == () and dev.groups["spare"].kind == "pool"


@pytest.mark.parametrize(
    "old, new, message",
    [
        ("benefit(1)", "benefit(100000)", "Integer value 100000 is out of range for type i16"),
        ("pdl.result 0 of", "pdl.result 9223372036854775808 of",
         "Integer value 9223372036854775808 is out of range for type i32"),
    ],
)
def test_integer_too_large_for_its_type_is_located_at_the_op(write_device, old, new, message):
    text = (DEVICES_DIR / "sample_device.mlir").read_text().replace(old, new, 1)
    with pytest.raises(DeviceError) as info:
        load_device(write_device(text))
    assert info.value.message.startswith(message)
    # At the op that holds the integer: its first token (a result name, if it has one).
    line_text = text.splitlines()[line_of(text, new) - 1]
    assert (info.value.location.line, info.value.location.col) == (
        line_of(text, new), len(line_text) - len(line_text.lstrip()) + 1)


def test_unterminated_string_is_an_error_not_a_hang(write_device):
    # xDSL's string pattern backtracks exponentially on this line (hours, not seconds).
    text = (DEVICES_DIR / "sample_device.mlir").read_text().replace(
        '"spyreop.silu" (%x', 'spyreop.silu" (%x', 1)
    with pytest.raises(DeviceError, match="string literal is not closed on its line") as info:
        load_device(write_device(text))
    line = line_of(text, 'spyreop.silu" (%x')
    assert (info.value.location.line, info.value.location.col) == (
        line, text.splitlines()[line - 1].index('" (%x') + 1)


def test_a_bad_first_token_is_located(write_device):
    with pytest.raises(DeviceError, match="expected a name after '#'") as info:
        load_device(write_device("#\n"))
    assert (info.value.location.line, info.value.location.col) == (1, 1)


def test_feature_attributes_are_typed_and_verified_wherever_they_are_built():
    from xdsl.dialects.builtin import DictionaryAttr, IntegerAttr, StringAttr
    from xdsl.utils.exceptions import VerifyException

    from spyre_sched.dialects.ktdf_arch import LoadFeature, QueueFeature, SimdFeature

    sixty_four = IntegerAttr(64, 64)
    LoadFeature({"word_size": sixty_four, "access_granularity": sixty_four})  # fine
    with pytest.raises(VerifyException, match="unknown key 'word_sise'"):
        LoadFeature({"word_sise": sixty_four, "access_granularity": sixty_four})
    with pytest.raises(VerifyException, match="'word_size' must be an integer"):
        LoadFeature({"word_size": StringAttr("64"), "access_granularity": sixty_four})
    with pytest.raises(VerifyException, match="ktdf_arch.feature.queue needs depth"):
        QueueFeature({})
    with pytest.raises(VerifyException, match="every entry of 'lanes' must be an integer"):
        SimdFeature({"lanes": DictionaryAttr({"f16": StringAttr("many")})})


def test_a_mistyped_feature_value_is_located_in_the_file(write_device):
    text = TINY.replace("word_size = 64, access_granularity = 64",
                        'word_size = "64", access_granularity = 64', 1)
    with pytest.raises(DeviceError, match="'word_size' must be an integer") as info:
        load_device(write_device(text))
    assert info.value.location.line == line_of(text, 'word_size = "64"')


def test_a_pattern_whose_rewrite_has_no_root_is_located(write_device):
    # xDSL's pattern applier asserts on a rootless pdl.rewrite: refused when the file loads.
    text = (DEVICES_DIR / "sample_device.mlir").read_text()
    old = next(line for line in text.splitlines() if "pdl.rewrite %" in line)
    bad = text.replace(old, old[:old.index("pdl.rewrite")] + "pdl.rewrite {", 1)
    with pytest.raises(DeviceError, match="one pdl.rewrite of its root op") as info:
        load_device(write_device(bad))
    assert info.value.location.line == line_of(bad, "pdl.rewrite {")


@pytest.mark.parametrize("count, needle", [
    (2147483648, "group core has count 2147483648"),  # refused before any core is made
    (200000, "group core: 200000 instances of"),  # refused after making the first core
])
def test_a_device_too_large_to_model_is_refused_up_front(tmp_path, count, needle):
    text = (DEVICES_DIR / "spyre.mlir").read_text()
    assert 'count = 32}' in text
    path = tmp_path / "huge.mlir"
    path.write_text(text.replace('count = 32}', f'count = {count}}}', 1))
    with pytest.raises(DeviceError, match="the most spyre-sched models") as err:
        load_device(path)
    assert needle in str(err.value)
    assert err.value.location.line == line_of(path.read_text(), f"count = {count}")
