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
from spyre_sched.solve.explain import build_trace, decision_report, render_trace
from spyre_sched.solve.extract import extract
from spyre_sched.solve.heuristic import v1_choice
from spyre_sched.solve.solver import TIE_BREAK, descend, solve

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


def _problem(device: str, kernel: Path = KERNEL):
    module, _, _ = api.load_schedule_input(str(kernel), device)
    module = Parser(make_context(), api.print_ir(module)).parse_module()
    return extract(module).problem


def _label(problem, choice, name):
    return problem.decision(name).candidates[choice[name]].label


def test_the_split_and_the_chunk_are_decisions():
    problem = _problem("spyre")
    chunk = problem.decision("p0.chunk")
    # 4096 B of register file / 6 x 128 B of FIFO entries per vector = 5, and a row has 4
    labels = [c.label for c in chunk.candidates]
    # held: each FIFO's share of the queue (3 of 16), so up to 3 vectors; 4 in every FIFO
    # is 20 entries, which the five can have only sharing the queue in send order
    assert labels[:4] == ["1", "2", "3", "4 in send order [4/4/4/4/4/16]"]
    # streaming: the five load FIFOs hold a whole chunk up to some point, fewer entries
    # after it, within the queue of 16; the store FIFO (its own queue) holds the chunk
    assert "4 streaming [4/4/4/2/2/4]" in labels and "2 streaming [1/1/1/1/1/2]" in labels
    assert "4 streaming [4/4/4/4/1/4]" not in labels  # 17 entries > 16
    assert all(sum(c.entries[:5]) <= 16 for c in chunk.candidates if not c.in_send_order)
    (program,) = problem.programs
    loads, store = program.fifo_splits
    assert (loads.depth, len(loads.decisions), loads.chunk) == (16, 5, "p0.chunk")
    assert (store.depth, len(store.decisions)) == (16, 1)
    # the pipeline receives its five FIFOs in the order it sends them, so each may be
    # given up to the whole queue (1..16, not 1..12 as entries of its own)
    assert loads.in_send_order
    assert [c.value for c in problem.decision(loads.decisions[0]).candidates] == \
        list(range(1, 17))


def test_a_held_chunk_needs_room_in_every_fifo_and_the_queue_is_not_overdrawn():
    problem = _problem("spyre")
    choice = dict(solve(problem).choice)
    chunk = problem.decision("p0.chunk")
    shared4 = next(i for i, c in enumerate(chunk.candidates)
                   if c.label == "4 in send order [4/4/4/4/4/16]")
    split = problem.programs[0].fifo_splits[0]
    store = problem.programs[0].fifo_splits[1].decisions[0]
    # depth 3 each, 4 for the store FIFO: too few for a held chunk of 4
    even = {**choice, **{d: 2 for d in split.decisions}, store: 3, "p0.chunk": shared4}
    broken = [v for v in cost.violations(problem, even) if v.kind == "entries"]
    assert broken and "holding a chunk of p0.chunk" in broken[0].name
    # the five given 4 each (20 entries on a queue of 16, shared in send order) hold it
    assert cost.feasible(problem, {**even, **problem.chunk_depths("p0.chunk", shared4)})
    streaming = next(i for i, c in enumerate(chunk.candidates)
                     if c.label == "4 streaming [3/3/3/3/3/4]")
    assert cost.feasible(problem, {**even, "p0.chunk": streaming})
    # each FIFO gets exactly what the chunk is priced at: a deeper one would keep more in
    # flight than priced (here the store FIFO's 16 against the 4 it streams at)
    assert any("streaming a chunk" in v.name for v in
               cost.violations(problem, {**even, store: 15, "p0.chunk": streaming}))
    # a held chunk takes each FIFO's share of its queue: 3 of 16 for five, 16 for one
    held3 = next(c for c in chunk.candidates if c.label == "3")
    assert held3.entries == (3, 3, 3, 3, 3, 16) and not held3.in_send_order
    # a streaming chunk priced at deeper FIFOs than given is refused too
    deeper = next(i for i, c in enumerate(chunk.candidates)
                  if c.label == "4 streaming [4/4/4/2/2/4]")
    assert any("streaming a chunk" in v.name for v in
               cost.violations(problem, {**even, "p0.chunk": deeper}))
    # the queue's own bound: no FIFO beyond it (in send order, only that binds)
    assert split.over_queue([17, 1, 1, 1, 1]) and not split.over_queue([16] * 5)


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
        given = [problem.decision(d).candidates[solution.choice[d]].value
                 for d in split.decisions]
        assert max(given) <= depth and (sum(given) <= depth or split.in_send_order)
        if depth == 8:
            # the even split (8 // 5 = 1 entry each) holds one vector per instruction; the
            # solver streams whole rows through the FIFOs instead, and says it is cheaper
            pinned = solve(problem, fixed={d.name: v1_choice(problem)[d.name]
                                           for d in problem.decisions
                                           if d.kind in ("chunk", "fifo")})
            assert _label(problem, pinned.choice, "p0.chunk") == "1"
            assert solution.cycles < pinned.cycles
    # shallow: the five FIFOs share the queue of 8 in send order; at 16 a chunk of four
    # vectors streams through FIFOs of three entries; deep enough for five FIFOs of four
    # entries: the whole row held. At 8 and 16 the model ties these with chunks of fewer
    # vectors (two in send order; three held), and the tie-break takes the most vectors
    # per instruction: the same emulated cycles (454 and 452) in fewer instructions.
    assert chosen[8] == "4 in send order [4/4/4/4/4/8]"
    assert chosen[16] == "4 streaming [3/3/3/3/3/4]" and chosen[32] == "4"
    assert len(set(chosen.values())) == 3, chosen


