"""A tiny sweep end to end: 2 quick kernels x 2 scratchpad sizes with the heuristic, one
row per job (a schedule that does not fit is a row with its reason), rows kept as jobs end,
and --resume after an interruption running only what was missing."""

from __future__ import annotations

import csv
import json

import pytest
from click.testing import CliRunner

from spyre_sched import cli
from spyre_sched.sweep import run as sweep_run
from spyre_sched.sweep.job import TIMING_FIELDS
from spyre_sched.sweep.run import run_sweep
from tests.interrupted_process import interrupt

SWEEP = """\
[kernels]
suite = "quick"
only = [{only}]

[parameters]
"lx.size" = [512, "2KiB"]

[run]
strategies = ["heuristic"]
"""


def _same(row: dict) -> dict:
    """A row without its wall-clock figures (the only fields two runs may differ in)."""
    return {k: v for k, v in row.items() if k not in TIMING_FIELDS}


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    folder = tmp_path_factory.mktemp("sweep")
    sweep = folder / "s.toml"
    sweep.write_text(SWEEP.format(only='"add", "bias_add"'))
    outcome = run_sweep(str(sweep), str(folder / "out"), jobs=1, progress=False)
    return folder, outcome


def test_one_row_per_job_with_the_parameters(swept):
    folder, outcome = swept
    rows = outcome.rows
    assert [r["key"] for r in rows] == ["add/d00/heuristic/latency", "add/d01/heuristic/latency",
                                        "bias_add/d00/heuristic/latency",
                                        "bias_add/d01/heuristic/latency"]
    assert [r["lx.size"] for r in rows] == [512, 2048, 512, 2048]
    assert [r["device_scratchpad_bytes"] for r in rows] == [512, 2048, 512, 2048]
    fits = rows[1]
    assert fits["status"] == "ok" and fits["verdict"] == "MATCH" and fits["correct"]
    assert fits["cycles"] >= fits["bound_cycles"] > 0
    assert fits["ratio_to_bound"] == fits["cycles"] / fits["bound_cycles"]
    tight = rows[0]
    assert tight["status"] == "infeasible"
    assert "does not fit" in tight["reason"] and "has 512 B" in tight["reason"]
    assert tight["cycles"] is None


def test_csv_json_and_summary_say_the_same(swept):
    folder, outcome = swept
    out = folder / "out"
    with open(out / "rows.csv") as f:
        table = list(csv.DictReader(f))
    assert [r["key"] if "key" in r else f"{r['kernel']}/{r['device']}" for r in table] == \
        [f"{r['kernel']}/{r['device']}" for r in outcome.rows]
    assert list(table[0])[:6] == ["kernel", "file", "device", "lx.size", "strategy", "objective"]
    assert [r["status"] for r in table] == [r["status"] for r in outcome.rows]
    assert table[1]["cycles"] == str(outcome.rows[1]["cycles"])
    lines = (out / "rows.jsonl").read_text().splitlines()
    assert sorted(json.loads(line)["key"] for line in lines) == sorted(r["key"] for r in outcome.rows)
    summary = (out / "summary.txt").read_text()
    assert "4 jobs:" in summary and "infeasible" in summary
    assert "cost model, predicted against emulated cycles" in summary
    assert sorted(p.name for p in (out / "devices").iterdir()) == ["d00.mlir", "d01.mlir"]
    header = json.loads((out / "sweep.json").read_text())
    assert header["devices"] == {"d00": {"lx.size": 512}, "d01": {"lx.size": 2048}}


def test_resume_after_an_interruption_loses_nothing(swept, tmp_path, monkeypatch):
    _, first = swept
    sweep = tmp_path / "s.toml"
    sweep.write_text(SWEEP.format(only='"add"'))
    out = tmp_path / "out"
    real = sweep_run.run_job
    calls = []

    def killed_on_the_second_job(job):
        calls.append(job.key)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(job)

    monkeypatch.setattr(sweep_run, "run_job", killed_on_the_second_job)
    with pytest.raises(KeyboardInterrupt):
        run_sweep(str(sweep), str(out), jobs=1, progress=False)
    monkeypatch.setattr(sweep_run, "run_job", real)
    kept = (out / "rows.jsonl").read_bytes()
    assert kept.count(b"\n") == 1  # the finished job's row is on disk
    with open(out / "rows.jsonl", "ab") as f:
        f.write(b'{"kernel": "add", "key": "add/d01/heur')  # a row torn by a kill

    result = CliRunner().invoke(cli.main, ["sweep", str(sweep), "-o", str(out)])
    assert result.exit_code == 1, result.output  # not resumed: the folder holds a sweep
    result = CliRunner().invoke(cli.main, ["sweep", str(sweep), "-o", str(out), "--resume",
                                           "--jobs", "1"])
    assert result.exit_code == 0, result.output
    assert "resumed: 1 jobs were done already, 1 ran now" in result.output
    lines = (out / "rows.jsonl").read_text().splitlines()
    rows = [json.loads(line) for line in lines]
    assert [r["key"] for r in rows] == ["add/d00/heuristic/latency", "add/d01/heuristic/latency"]
    assert [_same(r) for r in rows] == [_same(r) for r in first.rows[:2]]


