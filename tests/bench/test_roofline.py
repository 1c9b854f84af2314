"""The roofline bound on small kernels, every figure computed by hand in the comments."""

from __future__ import annotations

from pathlib import Path

import pytest

from spyre_sched.device import load_device
from spyre_sched.device.load import DEVICES_DIR
from spyre_sched.frontend import load_kernel, parse_kernel
from spyre_sched.roofline import roofline

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
EMULATOR_KERNELS = ROOT / "tests" / "emulator" / "kernels"


@pytest.fixture(scope="module")
def spyre():
    return load_device("spyre")


def _variant(tmp_path: Path, **replace: str):
    """devices/spyre.mlir with some figures replaced (old text -> new text)."""
    text = (DEVICES_DIR / "spyre.mlir").read_text()
    for old, new in replace.values():
        assert old in text, old
        text = text.replace(old, new)
    path = tmp_path / "variant.mlir"
    path.write_text(text)
    return load_device(str(path))


def test_add_96x64_is_memory_bound(spyre):
    r = roofline(load_kernel(EXAMPLES / "add_96x64.mlir"), spyre)
    # A and B: 96*64*2 B each, read once; C: 96*64*2 B written once.
    assert (r.read_bytes, r.write_bytes) == (24576, 12288)
    # 36864 B over the shared 150 B/cycle port: ceil(245.76).
    assert r.memory_bandwidth == 150
    assert r.memory_port_cycles == 246
    # Per core: 3 rows of A and B = 768 B in over one 128 B/cycle DMA link.
    assert max(link.cycles for link in r.memory_links) == 6
    # 3x64 f16 per tile = 3 vectors of 64 lanes, over 2 vector units per core: ceil(1.5).
    assert r.vector_instructions == (3,) * 32
    assert r.vector_units_per_core == 2
    assert r.compute_cycles == 2
    assert r.ring_cycles == 0 and r.ring_bytes == 0
    assert r.bound_cycles == 246 and r.binding == "memory"
    assert r.terms == {"memory": 246, "compute": 2, "mac": 0, "ring": 0}


def test_broadcast_operand_counts_once(spyre):
    r = roofline(load_kernel(EXAMPLES / "bias_add.mlir"), spyre)
    # X 128x256 f16 = 65536 B, plus the 256-element bias once (512 B), though all 32 tiles
    # read it; Y 65536 B written.
    assert (r.read_bytes, r.write_bytes) == (66048, 65536)
    assert r.memory_cycles == 878  # ceil(131584 / 150)
    # ...but each core must bring its own copy in: 4x256x2 + 512 = 2560 B -> 20 cycles.
    reads = [link for link in r.memory_links if not link.egress]
    assert len(reads) == 32 and {link.bytes for link in reads} == {2560}
    assert {link.cycles for link in reads} == {20}


def test_scratchpad_pinned_data_is_not_device_memory_traffic(spyre):
    r = roofline(load_kernel(EXAMPLES / "softmax_rows.mlir"), spyre)
    # Only X (64x256 f16) in and Y out; E, M, S live in ct_local.
    assert (r.read_bytes, r.write_bytes) == (32768, 32768)
    assert r.memory_cycles == 437  # ceil(65536 / 150)
    # Per tile: reduce(2x256) 8 | generic(2x256) 8 + reduce 8 | generic(2x256) 8 = 32
    # vector instructions over 2 units (the fills are constants, not vector work).
    assert r.vector_instructions == (32,) * 32
    assert r.compute_cycles == 16


def test_compute_bound_on_a_device_with_narrow_vectors(tmp_path):
    device = _variant(
        tmp_path,
        lanes=("lanes = {f16 = 64, df16 = 64, f32 = 32}, splat",
               "lanes = {f16 = 4, df16 = 4, f32 = 2}, splat"),
        ddr=("bandwidth = 150, latency = 300", "bandwidth = 100000, latency = 300"),
    )
    r = roofline(load_kernel(EXAMPLES / "add_96x64.mlir"), device)
    # 192 elements per tile / 4 lanes = 48 vectors over 2 units = 24 cycles; memory is
    # ceil(36864 / 100000) = 1 on the port, 6 on a core's DMA link.
    assert r.compute_cycles == 24
    assert r.memory_cycles == 6
    assert r.bound_cycles == 24 and r.binding == "compute"


