"""Which part of a distributed view each compute tile's accesses reach, and when the view
can be read as one plain view.

A distributed view whose accesses each stay inside one part per tile can be replaced,
without moving any data, by:

- `coalesce`: its parts address memory exactly as one view over the union of their
  coordinate boxes would (same memory, same strides, offsets that differ by what the
  boxes' corners predict: a dense tensor cut into windows of itself, as column-sharded
  tensors in device memory are written);
- `own`: parts in the scratchpads of cores 0..n-1 with one layout, each tile touching
  only the part in its own scratchpad (producer and consumer divide the work as the data
  is divided): an own-scratchpad (`ct_local`) view over one part's box moved to the
  origin, each access's base shifted by that tile's part corner (`a * tile + b`);
- `part`: every tile of every access stays in the same part: that part's view. A part
  in a named core's scratchpad read by other tiles is then a read over the interconnect
  (the scheduler moves it from the owning scratchpad);
- `access`: every tile of each access tile stays in one part, which differs between
  access tiles (a copy loop split at a part's edge): each access tile reads its part's
  view;
- `owners`: parts of one layout in named cores' scratchpads, each load reaching one part
  per tile, another core's for some (a consumer dividing the work otherwise than the
  producer): each access tile reads through a view whose core is given per tile
  (`ktdf.owner_by_tile`), its base shifted by its tile's part corner (`a * tile + b`, or,
  for blocks of one extent B from k0, `(base - k0) mod B`);
- `split`: an access reaches one part per iteration of a loop around it, but several over
  the loop (`part_edges`), or a copied tile straddles parts (`copy_pieces`): the normal
  form splits the loop or the copy at the parts' edges first (`split-at-part-edges`), and
  each copy then resolves.

A part in a named core's scratchpad that a tile of another core stores into (`part`,
`access`) is a store over the interconnect, issued by the storing core. Anything else (a
part that differs per tile in a way none of these covers, a store among them) is refused
with the tile, the part and the memory.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir.affine import AffineMap

from spyre_sched.dialects import ktdp
from spyre_sched.dialects.ktdp import ConstructDistributedMemoryViewOp
from spyre_sched.errors import UnsupportedError
from spyre_sched.polyhedral.accesses import AccessModel
from spyre_sched.polyhedral.iterations import iterations
from spyre_sched.polyhedral.kernel_model import KernelModel
from spyre_sched.polyhedral.placement import pieces
from spyre_sched.polyhedral.point_sets import box_bounds
from spyre_sched.polyhedral.views import DistributedViewModel, ViewModel


@dataclass(frozen=True)
class Resolution:
    kind: str  # "coalesce" | "own" | "part" | "access" | "owners" | "split"
    part: int = 0  # for "part"
    #: "access": (access tile op, the part it reads) for every access tile on the view
    tile_parts: tuple[tuple[object, int], ...] = ()
    #: "coalesce": the union box; "own": one part's extents
    box: tuple[tuple[int, int], ...] = ()
    #: "coalesce": elements to subtract from part 0's offset to address the union corner
    offset_shift: int = 0
    #: "own": per dim (a, b): the corner of tile t's part is a * t + b
    corner: tuple[tuple[int, int], ...] = ()
    #: "own", "owners": the parts' (common, constant) element offset in their scratchpads
    offset: int = 0
    #: "owners": per access tile (the op, the core each tile reads, per dim its corner:
    #: ("linear", a, b) for a * tile + b, or ("blocks", k0, B) for the block of extent B
    #: from k0 holding the access's base)
    owners: tuple[tuple[object, tuple[int, ...], tuple[tuple, ...]], ...] = ()


class Unresolved(Exception):
    def __init__(self, message: str, op=None):
        super().__init__(message)
        self.message = message
        self.op = op


def accesses_through(model: KernelModel, op: ConstructDistributedMemoryViewOp) -> list[AccessModel]:
    view = model.views.get(op.result)
    return [a for a in model.accesses if a.view is view]


def _boxes(view: DistributedViewModel) -> list[list[tuple[int, int]]] | None:
    boxes = []
    for part in view.parts:
        if part.coordinate_set.num_symbols:
            return None
        box = box_bounds(part.coordinate_set, [])
        if box is None:
            return None
        boxes.append(box)
    return boxes


def _static(part: ViewModel) -> tuple[int, ...] | None:
    """The part's strides, when all are constants."""
    strides = []
    for s in part.strides:
        value = part.values.of_expr(s).constant
        if value is None:
            return None
        strides.append(value)
    return tuple(strides)


