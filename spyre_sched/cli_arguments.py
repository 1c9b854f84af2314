"""`--arg NAME=VALUE` of `compile` and `explain`: values of a kernel's plain scalar
arguments, folded into it before it is scheduled."""

from __future__ import annotations

import click

from spyre_sched.errors import UsageError

#: `--arg NAME=VALUE` for compile and explain: plain scalar arguments folded
arg_option = click.option(
    "--arg", "--runtime-arg", "arg_values", multiple=True, metavar="NAME=VALUE",
    help="Value of a plain scalar argument, folded into the kernel before it is "
    "scheduled; repeatable. --runtime-arg is an alias.")


def argument_values(pairs) -> dict[str, int | float]:
    """`NAME=VALUE` pairs -> {name: int or float} (a bad pair is a usage error)."""
    values: dict[str, int | float] = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        name = name.strip().lstrip("%")
        for convert in (int, float):
            try:
                value = convert(text.strip())
                break
            except ValueError:
                continue
        else:
            value = None
        if not sep or not name or value is None or value != value or name in values:
            raise UsageError(f"--arg: expected NAME=NUMBER, each name once, got '{pair}'")
        values[name] = value
    return values