def test_more_fifos_than_entries_share_the_queue_in_send_order(tmp_path: Path):
    """Five FIFOs on a queue of 4: no FIFO can have entries of its own, so they share the
    queue in send order. Each may be given up to the whole queue; a chunk of c ≤ 4 vectors
    is held (each FIFO given c), and the V1 baseline gives each FIFO one entry."""
    problem = _problem(_device(tmp_path, 4))
    loads, store = problem.programs[0].fifo_splits
    assert loads.in_send_order
    assert [c.value for c in problem.decision(loads.decisions[0]).candidates] == [1, 2, 3, 4]
    chunk = problem.decision("p0.chunk")
    assert [c.label for c in chunk.candidates] == [
        f"{c} in send order [{c}/{c}/{c}/{c}/{c}/4]" for c in (1, 2, 3, 4)]
    # the queue keeps less than a vector of all five ahead of the unit: 2 in flight
    assert {cost.candidate_modulo("chunk", c) for c in chunk.candidates} == {2}
    solution = solve(problem)
    assert cost.feasible(problem, solution.choice)
    v1 = v1_choice(problem)
    assert _label(problem, v1, "p0.chunk") == "1 in send order [1/1/1/1/1/4]"
    assert [problem.decision(d).candidates[v1[d]].value for d in loads.decisions] == [1] * 5
    # in send order only each FIFO's depth is bounded by the queue, not their sum
    whole_row = {**solution.choice, "p0.chunk": 3, **problem.chunk_depths("p0.chunk", 3)}
    assert [whole_row[d] + 1 for d in loads.decisions] == [4] * 5  # 20 entries on 4
    assert not cost.violations(problem, whole_row)
    one_each = {**solution.choice, "p0.chunk": 0, **problem.chunk_depths("p0.chunk", 0)}
    assert not cost.violations(problem, one_each)
    broken = cost.violations(problem, {**one_each, loads.decisions[0]: 3})
    assert [(v.need, v.have) for v in broken] == [(1, 4)]  # 4 entries, priced at 1


