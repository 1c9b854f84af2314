"""Device rewrite patterns: the `patterns [...] { pdl.pattern ... }` blocks of a device file.

They are applied with xDSL's PDL interpreter (`xdsl.interpreters.pdl.PDLRewritePattern`)
at the checkpoint they name. Two pieces xDSL's PDL support lacks are done here in Python:
  * `PDLRewritePattern` requires the `pdl.pattern` to sit directly in a `builtin.module`;
    ours sit in a `ktdf_arch.patterns` block, so each is cloned into a module of its own.
  * xDSL ignores `benefit`; patterns are sorted by benefit (highest first, then by file
    order) before they go to the greedy applier, which tries them in list order.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import pdl
from xdsl.dialects.builtin import ModuleOp
from xdsl.interpreters.pdl import PDLRewritePattern
from xdsl.ir import Operation
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.utils.exceptions import InterpretationError

from spyre_sched.device.model import CHECKPOINTS, Device
from spyre_sched.device.device_parser import device_context
from spyre_sched.errors import DeviceError


@dataclass
class _CountingPattern(RewritePattern):
    """Runs one PDL pattern and counts how often it rewrote something."""

    name: str
    inner: PDLRewritePattern
    fired: dict[str, int] = field(default_factory=dict)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        before = rewriter.has_done_action
        try:
            self.inner.match_and_rewrite(op, rewriter)
        except InterpretationError as err:
            raise DeviceError(f"device pattern {self.name} failed on {op.name}: {err}") from None
        if rewriter.has_done_action and not before:
            self.fired[self.name] = self.fired.get(self.name, 0) + 1


def device_patterns(device: Device, checkpoint: str) -> list[pdl.PatternOp]:
    """The device's `pdl.pattern`s for a checkpoint, highest benefit first."""
    if checkpoint not in CHECKPOINTS:
        raise DeviceError(f"unknown checkpoint '{checkpoint}'; expected one of "
                          + ", ".join(CHECKPOINTS))
    found = [p for names, block in device.patterns if checkpoint in names
             for p in block.body.block.ops if isinstance(p, pdl.PatternOp)]
    # sorted() is stable, so equal benefits keep file order.
    return sorted(found, key=lambda p: -(p.benefit.value.data if p.benefit else 0))


def apply_device_patterns(device: Device, module: ModuleOp, checkpoint: str,
                          ctx: Context | None = None) -> dict[str, int]:
    """Rewrite `module` in place with the device's patterns for `checkpoint`.

    Returns how many times each pattern fired (by pattern name), for traces and tests.
    """
    ctx = ctx or device_context()
    fired: dict[str, int] = {}
    rewrites: list[RewritePattern] = []
    for index, pattern in enumerate(device_patterns(device, checkpoint)):
        holder = ModuleOp([pattern.clone()])
        clone = next(iter(holder.ops))
        assert isinstance(clone, pdl.PatternOp)
        rewrite = next(op for op in clone.body.block.ops if isinstance(op, pdl.RewriteOp))
        name = pattern.sym_name.data if pattern.sym_name else f"pattern{index}"
        rewrites.append(_CountingPattern(name, PDLRewritePattern(rewrite, ctx), fired))
    if rewrites:
        PatternRewriteWalker(GreedyRewritePatternApplier(rewrites)).rewrite_module(module)
    return fired
