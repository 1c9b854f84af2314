"""Questions about xDSL affine maps that more than one dialect's verifier asks.

Not a dialect: a helper module of the dialects room (xdsl only), so `ktdp` and `agen` ask
the same question the same way.
"""

from __future__ import annotations

from xdsl.ir.affine import AffineDimExpr, AffineMap


def is_permutation(amap: AffineMap) -> bool:
    """True if the map's results are its dims, each exactly once, in some order."""
    if amap.num_symbols or not all(isinstance(e, AffineDimExpr) for e in amap.results):
        return False
    dims = sorted(e.position for e in amap.results)  # type: ignore[attr-defined]
    return dims == list(range(amap.num_dims))