def test_a_queue_shared_in_send_order_compiles_and_matches(tmp_path: Path):
    """The lowering declares the five FIFOs with more entries between them than the queue
    holds, proves the sfu receives them in the order lx_load sends them, and the emulator
    holds them to the queue together: the outputs match the reference."""
    import spyre_sched
    from spyre_sched.lower.bundle import write_bundle

    device = _device(tmp_path, 4)
    schedule = api.compile(str(KERNEL), device=device)
    write_bundle(schedule, tmp_path / "bundle", kernel_path=str(KERNEL))
    program = (tmp_path / "bundle" / "local_schedule_0.mlir").read_text()
    depths = [int(d) for d in re.findall(
        r'dataflow.fifo @\w+ "lx_load" -> "sfu" \{depth = (\d+)', program)]
    assert len(depths) == 5 and sum(depths) > 4 and max(depths) <= 4
    result = spyre_sched.run(str(tmp_path / "bundle"), device=device, seed=1)
    assert result.matches, result.mismatches


def test_the_lowering_refuses_a_shared_queue_received_out_of_order(tmp_path: Path):
    """DataflowIR in, error out: the send-order proof on the program units as written
    (lower/fifo_order.py). Swapping two receives of the sfu breaks it; as written it
    holds."""
    from spyre_sched.dialects import dataflow as df
    from spyre_sched.lower.bundle import write_bundle
    from spyre_sched.lower.fifo_order import check_send_order

    device = _device(tmp_path, 4)
    write_bundle(api.compile(str(KERNEL), device=device), tmp_path / "b", kernel_path=str(KERNEL))
    text = (tmp_path / "b" / "local_schedule_0.mlir").read_text()
    group = [("lx_load", "sfu", [f"p0_f_{j}" for j in range(5)])]

    def units(source: str) -> list:
        module = Parser(make_context(), source).parse_module()
        return [op for op in module.walk() if isinstance(op, df.ProgramUnitOp)]

    check_send_order("p", units(text), group)
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if "dataflow.receive @p0_f_0" in line)
    second = next(i for i, line in enumerate(lines) if "dataflow.receive @p0_f_1" in line)
    lines[first], lines[second] = lines[second], lines[first]
    with pytest.raises(DeviceError) as err:
        check_send_order("p", units("\n".join(lines)), group)
    assert "receive them in the order they are sent" in str(err.value)
    assert "sent @p0_f_0, @p0_f_1" in str(err.value)
    assert "received @p0_f_1, @p0_f_0" in str(err.value)
    assert "in pass lower" in str(err.value)


def test_a_bad_depth_in_solved_scheduleir_is_a_located_error():
    from spyre_sched.lower.lowering import lower

    schedule = api.compile(str(KERNEL), device="spyre")
    text = schedule.schedule_ir
    assert "ktdf.depth" in text and "ktdf.vectors_per_instruction" in text
    for bad, words in (("0", "needs at least one entry"), ("17", "the datapath's queue holds 16")):
        wrong = re.sub(r"ktdf\.depth = \d+", f"ktdf.depth = {bad}", text)
        module = Parser(make_context(), wrong).parse_module()
        with pytest.raises(DeviceError) as err:
            lower(module)
        assert words in str(err.value)
        assert "in pass lower" in str(err.value)


@pytest.mark.slow  # two compiles and two emulations (~10 s of CPU)
def test_both_choices_match_under_the_emulator(tmp_path: Path):
    """The solver's chunk (the five FIFOs sharing the queue in send order) and the even
    split's held one, on a queue of 8: the lowering declares the chosen depths, the
    emulator holds the FIFOs to them (and to the queue together) and both give the
    reference's outputs."""
    import spyre_sched
    from spyre_sched.lower.bundle import write_bundle

    device = _device(tmp_path, 8)
    for pinned in ((), ("chunk", "fifo")):
        schedule = api.compile(str(KERNEL), device=device, pinned=pinned)
        decided = schedule.decisions[0]
        chunk = decided["chunks"]["p0.chunk"]
        # (the solver's chunk size moves with the cost model; its sharing does not)
        assert chunk.endswith("/8]") and " in send order [" in chunk if not pinned \
            else chunk == "1", chunk
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


