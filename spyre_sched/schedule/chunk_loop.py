"""A loop over chunks of a reduction dim: the chunk's legal sizes and the positions inside
it. chunk-reductions (a row or a matmul's K streamed through the compute) and
stream-k-chunks (a matmul's whole-K panel streamed beside a held row tile) both cut a
reduction loop into a chunk loop around a loop over one chunk."""

from __future__ import annotations

from xdsl.dialects import arith, scf
from xdsl.ir import SSAValue

from spyre_sched.dialects import ktdf

#: at most this many legal chunk sizes (keeps the solver's candidate lists short)
MAX_CHUNK_VALUES = 256


def chunk_granule(step: int, extent: int) -> int:
    """The smallest legal chunk: the reduction loop's step, doubled until the extent has
    at most MAX_CHUNK_VALUES of them (never more than the extent)."""
    granule = max(step, 1)
    while -(-extent // granule) > MAX_CHUNK_VALUES and granule * 2 <= extent:
        granule *= 2
    return granule


def chunk_positions(loop: scf.ForOp, start: SSAValue, size: SSAValue,
                    chunked: set[SSAValue]) -> None:
    """`loop` (over a reduction dim) now walks one chunk [start, start + size): a buffer
    in `chunked` (holding the chunk) is indexed by the position in the chunk, a vector's
    size is bounded by the chunk, anything else (views, whole buffers) by start +
    position."""
    iv = loop.body.block.args[0]
    global_iv: SSAValue | None = None
    for use in list(iv.uses):
        user = use.operation
        if isinstance(user, ktdf.DeriveSizeOp) and use.index == 0:
            user.operands[2] = size
            continue
        if isinstance(user, ktdf.DataTransferOp) and user.source in chunked:
            continue
        if global_iv is None:
            add = arith.AddiOp(start, iv)
            add.result.name_hint = "pos"
            loop.body.block.insert_op_before(add, loop.body.block.first_op)  # type: ignore[arg-type]
            global_iv = add.result
        user.operands[use.index] = global_iv
