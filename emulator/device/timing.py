"""Transfer timing, from the device model's one formula.

`spyre_sched.device.model.transfer_cycles` (reached through `Hop.occupancy` /
`Hop.latency`) is the single definition of how long a transfer takes:
ceil(bytes / bandwidth) + latency. The
emulator splits it in two parts because they behave differently in time: the unit is
*occupied* for the bandwidth part and can issue its next transfer right after, while the
data *lands* a fixed latency later (so several transfers of one unit overlap).
"""

from __future__ import annotations

from spyre_sched.device.routing import Hop


def hop_timing(hop: Hop, nbytes: int) -> tuple[int, int]:
    """(occupancy, latency) of one transfer of `nbytes` over `hop`."""
    return hop.occupancy(nbytes), hop.latency


def compute_cycles(elements: int, lanes: int) -> int:
    """Cycles a vector unit is occupied by `elements` elements: one vector of `lanes`
    elements per cycle (its fixed latency is added when the result becomes visible)."""
    return -(-elements // lanes)


def matrix_cycles(rows: int, cols: int, depth: int, array_rows: int, array_cols: int,
                  macs: int) -> int:
    """Cycles a matrix unit is occupied by a rows x depth times depth x cols product: the
    output is covered in ceil(rows / array_rows) * ceil(cols / array_cols) passes of the
    array, each streaming the depth-long operands through at `macs` multiply-accumulates
    per cycle over the whole array (its latency is added when the result is visible)."""
    passes = -(-rows // array_rows) * -(-cols // array_cols)
    return passes * -(-(depth * array_rows * array_cols) // macs)
