"""The shipped devices load, round-trip, and answer the lookups the scheduler needs."""

from __future__ import annotations

import pytest
from xdsl.parser import Parser

from spyre_sched.device import DEFAULT_DEVICE, find_route, load_device
from spyre_sched.device.load import DEVICES_DIR
from spyre_sched.device.device_parser import device_context
from spyre_sched.errors import DeviceError


@pytest.mark.parametrize("name", ["spyre", "sample_device"])
def test_shipped_device_prints_and_parses_back(name):
    ctx = device_context()
    text = (DEVICES_DIR / f"{name}.mlir").read_text()
    printed = str(Parser(ctx, text).parse_module())
    again = Parser(ctx, printed).parse_module()
    again.verify()
    assert str(again) == printed


def test_default_device_is_spyre():
    assert DEFAULT_DEVICE == "spyre"
    assert load_device().name == "spyre"


def test_sample_device_figures():
    dev = load_device("sample_device")
    assert dev.num_cores == 1
    assert [c.name for c in dev.corelets(0)] == ["core0.corelet0", "core0.corelet1"]
    assert dev.scratchpad_bytes == 1 << 20
    assert dev.device_memory().size == 1 << 30
    assert dev.simd_lanes("f16") == 64
    assert dev.simd_lanes("f32") == 32
    sfu = dev.units["core0.corelet1.sfu"]
    assert sfu.register_file == 2048
    assert sfu.stages == ("compute",)
    assert dev.fifo_depth("core0.corelet0.l1_load", "core0.corelet0.sfu") == 16
    assert dev.fifo_depth("core0.corelet0.sfu", "core0.corelet0.l1_store") == 16
    assert dev.fifo_depth("ddr", "core0.dma_load") is None
    assert dev.datapath("ddr", "core0.dma_load").bandwidth == 256
    assert dev.datapath("core0.dma_store", "ddr").bandwidth == 128
    assert dev.datapath("ddr", "core0.dma_load").transfer_granularity == 64
    assert dev.units["core0.dma_load"].load == {"word_size": 64, "access_granularity": 64}
    assert dev.clock_hz == 10**9
    assert dev.memory_kind_for("global") == "DDR"
    assert dev.memory_kind_for("ct_local") == "L1"


def test_sample_device_stage_units():
    dev = load_device("sample_device")
    loads = [u.name for u in dev.units_for_stage("load", "core0.corelet0")]
    assert loads == ["core0.corelet0.l1_load"]
    assert [u.name for u in dev.units_for_stage("load")] == [
        "core0.corelet0.l1_load", "core0.corelet1.l1_load", "core0.dma_load"]
    assert [u.name for u in dev.units_for_stage("store", dev.core(0))][-1] == "core0.dma_store"
    assert dev.instances("sfu") == 2
    assert dev.instances_per_core("dma") == 2
    with pytest.raises(DeviceError, match="unknown stage 'fetch'"):
        dev.units_for_stage("fetch")


def test_spyre_figures():
    dev = load_device("spyre")
    assert dev.num_cores == 32
    assert dev.core(31).name == "core31"
    assert [c.name for c in dev.corelets(3)] == ["core3.corelet0", "core3.corelet1"]
    assert dev.scratchpad(5).name == "core5.lx"
    assert dev.scratchpad_bytes == 2 * (1 << 20)
    assert dev.simd_lanes("f16") == 64          # one 128-byte stick
    assert dev.simd_lanes("df16") == 64
    assert dev.simd_lanes("f32") == 32
    assert dev.instances_per_core("sfu") == 2
    assert dev.instances("systolic") == 64
    pt = dev.units["core0.corelet0.pt"]
    assert pt.compute_class == "matrix" and pt.compute["rows"] == 8 and pt.compute["cols"] == 8
    assert dev.device_memory().bandwidth == 150
    assert dev.units["core7.dma_load"].load["access_granularity"] == 128
    assert dev.datapath("ring.stop3", "ring.stop4").bandwidth == 128
    assert dev.datapath("ring.stop4", "ring.stop3").bandwidth == 128   # both directions
    assert dev.seconds(10**9) == pytest.approx(1.0)


def test_check_grid():
    dev = load_device("spyre")
    dev.check_grid(32)
    with pytest.raises(DeviceError, match="grid needs 33 cores but device spyre has 32"):
        dev.check_grid(33)
    with pytest.raises(DeviceError, match="needs 2 cores but device sample_device has 1"):
        load_device("sample_device").check_grid(2)


