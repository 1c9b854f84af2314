"""Run many independent jobs (one per kernel) in a process pool, behind one small interface.

`map_jobs(fn, items, jobs=N)` returns `[fn(item) for item in items]`, in the order of
`items`, whatever order the workers finish in; `jobs=1` runs in this process, with no
pool at all, so a job's result never depends on how many workers there were. `fn` must
be a module-level function and items and results picklable (they cross processes).

`spyre-sched bench` uses it for the suite, and `spyre-sched compile` over a folder of
kernels can use it the same way. `on_result(index, result)`, when given, is called in
this process as each job finishes (in finishing order), so a caller can keep results a
later interruption would otherwise lose.

An interruption (Ctrl-C, SIGINT or SIGTERM to this process) stops the pool's workers
before it propagates: a worker ignores SIGINT (a terminal's Ctrl-C reaches the whole
process group, and a worker dying of it mid-queue would break the pool and leave its
siblings waiting for work forever), and on SIGTERM it unwinds the job it runs (its
temporary folders go) and exits; one that does not within `STOP_GRACE_S` is killed.

A cluster engine is another `Executor` with the same signature: `ray_executor(address)`
runs the jobs as Ray tasks (Ray is an optional extra, `pip install -e ".[ray]"`), on the
cluster at `address` or on a local Ray started for the run. `executor(backend, address)`
picks one by name.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Protocol, TypeVar

import click

T = TypeVar("T")
R = TypeVar("R")


OnResult = Callable[[int, R], None]
BACKENDS = ("local", "ray")

#: seconds a worker has to unwind its job after SIGTERM before it is killed
STOP_GRACE_S = 10.0


class Executor(Protocol):
    def __call__(self, fn: Callable[[T], R], items: Sequence[T], *, jobs: int | None = None,
                 label: str = "", progress: bool = True,
                 on_result: OnResult | None = None) -> list[R]: ...


def default_jobs() -> int:
    """The machine's cores (those this process may run on)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def map_jobs(fn: Callable[[T], R], items: Sequence[T], *, jobs: int | None = None,
             label: str = "", progress: bool = True,
             on_result: OnResult | None = None) -> list[R]:
    """`[fn(x) for x in items]` on `jobs` processes (default: the machine's cores), with a
    progress bar on stderr. An exception in a job is raised here, after the pool stops."""
    items = list(items)
    jobs = min(jobs or default_jobs(), max(1, len(items)))
    try:
        return _map(fn, items, jobs, label, progress, on_result or _ignore)
    finally:
        stderr = click.get_text_stream("stderr")
        if progress and not stderr.isatty():
            click.echo("", err=True)  # click prints only the label off a terminal: end it


def _ignore(index, result) -> None:
    return None


def _bar(label: str, length: int, progress: bool):
    return click.progressbar(length=length, label=label, file=click.get_text_stream("stderr"),
                             show_pos=True) if progress else _NoBar()


def _map(fn, items, jobs, label, progress, on_result):
    with _bar(label, len(items), progress) as bar:
        if jobs == 1:
            results = []
            for k, item in enumerate(items):
                results.append(fn(item))
                on_result(k, results[-1])
                bar.update(1)
            return results
        # "spawn": workers start clean (no copied solver threads or locks from this process).
        context = multiprocessing.get_context("spawn")
        results_by_index: dict[int, R] = {}
        with _sigterm_interrupts(), ProcessPoolExecutor(
                max_workers=jobs, mp_context=context, initializer=_worker_started) as pool:
            try:
                futures = {pool.submit(_run_job, fn, item): k for k, item in enumerate(items)}
                for future in as_completed(futures):
                    k = futures[future]
                    results_by_index[k] = future.result()
                    on_result(k, results_by_index[k])
                    bar.update(1)
            except BaseException:
                # Stopped, not cancelled: cancelling a queued job races the pool's own
                # clean-up when its workers die (CPython 3.11 then raises in its manager
                # thread); the pool marks the jobs left as broken, which nobody reads.
                _stop_workers(pool)
                raise
        return [results_by_index[k] for k in range(len(items))]