def _one_job(tmp_path, timeout=600):
    from spyre_sched.sweep.plan import device_points, jobs
    from spyre_sched.sweep.spec import read_sweep

    sweep = tmp_path / "s.toml"
    sweep.write_text(SWEEP.format(only='"add"').replace('[512, "2KiB"]', '["2KiB"]')
                     + f"timeout = {timeout}\n")
    spec = read_sweep(sweep)
    return jobs(spec, device_points(spec))[0]


def test_a_job_past_its_time_limit_is_a_timeout_row(tmp_path):
    from spyre_sched.sweep.job import run_job

    row = run_job(_one_job(tmp_path, timeout=0.05))
    assert row["status"] == "timeout"
    assert row["reason"] == "the job passed its time limit of 0.05 s"
    assert row["cycles"] is None and row["lx.size"] == 2048


def test_a_time_limit_that_a_library_callback_turns_into_its_own_error_is_a_timeout(
        tmp_path, monkeypatch):
    # islpy runs Python callbacks that drop the alarm's exception and then fail their own
    # way: the row must still name the time limit, not report a crash
    import time

    from spyre_sched.sweep.job import run_job

    def swallowing(*args, **kwargs):
        while True:
            try:
                time.sleep(0.01)
            except BaseException:
                raise RuntimeError("the callback failed") from None

    monkeypatch.setattr("spyre_sched.bench.measure.measure_strategy", swallowing)
    row = run_job(_one_job(tmp_path, timeout=0.05))
    assert row["status"] == "timeout"
    assert row["reason"] == "the job passed its time limit of 0.05 s"


def test_a_time_limit_whose_alarm_a_callback_drops_is_a_timeout_row_without_figures(
        tmp_path, monkeypatch):
    # a garbage-collector hook (hypothesis installs one) can drop the alarm's exception and
    # the job then finishes: the row is a timeout, and what was measured after the limit
    # is not in it
    import time

    from spyre_sched.sweep.job import run_job

    import dataclasses

    job = _one_job(tmp_path)
    assert run_job(job)["status"] == "ok"  # warm: the imports are done before the limit
    # the limit leaves the job's set-up (0.07 s warm, several times that on a loaded
    # machine) well inside it, so the alarm lands during the measurement
    job = dataclasses.replace(job, timeout=3.0)
    dropped = []

    def dropping_then_measuring(*args, **kwargs):
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not dropped:
            try:
                time.sleep(0.01)
            except BaseException:
                dropped.append(True)  # dropped, as a gc callback would
        return {"cycles": 123, "correct": True, "verdict": "MATCH"}, None

    monkeypatch.setattr("spyre_sched.bench.measure.measure_strategy", dropping_then_measuring)
    row = run_job(job)
    assert dropped, "the alarm landed before the measurement: the test tested nothing"
    assert row["status"] == "timeout"
    assert row["reason"] == "the job passed its time limit of 3 s"
    assert row["cycles"] is None and row["correct"] is None and row["lx.size"] == 2048
    assert row["bound_cycles"] is not None  # found before the limit: kept


def test_a_bug_in_a_job_is_a_crash_row_not_a_lost_sweep(tmp_path, monkeypatch):
    from spyre_sched.sweep.job import run_job

    def broken(*args, **kwargs):
        raise KeyError("oops")

    monkeypatch.setattr("spyre_sched.bench.measure.measure_strategy", broken)
    row = run_job(_one_job(tmp_path))
    assert row["status"] == "crash"
    assert row["reason"] == "KeyError: 'oops'"


def test_a_sweep_interrupted_by_ctrl_c_says_how_to_resume_and_loses_nothing(tmp_path):
    """Ctrl-C at a terminal (SIGINT to the whole process group) while the pool runs: the
    sweep stops at once, says how many rows it kept and how to go on, exit 130; --resume
    then runs exactly the jobs whose rows are missing."""
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    sweep = tmp_path / "s.toml"
    sweep.write_text(SWEEP.format(only='"add", "softmax"')
                     .replace('[512, "2KiB"]', '["256KiB", "1MiB", "2MiB"]'))
    out = tmp_path / "out"
    repo = Path(__file__).resolve().parents[2]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        p for p in [str(repo), os.environ.get("PYTHONPATH", "")] if p))
    proc = subprocess.Popen(
        [sys.executable, "-c", "import signal; signal.signal(signal.SIGINT, "
         "signal.default_int_handler); from spyre_sched.cli import main; main()",
         "sweep", str(sweep), "-o", str(out), "--jobs", "2"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True)
    rows = out / "rows.jsonl"
    deadline = time.monotonic() + 600  # a hang guard, not a speed figure
    while proc.poll() is None and time.monotonic() < deadline and \
            not (rows.exists() and rows.read_bytes().count(b"\n")):
        time.sleep(0.05)
    assert proc.poll() is None, "the sweep ended before it could be interrupted"
    err = interrupt(proc, signal.SIGINT, whole_group=True, timeout=120)
    kept = rows.read_bytes().count(b"\n")
    assert 1 <= kept < 6
    assert (f"sweep interrupted: the rows of {kept} of 6 jobs are in {out / 'rows.jsonl'}; "
            "the same command with --resume runs the rest") in err

    result = CliRunner().invoke(cli.main, ["sweep", str(sweep), "-o", str(out), "--resume",
                                           "--jobs", "1"])
    assert result.exit_code == 0, result.output
    assert f"resumed: {kept} jobs were done already, {6 - kept} ran now" in result.output
    keys = [json.loads(line)["key"] for line in rows.read_text().splitlines()]
    assert sorted(keys) == sorted(set(keys)) and len(keys) == 6
