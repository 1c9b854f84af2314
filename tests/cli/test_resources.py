"""Resource guards: `check --device` finds views larger than their memory and loaded
tiles larger than any memory (errors), and notes tiles larger than the scratchpad (the
compiler streams them); `reference` refuses up front, with the figures, a run
above its memory cap."""

from __future__ import annotations

from click.testing import CliRunner

from spyre_sched.cli import main, parse_size

HUGE = """\
#big = affine_set<(d0, d1) : (d0 >= 0, -d0 + 99999999999 >= 0, d1 >= 0, -d1 + 99999999999 >= 0)>
#one = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 >= 0)>
#rm = affine_map<(d0, d1) -> (d0, d1)>
func.func @huge(%A: index, %C: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %Av = ktdp.construct_memory_view %A, sizes: [100000000000, 100000000000], strides: [100000000000, 1] {
      coordinate_set = #big, memory_space = #ktdp.memory_space<global> } : memref<100000000000x100000000000xf16>
  %Cv = ktdp.construct_memory_view %C, sizes: [1, 1], strides: [1, 1] {
      coordinate_set = #one, memory_space = #ktdp.memory_space<global> } : memref<1x1xf16>
  %At = ktdp.construct_access_tile %Av[%c0, %c0] {access_tile_set = #one, access_tile_order = #rm}
      : memref<100000000000x100000000000xf16> -> !ktdp.access_tile<1x1xindex>
  %Ct = ktdp.construct_access_tile %Cv[%c0, %c0] {access_tile_set = #one, access_tile_order = #rm}
      : memref<1x1xf16> -> !ktdp.access_tile<1x1xindex>
  %x = ktdp.load %At : !ktdp.access_tile<1x1xindex> -> tensor<1x1xf16>
  ktdp.store %x, %Ct : tensor<1x1xf16>, !ktdp.access_tile<1x1xindex>
  return
}
"""

BIG_TILE = """\
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1023 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#rm = affine_map<(d0, d1) -> (d0, d1)>
func.func @big_tile(%A: index, %C: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %Av = ktdp.construct_memory_view %A, sizes: [1024, 1024], strides: [1024, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global> } : memref<1024x1024xf16>
  %Cv = ktdp.construct_memory_view %C, sizes: [1024, 1024], strides: [1024, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global> } : memref<1024x1024xf16>
  %At = ktdp.construct_access_tile %Av[%c0, %c0] {access_tile_set = #all, access_tile_order = #rm}
      : memref<1024x1024xf16> -> !ktdp.access_tile<1024x1024xindex>
  %Ct = ktdp.construct_access_tile %Cv[%c0, %c0] {access_tile_set = #all, access_tile_order = #rm}
      : memref<1024x1024xf16> -> !ktdp.access_tile<1024x1024xindex>
  %x = ktdp.load %At : !ktdp.access_tile<1024x1024xindex> -> tensor<1024x1024xf16>
  ktdp.store %x, %Ct : tensor<1024x1024xf16>, !ktdp.access_tile<1024x1024xindex>
  return
}
"""


def _write(tmp_path, text):
    path = tmp_path / "k.mlir"
    path.write_text(text)
    return str(path)


def test_check_reports_a_view_larger_than_device_memory(tmp_path):
    result = CliRunner().invoke(main, ["check", _write(tmp_path, HUGE)])
    assert result.exit_code == 1
    assert ("k.mlir:6:3: error: the view spans 20000000000000000000000 bytes, more than the "
            "137438953472 bytes of ddr (DDR)") in result.output


def test_check_notes_a_tile_larger_than_the_scratchpad_without_failing(tmp_path):
    # Not an error of the kernel: compiling cuts it into tiles that stream through the
    # scratchpad (a plain copy here, DMA transfers only), so check and compile agree.
    path = _write(tmp_path, BIG_TILE)
    for strict in ([], ["--strict"]):
        small = CliRunner().invoke(main, ["check", path, "--device", "sample_device", *strict])
        assert small.exit_code == 0, small.output
        assert ("k.mlir:13:3: note: the loaded tile holds 2097152 bytes, more than the "
                "1048576-byte scratchpad (core0.l1) it lands in on device sample_device: "
                "compiling cuts it into tiles that stream through the scratchpad") \
            in small.output
        assert "not checked: bounds" not in small.output
    # 2 MiB fits spyre's 2 MiB scratchpad exactly.
    fits = CliRunner().invoke(main, ["check", path, "--device", "spyre"])
    assert fits.exit_code == 0 and "note:" not in fits.output
    compiled = CliRunner().invoke(main, ["compile", path, "--device", "sample_device",
                                         "--emit", "solved"])
    assert compiled.exit_code == 0, compiled.output
    assert "p0.tile.l1.d0" in compiled.output


