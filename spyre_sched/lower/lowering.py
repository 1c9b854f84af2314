"""Solved ScheduleIR -> a bundle in memory: the orchestrator, one DataflowIR module per
program, the symbol table, the job plan and the schedule summary (docs/bundle.md)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, ModuleOp, StringAttr
from xdsl.ir import Operation
from xdsl.utils.exceptions import VerifyException

from spyre_sched.device import load_device
from spyre_sched.device.model import Device
from spyre_sched.dialects import ktdf
from spyre_sched.errors import DeviceError, UnsupportedError, VerifyError
from spyre_sched.lower import symbols as sx
from spyre_sched.lower.job_plan import execute_plan
from spyre_sched.lower.program import lower_program
from spyre_sched.lower.units import Units


@dataclass
class Bundle:
    kernel: str
    device: str
    global_module: ModuleOp
    programs: list[tuple[str, ModuleOp]]
    symbols: dict
    jobplan: dict
    schedule: dict
    kernel_text: bytes | None = None
    extra: dict = field(default_factory=dict)


def _orchestrator(module: ModuleOp) -> tuple[func.FuncOp, list[func.FuncOp], list[ModuleOp]]:
    kernel = None
    decls: list[func.FuncOp] = []
    programs: list[ModuleOp] = []
    for op in module.body.block.ops:
        if isinstance(op, func.FuncOp):
            if op.is_declaration:
                decls.append(op)
            elif kernel is None:
                kernel = op
            else:
                raise UnsupportedError("lowering: the ScheduleIR has two orchestrator functions")
        elif isinstance(op, ModuleOp):
            programs.append(op)
    if kernel is None:
        raise VerifyError("the ScheduleIR has no orchestrator function", "pass lower")
    return kernel, decls, programs


def _program_function(program: ModuleOp) -> func.FuncOp:
    for op in program.body.block.ops:
        if isinstance(op, func.FuncOp) and not op.is_declaration:
            return op
    raise VerifyError("a ScheduleIR program module has no function", "pass lower")


def lower(module: ModuleOp, device: Device | None = None, *, device_name: str | None = None,
          arguments: list[dict] | None = None, objective: str | None = None,
          strategy: str | None = None, predicted_cycles: int | None = None,
          solver: dict | None = None, kernel_text: bytes | None = None,
          prediction: dict | None = None) -> Bundle:
    """`prediction`: {"per_call": {program: cycles of one call}, "assumed": [...]} from the
    solver's trace (schedule.json's `predicted_per_call`, `predicted_assumes`)."""
    try:
        ktdf.verify_solved(module)
    except VerifyException as err:
        raise VerifyError(str(err), "pass lower") from None
    name_attr = module.attributes.get("ktdf.device")
    device_name = device_name or (name_attr.data if isinstance(name_attr, StringAttr) else None)
    if device is None:
        if device_name is None:
            raise VerifyError("the ScheduleIR names no device (ktdf.device)", "pass lower")
        device = load_device(device_name)
    device_name = device_name or device.name
    kernel, decls, program_modules = _orchestrator(module)
    grid_attr = kernel.attributes.get("grid")
    grid = [int(g.value.data) for g in grid_attr.data] if isinstance(grid_attr, ArrayAttr) else [1]
    num_tiles = 1
    for g in grid:
        num_tiles *= g
    try:
        units = Units(device, num_tiles)
    except DeviceError as err:
        raise DeviceError(err.message, f"op func.func @{kernel.sym_name.data} in pass lower") from None
    counter = iter(range(1 << 30))
    programs: list[tuple[str, ModuleOp]] = []
    symbol_rows: list[dict] = []
    program_rows: list[dict] = []
    buffer_rows: list[dict] = []
    decisions: dict[str, int] = {}
    pinned_rows: list[dict] = []
    kname = kernel.sym_name.data
    for index, pm in enumerate(program_modules):
        fn = _program_function(pm)
        dmod, pa, tables = lower_program(index, fn, units, lambda: next(counter),
                                         device_name=device_name, kernel_name=kname)
        pname = fn.sym_name.data
        programs.append((pname, dmod))
        decisions.update(pa.decisions)
        for entry in sorted(tables.symbols, key=lambda e: e.id):
            symbol_rows.append({"id": entry.id, "program": pname, "kind": entry.kind,
                                "argument": entry.argument, "memory": entry.memory,
                                "core": entry.core, "granularity": 1, "expr": entry.expr,
                                "text": sx.text(entry.expr)})
        # what outlives the program (pinned: the kernel's views, kept regions) counts too
        used = max([b.alloc.end for b in pa.buffers.values() if b.alloc]
                   + [getattr(pa, "pinned_bytes", 0)])
        program_rows.append({"program": pname, "cores": num_tiles, "scratchpad_bytes": used,
                             "program_units": {f"p{index}_{e}": len(units.instances(info, pa.corelets.get(e, 1)))
                                               for e, info in pa.engines.items()}})
        for b in pa.buffers.values():
            assert b.alloc is not None
            buffer_rows.append({"program": pname, "name": b.op.operand.data, "memory": b.memory,
                                "offset": b.alloc.offset, "bytes": b.alloc.bytes, "slots": b.alloc.slots,
                                "slot_bytes": b.alloc.slot_bytes, "role": b.alloc.role})
        pinned = getattr(pa, "pinned_bytes", 0)
        if pinned:
            pinned_rows.append({"program": pname, "memory": units.memory_for_space("ct_local"),
                                "offset": 0, "bytes": pinned, "what": _pinned_what(fn)})
    global_module = _global_module(kernel, decls, device_name)
    execute = execute_plan(kernel, {p: _program_function(pm) for p, pm in
                                     zip([n for n, _ in programs], program_modules)}, symbol_rows)
    arg_rows = arguments if arguments is not None else [
        {"name": a.name_hint, "kind": "scalar", "type": str(a.type)} for a in kernel.body.block.args]
    jobplan = {"format": "spyre-sched.jobplan/1", "kernel": kname, "device": device_name,
               "arguments": arg_rows, "grid": grid,
               "prepare": [{"step": "load_program", "program": n, "file": f"{n}.mlir"} for n, _ in programs],
               "execute": execute}
    schedule = {"format": "spyre-sched.schedule/1", "kernel": kname, "kernel_file": "kernel.mlir" if kernel_text is not None else None,
                "kernel_sha256": hashlib.sha256(kernel_text).hexdigest() if kernel_text is not None else None,
                "device": device_name, "objective": objective, "strategy": strategy,
                "decisions": dict(sorted(decisions.items())), "predicted_cycles": predicted_cycles,
                "predicted_per_call": (prediction or {}).get("per_call"),
                "predicted_assumes": list((prediction or {}).get("assumed") or []),
                "programs": program_rows, "buffers": buffer_rows, "pinned": pinned_rows,
                "solver": solver}
    return Bundle(kname, device_name, global_module, programs,
                  {"format": "spyre-sched.symbols/1", "kernel": kname, "symbols": symbol_rows},
                  jobplan, schedule, kernel_text)


def _global_module(kernel: func.FuncOp, decls: list[func.FuncOp], device_name: str) -> ModuleOp:
    ops: list[Operation] = [kernel.clone(), *(d.clone() for d in decls)]
    module = ModuleOp(ops)
    module.attributes["dataflow.device"] = StringAttr(device_name)
    module.attributes["dataflow.kernel"] = StringAttr(kernel.sym_name.data)
    return module


def _pinned_what(fn) -> str:
    """What a program's pinned bytes hold: the kernel's ct_local views, and any region
    kept across programs (`ktdf.resident_at`, written by apply-keep) it must leave alone."""
    placed = fn.attributes.get("ktdf.resident_at")
    if placed is None:
        return "the kernel's ct_local views"
    regions = ", ".join(f"{name} at bytes [{r.get_values()[0]}, {r.get_values()[1]})"
                        for name, r in sorted(placed.data.items()))
    return f"the kernel's ct_local views and regions kept across programs: {regions}"
