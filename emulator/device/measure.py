"""What one emulated launch measured: cycles, per-unit time bins, bytes per datapath."""

from __future__ import annotations

from dataclasses import dataclass, field

from spyre_sched.device.model import natural_key

from emulator.device.sim import SharedResource, Simulator, UnitStats


@dataclass
class Measurements:
    cycles: int
    units: dict[str, UnitStats]
    datapath_bytes: dict[str, int]
    shared: dict[str, dict[str, int]] = field(default_factory=dict)
    """Per shared resource (device memory, ring links): busy cycles and bytes."""

    @staticmethod
    def of(sim: Simulator, shared: dict[str, SharedResource], fifos=()) -> Measurements:
        cycles = max([sim.now, *(p.stats.finished_at for p in sim.processes)])
        paths = dict(sim.datapath_bytes)
        for fifo in fifos:
            paths[fifo.path] = paths.get(fifo.path, 0) + fifo.bytes_moved
        return Measurements(
            cycles=cycles,
            units={p.name: p.stats for p in sorted(sim.processes, key=lambda p: natural_key(p.name))},
            datapath_bytes=dict(sorted(paths.items(), key=lambda kv: natural_key(kv[0]))),
            shared={name: {"busy": r.busy, "bytes": r.bytes}
                    for name, r in sorted(shared.items(), key=lambda kv: natural_key(kv[0]))},
        )

    def bandwidth(self) -> dict[str, float]:
        """Achieved bytes per cycle on each datapath over the whole launch."""
        return {k: (v / self.cycles if self.cycles else 0.0) for k, v in self.datapath_bytes.items()}

    def utilisation(self) -> dict[str, float]:
        return {k: (s.busy / self.cycles if self.cycles else 0.0) for k, s in self.units.items()}

    def merge(self, later: Measurements) -> Measurements:
        """Two launches run one after the other (programs of one kernel in order)."""
        units = {k: UnitStats(**v.as_dict()) for k, v in self.units.items()}
        for name, s in later.units.items():
            mine = units.setdefault(name, UnitStats())
            mine.busy += s.busy
            mine.stalled_input += s.stalled_input
            mine.stalled_output += s.stalled_output
            mine.stalled_shared += s.stalled_shared
            mine.instructions += s.instructions
            mine.finished_at = self.cycles + s.finished_at
        paths = dict(self.datapath_bytes)
        for k, v in later.datapath_bytes.items():
            paths[k] = paths.get(k, 0) + v
        shared = {k: dict(v) for k, v in self.shared.items()}
        for k, v in later.shared.items():
            mine = shared.setdefault(k, {"busy": 0, "bytes": 0})
            mine["busy"] += v["busy"]
            mine["bytes"] += v["bytes"]
        return Measurements(self.cycles + later.cycles, units, paths, shared)

    def as_dict(self) -> dict:
        return {
            "cycles": self.cycles,
            "units": {k: s.as_dict() for k, s in self.units.items()},
            "datapath_bytes": self.datapath_bytes,
            "datapath_bytes_per_cycle": {k: round(v, 3) for k, v in self.bandwidth().items()},
            "shared": self.shared,
        }