#: iterations enumerated to find where a loop's access changes part (tiles x trips)
MAX_ITERATIONS = 4096


def spans_parts(model: KernelModel, access: AccessModel) -> bool:
    """True when the access, through a distributed view, reaches several parts on a tile."""
    if len(getattr(access.view, "parts", ())) < 2 or not access.exact:
        return False
    return any(len({p.part for p in pieces(model, access, tile)}) > 1
               for tile in range(model.tile_count))


def part_edges(model: KernelModel, access: AccessModel):
    """(a loop around the access, the first iteration value of each run after the first)
    when the access reaches one part per iteration of that loop (innermost first, constant
    bounds), parts changing between runs of iterations; None otherwise. Splitting the loop
    at those values (`split-at-part-edges`) leaves each copy reaching one part."""
    for var in reversed(access.loops):
        if var.loop is None or var.lower is None or var.upper is None or not var.step:
            continue
        values = range(var.lower, var.upper + 1, var.step)
        if not values or len(values) * model.tile_count > MAX_ITERATIONS:
            return None
        runs: list[tuple[int, int]] = []  # (first iteration value, part)
        for value in values:
            parts: set[int] = set()
            for tile in range(model.tile_count):
                parts |= {p.part for p in pieces(model, access, tile, {var.name: value})}
            if len(parts) > 1:
                break  # this loop alone does not separate the parts: an outer one may
            if parts and (not runs or runs[-1][1] != min(parts)):
                runs.append((value, min(parts)))
        else:
            if len(runs) > 1:
                return var.loop, [first for first, _ in runs[1:]]
    return None


def copy_pieces(model: KernelModel, access: AccessModel):
    """(the copy's load, dim, ranges) when `access` belongs to a copy (a load of a box
    tile, only stored, or such a store) whose tile straddles parts in a way
    `straddle_cut` cuts; else None."""
    load = access
    if access.kind == "store":
        source = access.op.operands[0].owner
        load = next((a for a in model.accesses if a.op is source), None)
        if load is None:
            return None
    if load.kind != "load" or not box_at_origin(load.tile_op) or not load.op.result.uses:
        return None
    if any(not isinstance(use.operation, ktdp.StoreOp) or use.index != 0
           for use in load.op.result.uses):
        return None
    cut = straddle_cut(model, access)
    return None if cut is None else (load, *cut)


def staged_cut(model: KernelModel, access: AccessModel):
    """`straddle_cut` of a box tile that compute reads (a load with a use other than a
    store) or that a value other than a plain copy's is stored through: staged through
    the executing tile's own scratchpad, it becomes a copy that is cut so
    (`split-at-part-edges`)."""
    source = access.op if access.kind == "load" else access.op.operands[0].owner
    if isinstance(source, ktdp.LoadOp) and all(
            isinstance(u.operation, ktdp.StoreOp) and u.index == 0 for u in source.result.uses):
        return None  # a copy: cut as it is (`copy_pieces`)
    return straddle_cut(model, access)


def straddle_cut(model: KernelModel, access: AccessModel):
    """(dim, [(first, last) tile-local range per part, in order]) when the parts split the
    access's box tile along one dim at the same tile-local place on every tile and loop
    iteration where it straddles parts (and leave each range in one part where it does
    not); else None. The tile's position may depend on the tile and the loops (a copy
    loop's one iteration over a tile that straddles two halves)."""
    if not box_at_origin(access.tile_op):
        return None
    box = box_bounds(access.tile_op.access_tile_set.data, [])
    # each instance (tile, loop iteration): its base and its pieces' boxes
    instances = []
    for tile in range(model.tile_count):
        try:
            bindings = list(iterations(model.values, access.loops, model.default_env(tile)))
        except UnsupportedError:
            return None
        if len(instances) + len(bindings) > MAX_ITERATIONS:
            return None
        for env in bindings:
            found = pieces(model, access, tile, env)
            instances.append((access._eval(access.base, env), [(p.lo, p.hi) for p in found]))
    for dim in range(len(box)):
        split = _split_along(instances, dim, box[dim][1])
        if split is not None:
            return dim, split
    return None


