"""Pass 8, chunk-reductions: reductions and the scratchpad.

The naive pipeline already gives every reduction its shape: the reduction dims are loops
inside the stages, the compute stage carries the accumulator in `iter_args` from the
reduction's `linalg.fill` init, and each step reduces one stick-wide vector with the
generic's combiner (the part a device pattern at `post_scheduling` may map onto the
hardware's reduction support). Nesting keeps the whole reduction extent in each
scratchpad tile, so a row is reduced in one pass.

What this version does here: it marks every reduction loop's vector step with the
reduction it performs (`ktdf.reduction = "<combiner op>"`, for traces and device
patterns), and checks that a whole reduction fits: if even the smallest tiles of the
other dims need more scratchpad than a core has, chunking the reduction (an outer loop
over chunks carrying the accumulator through a scratchpad buffer) would be required,
which is not supported yet and is reported as such, at the compute.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.passes import ModulePass

from spyre_sched.dialects import ktdf
from spyre_sched.schedule.common import device_of, element_bytes, fail, programs
from spyre_sched.schedule.footprints import buffer_elements
from spyre_sched.schedule.ir_build import is_reduction_loop

NAME = "chunk-reductions"
REDUCTION_ATTR = "ktdf.reduction"


def combiner(generic: GenericOp) -> str:
    """The op that combines a new element into the accumulator (the last op feeding the
    yield), e.g. `arith.addf`, `arith.maximumf`."""
    yield_op = generic.body.block.last_op
    assert yield_op is not None
    value = yield_op.operands[0]
    owner = value.owner
    return owner.name if hasattr(owner, "name") else "copy"  # type: ignore[union-attr]


@dataclass(frozen=True)
class ChunkReductions(ModulePass):
    """Tag reduction steps with their combiner; refuse reductions too large to stage."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        device = device_of(op, NAME)
        core = device.core(0)
        for _, fn in programs(op):
            decisions = ktdf.decision_ops(fn)
            for loop in [o for o in fn.walk() if isinstance(o, scf.ForOp) and is_reduction_loop(o)]:
                generics = [g for g in loop.walk() if isinstance(g, GenericOp)]
                if generics:
                    loop.attributes[REDUCTION_ATTR] = StringAttr(combiner(generics[0]))
            for pipe in [p for p in fn.walk() if isinstance(p, ktdf.PipelineOp)]:
                private = pipe.private
                if private is None or not any(is_reduction_loop(o) for o in pipe.walk()
                                              if isinstance(o, scf.ForOp)):
                    continue
                need: dict[str, int] = {}
                for buffer in [b for b in private.body.block.ops if isinstance(b, ktdf.BufferOp)]:
                    bytes_ = buffer_elements(buffer, decisions, "min") * element_bytes(
                        buffer.result.type.element_type)
                    need[buffer.memory] = need.get(buffer.memory, 0) + bytes_
                for kind, total in need.items():
                    memories = device.memories_of_kind(kind, core) or device.memories_of_kind(kind)
                    if memories and total > memories[0].size:
                        raise fail(pipe, NAME, f"not supported yet: chunking a reduction whose "
                                   f"smallest tile needs {total} bytes of {kind} (a core has "
                                   f"{memories[0].size})")
