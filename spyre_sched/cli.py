"""The `spyre-sched` command line.

Every command turns a `SpyreSchedError` into `FILE:LINE:COL: error: ...` on stderr and
exit status 1; a user never sees a traceback for bad input.
"""

from __future__ import annotations

import contextlib
import functools
import os
import sys

import click

from spyre_sched.errors import SpyreSchedError


DEBUG_ENV = "SPYRE_SCHED_DEBUG"


def reports_errors(fn):
    """Print a SpyreSchedError as a diagnostic and exit 1 instead of a traceback.

    Any other exception is a bug in spyre-sched, not in the input: it is reported in one
    line as an internal error (exit 2); `SPYRE_SCHED_DEBUG=1` shows the traceback.
    """

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except SpyreSchedError as err:
            kernel = getattr(err, "kernel", None)
            if err.location is None and kernel is not None and getattr(err, "op", None):
                err.location = kernel.location_of(err.op)  # an analysis names the op only
            click.echo(str(err), err=True)
            sys.exit(1)
        except click.ClickException:
            raise  # a usage error (bad option value): click reports it, exit 1 (main)
        except MemoryError:
            # The host refused memory (a process limit, or the machine is full): the input
            # is too big for this host, not a bug.
            click.echo("error: the host ran out of memory (a process memory limit, or the "
                       "machine's): this input needs more than the host can give; where "
                       "the command takes --memory-cap, a cap below the host's limit "
                       "refuses such a run up front with the figures", err=True)
            sys.exit(1)
        except Exception as err:
            if os.environ.get(DEBUG_ENV):
                raise
            click.echo(
                f"internal error in spyre-sched ({type(err).__name__}: {err}); "
                f"please report it; {DEBUG_ENV}=1 shows the traceback",
                err=True,
            )
            sys.exit(2)

    return wrapper


class _UsageErrorsExitOne(click.Group):
    """A usage error (an unknown option, a bad choice or value, a missing file argument)
    exits 1 like any other error in the user's input, as the README says; click's own
    status for them is 2, which this command line keeps for its own bugs."""

    def make_context(self, *args, **kwargs):
        try:
            return super().make_context(*args, **kwargs)
        except click.UsageError as err:
            _exit_one(err)
            raise

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except click.UsageError as err:
            _exit_one(err)
            raise


def _exit_one(err: click.UsageError) -> None:
    err.exit_code = 1


@click.group(cls=_UsageErrorsExitOne)
@click.version_option(package_name="spyre-sched")
def main() -> None:
    """spyre-sched: schedule KTIR kernels for Spyre-shaped dataflow accelerators."""


# ---- commands are registered below, one section per topic -----------------------------


# ---- device: inspect architecture descriptions -----------------------------------------

from spyre_sched.device.load import DEFAULT_DEVICE  # noqa: E402
from spyre_sched.device.routing import DEFAULT_ROUTE_BYTES  # noqa: E402


def device_option():
    """`--device NAME|PATH` for any command that needs the hardware description."""
    return click.option(
        "--device",
        "device",
        default=DEFAULT_DEVICE,
        show_default=True,
        metavar="NAME|PATH",
        help="Device description: a shipped device name (devices/NAME.mlir) or a path "
        "to a ktdf_arch .mlir file.",
    )


@main.group("device")
def device_group() -> None:
    """Inspect device (ktdf_arch) descriptions."""


@device_group.command("show")
@click.argument("device", default=DEFAULT_DEVICE, metavar="[NAME|PATH]")
@reports_errors
def device_show(device: str) -> None:
    """Summarise a device: cores, corelets, memories, units, datapaths, patterns."""
    from spyre_sched.device import load_device
    from spyre_sched.device.summary import describe_device

    click.echo(describe_device(load_device(device)))


@device_group.command("route")
@click.argument("device", metavar="NAME|PATH")
@click.argument("source", metavar="SRC")
@click.argument("target", metavar="DST")
@click.option("--bytes", "nbytes", default=DEFAULT_ROUTE_BYTES, show_default=True,
              type=click.IntRange(1),
              help="Transfer size the route is chosen for and timed with.")
