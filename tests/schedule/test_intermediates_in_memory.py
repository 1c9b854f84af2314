"""A kernel whose program cannot hold an intermediate that a later compute reads along its
reduction is scheduled again with that intermediate in device memory (a workspace the
runtime allocates): compiled, emulated, equal to the reference and to numpy; refused with
both reasons when that does not fit either, and nothing written."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from spyre_sched.errors import SpyreSchedError

ROOT = Path(__file__).resolve().parents[2]
KERNEL = ROOT / "tests" / "schedule" / "kernels" / "ffn_hidden_too_wide.mlir"
SMALL = str(ROOT / "tests" / "solve" / "devices" / "spyre_128k_lx.mlir")
TINY = str(ROOT / "tests" / "reductions" / "devices" / "small_lx.mlir")


def _ffn(x: np.ndarray, wg: np.ndarray, wu: np.ndarray, wd: np.ndarray) -> np.ndarray:
    f32 = np.float32
    gate = x.astype(f32) @ wg.astype(f32)
    up = x.astype(f32) @ wu.astype(f32)
    h = (gate / (1 + np.exp(-gate)) * up).astype(np.float16)
    return (h.astype(f32) @ wd.astype(f32)).astype(np.float16)


def test_the_hidden_activations_go_through_a_workspace(tmp_path: Path) -> None:
    import spyre_sched
    from emulator.runtime import Runtime
    from spyre_sched.api import compile as compile_kernel
    from spyre_sched.frontend.kernel import load_kernel
    from spyre_sched.lower.bundle import write_bundle
    from spyre_sched.pipeline import SCHEDULE_STEPS, schedule
    from spyre_sched.schedule.intermediates_in_memory import IntermediatesInMemory

    # as written it does not fit: the first attempt alone is refused
    with pytest.raises(SpyreSchedError, match="needs .* bytes of LX"):
        schedule(load_kernel(KERNEL), SMALL,
                 steps=[s for s in SCHEDULE_STEPS if not isinstance(s, IntermediatesInMemory)])
    bundle = write_bundle(compile_kernel(str(KERNEL), device=SMALL), tmp_path / "b")
    plan = json.loads((bundle / "jobplan.json").read_text())
    assert plan["arguments"][-1] == {"name": "h_in_memory", "kind": "pointer",
                                     "element_type": "f16", "shape": [256, 256],
                                     "role": "workspace"}
    launched = [s["program"] for s in plan["execute"] if s["step"] == "launch"]
    assert launched == ["local_schedule_0", "local_schedule_1"]

    rng = np.random.default_rng(5)
    inputs = {"X": rng.uniform(-1, 1, (256, 128)), "Wg": rng.uniform(-0.2, 0.2, (128, 256)),
              "Wu": rng.uniform(-0.2, 0.2, (128, 256)), "Wd": rng.uniform(-0.2, 0.2, (256, 128))}
    inputs = {k: v.astype(np.float16) for k, v in inputs.items()}
    result = spyre_sched.run(str(bundle), inputs)
    assert result.matches, result.mismatches
    assert set(result.outputs) == {"Y"}  # the workspace is not read back
    want = _ffn(inputs["X"], inputs["Wg"], inputs["Wu"], inputs["Wd"])
    close = np.isclose(result.outputs["Y"].astype(np.float32), want.astype(np.float32),
                       rtol=2e-2, atol=2e-2)
    assert close.mean() > 0.99

    # a runtime launched without the workspace allocates it itself
    runtime = Runtime(SMALL)
    prepared = runtime.prepare(bundle)
    y = runtime.allocate((256, 128), "f16")
    launch = runtime.launch(prepared, {**inputs, "Y": y})
    assert launch.cycles == result.cycles
    assert np.array_equal(launch.outputs["Y"], result.outputs["Y"])


def test_refused_with_both_reasons_when_device_memory_does_not_help(tmp_path: Path) -> None:
    """On 16 KiB (and 8 KiB) of scratchpad the first program fits with Wg and Wu streamed
    in K chunks beside X's row tile (stream-k-chunks); on 4 KiB nothing does."""
    from click.testing import CliRunner

    from spyre_sched.cli import main

    device = tmp_path / "lx_4k.mlir"
    text = Path(TINY).read_text()
    assert "size = 16384}" in text
    device.write_text(text.replace("size = 16384}", "size = 4096}"))
    out = tmp_path / "out"
    done = CliRunner().invoke(main, ["compile", str(KERNEL), "--device", str(device),
                                     "-o", str(out)])
    assert done.exit_code == 1
    assert "in pass footprints" in done.output and "with %h in device memory: program 0 needs" \
        in done.output, done.output
    assert "Traceback" not in done.output
    assert not out.exists()


def test_the_solver_keeps_the_faster_of_the_two_forms(tmp_path: Path) -> None:
    """A kernel that fits both ways: the solver strategy solves both and keeps H in device
    memory, predicted and emulated faster than the schedule that holds it; both MATCH."""
    import spyre_sched
    from spyre_sched.api import compile as compile_kernel
    from spyre_sched.lower.bundle import write_bundle

    kernel = str(ROOT / "tests" / "schedule" / "kernels" / "ffn_hidden_faster_in_memory.mlir")
    chosen = compile_kernel(kernel, device=SMALL)
    held = compile_kernel(kernel, device=SMALL, in_memory=False)
    assert [n for n in chosen.solution.notes if n.startswith("%h: held in the scratchpad")
            and n.endswith(": through device memory")]
    assert chosen.solution.cycles < held.solution.cycles
    runs = {}
    for name, schedule in (("chosen", chosen), ("held", held)):
        bundle = write_bundle(schedule, tmp_path / name)
        roles = [a["role"] for a in json.loads((bundle / "jobplan.json").read_text())["arguments"]]
        assert ("workspace" in roles) == (name == "chosen")
        runs[name] = spyre_sched.run(str(bundle))
        assert runs[name].matches, runs[name].mismatches
    assert runs["chosen"].cycles < runs["held"].cycles
    # the heuristic (V1) has no such choice: it holds H
    v1 = compile_kernel(kernel, device=SMALL, strategy="heuristic")
    assert not v1.solution.notes and "h_in_memory" not in v1.schedule_ir


def test_compile_says_what_device_memory_the_workspace_takes(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from spyre_sched.cli import main

    out = tmp_path / "out"
    done = CliRunner().invoke(main, ["compile", str(KERNEL), "--device", SMALL, "-o", str(out)])
    assert done.exit_code == 0, done.output
    assert "; workspace %h_in_memory [256, 256] f16 in device memory" in done.output


def test_saved_schedule_ir_is_solved_in_the_form_it_was_saved_in(tmp_path: Path) -> None:
    """ScheduleIR saved by `compile --emit ktdf` holds one form (the KTIR it came from is not
    there to schedule the other): it is solved as it is, with no comparison in the trace."""
    from spyre_sched.api import compile as compile_kernel, print_ir
    from spyre_sched.api import load_schedule_input

    kernel = str(ROOT / "tests" / "schedule" / "kernels" / "ffn_hidden_faster_in_memory.mlir")
    module, _, _ = load_schedule_input(kernel, SMALL)
    saved = tmp_path / "ffn.ktdf.mlir"
    saved.write_text(print_ir(module))
    schedule = compile_kernel(str(saved), device=SMALL)
    assert not [n for n in schedule.solution.notes if "through device memory" in n]
    assert "h_in_memory" not in schedule.schedule_ir