def test_reference_refuses_above_the_memory_cap_with_the_figures(tmp_path):
    # The huge tensor as an output: returned whole, so it cannot be windowed.
    huge_output = HUGE.replace("%x = ktdp.load %At", "%x = ktdp.load %Ct").replace(
        "ktdp.store %x, %Ct", "ktdp.store %x, %At")
    result = CliRunner().invoke(main, ["reference", _write(tmp_path, huge_output)])
    assert result.exit_code == 1 and "internal error" not in result.output
    assert "%A 20000000000000000000000 bytes" in result.output
    assert "more than the memory cap of 4294967296 bytes" in result.output
    path = _write(tmp_path, BIG_TILE)
    capped = CliRunner().invoke(main, ["reference", path, "--memory-cap", "1MiB"])
    assert capped.exit_code == 1
    assert "more than the memory cap of 1048576 bytes" in capped.output
    assert CliRunner().invoke(main, ["reference", path, "--memory-cap", "1GiB"]).exit_code == 0


def test_memory_cap_sizes():
    assert parse_size("4GiB", "x") == 4 * 2**30 and parse_size("512M", "x") == 512 * 10**6
    assert parse_size("2kib", "x") == 2048 and parse_size("1000", "x") == 1000
    result = CliRunner().invoke(main, ["reference", "examples/add_96x64.mlir",
                                       "--memory-cap", "lots"])
    assert result.exit_code == 1 and "--memory-cap: expected a positive size" in result.output