def test_a_queue_shared_in_send_order_is_priced_as_one_stream():
    """Five FIFOs into the unit share a queue of 4 in send order (V = 6 for 4 entries,
    3 for one). One vector each: the first four are there, the fifth is placed when the
    unit takes the first and is visible 3 later. Four each: the first FIFO's chunk fills
    the queue; each later one is placed as the one before is taken, 6 cycles apart."""
    from spyre_sched.solve.extract import streamed_chunk_cycles

    hop = (128, 128, 2, True)
    store = (128, 128, 2, False)
    queues = (("in", 4),) * 5 + (("out", None),)
    assert streamed_chunk_cycles(1, [hop] * 5 + [store], (1,) * 6, queues) == 3
    assert streamed_chunk_cycles(4, [hop] * 5 + [store], (4,) * 6, queues) == 4 * 6
    # each FIFO with its own four entries: all placed during the compute
    assert streamed_chunk_cycles(4, [hop] * 5 + [store], (4,) * 6) == 0


def test_layernorm_chunk_follows_the_queue_depth(tmp_path: Path):
    """The quick LayerNorm's normalisation (five FIFOs into the sfu, received in the order
    they are sent): at depth 16 each holds a whole row of 8 vectors, the five sharing the
    queue in send order; at depth 4 rows stream through the shared queue, each FIFO
    given all of it (the emulated ranking of the chunks is in docs/solver.md)."""
    kernel = ROOT / "bench/kernels/quick/layernorm.mlir"
    chosen = {}
    for depth in (4, 16):
        module, _, _ = api.load_schedule_input(str(kernel), _device(tmp_path, depth))
        problem = extract(Parser(make_context(), api.print_ir(module)).parse_module()).problem
        solution = solve(problem)
        chosen[depth] = _label(problem, solution.choice, "p0.c3.chunk")
        assert problem.programs[0].fifo_splits[0].in_send_order
    assert chosen == {4: "8 streaming in send order [4/4/4/4/4/4]",
                      16: "8 in send order [8/8/8/8/8/16]"}


def test_explain_says_how_the_queue_is_given_out(tmp_path: Path):
    """`explain` words each depth by what the chosen chunk does with the queue: a queue
    whose FIFOs are given more than it holds is shared in send order."""
    from click.testing import CliRunner

    from spyre_sched.cli import main

    # (at 8 the model ties two and four vectors per FIFO: either is worded so)
    for depth, words in ((8, "of 8 entries is shared in send order by its 5 FIFOs, given "),
                         (32, "gives out 6+6+6+6+6 of 32 entries")):
        out = CliRunner().invoke(main, ["explain", str(KERNEL), "--device",
                                        _device(tmp_path, depth)])
        assert out.exit_code == 0, out.output
        assert words in out.output, out.output


def test_of_equal_cycles_the_tie_break_takes_the_least_scratchpad_then_the_most_vectors():
    """A DMA-bound add, whose vectors per instruction its FIFOs hide (one per instruction
    costs what eight do): of the schedules of its least cycles, the one of least
    scratchpad, and of those the most vectors per instruction. Each plain chunk of fewer
    vectors gives the same cycles (solved again with it fixed) and no less scratchpad."""
    problem = _problem("spyre", ROOT / "tests/emulator/kernels/add_4096.mlir")
    solution = solve(problem)

    chunk = problem.decision("p0.chunk")
    chosen = chunk.candidates[solution.choice["p0.chunk"]]
    assert chosen.label == "10 in send order [10/10/16]"
    assert chosen.value == max(c.value for c in chunk.candidates)
    # half the scratchpad of the first schedule CP-SAT finds at these cycles (1 MiB)
    assert cost.total_scratchpad(problem, solution.choice) == 528_384
    report = {r["decision"]: r["why"]
              for r in decision_report(problem, solution.choice, "latency", "solver")}
    assert "of fewer vectors (e.g. 1) give the same cycles and scratchpad: the tie-break " \
           "takes the most vectors per instruction" in report["p0.chunk"]
    # a deeper FIFO than the chunk is priced at breaks the pricing, said so
    assert report["p0.fifo0"].startswith("11 would break the binding constraint: FIFO "
                                          "p0.fifo0 holding a chunk of p0.chunk: priced at "
                                          "exactly 10 entries, has 11")
    for i, c in enumerate(chunk.candidates):
        if not c.streams and not c.in_send_order:
            fixed = solve(problem, fixed={"p0.chunk": i})
            assert fixed.cycles == solution.cycles, c.label
            assert cost.total_scratchpad(problem, fixed.choice) >= \
                cost.total_scratchpad(problem, solution.choice), c.label


