"""Bad sweep files and output folders: a located error, exit 1, nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from spyre_sched import cli

GOOD = """\
[kernels]
suite = "quick"
only = ["add"]

[parameters]
"lx.size" = ["256KiB", "1MiB"]

[run]
strategies = ["solver"]
"""


def _sweep(tmp_path, text, *extra):
    sweep = tmp_path / "s.toml"
    sweep.write_text(text)
    out = tmp_path / "out"
    result = CliRunner().invoke(cli.main, ["sweep", str(sweep), "-o", str(out), *extra])
    return result, sweep, out


@pytest.mark.parametrize("text, line, col, message", [
    ('[kernels]\nsuite = "quick"\n[run]\nseed = = 3\n', 4, 8, "not a valid TOML sweep file"),
    ('[kernels]\nsuite = "quick"\n[runs]\nseed = 3\n', 3, 1, "unknown table [runs]"),
    ('[kernels]\nsuite = "quick"\n[run]\n  stratgies = ["solver"]\n', 4, 3,
     "unknown key 'stratgies' in [run]"),
    ('[kernels]\nsuite = "quick"\n[run]\nstrategies = ["greedy"]\n', 4, 1,
     "[run] strategies: unknown 'greedy'"),
    ('[kernels]\nsuite = "slow"\n', 2, 1, "[kernels] suite: expected \"full\" or \"quick\""),
    ('[kernels]\nsuite = "quick"\nonly = ["addd"]\n', 3, 1, "no suite kernel named addd"),
    ('[kernels]\nfiles = ["missing.mlir"]\n', 2, 1, "[kernels] files: no kernel file missing.mlir"),
    ('[device]\nbase = "spyre"\n', 1, 1, "the sweep names no kernels"),
    ('[kernels]\nsuite = "quick"\n[parameters]\n"lx.size" = []\n', 4, 1,
     "parameter 'lx.size': the list of values is empty"),
    ('[kernels]\nsuite = "quick"\n[parameters]\n"lx.size" = { from = 4, to = 2 }\n', 4, 1,
     "parameter 'lx.size': the range ends (2) below its start (4)"),
    ('[kernels]\nsuite = "quick"\n[parameters]\n"lx.size" = ["big"]\n', 4, 1,
     "parameter 'lx.size': expected a positive size"),
    ('[kernels]\nsuite = "quick"\n[parameters]\n"ddr.bandwidth" = 1\n"lx.sise" = [1]\n', 5, 1,
     "parameter 'lx.sise': lx has no 'sise' (it has kind, size)"),
    ('[kernels]\nsuite = "quick"\n[parameters]\n"ddr.bandwidth" = [150]\n"core.count" = [2, 0]\n',
     5, 1, "device point d01 (ddr.bandwidth = 150, core.count = 0) is not a valid device: "
     "count of group core must be at least 1, got 0"),
])
def test_a_bad_sweep_file_is_a_located_error(tmp_path, text, line, col, message):
    result, sweep, out = _sweep(tmp_path, text)
    assert result.exit_code == 1, result.output
    assert f"{sweep}:{line}:{col}: error: {message}" in result.output.replace("\n", " ")
    assert "Traceback" not in result.output
    assert not out.exists()


def test_a_missing_sweep_file_is_an_error(tmp_path):
    result = CliRunner().invoke(cli.main, ["sweep", str(tmp_path / "no.toml"), "-o",
                                           str(tmp_path / "out")])
    assert result.exit_code == 1
    assert "sweep file not found" in result.output


def test_a_folder_spyre_sched_did_not_write_is_left_alone(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    result, _, _ = _sweep(tmp_path, GOOD)
    assert result.exit_code == 1
    assert "is not empty and is not a sweep folder" in result.output
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]


def test_a_file_beside_a_sweep_is_not_touched(tmp_path):
    out = tmp_path / "out"
    (out / "devices").mkdir(parents=True)
    (out / "sweep.json").write_text('{"format": "spyre-sched.sweep/1", "sweep": {}}')
    (out / "devices" / "mine.txt").write_text("mine")
    result, _, _ = _sweep(tmp_path, GOOD, "--resume")
    assert result.exit_code == 1
    assert "also holds devices/mine.txt" in result.output
    assert (out / "sweep.json").read_text() == '{"format": "spyre-sched.sweep/1", "sweep": {}}'


def test_another_sweeps_folder_is_not_resumed(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "sweep.json").write_text('{"format": "spyre-sched.sweep/1", "sweep": {"seed": 1}}')
    result, _, _ = _sweep(tmp_path, GOOD, "--resume")
    assert result.exit_code == 1
    assert "holds another sweep" in result.output
    result, _, _ = _sweep(tmp_path, GOOD)
    assert result.exit_code == 1
    assert "already holds a sweep: continue it with --resume" in result.output


def test_address_without_ray_backend_is_an_error(tmp_path):
    result, _, out = _sweep(tmp_path, GOOD, "--address", "auto")
    assert result.exit_code == 1
    assert "--address names a Ray cluster: it needs --backend ray" in result.output
    assert not out.exists()


def test_plot_without_matplotlib_says_how_to_get_it_before_any_job(tmp_path, monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name == "matplotlib" or name.startswith("matplotlib."):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    result, _, out = _sweep(tmp_path, GOOD, "--plot")
    assert result.exit_code == 1
    assert "--plot needs matplotlib, an optional extra" in result.output
    assert not out.exists()


@pytest.mark.parametrize("path", sorted((Path(__file__).resolve().parents[2] / "examples"
                                         / "sweeps").glob("*.toml")), ids=lambda p: p.name)
def test_the_example_sweeps_read_and_make_valid_device_points(path):
    # (without running them: the full-size one takes minutes)
    from spyre_sched.sweep.plan import device_points, jobs
    from spyre_sched.sweep.spec import read_sweep

    spec = read_sweep(path)
    points = device_points(spec)
    assert len(points) == 12 and spec.strategies == ("solver", "heuristic")
    assert len(spec.kernels) == 11  # the suite
    assert len(jobs(spec, points)) == 12 * 2 * len(spec.kernels)
    assert all(Path(k).exists() for k in spec.kernels)
