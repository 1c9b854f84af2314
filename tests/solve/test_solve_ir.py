"""The solver on real ScheduleIR: extraction, write-back the lowering accepts, the API,
the CLI, edge cases on shrunken scratchpads, determinism, every example on both devices."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from xdsl.parser import Parser

from spyre_sched import api
from spyre_sched.cli import main
from spyre_sched.dialects import ktdf
from spyre_sched.dialects.registry import make_context
from spyre_sched.solve import cost
from spyre_sched.solve.brute_force import brute_force, combinations
from spyre_sched.solve.extract import extract
from spyre_sched.solve.heuristic import heuristic, v1_choice
from spyre_sched.solve.problem import InfeasibleError
from spyre_sched.solve.solver import solve
from tests.example_device_matrix import example_device_params

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests/schedule/fixtures/add_96x64.ktdf.mlir"
EXAMPLES = sorted((ROOT / "examples").glob("*.mlir"))
#: examples whose tiles read the scratchpads of other cores (inter-tile exchanges)
READS_OTHER_CORES = {e.name for e in EXAMPLES if "ktdp.inter_tile_" in e.read_text()}


def _parse(text: str):
    return Parser(make_context(), text).parse_module()


@functools.cache
def _open_ir(example: str, device: str) -> str:
    module, _, _ = api.load_schedule_input(str(ROOT / "examples" / example), device)
    return api.print_ir(module)


def _device_with_lx(tmp_path: Path, size: int) -> str:
    text = (ROOT / "devices/spyre.mlir").read_text()
    old = '#LX = {kind = "LX", size = 2097152}'
    assert old in text
    path = tmp_path / f"spyre_lx{size}.mlir"
    path.write_text(text.replace(old, f'#LX = {{kind = "LX", size = {size}}}'))
    return str(path)


def _fixture_on(device: str) -> str:
    return FIXTURE.read_text().replace('ktdf.device = "spyre"', f'ktdf.device = "{device}"')


def test_extract_reads_the_adds_decisions_pipelines_and_footprints():
    ex = extract(_parse(FIXTURE.read_text()))
    p = ex.problem
    cands = {d.name: [c.value for c in d.candidates] for d in p.decisions}
    assert cands == {"p0.tile.lx.d0": [1, 2, 3], "p0.tile.lx.d1": [64],
                     "p0.pipe.lx.modulo": list(range(1, 9)),
                     "p0.distribute.d0": [1, 2], "p0.distribute.d1": [1, 2]}
    assert p.scratchpad_bytes == 2 * 1024 * 1024 and p.pinned_bytes == 0 and p.corelets == 2
    (prog,) = p.programs
    assert [b.role for b in prog.buffers] == ["input", "input", "output"]
    # each buffer holds T0 x T1 f16 elements, counted by the polyhedral layer
    for b in prog.buffers:
        for t0 in range(3):
            assert b.bytes.at({"p0.tile.lx.d0": t0, "p0.tile.lx.d1": 0}) == (t0 + 1) * 64 * 2
        assert b.modulo == "p0.pipe.lx.modulo"
    (limit,) = prog.instance_limits
    assert limit.decisions == ("p0.distribute.d0", "p0.distribute.d1") and limit.available == 2
    (outer,) = prog.pipelines
    dma_in = outer.stages[0].work
    assert [t.bandwidth for t in dma_in] == [128, 128] and dma_in[0].shared_bandwidth == 150
    assert dma_in[0].sharers == 32 and dma_in[0].latency == 320


def test_write_back_gives_solved_ir_that_the_lowering_accepts(tmp_path):
    schedule = api.compile(str(FIXTURE))
    module = _parse(schedule.schedule_ir)
    ktdf.verify_solved(module)
    ops = ktdf.decision_ops(module)
    for name, value in schedule.values.items():
        assert ktdf.decision_value(ops[name]) == value
    from spyre_sched.lower.bundle import write_bundle

    out = write_bundle(schedule, tmp_path / "bundle", kernel_path=ROOT / "examples/add_96x64.mlir")
    assert (Path(out) / "schedule.json").exists()


def test_compile_api_returns_plain_data():
    import spyre_sched

    s = spyre_sched.compile(str(ROOT / "examples/add_96x64.mlir"), device="spyre")
    (p0,) = s.decisions
    assert set(p0) == {"program", "name", "tiles", "modulo", "instances"}
    assert p0["tiles"]["p0.tile.lx.d1"] == 64
    assert s.trace["status"] == "OPTIMAL" and s.trace["gap"] == 0
    # CP-SAT's objective is the plain-Python cost of what it chose
    assert int(s.trace["objective_value"]) == s.predicted_cycles
    assert s.trace["predicted_cycles"] == s.predicted_cycles
    assert s.scratchpad_bytes == s.trace["scratchpad_bytes"] > 0
    json.dumps(s.trace)


def test_same_kernel_same_solved_ir_byte_for_byte():
    a = api.compile(str(FIXTURE))
    b = api.compile(str(FIXTURE))
    assert a.schedule_ir == b.schedule_ir and a.decisions == b.decisions
    c = api.compile(str(FIXTURE), workers=2)
    d = api.compile(str(FIXTURE), workers=2)
    assert c.schedule_ir == d.schedule_ir


def test_add_only_fits_single_buffered_on_a_small_scratchpad(tmp_path):
    s = api.compile(_fixture_on(_device_with_lx(tmp_path, 400)))
    assert s.values["p0.pipe.lx.modulo"] == 1 and s.values["p0.tile.lx.d0"] == 1
    assert s.scratchpad_bytes == 384
    why = {d["decision"]: d["why"] for d in s.trace["programs"][0]["decisions"]}
    assert "binding constraint: scratchpad of program 0: needs 768 B" in \
        why["p0.pipe.lx.modulo"]


def test_add_that_fits_nothing_is_explained(tmp_path):
    with pytest.raises(InfeasibleError) as err:
        api.compile(_fixture_on(_device_with_lx(tmp_path, 300)))
    assert str(err.value).endswith(
        "buffers of program 0 (local_schedule_0) need 768 B with double buffering at the "
        "smallest tiles; scratchpad holds 300 B; even single-buffered the smallest tiles "
        "need 384 B")
    src = tmp_path / "add_small.ktdf.mlir"
    src.write_text(_fixture_on(_device_with_lx(tmp_path, 300)))
    result = CliRunner().invoke(main, ["explain", str(src)])
    assert result.exit_code == 1
    assert "no schedule fits" in result.output and "Traceback" not in result.output


def test_pinned_ct_local_tensors_eat_scratchpad(tmp_path):
    free = api.compile(str(ROOT / "examples/softmax_rows.mlir"))
    pinned = free.trace["pinned"][0]["bytes"]
    assert pinned > 2000  # softmax pins E, M and S in each tile's scratchpad
    tight = api.compile(str(ROOT / "examples/softmax_rows.mlir"), _device_with_lx(tmp_path, 3000))
    assert free.scratchpad_bytes > 3000 >= tight.scratchpad_bytes > pinned
    assert tight.predicted_cycles > free.predicted_cycles


def test_memory_objective_picks_a_smaller_footprint_on_a_kernel():
    fast = api.compile(str(ROOT / "examples/add_96x64.mlir"), objective="latency")
    small = api.compile(str(ROOT / "examples/add_96x64.mlir"), objective="memory")
    assert small.scratchpad_bytes < fast.scratchpad_bytes
    assert small.predicted_cycles > fast.predicted_cycles


def test_heuristic_applies_the_v1_rules_to_the_add():
    p = extract(_parse(FIXTURE.read_text())).problem
    values = {k: p.decision(k).candidates[i].value for k, i in v1_choice(p).items()}
    # 3 rows (odd): 1 row; the stick dim's minimum is 64 (one vector): 64; modulo 2. V1
    # parallelises before it sizes tiles, so the point loops' trip counts are dynamic to
    # it: no static loop qualifies and the first dynamic one (rows) gets the 2 corelets
    assert values == {"p0.tile.lx.d0": 1, "p0.tile.lx.d1": 64, "p0.pipe.lx.modulo": 2,
                      "p0.distribute.d0": 2, "p0.distribute.d1": 1}
    s = api.compile(str(FIXTURE), strategy="heuristic")
    assert s.values == values and s.trace["solver"] is None


@pytest.mark.parametrize("example,device", example_device_params(
    [e.name for e in EXAMPLES], ["spyre", "sample_device"]))
def test_every_example_solves_optimally_and_beats_or_ties_the_heuristic(example, device):
    if device != "spyre" and example in READS_OTHER_CORES:
        pytest.skip("reads the scratchpads of cores the one-core device does not have")
    problem = extract(_parse(_open_ir(example, device))).problem
    s = solve(problem)
    assert s.stats.status == "OPTIMAL" and s.stats.gap == 0
    assert int(s.stats.phases[-1].objective) == cost.kernel_cycles(problem, s.choice)
    h = heuristic(problem)
    assert s.cycles <= h.cycles
    if combinations(problem) <= 5000:  # small kernels: brute force agrees
        assert brute_force(problem)[1] == (s.cycles,)


def test_cli_compile_emits_solved_ir_trace_and_log(tmp_path):
    trace, log = tmp_path / "trace.json", tmp_path / "cpsat.log"
    result = CliRunner().invoke(main, ["compile", str(ROOT / "examples/add_96x64.mlir"),
                                       "--emit", "solved", "--solver-trace", str(trace),
                                       "--solver-log", str(log), "--objective", "memory"])
    assert result.exit_code == 0, result.output
    assert "modulo(size: 1" in result.output and "?" not in result.output.split("func.func")[2]
    data = json.loads(trace.read_text())
    assert data["objective"] == "memory" and data["status"] == "OPTIMAL"
    assert "CP-SAT" in log.read_text()


def test_cli_explain_prints_decisions_reasons_and_solver_figures():
    result = CliRunner().invoke(main, ["explain", str(ROOT / "examples/add_96x64.mlir"),
                                       "--time-limit", "10"])
    assert result.exit_code == 0, result.output
    out = result.output
    for text in ("p0.tile.lx.d0 =", "candidates [1, 2, 3]", "why:", "pipeline p0.pipe.lx:",
                 "stage p0.pipe.lx.s0 on dma_load", "CP-SAT: OPTIMAL", "branches", "conflicts"):
        assert text in out


def test_solved_schedule_ir_is_solved_again_to_the_same_values():
    first = api.compile(str(FIXTURE))
    again = api.compile(first.schedule_ir)
    assert again.values == first.values and again.schedule_ir == first.schedule_ir
    memory = api.compile(first.schedule_ir, objective="memory")
    assert memory.scratchpad_bytes < first.scratchpad_bytes


def test_ir_the_solver_cannot_read_is_a_located_error(tmp_path):
    # the row tile loop runs to a kernel argument: not a function of the decisions
    text, n = re.subn(r"(scf\.for %\w+ = %\w+ to )%\w+( step %T0)", r"\1%A\2",
                      FIXTURE.read_text(), count=1)
    assert n == 1
    src = tmp_path / "bad.ktdf.mlir"
    src.write_text(text)
    result = CliRunner().invoke(main, ["explain", str(src)])
    assert result.exit_code == 1, result.output
    assert "op scf.for in pass solve" in result.output and "loop bound" in result.output
    assert "Traceback" not in result.output
