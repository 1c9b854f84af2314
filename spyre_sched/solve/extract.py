"""ScheduleIR -> the solver's plain data (`Problem`). Every decision op is a decision,
open or already solved (a solved input is solved again; the write-back overwrites it).

Reads only the IR and the device it names (docs/scheduleir.md):

- decisions: `ktdf.tiling.reserve_size` (tile), `ktdf.pipeline modulo(size: ?)` (modulo),
  `ktdf.parallel ... distribute(num_instances = ?)` (distribute), with their legal
  candidates (section "Candidates" of docs/solver.md);
- per program, its pipelines as the cost model sees them: iterations from the loops
  around each pipeline (tile loops, distributed point loops), stages with the transfers
  they make (bytes from the transfer's box, timing from the device's route hop performed
  by the stage's unit kind) and the compute they run (elements, operations, lanes);
- scratchpad buffers with their footprint per candidate combination, counted by the
  polyhedral layer (`tile_image.image_size` of the buffer's access map over the tile);
- FIFO slots a transfer fills, accumulators kept in the register file, instance groups.

Index values (loop bounds, sizes) are evaluated as functions of the decisions: constants,
`reserve_size`, `derive_size` (a full tile: buffers and per-iteration costs are sized
for the largest tile, except a tile loop's transfers, counted at their mean over the
loop's iterations, `_tile_loop`, and the loops bounded by a tile, counted at their mean
trip count, `_mean_trip`), and `arith` integer ops; anything else is reported with the
op.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from fractions import Fraction
from math import floor, prod

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import (
    DenseArrayBase,
    DictionaryAttr,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    StringAttr,
    TensorType,
)
from xdsl.dialects.func import CallOp, FuncOp
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.ir.affine import AffineMap

from spyre_sched.device import load_device
from spyre_sched.device.model import Device, natural_key
from spyre_sched.device.routing import (
    farthest_reader,
    find_route,
    interconnect_hop,
    interconnect_pusher,
    interconnect_issuer,
)
from spyre_sched.dialects import ktdf
from spyre_sched.dialects.linalg_matmul import matmul_dims
from spyre_sched.errors import DeviceError, UnsupportedError
from spyre_sched.polyhedral.tile_image import image_size, projected_dims
from spyre_sched.polyhedral.views import element_bytes
from spyre_sched.solve.problem import (
    MEAN_SCALE,
    Buffer,
    Candidate,
    Compute,
    Decision,
    FifoSplit,
    FifoUse,
    InstanceLimit,
    PinnedRegion,
    Pipeline,
    Problem,
    Program,
    Quantity,
    RegisterUse,
    Stage,
    Transfer,
    through_shared_memory,
)
from spyre_sched.solve.running_tiles import running_tiles

KEEP_ATTR = "ktdf.keep"
KEEP_ROLE_ATTR = "ktdf.keep_role"
"""Marks of a keep choice (`spyre_sched.schedule.keep_resident` writes them; the solver
does not import the scheduler)."""
SHARE_ATTR = "ktdf.share"
SHARE_ROLE_ATTR = "ktdf.share_role"
"""Marks of a fetch-once choice (`spyre_sched.schedule.share_fetch` writes them)."""
DEVICE_ATTR = "ktdf.device"
PINNED_ATTR = "ktdf.pinned_bytes"
REGIONS_ATTR = "ktdf.resident_regions"
"""On every program a cross-program keep spans: decision -> bytes of its region."""
MAX_MODULO = 8
"""Largest modulo offered: enough copies to hide a transfer's latency behind the
bandwidth-bound part for any tile of the shipped devices (docs/solver.md)."""

Values = dict[str, int]
"""Decision name -> candidate value."""


class ExtractError(UnsupportedError):
    """ScheduleIR the solver cannot read (names the op)."""


def _fail(op: Operation | None, message: str) -> ExtractError:
    where = f"op {op.name} in pass solve" if op is not None else "pass solve"
    return ExtractError(message, where)


@dataclass
class Extraction:
    problem: Problem
    module: ModuleOp
    device: Device
    ops: dict[str, Operation]
    """Decision name -> the op carrying it (for write-back)."""


# ---- index expressions as functions of the decisions -----------------------------------


@dataclass(frozen=True)
class Expr:
    scope: frozenset[str]
    fn: Callable[[Values], int]

    def __call__(self, values: Values) -> int:
        return self.fn(values)


def _const(v: int) -> Expr:
    return Expr(frozenset(), lambda _: v)


class _Fractional(Exception):
    """A count that is not a whole number (`_ProgramReader._whole_quantity`)."""


def _enclosing(op: Operation) -> Operation | None:
    """The stage or function around `op`."""
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, ktdf.StageOp | FuncOp):
        parent = parent.parent_op()
    return parent


def _round(x) -> int:
    """`x` (an int or a Fraction) to the nearest int, halves up."""
    return x if isinstance(x, int) else floor(x + Fraction(1, 2))


def _rounded(expr: Expr) -> Expr:
    """`expr` to the nearest int: work counted over a mean number of iterations
    (`_stage_ops`), rounded once; a mean count as whole iterations (instructions,
    dependent steps)."""
    return Expr(expr.scope, lambda v: _round(expr(v)))


class _Evaluator:
    """Index SSA values of one program as `Expr`s over its decisions."""

    BINARY = {
        "arith.addi": lambda a, b: a + b, "arith.subi": lambda a, b: a - b,
        "arith.muli": lambda a, b: a * b, "arith.divui": lambda a, b: a // b,
        "arith.divsi": lambda a, b: int(a / b), "arith.floordivsi": lambda a, b: a // b,
        "arith.ceildivui": lambda a, b: -(-a // b), "arith.ceildivsi": lambda a, b: -(-a // b),
        "arith.remui": lambda a, b: a % b, "arith.remsi": lambda a, b: a % b,
        "arith.minui": min, "arith.minsi": min, "arith.maxui": max, "arith.maxsi": max,
    }

    def __init__(self):
        self.cache: dict[SSAValue, Expr] = {}

    def __call__(self, value: SSAValue, user: Operation | None = None) -> Expr:
        """`value` as an Expr; `user` (the op reading it) is named if it cannot be."""
        if value not in self.cache:
            try:
                self.cache[value] = self._expr(value)
            except ExtractError as err:
                if user is None or not isinstance(value, BlockArgument):
                    raise
                raise _fail(user, err.message) from None
        return self.cache[value]

    def _expr(self, value: SSAValue) -> Expr:
        if isinstance(value, BlockArgument):
            raise _fail(value.owner.parent_op() if value.owner else None,
                        "a loop bound or transfer size depends on a loop index or an argument; "
                        "the solver needs it as a function of the tile decisions")
        op = value.owner
        if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
            return _const(op.value.value.data)
        if isinstance(op, ktdf.ReserveSizeOp):
            name = op.decision.data
            return Expr(frozenset([name]), lambda v, name=name: v[name])
        if isinstance(op, ktdf.DeriveSizeOp):
            size, upper = self(op.size), self(op.upper_bound)
            # the full (first) tile: min(size, upper bound - 0)
            return Expr(size.scope | upper.scope, lambda v: min(size(v), upper(v)))
        if op.name in self.BINARY:
            a, b = self(op.operands[0]), self(op.operands[1])
            f = self.BINARY[op.name]
            return Expr(a.scope | b.scope, lambda v: f(a(v), b(v)))
        if isinstance(op, arith.IndexCastOp):
            return self(op.input)
        raise _fail(op, "the solver cannot evaluate this index value as a function of the "
                        "decisions")


def _trip(lo: Expr, hi: Expr, step: Expr) -> Expr:
    return Expr(lo.scope | hi.scope | step.scope,
                lambda v: max(0, -(-(hi(v) - lo(v)) // max(1, step(v)))))


# ---- the device ------------------------------------------------------------------------


class _Hardware:
    def __init__(self, device: Device, sharers: int, tiles: int = 1,
                 running: tuple[int, ...] | None = None):
        self.device = device
        self.sharers = sharers
        self.tiles = tiles
        self._owner_hops: dict[tuple[tuple[int, ...], bool], list] = {}
        # the cores that run the program (a call guarded on the tile id runs on fewer)
        self.running = tuple(t for t in (range(tiles) if running is None else running)
                             if t < device.num_cores)
        self.core = device.core(0)
        corelets = device.corelets(self.core)
        self.corelet = corelets[0] if corelets else None
        self._units: dict[str, str] = {}  # (every program asks again: looked up once)
        self._routes: dict[tuple[str, str], object] = {}

    def granularity(self, kind: str) -> int:
        """The access granularity of this core's memory of `kind`: the lowering aligns
        every buffer copy to it."""
        memories = self.device.memories_of_kind(kind, self.core) or \
            self.device.memories_of_kind(kind)
        return self.device.access_granularity(memories[0].name) if memories else 1

    def unit_of_kind(self, kind: str, near: Operation | None = None) -> str:
        found = self._units.get(kind)
        if found is None:
            found = self._units[kind] = self._unit_of_kind(kind, near)
        return found

    def route(self, source: str, target: str):
        found = self._routes.get((source, target))
        if found is None:
            found = self._routes[(source, target)] = find_route(self.device, source, target)
        return found

    def _unit_of_kind(self, kind: str, near: Operation | None) -> str:
        names = sorted((u.name for u in self.device.units.values() if u.kind == kind
                        and self.device.core_of(u.name) == self.core), key=natural_key)
        inside = [n for n in names if self.corelet is not None
                  and n.startswith(self.corelet.name + ".")]
        if not names:
            raise _fail(near, f"device {self.device.name} has no unit of kind '{kind}' in "
                              f"{self.core.name}")
        return (inside or names)[0]

    def memory_of_kind(self, kind: str, near: Operation | None = None) -> str:
        found = self.device.memories_of_kind(kind, self.core) or \
            self.device.memories_of_kind(kind)
        if not found:
            raise _fail(near, f"device {self.device.name} has no memory of kind '{kind}'")
        return found[0].name

    def endpoint(self, value: SSAValue, near: Operation) -> tuple[str, str | None]:
        """(node name, FIFO performer kind or None) for one side of a transfer."""
        t = value.type
        if isinstance(t, ktdf.FifoSlotType):
            return "", None
        owner = value.owner
        if isinstance(t, MemRefType) and isinstance(t.memory_space, StringAttr):
            return self.memory_of_kind(t.memory_space.data, near), None
        if isinstance(owner, Operation) and owner.name == "ktdf.gather_view":
            owner = owner.operands[0].owner  # rows of the view it gathers from
        if isinstance(owner, Operation) and owner.name == "ktdp.construct_memory_view":
            space = owner.properties.get("memory_space") or owner.attributes.get("memory_space")
            if getattr(space, "space", None) == "ct_local" \
                    and getattr(space, "tile", None) is not None:
                return self.device.scratchpad(int(space.tile)).name, None
            text = str(space)
            if "ct_local" in text or "LX" in text:
                return self.device.scratchpad(self.core).name, None
            return self.device.device_memory().name, None
        raise _fail(near, "a transfer side is neither a kernel view, a buffer nor a FIFO")

    def hop(self, op: ktdf.DataTransferOp, kinds: list[str]):
        src_t, dst_t = op.source.type, op.dest.type
        if isinstance(dst_t, ktdf.FifoSlotType):
            src, _ = self.endpoint(op.source, op)
            performer = dst_t.source.data
            target = self.unit_of_kind(dst_t.dest.data, op)
            route = self.route(src, target)
        elif isinstance(src_t, ktdf.FifoSlotType):
            dst, _ = self.endpoint(op.dest, op)
            performer = src_t.dest.data
            source = self.unit_of_kind(src_t.source.data, op)
            route = self.route(source, dst)
        else:
            owners = view_owners(op.source)
            if owners is not None:
                return [self._per_core_interconnect(owners)]
            owners = view_owners(op.dest)
            if owners is not None:
                return [self._per_core_interconnect(owners, push=True)]
            src, _ = self.endpoint(op.source, op)
            dst, _ = self.endpoint(op.dest, op)
            performer = None
            owner = self.device.core_of(src)
            own = self.device.scratchpad(self.core).name
            if src == dst == own and _names_a_core(op.source):
                return [self._interconnect(src)]
            if _names_a_core(op.dest) and not _names_a_core(op.source) and src == own:
                return [self._push(dst)]
            if src == dst == own:
                # a copy within the executing core's own scratchpad: through its DMA
                # engine's datapath, no ring link (as `interconnect_hop` and the emulator
                # move it); a view naming core 0 is read by every other tile over the ring
                return [interconnect_hop(self.device, own, own,
                                         interconnect_issuer(self.device, 0))]
            if owner is not None and src == self.device.scratchpad(owner).name \
                    and owner != self.core and dst == own:
                return [self._interconnect(src)]
            route = self.route(src, dst)
        wanted = {performer} if performer else set(kinds)
        hops = [h for h in route.hops if self.device.units[h.unit].kind in wanted]
        if not hops:
            hops = list(route.hops)
        if not hops:
            raise _fail(op, "the transfer's route has no hop (source and destination coincide)")
        return hops

    def _interconnect(self, source: str):
        """A read of another core's scratchpad `source`, priced for the tile the owner
        reaches slowest (`farthest_reader`): one hop over the interconnect."""
        owner = self.device.cores.index(self.device.core_of(source))
        reader = farthest_reader(self.device, owner, self.running or (0,))
        return interconnect_hop(self.device, source, self.device.scratchpad(reader).name,
                                interconnect_issuer(self.device, reader))

    def _push(self, target: str):
        """A store into core scratchpad `target` from the storing tile's own, priced for
        the tile farthest from it (the ring is the same both ways): one hop over the
        interconnect."""
        owner = self.device.cores.index(self.device.core_of(target))
        writer = farthest_reader(self.device, owner, self.running or (0,))
        return interconnect_hop(self.device, self.device.scratchpad(writer).name, target,
                                interconnect_pusher(self.device, writer))

    def _owner_hops_of(self, owners: list[int], push: bool = False) -> list:
        """Each tile's move over the interconnect from its owner's scratchpad (a view
        naming its owner per tile, `ktdf.owner_by_tile`), or into it (`push`: a store,
        issued by the storing tile)."""
        key = (tuple(owners), push)
        found = self._owner_hops.get(key)
        if found is None:
            found = []
            for tile in (t for t in self.running if t < len(owners)):
                own, theirs = (self.device.scratchpad(tile).name,
                               self.device.scratchpad(owners[tile]).name)
                found.append(interconnect_hop(self.device, own, theirs,
                                              interconnect_pusher(self.device, tile))
                             if push else
                             interconnect_hop(self.device, theirs, own,
                                              interconnect_issuer(self.device, tile)))
            self._owner_hops[key] = found
        return found

    def _per_core_interconnect(self, owners: list[int], push: bool = False):
        """The slowest of the tiles' reads of (stores into) their owners (all the same
        size)."""
        hops = self._owner_hops_of(owners, push)
        return max(hops, key=lambda h: (h.latency, -h.bandwidth))

    def _ring_links(self, owners: list[int], push: bool = False) -> list[list]:
        """Per running tile (in their order), the ring links its read of (store into) its
        owner holds."""
        units = self.device.units
        return [[dp for dp in hop.datapaths
                 if dp.source in units and units[dp.source].is_switch
                 and dp.target in units and units[dp.target].is_switch]
                for hop in self._owner_hops_of(owners, push)]

    def per_core_ring_shared(self, owners: list[int],
                             before: tuple[tuple[int, ...], ...] = (),
                             push: bool = False) -> tuple[int, int, str] | None:
        """For a read of a per-tile owner, every tile's at once: (bandwidth, sharers, name)
        of the ring links as the device serves them, None when no read crosses a link.
        Each read holds every link on its way, and the reads are granted in the order they
        are asked for, a cycle's in the tiles' order, each from the cycle the last of its
        links is free (emulator.device.sim, `SharedResource`): reads whose paths overlap
        one after another form a chain. `before` are the owner tables of the reads each
        tile's unit issues before this one in the same stage (each asked for as the one
        before it ends; all of one size). The reads are replayed in units of one read's
        time, and `sharers` is what this read adds to the slowest tile's finish: the
        longest chain for a stage's only read (the busiest link's reads where no two paths
        overlap but on one link; the whole ring where each path overlaps the next tile's),
        one for a read in the other direction after such a chain, which runs beside it."""
        sequence = [self._ring_links(list(o), push) for o in before] \
            + [self._ring_links(owners, push)]
        if not any(sequence[-1]):
            return None
        tiles = len(sequence[-1])
        free: dict[tuple[str, str], int] = {}
        finish = [[0] * tiles for _ in sequence]
        pending = [(0, tile, 0) for tile in range(tiles)]  # (asked at, tile, read)
        while pending:
            pending.sort()
            at, tile, k = pending.pop(0)
            links = sequence[k][tile]
            start = max([at, *(free.get((dp.source, dp.target), 0) for dp in links)])
            end = start + 1 if links else at
            for dp in links:
                free[(dp.source, dp.target)] = end
            finish[k][tile] = end
            if k + 1 < len(sequence):
                pending.append((end, tile, k + 1))
        last = max(finish[-1])
        earlier = max(finish[-2]) if len(sequence) > 1 else 0
        narrowest = min(dp.bandwidth for links in sequence[-1] for dp in links)
        return narrowest, max(1, last - earlier), "ring links"

    def ring_shared(self, hop) -> tuple[int, int, str] | None:
        """For a read over the interconnect: (bandwidth, sharers, name) of the links
        leaving the owner's switch stop, which every other tile's read of the same
        scratchpad crosses; None for any other hop."""
        links = [dp for dp in hop.datapaths if dp.source in self.device.units
                 and self.device.units[dp.source].is_switch]
        if not links:
            return None
        stop = links[0].source
        out = [dp for dp in self.device.outgoing(stop) if dp.target in self.device.units
               and self.device.units[dp.target].is_switch]
        readers = max(1, len(self.running) - 1)
        return sum(dp.bandwidth for dp in out), readers, f"{stop} links"

    def shared(self, hop) -> tuple[int | None, str]:
        """(total bandwidth, name) of a memory at either end of the hop that all cores
        share, or (None, "")."""
        for end in (hop.source, hop.lands_in):
            memory = self.device.memories.get(end)
            if memory is not None and memory.bandwidth is not None and not memory.group:
                return memory.bandwidth, memory.name
        return None, ""


def _names_a_core(value: SSAValue) -> bool:
    """Whether a memory side is a view naming a core's scratchpad (`ct_id`)."""
    owner = value.owner
    if isinstance(owner, Operation) and owner.name == "ktdf.gather_view":
        owner = owner.operands[0].owner
    if isinstance(owner, Operation) and owner.name == "ktdp.construct_memory_view":
        space = owner.properties.get("memory_space") or owner.attributes.get("memory_space")
        return getattr(space, "tile", None) is not None
    return False


