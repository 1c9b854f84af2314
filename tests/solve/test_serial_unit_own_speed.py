"""A unit that waits for its own work (`cost.unit_waits`) is paced by its stages at their
own speed plus its waits; device memory's share of every core bounds the whole run
instead. The LLM-sized FFN with its hidden activations held (bench/kernels/large/ffn.mlir,
32 cores): in its fused gate/up tile pipeline each core's DMA unit loads X and Wg, waits
for the gate matmul's token, then loads X and Wu. With every core's share of device
memory counted in that unit's own wait, the schedule was predicted 20.6% slow (1,056,036
cycles against 875,301 emulated); the other cores use the memory while one waits."""

from __future__ import annotations

from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
FFN = ROOT / "bench" / "kernels" / "large" / "ffn.mlir"


def test_the_held_ffn_is_priced_near_its_emulated_cycles(tmp_path: Path) -> None:
    from emulator.runtime import Runtime
    from spyre_sched.api import compile as compile_kernel
    from spyre_sched.lower.bundle import write_bundle
    from spyre_sched.solve import cost

    schedule = compile_kernel(str(FFN), in_memory=False)
    problem, choice = schedule.solution.problem, schedule.solution.choice
    assert any(cost.unit_waits(p) for prog in problem.programs for p in _pipelines(prog))
    bundle = write_bundle(schedule, tmp_path / "b")
    runtime = Runtime("spyre")
    prepared = runtime.prepare(bundle)
    rng = np.random.default_rng(1)
    shapes = {"X": (2048, 512), "Wg": (512, 1024), "Wu": (512, 1024), "Wd": (1024, 512)}
    args = {name: rng.uniform(-0.5, 0.5, shape).astype(np.float16)
            for name, shape in shapes.items()}
    args["Y"] = runtime.allocate((2048, 512), "f16")
    launched = runtime.launch(prepared, args)
    assert abs(cost.kernel_cycles(problem, choice) / launched.cycles - 1) <= 0.05, (
        cost.kernel_cycles(problem, choice), launched.cycles)


def _pipelines(program):
    work = list(program.pipelines)
    while work:
        p = work.pop()
        yield p
        work.extend(w for st in p.stages for w in st.work if hasattr(w, "stages"))
