"""The device model: memories, units and datapaths instantiated per core and corelet.

Built by `spyre_sched.device.load` from a `ktdf_arch` file. Every node has a dotted
instance name (`ddr`, `core3.lx`, `core3.corelet1.sfu`, `ring.stop4`) that routes, the
scheduler and the emulator use to talk about it. Timing figures are in cycles of the
device clock and bytes per cycle.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from spyre_sched.errors import DeviceError, SourceLocation

if TYPE_CHECKING:
    from spyre_sched.dialects.ktdf_arch import PatternsOp

STAGES = ("load", "compute", "store")


# ---- transfer timing: the one formula every stage uses -----------------------------------


def occupancy_cycles(nbytes: int, bandwidth: int) -> int:
    """Cycles a transfer of `nbytes` keeps a path busy at `bandwidth` bytes per cycle."""
    if nbytes < 0:
        raise DeviceError(f"a transfer moves a non-negative number of bytes, not {nbytes}")
    return -(-nbytes // bandwidth)


def transfer_cycles(nbytes: int, bandwidth: int, latency: int) -> int:
    """Cycles from the first byte leaving to the last byte landing, for one transfer:
    `ceil(nbytes / bandwidth) + latency`. Datapaths, hops and routes call this; the cost
    model and the emulator call it (or the occupancy/latency parts) through them."""
    return occupancy_cycles(nbytes, bandwidth) + latency


class TransferTiming:
    """Timing of anything a transfer crosses in one piece (a datapath, a routing hop):
    it needs `bandwidth` (bytes per cycle) and `latency` (cycles).

    `occupancy(n)` is how long the path is busy (a second transfer may start after it);
    `latency` is how much later the data lands; `transfer_cycles(n)` is their sum."""

    bandwidth: int
    latency: int

    def occupancy(self, nbytes: int) -> int:
        return occupancy_cycles(nbytes, self.bandwidth)

    def transfer_cycles(self, nbytes: int) -> int:
        return transfer_cycles(nbytes, self.bandwidth, self.latency)


_DIGIT_RUNS = re.compile(r"(\d+)")


def natural_key(name: str) -> tuple[object, ...]:
    """Sort key putting core2 before core10."""
    return tuple(int(t) if t.isdigit() else t for t in _DIGIT_RUNS.split(name))
CHECKPOINTS = ("pre_mapping", "pre_scheduling", "post_scheduling", "post_lowering")


@dataclass(frozen=True)
class Memory:
    name: str
    kind: str
    size: int
    """Bytes."""
    group: str
    """Instance name of the innermost enclosing group ("" at device level)."""
    bandwidth: int | None = None
    """Total bytes per cycle over all ports (shared by all readers/writers); None: no cap."""
    latency: int = 0
    """Cycles from a read request to the first byte (added to every hop reading it)."""
    location: SourceLocation | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Unit:
    name: str
    kind: str
    group: str
    compute: dict[str, object] | None = None
    load: dict[str, int] | None = None
    store: dict[str, int] | None = None
    simd_lanes: dict[str, int] = field(default_factory=dict)
    splat: bool = False
    zero_pad: bool = False
    queue_depth: int | None = None
    latency: int = 0
    is_switch: bool = False
    location: SourceLocation | None = field(default=None, compare=False, repr=False)

    @property
    def stages(self) -> tuple[str, ...]:
        """Which pipeline stages this unit may run."""
        have = {"load": self.load, "compute": self.compute, "store": self.store}
        return tuple(s for s in STAGES if have[s] is not None)

    @property
    def is_compute(self) -> bool:
        return self.compute is not None

    @property
    def compute_class(self) -> str | None:
        return None if self.compute is None else str(self.compute.get("class", "vector"))

    @property
    def register_file(self) -> int | None:
        value = None if self.compute is None else self.compute.get("register_file")
        return None if value is None else int(value)  # type: ignore[arg-type]

    @property
    def matrix_rows(self) -> int:
        """Rows of a matrix unit's array (1 for any other unit)."""
        return int(self.compute.get("rows", 1)) if self.compute else 1  # type: ignore[arg-type]

    @property
    def matrix_cols(self) -> int:
        """Columns of a matrix unit's array (1 for any other unit)."""
        return int(self.compute.get("cols", 1)) if self.compute else 1  # type: ignore[arg-type]

    def macs(self, element_type: str) -> int | None:
        """Multiply-accumulates per cycle on operands of `element_type` (a matrix unit's
        `macs`; None when the unit states none for that type)."""
        table = self.compute.get("macs") if self.compute else None
        return table.get(element_type) if isinstance(table, dict) else None

    @property
    def accumulator(self) -> str | None:
        """The widest element type a matrix unit keeps partial sums in."""
        value = self.compute.get("accumulator") if self.compute else None
        return value if isinstance(value, str) else None

    def lanes(self, element_type: str) -> int:
        """SIMD lanes for an element type (`f16`, `f32`, `df16`, ...)."""
        if element_type not in self.simd_lanes:
            known = ", ".join(sorted(self.simd_lanes)) or "none"
            raise DeviceError(
                f"unit {self.name} has no SIMD lanes for {element_type} (it has: {known})",
                self.location,
            )
        return self.simd_lanes[element_type]


