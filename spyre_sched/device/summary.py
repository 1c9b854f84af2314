"""Readable text for a device and for a route (what `spyre-sched device show/route` print).

Replicated instances are folded: `core*.corelet*.sfu  x64` stands for core0.corelet0.sfu
... core31.corelet1.sfu, so a 32-core device prints in one screen.
"""

from __future__ import annotations

import re

from spyre_sched.device.model import Datapath, Device, Unit
from spyre_sched.device.routing import Route

_INDEX = re.compile(r"(?<=[A-Za-z_])\d+$")


def _fold(device: Device, name: str) -> str:
    """Replace instance indices by `*`: in group components, and in switch stop names."""
    parts = name.split(".")
    last = parts[-1]
    unit = device.units.get(name)
    if unit is not None and unit.is_switch:
        last = _INDEX.sub("*", last)
    return ".".join([*(_INDEX.sub("*", p) for p in parts[:-1]), last])


def _bytes(n: int) -> str:
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit}"
    return f"{n} B"


def _hz(hz: int) -> str:
    for unit, size in (("GHz", 10**9), ("MHz", 10**6), ("kHz", 10**3)):
        if hz >= size:
            value = hz / size
            return f"{value:g} {unit}"
    return f"{hz} Hz"


def _unit_features(unit: Unit) -> str:
    parts: list[str] = []
    if unit.is_switch:
        parts.append("switch stop")
    for stage in ("load", "store"):
        figures = getattr(unit, stage)
        if figures is not None:
            parts.append(f"{stage} (word {figures['word_size']} B, "
                         f"granularity {figures['access_granularity']} B)")
    if unit.compute is not None:
        extra = "".join(
            f", {k} " + (" ".join(f"{t}x{n}" for t, n in v.items()) if isinstance(v, dict) else str(v))
            for k, v in unit.compute.items() if k != "class")
        parts.append(f"compute {unit.compute_class}{extra}")
    if unit.simd_lanes:
        lanes = " ".join(f"{t}x{n}" for t, n in unit.simd_lanes.items())
        flags = "".join(f" {f}" for f in ("splat", "zero_pad") if getattr(unit, f))
        parts.append(f"simd {lanes}{flags}")
    if unit.queue_depth is not None:
        parts.append(f"queue depth {unit.queue_depth}")
    return "; ".join(parts)


def _datapath_figures(dp: Datapath) -> str:
    text = f"{dp.bandwidth} B/cycle, latency {dp.latency}"
    if dp.transfer_granularity > 1:
        text += f", granularity {dp.transfer_granularity} B"
    if dp.queue_depth is not None:
        text += f", FIFO depth {dp.queue_depth}"
    return text


def _folded_rows(device: Device, rows: list[tuple[tuple[str, ...], str]]) -> list[str]:
    """(names, description) rows -> one line per distinct (folded names, description)."""
    counts: dict[tuple[str, str], int] = {}
    for names, text in rows:
        key = (" -> ".join(_fold(device, n) for n in names), text)
        counts[key] = counts.get(key, 0) + 1
    width = max((len(k[0]) for k in counts), default=0)
    lines = []
    for (name, text), count in counts.items():
        times = f"x{count}" if count > 1 else ""
        lines.append(f"  {name:<{width}}  {times:>5}  {text}")
    return lines


def describe_device(device: Device) -> str:
    cores = device.cores
    corelets = len(device.corelets(cores[0])) if cores else 0
    lines = [
        f"device {device.name}  ({device.file})",
        f"clock: {_hz(device.clock_hz)}",
        "memory spaces: " + ", ".join(f"{s} -> {k}" for s, k in device.mem_space_mapping.items()),
        f"cores: {device.num_cores} ({cores[0].name} .. {cores[-1].name}), "
        f"corelets per core: {corelets}",
        f"scratchpad per core: {_bytes(device.scratchpad_bytes)}",
        "names: '*' stands for an instance index, e.g. "
        + (device.compute_units(compute_class="vector")[0].name
           if device.compute_units(compute_class="vector") else "core0.unit"),
        "",
        "memories:",
    ]
    rows = []
    for memory in device.memories.values():
        text = f"{memory.kind:<6} {_bytes(memory.size)}"
        if memory.bandwidth is not None:
            text += f", {memory.bandwidth} B/cycle total"
        if memory.latency:
            text += f", read latency {memory.latency}"
        rows.append(((memory.name,), text))
    lines += _folded_rows(device, rows)
    lines += ["", "units:"]
    lines += _folded_rows(device, [((u.name,), f"{u.kind:<8} {_unit_features(u)}")
                           for u in device.units.values()])
    lines += ["", "datapaths:"]
    lines += _folded_rows(device, [((dp.source, dp.target), _datapath_figures(dp))
                           for dp in device.datapaths])
    if device.patterns:
        lines += ["", "patterns:"]
        for checkpoints, block in device.patterns:
            names = [op.sym_name.data for op in block.body.block.ops
                     if getattr(op, "sym_name", None) is not None]
            lines.append(f"  {', '.join(checkpoints)}: {', '.join(names)}")
    return "\n".join(lines)


def describe_route(route: Route, nbytes: int) -> str:
    lines = [f"route {route.source} -> {route.target}: {len(route.hops)} hop(s), "
             f"{route.transfer_cycles(nbytes)} cycles for {nbytes} bytes (store and forward)"]
    if not route.hops:
        lines.append("  (source and target are the same node)")
    for index, hop in enumerate(route.hops, 1):
        lands = hop.lands_in
        if hop.queue_depth is not None:
            lands += f" (FIFO depth {hop.queue_depth})"
        lines.append(f"  {index}. {hop.unit}: {hop.source} -> {lands}; {hop.bandwidth} B/cycle, "
                     f"latency {hop.latency}, granularity {hop.transfer_granularity} B")
    return "\n".join(lines)
