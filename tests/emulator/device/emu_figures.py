"""What two emulated launches of one bundle must share to count as the same run: outputs
(bytes), cycles, per-program and per-unit figures, datapath bytes, and the trace if any."""

from __future__ import annotations

from pathlib import Path

import numpy as np

import spyre_sched


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


def assert_untraced_equals_traced(bundle: Path, tmp_path: Path, seen: dict) -> None:
    """Launch `bundle` traced, then untraced: the shortcuts counted in `seen` (by the
    caller's patches) must not run in the traced launch, and the untraced one must give
    its figures. The caller then checks which shortcuts ran in the untraced one."""
    traced = spyre_sched.run(bundle, seed=7, trace=tmp_path / "trace.json")
    assert not any(seen.values()), f"a shortcut ran in the traced launch: {seen}"
    plain = spyre_sched.run(bundle, seed=7, reference=traced.reference_run)
    assert traced.matches and plain.matches
    want, got = launch_figures(traced), launch_figures(plain)
    for key in want:
        assert got[key] == want[key], f"{key} differs between the traced and the untraced run"
