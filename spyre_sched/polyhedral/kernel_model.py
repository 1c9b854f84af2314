"""The polyhedral model of one kernel: its variables, views and accesses, built once.

`KernelModel(func_op)` walks the kernel in program order, models every memory view,
distributed view and load/store, and then freezes the variable table (isl sets built
afterwards all share the same parameter list). The question modules (`footprint`,
`placement`, `out_of_bounds`, `races`, `dependences`, `invariance`) take a `KernelModel`.
"""

from __future__ import annotations

import islpy as isl
from xdsl.dialects.builtin import IndexType
from xdsl.ir import Operation, SSAValue

from spyre_sched.dialects.ktdp import (
    ConstructDistributedMemoryViewOp,
    ConstructMemoryViewOp,
    LoadOp,
    StoreOp,
)
from spyre_sched.errors import UnsupportedError
from spyre_sched.polyhedral.accesses import AccessModel, build_access
from spyre_sched.polyhedral.affine_values import AffineValues, Variable
from spyre_sched.polyhedral.replay import with_derived
from spyre_sched.polyhedral.views import AnyViewModel, DistributedViewModel, ViewModel


class KernelModel:
    def __init__(self, func_op: Operation, grid: tuple[int, ...] | None = None,
                 bindings: dict[str, int | float] | None = None):
        self.func_op = func_op
        self.values = AffineValues(func_op, grid, bindings)
        self.views: dict[SSAValue, AnyViewModel] = {}
        self.accesses: list[AccessModel] = []
        for op in func_op.walk():
            if isinstance(op, ConstructMemoryViewOp):
                self.views[op.result] = ViewModel(op, self.values)
            elif isinstance(op, ConstructDistributedMemoryViewOp):
                if not all(v in self.views for v in op.views):
                    continue  # a part that is not a view of this kernel: unsupported if used
                parts = [self.view_of(v) for v in op.views]
                self.views[op.result] = DistributedViewModel(
                    op, [p for p in parts if isinstance(p, ViewModel)]
                )
            elif isinstance(op, LoadOp | StoreOp):
                tile_op = op.tile.owner
                view_value = getattr(tile_op, "view", None)
                if view_value is None:
                    raise UnsupportedError(
                        f"{op.name}: the access tile does not come from "
                        "ktdp.construct_access_tile (block arguments are not supported)"
                    )
                try:
                    view = self.view_of(view_value)
                except UnsupportedError as err:
                    err.op = op  # type: ignore[attr-defined]  # the caller locates it
                    raise
                self.accesses.append(build_access(op, view, self.values))
        # Touch every index value once so the variable table is complete before isl use.
        for op in func_op.walk():
            for res in op.results:
                if isinstance(res.type, IndexType):
                    self.values.expr(res)

    def view_of(self, value: SSAValue) -> AnyViewModel:
        if value not in self.views:
            raise UnsupportedError(
                "the access goes through a memory view that is not built by "
                "ktdp.construct_memory_view or ktdp.construct_distributed_memory_view (of "
                "such views) in this kernel"
            )
        return self.views[value]

    @property
    def grid(self) -> tuple[int, ...]:
        return self.values.grid

    @property
    def tile_count(self) -> int:
        return self.values.tile_count

    @property
    def loads(self) -> list[AccessModel]:
        return [a for a in self.accesses if a.kind == "load"]

    @property
    def stores(self) -> list[AccessModel]:
        return [a for a in self.accesses if a.kind == "store"]

    def tiles_running(self, access: AccessModel) -> list[int]:
        """The tiles that run `access`, its enclosing conditions included (a store under
        `scf.if` on the tile id runs on those tiles only; a condition the model cannot
        read counts as taken)."""
        domain = access.instance_map().domain()
        tiles = domain.project_out(isl.dim_type.set, 1, domain.dim(isl.dim_type.set) - 1)
        return [t for t in range(self.tile_count) if not tiles.fix_dim_si(0, t).is_empty()]

    @property
    def variables(self) -> list[Variable]:
        return self.values.variables

    def default_env(self, tile: int = 0) -> dict[str, int]:
        """Values for every variable but loop variables: run-time sizes at their upper
        bound, pointers and opaque values at 0 (addresses come out pointer-relative),
        derived ones (a min, a max, a select) computed from those."""
        env = {}
        for v in self.values.variables:
            if v.kind.value in ("loop", "derived"):
                continue  # loops unbound: footprints take the union over iterations
            if v.upper is not None and v.kind.value == "runtime":
                env[v.name] = v.upper
            else:
                env[v.name] = 0
        env[self.values.tile.name] = tile
        # a min, max or select of these, at this tile (one that depends on a loop is
        # computed per iteration, by `AccessModel._eval`)
        return with_derived(self.values, env)