def test_widest_simd_width_of_the_ops_types_is_assumed(tmp_path):
    device = _variant(
        tmp_path,
        lanes=("lanes = {f16 = 64, df16 = 64, f32 = 32}, splat",
               "lanes = {f16 = 8, df16 = 8, f32 = 4}, splat"),
    )
    r = roofline(load_kernel(EXAMPLES / "rmsnorm.mlir"), device)
    # Per tile: the fill is no work; reduce f16->f32 over 2x512: 1024/8 = 128 (f16 is the
    # widest); rsqrt on 2xf32: 1; final generic 1024/8 = 128. Total 257 over 2 units.
    assert r.vector_instructions == (257,) * 32
    assert r.compute_cycles == 129


def test_device_memory_without_a_stated_bandwidth_uses_the_core_links():
    device = load_device("sample_device")
    r = roofline(load_kernel(EMULATOR_KERNELS / "layernorm_fused.mlir"),
                 device)
    # X 4x64 f32 = 1024 B in over ddr->dma_load (256 B/cycle): 4; Y and Z 2048 B out over
    # dma_store->ddr (128 B/cycle): 16. The memory has no port figure.
    assert r.memory_bandwidth is None and r.memory_port_cycles == 0
    assert sorted((link.source, link.target, link.cycles) for link in r.memory_links) == [
        ("core0", "ddr", 16), ("ddr", "core0", 4)]
    assert r.memory_cycles == 16


def test_cross_core_reads_and_writes_cross_the_ring(spyre):
    r = roofline(load_kernel(EMULATOR_KERNELS / "distributed_two_scratchpads.mlir"), spyre)
    # Both tiles store all 8x64 f16 rows of D: half of it (512 B) into the other core's
    # scratchpad. Both load D whole (the other half, 512 B, is remote) and rows 2..5 of it
    # (the remote rows are among those already counted). Core 0 -> core 1: 512 B stored by
    # tile 0 + 512 B loaded by tile 1 = 1024 B; the same the other way.
    links = {(link.source, link.target): link.bytes for link in r.ring_links}
    assert links == {("core0.lx", "ring.stop0"): 1024, ("core1.lx", "ring.stop1"): 1024,
                     ("ring.stop0", "core0.lx"): 1024, ("ring.stop1", "core1.lx"): 1024}
    assert r.ring_bytes == 2048
    assert r.ring_cycles == 8  # 1024 B / 128 B/cycle
    # X (8x64 f16) read, Y (8x64) and Yt (64x4) f16 written to global: 1024 + 1536 B.
    assert (r.read_bytes, r.write_bytes) == (1024, 1536)


def test_ring_bound_on_a_device_with_a_slow_ring(tmp_path):
    # 32 B/cycle: still faster than a detour through device memory for the router.
    device = _variant(tmp_path, ring=("bidirectional, bandwidth = 128, latency = 2",
                                      "bidirectional, bandwidth = 32, latency = 2"))
    r = roofline(load_kernel(EMULATOR_KERNELS / "distributed_two_scratchpads.mlir"), device)
    assert r.ring_cycles == 32  # 1024 B / 32 B/cycle
    assert r.binding == "ring" and r.bound_cycles == 32


def test_cross_core_traffic_follows_the_devices_route(tmp_path):
    # A ring so slow that the router sends scratchpad-to-scratchpad data through device
    # memory: the term counts the datapaths that route uses (the DMA links, 128 B/cycle).
    device = _variant(tmp_path, ring=("bidirectional, bandwidth = 128, latency = 2",
                                      "bidirectional, bandwidth = 2, latency = 2"))
    r = roofline(load_kernel(EMULATOR_KERNELS / "distributed_two_scratchpads.mlir"), device)
    links = {(link.source, link.target) for link in r.ring_links}
    assert ("core0.lx", "core0.dma_store") in links and ("core1.dma_load", "core1.lx") in links
    assert r.ring_cycles == 8


