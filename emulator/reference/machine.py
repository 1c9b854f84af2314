"""What all tiles of one launch share: the kernel, the grid, memory and the inter-tile exchange."""

from __future__ import annotations

from dataclasses import dataclass, field

from spyre_sched.frontend import Kernel

from emulator.reference.exchange import Exchange
from emulator.reference.memory import DeviceMemory


@dataclass
class Machine:
    kernel: Kernel
    memory: DeviceMemory
    grid: tuple[int, ...]
    exchange: Exchange
    #: (space, element offset) of arguments whose shape is only known at run time ->
    #: the (coordinate set, symbols) of every view built there
    watched: dict[tuple[object, int], list] = field(default_factory=dict)
    #: (view op, offset, sizes, strides, symbols, space) -> the MemoryView built for them:
    #: tiles that build the same view share one (and the access plans it caches). Per
    #: launch: a plan remembers the size of this launch's memory.
    views: dict[tuple, object] = field(default_factory=dict)

    @property
    def num_tiles(self) -> int:
        return self.memory.num_tiles
