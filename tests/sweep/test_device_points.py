"""A sweep's device points: figures of the device file named, changed and validated."""

from __future__ import annotations

import pytest

from spyre_sched.device import load_device
from spyre_sched.sweep.device_points import BaseDevice, ParameterError


@pytest.fixture(scope="module")
def base():
    return BaseDevice("spyre")


def _load(tmp_path, text):
    path = tmp_path / "point.mlir"
    path.write_text(text)
    return load_device(path)


def test_a_changed_device_loads_with_the_new_figures(base, tmp_path):
    device = _load(tmp_path, base.variant({"lx.size": 262144, "ddr.bandwidth": 75,
                                           "*->*.queue.depth": 4, "sfu.compute.latency": 9,
                                           "corelet.count": 1}))
    assert device.scratchpad_bytes == 262144
    assert device.device_memory().bandwidth == 75
    assert {d.queue_depth for d in device.datapaths} == {None, 4}
    assert {u.compute["latency"] for u in device.compute_units() if u.kind == "sfu"} == {9}
    assert len(device.corelets(0)) == 1
    original = load_device("spyre")
    assert original.scratchpad_bytes == 2097152  # the base file is untouched


def test_a_named_datapath_changes_alone(base, tmp_path):
    device = _load(tmp_path, base.variant({"lx_load->sfu.queue.depth": 2}))
    depths = {(d.source.rsplit(".", 1)[-1], d.target.rsplit(".", 1)[-1]): d.queue_depth
              for d in device.datapaths if d.queue_depth is not None}
    assert depths[("lx_load", "sfu")] == 2
    assert depths[("sfu", "lx_store")] == 16


@pytest.mark.parametrize("name, message", [
    ("lx.sise", "lx has no 'sise' (it has kind, size)"),
    ("cache.size", "no memory, unit, group, switch or datapath of the base device is named "
                   "'cache'"),
    ("sfu.compute", "sfu.compute is a feature, not a figure"),
    ("sfu.simd.lanes", "sfu.simd.lanes is not a number"),
    ("lx", "'lx' does not name a figure"),
    ("lx_load->sfu.size", "lx_load->sfu has no 'size'"),
    ("*->*.nope", "has no 'nope'"),
])
def test_a_name_that_is_no_figure_says_why(base, name, message):
    with pytest.raises(ParameterError, match=None) as err:
        base.check(name)
    assert message in str(err.value)
