"""The xDSL context every text reader uses: all upstream dialects (linalg extended with what
KTIR producers print), plus ours. Kernels, device files and device patterns share it."""

from __future__ import annotations

import importlib

from xdsl.context import Context
from xdsl.dialects import get_all_dialects

# Our dialects, loaded on first use (module, attribute).
OUR_DIALECTS = {
    "ktdp": ("spyre_sched.dialects.ktdp", "KTDP"),
    "spyreop": ("spyre_sched.dialects.spyreop", "SPYREOP"),
    "ktdf_arch": ("spyre_sched.dialects.ktdf_arch", "KTDF_ARCH"),
    "dataflow": ("spyre_sched.dialects.dataflow", "DATAFLOW"),
    "agen": ("spyre_sched.dialects.agen", "AGEN"),
    "vectorchain": ("spyre_sched.dialects.vectorchain", "VECTORCHAIN"),
    "uniform": ("spyre_sched.dialects.uniform", "UNIFORM"),
    "symbol": ("spyre_sched.dialects.symbol", "SYMBOL"),
    "ktdf": ("spyre_sched.dialects.ktdf", "KTDF"),
}


def dialect_loader(module: str, attr: str):
    return lambda: getattr(importlib.import_module(module), attr)


def make_context() -> Context:
    """A fresh context: every upstream xDSL dialect (lazily) and ours."""
    ctx = Context()
    for name, factory in get_all_dialects().items():
        if name not in OUR_DIALECTS:
            ctx.register_dialect(name, _EXTENDED.get(name, factory))
    for name, (module, attr) in OUR_DIALECTS.items():
        ctx.register_dialect(name, dialect_loader(module, attr))
    return ctx


def _linalg_for_ktir():
    # xDSL 0.75's linalg plus `linalg.div` and the short-form `linalg.reduce`.
    from spyre_sched.dialects.linalg_ktir import LINALG_KTIR

    return LINALG_KTIR


def _scf_for_ktir():
    # `scf.for ... -> T {` with one result type and no parentheses.
    from spyre_sched.dialects.scf_ktir import SCF_KTIR

    return SCF_KTIR


def _arith_for_ktir():
    # `arith.select` with a tensor condition.
    from spyre_sched.dialects.arith_ktir import ARITH_KTIR

    return ARITH_KTIR


#: upstream dialects replaced by the KTIR-extended ones above
_EXTENDED = {"linalg": _linalg_for_ktir, "scf": _scf_for_ktir, "arith": _arith_for_ktir}
