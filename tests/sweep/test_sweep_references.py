"""A sweep's worker runs the reference interpreter once per kernel and device definitions,
not once per job: the jobs of one kernel on device points that differ only in figures the
reference never reads reuse its run, and the rows are those of a sweep that reuses none."""

from __future__ import annotations

from pathlib import Path

from spyre_sched.device import load_device
from spyre_sched.sweep import job as sweep_job
from spyre_sched.sweep.job import TIMING_FIELDS, SweepJob, _reference_key
from spyre_sched.sweep.run import run_sweep

ROOT = Path(__file__).parents[2]

SWEEP = """\
[kernels]
suite = "quick"
only = ["row_sum"]

[parameters]
"lx.size" = ["256KiB", "1MiB"]
"ddr.bandwidth" = [75, 150]

[run]
strategies = ["heuristic"]
"""


def _same(rows):
    return [{k: v for k, v in r.items() if k not in TIMING_FIELDS} for r in rows]


def test_jobs_reuse_the_reference_only_where_it_is_the_same(tmp_path, monkeypatch):
    sweep = tmp_path / "s.toml"
    sweep.write_text(SWEEP)
    monkeypatch.setattr(sweep_job, "_REFERENCES", type(sweep_job._REFERENCES)())
    monkeypatch.setattr(sweep_job, "_REFERENCES_KEPT", 0)
    fresh = run_sweep(str(sweep), str(tmp_path / "fresh"), jobs=1, progress=False)
    assert not any(r["timings"]["reference"].get("reused") for r in fresh.rows)
    monkeypatch.setattr(sweep_job, "_REFERENCES_KEPT", 2)
    reused = run_sweep(str(sweep), str(tmp_path / "reused"), jobs=1, progress=False)
    assert [(r["lx.size"], r["ddr.bandwidth"]) for r in reused.rows] == \
        [(262144, 75), (262144, 150), (1048576, 75), (1048576, 150)]
    assert all(r["status"] == "ok" and r["verdict"] == "MATCH" for r in reused.rows)
    # another bandwidth: the same reference; another scratchpad size: run again
    assert [bool(r["timings"]["reference"].get("reused")) for r in reused.rows] == \
        [False, True, False, True]
    assert _same(fresh.rows) == _same(reused.rows)


def test_the_key_holds_what_the_reference_reads_of_the_device(tmp_path):
    text = (ROOT / "devices/spyre.mlir").read_text()
    kernel = (ROOT / "examples/row_sum.mlir").read_text()
    job = SweepJob("k/d/heuristic/latency", "row_sum", "row_sum.mlir", kernel, "d", text, (),
                   "heuristic", "latency")

    def key(device_text: str, name: str, **changed) -> tuple:
        path = tmp_path / f"{name}.mlir"
        path.write_text(device_text)
        fields = {"kernel_text": kernel, "seed": 0, **changed}
        return _reference_key(SweepJob(**{**vars(job), **fields}), load_device(path))

    base = key(text, "base")
    faster = text.replace("bandwidth = 150, latency = 300", "bandwidth = 300, latency = 300")
    smaller = text.replace('{kind = "LX", size = 2097152}', '{kind = "LX", size = 1048576}')
    assert faster != text and smaller != text
    assert key(faster, "faster") == base
    assert key(smaller, "smaller") != base
    assert key(text.replace('["pre_mapping"]', '["post_lowering"]'), "no_silu") != base
    assert key(text, "seed", seed=1) != base
    assert key(text, "other_kernel", kernel_text=kernel + "\n") != base
