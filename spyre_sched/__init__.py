"""spyre-sched: a compiler back end for Spyre-shaped dataflow accelerators."""


def run(schedule_or_kernel, inputs=None, **options):
    """Emulate a bundle folder (or compile a kernel first) and compare it with the reference
    interpreter: see `spyre_sched.emulate.run`. Returns a `RunResult`."""
    from spyre_sched.emulate import run as _run

    return _run(schedule_or_kernel, inputs, **options)
