"""Byte counts as people read them (the trace and error messages)."""

from __future__ import annotations


def fmt_bytes(n: int) -> str:
    """`384 B`, `1.5 KiB`, `2 MiB`: one decimal, trailing zeros dropped."""
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            text = f"{n / size:.1f}".rstrip("0").rstrip(".")
            return f"{text} {unit}"
    return f"{n} B"


def fmt_bytes_apart(a: int, b: int) -> tuple[str, str]:
    """`fmt_bytes` of two counts, with the exact bytes beside each when rounding would
    print them alike ("needs 2 MiB, has 2 MiB" says nothing)."""
    x, y = fmt_bytes(a), fmt_bytes(b)
    if x == y and a != b:
        return f"{x} ({a:,} B)", f"{y} ({b:,} B)"
    return x, y