@dataclass(frozen=True)
class Datapath(TransferTiming):
    source: str
    target: str
    bandwidth: int
    """Bytes per cycle."""
    latency: int = 0
    """Cycles from the first byte leaving to the first byte landing."""
    transfer_granularity: int = 1
    """Transfers move a multiple of this many bytes."""
    queue_depth: int | None = None
    """Entries when the datapath is a FIFO, else None."""
    ordered: bool = True
    location: SourceLocation | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class GroupInstance:
    name: str
    """Dotted instance name, e.g. `core3` or `core3.corelet1`."""
    kind: str
    parent: str
    """Instance name of the enclosing group ("" at device level)."""
    children: tuple[str, ...]
    memories: tuple[str, ...]
    units: tuple[str, ...]
    location: SourceLocation | None = field(default=None, compare=False, repr=False)


@dataclass
class Device:
    name: str
    file: str
    clock_hz: int
    mem_space_mapping: dict[str, str]
    memories: dict[str, Memory]
    units: dict[str, Unit]
    datapaths: list[Datapath]
    groups: dict[str, GroupInstance]
    patterns: list[tuple[tuple[str, ...], PatternsOp]] = field(default_factory=list)
    location: SourceLocation | None = None

    def __post_init__(self) -> None:
        self._node_names: list[str] | None = None
        # Lookups asked again and again (the emulator resolves every unit's paths per
        # launch; the cost model routes every transfer): computed once, since the model is
        # not changed after loading.
        self._within_names: dict[str | None, tuple[str, ...]] = {}
        self._cores: tuple[GroupInstance, ...] | None = None
        self.route_cache: dict[tuple, object] = {}
        self._out: dict[str, list[Datapath]] = {}
        self._edge: dict[tuple[str, str], Datapath] = {}
        for dp in self.datapaths:
            self._out.setdefault(dp.source, []).append(dp)
            self._edge[(dp.source, dp.target)] = dp
        for edges in self._out.values():
            edges.sort(key=lambda d: d.target)

    # ---- structure ----------------------------------------------------------------

    @property
    def cores(self) -> list[GroupInstance]:
        if self._cores is None:
            self._cores = tuple(g for g in self.groups.values() if g.kind == "core")
        return list(self._cores)

    @property
    def num_cores(self) -> int:
        return len(self.cores)

    def core(self, index: int) -> GroupInstance:
        cores = self.cores
        if not 0 <= index < len(cores):
            raise DeviceError(f"device {self.name} has cores 0..{len(cores) - 1}, not {index}")
        return cores[index]

    def corelets(self, core: GroupInstance | int) -> list[GroupInstance]:
        """The sibling sub-groups of a core: its corelets."""
        if isinstance(core, int):
            core = self.core(core)
        return [self.groups[c] for c in core.children]

    def check_grid(self, num_tiles: int) -> None:
        """A kernel's grid gives one compute tile per core: it must fit the device."""
        if num_tiles > self.num_cores:
            raise DeviceError(
                f"the kernel's grid needs {num_tiles} cores but device {self.name} has "
                f"{self.num_cores}"
            )

    def node_names(self) -> list[str]:
        """Every memory and unit, in natural order (computed once: the model is not
        changed after loading)."""
        if self._node_names is None:
            self._node_names = sorted([*self.memories, *self.units], key=natural_key)
        return list(self._node_names)

    def is_node(self, name: str) -> bool:
        return name in self.memories or name in self.units

    def outgoing(self, name: str) -> list[Datapath]:
        return self._out.get(name, [])

    def has_datapath(self, source: str, target: str) -> bool:
        return (source, target) in self._edge

    def datapath(self, source: str, target: str) -> Datapath:
        if (source, target) not in self._edge:
            raise DeviceError(f"device {self.name} has no datapath {source} -> {target}")
        return self._edge[(source, target)]

    def fifo_depth(self, source: str, target: str) -> int | None:
        """Depth of the FIFO on the datapath `source -> target` (None: not a FIFO)."""
        return self.datapath(source, target).queue_depth

    def group_of(self, node: str) -> GroupInstance | None:
        owner = self.memories[node].group if node in self.memories else self.units[node].group
        return self.groups.get(owner)

    def core_of(self, node: str) -> GroupInstance | None:
        group = self.group_of(node)
        while group is not None and group.kind != "core":
            group = self.groups.get(group.parent)
        return group

    def _within(self, group: GroupInstance | str | None) -> tuple[str, ...]:
        """Every node name inside a group instance (recursively), in natural order; all
        nodes if None."""
        key = group if group is None or isinstance(group, str) else group.name
        found = self._within_names.get(key)
        if found is None:
            if key is None:
                found = tuple(self.node_names())
            else:
                g = self.groups[key]
                names = [*g.memories, *g.units]
                for child in g.children:
                    names += self._within(child)
                found = tuple(sorted(names, key=natural_key))
            self._within_names[key] = found
        return found

    # ---- memory spaces -------------------------------------------------------------

    def memory_kind_for(self, space: str) -> str:
        """The memory kind a KTIR memory space (`global`, `ct_local`) lives in."""
        if space not in self.mem_space_mapping:
            known = ", ".join(sorted(self.mem_space_mapping)) or "none"
            raise DeviceError(
                f"device {self.name} does not map memory space '{space}' "
                f"(its mem_space_mapping has: {known})",
                self.location,
            )
        return self.mem_space_mapping[space]

    def memories_of_kind(self, kind: str, within: GroupInstance | str | None = None) -> list[Memory]:
        return [self.memories[n] for n in self._within(within) if n in self.memories
                and self.memories[n].kind == kind]

    def access_granularity(self, memory: str) -> int:
        """Bytes a memory instance is accessed in: the largest transfer granularity of the
        datapaths into or out of it (128-byte sticks for spyre's LX; 1 when none says).
        Allocations in it start on this alignment."""
        sizes = [dp.transfer_granularity or 1 for dp in self.datapaths
                 if memory in (dp.source, dp.target)]
        return max(sizes, default=1)

    def device_memory(self) -> Memory:
        """The memory `global` tensors live in."""
        found = self.memories_of_kind(self.memory_kind_for("global"))
        if not found:
            raise DeviceError(f"device {self.name} has no memory for space 'global'", self.location)
        return found[0]

    def scratchpad(self, core: GroupInstance | int = 0) -> Memory:
        """The core's `ct_local` memory."""
        if isinstance(core, int):
            core = self.core(core)
        found = self.memories_of_kind(self.memory_kind_for("ct_local"), core)
        if not found:
            raise DeviceError(f"core {core.name} has no memory for space 'ct_local'", self.location)
        return found[0]

    @property
    def scratchpad_bytes(self) -> int:
        """Scratchpad capacity of one core (the smallest, should cores differ)."""
        return min(self.scratchpad(c).size for c in self.cores)

    # ---- units ---------------------------------------------------------------------

    def units_for_stage(self, stage: str, within: GroupInstance | str | None = None) -> list[Unit]:
        """Units that may run a `load`, `compute` or `store` stage."""
        if stage not in STAGES:
            raise DeviceError(f"unknown stage '{stage}'; expected one of {', '.join(STAGES)}")
        return [self.units[n] for n in self._within(within)
                if n in self.units and stage in self.units[n].stages]

    def compute_units(self, within: GroupInstance | str | None = None,
                      compute_class: str | None = None) -> list[Unit]:
        return [u for u in self.units_for_stage("compute", within)
                if compute_class is None or u.compute_class == compute_class]

    def instances(self, unit_kind: str, within: GroupInstance | str | None = None) -> int:
        """How many units of a kind exist (in a group instance, or on the whole device)."""
        return sum(1 for n in self._within(within)
                   if n in self.units and self.units[n].kind == unit_kind)

    def instances_per_core(self, unit_kind: str) -> int:
        return min(self.instances(unit_kind, c) for c in self.cores)

    def simd_lanes(self, element_type: str, compute_class: str = "vector") -> int:
        """SIMD lanes for an element type on the device's compute units of a class (the
        smallest, should they differ)."""
        units = self.compute_units(compute_class=compute_class)
        if not units:
            raise DeviceError(f"device {self.name} has no '{compute_class}' compute unit")
        return min(u.lanes(element_type) for u in units)

    # ---- timing --------------------------------------------------------------------

    def seconds(self, cycles: int | float) -> float:
        return cycles / self.clock_hz
