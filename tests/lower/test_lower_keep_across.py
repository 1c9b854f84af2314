"""A region kept across programs, end to end (softmax_rows: X kept from program 0 to
program 1): the bundle passes the bundle checks, places the region inside the pinned
bytes of exactly the programs it spans, program 1 issues no DMA, the emulated outputs
equal the reference on spyre and on sample_device, and the emulator holds a program to
its own pinned rows (a program that reads the region without it declared faults)."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

import spyre_sched
from emulator.bundle_files import seal
from lower_bundle_checks import check_bundle
from spyre_sched import api
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
    seal(broken)  # a deliberate edit: the emulator's own check is under test
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


TWO_INPUTS = ROOT / "tests" / "schedule" / "kernels" / "keep_two_inputs.mlir"


def test_two_regions_stack_above_the_pinned_bytes(tmp_path: Path) -> None:
    # X and Z are each read by both programs: both kept, one region after the other
    schedule = compile_kernel(str(TWO_INPUTS), device="spyre")
    assert schedule.decisions[0]["keep"] == {"p0.keep.X": 1, "p0.keep.Z": 1}
    out = write_bundle(schedule, tmp_path / "bundle")
    check_bundle(out)
    rows = json.loads((out / "schedule.json").read_text())["pinned"]
    for row in rows:
        assert row["bytes"] == 2176  # M's 4 bytes, then 2 x 1024 B at 128-byte alignment
        assert "p0.keep.X at bytes [128, 1152)" in row["what"]
        assert "p0.keep.Z at bytes [1152, 2176)" in row["what"]
    result = spyre_sched.run(str(out), seed=2)
    assert result.matches, result.mismatches
    loaded = {k: v for k, v in result.datapath_bytes.items() if k.endswith("dma_load->core0.lx")}
    assert loaded == {"core0.dma_load->core0.lx": 2 * (2 * 256 * 2)}  # X and Z once each


def _shifted(text: str, old: int, new: int) -> str:
    """The open IR as if the kernel pinned `new` bytes instead of `old` (regions move up
    with the pinned bytes by whole 128-byte sticks): the room question for the solver."""
    delta = -(-new // 128) * 128 - -(-old // 128) * 128
    text = text.replace(f"ktdf.pinned_bytes = {old} : i64", f"ktdf.pinned_bytes = {new} : i64")
    return re.sub(r"array<i64: (\d+), (\d+)>",
                  lambda m: f"array<i64: {int(m[1]) + delta}, {int(m[2]) + delta}>", text)


@pytest.mark.parametrize("room,kept", [(1700, (0, 0)), (2100, (1, 0)), (3000, (1, 1))])
def test_the_room_decides_how_many_regions_are_kept(room: int, kept: tuple[int, int],
                                                    tmp_path: Path) -> None:
    # X's region sits at the first stick above the pinned bytes, Z's right above it. With
    # 1700 B of room X's region would fit, but only with single-buffered tiles everywhere,
    # which costs more than re-reading; 2100 B keep X; Z's region needs 2048 B plus the
    # alignment, so only 3000 B keep both
    module, _, _ = api.load_schedule_input(str(TWO_INPUTS), "spyre")
    capacity = 2 * 1024 * 1024
    text = _shifted(api.print_ir(module), 4, capacity - room)
    schedule = compile_kernel(text, device="spyre")
    assert schedule.decisions[0]["keep"] == {"p0.keep.X": kept[0], "p0.keep.Z": kept[1]}
    assert schedule.scratchpad_bytes <= capacity
    if kept == (1, 0):
        # compiled from ScheduleIR text: give the bundle its kernel for the reference
        schedule = dataclasses.replace(schedule, kernel_text=TWO_INPUTS.read_text(),
                                       kernel_path=str(TWO_INPUTS))
        out = write_bundle(schedule, tmp_path / "bundle")
        result = spyre_sched.run(str(out), seed=3)
        assert result.matches, result.mismatches
