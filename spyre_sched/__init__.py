"""spyre-sched: a compiler back end for Spyre-shaped dataflow accelerators."""


def run(schedule_or_kernel, inputs=None, **options):
    """Emulate a bundle folder (or compile a kernel first) and compare it with the reference
    interpreter: see `spyre_sched.emulate.run`. Returns a `RunResult`."""
    from spyre_sched.emulate import run as _run

    return _run(schedule_or_kernel, inputs, **options)


def compile(kernel, device="spyre", objective="latency", strategy="solver", **options):
    """Schedule a kernel and solve its decisions: see `spyre_sched.api.compile`. Returns a
    `Schedule` (.decisions, .predicted_cycles, .scratchpad_bytes, .trace, .schedule_ir)."""
    from spyre_sched.api import compile as _compile

    return _compile(kernel, device, objective, strategy, **options)
