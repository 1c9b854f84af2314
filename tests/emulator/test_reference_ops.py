"""Upstream ops on the reference interpreter (scf, affine, tensor, linalg, arith, math) and
multi-dimensional grids, each checked against numpy."""

from __future__ import annotations

import numpy as np
import pytest

from emulator.reference import linalg, run

BOX = "affine_set<(d0, d1) : (d0 >= 0, -d0 + {r} >= 0, d1 >= 0, -d1 + {c} >= 0)>"
ID2 = "affine_map<(d0, d1) -> (d0, d1)>"


def view(name: str, arg: str, rows: int, cols: int, elt: str = "f16") -> str:
    return (
        f"%{name} = ktdp.construct_memory_view %{arg}, sizes: [{rows}, {cols}], strides: [{cols}, 1] "
        f"{{coordinate_set = {BOX.format(r=rows - 1, c=cols - 1)}, "
        f"memory_space = #ktdp.memory_space<global>}} : memref<{rows}x{cols}x{elt}>"
    )


def tile(name: str, v: str, i: str, j: str, rows: int, cols: int, vr: int, vc: int, elt="f16") -> str:
    return (
        f"%{name} = ktdp.construct_access_tile %{v}[{i}, {j}] {{access_tile_set = "
        f"{BOX.format(r=rows - 1, c=cols - 1)}, access_tile_order = {ID2}}} : "
        f"memref<{vr}x{vc}x{elt}> -> !ktdp.access_tile<{rows}x{cols}xindex>"
    )


def f16(x):
    return np.asarray(x, dtype=np.float64).astype(np.float32).astype(np.float16)


def rand(shape, seed=0, dtype=np.float16):
    return np.random.default_rng(seed).uniform(-2, 2, shape).astype(dtype)


@pytest.mark.parametrize("slab", [1 << 20, 100, 7, 1])
def test_matmul_rounds_products_then_sums_exactly(monkeypatch, slab):
    # Small slabs force the reduction to run a few rows of the domain at a time.
    monkeypatch.setattr(linalg, "SLAB_ELEMENTS", slab)
    k = f"""
func.func @mm(%A: index, %B: index, %C: index) attributes {{grid = [1]}} {{
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f16
  {view("Av", "A", 16, 32)}
  {view("Bv", "B", 32, 8)}
  {view("Cv", "C", 16, 8)}
  {tile("At", "Av", "%c0", "%c0", 16, 32, 16, 32)}
  {tile("Bt", "Bv", "%c0", "%c0", 32, 8, 32, 8)}
  {tile("Ct", "Cv", "%c0", "%c0", 16, 8, 16, 8)}
  %a = ktdp.load %At : !ktdp.access_tile<16x32xindex> -> tensor<16x32xf16>
  %b = ktdp.load %Bt : !ktdp.access_tile<32x8xindex> -> tensor<32x8xf16>
  %e = tensor.empty() : tensor<16x8xf16>
  %z = linalg.fill ins(%zero : f16) outs(%e : tensor<16x8xf16>) -> tensor<16x8xf16>
  %c = linalg.matmul ins(%a, %b : tensor<16x32xf16>, tensor<32x8xf16>) outs(%z : tensor<16x8xf16>) -> tensor<16x8xf16>
  ktdp.store %c, %Ct : tensor<16x8xf16>, !ktdp.access_tile<16x8xindex>
  return
}}
"""
    a, b = rand((16, 32), 1), rand((32, 8), 2)
    out = run(k, {"A": a, "B": b})
    products = f16(a.astype(np.float64)[:, :, None] * b.astype(np.float64)[None, :, :])
    np.testing.assert_array_equal(out["C"], f16(products.astype(np.float64).sum(axis=1)))


