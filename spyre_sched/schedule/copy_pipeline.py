"""A plain copy (a loaded tile stored as it is) as a pipeline of DMA transfers only.

`naive-pipeline` calls this for every `ktdp.store` of a `ktdp.load`'s value: nothing
computes on the data, so it never goes near a compute unit. It moves over the device's
route from the tile's home memory to the destination's, every hop a stage run by the
unit that performs it, and every memory the route passes through holding a staging
buffer:

```
%T0 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d0", ...}
%T1 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d1", ...}
scf.for %t0 = 0 to 2 step %T0 { %n0 = derive_size ...
  scf.for %t1 = 0 to 256 step %T1 { %n1 = derive_size ...
    ktdf.pipeline {ktdf.copy = "p0"} {
      private: buffer {role = "output", operand = "Y"} : memref<?x?xf16, "LX">
      stage [dma]: X[row + t0, t1] size [n0, n1] -> buffer[0, 0]
      stage [dma]: buffer[0, 0] size [n0, n1] -> Y[row + t0, t1] } } }
```

Device memory to the same device memory (the usual case: both views in `global`) has no
route of its own (the source is the target); it goes through the core's scratchpad
(`ct_local`), as a unit that can move data between device memory and a core does it.
The tiles are decisions like any pipeline's, the pipeline's buffer copies too
(`open-decisions` opens its modulo); the innermost dim's tile is a whole number of the
route's transfer granules (capped by the extent). There is no instance split: DMA units
belong to the core, not to its corelets.

Not supported (an error at the store): a copy from the scratchpad into itself (the
device has no unit that moves data from a memory to the same memory), a route through a
FIFO (a unit that does not land the data in a memory).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    MemRefType,
    StringAttr,
    TensorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.dialects import arith

from spyre_sched.device import Device, Hop, find_route
from spyre_sched.dialects import ktdf, ktdp
from spyre_sched.schedule.common import (
    element_bytes,
    fail,
    hop_from_core,
    hop_to_core,
    index_constant,
    memory_instance,
    remote_core,
    stored_core,
)
from spyre_sched.schedule.ir_build import for_loop, pipeline

#: marks a DMA-only pipeline (the value is its decision-name prefix, as `ktdf.compute`
#: is a compute pipeline's)
COPY_ATTR = "ktdf.copy"


@dataclass
class CopyEnd:
    """One side of a copy: the kernel view and the coordinates of the tile's first
    point in it (per view dim)."""

    memref: SSAValue
    memory_kind: str
    base: list[SSAValue]
    name: str


def copy_route(device: Device, store: ktdp.StoreOp, source_view: SSAValue, source_kind: str,
               dest_view: SSAValue, dest_kind: str, pass_name: str) -> tuple[Hop, ...]:
    """The hops from the source's memory to the destination's, through the scratchpad
    when both are the same device memory; from another core's scratchpad, first over
    the interconnect into this core's; into another core's that other cores store into
    (`stored_core`), last over the interconnect from this core's."""
    scratch = device.scratchpad(0).name
    owner = remote_core(source_view)
    into = stored_core(dest_view)
    if owner is not None:
        first: tuple[Hop, ...] = (hop_from_core(device, owner, store, pass_name),)
        source = scratch
    else:
        first, source = (), memory_instance(device, source_kind, pass_name)
    if into is not None:
        last: tuple[Hop, ...] = (hop_to_core(device, into, store, pass_name),)
        dest = scratch
    else:
        last, dest = (), memory_instance(device, dest_kind, pass_name)
    if source != dest:
        middle = find_route(device, source, dest).hops
    elif first or last:
        middle = ()
    else:
        if scratch == source:
            raise fail(store, pass_name, "not supported yet: a plain copy from the "
                       "scratchpad into the scratchpad (no unit of the device moves data "
                       "from a memory into the same memory without a compute unit)")
        middle = (*find_route(device, source, scratch).hops,
                  *find_route(device, scratch, dest).hops)
    hops = (*first, *middle, *last)
    _memory_to_memory(store, hops, device, pass_name)
    return hops


def _memory_to_memory(store: ktdp.StoreOp, hops: tuple[Hop, ...], device: Device,
                      pass_name: str) -> None:
    for hop in hops:
        if hop.lands_in not in device.memories:
            raise fail(store, pass_name, f"not supported yet: a plain copy whose route "
                       f"passes through the FIFO of {hop.lands_in} (only memory-to-memory "
                       f"transfers are scheduled without a compute)")


