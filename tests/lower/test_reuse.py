"""Scratchpad reuse within a program: allocation by lifetime, the tokens that make it safe,
and the emulator's buffer check around shared bytes."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from xdsl.parser import Parser

from spyre_sched.dialects.registry import make_context
from spyre_sched.lower.addresses import BufferRequest, CapacityError, assign

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).parent
EXAMPLES = sorted((ROOT / "examples").glob("*.mlir"))


def test_buffers_with_disjoint_lifetimes_share_bytes() -> None:
    requests = [BufferRequest("a", "lx", 1000, 1, "input"), BufferRequest("b", "lx", 300, 2, "input"),
                BufferRequest("c", "lx", 128, 1, "output")]
    # a lives in [0, 10), b in [10, 20), c in [5, 20): b reuses a's bytes, c overlaps both
    placed = assign("p", requests, capacity={"lx": 8192}, alignment={"lx": 128},
                    pinned={"lx": [(0, 200)]}, lifetimes=[(0, 10), (10, 20), (5, 20)])
    a, b, c = placed
    assert (a.offset, b.offset) == (256, 256)  # both just past the pinned 200 bytes
    assert c.offset >= max(a.end, b.end)
    assert all(x.offset % 128 == 0 and x.slot_bytes % 128 == 0 for x in placed)
    # without lifetimes every buffer is live at once (the old behaviour)
    apart = assign("p", requests, capacity={"lx": 8192}, alignment={"lx": 128}, pinned={})
    spans = sorted((x.offset, x.end) for x in apart)
    assert all(p[1] <= q[0] for p, q in zip(spans, spans[1:]))


def test_early_fills_keep_their_own_bytes_while_they_fit() -> None:
    requests = [BufferRequest("x", "lx", 1024, 1, "input", early=True),
                BufferRequest("w", "lx", 1024, 1, "input", early=True),
                BufferRequest("y", "lx", 1024, 1, "output")]
    lifetimes = [(0, 5), (5, 9), (5, 9)]
    x, w, y = assign("p", requests, capacity={"lx": 4096}, alignment={"lx": 128}, pinned={},
                     lifetimes=lifetimes)
    assert (x.offset, w.offset, y.offset) == (0, 1024, 0)  # the compute output reuses x
    # with no room left, the fill takes the dead buffer's bytes after all
    requests[2] = BufferRequest("y", "lx", 512, 1, "output")
    x, w, y = assign("p", requests, capacity={"lx": 1536}, alignment={"lx": 128}, pinned={},
                     lifetimes=lifetimes)
    assert (x.offset, w.offset, y.offset) == (0, 0, 1024)


def test_capacity_error_lists_only_the_buffers_live_together() -> None:
    requests = [BufferRequest("early", "lx", 3000, 1, "input"), BufferRequest("late", "lx", 3000, 1, "input"),
                BufferRequest("big", "lx", 3000, 1, "output")]
    # early and late fit one after the other in 4096 bytes; big lives with late: too much
    with pytest.raises(CapacityError) as err:
        assign("local_schedule_1", requests, capacity={"lx": 4096}, alignment={"lx": 128},
               pinned={}, lifetimes=[(0, 5), (5, 9), (6, 9)])
    text = str(err.value)
    assert "late 1x3072 B" in text and "big 1x3072 B" in text and "early" not in text


def _lowered_programs(kernel: Path, device: str = "spyre", strategy: str = "solver"):
    """(analysis, lifetimes) per program of the kernel's solved, lowered schedule."""
    from spyre_sched.api import compile as compile_kernel
    from spyre_sched.device import load_device
    from spyre_sched.lower.lifetimes import lifetimes
    from spyre_sched.lower.lowering import _orchestrator, _program_function
    from spyre_sched.lower.program import lower_program
    from spyre_sched.lower.units import Units

    schedule = compile_kernel(str(kernel), device=device, strategy=strategy)
    module = Parser(make_context(), schedule.schedule_ir).parse_module()
    kernel_fn, _, programs = _orchestrator(module)
    grid = 1
    for g in kernel_fn.attributes["grid"].data:
        grid *= g.value.data
    units = Units(load_device(device), grid)
    counter = iter(range(1 << 20))
    found = []
    for index, pm in enumerate(programs):
        _, pa, _ = lower_program(index, _program_function(pm), units, lambda: next(counter),
                                 device_name=device, kernel_name="k")
        found.append((pa, lifetimes(pa)))
    return schedule, found


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
def test_buffers_live_together_never_share_bytes(example: Path) -> None:
    _, programs = _lowered_programs(example)
    for pa, spans in programs:
        bufs = list(pa.buffers.values())
        for (i, a), (j, b) in combinations(enumerate(bufs), 2):
            live_together = spans[i][0] < spans[j][1] and spans[j][0] < spans[i][1]
            shares = a.memory == b.memory and a.alloc.offset < b.alloc.end and b.alloc.offset < a.alloc.end
            assert not (live_together and shares), (pa.name, a.name, b.name)
            if shares:  # every engine of the earlier one hands a token to the later's writers
                assert pa.reuse.edges, (pa.name, a.name, b.name)


