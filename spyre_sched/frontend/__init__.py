"""KTIR text -> verified module: context, located parsing, diagnostics, argument inference."""

from spyre_sched.dialects.registry import make_context
from spyre_sched.frontend.kernel import Kernel, grid_of, load_kernel, parse_kernel

__all__ = ["Kernel", "grid_of", "load_kernel", "make_context", "parse_kernel"]
