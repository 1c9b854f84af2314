"""`spyre-sched bench`: the benchmark suite through the whole pipeline, against the roofline
bound and the heuristic baseline (docs/benchmarks.md)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from spyre_sched.device.load import DEFAULT_DEVICE


def register(main: click.Group, reports_errors) -> None:
    @main.command("bench")
    @click.option("--device", default=DEFAULT_DEVICE, show_default=True, metavar="NAME|PATH",
                  help="Device description: a shipped name or a ktdf_arch .mlir path.")
    @click.option("--json", "json_path", type=click.Path(dir_okay=False), default=None,
                  help="Write every figure as JSON to this file.")
    @click.option("--quick", is_flag=True,
                  help="Small shapes (bench/kernels/quick/): seconds instead of minutes.")
    @click.option("--large", is_flag=True,
                  help="LLM-sized shapes instead (bench/kernels/large/: the 4096^3 matmul and "
                  "an FFN over 2048 tokens): minutes to tens of minutes per schedule; use with "
                  "--random 0 --no-split.")
    @click.option("--jobs", type=click.IntRange(1), default=None,
                  help="Kernels measured in parallel (default: the machine's cores).")
    @click.option("--plot", "plot_path", type=click.Path(dir_okay=False), default=None,
                  help="Draw emulated cycles vs the bound per kernel to an SVG "
                  "(needs matplotlib: pip install -e \".[plot]\").")
    @click.option("--kernel", "only", multiple=True, metavar="NAME",
                  help="Only this suite kernel (repeatable); default: all.")
    @click.option("--seed", default=0, show_default=True, type=int,
                  help="Seed of the random inputs.")
    @click.option("--split/--no-split", default=True, show_default=True,
                  help="Split each speedup by decision kind: solve again with tiles, "
                  "buffering, instances, residency, sharing, FIFOs (chunk and depths) and the "
                  "tile loops' order each pinned to the "
                  "V1 baseline's.")
    @click.option("--random", "random_schedules", type=click.IntRange(0), default=8,
                  show_default=True, metavar="N",
                  help="Also emulate N random feasible schedules per kernel (model error "
                  "on schedules nobody optimised).")
    @click.option("--kernel-file", "extra", multiple=True, metavar="PATH",
                  type=click.Path(exists=True, dir_okay=False),
                  help="Also measure this kernel (repeatable); reported as held out from "
                  "the cost model's calibration, which used the suite's kernels (the "
                  "whole suite brings bench/kernels/[quick/]heldout/ too).")
    @reports_errors
    def bench(device: str, json_path: str | None, quick: bool, large: bool, jobs: int | None,
              plot_path: str | None, only: tuple[str, ...], seed: int, split: bool,
              random_schedules: int, extra: tuple[str, ...]) -> None:
        """Measure the suite: solver, V1 heuristic and V1+keep schedules, emulated and
        checked, against the roofline bound (kernel-wide and summed over programs); the
        speedup split by decision kind and the model error on every schedule. Ends with a
        summary line; exits 1 if any result is wrong."""
        from spyre_sched.bench import KernelJob, measure_kernel, report, suite_kernels
        from spyre_sched.bench.summary import table
        from spyre_sched.device import load_device
        from spyre_sched.parallel import default_jobs, map_jobs

        from spyre_sched.bench.measure import pipeline_available
        from spyre_sched.bench.suite import held_out_kernels

        # Bad input or a missing pipeline stage fails here, before any worker starts.
        target = load_device(device)
        if quick and large:
            raise click.UsageError("--quick and --large choose different shapes: give one")
        files = suite_kernels(quick, only, large) if only or not extra else []
        # the kernels held out from calibration come with the whole (regular) suite
        held_out = [] if only or extra or large else held_out_kernels(quick)
        pipeline_available()
        workers = jobs or default_jobs()
        jobs_list = [KernelJob(str(f), device, seed, split=split, random=random_schedules)
                     for f in files]
        jobs_list += [KernelJob(str(f), device, seed, split=split, random=random_schedules,
                                calibration=False) for f in (*held_out, *extra)]
        entries = map_jobs(measure_kernel, jobs_list, jobs=workers,
                           label=f"bench on {target.name}")
        doc = report(target.name, entries, quick=quick, jobs=workers)
        click.echo(table(doc))
        if json_path:
            Path(json_path).write_text(json.dumps(doc, indent=2, sort_keys=False) + "\n")
            click.echo(f"wrote {json_path}")
        if plot_path:
            from spyre_sched.bench.plot import write_plot

            click.echo(f"wrote {write_plot(doc, plot_path)}")
        if not all(k["correct"] for k in doc["kernels"]):
            raise SystemExit(1)
