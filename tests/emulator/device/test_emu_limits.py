"""The emulator's limits: every instruction costs an issue cycle, so a loop of scalar
instructions takes time and stops at the cycle budget; a wall-clock budget stops any run;
memories are allocated on the host when first touched, and a run that would need more
host memory than the cap is refused up front with the figures (also through `run
--memory-cap`)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from emulator.runtime import Runtime
from spyre_sched.cli import main
from spyre_sched.errors import ExecutionError

ROOT = Path(__file__).resolve().parents[3]
PROGRAM = Path(__file__).parent / "programs" / "add_2core.mlir"
SPYRE = ROOT / "devices" / "spyre.mlir"

# The sfu's loop of add_2core.mlir, where a hand edit puts a loop in front of it.
SFU_LOOP = """      %one = arith.constant 1 : index
      scf.for %i = %lb to %ub step %one {
        %x = dataflow.receive"""


def edited(tmp_path: Path, inserted: str) -> Path:
    text = PROGRAM.read_text()
    assert SFU_LOOP in text
    path = tmp_path / "edited.mlir"
    path.write_text(text.replace(SFU_LOOP, SFU_LOOP.replace(
        "      scf.for %i", inserted + "      scf.for %i", 1)))
    return path


def scalar_loop(iterations: int) -> str:
    """An scf.for of `iterations` iterations doing index arithmetic only (no device op)."""
    return (f"      %big = arith.constant {iterations} : index\n"
            "      scf.for %z = %lb to %big step %one {\n"
            "        %z2 = arith.muli %z, %one : index\n"
            "        %z3 = arith.addi %z2, %one : index\n"
            "      }\n")


def launch(runtime: Runtime, image, **budgets):
    a = runtime.allocate_tensor(np.ones((6, 64), np.float16), "f16")
    b = runtime.allocate_tensor(np.ones((6, 64), np.float16), "f16")
    c = runtime.allocate((6, 64), "f16")
    return runtime.run_program(image, {0: 2 * a, 1: 2 * b, 2: 2 * c, 3: 3}, **budgets)


def test_a_scalar_loop_stops_at_the_cycle_budget_naming_unit_and_loop(tmp_path):
    # A million iterations of index arithmetic used to take 0 cycles: no cycle budget could
    # stop such a loop, however long (10^12 iterations ran for hours).
    runtime = Runtime("spyre")
    image = runtime.prepare_program(edited(tmp_path, scalar_loop(10 ** 6)))
    with pytest.raises(ExecutionError) as caught:
        launch(runtime, image, max_cycles=20_000)
    text = str(caught.value)
    assert "core0.corelet0.sfu" in text
    assert re.search(r"scf\.for at .*edited\.mlir:\d+:\d+", text), text
    assert "budget of 20000 cycles" in text and "--max-cycles" in text


def test_a_huge_scalar_loop_stops_at_the_time_budget(tmp_path):
    runtime = Runtime("spyre")
    image = runtime.prepare_program(edited(tmp_path, scalar_loop(10 ** 12)))
    with pytest.raises(ExecutionError) as caught:
        launch(runtime, image, max_seconds=0.3)
    text = str(caught.value)
    assert "time budget of 0.3 s" in text and "--max-seconds" in text
    assert re.search(r"core\d\.corelet0\.sfu, instruction 'scf\.for at ", text), text


def test_every_scalar_instruction_and_iteration_costs_an_issue_cycle(tmp_path):
    # 1000 iterations of (test and branch, muli, addi): the sfu issues its last scalar
    # instruction in cycle 2999, and its first receive no earlier than cycle 3000.
    runtime = Runtime("spyre")
    plain = launch(runtime, runtime.prepare_program(PROGRAM))
    runtime = Runtime("spyre")
    image = runtime.prepare_program(edited(tmp_path, scalar_loop(1000)))
    looped = launch(runtime, image)
    sfu = looped.units["core0.corelet0.sfu"]
    assert sfu.busy >= 3000 > plain.units["core0.corelet0.sfu"].busy
    assert looped.cycles > plain.cycles
    # values known at load (constants, symbols, the instance index) cost nothing: the
    # DMA units' address arithmetic does not delay their first transfer
    assert looped.units["core0.dma_load"].busy == plain.units["core0.dma_load"].busy


def test_a_loop_of_vector_loads_stops_at_the_cycle_budget(tmp_path):
    loads = ("      %big = arith.constant 1000000000 : index\n"
             "      %zero = arith.constant 0 : index\n"
             "      scf.for %z = %lb to %big step %one {\n"
             "        %v = agen.vector_load \"lx\"[%zero] #agen.access<set = affine_set<(d0, d1) : "
             "(d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>, order = affine_map<(d0, d1) -> "
             "(d0, d1)>, strides = [64, 1]> : vector<1x64xf16>\n"
             "      }\n")
    text = PROGRAM.read_text()
    anchor = "      dataflow.sync_recv @loaded\n"
    path = tmp_path / "loads.mlir"
    path.write_text(text.replace(anchor, anchor + loads, 1))
    runtime = Runtime("spyre")
    image = runtime.prepare_program(path)
    with pytest.raises(ExecutionError) as caught:
        launch(runtime, image, max_cycles=30_000)
    text = str(caught.value)
    assert "lx_load" in text and "30000 cycles" in text and "--max-cycles" in text


# ---- host memory ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def many_cores(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("device") / "spyre_512.mlir"
    text = SPYRE.read_text()
    assert "count = 32}" in text
    path.write_text(text.replace("count = 32}", "count = 512}"))
    return path


def test_memories_are_allocated_when_first_touched(many_cores):
    runtime = Runtime(many_cores)
    memories = runtime.emu.memories
    assert len(memories) == 513
    # nothing allocated before anything runs (was: 512 scratchpads of 2 MiB up front)
    assert runtime.emu.host.allocated == 0 and runtime.emu.host.memories == 0
    assert all(m.allocated == 0 for m in memories.values())
    image = runtime.prepare_program(PROGRAM)
    launch(runtime, image)
    touched = {name for name, m in memories.items() if m.allocated}
    assert touched == {"ddr", "core0.lx", "core1.lx"}
    assert runtime.emu.host.memories == 3
    assert runtime.emu.host.allocated == sum(m.allocated for m in memories.values())
    assert memories["core0.lx"].allocated == memories["core0.lx"].size


def test_a_bundles_scratchpads_are_allocated_up_to_its_buffers_end():
    # A bundle declares its scratchpad buffers: no access that passes the buffer check
    # reaches past their end, so a scratchpad is filled with poison only that far (the
    # suite's add used 768 KiB of each 2 MiB scratchpad and filled all of it, 13 % of its
    # launch), and the result is the same.
    fixture = ROOT / "tests" / "lower" / "fixtures" / "add_96x64_bundle"
    runtime = Runtime("spyre")
    prepared = runtime.prepare(fixture)
    rng = np.random.default_rng(0)
    data = {k: rng.uniform(-2, 2, (96, 64)).astype(np.float16) for k in "AB"}
    args = {k: runtime.allocate_tensor(v, "f16") for k, v in data.items()}
    args["C"] = runtime.allocate((96, 64), "f16")
    runtime.launch(prepared, args)
    ends = [b["offset"] + b["bytes"] for b in json.loads(
        (fixture / "schedule.json").read_text())["buffers"]]
    used = [m for m in runtime.emu.memories.values() if m.name.endswith(".lx") and m.allocated]
    assert len(used) == 32
    assert all(m.allocated == max(ends) < m.size for m in used)
    out = runtime.read_tensor(args["C"], (96, 64), "f16")
    assert np.array_equal(out, data["A"] + data["B"])


def test_a_program_whose_scratchpads_pass_the_cap_is_refused_at_prepare():
    runtime = Runtime("spyre", memory_cap=3 << 20)
    with pytest.raises(ExecutionError) as caught:
        runtime.prepare_program(PROGRAM)
    text = str(caught.value)
    assert "2 scratchpads of 2097152 bytes" in text and "4194304 bytes" in text
    assert "memory cap of 3145728 bytes" in text and "--memory-cap" in text
    assert runtime.emu.host.allocated == 0


def test_device_memory_growing_past_the_cap_is_refused_at_that_access():
    runtime = Runtime("spyre", memory_cap=1 << 20)
    offset = runtime.allocate((1024, 1024), "f16")  # 2 MiB: room, nothing written yet
    with pytest.raises(ExecutionError, match="memory cap of 1048576 bytes; raise it"):
        runtime.write_tensor(offset, np.zeros((1024, 1024), np.float16), "f16")


def test_device_memory_grows_once_to_the_tensors_allocated_before_the_first_write():
    """Three 8 MiB tensors allocated, then written: the host array grows once to their
    end, filled with poison only where nothing is written (it grew by doubling at each
    write before: 8.4 + 16.8 + 33.6 MB of poison filled and 25 MB copied); reads give
    back what was written, unwritten bytes stay poison. Past the cap it grows as used."""
    runtime = Runtime("spyre")
    memory = runtime.global_memory
    shape = (2048, 2048)
    offsets = [runtime.allocate(shape, "f16") for _ in range(3)]
    end = offsets[-1] * 2 + 2048 * 2048 * 2
    assert memory.allocated == 0  # (allocating writes nothing)
    values = [np.full(shape, k + 1, np.float16) for k in range(2)]
    runtime.write_tensor(offsets[0], values[0], "f16")
    assert memory.allocated == end  # (all three at the first write)
    runtime.write_tensor(offsets[1], values[1], "f16")
    assert memory.allocated == end
    for offset, value in zip(offsets, values):
        assert np.array_equal(runtime.read_tensor(offset, shape, "f16"), value)
    assert (memory.read_bytes(offsets[2] * 2, 64) == 0xFF).all()

    capped = Runtime("spyre", memory_cap=24 << 20)  # room for two of them only
    first, second = capped.allocate(shape, "f16"), capped.allocate(shape, "f16")
    capped.allocate(shape, "f16")
    capped.write_tensor(first, values[0], "f16")
    assert capped.global_memory.allocated < 3 * 2048 * 2048 * 2
    capped.write_tensor(second, values[1], "f16")
    assert np.array_equal(capped.read_tensor(second, shape, "f16"), values[1])


def test_run_takes_memory_cap_and_budgets():
    add = str(ROOT / "examples" / "add_96x64.mlir")
    capped = CliRunner().invoke(main, ["run", add, "--memory-cap", "1MiB"])
    assert capped.exit_code == 1, capped.output
    assert "memory cap of 1048576 bytes; raise it (--memory-cap)" in capped.output
    assert "32 scratchpads of 2097152 bytes" in capped.output
    short = CliRunner().invoke(main, ["run", add, "--max-cycles", "50"])
    assert short.exit_code == 1, short.output
    assert "limit of 50 cycles" in short.output and "--max-cycles" in short.output
    assert re.search(r"unit core\d+\.\w+", short.output), short.output
    fine = CliRunner().invoke(main, ["run", add, "--memory-cap", "1GiB", "--max-seconds", "120"])
    assert fine.exit_code == 0, fine.output
    assert "MATCH" in fine.output


def test_the_host_running_out_of_memory_is_exit_1_not_a_traceback(monkeypatch):
    # What a 16,384-core device under a process memory limit met before scratchpads were
    # allocated on first touch: numpy's MemoryError, reported as an internal error (exit 2).
    def exhausted(*args, **kwargs):
        raise MemoryError()

    monkeypatch.setattr("emulator.runtime.Runtime.prepare", exhausted)
    monkeypatch.delenv("SPYRE_SCHED_DEBUG", raising=False)
    result = CliRunner().invoke(main, ["run", str(ROOT / "examples" / "add_96x64.mlir")])
    assert result.exit_code == 1, result.output
    assert "the host ran out of memory" in result.output
    assert "internal error" not in result.output and "Traceback" not in result.output


def test_a_scratchpad_the_host_cannot_allocate_is_a_located_error(monkeypatch):
    runtime = Runtime("spyre")
    memory = runtime.emu.memories["core0.lx"]
    import emulator.device.memory as memory_module
    real = memory_module.extended

    def refusing(data, size):
        if size == memory.size:
            raise MemoryError()
        return real(data, size)

    monkeypatch.setattr(memory_module, "extended", refusing)
    with pytest.raises(ExecutionError, match="memory core0.lx: the host could not allocate"):
        memory.read_bytes(0, 128)
    assert runtime.emu.host.allocated == 0


@pytest.mark.slow
def test_a_16384_core_device_allocates_only_what_a_launch_touches(tmp_path):
    # Before: 16,384 scratchpads of 2 MiB allocated when the runtime was made (32 GiB;
    # under a process memory limit, a MemoryError reported as an internal error).
    path = tmp_path / "spyre_16384.mlir"
    path.write_text(SPYRE.read_text().replace("count = 32}", "count = 16384}"))
    runtime = Runtime(path)
    assert len(runtime.emu.memories) == 16385 and runtime.emu.host.allocated == 0
    launch(runtime, runtime.prepare_program(PROGRAM))
    assert runtime.emu.host.memories == 3
    assert runtime.emu.host.allocated < (4 << 20) + (1 << 20)
