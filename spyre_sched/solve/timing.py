"""Transfer timing: the device model's one formula, `ceil(bytes / bandwidth) + latency`.

TO BE REPLACED: issue 8 moves this formula into `spyre_sched.device.model`
(`occupancy_cycles`, `transfer_cycles`, same names and arguments). Until that lands on
this branch, this is the single local copy the cost model calls; when it lands, this file
becomes `from spyre_sched.device.model import occupancy_cycles, transfer_cycles`.
"""

from __future__ import annotations

from spyre_sched.errors import DeviceError

try:  # the device model's own function, once issue 8 is merged
    from spyre_sched.device.model import occupancy_cycles, transfer_cycles  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on which branch is merged

    def occupancy_cycles(nbytes: int, bandwidth: int) -> int:
        """Cycles a transfer of `nbytes` keeps a path busy at `bandwidth` bytes per cycle."""
        if nbytes < 0:
            raise DeviceError(f"a transfer moves a non-negative number of bytes, not {nbytes}")
        return -(-nbytes // bandwidth)

    def transfer_cycles(nbytes: int, bandwidth: int, latency: int) -> int:
        """Cycles from the first byte leaving to the last byte landing."""
        return occupancy_cycles(nbytes, bandwidth) + latency


__all__ = ["occupancy_cycles", "transfer_cycles"]