LOOPS = f"""
func.func @loops(%X: index, %Y: index, %S: index, %V: index) attributes {{grid = [1]}} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %zero = arith.constant 0.0 : f16
  {view("Xv", "X", 16, 64)}
  {view("Yv", "Y", 16, 16)}
  {view("Sv", "S", 16, 16)}
  {view("Vv", "V", 1, 1)}
  {tile("Yt", "Yv", "%c0", "%c0", 16, 16, 16, 16)}
  {tile("St", "Sv", "%c0", "%c0", 16, 16, 16, 16)}
  {tile("Vt", "Vv", "%c0", "%c0", 1, 1, 1, 1)}
  %e = tensor.empty() : tensor<16x16xf16>
  %init = linalg.fill ins(%zero : f16) outs(%e : tensor<16x16xf16>) -> tensor<16x16xf16>
  %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%a = %init) -> (tensor<16x16xf16>) {{
    %col = affine.apply affine_map<(d0) -> (d0 * 16)>(%k)
    {tile("Xt", "Xv", "%c0", "%col", 16, 16, 16, 64)}
    %x = ktdp.load %Xt : !ktdp.access_tile<16x16xindex> -> tensor<16x16xf16>
    %s = linalg.add ins(%a, %x : tensor<16x16xf16>, tensor<16x16xf16>) outs(%e : tensor<16x16xf16>) -> tensor<16x16xf16>
    scf.yield %s : tensor<16x16xf16>
  }}
  %t = ktdp.get_compute_tile_id : index
  %is0 = arith.cmpi eq, %t, %c0 : index
  %r = scf.if %is0 -> (tensor<16x16xf16>) {{
    %tr = linalg.transpose ins(%acc : tensor<16x16xf16>) outs(%e : tensor<16x16xf16>) permutation = [1, 0]
    scf.yield %tr : tensor<16x16xf16>
  }} else {{
    scf.yield %acc : tensor<16x16xf16>
  }}
  ktdp.store %r, %Yt : tensor<16x16xf16>, !ktdp.access_tile<16x16xindex>
  %sl = tensor.extract_slice %acc[0, %c1] [4, 4] [1, 2] : tensor<16x16xf16> to tensor<4x4xf16>
  %ins = tensor.insert_slice %sl into %init[8, 8] [4, 4] [1, 1] : tensor<4x4xf16> into tensor<16x16xf16>
  %flat = tensor.collapse_shape %ins [[0, 1]] : tensor<16x16xf16> into tensor<256xf16>
  %back = tensor.expand_shape %flat [[0, 1]] output_shape [16, 16] : tensor<256xf16> into tensor<16x16xf16>
  ktdp.store %back, %St : tensor<16x16xf16>, !ktdp.access_tile<16x16xindex>
  %v = tensor.extract %acc[%c4, %c5] : tensor<16x16xf16>
  %ve = tensor.empty() : tensor<1x1xf16>
  %vt = linalg.fill ins(%v : f16) outs(%ve : tensor<1x1xf16>) -> tensor<1x1xf16>
  ktdp.store %vt, %Vt : tensor<1x1xf16>, !ktdp.access_tile<1x1xindex>
  return
}}
"""


def test_loops_branches_and_tensor_slicing():
    x = rand((16, 64), 3)
    out = run(LOOPS, {"X": x})
    acc = np.zeros((16, 16), np.float16)
    for k in range(4):
        acc = f16(acc.astype(np.float64) + x[:, 16 * k : 16 * k + 16])
    np.testing.assert_array_equal(out["Y"], acc.T)
    s = np.zeros((16, 16), np.float16)
    s[8:12, 8:12] = acc[0:4, 1:9:2]
    np.testing.assert_array_equal(out["S"], s)
    np.testing.assert_array_equal(out["V"], acc[4:5, 5:6])


