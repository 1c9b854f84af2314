"""The campaign: deterministic counts, failures grouped, shrunk and written as regression
kernels with the command that shows them; the command line around it."""

from __future__ import annotations

import json

from click.testing import CliRunner

from spyre_sched import cli
from spyre_sched.fuzz import campaign as campaign_module
from spyre_sched.fuzz.campaign import Campaign
from spyre_sched.fuzz.runner import KernelResult, Outcome


def _staged_run_kernel(text, runtime_args, tiles, *, seed=0, timeout=None, only=None,
                       stop_early=False):
    """A pipeline stand-in: kernels that reduce 'mismatch' on spyre's solver, kernels with
    a ct_local intermediate are refused, the rest match."""
    config = "spyre/solver/latency"
    if only is not None and str(only[0]) != config:
        return KernelResult([Outcome("match", str(only[0]))])
    if "linalg.reduce" in text or "reduction" in text:
        return KernelResult([Outcome("mismatch", config, "outputs differ", "%Y: 3 differ")])
    if "ct_local" in text:
        return KernelResult([Outcome("out-of-scope", config, "not supported yet: x")])
    return KernelResult([Outcome("match", config, cycles=10, bound=5)])


def test_failures_are_grouped_shrunk_and_written(tmp_path, monkeypatch):
    monkeypatch.setattr(campaign_module, "run_kernel", _staged_run_kernel)
    run = Campaign(count=30, seed=5, out=tmp_path, without=campaign_module.LAYOUT_FEATURES,
                   shrink_budget=60)
    summary = run.run(progress=False)
    kernels = summary["kernels"]
    assert sum(kernels.values()) == 30 and kernels["mismatch"] > 0 and kernels["match"] > 0
    assert summary["out_of_scope_reasons"] == {"not supported yet: x": kernels["out-of-scope"]}
    [failure] = summary["failures"]  # one signature: one shrunk kernel
    assert failure["status"] == "mismatch" and len(failure["kernels"]) == kernels["mismatch"]
    written = (tmp_path / "mismatch-1.mlir").read_text()
    assert "spyre-sched run" in written and "--device spyre --strategy solver" in written
    assert "linalg.reduce" in written or "reduction" in written  # still fails alike
    assert failure["tape"][1] < failure["tape"][0]
    assert written.count("ktdp.load") <= 2  # shrunk: one program left
    assert json.loads((tmp_path / "summary.json").read_text())["kernels"] == kernels
    again = Campaign(count=30, seed=5, out=tmp_path / "again",
                     without=campaign_module.LAYOUT_FEATURES, shrink_budget=60)
    assert again.run(progress=False)["kernels"] == kernels  # deterministic


def test_the_command_reports_and_exits_1_on_a_failure(tmp_path, monkeypatch):
    monkeypatch.setattr(campaign_module, "run_kernel", _staged_run_kernel)
    result = CliRunner().invoke(cli.main, ["fuzz", "--count", "12", "--seed", "5", "--out",
                                           str(tmp_path), "--shrink-budget", "5"])
    assert result.exit_code == 1, result.output
    assert "kernels:" in result.output and "mismatch" in result.output
    assert "failures (grouped" in result.output
    clean = CliRunner().invoke(cli.main, ["fuzz", "--count", "12", "--seed", "5", "--out",
                                          str(tmp_path / "c"), "--without", "reduce",
                                          "--without", "matmul"])  # no reduction iterator
    assert clean.exit_code == 0, clean.output
    assert "failures: none" in clean.output
    bad = CliRunner().invoke(cli.main, ["fuzz", "--without", "nonsense"])
    assert bad.exit_code == 1 and "nonsense" in bad.output  # a usage error


def test_a_spent_time_budget_skips_the_remaining_kernels(tmp_path, monkeypatch):
    monkeypatch.setattr(campaign_module, "run_kernel", _staged_run_kernel)
    summary = Campaign(count=5, seed=5, out=tmp_path, time_budget=1e-9,
                       shrink_budget=0).run(progress=False)
    assert summary["count"] == 0 and summary["skipped"] == 5
    assert (tmp_path / "kernels.jsonl").read_text() == ""
    summary = Campaign(count=5, seed=5, out=tmp_path, shrink_budget=0).run(progress=False)
    lines = (tmp_path / "kernels.jsonl").read_text().splitlines()
    assert summary["count"] == 5 and len(lines) == 5  # one line per kernel, as it ends
