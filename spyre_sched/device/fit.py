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
