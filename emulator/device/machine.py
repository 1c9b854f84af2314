"""The emulated device: memories, FIFOs and shared resources built from a device model.

Memories persist across launches (they hold the tensors); FIFOs, tokens and shared
resources are made fresh for every launch (`new_launch`).
"""

from __future__ import annotations

from dataclasses import dataclass

from spyre_sched.device.model import Device
from spyre_sched.device.routing import Hop, Route, find_route, interconnect_hop
from spyre_sched.errors import DeviceError, ExecutionError

from emulator.device.memory import DEFAULT_MEMORY_CAP, HostMemory, Memory
from emulator.device.sim import Fifo, SharedQueue, SharedResource, Simulator, Token
from emulator.device.timing import hop_timing


@dataclass(frozen=True)
class Path:
    """How a unit moves data from one node to the next: the hop (for the device model's
    timing), the shared resources it holds, and the datapaths it crosses (for byte counts)."""

    unit: str
    source: str
    target: str
    hop: Hop
    shared: tuple[str, ...]
    datapaths: tuple[str, ...]

    def timing(self, nbytes: int) -> tuple[int, int]:
        return hop_timing(self.hop, nbytes)


def datapath_name(source: str, target: str) -> str:
    return f"{source}->{target}"


class EmulatedDevice:
    def __init__(self, device: Device, memory_cap: int = DEFAULT_MEMORY_CAP):
        self.device = device
        # Every memory is allocated on the host when first touched (emulator.device.memory).
        self.host = HostMemory(memory_cap)
        self.memories = {name: Memory(name, m.size, self.host)
                         for name, m in device.memories.items()}
        self._paths: dict[tuple[str, str, str], Path] = {}
        self._scratchpads: frozenset[str] | None = None
        self.fifo_specs: dict[tuple[str, str], int] = {
            (dp.source, dp.target): dp.queue_depth
            for dp in device.datapaths
            if dp.queue_depth is not None and dp.source in device.units and dp.target in device.units
        }

    # ---- per launch -----------------------------------------------------------------------

    def new_launch(self, trace=None, max_cycles: int | None = None) -> Launch:
        launch = Launch(self, trace, max_cycles)
        for memory in self.memories.values():
            memory.flush(everything=True)
            memory.clock = launch.sim
        return launch

    def settle(self) -> None:
        """After a launch: every write in flight has landed."""
        for memory in self.memories.values():
            memory.flush(everything=True)
            memory.clock = None

    # ---- lookups ---------------------------------------------------------------------------

    def memory(self, name: str) -> Memory:
        try:
            return self.memories[name]
        except KeyError:
            raise ExecutionError(f"device {self.device.name} has no memory '{name}'") from None

    def path(self, unit: str, source: str, target: str) -> Path:
        """The hop `unit` performs moving data from `source` (a memory, or the unit itself
        for data it holds) to `target` (a memory, or a unit whose input FIFO it fills)."""
        key = (unit, source, target)
        found = self._paths.get(key)
        if found is not None:
            return found
        if unit not in self.device.units:
            raise ExecutionError(f"device {self.device.name} has no unit '{unit}'")
        try:
            route = find_route(self.device, source, target)
        except DeviceError as err:
            raise ExecutionError(err.message) from None
        hops = [h for h in route.hops if h.unit == unit]
        if self._scratchpads is None:
            self._scratchpads = frozenset(self.device.scratchpad(c).name for c in self.device.cores)
        scratchpads = self._scratchpads
        if source in scratchpads and target in scratchpads \
                and self.device.units[unit].kind == "dma" \
                and self.device.core_of(unit) in (self.device.core_of(target),
                                                  self.device.core_of(source)):
            # a core's DMA engine reading a scratchpad (another core's over the
            # interconnect, or its own) or writing its own into another core's: one hop
            # holding every link it crosses, even where the fastest route is a detour
            # through device memory (its first hop would be another core's DMA engine,
            # not this one: `interconnect_hop`)
            try:
                hop = interconnect_hop(self.device, source, target, unit)
            except DeviceError as err:
                raise ExecutionError(err.message) from None
            route = Route(source, target, (source, target), (hop,))
            hops = [hop]
        if not hops:
            performers = ", ".join(h.unit for h in route.hops) or "none"
            raise ExecutionError(
                f"unit {unit} cannot move data {source} -> {target}: that route's hops are "
                f"performed by {performers}")
        first, last = route.hops[0], route.hops[-1]
        # Switch stops on the way are the interconnect, not separate programs: the issuing
        # unit's transfer holds every ring link it crosses.
        if len(route.hops) > 1 and all(self.device.units[h.unit].is_switch for h in route.hops[1:]) \
                and route.hops[0].unit == unit:
            hop = Hop(unit=unit, source=first.source, lands_in=last.lands_in,
                      datapaths=tuple(dp for h in route.hops for dp in h.datapaths),
                      bandwidth=min(h.bandwidth for h in route.hops),
                      latency=sum(h.latency for h in route.hops),
                      transfer_granularity=max(h.transfer_granularity for h in route.hops),
                      queue_depth=last.queue_depth)
        else:
            hop = hops[0]
        shared = []
        for name in dict.fromkeys([hop.source, hop.lands_in]):
            mem = self.device.memories.get(name)
            if mem is not None and mem.bandwidth is not None:
                shared.append(name)
        datapaths = tuple(datapath_name(dp.source, dp.target) for dp in hop.datapaths)
        for dp in hop.datapaths:
            if self.device.units.get(dp.source) is not None and self.device.units[dp.source].is_switch \
                    and self.device.units.get(dp.target) is not None and self.device.units[dp.target].is_switch:
                shared.append(datapath_name(dp.source, dp.target))
        found = Path(unit, source, target, hop, tuple(shared), datapaths)
        self._paths[key] = found
        return found