LOOP_KERNEL = """
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @loop_rows(%X: index, %Y: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %t = ktdp.get_compute_tile_id : index
  %base = arith.muli %t, %c4 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [8, 64], strides: [64, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [8, 64], strides: [64, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  scf.for %j = %c0 to %c4 step %c1 {
    %r = arith.addi %base, %j : index
    %Xt = ktdp.construct_access_tile %Xv[%r, %c0] {access_tile_set = #row, access_tile_order = #id2}
        : memref<8x64xf16> -> !ktdp.access_tile<1x64xindex>
    %Yt = ktdp.construct_access_tile %Yv[%r, %c0] {access_tile_set = #row, access_tile_order = #id2}
        : memref<8x64xf16> -> !ktdp.access_tile<1x64xindex>
    %x = ktdp.load %Xt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
    %e = tensor.empty() : tensor<1x64xf16>
    %y = linalg.add ins(%x, %x : tensor<1x64xf16>, tensor<1x64xf16>) outs(%e : tensor<1x64xf16>) -> tensor<1x64xf16>
    ktdp.store %y, %Yt : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  }
  return
}
"""


def test_work_inside_a_loop_counts_every_iteration(spyre):
    r = roofline(parse_kernel(LOOP_KERNEL, "loop.mlir"), spyre)
    # 4 iterations x one 64-lane vector per tile; X and Y are 8x64 f16 = 1024 B each.
    assert r.vector_instructions == (4, 4)
    assert r.compute_cycles == 2
    assert (r.read_bytes, r.write_bytes) == (1024, 1024)
    assert r.memory_cycles == 14  # ceil(2048 / 150)


CONDITIONAL_KERNEL = """
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @cond(%X: index, %Y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %t = ktdp.get_compute_tile_id : index
  %is0 = arith.cmpi eq, %t, %c0 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [16, 16], strides: [16, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [16, 16], strides: [16, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %Xt = ktdp.construct_access_tile %Xv[%c0, %c0] {access_tile_set = #all, access_tile_order = #id2}
      : memref<16x16xf16> -> !ktdp.access_tile<16x16xindex>
  %Yt = ktdp.construct_access_tile %Yv[%c0, %c0] {access_tile_set = #all, access_tile_order = #id2}
      : memref<16x16xf16> -> !ktdp.access_tile<16x16xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<16x16xindex> -> tensor<16x16xf16>
  %r = scf.if %is0 -> (tensor<16x16xf16>) {
    %e = tensor.empty() : tensor<16x16xf16>
    %y = linalg.add ins(%x, %x : tensor<16x16xf16>, tensor<16x16xf16>) outs(%e : tensor<16x16xf16>) -> tensor<16x16xf16>
    scf.yield %y : tensor<16x16xf16>
  } else {
    scf.yield %x : tensor<16x16xf16>
  }
  ktdp.store %r, %Yt : tensor<16x16xf16>, !ktdp.access_tile<16x16xindex>
  return
}
"""


def test_conditional_work_is_left_out_and_said(spyre):
    r = roofline(parse_kernel(CONDITIONAL_KERNEL, "cond.mlir"), spyre)
    assert r.vector_instructions == (0,)
    assert any("linalg.add" in n and "scf.if" in n and "cond.mlir" in n for n in r.notes)
    assert "note:" in str(r)


def test_grid_larger_than_the_device_is_a_clear_error():
    from spyre_sched.errors import DeviceError

    with pytest.raises(DeviceError, match="needs 32 cores"):
        roofline(load_kernel(EXAMPLES / "add_96x64.mlir"), load_device("sample_device"))


def test_report_names_every_term_and_is_deterministic(spyre):
    kernel = load_kernel(EXAMPLES / "bias_add.mlir")
    first, second = roofline(kernel, spyre), roofline(kernel, spyre)
    assert first == second
    text = str(first)
    assert "878 cycles (memory-bound)" in text
    for word in ("memory", "compute", "ring", "150 B/cycle"):
        assert word in text
    data = first.as_dict()
    assert data["bound_cycles"] == 878 and data["binding"] == "memory"