@reports_errors
def device_route(device: str, source: str, target: str, nbytes: int) -> None:
    """Print the fastest legal route from SRC to DST for a transfer of --bytes, hop by hop.

    \b
    Endpoints are dotted instance names, as `device show` lists them:
      ddr                   device memory
      core3.lx              core 3's scratchpad (core0.l1 on sample_device)
      core3.corelet1.sfu    corelet 1's vector unit on core 3
      ring.stop5            the ring stop next to core 5
    Replicated groups are numbered from 0 (core0..core31, corelet0..corelet1).
    """
    from spyre_sched.device import find_route, load_device
    from spyre_sched.device.summary import describe_route

    click.echo(describe_route(find_route(load_device(device), source, target, nbytes), nbytes))


# ---- check: parse, verify and statically check a kernel --------------------------------


def _shape_text(info) -> str:
    if info.shape is None:
        return info.type
    dims = []
    for extent, bound in zip(info.shape, info.upper_bounds or (None,) * len(info.shape)):
        dims.append(str(extent) if extent is not None else (f"?<={bound}" if bound else "?"))
    if info.flat:  # the array is the memory at the pointer (its views are not one dense tensor)
        return f"{dims[0]} elements of {info.element_type or '?'} memory"
    return f"{'x'.join(dims)}x{info.element_type or '?'}"


def _argument_text(kernel, info) -> str:
    from spyre_sched.dialects.ktdp import RuntimeArgType

    if info.shape is not None:
        return f"%{info.name}: {_shape_text(info)} ({info.role})"
    arg_type = kernel.func.body.block.args[info.position].type
    if isinstance(arg_type, RuntimeArgType):
        g, u = arg_type.granularity_value, arg_type.upperbound_value
        facts = ([f"a multiple of {g}"] if g is not None else []) + (
            [f"at most {u}"] if u is not None else ["no static upper bound"])
        return f"%{info.name}: {arg_type.value_type} (run-time: {', '.join(facts)})"
    return f"%{info.name}: {info.type} ({info.role})"


def kernel_summary(kernel, arguments) -> str:
    """One paragraph: function, grid, tiles, arguments (shape, type, role), memory spaces."""
    args = ", ".join(_argument_text(kernel, a) for a in arguments)
    spaces = sorted({s for a in arguments for s in a.memory_spaces} | _memory_spaces(kernel))
    grid = "x".join(str(g) for g in kernel.grid)
    return (
        f"kernel @{kernel.name}: grid [{grid}] ({kernel.num_tiles} tiles); "
        f"arguments: {args or 'none'}; memory spaces: {', '.join(spaces) or 'none'}."
    )


def _memory_spaces(kernel) -> set[str]:
    from spyre_sched.dialects.ktdp import ConstructMemoryViewOp
    from spyre_sched.polyhedral.views import MemoryRef

    return {
        str(MemoryRef(op.memory_space.space, op.memory_space.tile))  # type: ignore[attr-defined]
        for op in kernel.func.walk()
        if isinstance(op, ConstructMemoryViewOp)
    }


@contextlib.contextmanager
def locating(kernel):
    """Errors of the analyses name an op (`err.op`); `reports_errors` locates them."""
    try:
        yield
    except SpyreSchedError as err:
        err.kernel = kernel  # type: ignore[attr-defined]
        raise


def kernel_device_option():
    """`--device` for commands that read a kernel: without it, the device the kernel file
    declares (`ktdf_arch.device @name ... import("path")`), else the default."""
    return click.option(
        "--device",
        "device",
        default=None,
        metavar="NAME|PATH",
        help="Device description: a shipped device name (devices/NAME.mlir) or a path to "
        "a ktdf_arch .mlir file. Default: the device the kernel file declares, else "
        f"{DEFAULT_DEVICE}.",
    )