def test_the_tie_break_takes_the_most_vectors_even_where_they_are_its_last_few_units():
    """The full-size bias add: every chunk candidate (its FIFOs' depths moved with it)
    gives the same cycles and scratchpad, so the tie-break's vectors decide. They are the
    last few units of a sum scaled by 133,120 bytes: at the cycles phase's relative gap
    (1e-4) CP-SAT stopped on two streaming vectors per instruction (four times the
    instructions of ten; the emulator ran the kernel 4x slower)."""
    problem = _problem("spyre", ROOT / "bench/kernels/bias_add.mlir")
    solution = solve(problem)
    chunk = problem.decision("p0.chunk")
    chosen = chunk.candidates[solution.choice["p0.chunk"]]
    key = (solution.cycles, cost.total_scratchpad(problem, solution.choice))
    for i, c in enumerate(chunk.candidates):
        trial = {**solution.choice, "p0.chunk": i, **problem.chunk_depths("p0.chunk", i)}
        if not cost.feasible(problem, trial):
            continue
        if (cost.kernel_cycles(problem, trial), cost.total_scratchpad(problem, trial)) <= key:
            assert c.value <= chosen.value, (c.label, chosen.label)
    assert chosen.value == max(c.value for c in chunk.candidates)
    # the trace says how the tie-break went, and its time counts in the solve's
    stats = solution.stats
    assert [t.status for t in stats.tie_breaks] == ["OPTIMAL"] and not stats.polished
    assert stats.wall_time == pytest.approx(sum(p.wall_time for p in stats.phases)
                                            + stats.tie_breaks[0].wall_time)
    text = render_trace(build_trace(solution))
    assert "  tie-break, scratchpad bytes, then vectors per instruction, at the least " \
           "cycles: OPTIMAL, " in text, text
    assert "polished" not in text


def test_each_programs_own_tie_break_takes_the_most_vectors_too():
    """Two independent full-size bias adds: the programs' own optima add up to the
    kernel's, so each program's tie-break is solved alone (`part_bounds.fewest_bytes`).
    There too the vectors are the last units of a sum scaled by bytes: at the cycles
    phase's relative gap both programs kept one vector per instruction."""
    problem = _problem("spyre", ROOT / "tests/solve/kernels/two_bias_adds.mlir")
    solution = solve(problem)
    assert solution.stats.phases[0].found_by == "programs"
    for name in ("p0.chunk", "p1.chunk"):
        chunk = problem.decision(name)
        assert chunk.candidates[solution.choice[name]].value == \
            max(c.value for c in chunk.candidates), name


def test_the_memory_objective_takes_the_most_vectors_of_equal_peak_and_cycles():
    """The memory objective's tie-break: of the schedules of least peak and then least
    cycles, the most vectors per instruction (the full-size bias add: eight held where
    ten stream at the same figures; softmax, whose tie-break stops on its budget: the
    polish moves its second program from eight vectors to ten)."""
    for name in ("bias_add", "softmax"):
        problem = _problem("spyre", ROOT / "bench" / "kernels" / f"{name}.mlir")
        solution = solve(problem, "memory")
        key = (cost.peak_scratchpad(problem, solution.choice), solution.cycles)
        for d in problem.decisions:
            if d.kind != "chunk":
                continue
            chosen = d.candidates[solution.choice[d.name]]
            for i, c in enumerate(d.candidates):
                trial = {**solution.choice, d.name: i, **problem.chunk_depths(d.name, i)}
                if c.value > chosen.value and cost.feasible(problem, trial):
                    assert (cost.peak_scratchpad(problem, trial),
                            cost.kernel_cycles(problem, trial)) > key, (name, d.name, c.label)