REDUCE = f"""
func.func @colmax(%X: index, %Y: index) attributes {{grid = [1]}} {{
  %c0 = arith.constant 0 : index
  %ninf = arith.constant -65504.0 : f16
  {view("Xv", "X", 16, 64)}
  {view("Yv", "Y", 16, 64)}
  {tile("Xt", "Xv", "%c0", "%c0", 16, 64, 16, 64)}
  {tile("Yt", "Yv", "%c0", "%c0", 16, 64, 16, 64)}
  %x = ktdp.load %Xt : !ktdp.access_tile<16x64xindex> -> tensor<16x64xf16>
  %e = tensor.empty() : tensor<64xf16>
  %i = linalg.fill ins(%ninf : f16) outs(%e : tensor<64xf16>) -> tensor<64xf16>
  %m = linalg.reduce ins(%x : tensor<16x64xf16>) outs(%i : tensor<64xf16>) dimensions = [0]
    (%in: f16, %acc: f16) {{
      %mx = arith.maximumf %in, %acc : f16
      linalg.yield %mx : f16
    }}
  %e2 = tensor.empty() : tensor<16x64xf16>
  %b = linalg.broadcast ins(%m : tensor<64xf16>) outs(%e2 : tensor<16x64xf16>) dimensions = [0]
  %d = linalg.sub ins(%x, %b : tensor<16x64xf16>, tensor<16x64xf16>) outs(%e2 : tensor<16x64xf16>) -> tensor<16x64xf16>
  ktdp.store %d, %Yt : tensor<16x64xf16>, !ktdp.access_tile<16x64xindex>
  return
}}
"""


def test_reduce_broadcast_and_sub():
    x = rand((16, 64), 4)
    out = run(REDUCE, {"X": x})
    np.testing.assert_array_equal(out["Y"], f16(x.astype(np.float64) - x.max(axis=0)))


ELEMENTWISE = f"""
func.func @ew(%X: index, %Y: index) attributes {{grid = [1]}} {{
  %c0 = arith.constant 0 : index
  %zf = arith.constant 0.0 : f32
  {view("Xv", "X", 8, 64)}
  {view("Yv", "Y", 8, 64, "f32")}
  {tile("Xt", "Xv", "%c0", "%c0", 8, 64, 8, 64)}
  {tile("Yt", "Yv", "%c0", "%c0", 8, 64, 8, 64, "f32")}
  %x = ktdp.load %Xt : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf16>
  %e = tensor.empty() : tensor<8x64xf32>
  %y = linalg.generic {{indexing_maps = [{ID2}, {ID2}], iterator_types = ["parallel", "parallel"]}}
      ins(%x : tensor<8x64xf16>) outs(%e : tensor<8x64xf32>) {{
  ^bb0(%v: f16, %o: f32):
    %w = arith.extf %v : f16 to f32
    %pos = arith.cmpf ogt, %w, %zf : f32
    %ex = math.exp %w : f32
    %sq = arith.mulf %w, %w : f32
    %s = arith.select %pos, %ex, %sq : f32
    %i = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %r = arith.addf %s, %fi : f32
    linalg.yield %r : f32
  }} -> tensor<8x64xf32>
  ktdp.store %y, %Yt : tensor<8x64xf32>, !ktdp.access_tile<8x64xindex>
  return
}}
"""


def test_generic_with_casts_compare_select_math_and_index():
    x = rand((8, 64), 5)
    out = run(ELEMENTWISE, {"X": x})
    w = x.astype(np.float64)
    expected = np.where(w > 0, np.exp(w), w * w) + np.arange(64)[None, :]
    assert out["Y"].dtype == np.float32
    np.testing.assert_allclose(out["Y"], expected, rtol=1e-6)


