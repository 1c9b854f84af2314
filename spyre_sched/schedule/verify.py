"""Module-level rules of ScheduleIR that single-op verifiers cannot see.

- decision names are unique in the module;
- a buffer's `tile_dims` name decisions of its own program, and its declared size covers
  its footprint: a static buffer dim is at least the extent the tile gives it (the
  largest legal value of a decision while open, the chosen value once solved);
- stage unit kinds and FIFO endpoints that name units are unit kinds of the device, and
  a FIFO between two units follows a datapath of the device (really adjacent);
- buffers live in memory kinds the device has.
"""

from __future__ import annotations

from xdsl.dialects.builtin import DYNAMIC_INDEX, ModuleOp, StringAttr
from xdsl.ir import Operation
from xdsl.utils.exceptions import VerifyException

from spyre_sched.device import Device, load_device
from spyre_sched.dialects import ktdf
from spyre_sched.errors import SpyreSchedError
from spyre_sched.polyhedral.tile_image import image_size
from spyre_sched.schedule.common import DEVICE_ATTR, programs


def _adjacent_kinds(device: Device) -> set[tuple[str, str]]:
    pairs = set()
    for dp in device.datapaths:
        if dp.source in device.units and dp.target in device.units:
            pairs.add((device.units[dp.source].kind, device.units[dp.target].kind))
    return pairs


def tile_extent(value: str | int, decisions: dict[str, ktdf.DecisionOp], buffer: Operation) -> int:
    """The extent a tile dim has: an integer, a solved decision, or an open decision's
    largest legal value."""
    if isinstance(value, int):
        return value
    op = decisions.get(value)
    if not isinstance(op, ktdf.ReserveSizeOp):
        raise VerifyException(f"ktdf.buffer '{buffer.properties['operand']}' names tile "
                              f"decision '{value}', which its program does not reserve")
    solved = ktdf.decision_value(op)
    return solved if solved is not None else max(op.legal_values())


def verify_schedule_ir(module: ModuleOp) -> None:
    ktdf.decision_ops(module)  # unique names
    attr = module.attributes.get(DEVICE_ATTR)
    device = None
    if isinstance(attr, StringAttr):
        try:
            device = load_device(attr.data)
        except SpyreSchedError as err:
            raise VerifyException(f"{DEVICE_ATTR} = \"{attr.data}\": {err.message}") from None
    for _, fn in programs(module):
        decisions = ktdf.decision_ops(fn)
        for op in fn.walk():
            if isinstance(op, ktdf.BufferOp):
                _check_buffer(op, decisions, device)
    if device is None:
        return
    unit_kinds = {u.kind for u in device.units.values()}
    memory_kinds = {m.kind for m in device.memories.values()}
    adjacent = _adjacent_kinds(device)
    for op in module.walk():
        if isinstance(op, ktdf.StageOp):
            for unit in op.units:
                if unit not in unit_kinds:
                    raise VerifyException(f"ktdf.stage: unit kind '{unit}' is not a unit kind "
                                          f"of device {device.name} ({', '.join(sorted(unit_kinds))})")
        elif isinstance(op, ktdf.FifoOp):
            slot = op.result.type
            src, dst = slot.source.data, slot.dest.data
            for end in (src, dst):
                if end not in unit_kinds and end not in memory_kinds:
                    raise VerifyException(f"!ktdf.fifo.slot: '{end}' is neither a unit kind nor a "
                                          f"memory kind of device {device.name}")
            if src in unit_kinds and dst in unit_kinds and (src, dst) not in adjacent:
                raise VerifyException(f"!ktdf.fifo.slot<\"{src}\" -> \"{dst}\">: no datapath "
                                      f"joins a {src} unit to a {dst} unit on {device.name}")


def _check_buffer(op: ktdf.BufferOp, decisions, device: Device | None) -> None:
    sizes = [tile_extent(v, decisions, op) for v in op.tile_dim_values()]
    amap = op.access_map.data
    shape = op.result.type.get_shape()
    for j, r in enumerate(amap.results):
        need = sizes[r.position] if hasattr(r, "position") else None  # type: ignore[attr-defined]
        if need is not None and shape[j] != DYNAMIC_INDEX and shape[j] < need:
            raise VerifyException(
                f"ktdf.buffer '{op.operand.data}': dim {j} holds {shape[j]} but its tile "
                f"needs {need}")
    footprint = image_size(amap, sizes)
    static = [s for s in shape if s != DYNAMIC_INDEX]
    if len(static) == len(shape):
        capacity = 1
        for s in static:
            capacity *= s
        if capacity < footprint:
            raise VerifyException(f"ktdf.buffer '{op.operand.data}': {capacity} elements "
                                  f"cannot hold its footprint of {footprint}")
    if device is not None and op.memory not in {m.kind for m in device.memories.values()}:
        raise VerifyException(f"ktdf.buffer '{op.operand.data}': memory kind '{op.memory}' is "
                              f"not a memory of device {device.name}")
