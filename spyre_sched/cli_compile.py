"""`spyre-sched compile KERNEL.mlir --emit ktdf [--print-ir-after-all] [--stop-after PASS]`.

The front half of `compile`: KTIR (or saved ScheduleIR) -> ScheduleIR with open
decisions, printed on stdout. `--print-ir-after-all` prints the module after every pass
on stderr, each under a `// ----- IR after PASS -----` header; `--stop-after PASS` stops
after the named pass (and prints that IR). Given ScheduleIR, the input is verified and
printed again, so a saved file round-trips.

Later stages add their own options and emit kinds: `EMITTERS` maps an `--emit` value to
a function `(source, device, options) -> text`, and `EXTRA_OPTIONS` lists click options
appended to the command (their values arrive in `options`).
"""

from __future__ import annotations

import io
from collections.abc import Callable

import click
from xdsl.dialects.builtin import ModuleOp
from xdsl.printer import Printer

from spyre_sched.cli_arguments import argument_values


def print_module(module: ModuleOp) -> str:
    out = io.StringIO()
    Printer(out).print_op(module)
    return out.getvalue() + "\n"


def emit_ktdf(source: str, device: str, options: dict) -> str:
    """Open ScheduleIR."""
    from spyre_sched.api import load_schedule_input

    hook = options.get("print_hook")
    module, _, _ = load_schedule_input(source, device, print_after_all=hook,
                                       stop_after=options.get("stop_after"),
                                       verify_each=options.get("verify_each"),
                                       allow_races=bool(options.get("allow_races")),
                                       func=options.get("func"),
                                       arguments=argument_values(options.get("arg_values") or ()))
    return print_module(module)


#: --emit value -> how to produce it
EMITTERS: dict[str, Callable[[str, str, dict], str]] = {"ktdf": emit_ktdf}
#: click options other stages add to `compile` (decorators)
EXTRA_OPTIONS: list[Callable] = []


def register(main, reports_errors, device_option, write_output) -> None:
    """`write_output(source, device, output, options)`: the bundle writer `-o OUT/` calls
    (passed in: it compiles with the solver's options, which build on this module)."""

    def command(kernel_file, device, emit, print_after_all, stop_after, verify_each, **options):
        """Schedule KERNEL_FILE (KTIR, or saved ScheduleIR) and print the result, or with
        -o OUT/ compile it all the way and write the bundle folder."""
        options["verify_each"] = verify_each or None
        output = options.pop("output", None)
        if output is not None:
            click.echo(write_output(kernel_file, device, output, options))
            return
        if emit not in EMITTERS:
            raise click.UsageError(f"--emit {emit}: expected one of {', '.join(EMITTERS)}")
        if print_after_all:
            def hook(name: str, module: ModuleOp) -> None:
                click.echo(f"// ----- IR after {name} -----", err=True)
                click.echo(print_module(module), err=True, nl=False)
            options["print_hook"] = hook
        options["stop_after"] = stop_after
        click.echo(EMITTERS[emit](kernel_file, device, options), nl=False)

    from spyre_sched.cli_split import split_input_file_option

    wrapped = split_input_file_option(reports_errors(command))
    for option in reversed(EXTRA_OPTIONS):
        wrapped = option(wrapped)
    wrapped = click.option("--stop-after", "stop_after", default=None, metavar="PASS",
                           help="Stop after this pass (see --print-ir-after-all for names).")(wrapped)
    wrapped = click.option("--verify-each", "verify_each", is_flag=True,
                           help="Verify the IR after every pass (default: after the last).")(wrapped)
    wrapped = click.option("--print-ir-after-all", "print_after_all", is_flag=True,
                           help="Print the module after every pass on stderr.")(wrapped)
    wrapped = click.option("--emit", "emit", default="ktdf", show_default=True,
                           metavar="|".join(EMITTERS) or "KIND",
                           help="What to print: ktdf = ScheduleIR with open decisions.")(wrapped)
    wrapped = device_option()(wrapped)
    wrapped = click.argument("kernel_file", type=click.Path(exists=True, dir_okay=False))(wrapped)
    main.command("compile")(wrapped)
