"""`spyre-sched compile KERNEL.mlir -o OUT/`: the bundle writer's part of `compile`.

Compiles (schedule, solve with the command line's solver options, lower) and writes the
bundle folder (docs/bundle.md) atomically: nothing is created or changed in OUT/ unless
the whole compile succeeded. Given saved ScheduleIR instead of KTIR, `--kernel KTIR`
names the kernel to record as `kernel.mlir` (a ScheduleIR file does not carry it).
"""

from __future__ import annotations

from pathlib import Path

import click

from spyre_sched.errors import SpyreSchedError


def output_options(fn):
    fn = click.option("--kernel", "kernel_source", type=click.Path(exists=True, dir_okay=False),
                      default=None, metavar="KTIR",
                      help="With -o and a ScheduleIR input: the KTIR kernel to record in the "
                      "bundle as kernel.mlir.")(fn)
    fn = click.option("-o", "--output", "output", type=click.Path(file_okay=False), default=None,
                      metavar="OUT/", help="Write the SpyreCode bundle (DataflowIR, symbols, "
                      "job plan, schedule) to this folder instead of printing.")(fn)
    return fn


def write_output(source: str, device: str, output: str, options: dict) -> str:
    """Compile `source` and write its bundle to `output`; returns a one-line summary."""
    from spyre_sched.api import _is_schedule_ir
    from spyre_sched.cli_solve import compile_from_options
    from spyre_sched.lower.bundle import write_bundle

    schedule = compile_from_options(source, device, options)
    kernel = options.get("kernel_source")
    kernel_text = Path(kernel).read_bytes() if kernel else None
    if kernel_text is None:
        text = schedule.kernel_text or ""
        if _is_schedule_ir(text):
            raise SpyreSchedError("the input is ScheduleIR, which does not carry the kernel: "
                                  "give --kernel KTIR so the bundle can record kernel.mlir", source)
        kernel_text = text.encode() if text else None
    out = write_bundle(schedule, output, kernel_text=kernel_text)
    files = sorted(p.name for p in Path(out).iterdir())
    return (f"wrote bundle {out}/ ({', '.join(files)}): predicted {schedule.predicted_cycles} "
            f"cycles, peak scratchpad {schedule.scratchpad_bytes} bytes per core")
