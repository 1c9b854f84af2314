"""Access tiles as models: which coordinates a load or store touches, per instance.

An instance of an access is one compute tile and one iteration of each enclosing loop.
`AccessModel.contains_text(coords)` is the isl formula "coordinate `coords` is touched",
over the kernel's variables: the access_tile_set's constraints with each dim d_k replaced
by (c_k - base_k) and its symbols by the bound values. `coordinates()` is that as an
`isl.Set` with the variables as parameters; `instance_map()` moves the tile id and the
loop variables into the domain: { [tile, iv...] -> [c...] }.

Indirect access tiles (`ind(...)` dimensions) read coordinates from memory; their
`ind` dimensions are modelled as any coordinate of the view (`exact = False`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import islpy as isl
import numpy as np
from xdsl.dialects import scf
from xdsl.ir import Operation
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.ir.affine.affine_set import AffineSet

from spyre_sched.dialects.ktdp import (
    ConstructAccessTileOp,
    ConstructIndirectAccessTileOp,
    LoadOp,
    StoreOp,
)
from spyre_sched.polyhedral.affine_values import AffineValues, Variable, rename_text
from spyre_sched.polyhedral.point_sets import enumerate_points, eval_affine_exprs
from spyre_sched.polyhedral.replay import with_derived
from spyre_sched.polyhedral.isl_text import conj, expr_text, make_set, set_text
from spyre_sched.polyhedral.views import AnyViewModel


@dataclass
class AccessModel:
    """One `ktdp.load` / `ktdp.store` through an access tile."""

    op: LoadOp | StoreOp
    kind: str  # "load" | "store"
    tile_op: Operation
    view: AnyViewModel
    values: AffineValues
    loops: list[Variable]
    #: subscript expressions (over the kernel's variables), one per view dim
    base: tuple[AffineExpr, ...]
    tile_set: AffineSet
    tile_symbols: tuple[AffineExpr, ...]
    order: AffineMap
    exact: bool = True
    #: view dims whose coordinate comes from an index tensor (indirect tiles)
    indirect_dims: tuple[int, ...] = ()
    #: isl text: the enclosing `scf.if` conditions under which the access runs
    guard: str = "true"
    #: False when some enclosing condition is not an affine comparison (ignored, so the
    #: model over-approximates: findings are warnings)
    guard_exact: bool = True

    @property
    def rank(self) -> int:
        return len(self.base)

    @property
    def instance_variables(self) -> list[Variable]:
        return [self.values.tile, *self.loops]

    def contains_text(self, coords: Sequence[str], rename: dict[str, str] | None = None) -> str:
        """isl text: this access touches coordinates `coords` (in the instance `rename`)."""
        guard = rename_text(self.guard, rename) if rename else self.guard
        if isinstance(self.tile_op, ConstructIndirectAccessTileOp):
            return conj(self._indirect_text(coords, rename), guard)
        shifted = [
            f"(({c}) - ({self.values.text(b, rename)}))" for c, b in zip(coords, self.base)
        ]
        syms = [self.values.text(s, rename) for s in self.tile_symbols]
        return conj(set_text(self.tile_set, shifted, syms), guard)

    def _indirect_text(self, coords: Sequence[str], rename: dict[str, str] | None) -> str:
        op = self.tile_op
        assert isinstance(op, ConstructIndirectAccessTileOp)
        nvars = len(op.var_names.data)
        vnames = [f"q{k}" for k in range(nvars)]
        outer = [self.values.text(self.values.expr(v), rename) for v in op.outer]
        syms = [self.values.text(self.values.expr(v), rename) for v in op.tile_symbols]
        parts = [set_text(op.variables_space_set.data, vnames, syms)]
        for k, (c, expr) in enumerate(zip(coords, op.dim_map.data.results)):
            if k not in self.indirect_dims:
                parts.append(f"{c} = {expr_text(expr, vnames, outer)}")
        return f"exists ({', '.join(vnames)} : {conj(*parts)})"

    def coordinates(self) -> isl.Set:
        """The touched coordinates, parameters = all kernel variables, within the context."""
        names = [v.name for v in self.values.variables]
        coords = [f"c{k}" for k in range(self.rank)]
        return make_set(names, coords, conj(self.values.context(), self.contains_text(coords)))

    def instance_map(self) -> isl.Map:
        """{ [tile, iv...] -> [c...] }, other variables as parameters."""
        cset = self.coordinates()
        amap = isl.Map.from_range(cset)
        for pos, var in enumerate(self.instance_variables):
            idx = amap.find_dim_by_name(isl.dim_type.param, var.name)
            amap = amap.move_dims(isl.dim_type.in_, pos, isl.dim_type.param, idx, 1)
        return amap

    # ---- concrete evaluation -----------------------------------------------------

    def _eval(self, exprs: Sequence[AffineExpr], env: dict[str, int]) -> list[int]:
        env = with_derived(self.values, env)
        values = [env.get(v.name, 0) for v in self.values.variables]
        return [int(x) for x in eval_affine_exprs(list(exprs), np.zeros((1, 0), np.int64), values)[0]]

    def points(self, env: dict[str, int]) -> np.ndarray:
        """Coordinates touched by the instance `env` (variable name -> value), in order."""
        if not self.exact:
            raise ValueError("indirect access tiles have no static point set")
        base = np.asarray(self._eval(self.base, env), dtype=np.int64)
        syms = self._eval(self.tile_symbols, env)
        return enumerate_points(self.tile_set, syms, self.order) + base

    def __repr__(self) -> str:
        return f"AccessModel({self.kind}, {self.tile_op.results[0].name_hint or '?'})"


def build_access(op: LoadOp | StoreOp, view: AnyViewModel, values: AffineValues) -> AccessModel:
    tile_op = op.tile.owner
    assert isinstance(tile_op, Operation)
    kind = "load" if isinstance(op, LoadOp) else "store"
    loops = values.enclosing_loops(op)
    guard, guard_exact = _guard(op, values)
    if isinstance(tile_op, ConstructAccessTileOp):
        base_map = tile_op.base_map.data
        base = tuple(values.substitute(e, tile_op.indices) for e in base_map.results)
        return AccessModel(
            op, kind, tile_op, view, values, loops, base,
            tile_op.access_tile_set.data,
            tuple(values.expr(v) for v in tile_op.tile_symbols),
            tile_op.access_tile_order.data,
            guard=guard, guard_exact=guard_exact,
        )
    assert isinstance(tile_op, ConstructIndirectAccessTileOp)
    ind = tuple(k for k, j in enumerate(tile_op.ind_dims.get_values()) if j >= 0)
    for v in (*tile_op.outer, *tile_op.tile_symbols):
        values.expr(v)
    rank = len(tile_op.ind_dims.get_values())
    return AccessModel(
        op, kind, tile_op, view, values, loops,
        tuple(AffineExpr.constant(0) for _ in range(rank)),
        tile_op.variables_space_set.data, (), tile_op.variables_space_order.data,
        exact=False, indirect_dims=ind, guard=guard, guard_exact=guard_exact,
    )


def _guard(op: Operation, values: AffineValues) -> tuple[str, bool]:
    """The conditions of the `scf.if` ops around `op` (negated in else branches), as isl
    text, and whether all of them could be read."""
    texts, exact = [], True
    child, parent = op, op.parent_op()
    while parent is not None and parent is not values.func_op:
        if isinstance(parent, scf.IfOp):
            cond = values.condition_text(parent.cond)
            if cond is None:
                exact = False
            elif child.parent_region() is parent.true_region:
                texts.append(f"({cond})")
            else:
                texts.append(f"not ({cond})")
        child, parent = parent, parent.parent_op()
    return conj(*texts) if texts else "true", exact