def argument_values_option():
    """`--arg NAME=VALUE` (repeatable; `--runtime-arg` is the older spelling)."""
    return click.option(
        "--arg",
        "--runtime-arg",
        "arg_values",
        multiple=True,
        metavar="NAME=VALUE",
        help="Value of a scalar or !ktdp.runtime_arg argument (integer or float); "
        "repeatable. --runtime-arg is an alias.",
    )


from spyre_sched.cli_solve import func_option  # noqa: E402
from spyre_sched.cli_arguments import argument_values  # noqa: E402
from spyre_sched.cli_split import split_input_file_option  # noqa: E402


@main.command("check")
@click.argument("kernel_file", type=click.Path())
@kernel_device_option()
@argument_values_option()
@click.option("--strict", is_flag=True,
              help="Treat warnings as errors (exit 1 if there is any).")
@func_option
@split_input_file_option
@reports_errors
def check(kernel_file: str, device: str | None, arg_values: tuple[str, ...],
          strict: bool, func: str | None) -> None:
    """Parse, verify and statically check KERNEL_FILE; print a summary.

    Errors (syntax, verifier, out-of-bounds with a witness that replays, write races, a
    grid larger than the device, a memory space it does not map, a view larger than its
    memory, a loaded tile larger than any memory) print as FILE:LINE:COL: error: and
    exit 1. A loaded tile larger than the scratchpad is a note: compiling streams it. Warnings (rules stricter than the dialect's definition, masked positions of a
    tile sticking out of its view, findings that hold only for some values of an unbound
    scalar, outputs not fully covered) and "not checked:" notes do not change the status
    unless --strict is given.
    """
    from spyre_sched.device.declared import device_for_kernel
    from spyre_sched.device.fit import check_kernel_fits, check_resources
    from spyre_sched.frontend import load_kernel
    from spyre_sched.frontend.arguments import infer_arguments
    from spyre_sched.collector import garbage_collection_paused
    from spyre_sched.polyhedral.checks import check_kernel
    from spyre_sched.polyhedral.kernel_model import KernelModel
    from spyre_sched.polyhedral.resources import loaded_tiles, view_spans

    kernel = load_kernel(kernel_file, func)
    values = argument_values(arg_values, kernel)
    target = device_for_kernel(kernel, device)
    check_kernel_fits(target, kernel.func, kernel.num_tiles, kernel.location_of)
    # The size rules come first, from the types alone: the analyses below replay witnesses
    # tile by tile, which a tile no memory holds would make the host run out of memory.
    too_large, streamed = check_resources(target, view_spans(kernel.func),
                                          loaded_tiles(kernel.func))
    for op, message in too_large:
        click.echo(f"{kernel.location_of(op)}: error: {message}", err=True)
    for op, message in streamed:
        click.echo(f"{kernel.location_of(op)}: note: {message}", err=True)
    with locating(kernel), garbage_collection_paused():  # allocation-heavy on large kernels
        model = KernelModel(kernel.func)  # built once: the analyses share it
        arguments = infer_arguments(kernel.func, model)
        diagnostics = list(kernel.warnings)
        if too_large:
            click.echo("not checked: bounds, races and output coverage (the kernel does not "
                       "fit the device: errors above)", err=True)
        else:
            checked = model if not values else KernelModel(kernel.func, bindings=values)
            diagnostics += check_kernel(kernel.func, checked, arguments=values)
    for diag in diagnostics:
        if diag.code == "not-checked":
            other = (f" (with {diag.related.name} at {kernel.location_of(diag.related)})"
                     if diag.related is not None else "")
            click.echo(f"not checked: {diag.op.name} at {kernel.location_of(diag.op)}{other}: "
                       f"{diag.message}", err=True)
            continue
        click.echo(f"{kernel.location_of(diag.op)}: {diag.severity}: {diag.message}", err=True)
    click.echo(kernel_summary(kernel, arguments))
    errors = sum(1 for d in diagnostics if d.severity == "error") + len(too_large)
    warnings = sum(1 for d in diagnostics if d.severity == "warning")
    if errors or (strict and warnings):
        extra = f" and {warnings} warning(s) (--strict)" if strict and warnings else ""
        click.echo(f"{kernel_file}: {errors} error(s){extra}", err=True)
        sys.exit(1)


