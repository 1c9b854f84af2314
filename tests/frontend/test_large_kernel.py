"""A generated kernel of thousands of dependent ops parses, verifies and checks: nothing
recurses once per op, and locations stay right at the end of a large file. (Time is
measured by bench/parse_scale.py, never asserted here.)"""

from __future__ import annotations

import sys
from pathlib import Path

from click.testing import CliRunner

from spyre_sched.cli import main
from spyre_sched.frontend import load_kernel

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from parse_scale import generate  # noqa: E402

OPS = 5000


def test_a_long_chain_of_dependent_ops_is_handled(tmp_path):
    path = tmp_path / "big.mlir"
    text = generate(OPS)
    path.write_text(text)
    kernel = load_kernel(path)
    assert sum(1 for _ in kernel.module.walk()) == OPS + 2   # + builtin.module, func.func
    store = next(op for op in kernel.func.walk() if op.name == "ktdp.store")
    lines = text.splitlines()
    where = kernel.location_of(store)
    assert lines[where.line - 1].strip().startswith("ktdp.store")
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 0, result.output
    # %r = (OPS - 12) mod 96: one row of C is stored, the rest is reported uncovered.
    assert "stores do not cover %Cv" in result.output
