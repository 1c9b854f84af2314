"""Routing: the fastest legal path of units and memories between two nodes.

The graph is the device's datapaths. A path is legal when every node strictly inside it
is a memory or a unit that moves data (load/store/DMA units, switch stops): data never
passes *through* a compute unit.

A route is reported as hops. Every unit on the path except a unit that is the
destination performs one hop: it takes the data from the node before it (or from
itself, for a source unit) and it lands in the node after it (a memory, or the input
FIFO of the next unit). A hop's timing is the device model's one transfer formula
(`ceil(bytes / bandwidth) + latency`, with the hop's slowest bandwidth and all its
latencies: datapaths, the unit's own, the memory read). The route's time is the sum over
its hops (store and forward) for a transfer of a given size, and the search minimises
exactly that figure; ties go to fewer datapaths, then to the lexicographically smallest
sequence of node names, so they always break the same way.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

from spyre_sched.device.model import Datapath, Device, TransferTiming
from spyre_sched.errors import DeviceError


DEFAULT_ROUTE_BYTES = 4096
"""Transfer size a route is chosen for when the caller does not say (one 4 KiB block)."""


@dataclass(frozen=True)
class Hop(TransferTiming):
    unit: str
    """The unit performing the move."""
    source: str
    """Where the data comes from (the unit itself when the route starts at it)."""
    lands_in: str
    """The memory (or unit FIFO) the data lands in."""
    datapaths: tuple[Datapath, ...]
    bandwidth: int
    """Bytes per cycle: the slowest datapath or memory port on the hop."""
    latency: int
    transfer_granularity: int
    queue_depth: int | None
    """Depth of the FIFO the data lands in, when it lands in one."""


@dataclass(frozen=True)
class Route:
    source: str
    target: str
    nodes: tuple[str, ...]
    hops: tuple[Hop, ...]

    def transfer_cycles(self, nbytes: int) -> int:
        """Store-and-forward time of one transfer of `nbytes` along the whole route: the
        sum of every hop's `transfer_cycles` (the device model's one formula)."""
        return sum(h.transfer_cycles(nbytes) for h in self.hops)

    def occupancy(self, nbytes: int) -> tuple[int, ...]:
        """Cycles each hop's unit is busy with one transfer of `nbytes`."""
        return tuple(h.occupancy(nbytes) for h in self.hops)

    @property
    def latency(self) -> int:
        """The route's fixed cycles: every hop's latency."""
        return sum(h.latency for h in self.hops)

    @property
    def units(self) -> tuple[str, ...]:
        return tuple(h.unit for h in self.hops)


def _passable(device: Device, node: str) -> bool:
    if node in device.memories:
        return True
    unit = device.units[node]
    return not unit.is_compute or unit.is_switch


def _check_node(device: Device, name: str) -> None:
    if not device.is_node(name):
        close = [n for n in device.node_names() if n.split(".")[-1] == name.split(".")[-1]]
        hint = f"; did you mean {', '.join(close[:4])}?" if close else ""
        raise DeviceError(f"device {device.name} has no unit or memory named '{name}'{hint}")


def _read_latency(device: Device, node: str) -> int:
    memory = device.memories.get(node)
    return memory.latency if memory is not None else 0


def reachable_from(device: Device, source: str) -> set[str]:
    """Every node a legal route from `source` can end at."""
    seen = {source}
    frontier = [source]
    while frontier:
        node = frontier.pop()
        if node != source and not _passable(device, node):
            continue
        for dp in device.outgoing(node):
            if dp.target not in seen:
                seen.add(dp.target)
                frontier.append(dp.target)
    return seen


def find_route(device: Device, source: str, target: str,
               nbytes: int = DEFAULT_ROUTE_BYTES, switches_only: bool = False) -> Route:
    """The legal route whose `transfer_cycles(nbytes)` is least (`switches_only`: every
    node strictly inside it is a switch stop, the interconnect). Found once per device
    and question (the search is a Dijkstra over the whole device graph)."""
    key = (source, target, nbytes, switches_only)
    found = device.route_cache.get(key)
    if found is None:
        try:
            found = _search(device, source, target, nbytes, switches_only)
        except DeviceError as err:
            found = err
        device.route_cache[key] = found
    if isinstance(found, DeviceError):
        raise DeviceError(found.message, found.location)
    return found