@contextlib.contextmanager
def _sigterm_interrupts():
    """SIGTERM to this process interrupts it as Ctrl-C does while the pool runs (left at
    its default, it would end this process at once and orphan the workers)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum, frame):
        raise KeyboardInterrupt()

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


class _Stopped(BaseException):
    """Raised in a worker's job by SIGTERM: a BaseException, so the job's `except
    Exception` clauses let it through and its `with` blocks clean up."""


_in_job = False  # (a worker's: whether SIGTERM has a job to unwind)


def _worker_started() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _on_sigterm)


def _on_sigterm(signum, frame) -> None:
    if not _in_job:
        os._exit(0)  # waiting for work: nothing to clean up
    # Once: the pool terminates the workers left when one exits, and a second _Stopped
    # would cut the first one's clean-up short.
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise _Stopped()


def _run_job(fn, item):
    global _in_job
    _in_job = True
    try:
        return fn(item)
    except _Stopped:
        os._exit(0)  # the job has unwound (its clean-up ran); its result is not wanted
    finally:
        _in_job = False


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """SIGTERM every worker of `pool`, then kill those still running after
    `STOP_GRACE_S`; a second Ctrl-C or SIGTERM meanwhile does not cut this short."""
    in_main = threading.current_thread() is threading.main_thread()  # (signal's rule)
    previous = {sig: signal.signal(sig, signal.SIG_IGN)
                for sig in (signal.SIGINT, signal.SIGTERM)} if in_main else {}
    try:
        # (the executor offers no public way to its processes)
        workers = list((getattr(pool, "_processes", None) or {}).values())
        for worker in workers:
            if worker.is_alive():
                worker.terminate()
        for worker in workers:
            worker.join(STOP_GRACE_S)
            if worker.is_alive():
                worker.kill()
                worker.join()
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def ray_executor(address: str | None = None) -> Executor:
    """An `Executor` running each job as a Ray task: on the cluster at `address` (`auto`:
    the one this machine belongs to), or on a local Ray started for the call and stopped
    after it. `jobs` caps the tasks in flight (default: the cluster's CPUs). Results come
    back in the items' order, like `map_jobs`; an exception in a job is raised here."""
    try:
        import ray
    except ImportError:
        from spyre_sched.errors import UsageError

        raise UsageError("--backend ray needs Ray, an optional extra: pip install -e "
                         "\".[ray]\" (or pip install ray)") from None

    def run(fn, items, *, jobs=None, label="", progress=True, on_result=None):
        items = list(items)
        on_result = on_result or _ignore
        started_here = not ray.is_initialized()
        if started_here:
            # A local Ray's workers import this checkout as the driver does.
            env = {"env_vars": {"PYTHONPATH": os.pathsep.join(
                p for p in [os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                            os.environ.get("PYTHONPATH", "")] if p)}} if address is None else None
            ray.init(address=address, runtime_env=env, include_dashboard=False,
                     logging_level="ERROR", log_to_driver=False)
        try:
            limit = jobs or max(1, int(ray.cluster_resources().get("CPU", 1)))
            task = ray.remote(num_cpus=1, max_retries=0)(fn)
            results_by_index: dict[int, object] = {}
            pending: dict[object, int] = {}
            waiting = list(enumerate(items))[::-1]
            with _bar(label, len(items), progress) as bar:
                while waiting or pending:
                    while waiting and len(pending) < limit:
                        k, item = waiting.pop()
                        pending[task.remote(item)] = k
                    # With a timeout: a wait without one blocks inside Ray, where Ctrl-C
                    # does not reach Python until a task ends.
                    done, _ = ray.wait(list(pending), num_returns=1, timeout=0.5)
                    for ref in done:
                        k = pending.pop(ref)
                        results_by_index[k] = ray.get(ref)
                        on_result(k, results_by_index[k])
                        bar.update(1)
            return [results_by_index[k] for k in range(len(items))]
        except BaseException:
            for ref in list(locals().get("pending", {})):
                ray.cancel(ref, force=True)
            raise
        finally:
            if started_here:
                ray.shutdown()
            stderr = click.get_text_stream("stderr")
            if progress and not stderr.isatty():
                click.echo("", err=True)

    return run


def executor(backend: str = "local", address: str | None = None) -> Executor:
    """The executor of a backend by name: `local` (a process pool) or `ray`."""
    if backend == "local":
        if address is not None:
            from spyre_sched.errors import UsageError

            raise UsageError("--address names a Ray cluster: it needs --backend ray")
        return map_jobs
    if backend == "ray":
        return ray_executor(address)
    from spyre_sched.errors import UsageError

    raise UsageError(f"unknown backend '{backend}'; expected {', '.join(BACKENDS)}")


class _NoBar:
    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        return None

    def update(self, n: int) -> None:
        return None