MASKED_KERNEL = """
#view = affine_set<(d0) : (d0 >= 0, -d0 + 99 >= 0)>
#block = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
func.func @masked(%X: index, %Y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [100], strides: [1] {
      coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<100xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [100], strides: [1] {
      coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<100xf16>
  %Xt = ktdp.construct_access_tile %Xv[%c0] {access_tile_set = #block, access_tile_order = #id1}
      : memref<100xf16> -> !ktdp.access_tile<128xindex>
  %Yt = ktdp.construct_access_tile %Yv[%c0] {access_tile_set = #block, access_tile_order = #id1}
      : memref<100xf16> -> !ktdp.access_tile<128xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<128xindex> -> tensor<128xf16>
  ktdp.store %x, %Yt : tensor<128xf16>, !ktdp.access_tile<128xindex>
  return
}
"""


def test_masked_positions_of_a_tile_past_its_view_are_no_traffic(spyre):
    # A Triton-style 128-wide block over a 100-element view: positions 100..127 are masked
    # (read as zero, never stored), so only 100 f16 move each way.
    r = roofline(parse_kernel(MASKED_KERNEL, "masked.mlir"), spyre)
    assert (r.read_bytes, r.write_bytes) == (200, 200)
    assert r.memory_cycles == 3  # ceil(400 / 150)


def test_as_written_traffic_counts_each_op_once(spyre):
    r = roofline(load_kernel(EXAMPLES / "softmax_rows.mlir"), spyre)
    # X (32768 B) is loaded by groups 1 and 2: twice as written, once in the bound.
    assert r.as_written_bytes == 2 * 32768 + 32768
    assert r.as_written_cycles == 656  # ceil(98304 / 150)
    assert r.bound_cycles == 437
    add = roofline(load_kernel(EXAMPLES / "add_96x64.mlir"), spyre)
    assert add.as_written_bytes == add.memory_bytes


def _ring(r):
    return {(link.source, link.target): link.bytes for link in r.ring_links}


def test_all_reduce_sends_and_receives_one_partial_per_core(spyre):
    r = roofline(load_kernel(EMULATOR_KERNELS / "allreduce.mlir"), spyre)
    # 4 tiles each produce a 1x64 f16 partial (128 B) and each needs the other three's
    # combination: at least 128 B out of and 128 B into every core's scratchpad.
    expected = {}
    for core in range(4):
        expected[(f"core{core}.lx", f"ring.stop{core}")] = 128
        expected[(f"ring.stop{core}", f"core{core}.lx")] = 128
    assert _ring(r) == expected
    assert r.ring_bytes == 512 and r.ring_cycles == 1


def test_broadcast_leaves_the_producer_once_and_enters_every_other_core(spyre):
    r = roofline(load_kernel(EMULATOR_KERNELS / "broadcast.mlir"), spyre)
    # Tile 2 produces, all four consume: tile 2 needs nothing from the ring.
    assert _ring(r) == {("core2.lx", "ring.stop2"): 128, ("ring.stop0", "core0.lx"): 128,
                        ("ring.stop1", "core1.lx"): 128, ("ring.stop3", "core3.lx"): 128}


