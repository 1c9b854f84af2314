"""Normal-form pass `split-at-part-edges`: a loop whose access through a distributed view
reaches one part per iteration, but different parts over its iterations, is split into
consecutive loops at the iterations where the part changes.

A copy loop over a tensor whose halves are two arrays (`scf.for %off = 0 to 2*s step 32`
over columns held by `%A0` below `s` and by `%A1` from `s` on) reads one part per
iteration, but the access as written reaches both, so no one view can replace the
distributed view for it. Split at `s`, each loop's copy of the access reaches one part,
and `resolve-distributed-views` gives each its part's view (its `access` resolution). The
loops keep the step and the body; values the loop carries pass from each loop to the next,
so the iterations run in the same order with the same values. Only loops with constant
bounds are split, when every iteration's access reaches at most one part on every tile
(`polyhedral.distributed.part_edges`).

A copy whose one tile straddles parts (rows 32..95 of a tensor whose rows 0..63 and
64..127 are two arrays, loaded and only stored) is split likewise, along the one dim whose
part ranges are disjoint: the load becomes one load per part over its rows of the tile,
and each store of it one store of each piece at the same rows of its own tile. The tile
must be a box that every tile and loop iteration where it straddles cuts at the same
place of the tile (its position may depend on both: a copy loop over tiles that each
straddle two arrays at their middle is cut there, then split where the pieces change
array). The straddling tile may be the copy's load or its store.

A straddling box tile that compute reads, or that a computed value is stored through,
would need its pieces joined into one tensor (or split out of one); instead it goes
through a slot of the executing tile's own scratchpad, in the tile's shape: the loaded
tile is stored into the slot as it is and the compute reads the slot, or the value is
stored into the slot and copied from there to the tile. The copy is then cut as above.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import AffineMapAttr, AffineSetAttr, ModuleOp, TensorType
from xdsl.ir import Operation
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from spyre_sched.dialects import ktdp
from spyre_sched.normalize.common import box_set, kernel_of, note_origin
from spyre_sched.normalize.scratchpad_slots import aligned, pinned_end, scratchpad_slot
from spyre_sched.polyhedral.accesses import AccessModel
from spyre_sched.polyhedral.distributed import (
    copy_pieces,
    part_edges,
    spans_parts,
    staged_cut,
)
from spyre_sched.polyhedral.kernel_model import KernelModel
from spyre_sched.polyhedral.point_sets import box_bounds
from spyre_sched.schedule.common import index_constant

NAME = "split-at-part-edges"

def _split(loop: Operation, edges: list[int]) -> None:
    """`loop` -> one loop per run: [lb, e1), [e1, e2), ..., [ek, ub), chained through
    the values it carries."""
    at = InsertPoint.before(loop)
    bounds = [loop.operands[0]]
    for edge in edges:
        constant = index_constant(edge)
        constant.result.name_hint = f"c{edge}"
        note_origin([constant], loop)
        Rewriter.insert_op(constant, at)
        bounds.append(constant.result)
    bounds.append(loop.operands[1])
    carried = list(loop.operands[3:])
    last = None
    for lower, upper in zip(bounds, bounds[1:]):
        piece = loop.clone()
        piece.operands = [lower, upper, loop.operands[2], *carried]
        note_origin([piece], loop)
        Rewriter.insert_op(piece, at)
        carried = list(piece.results)
        last = piece
    assert last is not None
    for old, new in zip(loop.results, last.results):
        old.replace_by(new)
    Rewriter.erase_op(loop)


def _tile_piece(op: ktdp.ConstructAccessTileOp, dim: int, first: int, last: int
                ) -> ktdp.ConstructAccessTileOp:
    """`op`'s tile cut to its rows first..last along `dim`, at the same place."""
    old = op.base_map.data
    results = list(old.results)
    results[dim] = results[dim] + first
    box = box_bounds(op.access_tile_set.data, [])
    assert box is not None
    box[dim] = (0, last - first)
    shape = [hi + 1 for _, hi in box]
    return ktdp.ConstructAccessTileOp.build(
        operands=[op.view, list(op.indices), []],
        properties={**op.properties,
                    "base_map": AffineMapAttr(AffineMap(old.num_dims, old.num_symbols,
                                                        tuple(results))),
                    "access_tile_set": AffineSetAttr(box_set(box))},
        attributes=dict(op.attributes),
        result_types=[ktdp.AccessTileType(shape)],
    )


