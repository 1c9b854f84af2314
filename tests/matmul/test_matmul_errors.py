"""A matmul whose smallest legal tiles do not fit the scratchpad: a located error naming
the pass and the buffers that need the room, exit 1, no bundle written."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from spyre_sched.cli import main

ROOT = Path(__file__).parents[2]


def test_matmul_whose_smallest_tiles_do_not_fit(tmp_path) -> None:
    # spyre with a 2 KiB scratchpad: B alone (32x32 f16, read whole by each row block)
    # and the f32 accumulator tile need more at their smallest.
    device = tmp_path / "tiny_lx.mlir"
    device.write_text((ROOT / "devices" / "spyre.mlir").read_text()
                      .replace('size = 2097152}', 'size = 2048}')
                      .replace("ktdf_arch.device @spyre", "ktdf_arch.device @tiny_lx"))
    out = tmp_path / "bundle"
    kernel = Path(__file__).parent / "kernels" / "mixed_precision.mlir"
    result = CliRunner().invoke(main, ["compile", str(kernel), "--device", str(device),
                                       "-o", str(out)])
    assert result.exit_code == 1, result.output
    assert "in pass footprints: error:" in result.output
    assert "even with the smallest tiles" in result.output
    assert "but a core has 2048 (largest: " in result.output
    assert "Traceback" not in result.output
    assert not out.exists()
