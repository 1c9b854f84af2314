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


def argument_values(pairs, kernel=None) -> dict[str, int | float]:
    """`NAME=VALUE` pairs -> {name: int or float}, each name once; with `kernel`, every name
    must be one of its arguments. A bad pair is a usage error (exit 1)."""
    values: dict[str, int | float] = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        name = name.strip().lstrip("%")
        value: int | float | None = None
        for convert in (int, float):
            try:
                value = convert(text.strip())
                break
            except ValueError:
                continue
        if not sep or not name or value is None or value != value:  # NaN is no value
            raise UsageError(f"--arg: expected NAME=NUMBER, got '{pair}'")
        if name in values:
            raise UsageError(f"--arg: %{name} is given twice ({values[name]} and {value}); "
                             "give each argument once")
        values[name] = value
    if kernel is not None:
        known = [a.name_hint for a in kernel.func.body.block.args]
        for name in values:
            if name not in known:
                listed = ", ".join(f"%{k}" for k in known if k) or "none"
                raise UsageError(f"--arg: '{name}' is not an argument of @{kernel.name} "
                                 f"(its arguments: {listed})")
    return values
