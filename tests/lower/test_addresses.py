"""Address assignment: alignment, pinned regions, capacity errors, per-program reuse."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from xdsl.parser import Parser

from spyre_sched.dialects import ktdf
from spyre_sched.dialects.registry import make_context
from spyre_sched.lower.addresses import BufferRequest, CapacityError, assign
from spyre_sched.lower.lowering import lower

ROOT = Path(__file__).resolve().parents[2]
SCHEDULE = ROOT / "tests" / "schedule" / "fixtures" / "add_96x64.ktdf.mlir"


def test_slots_are_aligned_and_packed() -> None:
    placed = assign("p", [BufferRequest("a", "lx", 100, 2, "input"),
                          BufferRequest("b", "lx", 128, 1, "input")],
                    capacity={"lx": 4096}, alignment={"lx": 128}, pinned={})
    assert [(a.offset, a.slot_bytes, a.slots) for a in placed] == [(0, 128, 2), (256, 128, 1)]
    assert all(a.offset % 128 == 0 and a.slot_bytes % 128 == 0 for a in placed)


def test_pinned_regions_are_never_overlapped() -> None:
    pinned = {"lx": [(0, 2312), (4096, 4200)]}
    placed = assign("p", [BufferRequest("a", "lx", 1024, 1, "input"),
                          BufferRequest("b", "lx", 512, 2, "output"),
                          BufferRequest("c", "lx", 128, 1, "output")],
                    capacity={"lx": 1 << 20}, alignment={"lx": 128}, pinned=pinned)
    for a in placed:
        for start, end in pinned["lx"]:
            assert a.end <= start or a.offset >= end, (a, start, end)
    spans = sorted((a.offset, a.end) for a in placed)
    assert all(x[1] <= y[0] for x, y in zip(spans, spans[1:]))
    assert placed[0].offset == 2432  # first 128-byte boundary after the kernel's 2312 bytes


def test_capacity_error_names_program_buffers_and_size() -> None:
    with pytest.raises(CapacityError) as err:
        assign("local_schedule_3", [BufferRequest("X", "lx", 1 << 20, 2, "input")],
               capacity={"lx": 1 << 20}, alignment={"lx": 128}, pinned={"lx": [(0, 64)]})
    text = str(err.value)
    assert "local_schedule_3" in text and "X 2x1048576 B" in text and "1048576 bytes" in text


def test_lowering_reports_buffers_that_do_not_fit() -> None:
    module = Parser(make_context(), SCHEDULE.read_text()).parse_module()
    values = {"p0.tile.lx.d0": 3, "p0.tile.lx.d1": 64, "p0.pipe.lx.modulo": 2000,
              "p0.distribute.d0": 1, "p0.distribute.d1": 1}
    for name, op in ktdf.decision_ops(module).items():
        ktdf.set_decision(op, values[name])
    with pytest.raises(CapacityError, match="do not fit in scratchpad 'lx' of 2097152 bytes"):
        lower(module)


def test_pinned_intermediates_stay_clear_of_buffers(tmp_path: Path) -> None:
    from spyre_sched.api import compile as compile_kernel
    from spyre_sched.lower.bundle import write_bundle

    schedule = compile_kernel(str(ROOT / "examples" / "softmax_rows.mlir"), "spyre", strategy="heuristic")
    out = write_bundle(schedule, tmp_path / "b")
    data = json.loads((out / "schedule.json").read_text())
    pinned = {p["program"]: p["bytes"] for p in data["pinned"]}
    assert pinned and all(v == 2312 for v in pinned.values())  # E 1024 B + M 4 B at 1024, S f32 at 2304
    for b in data["buffers"]:
        assert b["offset"] >= pinned[b["program"]] and b["offset"] % 128 == 0, b
    # programs reuse the scratchpad: each starts allocating from the same place
    firsts = {}
    for b in data["buffers"]:
        firsts.setdefault(b["program"], b["offset"])
    assert len(set(firsts.values())) == 1
