"""Tiles that write one element with the same values are not a race: `check` warns that
the work is repeated and `compile` goes on; the same store with anything tile-dependent
in what it writes, or reading each core's own scratchpad, stays a write race."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from spyre_sched.api import compile as compile_kernel
from spyre_sched.cli import main
from spyre_sched.frontend import parse_kernel
from spyre_sched.polyhedral.checks import check_kernel

ROOT = Path(__file__).resolve().parents[2]
COPY = ROOT / "tests" / "crosscore" / "kernels" / "redundant_distributed_copy.mlir"

ROW_COPY = """
func.func @row_copy(%X: index, %Y: index) attributes {{grid = [2]}} {{
  %c0 = arith.constant 0 : index
  %t = ktdp.get_compute_tile_id : index
  %Xv = ktdp.construct_memory_view {source}, sizes: [2, 64], strides: [64, 1] {{
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      memory_space = {space}}} : memref<2x64xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [1, 64], strides: [64, 1] {{
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      memory_space = #ktdp.memory_space<global>}} : memref<1x64xf16>
  %Xt = ktdp.construct_access_tile %Xv[{row}, %c0] {{
      access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      access_tile_order = affine_map<(d0, d1) -> (d0, d1)>}} : memref<2x64xf16> -> !ktdp.access_tile<1x64xindex>
  %Yt = ktdp.construct_access_tile %Yv[%c0, %c0] {{
      access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      access_tile_order = affine_map<(d0, d1) -> (d0, d1)>}} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  ktdp.store %x, %Yt : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  return
}}
"""
GLOBAL = "#ktdp.memory_space<global>"


def _race_codes(source: str = "%X", space: str = GLOBAL, row: str = "%c0"):
    text = ROW_COPY.format(source=source, space=space, row=row)
    return sorted((d.code, d.severity)
                  for d in check_kernel(parse_kernel(text, "row_copy.mlir").func)
                  if "race" in d.code or d.code == "redundant-store")


def test_tiles_copying_one_row_to_one_place_repeat_work_but_do_not_race():
    assert _race_codes() == [("redundant-store", "warning")]


def test_each_tile_copying_its_own_row_to_one_place_races():
    assert _race_codes(row="%t") == [("write-race", "error")]


def test_reading_each_cores_own_scratchpad_at_one_address_races():
    # the same address names a different memory in each core: the values may differ
    own = "#ktdp.memory_space<ct_local>"
    assert _race_codes(source="%c0", space=own) == [("write-race", "error")]


def test_redundant_distributed_copy_is_checked_and_compiled():
    done = CliRunner().invoke(main, ["check", str(COPY)])
    assert done.exit_code == 0, done.output
    assert "warning: redundant store" in done.output and "error" not in done.output
    diags = check_kernel(parse_kernel(COPY.read_text(), str(COPY)).func)
    (redundant,) = [d for d in diags if d.code == "redundant-store"]
    assert {redundant.witness["tile"], redundant.witness["tile2"]} == {0, 1}
    assert compile_kernel(str(COPY), device="spyre").summary["programs"]
