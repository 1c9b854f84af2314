"""`spyre-sched compile KERNEL.mlir -o OUT/`: the bundle writer's part of `compile`.

Compiles (schedule, solve with the command line's solver options, lower) and writes the
bundle folder; a solved ScheduleIR input is lowered as it is, (docs/bundle.md) atomically: nothing is created or changed in OUT/ unless
the whole compile succeeded. Given saved ScheduleIR instead of KTIR, `--kernel KTIR`
names the kernel to record as `kernel.mlir` (a ScheduleIR file does not carry it), and
`--arg NAME=VALUE` the value of a scalar folded into the ScheduleIR before it was saved.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from spyre_sched.cli_arguments import argument_values
from spyre_sched.cli_solve import compile_from_options
from spyre_sched.errors import SpyreSchedError


def output_options(fn):
    fn = click.option("--kernel", "kernel_source", type=click.Path(exists=True, dir_okay=False),
                      default=None, metavar="KTIR",
                      help="With -o and a ScheduleIR input: the KTIR kernel to record in the "
                      "bundle as kernel.mlir.")(fn)
    # a plain string: a refused OUT/ (a file, "", a folder holding other things) is the
    # bundle writer's located error, exit 1
    fn = click.option("-o", "--output", "output", type=str, default=None,
                      metavar="OUT/", help="Write the SpyreCode bundle (DataflowIR, symbols, "
                      "job plan, schedule, manifest) to this folder instead of printing: a new "
                      "or empty folder, or a bundle spyre-sched wrote (replaced).")(fn)
    return fn


def _is_solved(text: str) -> bool:
    from xdsl.parser import Parser

    from spyre_sched.dialects import ktdf
    from spyre_sched.dialects.registry import make_context
    from spyre_sched.pipeline import STOPPED_AFTER_ATTR

    try:
        module = Parser(make_context(), text).parse_module()
    except Exception:
        return False  # not readable here: the solver's reader reports it with a location
    # saved by --stop-after: the passes after it (open-decisions among them) run first
    return STOPPED_AFTER_ATTR not in module.attributes and not ktdf.open_decisions(module)


def write_output(source: str, device: str, output: str, options: dict) -> str:
    """Compile `source` and write its bundle to `output`; returns a one-line summary."""
    from spyre_sched.api import _is_schedule_ir, memory_shapes
    from spyre_sched.frontend import load_kernel
    from spyre_sched.lower.bundle import bundle_from_schedule_ir, write, write_bundle
    from spyre_sched.lower.bundle_folder import check_destination

    check_destination(output)  # refused before the compile, not after it
    kernel = options.get("kernel_source")
    text = Path(source).read_text(errors="replace")
    # the arrays' shapes (the memory at each pointer), from the KTIR the bundle records
    shapes = memory_shapes(load_kernel(kernel, options.get("func"))) if kernel else None
    folded = (folded_in_schedule_ir(text, load_kernel(kernel, options.get("func")), options,
                                    source)
              if kernel and _is_schedule_ir(text) else None)
    if _is_schedule_ir(text) and _is_solved(text):
        # solved ScheduleIR: lower it as it is (its decisions are the user's)
        if not kernel:
            raise SpyreSchedError("the input is ScheduleIR, which does not carry the kernel: "
                                  "give --kernel KTIR so the bundle can record kernel.mlir", source)
        bundle = bundle_from_schedule_ir(text, kernel_text=Path(kernel).read_bytes(),
                                         argument_shapes=shapes, folded_arguments=folded)
        out = write(bundle, output)
        return f"wrote bundle {out}/ ({', '.join(sorted(p.name for p in Path(out).iterdir()))})"
    schedule = compile_from_options(source, device, options)
    if shapes is not None and not schedule.argument_shapes:
        schedule.argument_shapes = shapes
    if folded:
        schedule.folded_arguments = folded
    kernel_text = Path(kernel).read_bytes() if kernel else None
    if kernel_text is None:
        text = schedule.kernel_text or ""
        if _is_schedule_ir(text):
            raise SpyreSchedError("the input is ScheduleIR, which does not carry the kernel: "
                                  "give --kernel KTIR so the bundle can record kernel.mlir", source)
        kernel_text = text.encode() if text else None
    out = write_bundle(schedule, output, kernel_text=kernel_text)
    files = sorted(p.name for p in Path(out).iterdir())
    # the allocator's peak (buffers reuse dead buffers' bytes); the solver's figure counts
    # every buffer of a program as live at once
    programs = json.loads((Path(out) / "schedule.json").read_text()).get("programs") or []
    allocated = max([int(p.get("scratchpad_bytes", 0)) for p in programs] + [0])
    # calls only a launch decides (run-time loops, launch-time branches): say what the
    # figure assumed; `run` evaluates the prediction for the launch's arguments
    schedule_doc = json.loads((Path(out) / "schedule.json").read_text())
    assumed = schedule_doc.get("predicted_assumes") or []
    note = f" ({'; '.join(assumed)}; `run` predicts each launch)" if assumed else ""
    # device memory the compiler added (an intermediate it sends there): the caller pays it
    plan = json.loads((Path(out) / "jobplan.json").read_text())
    spare = [a for a in plan.get("arguments", []) if a.get("role") == "workspace"]
    extra = "".join(f"; workspace %{a['name']} {list(a['shape'])} {a['element_type']} in device "
                    "memory" for a in spare)
    return (f"wrote bundle {out}/ ({', '.join(files)}): predicted {schedule.predicted_cycles} "
            f"cycles{note}, peak scratchpad {allocated} bytes per core (solver's model: "
            f"{schedule.scratchpad_bytes}){extra}")


def folded_in_schedule_ir(text: str, kernel, options: dict, source: str) -> dict:
    """The values of the plain scalars the KTIR `kernel` reads but the ScheduleIR `text`
    does not: they were folded (`--arg`) before the ScheduleIR was saved, which does not
    record the value. The bundle must (a run with another value would compare against a
    kernel that was not compiled), so the same `--arg NAME=VALUE` is required here."""
    from xdsl.dialects import func
    from xdsl.ir import BlockArgument
    from xdsl.parser import Parser

    from spyre_sched.dialects.registry import make_context
    from spyre_sched.frontend.arguments import infer_arguments

    scalars = [a.name for a in infer_arguments(kernel.func) if a.role == "scalar"]
    if not scalars:
        return {}
    try:
        module = Parser(make_context(), text, source).parse_module()
    except Exception:
        return {}  # not readable here: the solver's reader reports it with a location
    read = set()
    for op in module.walk():
        if isinstance(op, func.CallOp):
            continue  # passing an argument on to a program is not reading it
        for operand in op.operands:
            if isinstance(operand, BlockArgument) and isinstance(
                    operand.owner.parent_op(), func.FuncOp):
                read.add(operand.name_hint)
    values = argument_values(options.get("arg_values") or ())
    folded = [name for name in scalars if name not in read]
    missing = [name for name in folded if name not in values]
    if missing:
        raise SpyreSchedError(
            f"the ScheduleIR does not read the scalar argument{'s' if len(missing) > 1 else ''} "
            f"{', '.join('%' + n for n in missing)} of the kernel: a value was folded into it "
            f"(--arg) before it was saved; give the same --arg "
            f"{' --arg '.join(n + '=VALUE' for n in missing)} so the bundle records it", source)
    return {name: values[name] for name in folded}