def test_reuse_lowers_peak_scratchpad_of_multi_compute_programs() -> None:
    # the heuristic re-reads X in both computes (the solver keeps X resident: one buffer
    # live for the whole program, so the computes' tiles have nothing dead to share)
    schedule, [(pa, _)] = _lowered_programs(ROOT / "examples" / "rmsnorm.mlir",
                                            strategy="heuristic")
    peak = max(b.alloc.end for b in pa.buffers.values())
    total = sum(b.alloc.bytes for b in pa.buffers.values())
    assert peak < total
    # the first compute's X tiles are dead once the second compute starts: the second
    # compute's Y takes their bytes; W and the second X are DMA fills that run ahead, so
    # they keep bytes of their own (the sum intermediate stays live across both)
    by_name = [(b.op.operand.data, b.alloc.offset) for b in pa.buffers.values()]
    assert by_name[1] == ("X", 128) and by_name[4] == ("Y", 128)
    assert by_name[2][1] >= 128 + 2048 and by_name[3][1] >= 128 + 2048
    assert schedule.scratchpad_bytes >= peak  # the solver's sum is an upper bound


def test_shared_bytes_run_on_the_emulator_and_match_numpy(tmp_path: Path) -> None:
    """row_sum's S reuses X's bytes: the emulator run equals the reference and numpy."""
    import spyre_sched
    from spyre_sched.lower.bundle import bundle_from_schedule_ir, write

    fixture = HERE / "reuse_row_sum.ktdf.mlir"
    bundle = bundle_from_schedule_ir(fixture.read_text(), kernel_text=(ROOT / "examples" / "row_sum.mlir").read_bytes())
    buffers = {b["name"]: b for b in bundle.schedule["buffers"]}
    assert buffers["S"]["offset"] == buffers["X"]["offset"]
    out = write(bundle, tmp_path / "b")
    x = np.random.default_rng(3).uniform(-2, 2, size=(64, 512)).astype(np.float16)
    result = spyre_sched.run(str(out), inputs={"X": x})
    assert result.matches, result.mismatches
    expected = x.astype(np.float64).sum(axis=1).astype(np.float32).astype(np.float16)
    assert np.allclose(result.outputs["S"].astype(np.float32), expected.astype(np.float32), rtol=2e-3)


def test_emulator_checks_accesses_against_shared_regions() -> None:
    from emulator.device.memory import Memory
    from spyre_sched.errors import ExecutionError

    mem = Memory("core0.lx", 8192)
    mem.declare_buffer(128, 2048, "X")
    mem.declare_buffer(128, 1024, "W")   # reuses the start of X's bytes
    mem.declare_buffer(2176, 128, "S")
    mem.check(1152, (1024,), (1,), 1, "read")       # in X's part past W: allowed
    mem.check(2176, (128,), (1,), 1, "read")
    with pytest.raises(ExecutionError):
        mem.check(2100, (128,), (1,), 1, "read")     # straddles two regions
    with pytest.raises(ExecutionError):
        mem.check(0, (64,), (1,), 1, "read")         # below every buffer