# ---- reference: run a kernel on the KTIR reference interpreter -------------------------


def parse_size(text: str, option: str) -> int:
    """`4GiB`, `512M`, `1000000` -> bytes (a positive integer); K/M/G/T are powers of
    1000, KiB/MiB/GiB/TiB powers of 1024."""
    import re

    from spyre_sched.errors import UsageError

    match = re.fullmatch(r"\s*(\d+)\s*(?:([kmgt])(i)?b?|b)?\s*", text, re.IGNORECASE)
    if match is None or int(match.group(1)) <= 0:
        raise UsageError(f"{option}: expected a positive size such as 4GiB, 512M or "
                         f"1000000, got '{text}'")
    power = "kmgt".index(match.group(2).lower()) + 1 if match.group(2) else 0
    return int(match.group(1)) * (1024 if match.group(3) else 1000) ** power


def read_inputs(path: str) -> dict:
    """The arrays of an .npz archive keyed by name, or a clear error saying what the file
    is instead (missing, a directory, empty, a single .npy array, not an archive)."""
    import pickle
    import zipfile

    import numpy as np

    from spyre_sched.errors import ExecutionError

    def bad(why: str) -> ExecutionError:
        return ExecutionError(f"cannot read inputs: {why}", path)

    try:
        with open(path, "rb") as file:
            head = file.read(6)
    except OSError as err:
        raise bad(err.strerror or str(err)) from None
    if not head:
        raise bad("the file is empty (expected an .npz archive of arrays keyed by "
                  "argument name)")
    if head == b"\x93NUMPY":
        raise bad("this is a single .npy array; give an .npz archive keyed by argument name "
                  "(numpy.savez(path, A=a, B=b))")
    if not head.startswith(b"PK"):
        raise bad("not an .npz archive (numpy.savez writes one)")
    try:
        with np.load(path, allow_pickle=False) as data:
            return {key: data[key] for key in data.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, pickle.UnpicklingError,
            KeyError) as err:
        raise bad(f"the .npz archive is damaged or holds something other than plain "
                  f"arrays ({type(err).__name__}: {err})") from None


def output_summary(name: str, array) -> str:
    """`name: shape dtype min/max/mean checksum` (checksum: sha256 of the bytes, 12 hex)."""
    import hashlib

    import numpy as np

    data = np.ascontiguousarray(array)
    digest = hashlib.sha256(data.tobytes()).hexdigest()[:12]
    shape = "x".join(str(d) for d in data.shape) or "scalar"
    if data.size:
        as_float = data.astype(np.float64)
        stats = f"min {as_float.min():.6g} max {as_float.max():.6g} mean {as_float.mean():.6g}"
    else:
        stats = "empty"
    label = name if "@" in name else f"%{name}"  # an address range: global@0x...
    return f"{label}: {shape} {data.dtype} {stats} checksum {digest}"


@main.command("reference")
@click.argument("kernel_file", type=click.Path())
@click.option("--inputs", "inputs_path", type=click.Path(),
              help=".npz file of input arrays keyed by argument name (default: seeded random).")
@click.option("--save-outputs", "outputs_path", type=click.Path(),
              help="Write the outputs to this .npz file (the name must end in .npz), keyed "
                   "by argument name.")
@argument_values_option()
@click.option("--seed", default=0, show_default=True, type=int,
              help="Seed of the random inputs used when --inputs is not given.")
@click.option("--scratchpad-bytes", type=click.IntRange(1), default=None,
              help="Scratchpad size per compute tile (default: the device's).")
@click.option("--memory-cap", "memory_cap", default="4GiB", show_default=True,
              metavar="SIZE",
              help="Refuse, before allocating, a run whose simulated memory (arguments, "
                   "scratchpads, random inputs) would exceed SIZE (bytes, or with K/M/G/T "
                   "or KiB/MiB/GiB/TiB).")
