"""`spyre-sched compile KERNEL -o OUT/`: writes the bundle; byte-identical from two runs;
nothing in OUT/ when compilation fails (an existing bundle stays as it was); a saved
ScheduleIR compiles with --kernel."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from lower_bundle_checks import check_bundle
from spyre_sched.cli import main

ROOT = Path(__file__).resolve().parents[2]
ADD = ROOT / "examples" / "add_96x64.mlir"


def run(*args: str):
    return CliRunner().invoke(main, [str(a) for a in args])


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_compile_writes_a_deterministic_bundle(tmp_path: Path) -> None:
    first = run("compile", ADD, "-o", tmp_path / "one", "--strategy", "heuristic")
    assert first.exit_code == 0, first.output
    assert "wrote bundle" in first.output
    check_bundle(tmp_path / "one")
    assert (tmp_path / "one" / "kernel.mlir").read_bytes() == ADD.read_bytes()
    second = run("compile", ADD, "-o", tmp_path / "two", "--strategy", "heuristic")
    assert second.exit_code == 0, second.output
    assert files(tmp_path / "one") == files(tmp_path / "two")
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporaries left


def test_failed_compile_writes_nothing(tmp_path: Path) -> None:
    bad = tmp_path / "bad.mlir"
    bad.write_text(ADD.read_text().replace("grid = [32]", "grid = [64]"))
    out = tmp_path / "out"
    result = run("compile", bad, "-o", out)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "64" in result.output
    assert not out.exists() and not [p for p in tmp_path.iterdir() if p.name.startswith(".")]
    # an existing bundle is left exactly as it was
    assert run("compile", ADD, "-o", out, "--strategy", "heuristic").exit_code == 0
    before = files(out)
    assert run("compile", bad, "-o", out).exit_code == 1
    assert files(out) == before


def test_saved_schedule_ir_needs_the_kernel(tmp_path: Path) -> None:
    solved = run("compile", ADD, "--emit", "solved", "--strategy", "heuristic")
    assert solved.exit_code == 0, solved.output
    path = tmp_path / "add.solved.mlir"
    path.write_text(solved.output)
    missing = run("compile", path, "-o", tmp_path / "b")
    assert missing.exit_code == 1 and "--kernel" in missing.output
    assert not (tmp_path / "b").exists()
    ok = run("compile", path, "-o", tmp_path / "b", "--kernel", ADD, "--strategy", "heuristic")
    assert ok.exit_code == 0, ok.output
    check_bundle(tmp_path / "b")


def test_identical_bytes_across_processes(tmp_path: Path) -> None:
    """Two separate processes with different hash seeds write the same bundle bytes."""
    import os
    import subprocess
    import sys

    kernel = ROOT / "examples" / "bias_add.mlir"
    for seed, name in (("1", "a"), ("2", "b")):
        env = {**os.environ, "PYTHONHASHSEED": seed,
               "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
        done = subprocess.run([sys.executable, "-c", "from spyre_sched.cli import main; main()",
                               "compile", str(kernel), "-o", str(tmp_path / name)],
                              env=env, capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
    assert files(tmp_path / "a") == files(tmp_path / "b")