def box_at_origin(op) -> bool:
    """A plain access tile whose set is a box from 0 in every dim, in identity order."""
    if not isinstance(op, ktdp.ConstructAccessTileOp) or op.tile_symbols:
        return False
    box = box_bounds(op.access_tile_set.data, [])
    return (box is not None and all(lo == 0 for lo, _ in box)
            and op.access_tile_order.data == AffineMap.identity(len(box)))


def _split_along(instances, dim: int, last: int) -> list[tuple[int, int]] | None:
    """The tile-local ranges along `dim` that every straddling instance's parts cut the
    tile into (the same for all, adjacent, covering 0..last); None otherwise."""
    split = None
    for base, boxes in instances:
        if len(boxes) < 2:
            continue
        local = sorted((lo[dim] - base[dim], hi[dim] - base[dim]) for lo, hi in boxes)
        # (parts that overlap along this dim split the tile along another)
        if local[0][0] != 0 or local[-1][1] != last \
                or any(a[1] + 1 != b[0] for a, b in zip(local, local[1:])):
            return None
        if split is None:
            split = local
        elif local != split:
            return None
    # an instance in one part is in one part in every range of the split
    return split


def _part_per_tile(model: KernelModel, access: AccessModel) -> dict[int, int]:
    """For every tile the access touches anything in: the one part it stays in."""
    found: dict[int, int] = {}
    for tile in range(model.tile_count):
        parts = sorted({p.part for p in pieces(model, access, tile)})
        if len(parts) > 1:
            raise Unresolved(f"not supported yet: an access through a distributed view that "
                             f"spans several of its parts (tile {tile} reaches parts "
                             f"{', '.join(map(str, parts))})", access.op)
        if parts:
            found[tile] = parts[0]
    return found


def _difference(first: ViewModel, part: ViewModel) -> int | None:
    """offset(part) - offset(first) when it is a constant."""
    diff = part.offset - first.offset
    if diff.is_pure_affine():
        try:
            diff = diff.simplify(0, len(first.values.variables))
        except (NotImplementedError, ValueError, ZeroDivisionError):
            return None
    return first.values.of_expr(diff).constant


def _coalesced(view: DistributedViewModel, boxes) -> Resolution | None:
    parts = view.parts
    first = parts[0]
    strides = _static(first)
    if strides is None or any(p.memory != first.memory or p.memory.space == "ct_local" and
                              p.memory.core is not None for p in parts):
        return None
    if any(_static(p) != strides or p.element_type != first.element_type for p in parts):
        return None
    # Part p addresses c at offset_p + sum (c_k - lo_k^p) * stride_k: all parts agree
    # when offset_p - sum lo_k^p * stride_k is one value.
    def corner(box):
        return sum(lo * s for (lo, _), s in zip(box, strides))
    for part, box in zip(parts[1:], boxes[1:]):
        delta = _difference(first, part)
        if delta is None or delta != corner(box) - corner(boxes[0]):
            return None
    union = [(min(b[k][0] for b in boxes), max(b[k][1] for b in boxes))
             for k in range(view.rank)]
    volume = 1
    for lo, hi in union:
        volume *= hi - lo + 1
    total = 0
    for b in boxes:
        v = 1
        for lo, hi in b:
            v *= hi - lo + 1
        total += v
    disjoint = all(any(a[k][1] < b[k][0] or b[k][1] < a[k][0] for k in range(view.rank))
                   for i, a in enumerate(boxes) for b in boxes[i + 1:])
    if total != volume or not disjoint:
        return None
    shift = corner(boxes[0]) - corner(union)
    return Resolution("coalesce", box=tuple(union), offset_shift=shift)