def view_owners(value: SSAValue) -> list[int] | None:
    """The owner per reading tile of a view of other cores' scratchpads
    (`ktdf.owner_by_tile`), or None."""
    owner = value.owner
    if isinstance(owner, Operation) and owner.name == "ktdp.construct_memory_view":
        attr = owner.attributes.get(ktdf.OWNER_BY_TILE_ATTR)
        if isinstance(attr, DenseArrayBase):
            return [int(v) for v in attr.get_values()]
    return None


# ---- decisions --------------------------------------------------------------------------


def _tile_candidates(op: ktdf.ReserveSizeOp, limit: int | None) -> tuple[list[int], str]:
    """Legal tile values, keeping for each tile count only its smallest tile (a larger
    tile with the same count costs more scratchpad and no fewer iterations)."""
    extent = op.extent.value.data
    legal = sorted(v for v in op.legal_values() if limit is None or v <= limit)
    # the count ceil(extent / v) never grows with v: a smaller tile with the same count,
    # if any, is the next smaller legal one (linear, not a pairwise comparison)
    kept = [v for k, v in enumerate(legal)
            if k == 0 or -(-extent // legal[k - 1]) != -(-extent // v)]
    rule = (f"min_value {op.min_value.value.data} <= v <= extent {extent}, multiple of "
            f"{op.divisibility.value.data} or the whole extent; of tiles giving the same tile "
            f"count only the smallest is kept ({len(legal)} legal, {len(kept)} kept)")
    return kept, rule


def _decisions(func: FuncOp, index: int) -> tuple[list[Decision], dict[str, Operation],
                                                  list[InstanceLimit]]:
    decisions: list[Decision] = []
    ops: dict[str, Operation] = {}
    groups: dict[tuple[int, str], list[str]] = {}
    for op in func.walk():
        if isinstance(op, ktdf.ReserveSizeOp):
            name = op.decision.data
            within = outer_name = None
            if op.within is not None:
                outer = ops.get(op.within.data)
                if isinstance(outer, ktdf.ReserveSizeOp):
                    within = outer.extent.value.data
                    outer_name = op.within.data
            values, rule = _tile_candidates(op, within)
            decisions.append(Decision(
                name, "tile", index, tuple(Candidate(v) for v in values),
                source=f"ktdf.tiling.reserve_size (extent {op.extent.value.data}, min_value "
                       f"{op.min_value.value.data}, divisibility {op.divisibility.value.data})",
                extent=op.extent.value.data, step=op.divisibility.value.data, rule=rule,
                within=outer_name))
            ops[name] = op
        elif isinstance(op, ktdf.PipelineOp) and _has_modulo_decision(op):
            name = op.decision.data
            buffers = [b.operand.data for b in _buffers(op)]
            decisions.append(Decision(
                name, "modulo", index, tuple(Candidate(m) for m in range(1, MAX_MODULO + 1)),
                source="ktdf.pipeline modulo(size: ?) rotating the buffers of "
                       + (", ".join(buffers) or "nothing"),
                rule=f"1..{MAX_MODULO} copies; the scratchpad bounds it"))
            ops[name] = op
        elif isinstance(op, ktdf.KeepResidentOp):
            name = op.decision.data
            if op.last_program is not None:
                last = op.last_program.value.data
                source = (f"ktdf.keep_resident: {op.operand.data} re-read from device memory "
                          f"by programs {index} to {last} (0) or kept in a scratchpad region "
                          f"from program {index} to {last} (1)")
                rule = (f"0 or 1; the region counts in the scratchpad of programs {index} "
                        f"to {last}")
            else:
                source = (f"ktdf.keep_resident: {op.operand.data} re-read by every compute "
                          "(0) or loaded once into a resident buffer (1)")
                rule = "0 or 1; the scratchpad bounds it"
            decisions.append(Decision(name, "keep", index, (Candidate(0), Candidate(1)),
                                      source=source, rule=rule))
            ops[name] = op
        elif isinstance(op, ktdf.ShareFetchOp):
            name = op.decision.data
            fetch = op.fetch_program.value.data
            decisions.append(Decision(
                name, "share", index, (Candidate(0), Candidate(1)),
                source=(f"ktdf.share_fetch: {op.operand.data} read whole from device memory "
                        f"by every core (0) or fetched once, one slice per core of "
                        f"{op.parts.value.data} in program {fetch}, and relayed between "
                        f"the ring neighbours of each group of {op.parts.value.data} into "
                        f"every core's scratchpad in the programs after it (1)"),
                rule=f"0 or 1; the region gathering it counts in the scratchpad of "
                     f"program {fetch} (the fill), the relay steps after it and program "
                     f"{index}"))
            ops[name] = op
        elif isinstance(op, ktdf.ParallelOp):
            name = op.decision.data
            top = op.max_instances.value.data
            trip = _parallel_trip_source(op)
            decisions.append(Decision(
                name, "distribute", index, tuple(Candidate(n) for n in range(1, top + 1)),
                source=f"ktdf.parallel over {len(op.induction_vars)} loop(s), instance group "
                       f"{op.instance_group.data} (at most {top})",
                trip=trip, rule=f"1..{top} instances (max_instances)"))
            ops[name] = op
            # nested parallels of one group share the group's instances
            root = op
            parent = op.parent_op()
            while parent is not None and not isinstance(parent, FuncOp):
                if isinstance(parent, ktdf.ParallelOp) and \
                        parent.instance_group.data == op.instance_group.data:
                    root = parent
                if isinstance(parent, ktdf.StageOp):
                    break
                parent = parent.parent_op()
            groups.setdefault((id(root), op.instance_group.data), []).append(name)
    limits = []
    for (_, group), names in groups.items():
        if len(names) > 1:
            top = min(ops[n].max_instances.value.data for n in names)
            limits.append(InstanceLimit(group, tuple(names), top))
    return decisions, ops, limits


def _has_modulo_decision(pipe: ktdf.PipelineOp) -> bool:
    """A modulo the solver decides: open, or solved earlier (solved again)."""
    return pipe.modulo is not None and pipe.decision is not None


def _parallel_trip_source(op: ktdf.ParallelOp) -> str | int | None:
    """The tile decision whose tile a point loop walks (for the V1 rule), if visible."""
    if len(op.upper_bounds) != 1:
        return None
    upper = op.upper_bounds[0].owner
    if isinstance(upper, ktdf.DeriveSizeOp):
        size = upper.size.owner
        if isinstance(size, ktdf.ReserveSizeOp):
            return size.decision.data
    if isinstance(upper, arith.ConstantOp) and isinstance(upper.value, IntegerAttr):
        return upper.value.value.data
    return None


def _buffers(pipe: ktdf.PipelineOp) -> list[ktdf.BufferOp]:
    private = pipe.private
    if private is None:
        return []
    return [op for op in private.walk() if isinstance(op, ktdf.BufferOp)]


def _outer_reads(pipe: ktdf.PipelineOp) -> int:
    """The last stage of `pipe` whose reads of a buffer of a pipeline around it (any of
    them: a chunk pipeline's compute reads the row tile of A that the pipeline around
    its tile pipeline holds) are spread over it: made in a reduction loop (a matmul's
    operand read along K), not once per point as the stage starts (a row's statistic).
    0 when no later stage does: the first stage stands for the reads
    (`Pipeline.outer_reads`)."""
    held: set[SSAValue] = set()
    outer = pipe.parent_op()
    while outer is not None:
        if isinstance(outer, ktdf.PipelineOp) and outer.private is not None:
            held |= set(outer.private.res)
        outer = outer.parent_op()
    last = 0
    for k, stage in enumerate(pipe.stages):
        if any(isinstance(t, ktdf.DataTransferOp) and t.source in held
               and _in_reduction_loop(t, stage) for t in stage.walk()):
            last = k
    return last


def _reads_back(pipe: ktdf.PipelineOp) -> bool:
    """Whether a stage of `pipe` reads a buffer of a pipeline around it that a later stage
    of `pipe` writes (`Pipeline.reads_back`)."""
    read: dict[SSAValue, int] = {}
    for k, stage in enumerate(pipe.stages):
        for t in stage.walk():
            if not isinstance(t, ktdf.DataTransferOp):
                continue
            if t.dest in read and read[t.dest] < k:
                return True
            if isinstance(t.source.owner, ktdf.PrivateOp) and t.source.owner.parent_op() \
                    is not pipe:
                read.setdefault(t.source, k)
    return False


def _in_reduction_loop(op: Operation, stage: ktdf.StageOp) -> bool:
    parent = op.parent_op()
    while parent is not None and parent is not stage:
        if ktdf.is_reduction_loop(parent):
            return True
        parent = parent.parent_op()
    return False


# ---- pipelines -------------------------------------------------------------------------


class _ProgramReader:
    def __init__(self, index: int, func: FuncOp, decisions: list[Decision], hw: _Hardware,
                 solved: dict[str, Operation]):
        self.index = index
        self._solved = solved
        self.func = func
        self._fifo_sharing: dict[tuple[str, str, tuple[int, int]], int] | None = None
        self.decisions = {d.name: d for d in decisions}
        self.hw = hw
        self.eval = _Evaluator()
        self._ring_reads: list[tuple[tuple[int, ...], bool]] = []  # (see `stage`)
        self.buffers: list[Buffer] = []
        self.fifos: list[FifoUse] = []
        self.registers: list[RegisterUse] = []
        self.counter = itertools.count()
        self.sizes = {d.name: len(d.candidates) for d in decisions}
        self._chunk_decision: dict[ktdf.PipelineOp, str] = {}
        self._fifo_sends: dict[str, SSAValue] = {}  # a transfer's name -> the FIFO slot it fills

    def quantity(self, expr: Expr) -> Quantity:
        scope = [self.decisions[n] for n in sorted(expr.scope) if n in self.decisions]
        missing = [n for n in expr.scope if n not in self.decisions]
        if missing:
            raise _fail(None, f"unknown decision(s) {', '.join(missing)} in program {self.index}")
        # a chunk is read whole (its value and whether it streams); the rest by value
        return Quantity.of(scope, lambda *cands: expr({d.name: c if d.kind == "chunk" else c.value
                                                       for d, c in zip(scope, cands)}))

    def _whole_quantity(self, count: Expr) -> Quantity | None:
        """`self.quantity(count)` when `count` is a whole number for every candidate of
        the decisions it depends on; None when it is not (a mean over partial tiles:
        `_mean_trip(exact=True)`)."""
        def whole(v: Values) -> int:
            value = count(v)
            if not isinstance(value, int):
                raise _Fractional
            return value

        try:
            return self.quantity(Expr(count.scope, whole))
        except _Fractional:
            return None

    def _decision_or_value(self, op: ktdf.PipelineOp | ktdf.ParallelOp) -> Expr:
        if op.decision is not None and op.decision.data in self.decisions:
            name = op.decision.data
            return Expr(frozenset([name]), lambda v: v[name])
        value = op.modulo_value if isinstance(op, ktdf.PipelineOp) else \
            ktdf.decision_value(op)
        return _const(int(value or 1))

    def iterations(self, pipe: ktdf.PipelineOp) -> Quantity:
        """Iterations one instance runs: the loops between the pipeline and the stage (or
        function) around it; a distributed loop nest gives each instance ceil(T / N). The
        product of one quantity per loop (`Quantity.product`), never tabulated whole."""
        trips = [self.quantity(t) for t in self._trips(pipe)]
        return Quantity.product(trips, self.sizes) if trips else Quantity.const(1)

    def mean_iterations(self, pipe: ktdf.PipelineOp) -> Quantity | None:
        """`Pipeline.mean` of a pipeline nested in a stage: the exact mean of its
        iterations times `MEAN_SCALE` when a loop around it walks partial tiles; None when
        every count is whole (or the pipeline is a program's own)."""
        if not isinstance(_enclosing(pipe), ktdf.StageOp):
            return None
        parts = self._trips(pipe, self._trip_parts)
        rounded = self._trips(pipe)
        totals = [self.quantity(total) for total, _ in parts]
        counts = [self.quantity(count) for _, count in parts]
        trips = [self.quantity(t) for t in rounded]
        # (loop by loop, each over its own decisions: a mean differs from its rounding)
        if all(t.table[k] * c.table[k] == n.table[k] for t, c, n in zip(trips, counts, totals)
               for k in t.table):
            return None
        # ceil(MEAN_SCALE x the trips summed over the tiles / the tiles): never tabulated
        # whole, like the iterations
        return Quantity.quotient([Quantity.const(MEAN_SCALE), *totals], counts, self.sizes)

    def _trips(self, pipe: ktdf.PipelineOp, trip: Callable | None = None) -> list:
        """Per loop between `pipe` and the stage (or function) around it, `trip` of it
        (`_mean_trip`: its count per instance)."""
        trip = trip or self._mean_trip
        trips: list = []
        parent = pipe.parent_op()
        while parent is not None and not isinstance(parent, ktdf.StageOp | FuncOp):
            if isinstance(parent, scf.ForOp):
                trips.append(trip(parent, [(parent.lb, parent.ub, parent.step)], _const(1)))
            elif isinstance(parent, ktdf.ParallelOp):
                trips.append(trip(
                    parent, list(zip(parent.lower_bounds, parent.upper_bounds, parent.steps)),
                    self._decision_or_value(parent)))
            elif isinstance(parent, scf.IfOp | ktdf.PipelineOp):
                pass
            else:
                raise _fail(parent, "a pipeline sits inside an op the solver cannot count "
                                    "iterations of")
            parent = parent.parent_op()
        return trips

    def _mean_trip(self, op: Operation, bounds: list, instances: Expr,
                   exact: bool = False) -> Expr:
        """Iterations one of `instances` runs of the loop nest `op` over `bounds` ((lower,
        upper, step) per dim, split evenly), per iteration of the loops around it. A dim
        whose upper bound is the tile of an enclosing tile loop (`_tile_loop`) is full in
        all its tiles but the last, which holds the remainder: the count is the mean over
        those tiles, rounded to the nearest whole iteration (a pipeline's iterations: every
        figure of the cost model counts them whole), so that a partial tile's rows are not
        priced as a full tile's (docs/solver.md, "Partial last tiles"); `exact`: the mean
        itself, a Fraction when not whole (a loop inside a stage: the work it repeats is
        summed over it, then rounded once)."""
        total, tiles = self._trip_parts(op, bounds, instances)

        def count(v):
            summed, number = total(v), tiles(v)
            if exact:
                mean = Fraction(summed, number)
                return int(mean) if mean.denominator == 1 else mean
            return (2 * summed + number) // (2 * number)

        return Expr(total.scope, count)

    def _trip_parts(self, op: Operation, bounds: list, instances: Expr) -> tuple[Expr, Expr]:
        """`_mean_trip`'s mean as (the trips summed over the tiles of the tile loops that
        cut its dims, the number of those tiles): 1 tile when none does."""
        # per dim: its trips in a full tile, and (its tile loop's index, its trips in that
        # loop's last tile) when a tile loop cuts it; per distinct tile loop (one may cut
        # several dims), its trip count
        full, last, loops = [], [], {}
        for lo, hi, step in bounds:
            lo_e, hi_e, step_e = self.eval(lo, op), self.eval(hi, op), self.eval(step, op)
            full.append(_trip(lo_e, hi_e, step_e))
            loop = self._tile_loop(hi)
            if loop is None:
                last.append(None)
                continue
            extent, tiles = loop
            size = self.eval(hi.owner.size, op)
            rest = Expr(extent.scope | tiles.scope | size.scope,
                        lambda v, e=extent, n=tiles, s=size: e(v) - (n(v) - 1) * s(v))
            last.append((hi.owner.offset, _trip(lo_e, rest, step_e)))
            loops.setdefault(hi.owner.offset, tiles)
        scope = frozenset().union(*(x.scope for x in full),
                                  *(x[1].scope for x in last if x),
                                  *(n.scope for n in loops.values())) | instances.scope

        def total(v, full=full, last=last, loops=loops, k=instances) -> int:
            per = max(1, k(v))
            if not loops:
                return -(-prod(x(v) for x in full) // per)
            # each tile loop in a full tile (its trips less one of them) or in its last one
            counts = {i: max(1, n(v)) for i, n in loops.items()}
            summed = 0
            for state in itertools.product((False, True), repeat=len(counts)):
                in_last = dict(zip(counts, state))
                weight = prod(1 if in_last[i] else n - 1 for i, n in counts.items())
                if weight:
                    trips = [cut[1](v) if cut and in_last[cut[0]] else f(v)
                             for f, cut in zip(full, last)]
                    summed += weight * -(-prod(trips) // per)
            return summed

        def number(v, loops=loops) -> int:
            return prod(max(1, n(v)) for n in loops.values())

        return Expr(scope, total), Expr(scope, number)

    def pipeline(self, pipe: ktdf.PipelineOp, path: str) -> Pipeline:
        name = pipe.decision.data.rsplit(".modulo", 1)[0] if pipe.decision is not None \
            else path
        if _has_modulo_decision(pipe):
            modulo: str | int = pipe.decision.data
        else:
            modulo = pipe.modulo_value
        has_buffers = bool(_buffers(pipe))
        fifo_depths = self._fifo_depths(pipe)
        if not has_buffers and fifo_depths and pipe.modulo is None:
            # FIFOs decouple the stages: as many iterations in flight as the FIFO holds
            modulo = min(fifo_depths)
            if pipe in self._chunk_decision:
                # depths chosen by the solver: the chunk candidate says what each FIFO
                # holds, hence how many iterations are in flight (`cost.candidate_modulo`)
                modulo = self._chunk_decision[pipe]
        for b in _buffers(pipe):
            self.buffers.append(self._buffer(b, modulo, name))
        stages = tuple(self.stage(st, f"{name}.s{k}") for k, st in enumerate(pipe.stages))
        streams = not has_buffers and bool(fifo_depths) and pipe.modulo is None
        outer_reads = _outer_reads(pipe)
        return Pipeline(name, self.iterations(pipe), stages, modulo,
                        streams=streams, outer_reads=outer_reads,
                        reader_fifos=self._reader_fifos(pipe, stages, outer_reads)
                        if streams and pipe not in self._chunk_decision else (),
                        reads_back=_reads_back(pipe), mean=self.mean_iterations(pipe))

    def _reader_fifos(self, pipe: ktdf.PipelineOp, stages: tuple[Stage, ...],
                      k: int) -> tuple[tuple[str, int, int], ...]:
        """`Pipeline.reader_fifos`: the transfers of stage `k` into a FIFO of the pipeline
        that stage k + 1 receives from, with that FIFO's entry bytes and the depth the
        lowering gives it (`_fifo_share`)."""
        if pipe.private is None or k + 1 >= len(stages):
            return ()
        fifo_of = _fifo_slots(pipe.private)
        received = {r.slot for r in pipe.stages[k + 1].walk()
                    if isinstance(r, ktdf.ReadFromFifoOp)}
        out = []
        for w in stages[k].work:
            slot = self._fifo_sends.get(w.name) if isinstance(w, Transfer) else None
            if slot is None or slot not in received or slot not in fifo_of:
                continue
            depth = self._fifo_share(fifo_of[slot])
            if depth:
                out.append((w.name, _slot_bytes(fifo_of[slot]), depth))
        return tuple(out)

    def _fifo_depths(self, pipe: ktdf.PipelineOp) -> list[int]:
        private = pipe.private
        depths = []
        for op in (private.walk() if private else []):
            if isinstance(op, ktdf.FifoOp):
                depth = self._fifo_share(op)
                if depth:
                    depths.append(depth)
        return depths

    def _fifo_share(self, fifo: ktdf.FifoOp) -> int | None:
        """The depth the lowering gives this FIFO (`lower.program._fifo_depths`): its
        datapath's queue depth split between the FIFOs of the same two unit kinds in the
        same phase (`ktdf.fifo_phase`; FIFOs of other phases take the queue in turns);
        with more FIFOs than entries, one entry each, the queue shared in send order (the
        lowering proves the unit behind receives them in that order,
        lower/fifo_order.py). None when the datapath has no queue."""
        depth, count = self._queue(fifo)
        return max(1, depth // count) if depth else None

    def _queue(self, fifo: ktdf.FifoOp) -> tuple[int | None, int]:
        """(its datapath's queue depth or None, the FIFOs of its phase on that datapath)."""
        slot = fifo.results[0].type
        if self._fifo_sharing is None:
            self._fifo_sharing = {}
            for f in self.func.walk():
                if isinstance(f, ktdf.FifoOp):
                    k = _fifo_key(f)
                    self._fifo_sharing[k] = self._fifo_sharing.get(k, 0) + 1
        src = self.hw.unit_of_kind(slot.source.data, fifo)
        dst = self.hw.unit_of_kind(slot.dest.data, fifo)
        try:
            depth = self.hw.device.fifo_depth(src, dst)
        except DeviceError:
            depth = None
        return depth, self._fifo_sharing[_fifo_key(fifo)]

    def fifo_decisions(self) -> tuple[list[Decision], dict[str, Operation], list[FifoSplit]]:
        """The choices of each elementwise FIFO pipeline the lowering may chunk
        (`_chunk_shape`): how many vectors it moves per instruction (`chunk`: 1 up to what
        the register file holds, each either held whole in every FIFO or streaming through
        them) and how many of its datapaths' queue entries each of its FIFOs gets (`fifo`,
        one per FIFO; a `FifoSplit` per datapath keeps their sum within the queue). A
        pipeline whose FIFOs share a datapath and phase with FIFOs outside it, or whose
        unit states no register file, keeps the even split (`_fifo_share`)."""
        decisions: list[Decision] = []
        ops: dict[str, Operation] = {}
        splits: list[FifoSplit] = []
        pipes = [o for o in self.func.walk() if isinstance(o, ktdf.PipelineOp)]
        for k, pipe in enumerate(pipes):
            shape = self._chunk_shape(pipe)
            if shape is None:
                continue
            par, fifos, generics = shape
            unit = self.hw.device.units[self.hw.unit_of_kind("sfu", generics[0])]
            slot_bytes = sum(_slot_bytes(f) for f in fifos)
            most = min(unit.register_file or 0, 1 << 30) // slot_bytes
            most = min(most, self._most_vectors(par))
            if most < 2:
                continue  # no choice of chunk: the even split, one vector at a time
            groups: dict[tuple, list[ktdf.FifoOp]] = {}
            for f in fifos:
                groups.setdefault(_fifo_key(f), []).append(f)
            queues = {}
            for key, members in groups.items():
                if self._queue(members[0])[1] != len(members):
                    break  # the queue is shared with FIFOs of another pipeline
                src = self.hw.unit_of_kind(key[0], members[0])
                dst = self.hw.unit_of_kind(key[1], members[0])
                try:
                    queues[key] = self.hw.device.fifo_depth(src, dst)
                except DeviceError:
                    queues[key] = None
                if not queues[key]:
                    break
            else:
                compute = pipe.attributes.get("ktdf.compute")
                base = compute.data if isinstance(compute, StringAttr) else \
                    f"p{self.index}.pipe{k}"
                order = [f for members in groups.values() for f in members]
                into = [f.results[0].type.dest.data == unit.kind for f in order]
                orderable = {key for key, members in groups.items()
                             if len(members) > queues[key]
                             or _received_in_send_order(pipe, members)}
                chunk = Decision(
                    f"{base}.chunk", "chunk", self.index,
                    _chunk_candidates(most, order, into, groups, queues, orderable),
                    source=f"vectors per instruction of the FIFO pipeline of compute {base}",
                    rule=f"1..{most} (at most {unit.register_file} B of register file / "
                         f"{slot_bytes} B of FIFO entries per vector, and the loop's vectors);"
                         " held: every FIFO of the pipeline keeps a whole chunk; streaming: "
                         "it flows through them; in send order: FIFOs received in the order "
                         "they are sent share their queue, each given up to all of it",
                )
                decisions.append(chunk)
                ops[chunk.name] = par
                self._chunk_decision[pipe] = chunk.name
                j = itertools.count()
                offset = 0
                for (src_kind, dst_kind, _), members in groups.items():
                    depth = queues[(src_kind, dst_kind, _)]
                    shared = (src_kind, dst_kind, _) in orderable
                    # each FIFO its own entries (together within the queue), or, received in
                    # send order, up to the whole queue shared in that order
                    most_each = depth if shared else depth - len(members) + 1
                    rule = (f"1..{depth}: the queue's {depth} entries shared in send order by "
                            f"{len(members)} FIFO(s)" if shared else
                            f"1..{most_each}: the queue's {depth} entries shared by "
                            f"{len(members)} FIFO(s)")
                    names = []
                    for f in members:
                        d = Decision(f"{base}.fifo{next(j)}", "fifo", self.index,
                                     tuple(Candidate(v) for v in range(1, most_each + 1)),
                                     source=f"entries of ktdf.fifo {src_kind} -> {dst_kind} "
                                            f"({_slot_text(f)}) in compute {base}",
                                     rule=rule)
                        decisions.append(d)
                        ops[d.name] = f
                        names.append(d.name)
                    splits.append(FifoSplit(f"{src_kind} -> {dst_kind} of {base}",
                                            tuple(names), depth, chunk.name, offset,
                                            in_send_order=shared))
                    offset += len(names)
        for d in decisions:
            self.decisions[d.name] = d
            self.sizes[d.name] = len(d.candidates)
        return decisions, ops, splits

    def _keep(self, op: Operation) -> tuple[Decision | None, bool]:
        """The keep decision an op is marked with (`ktdf.keep`), and whether the op counts
        when the input is kept (the resident buffer) rather than when re-read."""
        attr = op.attributes.get(KEEP_ATTR)
        if not isinstance(attr, StringAttr) or attr.data not in self.decisions:
            return None, False
        kept = isinstance(op, ktdf.BufferOp) and op.role.data == "resident"
        return self.decisions[attr.data], kept

    def _share(self, op: Operation) -> tuple[str, int] | None:
        """The fetch-once choice a transfer is one form of (`ktdf.share`), and the value
        under which it moves data (0: the direct read, 1: a fill or a ring read)."""
        attr = op.attributes.get(SHARE_ATTR)
        if not isinstance(attr, StringAttr) or attr.data not in self.decisions:
            return None
        role = op.attributes.get(SHARE_ROLE_ATTR)
        return attr.data, 0 if role == StringAttr("direct") else 1

    def _corelet_copies(self, op: ktdf.BufferOp) -> tuple[list[Decision], bool, int]:
        """A buffer in a memory the corelets share, whose pipeline runs inside
        `ktdf.parallel`s distributed over corelets, gets one copy of its slots per corelet
        (lower/parallel_loops.py: at most the corelets a core has). Returns the open
        distribute decisions around it, whether a fixed count there is above 1, and that
        copy count (1: no copies possible)."""
        corelet = self.hw.corelet
        owned = {self.hw.device.memories[m].kind for m in corelet.memories} if corelet else set()
        if corelet is None or op.memory in owned:
            return [], False, 1
        around: list[Decision] = []
        fixed, most = False, 1
        parent = op.parent_op()
        while parent is not None and parent is not self.func:
            if isinstance(parent, ktdf.ParallelOp):
                most = max(most, parent.max_instances.value.data)
                name = parent.decision.data if parent.decision is not None else None
                if name in self.decisions:
                    around.append(self.decisions[name])
                elif int(ktdf.decision_value(parent) or 1) > 1:
                    fixed = True
            parent = parent.parent_op()
        return around, fixed, most

    def _buffer(self, op: ktdf.BufferOp, modulo: str | int, pipe: str) -> Buffer:
        dims = op.tile_dim_values()
        scope = [self.decisions[d] for d in dims if isinstance(d, str) and d in self.decisions]
        keep, when_kept = self._keep(op)
        share = self._share(op)
        if keep is None and share is not None:
            # a staging buffer the shared form does without (its reads read the region)
            keep, when_kept = self.decisions[share[0]], bool(share[1])
        if keep is not None:
            scope.append(keep)
        around, fixed_split, copies = self._corelet_copies(op)
        scope += [d for d in around if d not in scope]
        fixed = {d: ktdf.decision_value(self._solved[d]) for d in dims
                 if isinstance(d, str) and d not in self.decisions and d in self._solved}
        elt = element_bytes(op.result.type.element_type)
        amap = op.access_map.data

        def size(*cands):
            values = {d.name: c.value for d, c in zip(scope, cands)}
            sizes = [d if isinstance(d, int) else values.get(d, fixed.get(d)) for d in dims]
            if any(s is None for s in sizes):
                raise _fail(op, f"buffer {op.operand.data}: a tile dim names no decision of "
                                f"this program")
            if keep is not None and values[keep.name] != int(when_kept):
                return 0  # the other form of the keep choice: this buffer does not exist
            # the lowering starts every copy on the memory's access granularity
            aligned = -(-image_size(amap, sizes) * elt // align) * align
            if fixed_split or any(values[d.name] > 1 for d in around):
                return aligned * copies  # one copy per corelet (`_corelet_copies`)
            return aligned
        align = self.hw.granularity(op.memory)
        name = f"{pipe}.{op.operand.data}.{op.role.data}"
        dims_read = projected_dims(amap)
        if keep is None and not around and not fixed_split and dims_read is not None and \
                all(isinstance(dims[k], int) or dims[k] in self.decisions
                    or dims[k] in fixed for k in dims_read):
            # the image of a projection is the product of the dims it keeps: one small
            # table per dim, rounded up to the granularity (never tabulated whole)
            factors = [Quantity.const(dims[k]) if isinstance(dims[k], int)
                       else Quantity.const(fixed[dims[k]]) if dims[k] not in self.decisions
                       else Quantity.of([self.decisions[dims[k]]], lambda c: c.value)
                       for k in dims_read]
            return Buffer(name, Quantity.product([*factors, Quantity.const(elt)], self.sizes,
                                                 align), modulo, op.role.data, op.memory)
        return Buffer(name, Quantity.of(scope, size), modulo, op.role.data, op.memory)

    def stage(self, st: ktdf.StageOp, name: str) -> Stage:
        kinds = [a.data for a in st.applicable_units.data] if st.applicable_units else []
        work: list[Transfer | Compute | Pipeline] = []
        engines: list[str] = []
        sends: list[Expr] = []
        matrix: list[int] = []  # the matrix computes' places in `work`
        outer_reads = self._ring_reads
        # the reads of other cores' scratchpads this stage's unit has issued so far
        # (`per_core_ring_shared` replays them with the next one)
        self._ring_reads = []
        for op, count, carried in self._stage_ops(st):
            if isinstance(op, ktdf.PipelineOp):
                work.append(self.pipeline(op, f"{name}.inner"))
                engines.append("+".join(kinds))
            elif isinstance(op, ktdf.DataTransferOp):
                t, unit = self.transfer(op, kinds, count, f"{name}.t{len(work)}")
                if isinstance(op.dest.type, ktdf.FifoSlotType):
                    self._fifo_sends[t.name] = op.dest
                work.append(t)
                engines.append(unit)
            elif isinstance(op, GenericOp):
                if self._on_matrix_unit(op, kinds):
                    matrix.append(len(work))
                work.append(self.compute(op, kinds, count, f"{name}.c{len(work)}", carried))
                engines.append(self.hw.unit_of_kind(kinds[0] if kinds else "sfu", op)
                               .split(".")[-1])
            elif isinstance(op, ktdf.WriteToFifoOp):
                sends.append(self._send_cycles(op, count))
        if matrix and sends:
            # the unit's sends of its results, beside its instructions
            k = matrix[-1]
            scope = frozenset().union(*(e.scope for e in sends))
            work[k] = replace(work[k], sends=self.quantity(
                Expr(scope, lambda v: _round(sum(e(v) for e in sends)))))
        self._ring_reads = outer_reads
        engine = "+".join(sorted(set(engines))) or "+".join(kinds) or name
        return Stage(name, engine, tuple(work))

    def _stage_ops(self, st: ktdf.StageOp) -> Iterator[tuple[Operation, Expr, bool]]:
        """Work ops of a stage with how many times each runs per stage iteration (loops
        inside the stage; a nested pipeline counts its own loops as iterations), and
        whether a loop around it carries a value (its runs depend on each other). The
        count is the exact mean over partial tiles (`_mean_trip(exact=True)`): the work it
        repeats is rounded once (`_rounded`), what must be whole (instructions, dependent
        steps) counts it rounded."""
        def walk(block_ops, count: Expr, carried: bool = False):
            for op in block_ops:
                if isinstance(op, ktdf.PipelineOp):
                    yield op, count, carried
                elif isinstance(op, ktdf.DataTransferOp | GenericOp | ktdf.WriteToFifoOp):
                    yield op, count, carried
                elif isinstance(op, scf.ForOp) or isinstance(op, ktdf.ParallelOp):
                    if any(isinstance(o, ktdf.PipelineOp) for o in op.walk() if o is not op):
                        # loops around a nested pipeline are that pipeline's iterations
                        yield from walk(_body_ops(op), count, carried)
                        continue
                    inner_carried = carried
                    if isinstance(op, scf.ForOp):
                        trip = self._mean_trip(op, [(op.lb, op.ub, op.step)], _const(1),
                                               exact=True)
                        if op.iter_args:
                            self._accumulator(op)
                            inner_carried = True
                    else:
                        trip = self._mean_trip(
                            op, list(zip(op.lower_bounds, op.upper_bounds, op.steps)),
                            self._decision_or_value(op), exact=True)
                    yield from walk(_body_ops(op), Expr(count.scope | trip.scope,
                                                        lambda v, c=count, t=trip: c(v) * t(v)),
                                    inner_carried)
                elif isinstance(op, scf.IfOp):
                    for region in op.regions:
                        for block in region.blocks:
                            yield from walk(block.ops, count, carried)
        yield from walk(_body_ops(st), _const(1))

    def _accumulator(self, loop: scf.ForOp) -> None:
        sfu = self.hw.device.units.get(self.hw.unit_of_kind("sfu", loop))
        capacity = sfu.register_file if sfu is not None else None
        if capacity is None:
            return
        nbytes = 0
        for arg in loop.iter_args:
            t = arg.type
            if isinstance(t, TensorType):
                nbytes += prod(t.get_shape()) * element_bytes(t.element_type)
            else:
                nbytes += element_bytes(t)
        self.registers.append(RegisterUse(f"p{self.index}.acc{next(self.counter)}",
                                          Quantity.const(nbytes), capacity))

    def transfer(self, op: ktdf.DataTransferOp, kinds: list[str], count: Expr,
                 name: str) -> tuple[Transfer, str]:
        static, dynamic = op.source_sizes, op.source_dyn_sizes
        side = op.source if not isinstance(op.source.type, ktdf.FifoSlotType) else op.dest
        t = side.type
        elt = element_bytes(t.element_type if hasattr(t, "element_type") else t)
        if op.transfer_mode is not None and op.transfer_mode.data == "splat":
            # one element written everywhere: the destination's box
            static, dynamic = op.dest_sizes, op.dest_dyn_sizes
        sizes = box = _sizes(static, dynamic, self.eval, op)
        # a dim cut by a tile loop moves its whole extent over the loop's iterations, the
        # last tile at its own size: the bytes per iteration are that sum's mean
        # (docs/solver.md, "Partial last tiles")
        loops = [self._tile_loop(v) for v in _size_values(static, dynamic)]
        size_quantities = None
        if any(loops):
            whole = [s for s, loop in zip(sizes, loops) if loop is None]
            cut = [loop for loop in loops if loop is not None]
            mean = Expr(frozenset().union(*(e.scope | n.scope for e, n in cut)),
                        lambda v, cut=cut, elt=elt: -(-elt * prod(e(v) for e, _ in cut)
                                             // max(1, prod(n(v) for _, n in cut))))
            # the same mean as extents over trip counts, each a small table of its own
            trips = [self.quantity(n) for _, n in cut]
            if all(t.least() >= 1 for t in trips):
                size_quantities = [Quantity.quotient(
                    [*(self.quantity(e) for e, _ in cut), Quantity.const(elt)], trips,
                    self.sizes), *(self.quantity(s) for s in whole)]
            sizes, elt = [mean, *whole], 1
        scope = frozenset().union(*(s.scope for s in sizes)) | count.scope
        keep, _ = self._keep(op)
        reread = keep is not None and op.attributes[KEEP_ROLE_ATTR] == StringAttr("reread")
        share = self._share(op)
        # the reader of a shared input's gathered region: earlier programs filled it
        gathered = share is not None and op.attributes.get(SHARE_ROLE_ATTR) in (
            StringAttr("gathered"), StringAttr("in_place"))
        if reread:
            # a later compute's load of a kept input: nothing moves when it is kept
            scope = scope | {keep.name}
            nbytes = Expr(scope, lambda v, k=keep.name: 0 if v[k] else
                          _round(prod(s(v) for s in sizes) * elt * count(v)))
        elif share is not None:
            # one form of a fetch-once choice: the direct read moves its bytes when not
            # shared, the owners' fills and the ring reads when shared
            name, moves_when = share
            scope = scope | {name}
            nbytes = Expr(scope, lambda v, k=name, w=moves_when: 0 if v[k] != w else
                          _round(prod(s(v) for s in sizes) * elt * count(v)))
            if op.attributes.get(SHARE_ROLE_ATTR) == StringAttr("in_place"):
                # the computes read the gathered region itself once shared: no copy
                nbytes = Expr(scope, lambda v: 0)
        else:
            nbytes = Expr(scope, lambda v: _round(prod(s(v) for s in sizes) * elt * count(v)))
        counts = None if reread or share is not None else self._whole_quantity(count)
        if counts is None:
            # (kept or shared, or a count that is a mean over partial tiles: the bytes
            # tabulated, rounded once)
            quantity = self.quantity(nbytes)
        else:  # a product of one small table per size (never tabulated whole)
            if size_quantities is None:
                size_quantities = [self.quantity(s) for s in sizes]
            quantity = Quantity.product([*size_quantities, counts, Quantity.const(elt)],
                                        self.sizes)
        hops = self.hw.hop(op, kinds)
        hop = hops[0]
        for fifo_side in (op.source, op.dest):
            slot = fifo_side.type
            if isinstance(slot, ktdf.FifoSlotType):
                per_slot = prod(slot.get_shape())
                entries = Expr(scope, lambda v, p=per_slot: -(-prod(s(v) for s in box) // p))
                self.fifos.append(FifoUse(f"{name} ({slot.source.data} -> {slot.dest.data})",
                                          self.quantity(entries), hop.queue_depth or
                                          self._depth(slot, op)))
        shared_bw, shared_name = self.hw.shared(hop)
        sharers = self.hw.sharers
        owners, push = view_owners(op.source), False
        if owners is None:
            owners, push = view_owners(op.dest), True
        if owners is not None:
            # the moves the same unit issued before this one in the stage, of one direction
            before = tuple(o for o, p in self._ring_reads if p == push)
            ring = self.hw.per_core_ring_shared(owners, before, push)
            self._ring_reads.append((tuple(owners), push))
        else:
            ring = self.hw.ring_shared(hop)
        if ring is not None:
            shared_bw, sharers, shared_name = ring
        return (Transfer(name, quantity, hop.bandwidth,
                         sum(h.latency for h in hops), shared_bw, sharers,
                         hop.source, hop.lands_in, shared_name,
                         awaited=_fetch_for_gather(op), ready=gathered),
                hop.unit.split(".")[-1])

    def _tile_loop(self, size: SSAValue | None) -> tuple[Expr, Expr] | None:
        """(extent, iterations) of the loop `size` is the tile of, when `size` is a
        `derive_size` at that loop's index over the loop's own step and bound (the loop
        from 0 that cuts a dim into tiles, the last one partial); else None."""
        if size is None or not isinstance(size.owner, ktdf.DeriveSizeOp):
            return None
        derive = size.owner
        index = derive.offset
        if not isinstance(index, BlockArgument) or index.owner is None:
            return None
        loop = index.owner.parent_op()
        if not isinstance(loop, scf.ForOp) or index is not loop.body.block.args[0] or \
                loop.step is not derive.size or loop.ub is not derive.upper_bound:
            return None
        lb = self.eval(loop.lb, loop)
        if lb.scope or lb({}) != 0:
            return None
        extent = self.eval(loop.ub, loop)
        return extent, _trip(lb, extent, self.eval(loop.step, loop))

    def _depth(self, slot: ktdf.FifoSlotType, near: Operation) -> int:
        src = self.hw.unit_of_kind(slot.source.data, near)
        dst = self.hw.unit_of_kind(slot.dest.data, near)
        try:
            return self.hw.device.fifo_depth(src, dst) or 1 << 30
        except DeviceError:
            return 1 << 30

    def _on_matrix_unit(self, op: GenericOp, kinds: list[str]) -> bool:
        unit = self.hw.device.units[self.hw.unit_of_kind(kinds[0] if kinds else "sfu", op)]
        return unit.compute_class == "matrix" and matmul_dims(op) is not None

    def _send_cycles(self, op: ktdf.WriteToFifoOp, count: Expr) -> Expr:
        """Cycles a unit spends on `op`'s sends per stage iteration: the slot's bytes over
        the bandwidth of the datapath to the unit behind it, `count` times."""
        slot = op.slot.type
        assert isinstance(slot, ktdf.FifoSlotType)
        nbytes = prod(slot.get_shape()) * element_bytes(slot.element_type)
        source = self.hw.unit_of_kind(slot.source.data, op)
        target = self.hw.unit_of_kind(slot.dest.data, op)
        try:
            one = self.hw.device.datapath(source, target).occupancy(nbytes)
        except DeviceError:
            return _const(0)
        return Expr(count.scope, lambda v: one * count(v))

    def compute(self, op: GenericOp, kinds: list[str], count: Expr, name: str,
                carried: bool = False) -> Compute:
        unit = self.hw.device.units[self.hw.unit_of_kind(kinds[0] if kinds else "sfu", op)]
        if self._on_matrix_unit(op, kinds):
            return self._matrix_compute(op, unit, count, name)
        out = op.outputs[0].type if op.outputs else op.res[0].type
        shape = out.get_shape() if isinstance(out, TensorType) else (1,)
        ins = [o.type for o in op.inputs if isinstance(o.type, TensorType)]
        points = max([prod(shape)] + [prod(t.get_shape()) for t in ins])
        types = {_short(t.element_type) for t in [*ins, out] if isinstance(t, TensorType)}
        lanes = min((unit.lanes(t) for t in types if t in unit.simd_lanes), default=None)
        if lanes is None:
            raise _fail(op, f"unit {unit.name} has no SIMD lanes for {', '.join(sorted(types))}")
        ops_per_point = sum(1 for o in op.body.block.ops if o.name != "linalg.yield") or 1
        latency = int(unit.compute.get("latency", 0)) if unit.compute else 0
        elements = _rounded(Expr(count.scope, lambda v: points * count(v)))
        whole = _rounded(count)
        steps = self.quantity(whole) if carried else Quantity.const(1)
        if carried:
            # a reduction done in one step per iteration sends its result every
            # iteration: the unit waits for the whole chain (reduce, combine) as
            # for an elementwise body; over several steps `cost.carried_chain` prices it
            one_step = vector_period(op, points, lanes, latency)
            period = self.quantity(Expr(count.scope,
                                        lambda v: one_step if whole(v) == 1 else 0))
        else:
            chunk = self._chunk(op, unit)
            cache: dict[int, int] = {}

            def per_vector(v: Values) -> int:
                k, exposed = chunk(v)
                if (k, exposed) not in cache:
                    cache[(k, exposed)] = -(-(vector_period(op, points * k, lanes, latency)
                                              + exposed) // k)
                return cache[(k, exposed)]
            period = self.quantity(Expr(chunk.scope, per_vector))
        return Compute(name, self.quantity(elements), ops_per_point, lanes, latency=latency,
                       steps=steps, points=points, period=period)

    def _matrix_compute(self, op: GenericOp, unit, count: Expr, name: str) -> Compute:
        """A matmul step on the matrix unit (`vectorchain.matmul`, timed as the emulator
        does, `emulator.device.timing.matrix_cycles`): ceil(R / rows) * ceil(C / cols)
        passes of the array, each K * rows * cols MACs at the unit's MAC rate. The
        accumulator stays in the array between the steps of the K loop, so the unit's
        latency is paid once, not per step."""
        m, n = matmul_dims(op)  # type: ignore[misc]
        maps = [mp.data for mp in op.indexing_maps]
        k = next(d for d in range(3) if d not in (m, n))
        extent = {}
        for operand, amap in zip(op.inputs, maps):
            for pos, r in enumerate(amap.results):
                extent[r.position] = operand.type.get_shape()[pos]  # type: ignore[attr-defined]
        operand_type = _short(op.inputs[0].type.element_type)  # type: ignore[attr-defined]
        macs = unit.macs(operand_type)
        if macs is None:
            raise _fail(op, f"unit {unit.name} has no MAC rate for {operand_type}")
        rows, cols = unit.matrix_rows, unit.matrix_cols
        padded = (-(-extent[m] // rows) * rows) * (-(-extent[n] // cols) * cols) * extent[k]
        latency = int(unit.compute.get("latency", 0)) if unit.compute else 0
        elements = _rounded(Expr(count.scope, lambda v: padded * count(v)))
        return Compute(name, self.quantity(elements), 1, macs, latency=latency,
                       points=padded, instructions=self.quantity(_rounded(count)))

    def _chunk_shape(self, pipe: ktdf.PipelineOp) -> tuple[ktdf.ParallelOp, list[ktdf.FifoOp],
                                                           list[GenericOp]] | None:
        """The vector loop, FIFOs and compute of a FIFO pipeline the lowering may run k
        vectors per instruction (`lower.program_units.EngineEmitter.chunk_factor`): the
        pipeline is the one-dimensional `ktdf.parallel`'s whole body, over the
        contiguous (innermost) dim, elementwise computes only, every FIFO one vector wide.
        None when the structure does not allow it."""
        par = pipe.parent_op()
        if not isinstance(par, ktdf.ParallelOp) or len(par.induction_vars) != 1:
            return None
        body = _body_ops(par)
        if [o for o in body if isinstance(o, ktdf.PipelineOp)] != [pipe] or \
                any(isinstance(o, scf.ForOp | ktdf.ParallelOp) for o in body):
            return None
        generics = []
        for inner in pipe.walk():
            if inner is pipe:
                continue
            if isinstance(inner, scf.ForOp | ktdf.ParallelOp | ktdf.PipelineOp) or \
                    inner.name == "linalg.fill":
                return None
            if isinstance(inner, GenericOp):
                if any("reduction" in str(getattr(t, "data", t)) for t in inner.iterator_types):
                    return None
                generics.append(inner)
        dim = par.attributes.get("ktdf.dim")
        if not generics or not isinstance(dim, IntegerAttr) or \
                any(dim.value.data != len(g.iterator_types) - 1 for g in generics):
            return None  # not the vector loop over the contiguous (innermost) dim
        step = self.eval(par.steps[0], par)
        if step.scope:
            return None
        fifos = [o for o in (pipe.private.walk() if pipe.private else [])
                 if isinstance(o, ktdf.FifoOp)]
        width = step({})
        shapes = [tuple(f.results[0].type.get_shape()) for f in fifos]
        if not fifos or any(not s or s[-1] != width for s in shapes):
            return None  # (a FIFO of single values, a broadcast scalar's: no vectors)
        return par, fifos, generics

    def _chunk(self, op: GenericOp, unit) -> Expr:
        """How many consecutive vectors the lowering moves and computes per instruction,
        and the cycles per chunk its FIFOs add: (k, exposed). The vector loop around the
        FIFO pipeline of an elementwise compute is chunked when every instance gets the
        same whole number of vectors, by the largest divisor of that number up to the
        pipeline's `chunk` decision (without one: what the register file and the FIFOs'
        even share of the queue allow). A streaming chunk exposes its transfers through
        the FIFOs (`streamed_chunk_cycles`). (1, 0) when the structure does not allow
        chunks."""
        one = Expr(frozenset(), lambda v: (1, 0))
        pipe = op.parent_op()
        while pipe is not None and not isinstance(pipe, ktdf.PipelineOp):
            pipe = pipe.parent_op()
        shape = self._chunk_shape(pipe) if pipe is not None else None
        if shape is None or op not in shape[2]:
            return one
        par, fifos, _ = shape
        width = self.eval(par.steps[0], par)({})
        decided = self._chunk_decision.get(pipe)
        if decided is None:
            slot_bytes = sum(_slot_bytes(f) for f in fifos)
            depths = [self._fifo_share(f) or 1 << 30 for f in fifos]
            register_file = unit.register_file or 1 << 30
            fixed = max(1, min(register_file // max(1, slot_bytes), min(depths)))
        lo, hi = self.eval(par.lower_bounds[0], par), self.eval(par.upper_bounds[0], par)
        n = self._decision_or_value(par)
        # in the order of the chunk candidates' entries (`fifo_decisions`: by queue)
        groups: dict[tuple, list[ktdf.FifoOp]] = {}
        for f in fifos:
            groups.setdefault(_fifo_key(f), []).append(f)
        ordered = [f for members in groups.values() for f in members]
        hops = [(*self._fifo_hop(f), f.results[0].type.dest.data == unit.kind)
                for f in ordered]
        keys = [_fifo_key(f) for f in ordered]
        depths = [self._queue(f)[0] for f in ordered]
        shares = tuple(self._fifo_share(f) or 1 << 30 for f in ordered)

        def k(v: Values) -> tuple[int, int]:
            limit = v[decided].value if decided else fixed
            total = max(hi(v) - lo(v), 0)
            if total % width or (total // width) % max(1, n(v)):
                chosen = 1
            else:
                block = total // width // max(1, n(v))
                chosen = next((c for c in range(min(limit, block), 0, -1) if block % c == 0), 1)
            entries = (v[decided].entries if decided else ()) or shares
            return chosen, streamed_chunk_cycles(chosen, hops, entries,
                                                 _shared_queues(keys, depths, entries))
        scope = lo.scope | hi.scope | n.scope | ({decided} if decided else set())
        return Expr(frozenset(scope), k)

    def _most_vectors(self, par: ktdf.ParallelOp) -> int:
        """The most vectors the loop `par` walks, over its decisions' candidates."""
        lo, hi = self.eval(par.lower_bounds[0], par), self.eval(par.upper_bounds[0], par)
        width = max(1, self.eval(par.steps[0], par)({}))
        scope = sorted(lo.scope | hi.scope)
        options = [[c.value for c in self.decisions[d].candidates] for d in scope]
        if prod(len(o) for o in options) > 10_000:
            return 1 << 30
        return max(-(-max(hi(dict(zip(scope, v))) - lo(dict(zip(scope, v))), 0) // width)
                   for v in itertools.product(*options))

    def _fifo_hop(self, fifo: ktdf.FifoOp) -> tuple[int, int, int]:
        """(bytes per entry, bandwidth, latency) of the datapath a FIFO runs over."""
        slot = fifo.results[0].type
        src = self.hw.unit_of_kind(slot.source.data, fifo)
        dst = self.hw.unit_of_kind(slot.dest.data, fifo)
        dp = self.hw.device.datapath(src, dst)
        return _slot_bytes(fifo), dp.bandwidth, dp.latency


def _slot_bytes(fifo: ktdf.FifoOp) -> int:
    t = fifo.results[0].type
    return prod(t.get_shape()) * element_bytes(t.element_type)


def _slot_text(fifo: ktdf.FifoOp) -> str:
    t = fifo.results[0].type
    return "x".join(str(d) for d in t.get_shape()) + "x" + str(t.element_type)


def streamed_chunk_cycles(k: int, hops: list[tuple[int, int, int, bool]],
                          entries: tuple[int, ...],
                          queues: tuple[tuple[object, int | None], ...] = ()) -> int:
    """Cycles per chunk of k vectors the compute unit waits on its FIFOs beyond its own
    work, by the emulator's FIFO rule (docs/emulator.md, "FIFOs"): a send of k entries
    places what the FIFO has room for, each piece visible `V = ceil(k · entry bytes /
    bandwidth) + latency` after it is placed, the rest placed as the receiver frees room,
    and the sender is busy `ceil(k · bytes / bandwidth)` after its last piece; a receive
    takes entries as they become visible. `hops` are the pipeline's FIFOs (bytes per
    entry, bandwidth, latency, whether it feeds the compute unit) in send order,
    `entries` their depths, `queues` each one's datapath queue (a key, and its depth when
    more FIFOs than entries share it in send order, else None: then each FIFO's own
    depth is the only limit).

    Followed entry by entry, in send order. Into the compute unit: while it computes
    chunk i, the producer sends chunk i + 1 and places what the FIFOs (and shared
    queues) have room for; at the end of the compute (time 0) the unit receives, and an
    entry is placed once the entry its depth behind it in its FIFO (or its queue's depth
    behind it in a shared queue's stream) has been taken, and no earlier than the
    entry before it in its send, or, for a send's first entry, than the producer's busy
    time after the send before. Out of it: the unit sends its results from time 0 and
    waits while an output FIFO has no room, the unit behind taking each entry as it
    becomes visible. The producer is assumed to have finished its pre-placement while
    the unit computed (its compute per chunk is far longer than a FIFO transfer)."""
    shared = dict(queues) if queues else {}
    keys = [q[0] for q in queues] if queues else list(range(len(hops)))
    into = [j for j, h in enumerate(hops) if h[3]]
    out = [j for j, h in enumerate(hops) if not h[3]]
    wait = _stream_entries(k, hops, entries, keys, shared, into, consumer=0)[0]
    stalled = _stream_entries(k, hops, entries, keys, shared, out, consumer=None)[1]
    return wait + stalled


_LONG_AGO = -(1 << 40)


def _stream_entries(k: int, hops, entries, keys, shared, order: list[int],
                    consumer: int | None) -> tuple[int, int]:
    """The sends `order` (indices into `hops`) of k entries each through their FIFOs:
    (when the receiver has taken the last entry, cycles the sender spent waiting for
    room). `consumer`: the receiver's time at the start (None: it takes each entry as
    soon as it is visible); the sender starts at time 0 when the receiver does not wait
    (`consumer` None), else long ago (it placed what fitted during the compute)."""
    sender = 0 if consumer is None else _LONG_AGO
    receiver = _LONG_AGO if consumer is None else consumer
    taken_in: dict[int, list[int]] = {}
    taken_queue: dict[object, list[int]] = {}
    stalled = 0
    for j in order:
        size, bw, latency, _ = hops[j]
        busy = -(-k * size // max(1, bw))
        visible_after = busy + latency
        depth = max(1, entries[j])
        queue = shared.get(keys[j])
        own = taken_in.setdefault(j, [])
        stream = taken_queue.setdefault(keys[j], [])
        start = placed = sender
        for _ in range(k):
            room = _LONG_AGO
            if len(own) >= depth:
                room = own[-depth]
            if queue and len(stream) >= queue:
                room = max(room, stream[-queue])
            placed = max(placed, room)
            receiver = max(receiver, placed + visible_after)
            own.append(receiver)
            stream.append(receiver)
        stalled += max(0, placed - max(start, 0))
        sender = placed + busy
    return max(receiver, 0), stalled


def _fifo_key(f) -> tuple[str, str, tuple[int, int]]:
    t = f.results[0].type
    return t.source.data, t.dest.data, ktdf.fifo_phase(f)


def _shared_queues(keys: list, depths: list, entries) -> tuple[tuple[object, int | None], ...]:
    """Per FIFO (in `keys` order): its queue's key, and the queue's depth when the FIFOs of
    that queue are given more entries between them than it holds (shared in send order),
    else None."""
    given: dict = {}
    for key, e in zip(keys, entries):
        given[key] = given.get(key, 0) + e
    return tuple((key, d if d and given[key] > d else None) for key, d in zip(keys, depths))


def _fifo_slots(private: ktdf.PrivateOp) -> dict[SSAValue, ktdf.FifoOp]:
    """The pipeline's FIFO slots (results of its `ktdf.private`) and the `ktdf.fifo` each
    hands out (its `ktdf.private_yield`)."""
    yielded = list(private.body.block.ops)[-1].operands
    return {slot: v.owner for slot, v in zip(private.results, yielded)
            if isinstance(v.owner, ktdf.FifoOp)}


def _received_in_send_order(pipe: ktdf.PipelineOp, members: list) -> bool:
    """Whether the pipeline sends into the FIFOs `members` and receives from them in one
    order, each once (its stages in order; the lowering emits them so and proves it on
    the program units, lower/fifo_order.py)."""
    if pipe.private is None:
        return False
    slot_of = {fifo: slot for slot, fifo in _fifo_slots(pipe.private).items()}
    slots = [slot_of.get(f) for f in members]
    if any(slot is None for slot in slots):
        return False
    wanted = set(slots)
    sends: list = []
    receives: list = []
    for op in pipe.walk():
        if isinstance(op, ktdf.DataTransferOp):
            if op.dest in wanted:
                sends.append(op.dest)
            if op.source in wanted:
                receives.append(op.source)
        elif isinstance(op, ktdf.WriteToFifoOp) and op.slot in wanted:
            sends.append(op.slot)
        elif isinstance(op, ktdf.ReadFromFifoOp) and op.slot in wanted:
            receives.append(op.slot)
    return sends == receives and len(sends) == len(wanted)


def _chunk_candidates(most: int, order: list, into: list[bool], groups: dict, queues: dict,
                      orderable: set) -> tuple[Candidate, ...]:
    """A FIFO pipeline's `chunk` candidates (`fifo_decisions`): held chunks of 1..most
    vectors, streaming profiles of 2..most, and, where the pipeline's FIFOs are received
    in the order they are sent (`orderable` queues), chunks whose FIFOs share their queue
    in that order: each given the chunk, up to the whole queue, where their even shares
    would not hold it. A candidate whose entries overdraw a queue is marked
    `in_send_order`, with the vectors the queue keeps in flight."""
    out: list[Candidate] = []
    seen: set = set()
    keys = [_fifo_key(f) for f in order]
    depths = [queues[key] for key in keys]

    def add(c: int, entries: tuple[int, ...]) -> None:
        if (c, entries) in seen:
            return
        seen.add((c, entries))
        shared = {key for key, queue in _shared_queues(keys, depths, entries) if queue}
        if shared - orderable:
            shared = set()  # (overdrawn, infeasible: no order to share the queue in)
        in_flight = 0
        if shared:
            ahead = [queues[key] // len(groups[key]) for key in shared]
            ahead += [e for key, e in zip(keys, entries) if key not in shared]
            in_flight = max(2, 1 + min(ahead))
        out.append(Candidate(c, streams=min(entries) < c, entries=entries,
                             in_send_order=bool(shared), in_flight=in_flight))

    for c in range(1, most + 1):
        add(c, _held_entries(c, order, groups, queues))
    for c in range(2, most + 1):
        for e in _streaming_profiles(c, order, into, groups, queues):
            add(c, e)
    for c in range(1, most + 1):
        # a queue whose FIFOs cannot each hold the chunk as their own: shared, each given
        # the chunk (at most the queue)
        profile = tuple(
            min(c, queue) if key in orderable and len(groups[key]) * min(c, queue) > queue
            else e
            for key, queue, e in zip(keys, depths, _held_entries(c, order, groups, queues)))
        if all(e <= queue for e, queue in zip(profile, depths)):
            add(c, profile)
    return tuple(out)


def _held_entries(c: int, order: list, groups: dict, queues: dict) -> tuple[int, ...]:
    """Entries per FIFO of a chunk of c vectors held whole in every FIFO: each FIFO's even
    share of its queue, or c where that is more (then the queue cannot give them and the
    candidate is infeasible). The queue is the pipeline's alone (`fifo_decisions`), and a
    deeper FIFO keeps more vectors in flight at no cost, so a held chunk takes its share:
    the lowering gives each FIFO exactly these entries, and the price assumes them. A
    queue with more FIFOs than entries is shared in send order: each FIFO may hold the
    chunk (c, at most the queue), the queue holding what it can of their stream."""
    return tuple(c if _in_send_order(f, groups, queues) else
                 max(c, queues[_fifo_key(f)] // len(groups[_fifo_key(f)])) for f in order)


def _in_send_order(f, groups: dict, queues: dict) -> bool:
    """Whether FIFO f's queue has more FIFOs than entries (shared in send order)."""
    key = _fifo_key(f)
    return len(groups[key]) > queues[key]


def _streaming_profiles(c: int, order: list, into: list[bool], groups: dict,
                        queues: dict) -> list[tuple[int, ...]]:
    """Entries per FIFO a streaming chunk of c vectors may ask for: the FIFOs into the
    compute unit, in send order, hold a whole chunk up to some point and e < c entries
    after it (the producer blocks at the first shallow one, so which ones hold matters:
    `streamed_chunk_cycles`); the FIFOs out of it hold a whole chunk when their queue
    allows. Only profiles every queue can give, and for each number of leading FIFOs
    that hold, only the deepest e the queue allows: the queue is this pipeline's alone
    (`fifo_decisions`), and deeper FIFOs take fewer rounds."""
    n_in = sum(into)
    out: list[tuple[int, ...]] = []
    for held in range(n_in):
        for e in range(c - 1, 0, -1):
            feed = [c] * held + [e] * (n_in - held)
            it = iter(feed)
            profile = []
            for f, is_in in zip(order, into):
                key = _fifo_key(f)
                given = next(it) if is_in else None
                if _in_send_order(f, groups, queues):
                    # a queue shared in send order: the stream goes through its entries
                    # whatever each FIFO is given, so each gets the most it can use
                    profile.append(min(c, queues[key]))
                elif is_in:
                    profile.append(given)
                else:
                    profile.append(min(c, queues[key] // len(groups[key])))
            fits = all(_in_send_order(members[0], groups, queues) or
                       sum(p for p, f in zip(profile, order) if _fifo_key(f) == key)
                       <= queues[key] for key, members in groups.items())
            if fits:
                if tuple(profile) not in out and min(profile) < c:
                    out.append(tuple(profile))
                break  # the deepest that fits
    return out


def vector_period(op: GenericOp, points: int, lanes: int, latency: int) -> int:
    """Cycles a vector unit spends on one invocation of an elementwise generic, as the
    lowering writes it and the emulator runs it (docs/dataflowir.md, docs/emulator.md):
    the ops are issued in order, each busy ceil(points / lanes) and its result ready the
    unit's latency later; an op waits for its operands' results. Before the body's ops:
    a shuffle per operand whose map or shape differs from the iteration's (a broadcast
    operand); a constant, or a scalar from outside the body, is made before the loop
    (docs/dataflowir.md, "Loop-invariant vector instructions"), so it is ready at once.
    The result is sent when ready. Dependent ops therefore cost
    about a latency each, which is what bounds a long elementwise body (layernorm's
    normalisation: ~60 cycles per vector where the op count alone says ~13)."""
    busy = -(-points // max(1, lanes))
    t = 0
    ready: dict[SSAValue, int] = {}

    def issue(deps: list[int], cycles: int = busy) -> int:
        nonlocal t
        t = max([t, *deps]) + cycles
        return t + latency

    def splat() -> int:
        return 0  # hoisted out of the loop by the lowering

    block = op.body.block
    maps = [m.data for m in op.indexing_maps]
    out = op.outputs[0].type if op.outputs else None
    shape = tuple(out.get_shape()) if isinstance(out, TensorType) else ()
    # a reduction within the vector: its inputs span the iteration space (no shuffle), and
    # the op combining into the output is preceded by a lane `reduce` into the output's
    # shape (a column sum: a `shuffle` of the row into it), which waits for the body's
    # result (docs/dataflowir.md)
    reducing = any("reduction" in str(getattr(t, "data", t)) for t in op.iterator_types)
    domain = AffineMap.identity(maps[0].num_dims) if reducing and maps else None
    for arg, operand, amap in zip(block.args, op.inputs, maps):
        t_in = operand.type
        if not isinstance(t_in, TensorType):
            ready[arg] = splat()
        elif (amap != domain if reducing else
              tuple(t_in.get_shape()) != shape or amap != AffineMap.identity(len(shape))):
            ready[arg] = issue([])
        else:
            ready[arg] = 0
    accumulators = list(block.args[len(op.inputs):])
    for arg in accumulators:
        ready[arg] = 0
    final = 0
    for inner in block.ops:
        if inner.name == "linalg.yield":
            final = max([0, *(ready.get(v, 0) for v in inner.operands)])
            break
        if isinstance(inner, arith.ConstantOp):
            ready[inner.results[0]] = splat()
            continue
        for v in inner.operands:
            if v not in ready:
                ready[v] = splat()
        combined = [v for v in inner.operands if v in accumulators] if reducing else []
        if combined:
            reduced = issue([ready[v] for v in inner.operands if v not in accumulators])
            for v in combined:
                ready[v] = reduced
        done = issue([ready[v] for v in inner.operands])
        for r in inner.results:
            ready[r] = done
    return max(t, final) + 1


def _short(t) -> str:
    text = str(t)
    return text[len("!spyreop."):] if text.startswith("!spyreop.") else text


def _body_ops(op: Operation) -> list[Operation]:
    out = []
    for region in op.regions:
        for block in region.blocks:
            out.extend(block.ops)
    return out


def _fetch_for_gather(op: ktdf.DataTransferOp) -> bool:
    """Whether `op` fetches the address buffer of a gather (`indirect-addresses` marks it
    "source:J"): the gather follows it on the same unit, which waits for the addresses to
    land before issuing it. A scatter's fetch ("target:J") is awaited by the store's unit,
    which the pipeline's tokens already order after it."""
    mark = op.attributes.get("ktdf.addresses_for")
    return isinstance(mark, StringAttr) and mark.data.startswith("source:")


def _size_values(static, dynamic) -> list[SSAValue | None]:
    """Each dim's size value (None for a static size), in the order of `_sizes`."""
    dyn = iter(dynamic)
    return [next(dyn) if v == ktdf.DYNAMIC_INDEX else None for v in static.get_values()]


def _sizes(static, dynamic, ev: _Evaluator, user: Operation | None = None) -> list[Expr]:
    dyn = iter(dynamic)
    out = []
    for v in static.get_values():
        out.append(ev(next(dyn), user) if v == ktdf.DYNAMIC_INDEX else _const(int(v)))
    return out


# ---- the module ------------------------------------------------------------------------


def _programs(module: ModuleOp) -> tuple[FuncOp, list[tuple[int, FuncOp]]]:
    orchestrator = None
    programs: list[tuple[int, FuncOp]] = []
    for op in module.body.block.ops:
        if isinstance(op, FuncOp) and op.body.blocks:
            orchestrator = op
        elif isinstance(op, ModuleOp):
            name = op.sym_name.data if op.sym_name else ""
            funcs = [f for f in op.body.block.ops if isinstance(f, FuncOp)]
            if not name.startswith("program_") or len(funcs) != 1:
                raise _fail(op, "expected `builtin.module @program_N` holding one function")
            programs.append((int(name.split("_")[-1]), funcs[0]))
    if orchestrator is None:
        raise _fail(None, "the ScheduleIR has no orchestrator function")
    programs.sort(key=lambda p: p[0])
    return orchestrator, programs


LOOP_COUNTED_ONCE = "a loop whose trip count is known only at launch is counted as one iteration"
BRANCH_COUNTED_TAKEN = "a call under a condition decided at launch or per core is counted as made"


def _calls(orchestrator: FuncOp) -> dict[str, tuple[int, tuple[str, ...]]]:
    """Per program symbol: how many times the orchestrator calls it (constant KTIR loops
    around the call multiply), and what that count had to assume that only a launch
    decides (the figure is then per iteration and per branch taken, not per launch: the
    runtime evaluates the prediction at launch from the per-call cycles instead). One walk
    of the orchestrator for all programs."""
    totals: dict[str, int] = {}
    assumed: dict[str, set[str]] = {}
    ev = _Evaluator()
    for op in orchestrator.walk():
        if not isinstance(op, CallOp):
            continue
        symbol = op.callee.root_reference.data
        found = assumed.setdefault(symbol, set())
        times = 1
        parent = op.parent_op()
        while parent is not None and parent is not orchestrator:
            if isinstance(parent, scf.ForOp):
                try:
                    times *= _trip(ev(parent.lb), ev(parent.ub), ev(parent.step))({})
                except ExtractError:
                    found.add(LOOP_COUNTED_ONCE)  # a run-time trip count: counted once
            elif isinstance(parent, scf.IfOp) and \
                    not isinstance(parent.cond.owner, arith.ConstantOp):
                found.add(BRANCH_COUNTED_TAKEN)
            parent = parent.parent_op()
        totals[symbol] = totals.get(symbol, 0) + times
    return {symbol: (max(total, 1), tuple(sorted(assumed[symbol])))
            for symbol, total in totals.items()}


def extract(module: ModuleOp, device: Device | None = None) -> Extraction:
    attr = module.attributes.get(DEVICE_ATTR)
    if device is None:
        if not isinstance(attr, StringAttr):
            raise _fail(module, f"the module has no {DEVICE_ATTR} attribute naming its device")
        device = load_device(attr.data)
    orchestrator, funcs = _programs(module)
    grid = orchestrator.attributes.get("grid")
    tiles = prod(a.value.data for a in grid.data) if grid is not None else 1
    sharers = max(1, min(tiles, device.num_cores))
    hw = _Hardware(device, sharers, tiles)
    decisions: list[Decision] = []
    programs: list[Program] = []
    ops: dict[str, Operation] = {}
    pinned = 0
    solved = {name: op for _, f in funcs for name, op in ktdf.decision_ops(f).items()}
    per_program = {index: _decisions(func, index) for index, func in funcs}
    spanning_names = _spanning_keeps(funcs)
    calls = _calls(orchestrator)
    running = running_tiles(orchestrator, tiles)
    spanning = {d.name: d for ds, _, _ in per_program.values() for d in ds
                if d.name in spanning_names}
    for index, func in funcs:
        pin = func.attributes.get(PINNED_ATTR)
        if isinstance(pin, IntegerAttr):
            pinned = max(pinned, pin.value.data)
        ds, dops, limits = per_program[index]
        decisions += ds
        ops.update(dops)
        own = pin.value.data if isinstance(pin, IntegerAttr) else 0
        regions = _resident_regions(func, spanning, own)
        shared = [spanning[n] for n in regions if spanning[n] not in ds]
        runs = running.get(func.sym_name.data)
        # a program the tile-id guards give to fewer cores is priced for those cores
        program_hw = hw if runs is None or len(runs) >= sharers else \
            _Hardware(device, max(1, len(runs)), tiles, runs)
        reader = _ProgramReader(index, func, ds + shared, program_hw, solved)
        if regions:
            # the regions sit above the pinned bytes, which count rounded up to the
            # granularity (below): measured from there, the rounding is not counted twice
            step = max(hw.granularity(device.memory_kind_for("ct_local")), 1)
            reader.buffers.append(_region_buffer([spanning[n] for n in regions],
                                                 [regions[n] for n in regions],
                                                 -(-own // step) * step, device))
        fifo_ds, fifo_ops, splits = reader.fifo_decisions()
        decisions += fifo_ds
        ops.update(fifo_ops)
        pipes = []
        for k, op in enumerate(o for o in func.walk() if isinstance(o, ktdf.PipelineOp)
                               and _outermost(o)):
            pipes.append(reader.pipeline(op, f"pipe{k}"))
        pipes = [_stores_staggered(q, {}) for q in pipes]
        programs.append(Program(index, func.sym_name.data, tuple(pipes), tuple(reader.buffers),
                                tuple(reader.fifos), tuple(reader.registers), tuple(limits),
                                *calls.get(func.sym_name.data, (1, ())),
                                tuple(splits)))
    corelets = max((len(device.corelets(c)) for c in device.cores), default=1) or 1
    scratch_kind = device.memory_kind_for("ct_local")
    # compiler buffers start on the scratchpad's access granularity, so the pinned region
    # takes its bytes rounded up to it (softmax_rows: 2312 B pinned keep 2432 B)
    regions = (PinnedRegion("ct_local views", pinned, "ktdf.pinned_bytes",
                            hw.granularity(scratch_kind)),) if pinned else ()
    others = {}
    for p in programs:
        for b in p.buffers:
            if b.memory and b.memory != scratch_kind and b.memory not in others:
                others[b.memory] = device.memories_of_kind(b.memory, hw.core)[0].size \
                    if device.memories_of_kind(b.memory, hw.core) else \
                    device.memories_of_kind(b.memory)[0].size
    kernel = orchestrator.sym_name.data
    problem = Problem(kernel, device.name, device.scratchpad(hw.core).size, tuple(decisions),
                      tuple(programs), regions, corelets, others)
    return Extraction(problem, module, device, ops)


def _stores_staggered(p: Pipeline, outer: dict[str, tuple]) -> Pipeline:
    """`p` with every store stage of a nested pipeline (transfers into a shared memory
    only) marked with the shared memories an earlier stage of the program moves data
    through (`Stage.staggered`; one a choice may leave unused spreads nothing there). The first transfer through device memory serves the
    cores one after another; a store waits for its phase's compute, so the cores reach it
    in that order, long after the loads that contended (a later phase's loads are issued
    as soon as the DMA is free, together, and do contend: they stay unmarked). The cost
    model marks the stages of one pipeline itself (`cost.staggered_stages`); this carries
    the order into nested pipelines, e.g. the normalisation's store after the statistics'
    loads. It spreads them only as far as one iteration of that earlier traffic does:
    the store carries those transfers (`Stage.stagger_spread`, `_spreading`), and a store
    larger than their spread still waits for the other cores' share beyond it."""
    seen: dict[str, tuple] = dict(outer)
    stages: list[Stage] = []
    for st in p.stages:
        work = tuple(_stores_staggered(w, dict(seen)) if isinstance(w, Pipeline) else w
                     for w in st.work)
        stores = bool(st.work) and all(isinstance(w, Transfer) and w.shared_memory
                                       and w.target == w.shared_memory for w in st.work)
        # (the earlier stages of this pipeline spread the cores too: their groups count)
        added = {m: seen[m] for m in outer if m not in st.staggered} if stores else {}
        marked = tuple(sorted(set(st.staggered) | set(added)))
        spread = tuple(sorted({**dict(st.stagger_spread), **added}.items(),
                              key=lambda kv: kv[0]))
        if work != st.work or marked != st.staggered or spread != st.stagger_spread:
            st = replace(st, work=work, staggered=marked, stagger_spread=spread)
        stages.append(st)
        for m, groups in _spreading(st).items():
            seen[m] = seen.get(m, ()) + groups
    return replace(p, stages=tuple(stages))


def _spreading(stage: Stage) -> dict[str, tuple[tuple[Transfer, ...], ...]]:
    """Per shared memory the stage moves data through (its nested pipelines' included;
    `cost.shared_memories` looks at its own transfers only), the groups of transfers one
    iteration of it issues there: its own, and each stage's of its nested pipelines. A
    transfer a choice may empty (an input kept resident) is in its group: the spread is
    read at the choice (`cost.stagger_spread`), where it moves nothing and spreads
    nothing."""
    out: dict[str, list] = {}
    own: dict[str, list[Transfer]] = {}
    for w in stage.work:
        if through_shared_memory(w):
            own.setdefault(w.shared_memory, []).append(w)
        elif isinstance(w, Pipeline) and w.iterations.least() > 0:
            for inner in w.stages:
                for m, groups in _spreading(inner).items():
                    out.setdefault(m, []).extend(groups)
    for m, ws in own.items():
        out.setdefault(m, []).append(tuple(ws))
    return {m: tuple(g) for m, g in out.items()}


def _spanning_keeps(funcs: list[tuple[int, FuncOp]]) -> set[str]:
    """Names of the choices whose region spans programs: keeps with `last_program` set,
    and fetch-once shares (the slice lives from the fetch program to the reader)."""
    return {op.decision.data for _, f in funcs for op in f.walk()
            if isinstance(op, ktdf.KeepResidentOp) and op.last_program is not None
            or isinstance(op, ktdf.ShareFetchOp)}


def _resident_regions(func: FuncOp, spanning: dict[str, Decision],
                      pinned: int = 0) -> dict[str, int]:
    """The regions kept across programs that this program must leave alone when kept:
    decision name -> the region's end byte (`ktdf.resident_regions`: [start, end))."""
    attr = func.attributes.get(REGIONS_ATTR)
    if not isinstance(attr, DictionaryAttr):
        return {}
    out = {}
    for name, value in sorted(attr.data.items()):
        if name not in spanning:
            raise _fail(func, f"{REGIONS_ATTR} names {name}, which is no keep choice "
                              "spanning programs")
        bounds = value.get_values() if isinstance(value, DenseArrayBase) else ()
        if len(bounds) != 2 or not 0 <= bounds[0] <= bounds[1]:
            raise _fail(func, f"{REGIONS_ATTR}: {name} must be array<i64: START, END>")
        if bounds[0] < pinned:
            raise _fail(func, f"{REGIONS_ATTR}: region {name} at bytes [{bounds[0]}, "
                              f"{bounds[1]}) overlaps the program's {pinned} pinned bytes")
        out[name] = int(bounds[1])
    return out


def _region_buffer(keeps: list[Decision], ends: list[int], pinned: int,
                   device: Device) -> Buffer:
    """The regions kept across programs that a program must leave alone, as one buffer of
    that program: their places are fixed, so it needs the bytes from its (aligned) pinned
    end to the end of the highest region kept (0 when none is)."""
    def size(*cands) -> int:
        kept = [end for end, c in zip(ends, cands) if c.value]
        return max(0, max(kept) - pinned) if kept else 0
    name = "+".join(k.name for k in keeps)
    return Buffer(f"{name}.region", Quantity.of(keeps, size), 1, "resident",
                  device.memory_kind_for("ct_local"))


def _outermost(pipe: ktdf.PipelineOp) -> bool:
    parent = pipe.parent_op()
    while parent is not None:
        if isinstance(parent, ktdf.PipelineOp):
            return False
        parent = parent.parent_op()
    return True
