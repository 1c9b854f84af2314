"""An error about a value that is not a constant names the kernel's scalar arguments it
is computed from, with the `--arg` options that fix them; none for values that come from
a loop counter, from memory or from a run-time argument (a symbol of the launch)."""

from __future__ import annotations

from pathlib import Path

from xdsl.dialects import scf, tensor

from spyre_sched.frontend import load_kernel
from spyre_sched.normalize.common import argument_hint

KERNEL = Path(__file__).resolve().parents[1] / "emulator" / "kernels" / "centered_rows_by_argument.mlir"


def _loops_and_extract(text: str, tmp_path: Path):
    path = tmp_path / "kernel.mlir"
    path.write_text(text)
    func = load_kernel(str(path)).func
    loops = [op for op in func.walk() if isinstance(op, scf.ForOp)]
    extract = next(op for op in func.walk() if isinstance(op, tensor.ExtractOp))
    return loops, extract


def test_a_bound_from_a_scalar_argument_names_it(tmp_path):
    loops, _ = _loops_and_extract(KERNEL.read_text(), tmp_path)
    hint = argument_hint([loops[1].lb, loops[1].ub, loops[1].step])
    assert hint == ("; they depend on the kernel's argument %chunks: `--arg chunks=VALUE` "
                    "fixes it at compile time (`arguments=` in the Python API)")


def test_counters_values_from_memory_and_run_time_arguments_get_no_hint(tmp_path):
    loops, extract = _loops_and_extract(KERNEL.read_text(), tmp_path)
    counter = loops[1].body.block.args[0]
    assert argument_hint([counter]) == ""
    assert argument_hint([extract.result]) == ""  # (read from memory through %X)
    kind = "!ktdp.runtime_arg<index, granularity = 1, upperbound = 4>"
    symbol = KERNEL.read_text().replace("%chunks: index", f"%given: {kind}").replace(
        "%c0 = arith.constant 0 : index",
        f"%chunks = ktdp.runtime_arg_extract value from %given : {kind} -> index\n"
        "    %c0 = arith.constant 0 : index", 1)
    loops, _ = _loops_and_extract(symbol, tmp_path)
    assert argument_hint([loops[1].ub]) == ""
