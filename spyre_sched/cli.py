"""The `spyre-sched` command line.

Every command turns a `SpyreSchedError` into `FILE:LINE:COL: error: ...` on stderr and
exit status 1; a user never sees a traceback for bad input.
"""

from __future__ import annotations

import functools
import sys

import click

from spyre_sched.errors import SpyreSchedError


def reports_errors(fn):
    """Print a SpyreSchedError as a diagnostic and exit 1 instead of a traceback."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except SpyreSchedError as err:
            click.echo(str(err), err=True)
            sys.exit(1)

    return wrapper


@click.group()
@click.version_option(package_name="spyre-sched")
def main() -> None:
    """spyre-sched: schedule KTIR kernels for Spyre-shaped dataflow accelerators."""


# ---- commands are registered below, one section per topic -----------------------------


# ---- device: inspect architecture descriptions -----------------------------------------

from spyre_sched.device.load import DEFAULT_DEVICE  # noqa: E402


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
@click.option("--bytes", "nbytes", default=4096, show_default=True, type=click.IntRange(1),
              help="Transfer size used for the cycle estimate.")
@reports_errors
def device_route(device: str, source: str, target: str, nbytes: int) -> None:
    """Print the shortest legal route from SRC to DST, hop by hop.

    \b
    Endpoints are dotted instance names, as `device show` lists them:
      ddr                   device memory
      core3.lx              core 3's scratchpad (core0.l1 on sample_device)
      core3.corelet1.sfu    corelet 1's vector unit on core 3
      ring.stop5            the ring stop next to core 5
    Replicated groups are numbered from 0 (core0..core31, corelet0..corelet1).
    """
    from spyre_sched.device import load_device
    from spyre_sched.device.summary import describe_route

    click.echo(describe_route(load_device(device).route(source, target), nbytes))
