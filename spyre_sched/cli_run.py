"""`spyre-sched run KERNEL.mlir|BUNDLE_DIR`: compile (or take a bundle), emulate, compare
with the reference interpreter, report; exit 0 when the outputs match, 1 when not."""

from __future__ import annotations

import json
import sys

import click

from spyre_sched.cli_solve import allow_races_option


def register(main, reports_errors, parse_runtime_args) -> None:
    @main.command("run")
    @click.argument("source", type=click.Path(exists=True))
    @click.option("--device", default=None, metavar="NAME|PATH",
                  help="Device description (default: the bundle's, or spyre for a kernel).")
    @click.option("--objective", type=click.Choice(["latency", "memory"]), default="latency",
                  show_default=True, help="What the solver minimises (kernel input only).")
    @click.option("--strategy", type=click.Choice(["solver", "heuristic"]), default="solver",
                  show_default=True, help="How decisions are taken (kernel input only).")
    @click.option("--inputs", "inputs_path", type=click.Path(dir_okay=False),
                  help=".npz of inputs keyed by the kernel's argument names; missing ones are "
                  "seeded random.")
    @click.option("--save-outputs", "outputs_path", type=click.Path(dir_okay=False),
                  help="Write the emulated outputs to this .npz file.")
    @click.option("--runtime-arg", "runtime_args", multiple=True, metavar="NAME=VALUE",
                  help="Value of a run-time (or scalar) argument; repeatable.")
    @click.option("--seed", default=0, show_default=True, type=int,
                  help="Seed of the random inputs.")
    @click.option("--trace", "trace_path", type=click.Path(dir_okay=False),
                  help="Write a Chrome/Perfetto trace-event JSON of the launch.")
    @click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
    @allow_races_option
    @reports_errors
    def run_command(source, device, objective, strategy, inputs_path, outputs_path,
                    runtime_args, seed, trace_path, as_json, allow_races):
        """Emulate SOURCE (a kernel, compiled first, or a bundle folder as it is) and compare
        its outputs with the KTIR reference interpreter on the same inputs."""
        import numpy as np

        from spyre_sched.emulate import report, run
        from spyre_sched.errors import ExecutionError

        inputs = {}
        if inputs_path:
            try:
                with np.load(inputs_path, allow_pickle=False) as data:
                    inputs = {key: data[key] for key in data.files}
            except (OSError, ValueError) as err:
                raise ExecutionError(f"cannot read inputs: {err}", inputs_path) from None
        result = run(source, inputs, device=device, objective=objective, strategy=strategy,
                     runtime_args=parse_runtime_args(runtime_args), seed=seed, trace=trace_path,
                     allow_races=allow_races)
        if outputs_path:
            try:
                np.savez(outputs_path, **result.outputs)
            except OSError as err:
                raise ExecutionError(f"cannot write outputs: {err.strerror}", outputs_path) from None
        if as_json:
            click.echo(json.dumps(result.as_dict(), indent=2, sort_keys=True, default=float))
        else:
            click.echo(report(result))
        sys.exit(0 if result.matches else 1)