@pytest.mark.parametrize("grid", [[2, 2], [4, 1, 2]])
def test_multi_dim_grid_tile_ids(grid):
    n = int(np.prod(grid))
    names = ", ".join(f"%g{i}" for i in range(len(grid)))
    index_types = ", ".join("index" for _ in grid)
    # value = linear id * 100 + sum(coordinate_k * 10**k)
    terms = "\n".join(
        f"  %p{i} = arith.muli %g{i}, %k{i} : index\n"
        f"  %q{i} = arith.addi {'%qm' if i == 0 else f'%q{i - 1}'}, %p{i} : index"
        for i in range(len(grid))
    )
    consts = "\n".join(f"  %k{i} = arith.constant {10 ** i} : index" for i in range(len(grid)))
    k = f"""
func.func @ids(%Y: index) attributes {{grid = {grid}}} {{
  %c0 = arith.constant 0 : index
  %c100 = arith.constant 100 : index
{consts}
  %lin = ktdp.get_compute_tile_id : index
  {names} = ktdp.get_compute_tile_id : {index_types}
  %qm = arith.muli %lin, %c100 : index
{terms}
  %vi = arith.index_cast %q{len(grid) - 1} : index to i32
  %vf = arith.sitofp %vi : i32 to f32
  {view("Yv", "Y", n, 4, "f32")}
  {tile("Yt", "Yv", "%lin", "%c0", 1, 4, n, 4, "f32")}
  %e = tensor.empty() : tensor<1x4xf32>
  %row = linalg.fill ins(%vf : f32) outs(%e : tensor<1x4xf32>) -> tensor<1x4xf32>
  ktdp.store %row, %Yt : tensor<1x4xf32>, !ktdp.access_tile<1x4xindex>
  return
}}
"""
    out = run(k, {})
    expected = []
    for lin in range(n):
        coords, rest = [], lin
        for g in grid:
            coords.append(rest % g)
            rest //= g
        expected.append(lin * 100 + sum(c * 10**i for i, c in enumerate(coords)))
    np.testing.assert_array_equal(out["Y"][:, 0], np.array(expected, dtype=np.float32))


DF16 = f"""
func.func @df(%X: index, %Y: index) attributes {{grid = [2]}} {{
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %t = ktdp.get_compute_tile_id : index
  %r = arith.muli %t, %c4 : index
  {view("Xv", "X", 8, 64, "!spyreop.df16")}
  {view("Yv", "Y", 8, 64, "!spyreop.df16")}
  {tile("Xt", "Xv", "%r", "%c0", 4, 64, 8, 64, "!spyreop.df16")}
  {tile("Yt", "Yv", "%r", "%c0", 4, 64, 8, 64, "!spyreop.df16")}
  %x = ktdp.load %Xt : !ktdp.access_tile<4x64xindex> -> tensor<4x64x!spyreop.df16>
  %e = tensor.empty() : tensor<4x64x!spyreop.df16>
  %y = linalg.generic {{indexing_maps = [{ID2}, {ID2}], iterator_types = ["parallel", "parallel"]}}
      ins(%x : tensor<4x64x!spyreop.df16>) outs(%e : tensor<4x64x!spyreop.df16>) {{
  ^bb0(%v: !spyreop.df16, %o: !spyreop.df16):
    %s = spyreop.sqrt %v : !spyreop.df16
    %m = spyreop.realdiv %s, %v : !spyreop.df16
    linalg.yield %m : !spyreop.df16
  }} -> tensor<4x64x!spyreop.df16>
  ktdp.store %y, %Yt : tensor<4x64x!spyreop.df16>, !ktdp.access_tile<4x64xindex>
  return
}}
"""


def test_df16_values_live_in_memory_as_codes():
    from emulator.numerics import df16_from_float, df16_to_f32, round_to

    x = round_to("df16", np.random.default_rng(6).uniform(0.5, 2, (8, 64)))
    assert x.dtype == np.float32
    root = round_to("df16", np.sqrt(x.astype(np.float32)))
    expected = round_to("df16", root.astype(np.float32) / x.astype(np.float32))
    out = run(DF16, {"X": x})
    assert out["Y"].dtype == np.float32
    np.testing.assert_array_equal(out["Y"], expected)
    # Raw uint16 codes are accepted as input too.
    codes = df16_from_float(x)
    np.testing.assert_array_equal(run(DF16, {"X": codes})["Y"], expected)
    np.testing.assert_array_equal(df16_to_f32(codes), x)