def _split_copy(access: AccessModel, dim: int, ranges: list[tuple[int, int]]) -> None:
    load = access.op
    tile = access.tile_op
    assert isinstance(tile, ktdp.ConstructAccessTileOp)
    stores = [use.operation for use in load.result.uses]
    element = load.result.type.element_type
    loaded = []
    for k, (first, last) in enumerate(ranges):
        piece = _tile_piece(tile, dim, first, last)
        new_load = ktdp.LoadOp.build(
            operands=[piece.result],
            result_types=[TensorType(element, piece.result.type.get_shape())])
        piece.result.name_hint = f"{tile.result.name_hint or 'tile'}_{k}"
        new_load.result.name_hint = f"{load.result.name_hint or 'loaded'}_{k}"
        note_origin([piece, new_load], load)
        Rewriter.insert_op([piece, new_load], InsertPoint.before(load))
        loaded.append(new_load)
    for store in stores:
        target = store.operands[1].owner
        assert isinstance(target, ktdp.ConstructAccessTileOp)
        for k, ((first, last), new_load) in enumerate(zip(ranges, loaded)):
            piece = _tile_piece(target, dim, first, last)
            piece.result.name_hint = f"{target.result.name_hint or 'tile'}_{k}"
            new_store = ktdp.StoreOp.build(operands=[new_load.result, piece.result])
            note_origin([piece, new_store], store)
            Rewriter.insert_op([piece, new_store], InsertPoint.before(store))
        Rewriter.erase_op(store)
        if not target.result.uses:
            Rewriter.erase_op(target)
    Rewriter.erase_op(load)
    if not tile.result.uses:
        Rewriter.erase_op(tile)


def _stage(fn, access: AccessModel) -> None:
    """Route the tile through a slot of the executing tile's own scratchpad: a loaded
    tile is stored there as it is and compute reads the slot; a computed value is stored
    there and copied from it to the tile. The copy is then cut at the parts' edges."""
    op = access.op
    loading = access.kind == "load"
    value = op.result if loading else op.operands[0]
    readers = list(value.uses)
    slot = scratchpad_slot(fn, aligned(pinned_end(fn)), value.type, ())
    into = ktdp.StoreOp.build(operands=[value, slot.own])
    staged = ktdp.LoadOp.build(operands=[slot.own], result_types=[value.type])
    note_origin([into, staged], op)
    if loading:
        staged.result.name_hint = value.name_hint
        Rewriter.insert_op([into, staged], InsertPoint.after(op))
        for use in readers:
            use.operation.operands[use.index] = staged.result
    else:
        Rewriter.insert_op([into, staged], InsertPoint.before(op))
        op.operands[0] = staged.result


@dataclass(frozen=True)
class SplitAtPartEdges(ModulePass):
    """Split loops at the iterations where an access through a distributed view moves from
    one part to the next."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in kernel_of(op):
            if not any(isinstance(o, ktdp.ConstructDistributedMemoryViewOp) for o in fn.walk()):
                continue
            for _ in range(64):  # one split per round: the model is rebuilt after each
                model = KernelModel(fn)
                found = None
                for access in model.accesses:
                    if not spans_parts(model, access):
                        continue
                    edges = part_edges(model, access)
                    if edges is not None:
                        found = (_split, edges)
                        break
                    cut = copy_pieces(model, access)
                    if cut is not None:
                        found = (_split_copy, cut)
                        break
                    if staged_cut(model, access) is not None:
                        found = (_stage, (fn, access))
                        break
                if found is None:
                    break
                rewrite, args = found
                rewrite(*args)
