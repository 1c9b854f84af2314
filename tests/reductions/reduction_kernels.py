"""KTIR text of the reduction kernels the chunking tests run, at any size.

`row_sum(rows, cols, grid)`: S[i] = sum_j X[i, j] (f16 data, f32 accumulator, one f16
rounding), each compute tile reducing `rows` whole rows of `cols` elements. The committed
`row_sum_2m.mlir` is `row_sum(1, 2097152, 2)`: a 4 MiB row per tile, twice spyre's
2 MiB scratchpad.
"""

from __future__ import annotations

import re


def row_sum(rows: int, cols: int, grid: int) -> str:
    total = rows * grid
    return f"""// S[i] = sum_j X[i, j] over a {total}x{cols} f16 tensor, accumulated in f32 and rounded
// to f16 once; {grid} compute tiles of {rows} row(s) each.
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + {rows - 1} >= 0, d1 >= 0, -d1 + {cols - 1} >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + {total - 1} >= 0, d1 >= 0, -d1 + {cols - 1} >= 0)>
#out = affine_set<(d0) : (d0 >= 0, -d0 + {total - 1} >= 0)>
#rows = affine_set<(d0) : (d0 >= 0, -d0 + {rows - 1} >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#rowmap = affine_map<(d0, d1) -> (d0)>

func.func @row_sum(%X: index, %S: index) attributes {{grid = [{grid}]}} {{
  %c0 = arith.constant 0 : index
  %cr = arith.constant {rows} : index
  %zero = arith.constant 0.0 : f32
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %cr : index
  %Xv = ktdp.construct_memory_view %X, sizes: [{total}, {cols}], strides: [{cols}, 1] {{
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>}} : memref<{total}x{cols}xf16>
  %Sv = ktdp.construct_memory_view %S, sizes: [{total}], strides: [1] {{
      coordinate_set = #out, memory_space = #ktdp.memory_space<global>}} : memref<{total}xf16>
  %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {{access_tile_set = #tile, access_tile_order = #id2}}
      : memref<{total}x{cols}xf16> -> !ktdp.access_tile<{rows}x{cols}xindex>
  %St = ktdp.construct_access_tile %Sv[%row] {{access_tile_set = #rows, access_tile_order = #id1}}
      : memref<{total}xf16> -> !ktdp.access_tile<{rows}xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<{rows}x{cols}xindex> -> tensor<{rows}x{cols}xf16>
  %acc0 = tensor.empty() : tensor<{rows}xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%acc0 : tensor<{rows}xf32>) -> tensor<{rows}xf32>
  %sum = linalg.generic {{indexing_maps = [#id2, #rowmap], iterator_types = ["parallel", "reduction"]}}
      ins(%x : tensor<{rows}x{cols}xf16>) outs(%acc : tensor<{rows}xf32>) {{
  ^bb0(%xe: f16, %a: f32):
    %w = arith.extf %xe : f16 to f32
    %s = arith.addf %w, %a : f32
    linalg.yield %s : f32
  }} -> tensor<{rows}xf32>
  %h0 = tensor.empty() : tensor<{rows}xf16>
  %h = linalg.generic {{indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}}
      ins(%sum : tensor<{rows}xf32>) outs(%h0 : tensor<{rows}xf16>) {{
  ^bb0(%se: f32, %o: f16):
    %n = arith.truncf %se : f32 to f16
    linalg.yield %n : f16
  }} -> tensor<{rows}xf16>
  ktdp.store %h, %St : tensor<{rows}xf16>, !ktdp.access_tile<{rows}xindex>
  return
}}
"""


def _resize(text: str, cols: int, old_cols: int, grid: int, old_grid: int = 32) -> str:
    """An example kernel with 2 rows per tile resized to `cols` columns and `grid` tiles."""
    rows, old_rows = 2 * grid, 2 * old_grid
    for old, new in ((f"{old_rows}x{old_cols}", f"{rows}x{cols}"),
                     (f"sizes: [{old_rows}, {old_cols}]", f"sizes: [{rows}, {cols}]"),
                     (f"strides: [{old_cols}, 1]", f"strides: [{cols}, 1]"),
                     (f"-d0 + {old_rows - 1} >= 0", f"-d0 + {rows - 1} >= 0"),
                     (f"-d1 + {old_cols - 1} >= 0", f"-d1 + {cols - 1} >= 0"),
                     (f"-d0 + {old_cols - 1} >= 0", f"-d0 + {cols - 1} >= 0"),
                     (f"sizes: [{old_cols}]", f"sizes: [{cols}]"),
                     (f"<{old_cols}x", f"<{cols}x"),
                     (f"2x{old_cols}", f"2x{cols}"),
                     (f"grid = [{old_grid}]", f"grid = [{grid}]")):
        text = text.replace(old, new)
    return text


def rmsnorm(cols: int, grid: int) -> str:
    """examples/rmsnorm.mlir with rows of `cols` (2 rows per tile, `grid` tiles)."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "examples" / "rmsnorm.mlir").read_text()
    text = text.replace("%inv_n = arith.constant 0.001953125 : f32",
                        f"%inv_n = arith.constant {1.0 / cols!r} : f32")
    return _resize(text, cols, 512, grid)


def col_sum(rows: int, grid: int) -> str:
    """tests/reductions/col_sum.mlir with `rows` rows per tile (instead of 8) and `grid`
    tiles: each tile sums its rows x 128 block down the columns."""
    from pathlib import Path

    text = (Path(__file__).resolve().parent / "col_sum.mlir").read_text()
    total = rows * grid
    for old, new in (("#rows8 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0",
                      f"#rows8 = affine_set<(d0, d1) : (d0 >= 0, -d0 + {rows - 1} >= 0"),
                     ("#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0",
                      f"#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + {total - 1} >= 0"),
                     ("256x128", f"{total}x128"), ("sizes: [256, 128]", f"sizes: [{total}, 128]"),
                     ("%c8 = arith.constant 8", f"%c8 = arith.constant {rows}"),
                     ("grid = [32]", f"grid = [{grid}]")):
        assert old in text, old
        text = text.replace(old, new)
    return re.sub(r"\b8x128", f"{rows}x128", text)