EXCHANGE_IN_A_LOOP = """
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 1023 >= 0)>
#xs = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#both = affine_set<(i)[g] : (-i + 16 >= 0, i >= 0, (i mod 16) == 0, g == 0)>
#groups = affine_set<(g) : (g == 0)>
func.func @pair_sum(%X: index, %Y: index) attributes {grid = [32]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %t = ktdp.get_compute_tile_id : index
  %Xv = ktdp.construct_memory_view %X, sizes: [32, 1024], strides: [1024, 1] {
      coordinate_set = #xs, memory_space = #ktdp.memory_space<global>} : memref<32x1024xf16>
  %Xt = ktdp.construct_access_tile %Xv[%t, %c0] {access_tile_set = #row, access_tile_order = #id2}
      : memref<32x1024xf16> -> !ktdp.access_tile<1x1024xindex>
  %Yv = ktdp.construct_memory_view %Y, sizes: [32, 1024], strides: [1024, 1] {
      coordinate_set = #xs, memory_space = #ktdp.memory_space<global>} : memref<32x1024xf16>
  %Yt = ktdp.construct_access_tile %Yv[%t, %c0] {access_tile_set = #row, access_tile_order = #id2}
      : memref<32x1024xf16> -> !ktdp.access_tile<1x1024xindex>
  scf.for %k = %c0 to %c3 step %c1 {
    %x = ktdp.load %Xt : !ktdp.access_tile<1x1024xindex> -> tensor<1x1024xf16>
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #both
        -> <(tensor<1x1024xf16>), groups = #groups> {
    ^bb0(%g: index):
      ktdp.yield_partial %x : tensor<1x1024xf16>
    }
    %z0 = tensor.empty() : tensor<1x1024xf16>
    %zero = arith.constant 0.0 : f16
    %z = linalg.fill ins(%zero : f16) outs(%z0 : tensor<1x1024xf16>) -> tensor<1x1024xf16>
    %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #both, identity(%z : tensor<1x1024xf16>)
        : <(tensor<1x1024xf16>), groups = #groups> -> tensor<1x1024xf16> {
    ^bb0(%l: tensor<1x1024xf16>, %r: tensor<1x1024xf16>):
      %e = tensor.empty() : tensor<1x1024xf16>
      %a = linalg.add ins(%l, %r : tensor<1x1024xf16>, tensor<1x1024xf16>) outs(%e : tensor<1x1024xf16>) -> tensor<1x1024xf16>
      ktdp.yield_reduced %a : tensor<1x1024xf16>
    }
    ktdp.store %s, %Yt : tensor<1x1024xf16>, !ktdp.access_tile<1x1024xindex>
  }
  return
}
"""


def test_exchange_in_a_loop_counts_every_execution_over_the_devices_route(spyre):
    r = roofline(parse_kernel(EXCHANGE_IN_A_LOOP, "pair.mlir"), spyre)
    # Tiles 0 and 16 all-reduce a 1x1024 f16 partial (2048 B) three times: 6144 B each
    # way. Between cores 0 and 16 the fastest route goes through device memory (16 ring
    # hops are slower), so the bytes leave over the DMA store link and enter over the DMA
    # load link: 6144 B / 128 B/cycle = 48 cycles.
    assert _ring(r) == {("core0.lx", "core0.dma_store"): 6144,
                        ("core16.lx", "core16.dma_store"): 6144,
                        ("core0.dma_load", "core0.lx"): 6144,
                        ("core16.dma_load", "core16.lx"): 6144}
    assert r.ring_cycles == 48


def test_programs_run_one_after_another_so_their_bounds_add(spyre):
    r = roofline(load_kernel(EXAMPLES / "softmax_rows.mlir"), spyre)
    # Program 0 reads X (32768 B / 150 = 219) and takes the row maxima (2x256 f16 per tile
    # = 8 vectors over 2 units = 4); program 1 reads X again, which program 0 could have
    # kept on chip, so no device memory, and computes exp and the sums (16 vectors / 2 =
    # 8); program 2 writes Y (219) and divides (4).
    assert [p.as_dict() for p in r.programs] == [
        {"memory": 219, "compute": 4, "mac": 0, "ring": 0},
        {"memory": 0, "compute": 8, "mac": 0, "ring": 0},
        {"memory": 219, "compute": 4, "mac": 0, "ring": 0}]
    # Program 0 also stores its maxima in the tile's own scratchpad: no route latency.
    assert r.first_access_latency == 0
    assert r.program_bound_cycles == 219 + 8 + 219 > r.bound_cycles == 437
    assert "by program" in str(r) and r.as_dict()["program_bound_cycles"] == 446


def test_one_program_adds_its_first_access_latency(spyre):
    r = roofline(load_kernel(EXAMPLES / "add_96x64.mlir"), spyre)
    # One program, memory-bound: its last store lands the store route's latency (the DMA
    # link's 20 cycles) after device memory has served it.
    assert len(r.programs) == 1 and r.first_access_latency == 20
    assert r.program_bound_cycles == r.bound_cycles + 20 == 266
