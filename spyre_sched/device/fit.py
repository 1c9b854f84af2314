"""Does a kernel fit a device? Its grid needs one core per compute tile, and every memory
space its views use must be mapped by the device (`mem_space_mapping`)."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.ir import Operation

from spyre_sched.device.model import Device
from spyre_sched.dialects.ktdp import ConstructMemoryViewOp
from spyre_sched.errors import DeviceError, SourceLocation


def check_kernel_fits(
    device: Device,
    func: Operation,
    num_tiles: int,
    locate: Callable[[Operation], SourceLocation | str],
) -> None:
    """Raise a DeviceError located at the kernel op that the device cannot serve."""
    try:
        device.check_grid(num_tiles)
    except DeviceError as err:
        raise DeviceError(err.message, locate(func)) from None
    for op in func.walk():
        if isinstance(op, ConstructMemoryViewOp):
            try:
                device.memory_kind_for(op.memory_space.space)  # type: ignore[attr-defined]
            except DeviceError as err:
                raise DeviceError(err.message, locate(op)) from None


def check_resources(device: Device, view_spans, loaded_tiles
                    ) -> tuple[list[tuple[Operation, str]], list[tuple[Operation, str]]]:
    """(errors, notes), each a list of (op, message). Errors: every memory view larger
    than the memory its space maps to, and every loaded tile larger than any memory of
    the device (no schedule can move more data than the device holds). Notes: every
    loaded tile larger than the scratchpad it lands in, which is not an error of the
    kernel: the compiler cuts it into smaller tiles that stream through the scratchpad,
    and refuses the kernel, saying why, only when no schedule can. `view_spans` and
    `loaded_tiles` are `spyre_sched.polyhedral.resources` spans (op, bytes, space)."""
    problems = []
    notes = []
    memories = {"global": device.device_memory()}
    if "ct_local" in device.mem_space_mapping and device.cores:
        memories["ct_local"] = min((device.scratchpad(c) for c in device.cores),
                                   key=lambda m: m.size)
    for span in view_spans:
        memory = memories.get(span.space)
        if span.bytes is None or memory is None or span.bytes <= memory.size:
            continue
        problems.append((span.op, (
            f"the view spans {span.bytes} bytes, more than the {memory.size} bytes of "
            f"{memory.name} ({memory.kind}), where space '{span.space}' lives on device "
            f"{device.name}")))
    scratchpad = memories.get("ct_local")
    largest = max(device.memories.values(), key=lambda m: m.size)
    for tile in loaded_tiles:
        if scratchpad is None or tile.bytes is None or tile.bytes <= scratchpad.size:
            continue
        if tile.bytes > largest.size:
            problems.append((tile.op, (
                f"the loaded tile holds {tile.bytes} bytes, more than the {largest.size} "
                f"bytes of {largest.name}, the largest memory of device {device.name}: no "
                f"schedule can move it")))
            continue
        notes.append((tile.op, (
            f"the loaded tile holds {tile.bytes} bytes, more than the {scratchpad.size}-byte "
            f"scratchpad ({scratchpad.name}) it lands in on device {device.name}: compiling "
            f"cuts it into tiles that stream through the scratchpad (an error only if no "
            f"schedule can, saying why)")))
    return problems, notes