def test_the_memory_objective_takes_the_least_scratchpad_of_equal_peak_and_cycles():
    """Of the schedules of least peak and then least cycles, the memory objective takes
    the least scratchpad over every program: softmax's last program is below the peak
    (the statistics program sets it) and held two copies of its tile where one gives the
    same peak and cycles. No decision moved alone keeps both and lowers the total."""
    problem = _problem("spyre", ROOT / "examples" / "softmax_rows.mlir")
    solution = solve(problem, "memory")
    peak = cost.peak_scratchpad(problem, solution.choice)
    total = cost.total_scratchpad(problem, solution.choice)
    below = [p for p in problem.programs
             if cost.program_scratchpad(problem, p, solution.choice) < peak]
    assert below, "the test needs a program below the peak"
    for d in problem.decisions:
        for i in range(len(d.candidates)):
            trial = {**solution.choice, d.name: i}
            if d.kind == "chunk":
                trial.update(problem.chunk_depths(d.name, i))
            if not cost.feasible(problem, trial) or \
                    cost.peak_scratchpad(problem, trial) != peak or \
                    cost.kernel_cycles(problem, trial) != solution.cycles:
                continue
            assert cost.total_scratchpad(problem, trial) >= total, (d.name, d.candidates[i].label)


def test_the_tie_break_polish_moves_a_chunk_with_its_fifo_depths():
    """`descend` (the polish of a tie-break stopped on its budget) from the bias add's
    schedule at two streaming vectors: a chunk moved alone leaves its FIFOs at the depths
    of the old one (infeasible), so it moves them with it and reaches the most vectors
    at the same cycles."""
    problem = _problem("spyre", ROOT / "bench/kernels/bias_add.mlir")
    solution = solve(problem)
    chunk = problem.decision("p0.chunk")
    two = next(i for i, c in enumerate(chunk.candidates) if c.label == "2 streaming [1/1/2]")
    start = {**solution.choice, "p0.chunk": two, **problem.chunk_depths("p0.chunk", two)}
    assert cost.feasible(problem, start) and cost.kernel_cycles(problem, start) == solution.cycles

    polished = descend(problem, start, TIE_BREAK)
    assert cost.feasible(problem, polished)
    assert cost.kernel_cycles(problem, polished) == solution.cycles
    assert chunk.candidates[polished["p0.chunk"]].value == max(c.value for c in chunk.candidates)


def test_a_tie_break_stopped_on_its_budget_leaves_no_one_decision_saving():
    """The full-size rmsnorm and layernorm, whose tie-breaks stop on their budget: no
    single decision moved alone (a chunk with its FIFOs' depths) keeps the kernel's cycles
    and takes less scratchpad (the polish under the exact cost model, `solver.descend`
    with `TIE_BREAK`). Before it,
    rmsnorm kept modulo 6 or 8 where 5 ties and layernorm 100.4 KiB where 80.4 tie."""
    for name, least in (("rmsnorm", 77_952), ("layernorm", 82_304)):
        problem = _problem("spyre", ROOT / "bench" / "kernels" / f"{name}.mlir")
        solution = solve(problem)

        mine = cost.total_scratchpad(problem, solution.choice)
        assert mine <= least, (name, mine)
        assert solution.stats.polished and solution.stats.tie_breaks[0].status == "FEASIBLE"
        assert "the tie-break's schedule polished one decision at a time" in \
            render_trace(build_trace(solution))
        for d in problem.decisions:
            for i in range(len(d.candidates)):
                trial = {**solution.choice, d.name: i}
                if d.kind == "chunk":  # (its FIFOs' depths move with it)
                    trial.update(problem.chunk_depths(d.name, i))
                if i == solution.choice[d.name] or not cost.feasible(problem, trial):
                    continue
                if cost.kernel_cycles(problem, trial) <= solution.cycles:
                    assert cost.total_scratchpad(problem, trial) >= mine, (
                        name, d.name, d.candidates[i])
