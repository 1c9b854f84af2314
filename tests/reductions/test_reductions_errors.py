"""What chunk-reductions refuses: a located error through the CLI (exit 1), never a crash
or a schedule that cannot fit."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

import reduction_kernels as kernels
from spyre_sched.cli import main

THREE_LEVEL = Path(__file__).resolve().parents[1] / "schedule" / "devices" / "three_level.mlir"


def test_a_reduction_held_whole_by_two_scratchpad_levels_is_refused(tmp_path: Path) -> None:
    """On the three-level test device (L2 1 MiB per core, L1 16 KiB per corelet), 2 rows of
    4M f16 need chunking at L2 while L1 also holds the whole row: not supported yet."""
    kernel = tmp_path / "row_sum.mlir"
    kernel.write_text(kernels.row_sum(2, 4194304, 2))
    result = CliRunner().invoke(main, ["compile", str(kernel), "--device", str(THREE_LEVEL),
                                       "--emit", "ktdf"])
    assert result.exit_code == 1, result.output
    assert "pass chunk-reductions" in result.output
    assert "not supported yet: chunking a reduction held whole by more than one scratchpad " \
           "level" in result.output


def test_a_row_that_fits_compiles_unchanged_on_three_levels(tmp_path: Path) -> None:
    kernel = tmp_path / "row_sum.mlir"
    kernel.write_text(kernels.row_sum(2, 2048, 2))
    result = CliRunner().invoke(main, ["compile", str(kernel), "--device", str(THREE_LEVEL),
                                       "--emit", "ktdf"])
    assert result.exit_code == 0, result.output
    assert "tile.l2.d1" not in result.output and "tile.l1.d1" not in result.output


def test_chunked_bundle_is_deterministic_and_passes_the_bundle_checks(tmp_path: Path) -> None:
    """Two compilations of a chunked reduction give byte-identical bundles, which round
    trip through the parser and carry consistent symbols, job plan and schedule."""
    import sys

    from spyre_sched.api import compile as compile_kernel
    from spyre_sched.lower.bundle import write_bundle

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lower"))
    try:
        from lower_bundle_checks import check_bundle
    finally:
        sys.path.pop(0)
    kernel = tmp_path / "row_sum.mlir"
    kernel.write_text(kernels.row_sum(2, 16448, 2))
    small_lx = str(Path(__file__).resolve().parent / "devices" / "small_lx.mlir")
    bundles = []
    for k in range(2):
        schedule = compile_kernel(str(kernel), device=small_lx)
        assert "p0.tile.lx.d1" in schedule.values
        out = write_bundle(schedule, tmp_path / f"bundle{k}")
        check_bundle(out)
        bundles.append({p.name: p.read_bytes() for p in sorted(out.iterdir())})
    assert bundles[0] == bundles[1]