class Launch:
    """The per-launch state: simulator, FIFOs, tokens, shared resources."""

    def __init__(self, device: EmulatedDevice, trace=None, max_cycles: int | None = None):
        self.device = device
        self.sim = Simulator(trace=trace, max_cycles=max_cycles)
        self.trace = trace
        self.fifos: dict[tuple[str, str], Fifo] = {}
        self.queues: dict[tuple[str, str], SharedQueue] = {}
        self.tokens: dict[str, Token] = {}
        self.shared: dict[str, SharedResource] = {}

    def fifo(self, producer: str, consumer: str, depth: int | None = None,
             name: str | None = None, queue: int | None = None) -> Fifo:
        """The FIFO instance `name` from `producer` to `consumer` (several logical FIFOs may
        share one datapath; each has its own entries). `queue`: the datapath's queue depth
        when its FIFOs' depths add up to more, so that they share it over time."""
        key = (name, producer, consumer)
        found = self.fifos.get(key)
        if found is not None:
            return found
        if depth is None:
            if (producer, consumer) not in self.device.fifo_specs:
                raise ExecutionError(
                    f"device {self.device.device.name} has no FIFO {producer} -> {consumer}")
            depth = self.device.fifo_specs[(producer, consumer)]
        path = datapath_name(producer, consumer)
        fifo = Fifo(f"@{name} {path}" if name else path, depth, producer, consumer)
        fifo.path = path
        if self.trace is not None:
            fifo.trace = self.trace.fifo_counter(fifo.name)
        if queue is not None:
            shared = self.queues.get((producer, consumer))
            if shared is None:
                shared = self.queues[(producer, consumer)] = SharedQueue(path, queue)
            shared.fifos.append(fifo)
            fifo.queue = shared
        self.fifos[key] = fifo
        return fifo

    def leftover_fifos(self) -> list[str]:
        for f in self.fifos.values():
            f.settle(1 << 62)  # (receives taken ahead: all have happened by the end)
        return [f"{f.name} holds {f.held} entr{'y' if f.held == 1 else 'ies'}"
                for f in self.fifos.values() if f.held]

    def token(self, name: str, sender: str, receiver: str) -> Token:
        found = self.tokens.get(name)
        if found is None:
            found = Token(name, sender, receiver)
            self.tokens[name] = found
        elif (found.sender, found.receiver) != (sender, receiver):
            raise ExecutionError(
                f"token {name} is used {found.sender} -> {found.receiver} and also "
                f"{sender} -> {receiver}")
        return found

    def resources_of(self, memory: str) -> tuple[SharedResource, ...]:
        """The shared resource of a memory with a bandwidth cap (device memory), if any."""
        mem = self.device.device.memories.get(memory)
        if mem is None or mem.bandwidth is None:
            return ()
        return self._resource_list((memory,))

    def resources(self, path: Path) -> tuple[SharedResource, ...]:
        return self._resource_list(path.shared)

    def _resource_list(self, names) -> tuple[SharedResource, ...]:
        out = []
        for name in names:
            res = self.shared.get(name)
            if res is None:
                if name in self.device.device.memories:
                    bw = self.device.device.memories[name].bandwidth
                else:
                    src, dst = name.split("->")
                    bw = self.device.device.datapath(src, dst).bandwidth
                res = SharedResource(name, bw)
                self.shared[name] = res
            out.append(res)
        return tuple(out)
