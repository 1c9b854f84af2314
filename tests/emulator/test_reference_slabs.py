"""Large reducing linalg ops run in slabs of a parallel loop: the same bits as one pass
over the whole domain (forced here with a tiny slab size; the matmul case is in
test_reference_ops)."""

from __future__ import annotations

import numpy as np
import pytest

from emulator.reference import linalg, run
from test_reference_ops import f16, rand, tile, view

# Column sums of squares of X (8x24) plus Y as init, into a 24x1 tensor (the input map
# transposes), and the column maxima: two outputs, one reduction loop.
GENERIC = f"""
func.func @g(%X: index, %Y: index, %S: index, %M: index) attributes {{grid = [1]}} {{
  %c0 = arith.constant 0 : index
  {view("Xv", "X", 8, 24)}
  {view("Yv", "Y", 24, 1)}
  {view("Sv", "S", 24, 1)}
  {view("Mv", "M", 24, 1)}
  {tile("Xt", "Xv", "%c0", "%c0", 8, 24, 8, 24)}
  {tile("Yt", "Yv", "%c0", "%c0", 24, 1, 24, 1)}
  {tile("St", "Sv", "%c0", "%c0", 24, 1, 24, 1)}
  {tile("Mt", "Mv", "%c0", "%c0", 24, 1, 24, 1)}
  %x = ktdp.load %Xt : !ktdp.access_tile<8x24xindex> -> tensor<8x24xf16>
  %y = ktdp.load %Yt : !ktdp.access_tile<24x1xindex> -> tensor<24x1xf16>
  %m0 = ktdp.load %Yt : !ktdp.access_tile<24x1xindex> -> tensor<24x1xf16>
  %s, %m = linalg.generic {{indexing_maps = [affine_map<(i, j, k) -> (k, i)>,
                                             affine_map<(i, j, k) -> (i, j)>,
                                             affine_map<(i, j, k) -> (i, j)>],
                            iterator_types = ["parallel", "parallel", "reduction"]}}
      ins(%x : tensor<8x24xf16>) outs(%y, %m0 : tensor<24x1xf16>, tensor<24x1xf16>) {{
  ^bb0(%in: f16, %acc: f16, %mx: f16):
    %sq = arith.mulf %in, %in : f16
    %sum = arith.addf %sq, %acc : f16
    %big = arith.maximumf %mx, %in : f16
    linalg.yield %sum, %big : f16, f16
  }} -> tensor<24x1xf16>, tensor<24x1xf16>
  ktdp.store %s, %St : tensor<24x1xf16>, !ktdp.access_tile<24x1xindex>
  ktdp.store %m, %Mt : tensor<24x1xf16>, !ktdp.access_tile<24x1xindex>
  return
}}
"""


@pytest.mark.parametrize("slab", [1 << 20, 50, 1])
def test_reducing_generic_in_slabs(monkeypatch, slab):
    monkeypatch.setattr(linalg, "SLAB_ELEMENTS", slab)
    x, y = rand((8, 24), 3), rand((24, 1), 4)
    out = run(GENERIC, {"X": x, "Y": y})
    squares = f16(x.astype(np.float64) ** 2)
    want_s = f16(squares.astype(np.float64).sum(axis=0) + y[:, 0])
    want_m = np.maximum(x.max(axis=0), y[:, 0])
    np.testing.assert_array_equal(out["S"][:, 0], want_s)
    np.testing.assert_array_equal(out["M"][:, 0], want_m)
