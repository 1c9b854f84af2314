"""The xdsl.universe entry point: lets the stock `xdsl-opt` load our dialects and passes."""

from xdsl.universe import Universe


def _dialect(module: str, attr: str):
    def load():
        import importlib

        return getattr(importlib.import_module(module), attr)

    return load


SPYRE_SCHED_UNIVERSE = Universe(
    all_dialects={
        "ktdp": _dialect("spyre_sched.dialects.ktdp", "KTDP"),
        "spyreop": _dialect("spyre_sched.dialects.spyreop", "SPYREOP"),
        "ktdf_arch": _dialect("spyre_sched.dialects.ktdf_arch", "KTDF_ARCH"),
    },
    all_passes={},
)