def _own(view: DistributedViewModel, boxes, per_access: list[dict[int, int]],
         grid_rank: int) -> Resolution | None:
    parts = view.parts
    layout = _one_layout(view, boxes)
    if grid_rank != 1 or layout is None:
        return None
    _, offset, extents = layout
    corners: dict[int, tuple[int, ...]] = {}
    for owners in per_access:
        for tile, k in owners.items():
            if parts[k].memory.core != tile:
                return None
            corners[tile] = tuple(lo for lo, _ in boxes[k])
    if not corners:
        return None
    fit = []
    for d in range(view.rank):
        line = _linear_in_tile({t: c[d] for t, c in corners.items()})
        if line is None:
            return None
        fit.append(line)
    return Resolution("own", box=tuple((0, e) for e in extents), corner=tuple(fit),
                      offset=offset)


def _one_layout(view: DistributedViewModel, boxes) -> tuple | None:
    """(strides, offset, extents) when every part is in a named core's scratchpad with the
    same element type, strides, constant offset and box extents; else None."""
    parts = view.parts
    if any(p.memory.space != "ct_local" or p.memory.core is None for p in parts):
        return None
    first = parts[0]
    strides = _static(first)
    offset = first.values.of_expr(first.offset).constant
    extents = [hi - lo for lo, hi in boxes[0]]
    for part, box in zip(parts, boxes):
        if (_static(part) != strides or part.element_type != first.element_type
                or part.values.of_expr(part.offset).constant != offset
                or [hi - lo for lo, hi in box] != extents):
            return None
    if strides is None or offset is None:
        return None
    return strides, offset, extents


def _owners(model: KernelModel, view: DistributedViewModel, boxes, accesses,
            per_access: list[dict[int, int]]) -> Resolution | None:
    """`owners`: parts of one layout in named cores' scratchpads, each load or store
    reaching one part per tile, which differs between tiles (a consumer dividing the work
    otherwise than the producer, a tile storing into its neighbour's part): each access
    tile reads or stores through a view whose core is given per tile
    (`ktdf.owner_by_tile`), its base shifted by its tile's part corner, a * tile + b, or,
    where the parts are blocks of one extent along a dim, the block holding the base (the
    base then the same on every iteration of a tile)."""
    layout = _one_layout(view, boxes)
    if layout is None or len(model.grid) != 1:
        return None
    _, offset, extents = layout
    plans: dict[object, tuple] = {}
    for access, owners in zip(accesses, per_access):
        if access.kind not in ("load", "store") or not owners:
            return None
        fallback = view.parts[min(owners.values())].memory.core
        table = tuple(view.parts[owners[t]].memory.core if t in owners else fallback
                      for t in range(model.tile_count))
        corner = _corner(model, access, {t: boxes[k] for t, k in owners.items()}, extents)
        if corner is None:
            return None
        # a load and a store through one access tile share its plan
        if plans.setdefault(access.tile_op, (table, corner)) != (table, corner):
            return None
    return Resolution("owners", box=tuple((0, e) for e in extents), offset=offset,
                      owners=tuple((op, *plan) for op, plan in plans.items()))


def _linear_in_tile(values: dict[int, int]) -> tuple[int, int] | None:
    """(a, b) with values[t] = a * t + b for every tile t given, or None."""
    tiles = sorted(values)
    t0 = tiles[0]
    a = 0
    if len(tiles) > 1:
        step = values[tiles[1]] - values[t0]
        if step % (tiles[1] - t0):
            return None
        a = step // (tiles[1] - t0)
    b = values[t0] - a * t0
    return (a, b) if all(values[t] == a * t + b for t in tiles) else None


