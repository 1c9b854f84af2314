"""Every compute tile runs the kernel as a coroutine; a deterministic round-robin scheduler.

A tile runs until it must wait for another tile (an inter-tile consume or reduce whose
partials are not all produced) and then yields a `Wait`. The scheduler resumes tiles in id
order, a waiting one only once its `Wait` is ready. When no live tile can move, that is a
deadlock, reported with every waiting tile and what it waits for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from xdsl.ir import Operation

from spyre_sched.errors import ExecutionError


@dataclass
class Wait:
    tile: int
    op: Operation
    what: Callable[[], str]  # what is still missing, in words
    ready: Callable[[], bool]


def run_round_robin(coroutines: list[tuple[int, Iterator]], location_of) -> None:
    """Run the tiles' coroutines to completion, or raise a deadlock ExecutionError."""
    live: list[tuple[int, Iterator, Wait | None]] = [(t, c, None) for t, c in coroutines]
    while live:
        moved = False
        still: list[tuple[int, Iterator, Wait | None]] = []
        for tile, coroutine, wait in live:
            if wait is not None and not wait.ready():
                still.append((tile, coroutine, wait))
                continue
            moved = True
            try:
                wait = next(coroutine)
            except StopIteration:
                continue
            still.append((tile, coroutine, wait))
        live = still
        if live and not moved:
            lines = [
                f"  tile {w.tile} at {w.op.name} ({location_of(w.op)}) waits for {w.what()}"
                for _, _, w in live
                if w is not None
            ]
            first = live[0][2]
            raise ExecutionError(
                f"deadlock: {len(live)} tile(s) wait for partials that are never produced\n"
                + "\n".join(lines),
                location_of(first.op) if first is not None else None,
            )
