"""Static checks for `spyre-sched check`: out-of-bounds, write and read/write races,
output coverage,
overlapping parts of a distributed view, and what they could not check (`not-checked`
notes: see `unmodelled`).

`check_kernel(func_op)` returns diagnostics as data (the op and a witness); the caller
maps ops to file:line:col.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.ir import Operation

from spyre_sched.polyhedral.out_of_bounds import find_out_of_bounds, masked_count
from spyre_sched.polyhedral.isl_text import witness
from spyre_sched.polyhedral.kernel_model import KernelModel
from spyre_sched.polyhedral.races import (
    find_read_write_races,
    find_write_races,
    store_coverage,
)
from spyre_sched.polyhedral.tile_invariance import TileInvariance
from spyre_sched.polyhedral.unmodelled import unmodelled
from spyre_sched.polyhedral.replay import Instance, Unreplayable, written_addresses
from spyre_sched.polyhedral.views import DistributedViewModel


@dataclass(frozen=True)
class Diagnostic:
    severity: str  # "error" | "warning" | "not checked"
    #: "masked-access" | "write-race" | "redundant-store" | "read-write-race" |
    #: "unsynchronised-scratchpad" | "uncovered-output" | "overlapping-parts" | "not-checked"
    code: str
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


def check_kernel(func_op: Operation, model: KernelModel | None = None,
                 arguments: dict[str, int | float] | None = None) -> list[Diagnostic]:
    """Diagnostics for one kernel. `arguments` binds scalar and run-time arguments by
    name (`check --arg`); unbound ones range over every value.

    Errors are only write races whose witness replays concretely; positions of a tile
    outside its view are masked (warning); a finding that needs a particular value of an
    unbound scalar, an opaque value, or a condition the model cannot read is a warning.
    """
    model = model or KernelModel(func_op, bindings=arguments)
    diags: list[Diagnostic] = _overlapping_parts(model)
    for gap in unmodelled(model):
        diags.append(Diagnostic("not checked", "not-checked", gap.why, gap.op, {}, gap.other))
    for access in model.accesses:
        if not access.exact:
            continue
        oob = find_out_of_bounds(access)
        if oob is None:
            continue
        diags.append(_masked(access, oob))
    diags += race_diagnostics(model)
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


def race_diagnostics(model: KernelModel) -> list[Diagnostic]:
    """Write races, then read/write races, between tiles: an error where the witness
    replays concretely (a proven race), else a warning saying why not."""
    pointers = {n for view in model.views.values() for part in view.parts for n in part.root_key}
    invariance = TileInvariance(model.accesses)
    return ([_race(model, race, pointers, invariance) for race in find_write_races(model)]
            + [_read_write_race(model, rw, pointers) for rw in find_read_write_races(model)])


def proven_races(func_op: Operation, model: KernelModel | None = None) -> list[Diagnostic]:
    """The races `check` reports as errors: what `compile` refuses unless told to allow
    races (`spyre_sched.compile(..., allow_races=True)`, `--allow-races`)."""
    return [d for d in race_diagnostics(model or KernelModel(func_op)) if d.severity == "error"]


def _masked(access, oob) -> Diagnostic:
    """A tile sticking out of its view: its outside positions are masked (a load reads
    zero there, a store skips them). Reported with their count at the witness."""
    tile_name = _name(access.tile_op)
    view_name = _name(access.view.op)
    count = masked_count(access, oob)
    counted = f"{count} position(s)" if count is not None else "some positions"
    what = "read as zero" if access.kind == "load" else "not written"
    return Diagnostic(
        "warning", "masked-access",
        f"{access.op.name} through {tile_name} sticks out of the coordinate set of "
        f"{view_name}: {counted} masked ({what}) at {oob}",
        access.op,
        {"tile": oob.tile, "coordinate": oob.coordinate, **oob.loops, **oob.others,
         "masked": count},
        access.view.op,
    )


def _race(model: KernelModel, race, pointers: set[str],
          invariance: TileInvariance) -> Diagnostic:
    """A write race is an error only if its witness replays concretely at fixed
    arguments; otherwise a warning saying why. Tiles that write one element through
    stores doing the same in every tile write the same values: a warning that the work
    is repeated, not a race."""
    w = race.witness
    other = "" if race.first is race.second else f" and {_name(race.second.tile_op)}"
    data = {"tile": w.tile1, "tile2": w.tile2, "coordinate": w.coordinate, **w.loops1}
    if invariance.store_is_invariant(race.first) and invariance.store_is_invariant(race.second):
        return Diagnostic(
            "warning", "redundant-store",
            f"redundant store: stores through {_name(race.first.tile_op)}{other}: {race}, "
            "the same values (the store, its subscripts and everything it reads are the "
            "same in every tile), so the result does not depend on their order; each tile "
            "repeats the work", race.first.op, data, race.second.op)
    text = f"write race: stores through {_name(race.first.tile_op)}{other}: {race}"
    severity, note = _confirmed(model, race.first, race.second, w, pointers)
    return Diagnostic(severity, "write-race", text + note, race.first.op, data,
                      race.second.op)


def _read_write_race(model: KernelModel, race, pointers: set[str]) -> Diagnostic:
    """A store in one tile of an element another tile loads, not ordered before the load;
    an error only when its witness replays, like a write race. At the store, the load
    related."""
    w = race.witness
    text = (f"read/write race: store through {_name(race.store.tile_op)} and load through "
            f"{_name(race.load.tile_op)}: {race}")
    data = {"tile": w.tile2, "tile2": w.tile1, "coordinate": w.coordinate,
            **{f"store.{k}": v for k, v in w.loops2.items()},
            **{f"load.{k}": v for k, v in w.loops1.items()}}
    if race.program_ordered:
        return Diagnostic(
            "warning", "unsynchronised-scratchpad",
            f"unsynchronised scratchpad read: store through {_name(race.store.tile_op)} "
            f"and load through {_name(race.load.tile_op)}: tile {w.tile2} writes coordinate "
            f"{list(w.coordinate)} in {w.memory}, which tile {w.tile1} reads after it in "
            "program order only; only inter-tile ops order tiles, so another executor may "
            "read first (this compiler orders them with a program boundary; an inter-tile "
            "exchange says so)", race.store.op, data, race.load.op)
    severity, note = _confirmed(model, race.load, race.store, w, pointers)
    return Diagnostic(severity, "read-write-race", text + note, race.store.op, data,
                      race.load.op)


def _confirmed(model: KernelModel, first, second, w, pointers: set[str]) -> tuple[str, str]:
    """(severity, note) of a race between instance 1 of `first` and instance 2 of
    `second` in the witness `w`: an error only when it replays with everything bound."""
    severity, note = "error", ""
    try:
        unbound = replay_race(model, first, second, w, pointers)
    except Unreplayable as why:
        severity, note = "warning", f" (may: the witness cannot be replayed: {why})"
        unbound = {}
    if unbound is None:
        severity = "warning"
        note = " (may: not confirmed when replayed concretely; the model over-approximates)"
    elif unbound:
        severity = "warning"
        values = ", ".join(f"{k} = {v}" for k, v in unbound.items())
        note = f" (for {values}; bind them with --arg NAME=VALUE to decide)"
    if not (first.guard_exact and second.guard_exact) and severity == "error":
        severity, note = "warning", " (may: a guarding condition is not modelled)"
    return severity, note


def replay_race(model: KernelModel, first_access, second_access, w,
                pointers: set[str]) -> dict[str, int] | None:
    """Replay a race witness: both instances reach their accesses and touch one address.
    Returns the unbound scalars the replay needed (empty: a real race at any value of
    them), None when the witness does not replay; raises Unreplayable."""
    shared = dict(w.others)
    first = Instance(model.values, w.tile1, {**shared, **w.loops1}, pointers)
    second = Instance(model.values, w.tile2, {**shared, **w.loops2}, pointers)
    if w.tile1 == w.tile2:
        return None
    if not (first.reaches(first_access.op) and second.reaches(second_access.op)):
        return None
    a = written_addresses(first_access, first)
    b = written_addresses(second_access, second)
    if not any(a[k] & b.get(k, set()) for k in a):
        return None
    return {**first.unbound, **second.unbound}


def _overlapping_parts(model: KernelModel) -> list[Diagnostic]:
    """Parts of a distributed view that share a coordinate: upstream leaves which part
    holds it unspecified, so this is a warning; an error when a store writes through
    the view (which copy would be written is then undefined)."""
    diags = []
    stored = {id(a.view) for a in model.stores}
    for view in model.views.values():
        if not isinstance(view, DistributedViewModel):
            continue
        severity = "error" if id(view) in stored else "warning"
        for i, first in enumerate(view.parts):
            for second in view.parts[i + 1:]:
                common = first.coordinate_set_isl().intersect(second.coordinate_set_isl())
                if common.is_empty():
                    continue
                point = witness(common)
                coordinate = tuple(point[f"c{k}"] for k in range(view.rank))
                rule = ("a store through it must write exactly one part" if severity == "error"
                        else "which part a load reads there is unspecified")
                diags.append(Diagnostic(
                    severity, "overlapping-parts",
                    f"parts {_name(first.op)} and {_name(second.op)} of distributed view "
                    f"{_name(view.op)} both hold coordinate {list(coordinate)}: {rule}",
                    view.op, {"coordinate": coordinate}, second.op,
                ))
    return diags