def _corner(model: KernelModel, access: AccessModel, part_box: dict[int, list],
            extents: list[int]) -> tuple[tuple, ...] | None:
    """Per dim, how the corner of tile t's part follows from t (see `_owners`)."""
    tiles = sorted(part_box)
    bases: dict[int, tuple[int, ...]] = {}
    specs = []
    for d in range(len(extents)):
        corners = {t: part_box[t][d][0] for t in tiles}
        line = _linear_in_tile(corners)
        if line is not None:
            specs.append(("linear", *line))
            continue
        if not bases:
            for t in tiles:
                try:
                    seen = {tuple(access._eval(access.base, env)) for env in
                            iterations(model.values, access.loops, model.default_env(t))}
                except UnsupportedError:
                    return None
                if len(seen) != 1:
                    return None  # the base moves with the loops: no per-tile block
                bases[t] = seen.pop()
        size, k0 = extents[d] + 1, min(corners.values())
        if any(corners[t] != k0 + (bases[t][d] - k0) // size * size for t in tiles):
            return None
        specs.append(("blocks", k0, size))
    return tuple(specs)


def resolve(model: KernelModel, op: ConstructDistributedMemoryViewOp) -> Resolution:
    """How `op` reads as a plain view (see the module docstring); raises Unresolved."""
    view = model.views.get(op.result)
    if not isinstance(view, DistributedViewModel) or len(view.parts) != len(op.views):
        raise Unresolved("not supported yet: a distributed view whose parts are not memory "
                         "views built in this kernel", op)
    accesses = accesses_through(model, op)
    if any(spans_parts(model, a) and (part_edges(model, a) is not None
                                      or copy_pieces(model, a) is not None
                                      or staged_cut(model, a) is not None) for a in accesses):
        # the normal form splits the loop first (`split-at-part-edges`), then resolves
        return Resolution("split")
    per_access = [_part_per_tile(model, a) for a in accesses]
    boxes = _boxes(view)
    if boxes is not None:
        found = _coalesced(view, boxes)
        if found is not None:
            return found
        found = _own(view, boxes, per_access, len(model.grid))
        if found is not None:
            return found
    used = {k for owners in per_access for k in owners.values()}
    if len(used) <= 1:
        # every tile reaches one part: that part's view (in another core's scratchpad, a
        # read or a store over the interconnect)
        return Resolution("part", part=min(used, default=0))
    found = _part_per_access(accesses, per_access)
    if found is not None:
        return found
    if boxes is not None:
        found = _owners(model, view, boxes, accesses, per_access)
        if found is not None:
            return found
    for access, owners in zip(accesses, per_access):
        for tile, k in sorted(owners.items()):
            memory = view.parts[k].memory
            if memory.space == "ct_local" and memory.core is not None and memory.core != tile:
                verb = "stores into" if access.kind == "store" else "reads from"
                raise Unresolved(
                    f"not supported yet: {verb} a part of a distributed view in "
                    "another core's scratchpad that differs per tile (tile "
                    f"{tile} reaches part {k}, in core {memory.core}'s scratchpad)", access.op)
    raise Unresolved("not supported yet: a distributed view whose tiles reach different "
                     "parts that do not form one view (parts "
                     f"{', '.join(map(str, sorted(used)))}{_layout_hint(view)})", op)


def _layout_hint(view: DistributedViewModel) -> str:
    """Why scratchpad parts do not read as one layout, when that is the reason."""
    parts = view.parts
    if not all(p.memory.space == "ct_local" and p.memory.core is not None for p in parts):
        return ""
    if any(p.values.of_expr(p.offset).constant is None for p in parts):
        return ("; its parts lie in cores' scratchpads at an offset that is not a constant, "
                "which a view per tile needs")
    return ""


def _part_per_access(accesses: list[AccessModel], per_access: list[dict[int, int]]
                     ) -> Resolution | None:
    """`access`: each access tile reaches one part on every tile (parts differing between
    access tiles, e.g. a loop split at a part's edge), so each reads that part's view."""
    chosen: dict[object, int] = {}
    for access, owners in zip(accesses, per_access):
        parts = set(owners.values())
        if len(parts) > 1:
            return None
        k = min(parts, default=None)
        if k is not None and chosen.setdefault(access.tile_op, k) != k:
            return None
        chosen.setdefault(access.tile_op, 0)  # reaches nothing: any part will do
    return Resolution("access", tile_parts=tuple(chosen.items()))