def build_copy(prefix: str, store: ktdp.StoreOp, source: CopyEnd, dest: CopyEnd,
               device: Device, pass_name: str) -> list[Operation]:
    """Tile loops around the DMA-only pipeline copying the stored tensor."""
    ttype = store.value.type
    assert isinstance(ttype, TensorType)
    shape = list(ttype.get_shape())
    element: Attribute = ttype.element_type
    rank = len(shape)
    hops = copy_route(device, store, source.memref, source.memory_kind, dest.memref,
                      dest.memory_kind, pass_name)
    if not hops:
        raise fail(store, pass_name, "not supported yet: a plain copy whose source and "
                   "destination are the same memory")
    kinds = [device.memories[h.lands_in].kind for h in hops[:-1]]
    level = (kinds[0] if kinds else
             dest.memory_kind if dest.memory_kind != device.memory_kind_for("global")
             else source.memory_kind).lower()
    granule = max(h.transfer_granularity or 1 for h in hops)
    stick_step = max(1, min(shape[-1], -(-granule // element_bytes(element))))

    consts: dict[int, SSAValue] = {}
    top: list[Operation] = []

    def const(value: int) -> SSAValue:
        if value not in consts:
            op = index_constant(value)
            op.result.name_hint = f"c{value}"
            top.append(op)
            consts[value] = op.result
        return consts[value]

    reserves = []
    for d, extent in enumerate(shape):
        low = stick_step if d == rank - 1 else 1
        reserve = ktdf.ReserveSizeOp(f"{prefix}.tile.{level}.d{d}", extent, low, low)
        reserve.result.name_hint = f"T{d}"
        reserves.append(reserve)
    identity = AffineMapAttr(AffineMap.identity(rank))
    tile_dims: list[str | int] = [r.decision.data for r in reserves]

    def nest(d: int, tiles: list[SSAValue], sizes: list[SSAValue]) -> list[Operation]:
        if d == rank:
            return [_pipeline(prefix, hops, kinds, source, dest, identity, tile_dims,
                              element, device, tiles, sizes)]

        def body(iv: SSAValue) -> Sequence[Operation]:
            iv.name_hint = f"t{d}"
            size = ktdf.DeriveSizeOp(iv, reserves[d].result, const(shape[d]))
            size.result.name_hint = f"n{d}"
            return [size, *nest(d + 1, [*tiles, iv], [*sizes, size.result])]

        return [for_loop(const(0), const(shape[d]), reserves[d].result, d, False, body)]

    for extent in shape:
        const(extent)
    loops = nest(0, [], [])
    return [*top, *reserves, *loops]


def _pipeline(prefix: str, hops: tuple[Hop, ...], kinds: list[str], source: CopyEnd,
              dest: CopyEnd, identity: AffineMapAttr, tile_dims: list[str | int],
              element: Attribute, device: Device, tiles: list[SSAValue],
              sizes: list[SSAValue]) -> ktdf.PipelineOp:
    rank = len(tiles)
    buffers = [ktdf.BufferOp("output", dest.name, identity, tile_dims,
                             MemRefType(element, [DYNAMIC_INDEX] * rank,
                                        memory_space=StringAttr(kind)))
               for kind in kinds]
    zeros = [0] * rank

    def at(end: CopyEnd, ops: list[Operation]) -> list[SSAValue]:
        subs = []
        for base, tile in zip(end.base, tiles):
            add = arith.AddiOp(base, tile)
            ops.append(add)
            subs.append(add.result)
        return subs

    bodies: list[tuple[list[str], list[Operation]]] = []
    for k, hop in enumerate(hops):
        ops: list[Operation] = []
        if k == 0:
            src, src_at = source.memref, at(source, ops)
        else:
            src, src_at = buffers[k - 1].result, zeros
        if k == len(hops) - 1:
            dst, dst_at = dest.memref, at(dest, ops)
        else:
            dst, dst_at = buffers[k].result, zeros
        ops.append(ktdf.DataTransferOp(src, src_at, list(sizes), dst, dst_at, list(sizes)))
        bodies.append(([device.units[hop.unit].kind], ops))
    return pipeline(buffers, bodies, {COPY_ATTR: StringAttr(prefix)})
