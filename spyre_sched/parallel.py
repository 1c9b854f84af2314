"""Run many independent jobs (one per kernel) in a process pool, behind one small interface.

`map_jobs(fn, items, jobs=N)` returns `[fn(item) for item in items]`, in the order of
`items`, whatever order the workers finish in; `jobs=1` runs in this process, with no
pool at all, so a job's result never depends on how many workers there were. `fn` must
be a module-level function and items and results picklable (they cross processes).

`spyre-sched bench` uses it for the suite, and `spyre-sched compile` over a folder of
kernels can use it the same way. A cluster engine replaces it by providing another
`Executor` (anything with `map_jobs`'s signature) without touching the passes.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Protocol, TypeVar

import click

T = TypeVar("T")
R = TypeVar("R")


class Executor(Protocol):
    def __call__(self, fn: Callable[[T], R], items: Sequence[T], *, jobs: int | None = None,
                 label: str = "", progress: bool = True) -> list[R]: ...


def default_jobs() -> int:
    """The machine's cores (those this process may run on)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def map_jobs(fn: Callable[[T], R], items: Sequence[T], *, jobs: int | None = None,
             label: str = "", progress: bool = True) -> list[R]:
    """`[fn(x) for x in items]` on `jobs` processes (default: the machine's cores), with a
    progress bar on stderr. An exception in a job is raised here, after the pool stops."""
    items = list(items)
    jobs = min(jobs or default_jobs(), max(1, len(items)))
    try:
        return _map(fn, items, jobs, label, progress)
    finally:
        stderr = click.get_text_stream("stderr")
        if progress and not stderr.isatty():
            click.echo("", err=True)  # click prints only the label off a terminal: end it


def _map(fn, items, jobs, label, progress):
    with click.progressbar(length=len(items), label=label, file=click.get_text_stream("stderr"),
                           show_pos=True) if progress else _NoBar() as bar:
        if jobs == 1:
            results = []
            for item in items:
                results.append(fn(item))
                bar.update(1)
            return results
        # "spawn": workers start clean (no copied solver threads or locks from this process).
        context = multiprocessing.get_context("spawn")
        results_by_index: dict[int, R] = {}
        with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
            futures = {pool.submit(fn, item): k for k, item in enumerate(items)}
            try:
                for future in as_completed(futures):
                    results_by_index[futures[future]] = future.result()
                    bar.update(1)
            except BaseException:
                for future in futures:
                    future.cancel()
                raise
        return [results_by_index[k] for k in range(len(items))]


class _NoBar:
    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        return None

    def update(self, n: int) -> None:
        return None