TWO_REDUCTIONS = f"""
func.func @stats(%X: index, %B: index, %S: index, %M: index) attributes {{grid = [1]}} {{
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant -3.0e+38 : f32
  {view("Xv", "X", 8, 64)}
  {view("Bv", "B", 1, 8)}
  {view("Sv", "S", 1, 8, "f32")}
  {view("Mv", "M", 1, 8, "f32")}
  {tile("Xt", "Xv", "%c0", "%c0", 8, 64, 8, 64)}
  {tile("Bt", "Bv", "%c0", "%c0", 1, 8, 1, 8)}
  {tile("St", "Sv", "%c0", "%c0", 1, 8, 1, 8, "f32")}
  {tile("Mt", "Mv", "%c0", "%c0", 1, 8, 1, 8, "f32")}
  %x = ktdp.load %Xt : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf16>
  %b = ktdp.load %Bt : !ktdp.access_tile<1x8xindex> -> tensor<1x8xf16>
  %e = tensor.empty() : tensor<1x8xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8xf32>) -> tensor<1x8xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x8xf32>) -> tensor<1x8xf32>
  // Reduce over columns (d0) of x^T + bias: the output maps put the row index last.
  %s, %m = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>,
        affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (0, d1)>],
        iterator_types = ["reduction", "parallel"]}}
      ins(%x, %b : tensor<8x64xf16>, tensor<1x8xf16>) outs(%s0, %m0 : tensor<1x8xf32>, tensor<1x8xf32>) {{
  ^bb0(%v: f16, %bv: f16, %sa: f32, %ma: f32):
    %w = arith.extf %v : f16 to f32
    %bw = arith.extf %bv : f16 to f32
    %y = arith.addf %w, %bw : f32
    %sq = arith.mulf %y, %y : f32
    %ns = arith.addf %sa, %sq : f32
    %nm = arith.maximumf %y, %ma : f32
    linalg.yield %ns, %nm : f32, f32
  }} -> tensor<1x8xf32>, tensor<1x8xf32>
  ktdp.store %s, %St : tensor<1x8xf32>, !ktdp.access_tile<1x8xindex>
  ktdp.store %m, %Mt : tensor<1x8xf32>, !ktdp.access_tile<1x8xindex>
  return
}}
"""


def test_generic_with_two_reductions_constant_and_permuted_maps():
    x, b = rand((8, 64), 8), rand((1, 8), 9)
    out = run(TWO_REDUCTIONS, {"X": x, "B": b})
    y = (x.astype(np.float32) + b.astype(np.float32).T).astype(np.float64)  # [row, col]
    squares = (y * y).astype(np.float32).astype(np.float64)
    np.testing.assert_array_equal(out["S"][0], squares.sum(axis=1).astype(np.float32))
    np.testing.assert_array_equal(out["M"][0], y.max(axis=1).astype(np.float32))


def test_fused_pair_ops_agree_with_the_separate_values():
    """exx2_fused + layernormscale_fused compute what exx2 + layernormscale compute."""
    from pathlib import Path

    kernel = Path(__file__).parent / "kernels" / "layernorm_fused.mlir"
    x = rand((4, 64), seed=3, dtype=np.float32)
    out = run(str(kernel), {"X": x})
    np.testing.assert_array_equal(out["Y"], out["Z"])
    # x*x rounded to f32 minus x^2 is (almost) zero, so both are close to 1/sqrt(eps).
    np.testing.assert_allclose(out["Z"], 1 / np.sqrt(1e-5), rtol=0.01)


def test_loop_carried_copy_runs_iterations_in_order():
    """Iteration i stores row i+1 from row i: row 0 propagates to every row."""
    from pathlib import Path

    kernel = Path(__file__).parents[1] / "polyhedral" / "kernels" / "loop_carried.mlir"
    t, u = rand((8, 64), seed=5), rand((8, 64), seed=6)
    out = run(str(kernel), {"T": t, "U": u})
    np.testing.assert_array_equal(out["T"], np.repeat(t[:1], 8, axis=0))
    np.testing.assert_array_equal(out["U"], u)
