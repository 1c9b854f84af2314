"""FIFO depth and vectors per instruction as solver decisions: how a datapath's queue is
split among the FIFOs of one phase (`fifo`, one per FIFO, their sum within the queue) and
how many vectors an elementwise pipeline moves per instruction (`chunk`: up to what the
register file holds, held whole in every FIFO or streaming through them). The choice
follows the device's queue depth; the lowering and the emulator use what was chosen."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from xdsl.parser import Parser

from spyre_sched import api
from spyre_sched.dialects.registry import make_context
from spyre_sched.errors import DeviceError
from spyre_sched.solve import cost
from spyre_sched.solve.extract import extract
from spyre_sched.solve.heuristic import v1_choice
from spyre_sched.solve.solver import solve

ROOT = Path(__file__).resolve().parents[2]
KERNEL = ROOT / "tests/solve/kernels/five_operand_fma.mlir"


def _device(tmp_path: Path, depth: int) -> str:
    """spyre with every FIFO queue `depth` entries deep."""
    text = (ROOT / "devices/spyre.mlir").read_text()
    text, n = re.subn(r"#ktdf_arch\.feature\.queue<depth = 16, ordered>",
                      f"#ktdf_arch.feature.queue<depth = {depth}, ordered>", text)
    assert n == 1
    path = tmp_path / f"spyre_fifo{depth}.mlir"
    path.write_text(text.replace("ktdf_arch.device @spyre ", f"ktdf_arch.device @spyre_fifo{depth} "))
    return str(path)


def _problem(device: str):
    module, _, _ = api.load_schedule_input(str(KERNEL), device)
    module = Parser(make_context(), api.print_ir(module)).parse_module()
    return extract(module).problem


def _label(problem, choice, name):
    return problem.decision(name).candidates[choice[name]].label


def test_the_split_and_the_chunk_are_decisions():
    problem = _problem("spyre")
    chunk = problem.decision("p0.chunk")
    # 4096 B of register file / 6 x 128 B of FIFO entries per vector = 5, and a row has 4
    labels = [c.label for c in chunk.candidates]
    assert labels[:4] == ["1", "2", "3", "4"]
    # streaming: the five load FIFOs hold a whole chunk up to some point, fewer entries
    # after it, within the queue of 16; the store FIFO (its own queue) holds the chunk
    assert "4 streaming [4/4/4/2/2/4]" in labels and "2 streaming [1/1/1/1/1/2]" in labels
    assert "4 streaming [4/4/4/4/1/4]" not in labels  # 17 entries > 16
    assert all(sum(c.entries[:5]) <= 16 for c in chunk.candidates if c.streams)
    (program,) = problem.programs
    loads, store = program.fifo_splits
    assert (loads.depth, len(loads.decisions), loads.chunk) == (16, 5, "p0.chunk")
    assert (store.depth, len(store.decisions)) == (16, 1)
    # each of five FIFOs sharing 16 entries gets 1..12
    assert [c.value for c in problem.decision(loads.decisions[0]).candidates] == \
        list(range(1, 13))


def test_a_held_chunk_needs_room_in_every_fifo_and_the_queue_is_not_overdrawn():
    problem = _problem("spyre")
    choice = dict(solve(problem).choice)
    chunk = problem.decision("p0.chunk")
    held4 = next(i for i, c in enumerate(chunk.candidates) if c.label == "4")
    split = problem.programs[0].fifo_splits[0]
    store = problem.programs[0].fifo_splits[1].decisions[0]
    # depth 3 each, 4 for the store FIFO
    even = {**choice, **{d: 2 for d in split.decisions}, store: 3, "p0.chunk": held4}
    broken = [v for v in cost.violations(problem, even) if v.kind == "fifo"]
    assert broken and "holding a chunk of p0.chunk" in broken[0].name
    streaming = next(i for i, c in enumerate(chunk.candidates)
                     if c.label == "4 streaming [3/3/3/3/3/4]")
    assert cost.feasible(problem, {**even, "p0.chunk": streaming})
    # each FIFO gets exactly what the chunk is priced at: a deeper one would keep more in
    # flight than priced (here the store FIFO's 16 against the 4 it streams at)
    assert any("streaming a chunk" in v.name for v in
               cost.violations(problem, {**even, store: 15, "p0.chunk": streaming}))
    # a held chunk takes each FIFO's share of its queue: 3 of 16 for five, 16 for one
    held3 = next(c for c in chunk.candidates if c.label == "3")
    assert held3.entries == (3, 3, 3, 3, 3, 16)
    # a streaming chunk priced at deeper FIFOs than given is refused too
    deeper = next(i for i, c in enumerate(chunk.candidates)
                  if c.label == "4 streaming [4/4/4/2/2/4]")
    assert any("streaming a chunk" in v.name for v in
               cost.violations(problem, {**even, "p0.chunk": deeper}))
    overdrawn = {**choice, **{d: 3 for d in split.decisions}}  # 5 x 4 > 16
    assert any(v.name == f"queue {split.name}" for v in cost.violations(problem, overdrawn))


def test_random_schedules_move_a_chunk_with_its_fifo_depths():
    """A random walk that drew a chunk alone would find every other chunk infeasible (the
    depths are the old chunk's): drawing a chunk sets its FIFOs' depths too, so random
    schedules cover several chunks, each with the depths it is priced at."""
    from spyre_sched.solve.random_schedule import random_choice

    problem = _problem("spyre")
    chunk = problem.decision("p0.chunk")
    splits = problem.programs[0].fifo_splits
    labels = set()
    for seed in range(12):
        choice = random_choice(problem, seed)
        assert cost.feasible(problem, choice)
        picked = chunk.candidates[choice["p0.chunk"]]
        labels.add(picked.label)
        depths = [problem.decision(d).candidates[choice[d]].value
                  for split in splits for d in split.decisions]
        assert tuple(depths) == picked.entries
    # streaming chunks too, whose depths differ from the held ones' even split
    assert sum("streaming" in label for label in labels) >= 3, labels


def test_the_choice_follows_the_queue_depth(tmp_path: Path):
    chosen = {}
    for depth in (8, 16, 32):
        problem = _problem(_device(tmp_path, depth))
        solution = solve(problem)
        chosen[depth] = _label(problem, solution.choice, "p0.chunk")
        split = problem.programs[0].fifo_splits[0]
        assert sum(problem.decision(d).candidates[solution.choice[d]].value
                   for d in split.decisions) <= depth
        if depth == 8:
            # the even split (8 // 5 = 1 entry each) holds one vector per instruction; the
            # solver streams whole rows through the FIFOs instead, and says it is cheaper
            pinned = solve(problem, fixed={d.name: v1_choice(problem)[d.name]
                                           for d in problem.decisions
                                           if d.kind in ("chunk", "fifo")})
            assert _label(problem, pinned.choice, "p0.chunk") == "1"
            assert solution.cycles < pinned.cycles
    # shallow: stream, deeper FIFOs first; at 16, hold three vectors in each FIFO (with
    # two copies of half-row tiles, the FIFO pipeline's units going on to the next tile:
    # emulated 488 cycles, against 504 for whole rows streamed [4/4/4/2/2/4], the choice
    # before the stage's pace was its busiest unit's); deep enough for five FIFOs of four
    # entries: hold the whole row
    assert chosen[8] == "2 streaming [2/2/2/1/1/2]"
    assert chosen[16] == "3" and chosen[32] == "4"
    assert len(set(chosen.values())) == 3, chosen


def test_fewer_entries_than_fifos_is_a_located_error(tmp_path: Path):
    with pytest.raises(DeviceError) as err:
        api.compile(str(KERNEL), device=_device(tmp_path, 4))
    assert "5 FIFOs share the datapath" in str(err.value)
    assert "holds 4 entries" in str(err.value)
    assert "op ktdf.fifo in pass solve" in str(err.value)


def test_a_bad_depth_in_solved_scheduleir_is_a_located_error():
    from spyre_sched.lower.lowering import lower

    schedule = api.compile(str(KERNEL), device="spyre")
    text = schedule.schedule_ir
    assert "ktdf.depth" in text and "ktdf.vectors_per_instruction" in text
    for bad, words in (("0", "needs at least one entry"), ("9", "the datapath's queue holds 16")):
        wrong = re.sub(r"ktdf\.depth = \d+", f"ktdf.depth = {bad}", text)
        module = Parser(make_context(), wrong).parse_module()
        with pytest.raises(DeviceError) as err:
            lower(module)
        assert words in str(err.value)
        assert "in pass lower" in str(err.value)


@pytest.mark.slow  # two compiles and two emulations (~10 s of CPU)
def test_both_choices_match_under_the_emulator(tmp_path: Path):
    """The solver's streaming chunk and the even split's held one, on a queue of 8: the
    lowering declares the chosen depths, the emulator holds the FIFOs to them (a send
    larger than the room left streams) and both give the reference's outputs."""
    import spyre_sched
    from spyre_sched.lower.bundle import write_bundle

    device = _device(tmp_path, 8)
    for pinned, chunk in (((), "2 streaming [2/2/2/1/1/2]"), (("chunk", "fifo"), "1")):
        schedule = api.compile(str(KERNEL), device=device, pinned=pinned)
        decided = schedule.decisions[0]
        assert decided["chunks"] == {"p0.chunk": chunk}
        out = tmp_path / f"bundle{len(pinned)}"
        write_bundle(schedule, out, kernel_path=str(KERNEL))
        program = (out / "local_schedule_0.mlir").read_text()
        depths = [int(d) for d in re.findall(
            r'dataflow.fifo @\w+ "lx_load" -> "sfu" \{depth = (\d+)', program)]
        assert depths == [decided["fifo_depths"][f"p0.fifo{j}"] for j in range(5)]
        result = spyre_sched.run(str(out), device=device, seed=1)
        assert result.matches, result.mismatches


def test_a_streaming_chunk_is_priced_by_the_depths_it_asks_for():
    """The emulator's FIFO rule (docs/emulator.md): k = 4 entries of 128 B at 128 B/cycle
    and latency 2 are visible V = 4 + 2 = 6 cycles after they are placed. Depth 1
    everywhere: the first FIFO's first entry is there, its last 3 rounds take 18; the
    producer placed that FIFO's last entry one V before, is busy 4 more, and then each later
    FIFO takes its first round and 3 more: 4 + 3 x 6 = 22 after the one before, so
    18 + 4 x 22 = 106. FIFOs that hold the chunk take it whole while the unit computes;
    depth 2 halves the rounds."""
    from spyre_sched.solve.extract import streamed_chunk_cycles

    hop = (128, 128, 2, True)
    store = (128, 128, 2, False)
    shallow = streamed_chunk_cycles(4, [hop] * 5 + [store], (1, 1, 1, 1, 1, 4))
    assert shallow == 18 + 4 * 22
    half = streamed_chunk_cycles(4, [hop] * 5 + [store], (2, 2, 2, 2, 2, 4))
    assert half == 6 + 4 * (4 + 6)
    leading = streamed_chunk_cycles(4, [hop] * 5 + [store], (4, 4, 4, 2, 2, 4))
    assert leading == 6 + (4 + 6) < half
    # an output FIFO shallower than the chunk blocks the unit for the rounds after its first
    assert streamed_chunk_cycles(4, [store], (2,)) == 6
