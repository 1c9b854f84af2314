"""Out-of-scope KTIR is refused by the legality check with "not supported yet: ..." at the
op's FILE:LINE:COL (through the CLI: exit 1, no traceback), never a crash later."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from schedule_util import EXAMPLES, ROOT, schedule_text
from spyre_sched.cli import main
from spyre_sched.errors import SourceLocation, UnsupportedError

KERNELS = Path(__file__).parent / "kernels"
EMULATOR_KERNELS = ROOT / "tests" / "emulator" / "kernels"
SMALL = (KERNELS / "small_add.mlir").read_text()


def refused(text: str, device: str = "spyre") -> UnsupportedError:
    with pytest.raises(UnsupportedError) as err:
        schedule_text(text, device, "kernel.mlir")
    assert "not supported yet" in err.value.message
    return err.value


def line_of(text: str, needle: str) -> int:
    return next(k for k, line in enumerate(text.splitlines(), 1) if needle in line)


CONV = (Path(__file__).parent / "passes" / "01_legality_conv.mlir").read_text()
TRANSPOSED = SMALL.replace(
    "%a = ktdp.load %At : !ktdp.access_tile<2x96xindex> -> tensor<2x96xf16>",
    "%a = ktdp.load %At : !ktdp.access_tile<2x96xindex> -> tensor<2x96xf16>\n"
    "  %Tt = ktdp.construct_access_tile %Av[%row, %c0] {access_tile_set = #rows2, "
    "access_tile_order = affine_map<(d0, d1) -> (d1, d0)>}\n"
    "      : memref<4x96xf16> -> !ktdp.access_tile<96x2xindex>\n"
    "  %tr = ktdp.load %Tt : !ktdp.access_tile<96x2xindex> -> tensor<96x2xf16>")

DF16 = """func.func @ex(%A: index, %C: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %Av = ktdp.construct_memory_view %A, sizes: [64], strides: [1] {
      coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>,
      memory_space = #ktdp.memory_space<global>} : memref<64x!spyreop.df16>
  %At = ktdp.construct_access_tile %Av[%c0] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>,
      access_tile_order = affine_map<(d0) -> (d0)>} : memref<64x!spyreop.df16> -> !ktdp.access_tile<64xindex>
  %a = ktdp.load %At : !ktdp.access_tile<64xindex> -> tensor<64x!spyreop.df16>
  ktdp.store %a, %At : tensor<64x!spyreop.df16>, !ktdp.access_tile<64xindex>
  return
}
"""

EDITS = {
    "triangular tile": ("#rows2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 95 >= 0)>",
                        "#rows2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 95 >= 0, d1 - d0 >= 0)>",
                        "non-rectangular access tiles", "%At = ktdp.construct_access_tile"),
}


@pytest.mark.parametrize("case", sorted(EDITS))
def test_out_of_scope_edit_is_refused_at_the_op(case: str) -> None:
    old, new, message, op_text = EDITS[case]
    assert old in SMALL, case
    text = SMALL.replace(old, new, 1)
    err = refused(text)
    assert message in err.message
    assert isinstance(err.location, SourceLocation) and err.location.file == "kernel.mlir"
    if op_text is not None:
        assert err.location.line == line_of(text, op_text)


def test_df16_is_refused_at_the_view() -> None:
    err = refused(DF16)
    assert "not supported yet: df16" in err.message
    assert err.location.line == line_of(DF16, "%Av = ktdp.construct_memory_view")  # type: ignore[union-attr]


def test_conv_is_refused() -> None:
    text = CONV[CONV.index("builtin.module"):]
    err = refused(text)
    assert "not supported yet: linalg.conv_2d_nchw_fchw" in err.message
    assert err.location.line == line_of(text, "linalg.conv_2d_nchw_fchw")  # type: ignore[union-attr]


def test_transposed_tile_passes_to_the_normal_form() -> None:
    # the normal form reads it in row order and transposes it (identity-access-order)
    assert "(d1, d0)" not in schedule_text(TRANSPOSED, "spyre")


def _distributed_argument_offset_by_arithmetic() -> str:
    """distributed_argument.mlir with the parts of X and Y at `%X + 32` and `%Y + 32`:
    offsets computed from the pointers, which the compiler does not place (only a
    pointer viewed as it is)."""
    text = (EMULATOR_KERNELS / "distributed_argument.mlir").read_text()
    text = text.replace("%c32 = arith.constant 32 : index",
                        "%c32 = arith.constant 32 : index\n  %Xoff = arith.addi %X, %c32 : index"
                        "\n  %Yoff = arith.addi %Y, %c32 : index")
    return (text.replace("construct_memory_view %X, sizes", "construct_memory_view %Xoff, sizes")
            .replace("construct_memory_view %Y, sizes", "construct_memory_view %Yoff, sizes"))


def test_scratchpad_parts_at_an_offset_computed_from_a_pointer_are_refused() -> None:
    # the own-scratchpad parts at an offset that is not a constant are not one view
    err = refused(_distributed_argument_offset_by_arithmetic())
    assert "a distributed view whose tiles reach different parts that do not form one view" \
        in err.message
    assert isinstance(err.location, SourceLocation)


def test_reduction_over_a_partial_vector_schedules() -> None:
    """500 = 15 x 32 + 20 (32-lane f32 vectors): the reduction's last vector is sized by
    derive_size (the lowering keeps its padding lanes out of the sum:
    tests/lower/test_partial_vectors.py)."""
    text = (EXAMPLES / "row_sum.mlir").read_text()
    text = (text.replace("64x512", "64x500").replace("2x512", "2x500").replace("-d1 + 511", "-d1 + 499")
            .replace("sizes: [64, 512], strides: [512, 1]", "sizes: [64, 500], strides: [500, 1]"))
    out = schedule_text(text, "spyre")
    assert re.search(r"scf.for %\w+ = %\w+ to %c500 step %c32", out)
    assert re.search(r"ktdf.tiling.derive_size %\w+, %c32, %c500", out)


def test_cli_reports_the_location_and_exits_1(tmp_path) -> None:
    bad = tmp_path / "bad.mlir"
    body = CONV[CONV.index("  func.func"):CONV.rindex("}")]
    bad.write_text(body)
    result = CliRunner().invoke(main, ["compile", str(bad), "--emit", "ktdf"])
    assert result.exit_code == 1
    line = line_of(bad.read_text(), "linalg.conv_2d_nchw_fchw")
    assert re.search(rf"bad.mlir:{line}:\d+: error: not supported yet: linalg.conv_2d_nchw_fchw", result.output)
    assert "Traceback" not in result.output


ROWS = (EMULATOR_KERNELS / "runtime_rows.mlir").read_text()


def test_run_time_sizes_pass_but_run_time_strides_are_refused_at_the_view() -> None:
    schedule_text(ROWS, "spyre", "kernel.mlir")  # run-time sizes, static strides: scheduled
    strided = ROWS.replace("sizes: [%N, 64], strides: [64, 1] {\n      coordinate_set = #all, "
                           "memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>\n  %Yv",
                           "sizes: [%N, 64], strides: [%c64, 1] {\n      coordinate_set = #all, "
                           "memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>\n  %Yv", 1)
    assert strided != ROWS
    err = refused(strided)
    assert "run-time strides" in err.message
    assert err.location.line == line_of(strided, "%Xv = ktdp.construct_memory_view")  # type: ignore[union-attr]


def test_run_time_access_tile_shapes_are_refused_at_the_tile() -> None:
    text = ROWS.replace("#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0,",
                        "#block = affine_set<(d0, d1)[s0] : (d0 >= 0, s0 - 1 - d0 >= 0,")
    text = text.replace("[%i, %c0] {access_tile_set = #block", "[%i, %c0] symbols(%c64) {access_tile_set = #block")
    err = refused(text)
    assert "access tiles whose set has symbols" in err.message
    assert err.location.line == line_of(text, "%Xt = ktdp.construct_access_tile")  # type: ignore[union-attr]


def test_an_access_tile_sticking_out_of_its_view_is_masked_not_refused() -> None:
    # a static view one row short of the last tile, and a run-time row count whose
    # granularity (32) is finer than the 64-row tiles: both are masked accesses, so the
    # views are marked and their transfers clipped at run time (tests/compat/test_masked.py)
    short = (EXAMPLES / "add_96x64.mlir").read_text().replace("-d0 + 95 >= 0", "-d0 + 94 >= 0") \
        .replace("sizes: [96, 64]", "sizes: [95, 64]").replace("memref<96x64xf16>", "memref<95x64xf16>")
    marked = schedule_text(short, "spyre", "kernel.mlir", stop_after="mark-masked-views")
    assert marked.count("ktdf.masked = unit") == 3
    fine = ROWS.replace("granularity = 64", "granularity = 32")
    marked = schedule_text(fine, "spyre", "kernel.mlir", stop_after="mark-masked-views")
    assert "ktdf.masked = unit" in marked
    assert "ktdf.masked" not in schedule_text(ROWS, "spyre", "kernel.mlir",
                                              stop_after="mark-masked-views")


def test_a_scratchpad_view_with_a_run_time_size_is_refused() -> None:
    text = ROWS.replace("coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>\n  %Yv",
                        "coordinate_set = #all, memory_space = #ktdp.memory_space<ct_local>} : memref<?x64xf16>\n  %Yv")
    assert text != ROWS
    err = refused(text)
    assert "ct_local) views with run-time sizes" in err.message
    assert err.location.line == line_of(text, "%Xv = ktdp.construct_memory_view")  # type: ignore[union-attr]


def test_scratchpad_parts_at_an_argument_offset_say_why_they_are_refused() -> None:
    err = refused(_distributed_argument_offset_by_arithmetic())
    assert "do not form one view (parts 0, 1, 2, 3; its parts lie in cores' scratchpads " \
           "at an offset that is not a constant" in err.message
