"""Routing: the shortest legal path of units and memories between two nodes.

The graph is the device's datapaths. A path is legal when every node strictly inside it
is a memory or a unit that moves data (load/store/DMA units, switch stops): data never
passes *through* a compute unit. Shortest means least fixed latency, counting one extra
cycle per datapath (so a ring neighbour beats a round trip through device memory, and a
far ring stop may not); ties go to fewer datapaths, then to the lexicographically
smallest sequence of node names, so they always break the same way.

A route is reported as hops. Every unit on the path except a unit that is the
destination performs one hop: it takes the data from the node before it (or from
itself, for a source unit) and it lands in the node after it (a memory, or the input
FIFO of the next unit).
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass

from spyre_sched.device.model import Datapath, Device
from spyre_sched.errors import DeviceError


@dataclass(frozen=True)
class Hop:
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

    def cycles(self, nbytes: int) -> int:
        return math.ceil(nbytes / self.bandwidth) + self.latency


@dataclass(frozen=True)
class Route:
    source: str
    target: str
    nodes: tuple[str, ...]
    hops: tuple[Hop, ...]

    def cycles(self, nbytes: int) -> int:
        """Store-and-forward time of one transfer of `nbytes` along the whole route."""
        return sum(h.cycles(nbytes) for h in self.hops)

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


def find_route(device: Device, source: str, target: str) -> Route:
    _check_node(device, source)
    _check_node(device, target)
    # Dijkstra on (latency + datapaths, datapaths, node names): tuples compare
    # deterministically.
    best: dict[str, tuple[int, int, tuple[str, ...]]] = {}
    heap: list[tuple[int, int, tuple[str, ...]]] = [(0, 0, (source,))]
    found: tuple[str, ...] | None = None
    while heap:
        cost, length, path = heapq.heappop(heap)
        node = path[-1]
        if node in best:
            continue
        best[node] = (cost, length, path)
        if node == target:
            found = path
            break
        if node != source and not _passable(device, node):
            continue
        for dp in device.outgoing(node):
            if dp.target not in best:
                step = dp.latency + 1 + _read_latency(device, node)
                heapq.heappush(heap, (cost + step, length + 1, (*path, dp.target)))
    if found is None:
        raise DeviceError(f"device {device.name} has no route from {source} to {target}")
    return Route(source, target, found, _hops(device, found))


def _hops(device: Device, nodes: tuple[str, ...]) -> tuple[Hop, ...]:
    hops: list[Hop] = []
    for i, node in enumerate(nodes[:-1]):
        if node not in device.units:
            continue
        # The unit reads from a memory before it; data from a unit before it was already
        # delivered into this unit's FIFO by that unit's own hop.
        into = (device.datapath(nodes[i - 1], node)
                if i > 0 and nodes[i - 1] in device.memories else None)
        out = device.datapath(node, nodes[i + 1])
        paths = (into, out) if into is not None else (out,)
        bandwidth = min(dp.bandwidth for dp in paths)
        for end in (nodes[i - 1] if i > 0 else None, nodes[i + 1]):
            memory = device.memories.get(end) if end is not None else None
            if memory is not None and memory.bandwidth is not None:
                bandwidth = min(bandwidth, memory.bandwidth)
        hops.append(Hop(
            unit=node,
            source=nodes[i - 1] if i > 0 else node,
            lands_in=nodes[i + 1],
            datapaths=paths,
            bandwidth=bandwidth,
            latency=sum(dp.latency for dp in paths) + device.units[node].latency
            + (_read_latency(device, nodes[i - 1]) if i > 0 else 0),
            transfer_granularity=max(dp.transfer_granularity for dp in paths),
            queue_depth=out.queue_depth,
        ))
    return tuple(hops)
