"""`linalg.batch_matmul`: the reference runs it as numpy does, the normal form makes one
matmul per batch index that the matrix unit runs (examples/batch_matmul.mlir is in the
differential gate; its pass test is tests/normalize/passes/00c_batch_matmul_to_matmuls.mlir),
and a spelling the pass does not take is a located error."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from click.testing import CliRunner

import emulator.reference as reference
import spyre_sched
from spyre_sched.cli import main

ROOT = Path(__file__).parents[2]
EXAMPLE = ROOT / "examples" / "batch_matmul.mlir"


def test_reference_batch_matmul_is_numpys():
    rng = np.random.default_rng(3)
    a = rng.uniform(-2, 2, (4, 32, 64)).astype(np.float16)
    b = rng.uniform(-2, 2, (4, 64, 64)).astype(np.float16)
    out = reference.run(str(EXAMPLE), {"A": a, "B": b})
    expected = np.matmul(a.astype(np.float32), b.astype(np.float32))
    np.testing.assert_allclose(out["C"], expected, rtol=1e-5, atol=1e-4)


def test_batch_matmul_runs_on_the_matrix_unit():
    result = spyre_sched.run(EXAMPLE, device="spyre")
    assert result.matches, result.mismatches
    assert any(".pt" in unit for unit in result.units)


def test_batch_matmul_of_computed_operands_is_refused(tmp_path):
    text = EXAMPLE.read_text()
    old = "  %c = linalg.batch_matmul ins(%a, %b :"
    assert old in text
    kernel = tmp_path / "computed.mlir"
    kernel.write_text(text.replace(old, """\
  %e2 = tensor.empty() : tensor<1x32x64xf16>
  %a2 = linalg.add ins(%a, %a : tensor<1x32x64xf16>, tensor<1x32x64xf16>) outs(%e2 : tensor<1x32x64xf16>) -> tensor<1x32x64xf16>
  %c = linalg.batch_matmul ins(%a2, %b :"""))
    out = tmp_path / "bundle"
    result = CliRunner().invoke(main, ["compile", str(kernel), "-o", str(out)])
    assert result.exit_code == 1, result.output
    line = kernel.read_text()[:kernel.read_text().index("%c = linalg.batch_matmul")].count("\n") + 1
    assert f"{kernel}:{line}:" in result.output
    assert "not supported yet: a linalg.batch_matmul whose operands are not loaded tiles" \
        in result.output
    assert "Traceback" not in result.output and not out.exists()
