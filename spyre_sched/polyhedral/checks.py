"""Static checks for `spyre-sched check`: out-of-bounds, write races, output coverage,
overlapping parts of a distributed view.

`check_kernel(func_op)` returns diagnostics as data (the op and a witness); the caller
maps ops to file:line:col.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.ir import Operation

from spyre_sched.polyhedral.out_of_bounds import find_out_of_bounds
from spyre_sched.polyhedral.isl_text import witness
from spyre_sched.polyhedral.kernel_model import KernelModel
from spyre_sched.polyhedral.races import find_write_races, store_coverage
from spyre_sched.polyhedral.views import DistributedViewModel


@dataclass(frozen=True)
class Diagnostic:
    severity: str  # "error" | "warning"
    code: str  # "out-of-bounds" | "write-race" | "uncovered-output" | "overlapping-parts"
    message: str
    op: Operation
    #: witness: "tile" (and "tile2" for races), "coordinate", loop variables by name, ...
    witness: dict = field(default_factory=dict)
    related: Operation | None = None

    def __str__(self) -> str:
        return f"{self.severity}: {self.message}"


def _name(op: Operation) -> str:
    hint = op.results[0].name_hint if op.results else None
    return f"%{hint}" if hint else op.name


def check_kernel(func_op: Operation, model: KernelModel | None = None) -> list[Diagnostic]:
    model = model or KernelModel(func_op)
    diags: list[Diagnostic] = _overlapping_parts(model)
    for access in model.accesses:
        if not access.exact:
            continue
        oob = find_out_of_bounds(access)
        if oob is None:
            continue
        tile_name = _name(access.tile_op)
        view_name = _name(access.view.op)
        verb = "reads" if access.kind == "load" else "writes"
        may = "" if oob.certain else "may "
        diags.append(Diagnostic(
            "error" if oob.certain else "warning", "out-of-bounds",
            f"{access.op.name} through {tile_name} {may}{verb} outside the coordinate set "
            f"of {view_name}: {oob}",
            access.op,
            {"tile": oob.tile, "coordinate": oob.coordinate, **oob.loops, **oob.others},
            access.view.op,
        ))
    for race in find_write_races(model):
        w = race.witness
        other = "" if race.first is race.second else f" and {_name(race.second.tile_op)}"
        diags.append(Diagnostic(
            "error", "write-race",
            f"write race: stores through {_name(race.first.tile_op)}{other}: {race}",
            race.first.op,
            {"tile": w.tile1, "tile2": w.tile2, "coordinate": w.coordinate,
             **{k: v for k, v in w.loops1.items()}},
            race.second.op,
        ))
    for cov in store_coverage(model):
        if cov.complete:
            continue
        first = cov.stores[0]
        sizes = "".join(f", {k} = {v}" for k, v in cov.others.items() if v)
        diags.append(Diagnostic(
            "warning", "uncovered-output",
            f"stores do not cover {_name(cov.view.op)}: coordinate {list(cov.missing or ())}"
            f" is never written{sizes}",
            first.op, {"coordinate": cov.missing, **cov.others}, cov.view.op,
        ))
    return diags


def _overlapping_parts(model: KernelModel) -> list[Diagnostic]:
    """A coordinate of a distributed view must belong to one part: KTIR sends it to "the
    view whose coordinate set holds it", which two parts cannot both be."""
    diags = []
    for view in model.views.values():
        if not isinstance(view, DistributedViewModel):
            continue
        for i, first in enumerate(view.parts):
            for second in view.parts[i + 1:]:
                common = first.coordinate_set_isl().intersect(second.coordinate_set_isl())
                if common.is_empty():
                    continue
                point = witness(common)
                coordinate = tuple(point[f"c{k}"] for k in range(view.rank))
                diags.append(Diagnostic(
                    "error", "overlapping-parts",
                    f"parts {_name(first.op)} and {_name(second.op)} of distributed view "
                    f"{_name(view.op)} both hold coordinate {list(coordinate)}: a "
                    "coordinate must belong to exactly one part",
                    view.op, {"coordinate": coordinate}, second.op,
                ))
    return diags
