"""The device model read from a `ktdf_arch` file: memories, units, datapaths, groups,
features and timing; routing over the datapath graph; device rewrite patterns."""

from spyre_sched.device.load import DEFAULT_DEVICE, load_device, resolve_device_path
from spyre_sched.device.model import Datapath, Device, GroupInstance, Memory, Unit
from spyre_sched.device.patterns import apply_device_patterns
from spyre_sched.device.routing import Hop, Route, find_route

__all__ = [
    "DEFAULT_DEVICE",
    "Datapath",
    "Device",
    "GroupInstance",
    "Hop",
    "Memory",
    "Route",
    "Unit",
    "apply_device_patterns",
    "find_route",
    "load_device",
    "resolve_device_path",
]
