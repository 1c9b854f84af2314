"""`spyre-sched run KERNEL.mlir|BUNDLE_DIR`: compile (or take a bundle), emulate, compare
with the reference interpreter, report; exit 0 when the outputs match, 1 when not."""

from __future__ import annotations

import json
import sys

import click

from spyre_sched.cli_solve import allow_races_option, func_option
from spyre_sched.cli_split import split_input_file_option


def register(main, reports_errors, parse_runtime_args, read_inputs, parse_size) -> None:
    @main.command("run")
    @click.argument("source", type=click.Path(exists=True))
    @click.option("--device", default=None, metavar="NAME|PATH",
                  help="Device description (default: the bundle's, or spyre for a kernel).")
    @click.option("--objective", type=click.Choice(["latency", "memory"]), default="latency",
                  show_default=True, help="What the solver minimises (kernel input only).")
    @click.option("--strategy", type=click.Choice(["solver", "heuristic", "heuristic+keep"]), default="solver",
                  show_default=True, help="How decisions are taken (kernel input only).")
    @click.option("--inputs", "inputs_path", type=click.Path(dir_okay=False),
                  help=".npz of inputs keyed by the kernel's argument names; missing ones are "
                  "seeded random.")
    @click.option("--save-outputs", "outputs_path", type=click.Path(dir_okay=False),
                  help="Write the emulated outputs to this .npz file.")
    @click.option("--arg", "--runtime-arg", "runtime_args", multiple=True, metavar="NAME=VALUE",
                  help="Value of a scalar argument (folded when the kernel is compiled) or "
                  "of a run-time argument; repeatable. --runtime-arg is an alias.")
    @click.option("--seed", default=0, show_default=True, type=int,
                  help="Seed of the random inputs.")
    @click.option("--trace", "trace_path", type=click.Path(dir_okay=False),
                  help="Write a Chrome/Perfetto trace-event JSON of the launch.")
    @click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
    @click.option("--memory-cap", "memory_cap", default="4GiB", show_default=True,
                  metavar="SIZE",
                  help="Refuse, before allocating, a run whose emulated memories (or the "
                  "reference's simulated memory) would take more host memory than SIZE "
                  "(bytes, or with K/M/G/T or KiB/MiB/GiB/TiB).")
    @click.option("--max-cycles", "max_cycles", type=click.IntRange(min=1), default=None,
                  metavar="N", help="Stop the emulation once the launch passes N device "
                  "cycles (default 2**40).")
    @click.option("--max-seconds", "max_seconds", type=click.FloatRange(min=0, min_open=True),
                  default=60.0, show_default=True, metavar="S",
                  help="Stop the emulation once it has taken S seconds of wall-clock time.")
    @allow_races_option
    @func_option
    @split_input_file_option
    @reports_errors
    def run_command(source, device, objective, strategy, inputs_path, outputs_path,
                    runtime_args, seed, trace_path, as_json, memory_cap, max_cycles, max_seconds,
                    allow_races, func):
        """Emulate SOURCE (a kernel, compiled first, or a bundle folder as it is) and compare
        its outputs with the KTIR reference interpreter on the same inputs."""
        import numpy as np

        from spyre_sched.emulate import report, run
        from spyre_sched.errors import ExecutionError, UsageError

        cap = parse_size(memory_cap, "--memory-cap")
        if outputs_path and not outputs_path.endswith(".npz"):
            raise UsageError(f"--save-outputs writes a .npz file: its name must end in .npz, "
                             f"got '{outputs_path}'")
        for option, path in (("--save-outputs", outputs_path), ("--trace", trace_path)):
            _check_output_file(option, path)  # before the run, not after it
        inputs = read_inputs(inputs_path) if inputs_path else {}
        result = run(source, inputs, device=device, objective=objective, strategy=strategy,
                     runtime_args=parse_runtime_args(runtime_args), seed=seed, trace=trace_path,
                     memory_cap=cap, max_cycles=max_cycles, max_seconds=max_seconds,
                     allow_races=allow_races, func=func)
        if outputs_path:
            try:
                with open(outputs_path, "wb") as file:  # exactly this path: no suffix added
                    np.savez(file, **result.outputs)
            except OSError as err:
                raise ExecutionError(f"cannot write outputs: {err.strerror}", outputs_path) from None
        if as_json:
            click.echo(json.dumps(result.as_dict(), indent=2, sort_keys=True, default=float))
        else:
            click.echo(report(result))
        sys.exit(0 if result.matches else 1)


def _check_output_file(option: str, path: str | None) -> None:
    """A file the command will write must have a folder to go into (checked up front, so
    a long run does not end in an error)."""
    import os

    from spyre_sched.errors import UsageError

    if path is None:
        return
    if path == "":
        raise UsageError(f"{option}: the file name is empty")
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        raise UsageError(f"{option}: cannot write here: {parent} is not a folder", path)
    if not os.access(parent, os.W_OK):
        raise UsageError(f"{option}: cannot write here: the folder {parent} is not writable",
                         path)
