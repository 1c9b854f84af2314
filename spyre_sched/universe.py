"""The xdsl.universe entry point: lets the stock `xdsl-opt` load our dialects and passes."""

from xdsl.universe import Universe

from spyre_sched.dialects.registry import OUR_DIALECTS, dialect_loader

SPYRE_SCHED_UNIVERSE = Universe(
    all_dialects={name: dialect_loader(*where) for name, where in OUR_DIALECTS.items()},
    all_passes={},
)
