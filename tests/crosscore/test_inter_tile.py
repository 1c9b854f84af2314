"""Inter-tile communication through the pipeline: `lower-inter-tile` turns produce /
consume / reduce into pinned scratchpad stores and reads of the producers' scratchpads
(its IR test: tests/normalize/passes/00a_lower_inter_tile.mlir). The examples run through
`run` in the differential gate (tests/test_every_kernel_runs.py); here the reference's
results are checked against numpy, a deadlock that can be proven is refused before
anything is written, and exchanges this version does not schedule are refused at the op."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from click.testing import CliRunner

import emulator.reference as reference
from spyre_sched.cli import main

ROOT = Path(__file__).resolve().parents[2]
KERNELS = ROOT / "tests" / "emulator" / "kernels"


def _f32(a):
    return np.asarray(a, dtype=np.float32)


def test_sharded_rmsnorm_is_rmsnorm():
    rng = np.random.default_rng(0)
    x = rng.uniform(-2, 2, (8, 256)).astype(np.float16)
    w = rng.uniform(-2, 2, 256).astype(np.float16)
    out = reference.run(str(ROOT / "examples" / "sharded_rmsnorm_4core.mlir"), {"X": x, "W": w})
    ms = (_f32(x) ** 2).sum(axis=1, dtype=np.float64) / 256
    expected = _f32(x) / np.sqrt(ms + 1e-5)[:, None] * _f32(w)
    np.testing.assert_allclose(_f32(out["Y"]), expected, rtol=2e-3, atol=2e-3)


def test_splitk_matmul_is_the_whole_product():
    rng = np.random.default_rng(1)
    a = rng.uniform(-2, 2, (16, 256)).astype(np.float16)
    b = rng.uniform(-2, 2, (256, 64)).astype(np.float16)
    out = reference.run(str(ROOT / "examples" / "splitk_matmul.mlir"), {"A": a, "B": b})
    np.testing.assert_allclose(out["C"], _f32(a) @ _f32(b), rtol=1e-5, atol=1e-4)


def test_allreduce_rounds_carried_in_a_loop_add_up():
    """An all-reduce in each round of an `scf.for`, added to a value the loop carries:
    compiled (the accumulator carried in a scratchpad slot), emulated, and equal to numpy
    as well as to the reference."""
    import spyre_sched

    x = np.random.default_rng(2).uniform(-2, 2, (12, 64)).astype(np.float32)
    result = spyre_sched.run(str(ROOT / "tests" / "crosscore" / "kernels" /
                                 "allreduce_rounds.mlir"), {"X": x}, device="spyre")
    assert result.matches, result.mismatches
    np.testing.assert_allclose(result.outputs["Y"][0], x.astype(np.float64).sum(axis=0),
                               rtol=1e-5, atol=1e-5)


def test_a_consume_waiting_for_a_partial_never_produced_is_a_deadlock(tmp_path):
    out = tmp_path / "bundle"
    kernel = KERNELS / "deadlock.mlir"
    result = CliRunner().invoke(main, ["compile", str(kernel), "-o", str(out)])
    assert result.exit_code == 1, result.output
    line = kernel.read_text()[:kernel.read_text().index("ktdp.inter_tile_consume")].count("\n") + 1
    assert f"{kernel}:{line}:" in result.output
    assert ("deadlock: tile 1 runs ktdp.inter_tile_consume 2 times but tile 0 produces its "
            "partial of group 0 1 time(s): tile 1 waits forever in execution 2") in result.output
    assert "Traceback" not in result.output and not out.exists()


def test_a_produce_body_using_its_group_id_over_several_groups_is_refused(tmp_path):
    # pair_groups (two groups) runs as written (the gate); its body made to use %g is not
    # scheduled: a tile's one slot would need a partial per group
    text = (KERNELS / "pair_groups.mlir").read_text()
    assert "^bb0(%g: index):\n" in text
    kernel = tmp_path / "group_id.mlir"
    assert "ktdp.yield_partial %x : tensor<1x64xf16>" in text
    kernel.write_text(text.replace("ktdp.yield_partial %x : tensor<1x64xf16>", """\
%gi = arith.index_cast %g : index to i32
    %gf = arith.sitofp %gi : i32 to f16
    %ge = tensor.empty() : tensor<1x64xf16>
    %gv = linalg.fill ins(%gf : f16) outs(%ge : tensor<1x64xf16>) -> tensor<1x64xf16>
    ktdp.yield_partial %gv : tensor<1x64xf16>"""))
    out = tmp_path / "bundle"
    result = CliRunner().invoke(main, ["compile", str(kernel), "-o", str(out)])
    assert result.exit_code == 1, result.output
    assert "not supported yet: a produce body that uses its group id, over several groups" \
        in result.output
    assert f"{kernel}:" in result.output and "Traceback" not in result.output
    assert not out.exists()


def test_a_group_without_producers_is_a_deadlock(tmp_path):
    # the broadcast's producer set names tile 7 of a 4-tile grid: every consumer waits
    text = (KERNELS / "broadcast.mlir").read_text()
    assert "(i - 2 == 0, g == 0)" in text
    kernel = tmp_path / "nobody.mlir"
    kernel.write_text(text.replace("(i - 2 == 0, g == 0)", "(i - 7 == 0, g == 0)"))
    result = CliRunner().invoke(main, ["compile", str(kernel), "--emit", "ktdf"])
    assert result.exit_code == 1, result.output
    assert ("deadlock: tile(s) 0, 1, 2, 3 wait in ktdp.inter_tile_consume for a partial of "
            "group 0 that no tile produces") in result.output


def test_a_scratchpad_read_ordered_only_by_program_order_is_reported():
    kernel = ROOT / "tests" / "crosscore" / "kernels" / "unsynchronised_scratchpad.mlir"
    result = CliRunner().invoke(main, ["check", str(kernel)])
    line = kernel.read_text()[:kernel.read_text().index("ktdp.store %x, %St")].count("\n") + 1
    assert f"{kernel}:{line}:3: warning: unsynchronised scratchpad read: store through %St " \
        "and load through %Rt: tile 0 writes coordinate [0, 0] in ct_local(core 0), which " \
        "tile 1 reads after it in program order only" in result.output, result.output
    strict = CliRunner().invoke(main, ["check", "--strict", str(kernel)])
    assert strict.exit_code == 1 and "Traceback" not in strict.output