def test_a_huge_view_read_through_a_small_tile_runs(tmp_path):
    result = CliRunner().invoke(main, ["reference", _write(tmp_path, HUGE), "--memory-cap",
                                       "64MiB", "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("%C: 1x1 float16")


ROWS_10_11 = """\
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#two = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rm = affine_map<(d0, d1) -> (d0, d1)>
func.func @rows(%A: index, %C: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c10 = arith.constant 10 : index
  %Av = ktdp.construct_memory_view %A, sizes: [64, 64], strides: [64, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global> } : memref<64x64xf16>
  %Cv = ktdp.construct_memory_view %C, sizes: [2, 64], strides: [64, 1] {
      coordinate_set = #two, memory_space = #ktdp.memory_space<global> } : memref<2x64xf16>
  %At = ktdp.construct_access_tile %Av[%c10, %c0] {access_tile_set = #two, access_tile_order = #rm}
      : memref<64x64xf16> -> !ktdp.access_tile<2x64xindex>
  %Ct = ktdp.construct_access_tile %Cv[%c0, %c0] {access_tile_set = #two, access_tile_order = #rm}
      : memref<2x64xf16> -> !ktdp.access_tile<2x64xindex>
  %x = ktdp.load %At : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
  ktdp.store %x, %Ct : tensor<2x64xf16>, !ktdp.access_tile<2x64xindex>
  return
}
"""


def test_windowed_inputs_hold_the_values_the_whole_tensor_would(tmp_path):
    import numpy as np

    from emulator.reference import make_inputs, run
    from emulator.reference.run import WindowedInput

    path = _write(tmp_path, ROWS_10_11)
    whole = make_inputs(path, seed=5)
    # A cap below the whole input (64 x 64 float64 draws = 32 KiB): only rows 10-11.
    part = make_inputs(path, seed=5, memory_cap=16 * 1024)
    window = part["A"]
    assert isinstance(window, WindowedInput) and window.shape == (64, 64)
    assert window.lo == 640 and window.values.size == 128
    np.testing.assert_array_equal(window.values, whole["A"].reshape(-1)[640:768])
    out_whole = run(path, whole, scratchpad_bytes=1024)
    out_part = run(path, part, scratchpad_bytes=1024, memory_cap=16 * 1024)
    np.testing.assert_array_equal(out_part["C"], out_whole["C"])
    np.testing.assert_array_equal(out_whole["C"], whole["A"][10:12])


ROWS = 1 << 40

OVERSIZED_TILES = f"""\
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + {ROWS - 1} >= 0, d1 >= 0, -d1 + 63 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rm = affine_map<(d0, d1) -> (d0, d1)>
func.func @oversized(%A: index, %C: index) attributes {{grid = [2]}} {{
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %id = ktdp.get_compute_tile_id : index
  %row = arith.muli %id, %c3 : index
  %Av = ktdp.construct_memory_view %A, sizes: [96, 64], strides: [64, 1] {{
      coordinate_set = #all, memory_space = #ktdp.memory_space<global> }} : memref<96x64xf16>
  %Cv = ktdp.construct_memory_view %C, sizes: [96, 64], strides: [64, 1] {{
      coordinate_set = #all, memory_space = #ktdp.memory_space<global> }} : memref<96x64xf16>
  %At = ktdp.construct_access_tile %Av[%row, %c0] {{access_tile_set = #tile, access_tile_order = #rm}}
      : memref<96x64xf16> -> !ktdp.access_tile<{ROWS}x64xindex>
  %Ct = ktdp.construct_access_tile %Cv[%row, %c0] {{access_tile_set = #tile, access_tile_order = #rm}}
      : memref<96x64xf16> -> !ktdp.access_tile<{ROWS}x64xindex>
  %x = ktdp.load %At : !ktdp.access_tile<{ROWS}x64xindex> -> tensor<{ROWS}x64xf16>
  ktdp.store %x, %Ct : tensor<{ROWS}x64xf16>, !ktdp.access_tile<{ROWS}x64xindex>
  return
}}
"""


def test_check_refuses_a_tile_of_2_to_the_40_rows_before_allocating_it(tmp_path):
    # The two tiles' stores overlap: replaying that race would enumerate every position
    # of a 2^40-row tile. The size rule, from the types alone, comes first and the analyses
    # that replay are not run on a kernel that does not fit.
    result = CliRunner().invoke(main, ["check", _write(tmp_path, OVERSIZED_TILES)])
    assert result.exit_code == 1, result.output
    assert (f"k.mlir:17:3: error: the loaded tile holds {ROWS * 64 * 2} bytes, more than the "
            "137438953472 bytes of ddr, the largest memory of device spyre: no schedule can "
            "move it") in result.output
    assert "not checked: bounds, races and output coverage" in result.output
    assert "out of memory" not in result.output


STORED_ONLY = f"""\
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + {(1 << 30) - 1} >= 0, d1 >= 0, -d1 + 15 >= 0)>
#rm = affine_map<(d0, d1) -> (d0, d1)>
func.func @stored_only(%C: index) attributes {{grid = [2]}} {{
  %c0 = arith.constant 0 : index
  %t = ktdp.get_compute_tile_id : index
  %ti = arith.index_cast %t : index to i32
  %zero = arith.sitofp %ti : i32 to f16
  %Cv = ktdp.construct_memory_view %C, sizes: [{1 << 30}, 16], strides: [16, 1] {{
      coordinate_set = #tile, memory_space = #ktdp.memory_space<global> }} : memref<{1 << 30}x16xf16>
  %Ct = ktdp.construct_access_tile %Cv[%c0, %c0] {{access_tile_set = #tile, access_tile_order = #rm}}
      : memref<{1 << 30}x16xf16> -> !ktdp.access_tile<{1 << 30}x16xindex>
  %e = tensor.empty() : tensor<{1 << 30}x16xf16>
  %z = linalg.fill ins(%zero : f16) outs(%e : tensor<{1 << 30}x16xf16>) -> tensor<{1 << 30}x16xf16>
  ktdp.store %z, %Ct : tensor<{1 << 30}x16xf16>, !ktdp.access_tile<{1 << 30}x16xindex>
  return
}}
"""


def test_a_race_on_a_tile_too_large_to_replay_is_a_warning_not_an_allocation(tmp_path):
    # Both tiles store their tile id at the same 2^34 positions (no load: no scratchpad
    # rule applies). The replay that would confirm the race does not enumerate them.
    result = CliRunner().invoke(main, ["check", _write(tmp_path, STORED_ONLY)])
    assert result.exit_code == 0, result.output
    assert ("warning: write race: stores through %Ct: tiles 1 and 0 both write" in result.output
            or "warning: write race: stores through %Ct: tiles 0 and 1 both write" in result.output)
    assert "the access tile spans 17179869184 positions" in result.output
