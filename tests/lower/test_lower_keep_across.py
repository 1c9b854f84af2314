"""A region kept across programs, end to end (softmax_rows: X kept from program 0 to
program 1): the bundle passes the bundle checks, places the region inside the pinned
bytes of exactly the programs it spans, program 1 issues no DMA, the emulated outputs
equal the reference on spyre and on sample_device, and the emulator holds a program to
its own pinned rows (a program that reads the region without it declared faults)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import spyre_sched
from lower_bundle_checks import check_bundle
from spyre_sched.api import compile as compile_kernel
from spyre_sched.errors import SpyreSchedError
from spyre_sched.lower.bundle import write_bundle

ROOT = Path(__file__).resolve().parents[2]
SOFTMAX = ROOT / "examples" / "softmax_rows.mlir"


@pytest.fixture(scope="module")
def bundle(tmp_path_factory) -> Path:
    schedule = compile_kernel(str(SOFTMAX), device="spyre")
    assert schedule.decisions[0]["keep"] == {"p0.keep.X": 1}
    out = write_bundle(schedule, tmp_path_factory.mktemp("softmax") / "bundle")
    check_bundle(out)
    return out


def test_region_is_pinned_in_the_programs_it_spans(bundle: Path) -> None:
    schedule = json.loads((bundle / "schedule.json").read_text())
    pinned = {row["program"]: row for row in schedule["pinned"]}
    for name in ("local_schedule_0", "local_schedule_1"):
        assert pinned[name]["bytes"] == 3456
        assert "p0.keep.X at bytes [2432, 3456)" in pinned[name]["what"]
    assert pinned["local_schedule_2"]["bytes"] == 2312
    assert "keep" not in pinned["local_schedule_2"]["what"]
    # no buffer of programs 0 and 1 takes the region's bytes
    for b in schedule["buffers"]:
        if b["program"] != "local_schedule_2":
            assert b["offset"] >= 3456
    # program 1 reads X from the region: it has no DMA engine work at all
    assert "dma" not in (bundle / "local_schedule_1.mlir").read_text()


def test_kept_bundle_matches_the_reference(bundle: Path) -> None:
    result = spyre_sched.run(str(bundle), seed=1)
    assert result.matches, result.mismatches


def test_emulator_faults_when_a_program_reads_a_region_it_does_not_hold(bundle: Path,
                                                                      tmp_path: Path) -> None:
    broken = tmp_path / "bundle"
    broken.mkdir()
    for f in bundle.iterdir():
        (broken / f.name).write_bytes(f.read_bytes())
    schedule = json.loads((broken / "schedule.json").read_text())
    for row in schedule["pinned"]:
        if row["program"] == "local_schedule_1":
            row["bytes"] = 2312  # as if program 1 were outside the region's span
    (broken / "schedule.json").write_text(json.dumps(schedule))
    with pytest.raises(SpyreSchedError, match="not inside one allocated buffer"):
        spyre_sched.run(str(broken))


def test_sample_device_keeps_and_matches(tmp_path: Path) -> None:
    kernel = tmp_path / "softmax_rows.mlir"
    kernel.write_text(SOFTMAX.read_text().replace("grid = [32]", "grid = [1]"))
    schedule = compile_kernel(str(kernel), device="sample_device")
    assert schedule.decisions[0]["keep"] == {"p0.keep.X": 1}
    out = write_bundle(schedule, tmp_path / "bundle")
    check_bundle(out)
    result = spyre_sched.run(str(out))
    assert result.matches, result.mismatches