def _search(device: Device, source: str, target: str, nbytes: int,
            switches_only: bool) -> Route:
    _check_node(device, source)
    _check_node(device, target)
    if source == target:
        return Route(source, target, (source,), ())
    # Dijkstra over (previous node, node) states: a hop's time depends on the unit and on
    # the nodes either side of it, so it is charged when the path leaves the unit.
    # Heap entries (cycles, datapaths, node names) compare deterministically.
    done: set[tuple[str | None, str]] = set()
    heap: list[tuple[int, int, tuple[str, ...]]] = [(0, 0, (source,))]
    found: tuple[str, ...] | None = None
    while heap:
        cost, length, path = heapq.heappop(heap)
        node = path[-1]
        if node == target:
            found = path
            break
        state = (path[-2] if len(path) > 1 else None, node)
        if state in done:
            continue
        done.add(state)
        if node != source and (not _passable(device, node) or switches_only and not (
                node in device.units and device.units[node].is_switch)):
            continue
        for dp in device.outgoing(node):
            if dp.target in path:
                continue
            step = (_hop(device, path[-2] if len(path) > 1 else None, node, dp.target)
                    .transfer_cycles(nbytes) if node in device.units else 0)
            heapq.heappush(heap, (cost + step, length + 1, (*path, dp.target)))
    if found is None:
        raise DeviceError(f"device {device.name} has no route from {source} to {target}")
    return Route(source, target, found, _hops(device, found))


def _hop(device: Device, before: str | None, unit: str, after: str) -> Hop:
    """The move `unit` performs from `before` (None: the route starts at the unit) into
    `after`."""
    # The unit reads from a memory before it; data from a unit before it was already
    # delivered into this unit's FIFO by that unit's own hop.
    into = device.datapath(before, unit) if before in device.memories else None
    out = device.datapath(unit, after)
    paths = (into, out) if into is not None else (out,)
    bandwidth = min(dp.bandwidth for dp in paths)
    for end in (before, after):
        memory = device.memories.get(end) if end is not None else None
        if memory is not None and memory.bandwidth is not None:
            bandwidth = min(bandwidth, memory.bandwidth)
    return Hop(
        unit=unit,
        source=before if before is not None else unit,
        lands_in=after,
        datapaths=paths,
        bandwidth=bandwidth,
        latency=sum(dp.latency for dp in paths) + device.units[unit].latency
        + (_read_latency(device, before) if before is not None else 0),
        transfer_granularity=max(dp.transfer_granularity for dp in paths),
        queue_depth=out.queue_depth,
    )


def _hops(device: Device, nodes: tuple[str, ...]) -> tuple[Hop, ...]:
    return tuple(_hop(device, nodes[i - 1] if i > 0 else None, node, nodes[i + 1])
                 for i, node in enumerate(nodes[:-1]) if node in device.units)


def interconnect_hop(device: Device, source: str, target: str, unit: str,
                     nbytes: int = DEFAULT_ROUTE_BYTES) -> Hop:
    """A move from one core's scratchpad `source` into another's `target` over the
    interconnect, issued by `unit` (a DMA engine of the reading core): the switch stops
    on the way are links the transfer holds, not units running programs of their own.
    One hop: the slowest link's bandwidth, the sum of every link's latency.

    Between a memory and itself (the owning core reading, or storing into, its own part)
    the move is a copy through the unit's own datapath into (or out of) that memory."""
    # The interconnect even where a detour through device memory would be quicker: this is
    # the move a scratchpad-to-scratchpad read makes.
    try:
        route = find_route(device, source, target, nbytes, switches_only=True)
    except DeviceError:
        route = find_route(device, source, target, nbytes)
    if not route.hops:
        # the unit's own datapath into the memory (a reading engine), or out of it (a
        # storing engine, `interconnect_pusher`)
        if device.has_datapath(unit, target):
            dp = device.datapath(unit, target)
        elif device.has_datapath(source, unit):
            dp = device.datapath(source, unit)
        else:
            raise DeviceError(f"unit {unit} of device {device.name} cannot move {source} -> "
                              f"{target}")
        return Hop(unit=unit, source=source, lands_in=target, datapaths=(dp,),
                   bandwidth=dp.bandwidth, latency=dp.latency,
                   transfer_granularity=dp.transfer_granularity, queue_depth=None)
    if not all(device.units[h.unit].is_switch for h in route.hops):
        raise DeviceError(f"device {device.name} has no interconnect route from {source} to "
                          f"{target} (its route passes "
                          + ", ".join(h.unit for h in route.hops) + ")")
    return Hop(unit=unit, source=source, lands_in=target,
               datapaths=tuple(dp for h in route.hops for dp in h.datapaths),
               bandwidth=min(h.bandwidth for h in route.hops),
               latency=sum(h.latency for h in route.hops),
               transfer_granularity=max(h.transfer_granularity for h in route.hops),
               queue_depth=None)


