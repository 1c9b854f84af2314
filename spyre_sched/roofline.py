"""The roofline bound: a lower bound on a kernel's cycles from its KTIR and the device alone.

No schedule is involved. Three resources must each do a fixed amount of work whatever
the schedule, and none can go faster than the device description says:

- **device memory**: every byte of global memory the kernel loads is read once and every
  byte it stores is written once (the union over all compute tiles, so data read by every
  tile, such as a broadcast bias, counts once). Data the kernel pins in a `ct_local`
  scratchpad never crosses the device-memory port. Cycles = ceil(bytes / bandwidth of the
  device memory), the bandwidth shared by every core. Each core must also bring in the
  global bytes its own tile reads (and send out those it writes) over the datapaths
  between device memory and that core: ceil(bytes / their summed bandwidth) per core and
  direction. The memory term is the largest of these (on Spyre the shared port binds; on
  a device whose memory states no bandwidth, the per-core links do).
- **vector compute**: every linalg op that computes (and every elementwise
  arith/math/spyreop op on tensors) is at least one vector instruction per `lanes`
  elements of its iteration domain, however its body is split into instructions; fills
  (a constant) and generics whose body only yields (a copy) are not vector work. A compute tile's work runs on its own core (the frontend chose the work
  division; the back end never re-decides it), on that core's vector compute units (one
  per corelet). Cycles = max over compute tiles of ceil(vector instructions / vector
  units per core).
- **matrix unit (MACs)**: on a device with a matrix unit, every matmul-shaped op
  (`dialects/linalg_matmul.py`: `linalg.matmul`, a matmul-shaped `linalg.generic`) whose
  operand type the unit multiplies is M * N * K multiply-accumulates, done on the tile's
  core by its matrix units (one per corelet) at their MAC rate for that type. Cycles = max
  over compute tiles of ceil(MACs / (MAC rate * matrix units per core)). Those ops are
  not counted as vector work (the scheduler runs them on the matrix unit).
- **on-chip interconnect**: bytes a tile reads from (or writes to) another core's
  scratchpad leave the source scratchpad and enter the destination scratchpad over the
  first and last datapath of the device's route between them (on Spyre: the ring). So do,
  per execution, one partial into every consumer of an inter-tile consume or reduce that
  needs another tile's partial, and one out of every producer another tile needs. Cycles
  = max over those datapaths of ceil(bytes / bandwidth).

Only the work a store needs is counted (`_live_ops`: loads, compute and exchanges whose
values reach a store): the scheduler drops the rest, so no schedule need do it.

The bound is the largest of the four. Latencies are left out on purpose: it is a
roofline (throughput only); fill, drain and exposed latency are what separate a schedule
from it.

**Per program.** The back end runs a kernel as programs, one after another, one per
compute group (a store and what it needs, `schedule.program_split.compute_groups`; the
split is fixed by the kernel, not chosen). Their times add, so the program bound is the
sum over programs of each program's largest term (memory, compute, MACs, ring, each counted for
that program's own ops), plus the latency of the first program's cheapest route: the
first program cannot end before its last access lands, nor compute before its first
input lands. A program's device-memory bytes leave out what an earlier program already
loaded (a schedule may keep it on chip) and stores a later program overwrites, so the
programs' bytes add up to the kernel-wide count and every term still errs low.
`bound_cycles` stays the kernel-wide figure; `program_bound_cycles` is this one, never
below it (a sum of maxima is at least the maximum of the sums). Every count errs low (iteration domains are taken as the largest operand, the
widest SIMD width of the op's element types is assumed, work under `scf.if` and indirect
accesses are not counted and are listed in `notes`), so emulated cycles below the bound
mean a bug in the emulator or in the device figures, never in the bound.

The formula, with a worked example, is in docs/benchmarks.md.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field, replace

import numpy as np
from xdsl.dialects import scf
from xdsl.dialects.builtin import ShapedType, TensorType
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import Operation
from xdsl.traits import IsTerminator

from spyre_sched.device.model import Datapath, Device, occupancy_cycles
from spyre_sched.device.routing import find_route
from spyre_sched.dialects.linalg_ktir import inside_linalg_body
from spyre_sched.dialects.ktdp import InterTileConsumeOp, InterTileReduceOp, StoreOp
from spyre_sched.dialects.linalg_matmul import matmul_dims
from spyre_sched.errors import DeviceError, UnsupportedError
from spyre_sched.frontend.kernel import Kernel
from spyre_sched.polyhedral.accesses import AccessModel
from spyre_sched.polyhedral.exchanges import exchanges
from spyre_sched.polyhedral.point_sets import box_bounds, contains
from spyre_sched.polyhedral.iterations import iterations
from spyre_sched.polyhedral.kernel_model import KernelModel
from spyre_sched.polyhedral.views import MemoryRef, ViewModel, element_name

TERMS = ("memory", "compute", "mac", "ring")


@dataclass(frozen=True)
class LinkTraffic:
    """Bytes that must cross a link (a datapath, or all the datapaths between device memory
    and one core), and the cycles that takes at its bandwidth."""

    source: str
    target: str
    bytes: int
    bandwidth: int
    egress: bool
    """True for traffic leaving the source (a scratchpad, or a core towards device memory),
    False for traffic entering the destination."""

    @property
    def cycles(self) -> int:
        return occupancy_cycles(self.bytes, self.bandwidth)


@dataclass(frozen=True)
class Roofline:
    kernel: str
    device: str
    tiles: int
    # device memory
    read_bytes: int
    write_bytes: int
    memory_bandwidth: int | None
    """Bytes per cycle of the device memory's port (None: the device states no cap)."""
    memory_links: tuple[LinkTraffic, ...]
    """Per core and direction: bytes between device memory and the core, and the summed
    bandwidth of the datapaths that can carry them."""
    # vector compute
    vector_instructions: tuple[int, ...]
    """Per compute tile (= per core the grid maps to)."""
    vector_units_per_core: int
    # on-chip interconnect
    ring_links: tuple[LinkTraffic, ...]
    as_written_bytes: int = 0
    """Not part of the bound: global bytes if every load and store op of the kernel moves
    its own footprint once (data two ops read, e.g. X in both passes of a softmax written
    as two programs, counts twice). The floor for a schedule that keeps nothing on chip
    between the ops the kernel wrote."""
    notes: tuple[str, ...] = field(default=())
    macs: tuple[int, ...] = ()
    """Per compute tile: multiply-accumulates on the matrix unit."""
    mac_rate_per_core: int = 0
    """MACs per cycle of one core's matrix units (0: none, or no matmul)."""
    programs: tuple[ProgramTerms, ...] = field(default=())
    """Per program (in the order they run), its own memory, compute and ring cycles."""
    first_access_latency: int = 0
    """Cycles of the first program's cheapest route (0 if it touches its own scratchpad)."""

    @property
    def program_bound_cycles(self) -> int:
        """Σ over programs of max(memory, compute, ring) + the first access's latency."""
        if not self.programs:
            return self.bound_cycles
        # both are lower bounds; work no program claims (an exchange outside every compute
        # group) keeps the kernel-wide figure the floor
        return max(self.bound_cycles,
                   sum(p.bound_cycles for p in self.programs) + self.first_access_latency)

    @property
    def memory_bytes(self) -> int:
        return self.read_bytes + self.write_bytes

    @property
    def memory_port_cycles(self) -> int:
        if self.memory_bandwidth is None:
            return 0
        return occupancy_cycles(self.memory_bytes, self.memory_bandwidth)

    @property
    def memory_cycles(self) -> int:
        return max(self.memory_port_cycles,
                   max((link.cycles for link in self.memory_links), default=0))

    @property
    def as_written_cycles(self) -> int | None:
        if self.memory_bandwidth is None:
            return None
        return occupancy_cycles(self.as_written_bytes, self.memory_bandwidth)

    @property
    def compute_cycles(self) -> int:
        return max((-(-v // self.vector_units_per_core) for v in self.vector_instructions),
                   default=0)

    @property
    def mac_cycles(self) -> int:
        if not self.mac_rate_per_core:
            return 0
        return max((-(-m // self.mac_rate_per_core) for m in self.macs), default=0)

    @property
    def ring_bytes(self) -> int:
        """Bytes that cross between scratchpads (each counted once, at its source)."""
        return sum(link.bytes for link in self.ring_links if link.egress)

    @property
    def ring_cycles(self) -> int:
        return max((link.cycles for link in self.ring_links), default=0)

    @property
    def terms(self) -> dict[str, int]:
        return {"memory": self.memory_cycles, "compute": self.compute_cycles,
                "mac": self.mac_cycles, "ring": self.ring_cycles}

    @property
    def bound_cycles(self) -> int:
        return max(self.terms.values())

    @property
    def binding(self) -> str:
        """Which term sets the bound (the first of memory, compute, ring on a tie)."""
        terms = self.terms
        return max(TERMS, key=lambda t: (terms[t], -TERMS.index(t)))

    def as_dict(self) -> dict[str, object]:
        return {
            "bound_cycles": self.bound_cycles,
            "binding": self.binding,
            "memory_cycles": self.memory_cycles,
            "compute_cycles": self.compute_cycles,
            "mac_cycles": self.mac_cycles,
            "ring_cycles": self.ring_cycles,
            "read_bytes": self.read_bytes,
            "write_bytes": self.write_bytes,
            "memory_bandwidth": self.memory_bandwidth,
            "memory_port_cycles": self.memory_port_cycles,
            "memory_link_cycles": max((link.cycles for link in self.memory_links), default=0),
            "vector_instructions_max_tile": max(self.vector_instructions, default=0),
            "vector_units_per_core": self.vector_units_per_core,
            "macs_max_tile": max(self.macs, default=0),
            "mac_rate_per_core": self.mac_rate_per_core,
            "ring_bytes": self.ring_bytes,
            "as_written_bytes": self.as_written_bytes,
            "as_written_cycles": self.as_written_cycles,
            "program_bound_cycles": self.program_bound_cycles,
            "first_access_latency": self.first_access_latency,
            "programs": [p.as_dict() for p in self.programs],
            "notes": list(self.notes),
        }

    def __str__(self) -> str:
        lines = [
            f"roofline bound of @{self.kernel} on {self.device}: {self.bound_cycles} cycles "
            f"({self.binding}-bound)",
            f"  memory : {self.memory_cycles:>10} cycles: port ({self.read_bytes} B read + "
            f"{self.write_bytes} B written) / "
            + (f"{self.memory_bandwidth} B/cycle = {self.memory_port_cycles}"
               if self.memory_bandwidth is not None else "no stated bandwidth")
            + "; busiest core link " + _busiest(self.memory_links),
            f"  compute: {self.compute_cycles:>10} cycles = "
            f"{max(self.vector_instructions, default=0)} vector instructions (busiest tile) / "
            f"{self.vector_units_per_core} vector units per core",
            f"  mac    : {self.mac_cycles:>10} cycles = "
            + (f"{max(self.macs, default=0)} MACs (busiest tile) / {self.mac_rate_per_core} "
               "MACs per cycle per core" if self.mac_rate_per_core else "no matrix work"),
            f"  ring   : {self.ring_cycles:>10} cycles: busiest link "
            + _busiest(self.ring_links),
        ]
        if self.programs:
            lines.append(f"  by program (they run one after another): "
                         f"{self.program_bound_cycles} cycles = "
                         + " + ".join(f"{p.bound_cycles} ({p.binding})" for p in self.programs)
                         + f" + {self.first_access_latency} (first access latency)")
        lines += [f"  note: {n}" for n in self.notes]
        return "\n".join(lines)


@dataclass(frozen=True)
class ProgramTerms:
    """One program's share of the bound: the cycles its own ops need of each resource."""

    memory: int
    compute: int
    ring: int
    mac: int = 0

    @property
    def bound_cycles(self) -> int:
        return max(self.memory, self.compute, self.ring, self.mac)

    @property
    def binding(self) -> str:
        terms = self.as_dict()
        return max(TERMS, key=lambda t: (terms[t], -TERMS.index(t)))

    def as_dict(self) -> dict[str, int]:
        return {"memory": self.memory, "compute": self.compute, "mac": self.mac,
                "ring": self.ring}


def _busiest(links: tuple[LinkTraffic, ...]) -> str:
    if not links:
        return "none (no traffic)"
    top = max(links, key=lambda link: link.cycles)
    return (f"{top.source} -> {top.target}: {top.bytes} B / {top.bandwidth} B/cycle = "
            f"{top.cycles}")


def roofline(kernel: Kernel, device: Device,
             arguments: dict[str, int | float] | None = None) -> Roofline:
    """The roofline bound of `kernel` on `device` (see the module docstring).
    `arguments`: values of run-time (and scalar) arguments by name, for the bound of one
    launch; a run-time extent left unbound counts at its upper bound, so that bound
    holds for the largest launch only."""
    device.check_grid(kernel.num_tiles)
    model = KernelModel(kernel.func, kernel.grid, bindings=arguments)
    notes: list[str] = []
    touches: list[Touch] = []
    # work that feeds no store is dropped by the scheduler, so no schedule need do it
    live = _live_ops(kernel.func)
    dead = [op for op in (*(a.op for a in model.accesses), *_compute_ops(kernel.func))
            if op not in live and _does_arithmetic(op)]
    if dead:
        notes.append(f"{len(dead)} op(s) feed no store (first: {dead[0].name} at "
                     f"{kernel.location_of(dead[0])}): their work is not counted")
    for index, access in enumerate(model.accesses):
        where = kernel.location_of(access.op)
        if access.op not in live:
            continue
        if not access.exact:
            notes.append(f"{access.op.name} at {where}: indirect access, its traffic is "
                         "not counted")
            continue
        if _under_condition(access.op, kernel.func):
            notes.append(f"{access.op.name} at {where}: under scf.if, not counted")
            continue
        previous: list[Touch] = []
        for tile in range(model.tile_count):
            found = touched(model, access, tile, index)
            # every tile of a matmul reads the whole B: one array for all (4096^3: 32
            # copies of 16.7 M addresses otherwise)
            for k, t in enumerate(found):
                same = next((p.addresses for p in previous if p.root == t.root
                             and np.array_equal(p.addresses, t.addresses)), None)
                if same is not None:
                    found[k] = replace(t, addresses=same)
            previous = found
            touches += found
    memory = device.device_memory()
    read_bytes, write_bytes, memory_links = _device_memory_traffic(device, touches)
    as_written = _as_written_bytes(touches)
    vectors, units, macs, mac_rate = _vector_work(kernel, model, device, notes, live)
    exchange_flows = _exchange_flows(kernel, model, device, notes, live)
    ring_links = _ring_links(device, touches, exchange_flows)
    programs, latency = _program_terms(kernel, model, device, touches)
    return Roofline(kernel.name, device.name, model.tile_count, read_bytes, write_bytes,
                    memory.bandwidth, tuple(memory_links), tuple(vectors), units,
                    tuple(ring_links), as_written, tuple(notes), macs=tuple(macs),
                    mac_rate_per_core=mac_rate, programs=tuple(programs),
                    first_access_latency=latency)


def _live_ops(func: Operation) -> set[Operation]:
    """The ops a store needs: the stores, every op whose result a needed op uses, the ops
    holding a needed op (its loop, its condition), and the terminators of a needed op's
    regions (what a loop carries, a linalg body or an inter-tile produce yields)."""
    live: set[Operation] = set()
    work = [op for op in func.walk() if isinstance(op, StoreOp)]
    while work:
        op = work.pop()
        if op in live or op is func:
            continue
        live.add(op)
        # (a block argument's op holds the user, so the parents below reach it)
        work += [v.owner for v in op.operands if isinstance(v.owner, Operation)]
        parent = op.parent_op()
        if parent is not None:
            work.append(parent)
        for region in op.regions:
            for block in region.blocks:
                last = block.last_op
                if last is not None and last.has_trait(IsTerminator):
                    work.append(last)
    return live


# ---- per program --------------------------------------------------------------------


def _program_terms(kernel: Kernel, model: KernelModel, device: Device,
                   touches: list[Touch]) -> tuple[list[ProgramTerms], int]:
    """Each program's memory, compute and ring cycles, and the first access's latency.
    Accesses and compute ops outside every program (work that feeds no store, which the
    scheduler drops) count nowhere."""
    from spyre_sched.schedule.program_split import compute_groups

    groups = compute_groups(kernel.func)
    program_of: dict[Operation, int] = {op: k for k, g in enumerate(groups) for op in g}
    access_program = [program_of.get(a.op) for a in model.accesses]
    by_program: list[list[Touch]] = [[] for _ in groups]
    for t in touches:
        k = access_program[t.op]
        if k is not None:
            by_program[k].append(t)
    # Device-memory bytes a program must move itself: loads of data no earlier program
    # loaded, stores no later program overwrites (the kernel-wide count, split: summed
    # over programs it is the kernel's, so the program bound is never below the other).
    seen: dict[tuple, list[np.ndarray]] = defaultdict(list)
    firsts: list[list[Touch]] = []
    for own in by_program:
        firsts.append([_minus(t, seen) if t.kind == "load" and t.memory.space == "global"
                       else t for t in own])
        for t in own:
            if t.kind == "load" and t.memory.space == "global":
                seen[(t.root, t.element_bytes)].append(t.addresses)
    later: dict[tuple, list[np.ndarray]] = defaultdict(list)
    for k in range(len(groups) - 1, -1, -1):
        own = firsts[k]
        firsts[k] = [_minus(t, later) if t.kind == "store" and t.memory.space == "global"
                     else t for t in own]
        for t in own:
            if t.kind == "store" and t.memory.space == "global":
                later[(t.root, t.element_bytes)].append(t.addresses)
    memory = device.device_memory()
    terms = []
    for k, own in enumerate(firsts):
        own = [t for t in own if len(t.addresses)]
        reads, writes, links = _device_memory_traffic(device, own) if own else (0, 0, [])
        port = (occupancy_cycles(reads + writes, memory.bandwidth)
                if memory.bandwidth is not None else 0)
        mem = max([port, *(link.cycles for link in links)])
        ops = {op for op in groups[k]}
        per_tile, units, macs, mac_rate = _vector_work(kernel, model, device, [], ops)
        compute = max((-(-v // units) for v in per_tile), default=0)
        mac = max((-(-m // mac_rate) for m in macs), default=0) if mac_rate else 0
        flows = _exchange_flows(kernel, model, device, [], ops)
        ring = max((link.cycles for link in _ring_links(device, own, flows)), default=0)
        terms.append(ProgramTerms(mem, compute, ring, mac))
    return terms, _first_access_latency(device, by_program[0] if by_program else [])


def _minus(t: Touch, drop: dict[tuple, list[np.ndarray]]) -> Touch:
    """The touch without the addresses `drop` holds for its root and element size."""
    chunks = drop.get((t.root, t.element_bytes))
    if not chunks:
        return t
    keep = ~np.isin(t.addresses, np.concatenate(chunks))
    if keep.all():
        return t
    return Touch(t.kind, t.tile, t.memory, t.root, t.element_bytes, t.addresses[keep], t.op)


def _first_access_latency(device: Device, touches: list[Touch]) -> int:
    """The smallest latency of a route the first program's accesses take (a load from
    device memory into the tile's scratchpad, a store back, a remote scratchpad): its
    last access lands at least that long after its last transfer, and its compute waits
    at least that long for its first input. 0 when it touches its own scratchpad."""
    memory = device.device_memory().name
    found: dict[tuple, int] = {}
    for t in touches:
        if t.memory.space != "global" and not t.remote:
            return 0
        key = (t.kind, t.tile, t.memory.core if t.remote else None)
        if key in found:
            continue
        try:
            own = device.scratchpad(t.tile).name
            other = memory if t.memory.space == "global" else device.scratchpad(t.memory.core).name
            route = find_route(device, other, own) if t.kind == "load" else find_route(device, own, other)
        except DeviceError:
            return 0  # no route to measure (the schedule will say why): claim nothing
        found[key] = route.latency
    return min(found.values(), default=0)


# ---- what each access touches -------------------------------------------------------


@dataclass(frozen=True)
class Touch:
    """The element addresses one access of one compute tile touches in one memory."""

    kind: str  # "load" | "store"
    tile: int
    memory: MemoryRef  # resolved: the executing tile's own scratchpad has its core
    root: tuple[str, ...]  # pointer arguments the addresses are relative to
    element_bytes: int
    addresses: np.ndarray
    op: int  # which load/store op of the kernel (its index in program order)

    @property
    def remote(self) -> bool:
        return self.memory.space == "ct_local" and self.memory.core != self.tile


def touched(model: KernelModel, access: AccessModel, tile: int, op: int = 0) -> list[Touch]:
    """Per view part, the addresses `access` touches in `tile` over all its loop iterations.

    A point outside every part's coordinate set is masked (never touched); a point goes to
    the first part that holds it. Points come from the polyhedral layer's enumeration, a
    whole access tile at a time."""
    found: list[Touch] = []
    parts = access.view.parts
    for env in iterations(model.values, access.loops, model.default_env(tile)):
        points = access.points(env)
        if len(points) == 0:
            continue
        remaining = np.ones(len(points), dtype=bool) if len(parts) > 1 else None
        # Column by column: numpy's axis-0 reduction of an (N, 2) array is ~15x slower.
        lo = [int(points[:, k].min()) for k in range(points.shape[1])]
        hi = [int(points[:, k].max()) for k in range(points.shape[1])]
        for part in parts:
            mask = _held(part, points, lo, hi, env)
            if remaining is not None:
                mask = remaining if mask is None else (mask & remaining)
                remaining = remaining & ~mask
            held = points if mask is None else points[mask]
            if len(held) == 0:
                continue
            found.append(Touch(access.kind, tile, part.memory.resolve(tile), part.root_key,
                               part.element_bytes, _addresses(part, held, env), op))
    return found


def _held(part: ViewModel, points: np.ndarray, lo, hi, env) -> np.ndarray | None:
    """Which points the part's coordinate set holds (None: all of them)."""
    symbols = part.symbol_values(env)
    box = box_bounds(part.coordinate_set, symbols)
    if box is not None and all(b[0] <= int(a) and int(c) <= b[1]
                               for a, c, b in zip(lo, hi, box)):
        return None
    return contains(part.coordinate_set, points, symbols)


def _addresses(part: ViewModel, points: np.ndarray, env: dict[str, int]) -> np.ndarray:
    """Element addresses, relative to the view's pointer arguments."""
    env = {**env, **{v.name: 0 for v in part.root}}
    minima = part.concrete_minima(env)
    corners = np.vstack([minima, minima + np.eye(len(minima), dtype=np.int64)])
    at = part.address_of(corners, env)  # the view's own addressing: origin and strides
    origin, strides = int(at[0]), at[1:] - at[0]
    result = np.full(len(points), origin, dtype=np.int64)
    for k, stride in enumerate(strides):
        if stride:
            result += (points[:, k] - minima[k]) * int(stride)
    return result


# ---- device memory ------------------------------------------------------------------


def _device_memory_traffic(device: Device,
                           touches: list[Touch]) -> tuple[int, int, list[LinkTraffic]]:
    """Unique bytes loaded from and stored to global memory over all tiles, and per core
    the unique bytes its tile moves over the datapaths between device memory and it."""
    everyone: dict[tuple[str, tuple[str, ...], int], list[np.ndarray]] = defaultdict(list)
    per_tile: dict[tuple[int, str, tuple[str, ...], int], list[np.ndarray]] = defaultdict(list)
    for t in touches:
        if t.memory.space != "global":
            continue
        everyone[(t.kind, t.root, t.element_bytes)].append(t.addresses)
        per_tile[(t.tile, t.kind, t.root, t.element_bytes)].append(t.addresses)
    total = {"load": 0, "store": 0}
    for (kind, _root, element_bytes), chunks in sorted(everyone.items()):
        total[kind] += _unique_count(chunks) * element_bytes
    moved: dict[tuple[int, str], int] = defaultdict(int)
    for (tile, kind, _root, element_bytes), chunks in sorted(per_tile.items()):
        moved[(tile, kind)] += _unique_count(chunks) * element_bytes
    memory = device.device_memory().name
    links = []
    for (tile, kind), nbytes in sorted(moved.items()):
        core = device.core(tile)
        if kind == "load":
            paths = [dp for dp in device.datapaths
                     if dp.source == memory and device.core_of(dp.target) == core]
            source, target = memory, core.name
        else:
            paths = [dp for dp in device.datapaths
                     if dp.target == memory and device.core_of(dp.source) == core]
            source, target = core.name, memory
        if not paths:
            raise DeviceError(f"device {device.name}: no datapath between {memory} and "
                              f"{core.name}, but tile {tile} of the kernel uses global memory")
        links.append(LinkTraffic(source, target, nbytes, sum(dp.bandwidth for dp in paths),
                                 egress=kind == "store"))
    return total["load"], total["store"], links


def _as_written_bytes(touches: list[Touch]) -> int:
    """Global bytes summed over the kernel's load and store ops, each op's union once."""
    per_op: dict[tuple[int, tuple[str, ...], int], list[np.ndarray]] = defaultdict(list)
    for t in touches:
        if t.memory.space == "global":
            per_op[(t.op, t.root, t.element_bytes)].append(t.addresses)
    return sum(_unique_count(chunks) * eb for (_op, _root, eb), chunks in sorted(per_op.items(),
               key=lambda item: item[0]))


def _unique_count(chunks: list[np.ndarray]) -> int:
    """How many distinct integers the arrays hold (a bitmap over their range)."""
    chunks = list({id(c): c for c in chunks}.values())  # an array shared by tiles once
    lo = min(int(c.min()) for c in chunks if len(c))
    hi = max(int(c.max()) for c in chunks if len(c))
    seen = np.zeros(hi - lo + 1, dtype=bool)
    for c in chunks:
        seen[c - lo] = True
    return int(seen.sum())


# ---- vector compute -----------------------------------------------------------------

_ELEMENTWISE_DIALECTS = ("arith.", "math.", "spyreop.")


def _vector_work(kernel: Kernel, model: KernelModel, device: Device,
                 notes: list[str], only: set[Operation] | None = None
                 ) -> tuple[list[int], int, list[int], int]:
    """Vector instructions per compute tile and vector compute units per core; MACs per
    compute tile on the matrix units and their MAC rate per core (the slowest core's); of
    the ops in `only`, when given."""
    units = min(len(device.compute_units(core, compute_class="vector"))
                for core in device.cores[:model.tile_count])
    if units == 0:
        raise DeviceError(f"device {device.name} has no vector compute unit in a core")
    per_tile = [0] * model.tile_count
    macs = [0] * model.tile_count
    mac_rate = 0
    for op in _compute_ops(kernel.func):
        if only is not None and op not in only:
            continue
        where = kernel.location_of(op)
        if _under_condition(op, kernel.func):
            notes.append(f"{op.name} at {where}: under scf.if, its work is not counted")
            continue
        if not _does_arithmetic(op):
            continue
        loops = model.values.enclosing_loops(op)
        rate = _mac_rate(op, device, model.tile_count)
        if rate:
            mac_rate = rate if not mac_rate else min(mac_rate, rate)
            count = _matmul_macs(op)
            for tile in range(model.tile_count):
                trips = sum(1 for _ in iterations(model.values, loops, model.default_env(tile)))
                macs[tile] += count * trips
            continue
        vectors = -(-_domain_elements(op) // _lanes(op, device))
        for tile in range(model.tile_count):
            trips = sum(1 for _ in iterations(model.values, loops, model.default_env(tile)))
            per_tile[tile] += vectors * trips
    return per_tile, units, macs, mac_rate


def _matmul_operands(op: Operation):
    """(A, B, C) shaped types of a matmul-shaped op, or None."""
    if isinstance(op, GenericOp) and matmul_dims(op) is not None:
        return [v.type for v in (*op.inputs, *op.outputs)]
    if op.name in ("linalg.matmul", "linalg.batch_matmul") and len(op.operands) == 3:
        return [v.type for v in op.operands]
    return None


def _matmul_macs(op: Operation) -> int:
    """M * N * K of a matmul-shaped op, times the batch of a batch matmul."""
    a, b, c = _matmul_operands(op)  # type: ignore[misc]
    *batch, m, n = c.get_shape()
    count = int(np.prod(batch, dtype=np.int64)) * m
    k = int(np.prod(a.get_shape())) // count
    return count * n * k


def _mac_rate(op: Operation, device: Device, tiles: int) -> int:
    """MACs per cycle of one core's matrix units for this op (0: not matrix work)."""
    types = _matmul_operands(op)
    if types is None or not all(isinstance(t, ShapedType) for t in types):
        return 0
    operand = element_name(types[0].get_element_type())
    rates = []
    for core in device.cores[:tiles]:
        rate = sum(u.macs(operand) or 0 for u in device.compute_units(core, compute_class="matrix"))
        rates.append(rate)
    return min(rates, default=0)


def _compute_ops(func: Operation):
    """linalg ops and elementwise ops on tensors, not those inside a linalg body."""
    for op in func.walk():
        if inside_linalg_body(op):
            continue
        if op.name.startswith("linalg.") and op.name != "linalg.yield":
            yield op
        elif op.name.startswith(_ELEMENTWISE_DIALECTS) and any(
                isinstance(r.type, TensorType) for r in op.results):
            yield op


def _does_arithmetic(op: Operation) -> bool:
    """A fill is a constant (no pass over the data) and a generic whose body only yields
    is a copy: neither is vector work. Everything else is at least one instruction per
    vector of its domain, however its body is split into instructions."""
    if op.name == "linalg.fill":
        return False
    if op.name == "linalg.generic":
        body = op.regions[0].blocks.first
        return body is not None and any(o.name != "linalg.yield" for o in body.ops)
    return True


def _under_condition(op: Operation, func: Operation) -> bool:
    parent = op.parent_op()
    while parent is not None and parent is not func:
        if isinstance(parent, scf.IfOp):
            return True
        parent = parent.parent_op()
    return False


def _shaped(op: Operation) -> list[ShapedType]:
    types = [v.type for v in (*op.operands, *op.results)]
    return [t for t in types if isinstance(t, ShapedType)]


def _domain_elements(op: Operation) -> int:
    """A lower bound on the op's iteration domain: its largest tensor operand or result
    (every indexing map of a linalg op is a projection of the domain onto the operand)."""
    sizes = [int(np.prod(t.get_shape())) for t in _shaped(op)]
    return max(sizes, default=1)


def _lanes(op: Operation, device: Device) -> int:
    """The widest SIMD width the device's vector units have for any element type the op
    touches (the most work one instruction could do)."""
    names = {element_name(t.get_element_type()) for t in _shaped(op)}
    for region in op.regions:
        for block in region.blocks:
            names.update(element_name(a.type) for a in block.args)
    lanes = []
    for unit in device.compute_units(compute_class="vector"):
        lanes += [n for t, n in unit.simd_lanes.items() if t in names]
    if lanes:
        return max(lanes)
    every = [n for u in device.compute_units(compute_class="vector")
             for n in u.simd_lanes.values()]
    return max(every, default=1)


# ---- on-chip interconnect -----------------------------------------------------------


def _ring_links(device: Device, touches: list[Touch],
                exchange_flows: list[tuple[tuple[Datapath, ...], int, bool]] = ()
                ) -> list[LinkTraffic]:
    """Bytes over the first and last datapath of every scratchpad-to-scratchpad route,
    plus the inter-tile exchanges' (`_exchange_flows`)."""
    flows: dict[tuple[int, int], dict[tuple[str, int], list[np.ndarray]]] = defaultdict(
        lambda: defaultdict(list))
    for t in touches:
        if not t.remote:
            continue
        other = t.memory.core
        assert other is not None
        src, dst = (other, t.tile) if t.kind == "load" else (t.tile, other)
        # Unique per (flow, direction, remote address): data read twice by one tile
        # crosses once if the schedule keeps it.
        flows[(src, dst)][(t.kind, t.element_bytes)].append(t.addresses)
    per_link: dict[tuple[str, str], tuple[Datapath, int, bool]] = {}
    for (src, dst), by_kind in sorted(flows.items()):
        nbytes = sum(_unique_count(chunks) * eb for (_k, eb), chunks in sorted(by_kind.items()))
        route = find_route(device, device.scratchpad(src).name, device.scratchpad(dst).name)
        first = route.hops[0].datapaths[0]
        last = route.hops[-1].datapaths[-1]
        for dp, egress in ((first, True), (last, False)):
            key = (dp.source, dp.target)
            old = per_link.get(key, (dp, 0, egress))[1]
            per_link[key] = (dp, old + nbytes, egress)
    links = [LinkTraffic(dp.source, dp.target, b, dp.bandwidth, egress)
             for (dp, b, egress) in (per_link[k] for k in sorted(per_link))]
    # Exchange bytes that may take one of several datapaths share their summed bandwidth.
    shared: dict[tuple[str, str], tuple[int, int, bool]] = {}
    for dps, nbytes, egress in exchange_flows:
        if len(dps) == 1 and (dps[0].source, dps[0].target) in per_link:
            dp = dps[0]
            i = next(k for k, link in enumerate(links) if (link.source, link.target) == (dp.source, dp.target))
            links[i] = LinkTraffic(dp.source, dp.target, links[i].bytes + nbytes, dp.bandwidth, egress)
            continue
        key = ("|".join(dp.source for dp in dps), "|".join(dp.target for dp in dps))
        old = shared.get(key, (0, sum(dp.bandwidth for dp in dps), egress))
        shared[key] = (old[0] + nbytes, old[1], egress)
    links += [LinkTraffic(src, dst, b, bw, egress)
              for (src, dst), (b, bw, egress) in sorted(shared.items())]
    return links


def _exchange_flows(kernel: Kernel, model: KernelModel, device: Device, notes: list[str],
                    only: set[Operation] | None = None
                    ) -> list[tuple[tuple[Datapath, ...], int, bool]]:
    """What inter-tile communication must move, at least, whatever its algorithm (a ring
    all-reduce, a tree, every consumer reading every producer): per execution, a consumer
    that needs a partial of another tile takes in at least one partial's bytes (a reduce
    must learn the other tiles' combination of every element), and a producer whose
    partial another tile needs sends out at least one partial's bytes (nobody else holds
    it), over the last and the first datapath of the routes between their scratchpads
    (when the routes to or from a tile's peers end in different datapaths, the bytes may
    split over them: they share their summed bandwidth). Not counted: exchanges under
    scf.if."""
    flows: list[tuple[tuple[Datapath, ...], int, bool]] = []
    for op in kernel.func.walk():
        if not isinstance(op, InterTileConsumeOp | InterTileReduceOp):
            continue
        if only is not None and op not in only:
            continue
        where = kernel.location_of(op)
        if _under_condition(op, kernel.func):
            notes.append(f"{op.name} at {where}: under scf.if, not counted")
            continue
        try:
            found = exchanges(model, op)
        except UnsupportedError as err:
            notes.append(f"{op.name} at {where}: {err.message}, not counted")
            continue
        for ex in found:
            senders: dict[int, list[int]] = defaultdict(list)
            for consumer, needed in sorted(ex.needs.items()):
                others = [p for p in needed if p != consumer]
                for p in others:
                    senders[p].append(consumer)
                if others:
                    ends = _ends(device, [(p, consumer) for p in others], last=True)
                    flows.append((ends, ex.bytes * ex.executions[consumer], False))
            for producer, consumers in sorted(senders.items()):
                ends = _ends(device, [(producer, c) for c in consumers], last=False)
                times = min(ex.produced[producer], max(ex.executions[c] for c in consumers))
                flows.append((ends, ex.bytes * times, True))
    return flows


def _ends(device: Device, pairs: list[tuple[int, int]], last: bool) -> tuple[Datapath, ...]:
    """The distinct last (or first) datapaths of the routes between the cores' scratchpads."""
    found: dict[tuple[str, str], Datapath] = {}
    for source, target in pairs:
        route = find_route(device, device.scratchpad(source).name, device.scratchpad(target).name)
        dp = route.hops[-1].datapaths[-1] if last else route.hops[0].datapaths[0]
        found[(dp.source, dp.target)] = dp
    return tuple(found[k] for k in sorted(found))
