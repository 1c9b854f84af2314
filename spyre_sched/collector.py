"""Python's cyclic garbage collector paused for allocation-heavy work whose objects are
freed by reference counting or stay alive anyway."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def garbage_collection_paused() -> Iterator[None]:
    """The cyclic collector off for the block (on again after it, if it was on).

    Each collection pass walks every tracked object of its generations, and a full one
    the whole heap. Two kinds of work allocate enough to trigger many passes that find
    (almost) nothing: parsing a large file (hundreds of thousands of ops, values and
    uses that all stay alive and point at each other: a quarter of the CPU time of a
    100,000-op kernel) and running a program on the emulator (millions of short-lived
    tuples and arrays, freed by reference counting; a launch leaves a few thousand
    objects in cycles, its units' generators, collected after it)."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()
