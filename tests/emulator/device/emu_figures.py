"""What two emulated launches of one bundle must share to count as the same run: outputs
(bytes), cycles, per-program and per-unit figures, datapath bytes, and the trace if any."""

from __future__ import annotations

from pathlib import Path

import numpy as np


def launch_figures(result, trace: Path | None = None) -> dict:
    figures = {
        "outputs": {k: np.ascontiguousarray(v).view(np.uint8).tobytes()
                    for k, v in sorted(result.outputs.items())},
        "cycles": result.cycles,
        "per_program": result.per_program,
        "units": {k: vars(v) if hasattr(v, "__dict__") else v for k, v in result.units.items()},
        "datapath_bytes": result.datapath_bytes,
    }
    if trace is not None:
        figures["trace"] = trace.read_bytes()
    return figures
