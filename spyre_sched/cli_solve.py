"""The solver's part of the command line.

- `spyre-sched explain KERNEL.mlir [--objective latency|memory] [--strategy ...]`: per
  program, each decision with its candidates, the chosen value and why; the objective
  term by term per stage and engine; CP-SAT's status, objective, bound, gap, time,
  branches and conflicts. An infeasible model is explained in words (exit 1).
- `compile` gains `--emit solved` (the solved ScheduleIR) and the options
  `--objective`, `--strategy`, `--time-limit`, `--workers`, `--seed`,
  `--solver-trace FILE` (the trace as JSON) and `--solver-log FILE` (CP-SAT's search log).
  Other emitters (the bundle writer) call `compile_from_options` to get the same
  `Schedule` and files.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from spyre_sched import cli_compile
from spyre_sched.cli_arguments import arg_option, argument_values
from spyre_sched.cli_split import split_input_file_option
from spyre_sched.errors import SpyreSchedError

OBJECTIVES = ("latency", "memory")
STRATEGIES = ("solver", "heuristic", "heuristic+keep", "random")


allow_races_option = click.option(
    "--allow-races", "allow_races", is_flag=True,
    help="Compile a kernel even though `check` proves a race between its tiles (its "
    "outputs then depend on timing; refused by default).")


def solver_options(fn):
    """The solver's click options (for `compile` and `explain`)."""
    for option in reversed([
        click.option("--objective", type=click.Choice(OBJECTIVES), default="latency",
                     show_default=True, help="latency: fewest modelled cycles; memory: "
                     "smallest peak scratchpad, then fewest cycles."),
        click.option("--strategy", type=click.Choice(STRATEGIES), default="solver",
                     show_default=True, help="solver: CP-SAT; heuristic: the published V1 "
                     "rules (the benchmark baseline); heuristic+keep: V1 plus keeping an "
                     "input resident when it fits; random: a random feasible schedule "
                     "(seeded by --seed)."),
        click.option("--time-limit", "time_limit", type=click.FloatRange(min=0, min_open=True),
                     default=None, metavar="SECONDS",
                     help="Stop CP-SAT after this long; the best schedule and its gap are "
                     "reported."),
        click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
                     help="CP-SAT workers (any fixed count is deterministic)."),
        click.option("--seed", type=int, default=0, show_default=True,
                     help="CP-SAT's random seed."),
        click.option("--solver-log", "solver_log", type=click.Path(dir_okay=False),
                     default=None, metavar="FILE", help="Save CP-SAT's search log."),
        allow_races_option,
    ]):
        fn = option(fn)
    return fn


def _write(path: str, text: str, what: str) -> None:
    try:
        Path(path).write_text(text)
    except OSError as err:
        raise SpyreSchedError(f"cannot write the {what}: {err.strerror}", path) from None


def compile_from_options(source: str, device: str, options: dict):
    """`spyre_sched.compile` with the command line's solver options; writes the
    `--solver-trace` and `--solver-log` files it names. Returns the `Schedule`."""
    from spyre_sched.api import compile as compile_kernel

    schedule = compile_kernel(
        source, device, options.get("objective") or "latency",
        options.get("strategy") or "solver", time_limit=options.get("time_limit"),
        workers=options.get("workers") or 1, seed=options.get("seed") or 0,
        solver_log=bool(options.get("solver_log")),
        print_after_all=options.get("print_hook"), verify_each=options.get("verify_each"),
        allow_races=bool(options.get("allow_races")), func=options.get("func"),
        arguments=argument_values(options.get("arg_values") or ()))
    if options.get("solver_trace"):
        _write(options["solver_trace"], json.dumps(schedule.trace, indent=2, sort_keys=True)
               + "\n", "solver trace")
    if options.get("solver_log"):
        _write(options["solver_log"], schedule.solver_log + "\n" if schedule.solver_log else
               "(no CP-SAT search: heuristic strategy)\n", "solver log")
    return schedule


def emit_solved(source: str, device: str, options: dict) -> str:
    """Solved ScheduleIR."""
    return compile_from_options(source, device, options).schedule_ir


def register_compile_options() -> None:
    """Add `--emit solved` and the solver's options to `compile` (before it registers)."""
    cli_compile.EMITTERS.setdefault("solved", emit_solved)
    cli_compile.EXTRA_OPTIONS.append(solver_options)
    cli_compile.EXTRA_OPTIONS.append(func_option)
    cli_compile.EXTRA_OPTIONS.append(arg_option)
    cli_compile.EXTRA_OPTIONS.append(click.option(
        "--solver-trace", "solver_trace", type=click.Path(dir_okay=False), default=None,
        metavar="FILE", help="Write the solver trace (decisions, reasons, objective terms, "
        "CP-SAT figures) as JSON."))


#: `--func NAME` for every verb that reads a kernel
func_option = click.option(
    "--func", "func", default=None, metavar="NAME",
    help="The kernel function to use, for a file that defines several (without it, such "
    "a file is refused rather than its first function taken).")


def register(main, reports_errors, device_option) -> None:
    @main.command("explain")
    @click.argument("kernel_file", type=click.Path(exists=True, dir_okay=False))
    @device_option()
    @solver_options
    @click.option("--json", "as_json", is_flag=True, help="Print the trace as JSON.")
    @func_option
    @arg_option
    @split_input_file_option
    @reports_errors
    def explain(kernel_file, device, as_json, **options):
        """Why the solver chose each tile size, modulo and instance count for KERNEL_FILE."""
        from spyre_sched.solve.explain import render_trace

        schedule = compile_from_options(kernel_file, device, options)
        if as_json:
            click.echo(json.dumps(schedule.trace, indent=2, sort_keys=True))
        else:
            click.echo(render_trace(schedule.trace), nl=False)
