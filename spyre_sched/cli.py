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