def test_memory_kind_for_unknown_space():
    with pytest.raises(DeviceError, match="does not map memory space 'shared'") as info:
        load_device("spyre").memory_kind_for("shared")
    assert "spyre.mlir:" in str(info.value)


def test_missing_lanes_for_type():
    with pytest.raises(DeviceError, match="no SIMD lanes for bf16"):
        load_device("spyre").simd_lanes("bf16")


def test_unknown_device_name_lists_shipped():
    with pytest.raises(DeviceError, match="unknown device 'nope'.*sample_device.*spyre"):
        load_device("nope")


def test_missing_device_path():
    with pytest.raises(DeviceError, match="device file not found"):
        load_device("/nonexistent/dev.mlir")


def test_dialect_docstring_example_loads(write_device):
    import spyre_sched.dialects.ktdf_arch as ktdf_arch

    doc = ktdf_arch.__doc__
    start = doc.index("    #L1 = ")
    end = doc.index("Instances are named")
    example = "\n".join(line[4:] for line in doc[start:end].splitlines())
    dev = load_device(write_device(example))
    assert dev.num_cores == 2 and len(dev.corelets(1)) == 2
    assert find_route(dev, "core0.l1", "core1.corelet0.sfu").nodes == (
        "core0.l1", "ring.stop0", "ring.stop1", "core1.l1", "core1.corelet0.l1_load",
        "core1.corelet0.sfu")


def test_replicated_groups_copy_one_elaborated_template(write_device):
    from pathlib import Path

    text = (Path(__file__).parents[2] / "devices" / "spyre.mlir").read_text()
    dev = load_device(write_device(text.replace("count = 32} share(%ddr)",
                                                "count = 1000} share(%ddr)")))
    assert dev.num_cores == 1000 and len(dev.units) == 1000 * 11
    assert dev.groups["core999.corelet1"].parent == "core999"
    assert dev.groups["core999"].children == ("core999.corelet0", "core999.corelet1")
    # Replicas are copies of the first instance's elaboration, renamed: they share its
    # parsed figures rather than reading the attributes again.
    first, last = dev.units["core0.corelet0.sfu"], dev.units["core999.corelet1.sfu"]
    assert last.compute is first.compute and last.simd_lanes is first.simd_lanes
    assert (last.group, last.lanes("f16")) == ("core999.corelet1", 64)
    assert find_route(dev, "ddr", "core999.corelet1.sfu").units == (
        "core999.dma_load", "core999.corelet1.lx_load")
    assert dev.datapath("core999.lx", "ring.stop999").bandwidth == 128
    # The same model as elaborating every instance (32 cores: the shipped file).
    shipped = load_device("spyre")
    assert [dp for dp in dev.datapaths if dp.source in ("core31.lx", "core31.dma_load")] == [
        dp for dp in shipped.datapaths if dp.source in ("core31.lx", "core31.dma_load")]


def test_datapath_properties_by_a_leading_alias_mean_the_trailing_dict(write_device):
    """`datapath #ALIAS %a to %b : T, T` (the published scheduler's spelling) is the same
    edge as `datapath %a to %b {...} : T, T`."""
    from ktdf_arch_testutil import TINY

    aliased = ("#DDR_DMA = {bandwidth = 64}\n#TO_VU = {bandwidth = 64}\n" + TINY
               .replace("datapath %ddr to %dma {bandwidth = 64}", "datapath #DDR_DMA %ddr to %dma")
               .replace("datapath %l1 to %vu {bandwidth = 64}", "datapath #TO_VU %l1 to %vu"))
    assert aliased.count("datapath #") == 2
    spelled = load_device(write_device(TINY, "spelled.mlir"))
    assert load_device(write_device(aliased, "aliased.mlir")).datapaths == spelled.datapaths


def test_datapath_property_given_twice_is_located(write_device):
    from ktdf_arch_testutil import TINY, line_of

    text = "#DDR_DMA = {bandwidth = 64}\n" + TINY.replace(
        "datapath %ddr to %dma {bandwidth = 64}", "datapath #DDR_DMA %ddr to %dma {bandwidth = 32}")
    path = write_device(text)
    with pytest.raises(DeviceError, match="bandwidth is given twice") as info:
        load_device(path)
    assert f"{path}:{line_of(text, 'datapath #DDR_DMA')}:" in str(info.value)