@click.option("--max-seconds", "max_seconds", type=click.FloatRange(min=0, min_open=True),
              default=None, help="Stop the interpreter once it has taken S seconds of "
              "wall-clock time (an error, nothing written; default: no limit).")
@kernel_device_option()
@func_option
@split_input_file_option
@reports_errors
def reference(kernel_file, inputs_path, outputs_path, arg_values, seed, scratchpad_bytes,
              memory_cap, max_seconds, device, func):
    """Run KERNEL_FILE on the reference interpreter and summarise each output."""
    import numpy as np

    from emulator.reference import make_inputs, run
    from spyre_sched.deadline import Deadline, DeadlineExceeded
    from spyre_sched.device.declared import device_for_kernel
    from spyre_sched.device.fit import check_kernel_fits
    from spyre_sched.errors import ExecutionError, UsageError
    from spyre_sched.frontend import load_kernel

    kernel = load_kernel(kernel_file, func)
    target = device_for_kernel(kernel, device)
    check_kernel_fits(target, kernel.func, kernel.num_tiles, kernel.location_of)
    rt = argument_values(arg_values, kernel)
    cap = parse_size(memory_cap, "--memory-cap")
    if outputs_path and not outputs_path.endswith(".npz"):
        raise UsageError(f"--save-outputs writes a .npz file: its name must end in .npz, "
                         f"got '{outputs_path}'")
    if outputs_path and os.path.isdir(outputs_path):
        raise UsageError(f"--save-outputs names a directory, not a file: '{outputs_path}'")
    inputs = read_inputs(inputs_path) if inputs_path else None
    deadline = Deadline(max_seconds)
    try:
        with deadline, locating(kernel):
            if inputs is None:
                inputs = make_inputs(kernel, seed, rt, memory_cap=cap)
            outputs = run(kernel, inputs, runtime_args=rt, scratchpad_bytes=scratchpad_bytes,
                          device=target, memory_cap=cap)
    except DeadlineExceeded:
        deadline.fired = True
    if deadline.fired:
        raise ExecutionError(f"the reference interpreter did not finish @{kernel.name} within "
                             f"{max_seconds:g} s (--max-seconds); nothing was written",
                             kernel.location_of(kernel.func))
    for name, array in outputs.items():
        click.echo(output_summary(name, array))
    if not outputs:
        # nothing to summarise or save: say so, never an empty archive with exit 0
        raise ExecutionError(f"@{kernel.name} has no outputs: it writes no pointer argument "
                             "and stores to no constant address range", kernel.location_of(kernel.func))
    if outputs_path:
        try:
            with open(outputs_path, "wb") as file:  # exactly this path: no suffix added
                np.savez(file, **outputs)
        except OSError as err:
            raise ExecutionError(f"cannot write outputs: {err.strerror}", outputs_path) from None


# ---- run: emulate a bundle and compare with the reference ------------------------------

from spyre_sched import cli_run  # noqa: E402

cli_run.register(main, reports_errors, argument_values, read_inputs, parse_size)


# ---- bench: the suite against the roofline bound and the heuristic ----------------------

from spyre_sched import cli_bench  # noqa: E402

cli_bench.register(main, reports_errors)


# ---- sweep: the suite (or any kernels) over many device points ---------------------------

from spyre_sched import cli_sweep  # noqa: E402

cli_sweep.register(main, reports_errors)


# ---- fuzz: random kernels through the pipeline; mutated inputs -------------------------

from spyre_sched import cli_fuzz  # noqa: E402

cli_fuzz.register(main, reports_errors)


# ---- compile: KTIR -> ScheduleIR (and later stages' outputs) ----------------------------

from spyre_sched import cli_bundle, cli_compile, cli_solve  # noqa: E402

cli_solve.register_compile_options()  # the solver's options, before compile registers
cli_compile.EXTRA_OPTIONS.append(cli_bundle.output_options)  # -o OUT/ (the bundle writer)
cli_compile.register(main, reports_errors, device_option, cli_bundle.write_output)
cli_solve.register(main, reports_errors, device_option)  # explain
