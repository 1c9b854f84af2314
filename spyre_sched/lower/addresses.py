"""Address assignment: every compiler buffer gets a place in its scratchpad.

Per program (a program's buffers are dead when it returns, so every program starts from
an empty scratchpad: programs reuse each other's space), and within a program by
lifetime: buffers whose lifetimes (`lifetimes.py`) do not overlap may share addresses.
Per memory: offsets aligned to
the memory's access granularity (128-byte sticks on spyre), each of a buffer's modulo
copies (slots) starting on that alignment, never overlapping a region the kernel pins
there (`ct_local` views: the first `ktdf.pinned_bytes` bytes), never past the capacity.
The same offsets hold in every core's scratchpad. Kernel tensors in device memory are the
caller's (symbols); nothing here allocates device memory.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from spyre_sched.errors import SpyreSchedError


class CapacityError(SpyreSchedError):
    """The buffers of a program do not fit in the scratchpad."""


@dataclass(frozen=True)
class BufferRequest:
    name: str
    memory: str  # local memory name, e.g. "lx"
    slot_bytes: int  # bytes of one copy
    slots: int  # the pipeline's modulo
    role: str
    # written by a unit that runs ahead of the compute (a DMA fill): taking a dead buffer's
    # bytes would hold the fill back until that buffer's last reader is done, so it gets
    # bytes of its own unless it would not fit otherwise
    early: bool = False


@dataclass(frozen=True)
class Allocation:
    name: str
    memory: str
    offset: int
    slot_bytes: int  # aligned: slot k starts at offset + k * slot_bytes
    slots: int
    role: str

    @property
    def bytes(self) -> int:
        return self.slot_bytes * self.slots

    @property
    def end(self) -> int:
        return self.offset + self.bytes


def align_up(value: int, alignment: int) -> int:
    return -(-value // alignment) * alignment


def _overlap(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def _first_fit(size: int, align: int, taken: Sequence[tuple[int, int]]) -> int:
    """The lowest aligned offset where `size` bytes overlap none of `taken`."""
    offset = 0
    for start, end in sorted(taken):
        if offset + size <= start:
            break
        offset = max(offset, align_up(end, align))
    return offset


def assign(program: str, requests: Sequence[BufferRequest], *, capacity: dict[str, int],
           alignment: dict[str, int], pinned: dict[str, Sequence[tuple[int, int]]],
           lifetimes: Sequence[tuple[int, int]] | None = None) -> list[Allocation]:
    """Place `requests` (in order) in their memories: first fit, aligned, around the pinned
    [start, end) byte ranges and around the buffers already placed whose lifetime
    (`lifetimes[i]`, [start, end) in program order) overlaps this one's; without
    `lifetimes` every buffer is live at once. An `early` request avoids every buffer
    placed before it when that fits. Raises CapacityError naming the program and
    the buffers live together."""
    placed: list[Allocation] = []
    for i, req in enumerate(requests):
        align = alignment.get(req.memory, 1)
        slot = align_up(max(req.slot_bytes, 1), align)
        size = slot * req.slots
        cap = capacity[req.memory]
        same = [j for j in range(i) if placed[j].memory == req.memory]
        live = [j for j in same if lifetimes is None or _overlap(lifetimes[i], lifetimes[j])]
        offset = _first_fit(size, align, [*pinned.get(req.memory, ()), *((placed[j].offset, placed[j].end) for j in live)])
        if req.early and lifetimes is not None:
            apart = _first_fit(size, align, [*pinned.get(req.memory, ()), *((placed[j].offset, placed[j].end) for j in same)])
            if apart + size <= cap:
                offset = apart
        if offset + size > cap:
            mine = [placed[j] for j in live] + [
                Allocation(req.name, req.memory, offset, slot, req.slots, req.role)]
            listing = ", ".join(f"{a.name} {a.slots}x{a.slot_bytes} B" for a in mine)
            pinned_bytes = sum(e - s for s, e in pinned.get(req.memory, ()))
            raise CapacityError(
                f"program {program}: buffers do not fit in scratchpad '{req.memory}' of "
                f"{cap} bytes: {listing} (aligned to {align} bytes) plus {pinned_bytes} "
                f"bytes pinned by the kernel need {offset + size} bytes"
            )
        placed.append(Allocation(req.name, req.memory, offset, slot, req.slots, req.role))
    return placed