def farthest_reader(device: Device, owner: int, readers: range) -> int:
    """Of the cores `readers` other than `owner`, the one whose scratchpad is slowest to
    reach from the owner's (the tile a remote read keeps waiting longest); the owner
    itself when it is the only reader."""
    source = device.scratchpad(owner).name
    best, worst = owner, -1
    for core in readers:
        if core == owner:
            continue
        target = device.scratchpad(core).name
        try:  # the interconnect, as the read itself goes (`interconnect_hop`)
            route = find_route(device, source, target, switches_only=True)
        except DeviceError:
            route = find_route(device, source, target)
        cycles = route.transfer_cycles(DEFAULT_ROUTE_BYTES)
        if cycles > worst:
            best, worst = core, cycles
    return best


def _scratchpad_dma(device: Device, core: int, writes: bool) -> str:
    """The first DMA unit of `core` (by name) with a datapath into its scratchpad
    (`writes`) or out of it."""
    scratchpad = device.scratchpad(core).name
    found = sorted(u.name for u in device.units.values()
                   if u.kind == "dma" and device.core_of(u.name) == device.core(core)
                   and (device.has_datapath(u.name, scratchpad) if writes
                        else device.has_datapath(scratchpad, u.name)))
    if not found:
        what = ("writing its scratchpad, to read other cores' scratchpads with" if writes
                else "reading its scratchpad, to store into other cores' scratchpads with")
        raise DeviceError(f"core {core} of device {device.name} has no DMA unit {what}")
    return found[0]


def interconnect_issuer(device: Device, core: int) -> str:
    """The unit of `core` that issues its reads from other cores' scratchpads: its DMA
    engine that writes its scratchpad (the first by name, should there be several)."""
    return _scratchpad_dma(device, core, writes=True)


def interconnect_pusher(device: Device, core: int) -> str:
    """The unit of `core` that issues its stores into other cores' scratchpads: its DMA
    engine that reads its scratchpad (the first by name, should there be several)."""
    return _scratchpad_dma(device, core, writes=False)


def per_core_memory(owners: list[int], local: str) -> str:
    """The DataflowIR name of memory `local` of a core that depends on the executing
    unit's core: `cores[o0,o1,...].lx` is, for a unit of core c, memory `lx` of core
    `o_c` (an all-gather's reads, each core reading a different owner at each step)."""
    return f"cores[{','.join(str(o) for o in owners)}].{local}"


def resolve_per_core(device: Device, name: str, core: int) -> str:
    """The absolute name a per-core memory name (`per_core_memory`) has for a unit of core
    index `core`; any other name unchanged."""
    if not name.startswith("cores["):
        return name
    table, sep, local = name[len("cores["):].partition("].")
    try:
        owners = [int(o) for o in table.split(",")]
    except ValueError:
        owners = []
    if not sep or not local or not owners:
        raise DeviceError(f"memory name '{name}': expected cores[o0,o1,...].MEMORY")
    if not 0 <= core < len(owners):
        raise DeviceError(f"memory name '{name}' lists owners for {len(owners)} cores; "
                          f"core {core} runs it")
    owner = owners[core]
    if not 0 <= owner < device.num_cores:
        raise DeviceError(f"memory name '{name}': core {owner} is not a core of device "
                          f"{device.name} (0..{device.num_cores - 1})")
    return f"{device.core(owner).name}.{local}"
