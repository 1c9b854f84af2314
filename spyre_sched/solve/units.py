"""Byte counts as people read them (the trace and error messages)."""

from __future__ import annotations


def fmt_bytes(n: int) -> str:
    """`384 B`, `1.5 KiB`, `2 MiB`: one decimal, trailing zeros dropped."""
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            text = f"{n / size:.1f}".rstrip("0").rstrip(".")
            return f"{text} {unit}"
    return f"{n} B"
