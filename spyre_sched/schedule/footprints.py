"""Pass 10, footprints: exact buffer footprints from the integer sets.

A buffer's footprint for given tile sizes is the number of distinct elements one tile
touches in it: the image of the tile box under the buffer's `access_map`, counted by the
polyhedral layer (`image_size`; a broadcast operand, a skewed or strided map are not the
product of the extents). This pass records `elements_at_max` on every buffer (the
footprint at the largest legal tile sizes, or the chosen ones once solved) and checks
that each program fits its scratchpad at the *smallest* legal choice (smallest tiles,
one copy, and for an input the solver may keep resident or re-read, the cheaper of the
two forms: the resident buffer, or the staging buffers of the computes that re-read it):
if not, no solution exists and the kernel author is told which program and memory
overflow, by how much.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from spyre_sched.dialects import ktdf
from spyre_sched.polyhedral.tile_image import image_size
from spyre_sched.schedule.keep_resident import KEEP_ATTR
from spyre_sched.schedule.common import (
    PINNED_ATTR,
    device_of,
    element_bytes,
    fail,
    int_attr,
    programs,
)

NAME = "footprints"
ELEMENTS_ATTR = "elements_at_max"


def buffer_elements(buffer: ktdf.BufferOp, decisions: dict[str, ktdf.DecisionOp],
                    pick: str = "max") -> int:
    """Footprint in elements with every open tile decision at its largest ("max") or
    smallest ("min") legal value (solved decisions at their value)."""
    sizes = []
    for value in buffer.tile_dim_values():
        if isinstance(value, int):
            sizes.append(value)
            continue
        op = decisions[value]
        assert isinstance(op, ktdf.ReserveSizeOp)
        solved = ktdf.decision_value(op)
        legal = op.legal_values()
        sizes.append(solved if solved is not None else (max(legal) if pick == "max" else min(legal)))
    return image_size(buffer.access_map.data, sizes)


def _open_keep(buffer: ktdf.BufferOp, decisions: dict[str, ktdf.DecisionOp]) -> str | None:
    """The open keep decision of this program that `buffer` belongs to (`ktdf.keep`), if
    any: a solved one leaves only its chosen form's buffers, each counted as it is."""
    attr = buffer.attributes.get(KEEP_ATTR)
    name = getattr(attr, "data", None)
    op = decisions.get(name) if isinstance(name, str) else None
    if isinstance(op, ktdf.KeepResidentOp) and op.value is None:
        return name
    return None


@dataclass(frozen=True)
class Footprints(ModulePass):
    """Record exact footprints; refuse programs that cannot fit at all."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        device = device_of(op, NAME)
        core = device.core(0)
        scratch_kind = device.memory_kind_for("ct_local")
        for index, fn in programs(op):
            decisions = ktdf.decision_ops(fn)
            need: dict[str, int] = {}
            parts: dict[str, list[tuple[int, str]]] = {}
            addresses: dict[str, int] = {}  # of which: address buffers of indirect transfers
            # an open keep decision's buffers exist in one form or the other: the resident
            # buffer when the input is kept, the staging buffers when it is re-read; the
            # smallest choice takes the cheaper form (per memory), not both
            forms: dict[tuple[str, str], list[list[tuple[int, str]]]] = {}
            for buffer in [b for b in fn.walk() if isinstance(b, ktdf.BufferOp)]:
                elements = buffer_elements(buffer, decisions)
                buffer.attributes[ELEMENTS_ATTR] = int_attr(elements)
                smallest = buffer_elements(buffer, decisions, "min")
                nbytes = smallest * element_bytes(buffer.result.type.element_type)
                what = f"{buffer.role.data} {buffer.operand.data}"
                keep = _open_keep(buffer, decisions)
                if keep is not None:
                    kept = buffer.role.data == "resident"
                    forms.setdefault((keep, buffer.memory), [[], []])[kept].append(
                        (nbytes, what))
                    continue
                need[buffer.memory] = need.get(buffer.memory, 0) + nbytes
                parts.setdefault(buffer.memory, []).append((nbytes, what))
                if buffer.role.data == "addresses":
                    addresses[buffer.memory] = addresses.get(buffer.memory, 0) + nbytes
            for (_, memory), (reread, kept) in sorted(forms.items()):
                cheaper = min(reread, kept, key=lambda form: sum(n for n, _ in form))
                for nbytes, what in cheaper:
                    need[memory] = need.get(memory, 0) + nbytes
                    parts.setdefault(memory, []).append((nbytes, what))
            pinned = fn.attributes.get(PINNED_ATTR)
            pinned_bytes = pinned.value.data if pinned is not None else 0  # type: ignore[attr-defined]
            need[scratch_kind] = need.get(scratch_kind, 0) + pinned_bytes
            for kind, total in sorted(need.items()):
                memories = device.memories_of_kind(kind, core) or device.memories_of_kind(kind)
                if not memories:
                    continue
                capacity = memories[0].size
                if total > capacity:
                    # the largest buffers first: what a smaller kernel tile must shrink
                    # (a matmul's smallest slabs are one array block by one K chunk)
                    largest = sorted(parts.get(kind, []), key=lambda p: (-p[0], p[1]))[:3]
                    listed = ", ".join(f"{what} {n} bytes" for n, what in largest)
                    of_which = (f" ({addresses[kind]} of them for the address buffers of "
                                f"indirect transfers)" if addresses.get(kind) else "")
                    raise fail(fn, NAME, f"program {index} needs {total} bytes of {kind} even "
                               f"with the smallest tiles and one copy of each buffer{of_which}, "
                               f"but a core has {capacity} (largest: {listed})")
