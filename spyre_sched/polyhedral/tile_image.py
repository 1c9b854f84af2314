"""How many distinct elements one tile of an iteration space touches in an operand: the
size of the image of the box [0, s_0) x ... x [0, s_{n-1}) under an affine map.

This is the footprint of a ScheduleIR buffer (docs/scheduleir.md, section 4): a
broadcast operand drops dims, a skewed map overlaps its rows, a strided one leaves
holes; none of these is the product of the extents in general. A projected permutation
(every result a distinct dim, as in every elementwise/broadcast/reduction generic) is
answered in closed form; any other map by counting distinct images with numpy.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

import numpy as np
from xdsl.ir.affine import AffineDimExpr, AffineMap

from spyre_sched.errors import AnalysisError
from spyre_sched.polyhedral.point_sets import eval_affine_exprs

#: counting by enumeration is refused beyond this many box points (a closed form is
#: needed then)
MAX_ENUMERATED_POINTS = 1 << 22


def projected_dims(amap: AffineMap) -> list[int] | None:
    """The dims of a projected permutation's results, or None for any other map."""
    dims = [r.position for r in amap.results if isinstance(r, AffineDimExpr)]
    if len(dims) != len(amap.results) or len(set(dims)) != len(dims):
        return None
    return dims


def image_size(amap: AffineMap, sizes: Sequence[int]) -> int:
    """|{ amap(p) : p in [0, sizes) }|, exactly."""
    if len(sizes) != amap.num_dims:
        raise AnalysisError(f"the map {amap} takes {amap.num_dims} dims, got {len(sizes)} sizes")
    if any(s < 0 for s in sizes):
        raise AnalysisError(f"negative tile size in {list(sizes)}")
    if any(s == 0 for s in sizes):
        return 0
    dims = projected_dims(amap)
    if dims is not None:
        return prod(sizes[d] for d in dims)
    points = prod(sizes)
    if points > MAX_ENUMERATED_POINTS:
        raise AnalysisError(f"counting the image of a {'x'.join(map(str, sizes))} box under "
                            f"{amap} needs a closed form (too many points)")
    if not amap.results:
        return 1
    grid = np.indices(tuple(sizes)).reshape(len(sizes), -1).T  # (points, dims)
    images = eval_affine_exprs(amap.results, grid, [])
    return int(len(np.unique(images, axis=0)))
