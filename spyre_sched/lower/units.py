"""Units: which engine runs a stage or a transfer, and the concrete unit instances.

ScheduleIR names unit *kinds* (`"dma"`, `"load"`, `"sfu"`, `"store"`); DataflowIR names
*engines* (a unit's local name in the device file: `dma_load`, `lx_load`, `sfu`) and
their instances (`core3.corelet1.sfu`). A DMA kind has two engines on the shipped devices
(load and store): a transfer's engine is the unit that performs its hop on the device's
route. Compute tile t runs on core t; corelet-level engines run on corelets 0..N-1 of each
core, N being the instances the schedule distributed their work over.
"""

from __future__ import annotations

from dataclasses import dataclass

from spyre_sched.device.model import Device, GroupInstance
from spyre_sched.device.routing import (find_route, interconnect_issuer, interconnect_pusher,
                                         resolve_per_core)
from spyre_sched.errors import DeviceError, UnsupportedError


def local_name(instance: str) -> str:
    return instance.rsplit(".", 1)[-1]


@dataclass(frozen=True)
class EngineInfo:
    name: str
    level: str  # "core" | "corelet"


class Units:
    def __init__(self, device: Device, num_tiles: int):
        device.check_grid(num_tiles)
        self.device = device
        self.num_tiles = num_tiles
        self.core0 = device.core(0)
        corelets = device.corelets(self.core0)
        self.corelet0: GroupInstance | None = corelets[0] if corelets else None

    # ---- memories ------------------------------------------------------------------------

    def memory_of_kind(self, kind: str) -> str:
        """Local name of the memory of a kind as seen from core 0 (`LX` -> `lx`)."""
        found = self.device.memories_of_kind(kind, self.core0) or self.device.memories_of_kind(kind)
        if not found:
            raise DeviceError(f"device {self.device.name} has no memory of kind '{kind}'")
        return local_name(found[0].name)

    def memory_for_space(self, space: str) -> str:
        return self.memory_of_kind(self.device.memory_kind_for(space))

    def memory_instance(self, name: str, core: int = 0, corelet: int = 0) -> str:
        """The instance a memory name means for a unit of corelet `corelet` of `core`:
        the innermost group around the unit that has a memory of that name, else the
        device-level memory (docs/dataflowir.md, "Names"). A per-corelet memory (the
        three-level test device's `l1`) resolves to corelet 0's when asked for core 0."""
        if "." in name:
            return name
        group = self.device.core(core)
        corelets = self.device.corelets(group)
        if corelets and corelet < len(corelets):
            scoped = f"{corelets[corelet].name}.{name}"
            if scoped in self.device.memories:
                return scoped
        scoped = f"{group.name}.{name}"
        return scoped if scoped in self.device.memories else name

    def scratchpad_size(self, name: str) -> int:
        return self.device.memories[self.memory_instance(name)].size

    def memory_granularity(self, name: str) -> int:
        """The access granularity of a memory: the largest transfer granularity of the
        datapaths into or out of it (128-byte sticks on spyre)."""
        inst = self.memory_instance(name)
        sizes = [dp.transfer_granularity for dp in self.device.datapaths
                 if inst in (dp.source, dp.target)]
        return max(sizes, default=1)

    # ---- engines -------------------------------------------------------------------------

    def engine_of_kind(self, kind: str, what: str) -> EngineInfo:
        """The engine of a unit kind; a kind with several engines per core is ambiguous."""
        names = []
        for group, level in ((self.corelet0, "corelet"), (self.core0, "core")):
            if group is None:
                continue
            for unit in group.units:
                if self.device.units[unit].kind == kind:
                    names.append(EngineInfo(local_name(unit), level))
        if len(names) != 1:
            have = ", ".join(n.name for n in names) or "none"
            raise UnsupportedError(
                f"{what}: unit kind '{kind}' must name exactly one engine per core or corelet "
                f"on device {self.device.name} (it has: {have})"
            )
        return names[0]

    def engine_for_route(self, source: str, target: str, what: str) -> EngineInfo:
        """The engine performing a memory-to-memory move (a single hop on the route)."""
        # a per-core side: core 0's owner stands for all (every one is a scratchpad)
        src = self.memory_instance(resolve_per_core(self.device, source, 0))
        dst = self.memory_instance(resolve_per_core(self.device, target, 0))
        scratchpads = {m.name for m in map(self.device.scratchpad, self.device.cores)}
        if src in scratchpads and dst in scratchpads:
            if "." in target and "." not in source:
                # a store from the executing core's scratchpad into a named core's (another
                # core's, or the storing core's own part): issued by the storing core's DMA
                # engine that reads its scratchpad
                return self.engine_info(local_name(interconnect_pusher(self.device, 0)))
            # a read of a core's scratchpad (another's, or the owner's own part) crosses
            # the interconnect, issued by the reading core's DMA engine
            return self.engine_info(local_name(interconnect_issuer(self.device, 0)))
        route = find_route(self.device, src, dst)
        if len(route.hops) != 1:
            raise UnsupportedError(
                f"{what}: moving {source} -> {target} takes {len(route.hops)} hops on device "
                f"{self.device.name}; a DMA stage must be a single hop"
            )
        return self.engine_info(local_name(route.hops[0].unit))

    def engine_info(self, engine: str) -> EngineInfo:
        if f"{self.core0.name}.{engine}" in self.device.units:
            return EngineInfo(engine, "core")
        if self.corelet0 is not None and f"{self.corelet0.name}.{engine}" in self.device.units:
            return EngineInfo(engine, "corelet")
        raise DeviceError(f"device {self.device.name} has no engine '{engine}' in a core")

    def is_matrix_unit(self, engine: EngineInfo) -> bool:
        """Whether the engine is a matrix unit (its compute class is "matrix")."""
        group = self.core0 if engine.level == "core" else self.corelet0
        unit = self.device.units.get(f"{group.name}.{engine.name}") if group else None
        return unit is not None and unit.compute_class == "matrix"

    def instances(self, engine: EngineInfo, corelets: int) -> list[str]:
        """Every instance running `engine` for the kernel's tiles, in core order."""
        names = []
        for tile in range(self.num_tiles):
            core = self.device.core(tile)
            if engine.level == "core":
                names.append(f"{core.name}.{engine.name}")
                continue
            groups = self.device.corelets(core)
            if corelets > len(groups):
                raise DeviceError(
                    f"the schedule splits work over {corelets} corelets but {core.name} has {len(groups)}")
            names += [f"{g.name}.{engine.name}" for g in groups[:corelets]]
        for n in names:
            if n not in self.device.units:
                raise DeviceError(f"device {self.device.name} has no unit {n}")
        return names

    def register_file(self) -> int:
        """Bytes of register file of the core's vector compute units (the smallest)."""
        sizes = [u.register_file for u in self.device.compute_units(self.core0)
                 if u.register_file is not None]
        return min(sizes) if sizes else 1 << 30

    def fifo_depth(self, source: EngineInfo, target: EngineInfo) -> int:
        """Queue depth of the datapath between the two engines' instances (core 0)."""
        def inst(e: EngineInfo) -> str:
            group = self.corelet0 if e.level == "corelet" and self.corelet0 else self.core0
            return f"{group.name}.{e.name}"
        depth = self.device.fifo_depth(inst(source), inst(target))
        if depth is None:
            raise DeviceError(f"the datapath {inst(source)} -> {inst(target)} is not a FIFO")
        return depth
