"""The bundle writer: a lowered schedule as a folder (docs/bundle.md), atomically.

Everything is built in memory first and verified (lowering errors leave the disk
untouched; `check=True` also parses every written .mlir back and compares the text), then
handed to `bundle_folder.place`, which writes it with its manifest and never touches what
the compiler did not write. Files are deterministic: the printer's text and JSON with a
fixed key order, 2-space indentation and a final newline.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

from xdsl.dialects import arith
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import BlockArgument, SSAValue
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from spyre_sched.dialects import ktdp
from spyre_sched.dialects.registry import make_context
from spyre_sched.errors import ParseError, SpyreSchedError, VerifyError
from spyre_sched.located_parser import LocatedParser
from spyre_sched.lower import runtime_shapes
from spyre_sched.lower.bundle_folder import check_destination, place
from spyre_sched.lower.lowering import Bundle, lower


def print_module(module: ModuleOp) -> str:
    out = io.StringIO()
    Printer(out).print_op(module)
    return out.getvalue() + "\n"


def json_text(data: dict) -> str:
    return json.dumps(data, indent=2) + "\n"


def bundle_files(bundle: Bundle) -> dict[str, bytes]:
    """File name -> bytes of every file of the bundle."""
    files: dict[str, bytes] = {"global.mlir": print_module(bundle.global_module).encode()}
    for name, module in bundle.programs:
        files[f"{name}.mlir"] = print_module(module).encode()
    files["symbols.json"] = json_text(bundle.symbols).encode()
    files["jobplan.json"] = json_text(bundle.jobplan).encode()
    files["schedule.json"] = json_text(bundle.schedule).encode()
    if bundle.kernel_text is not None:
        files["kernel.mlir"] = bundle.kernel_text
    return files


def check_round_trip(name: str, text: str) -> None:
    """Our own output must parse, verify and print back to itself."""
    try:
        module = Parser(make_context(), text, name).parse_module()
        module.verify()
    except Exception as err:  # a bug in the lowering, reported with the file it is in
        raise VerifyError(f"the lowering wrote {name}, which does not parse back: {err}",
                          "bundle writer") from None
    if print_module(module) != text:
        raise VerifyError(f"the lowering wrote {name}, which does not print back to itself",
                          "bundle writer")


def write(bundle: Bundle, out: str | Path, *, check: bool = False) -> Path:
    """Write `bundle` to OUT/ atomically, with its manifest; return OUT. Every module is
    verified first; `check` also parses each written text back (slow; the tests do it for
    every bundle). OUT/ must be new, empty, or a bundle this tool wrote (`bundle_folder`)."""
    check_destination(out)  # before the work below: a refused OUT/ fails fast
    for module in [bundle.global_module, *(m for _, m in bundle.programs)]:
        try:
            module.verify()
        except VerifyException as err:  # (anything else is a bug: reported as internal)
            raise VerifyError(f"the lowering built invalid DataflowIR: {err}", "bundle writer") from None
    files = bundle_files(bundle)
    if check:
        for name, data in files.items():
            if name.endswith(".mlir") and name != "kernel.mlir":
                check_round_trip(name, data.decode())
    return place(files, out)


# ---- from a solved schedule --------------------------------------------------------------


def arguments_from_schedule_ir(module: ModuleOp,
                               shapes: dict[str, tuple[int, ...]] | None = None,
                               folded: dict[str, int | float] | None = None) -> list[dict]:
    """The kernel's arguments as the job plan lists them, read from the ScheduleIR: a
    pointer argument's element type from the views built on it, its role from the
    transfers reading (in) or writing (out) those views, its shape from `shapes` (the shape
    of the array passed for it, the memory at the pointer: the compiler's argument
    inference gives it) else from its first view (with run-time extents as expressions).
    A scalar whose value was folded into the kernel (`folded`) states it: the bundle holds
    for that value only, and a runtime refuses another."""
    from xdsl.dialects import func
    from xdsl.dialects.builtin import MemRefType

    from spyre_sched.dialects import ktdf
    from spyre_sched.normalize.scratchpad_arguments import scratchpad_arguments

    kernel = next(op for op in module.body.block.ops
                  if isinstance(op, func.FuncOp) and not op.is_declaration)
    names = [a.name_hint for a in kernel.body.block.args]
    spare_memory = set(ktdf.workspaces(kernel))
    info: dict[str, dict] = {}
    for op in module.walk():
        if isinstance(op, ktdp.ConstructMemoryViewOp):
            arg = _pointer_of(op.offset)
            name = getattr(arg, "name_hint", None)
            if name not in names:
                continue
            mtype = op.result.type
            assert isinstance(mtype, MemRefType)
            shape = (list(shapes[name]) if shapes and name in shapes
                     else runtime_shapes.view_shape(op))
            entry = info.setdefault(name, {"name": name, "kind": "pointer",
                                           "element_type": str(mtype.element_type),
                                           "shape": shape, "reads": False, "writes": False})
            # a gather view reads or writes the view it gathers from
            values = [op.result] + [u.operation.result for u in op.result.uses
                                    if isinstance(u.operation, ktdf.GatherViewOp)
                                    and u.operation.source is op.result]
            for value in values:
                for use in value.uses:
                    user = use.operation
                    if isinstance(user, ktdf.DataTransferOp):
                        if user.source is value:
                            entry["reads"] = True
                        if user.dest is value:
                            entry["writes"] = True
    for placed in scratchpad_arguments(kernel):
        # pinned in scratchpads at the offset the compiler chose: no view is built on
        # the pointer any more, the placement says what the runtime puts where
        info[placed.name] = {"name": placed.name, "kind": "pointer",
                             "element_type": placed.element_type,
                             "shape": list(shapes[placed.name]) if shapes and placed.name in shapes
                             else list(placed.shape),
                             "reads": placed.role in ("in", "inout"),
                             "writes": placed.role in ("out", "inout"),
                             "scratchpad": _placement_row(placed)}
    rows = []
    for arg in kernel.body.block.args:
        entry = info.get(arg.name_hint)
        if entry is None:
            row = (runtime_shapes.argument_row(arg)
                   or {"name": arg.name_hint, "kind": "scalar", "type": str(arg.type)})
            if folded and arg.name_hint in folded and row["kind"] == "scalar":
                row["folded"] = folded[arg.name_hint]
            rows.append(row)
            continue
        role = {(True, False): "in", (False, True): "out", (True, True): "inout"}.get(
            (entry.pop("reads"), entry.pop("writes")), "unused")
        # memory the compiler added for an intermediate: the runtime allocates it
        entry["role"] = "workspace" if arg.name_hint in spare_memory else role
        rows.append(entry)
    return rows


def _placement_row(placed) -> dict:
    """A scratchpad argument's placement as the job plan states it (docs/bundle.md)."""
    row: dict = {"offset": placed.offset, "core": placed.core}
    if placed.parts:
        row["origin"] = list(placed.origin)
        row["parts"] = [{"core": p.core, "lo": list(p.lo), "hi": list(p.hi),
                         "strides": list(p.strides)} for p in placed.parts]
    return row


def _pointer_of(offset: SSAValue) -> BlockArgument | None:
    """The argument a view's offset is built on: the offset itself, or the argument plus
    (or minus) other terms (`arith.addi %X, %c64`, `%X + tile * 1024`)."""
    if isinstance(offset, BlockArgument):
        return offset
    op = offset.owner
    if isinstance(op, arith.AddiOp):
        return _pointer_of(op.lhs) or _pointer_of(op.rhs)
    if isinstance(op, arith.SubiOp):
        return _pointer_of(op.lhs)
    return None


def bundle_from_schedule_ir(text: str, *, kernel_text: bytes | None, device=None,
                            objective: str | None = None, strategy: str | None = None,
                            predicted_cycles: int | None = None, solver: dict | None = None,
                            prediction: dict | None = None,
                            argument_shapes: dict[str, tuple[int, ...]] | None = None,
                            folded_arguments: dict[str, int | float] | None = None) -> Bundle:
    try:
        # (the located parser: its common ops and repeated attributes read without
        # xDSL's per-op machinery, the same IR; check_round_trip keeps xDSL's own)
        module = LocatedParser(make_context(), text, "<solved ScheduleIR>").parse_module()
        module.verify()
    except SpyreSchedError:
        raise
    except Exception as err:
        raise ParseError(f"the solved ScheduleIR does not parse: {err}", "bundle writer") from None
    arguments = arguments_from_schedule_ir(module, argument_shapes, folded_arguments)
    return lower(module, device, arguments=arguments,
                 objective=objective, strategy=strategy, predicted_cycles=predicted_cycles,
                 solver=solver, kernel_text=kernel_text, prediction=prediction)


def write_bundle(source, out: str | Path, *, kernel_path: str | Path | None = None,
                 kernel_text: bytes | None = None) -> Path:
    """Write a bundle for `source`: a `Bundle`, or a solved schedule (`spyre_sched.compile`'s
    `Schedule`: its `.schedule_ir` text, decisions, predicted cycles and solver summary)."""
    if isinstance(source, Bundle):
        return write(source, out)
    text = getattr(source, "schedule_ir", None)
    if not isinstance(text, str):
        raise SpyreSchedError("write_bundle needs a Bundle or a solved Schedule", "bundle writer")
    if kernel_text is None:
        if kernel_path is not None:
            kernel_text = Path(kernel_path).read_bytes()
        else:
            # the exact bytes the kernel was compiled from: its file when known
            path = getattr(source, "kernel_path", None)
            source_text = getattr(source, "kernel_text", None)
            if path is not None and Path(path).is_file() and "ktdf." not in (source_text or ""):
                kernel_text = Path(path).read_bytes()
            elif isinstance(source_text, str) and "ktdf." not in source_text:
                kernel_text = source_text.encode()
    # the trace's summary is enough here: the decisions' explanations are not recorded
    trace = getattr(source, "summary", None) or getattr(source, "trace", None)
    solver = _solver_summary(trace)
    bundle = bundle_from_schedule_ir(
        text, kernel_text=kernel_text, objective=getattr(source, "objective", None),
        strategy=getattr(source, "strategy", None),
        predicted_cycles=getattr(source, "predicted_cycles", None), solver=solver,
        prediction=_prediction(trace), argument_shapes=getattr(source, "argument_shapes", None),
        folded_arguments=getattr(source, "folded_arguments", None))
    return write(bundle, out)


def _prediction(trace) -> dict | None:
    """Per program the cycles of one call, and what the solver's figure assumed about calls
    only a launch decides (run-time loops, launch-time branches): the runtime multiplies
    the per-call cycles by the calls each launch makes."""
    programs = trace.get("programs") if isinstance(trace, dict) else None
    if not programs or any("cycles_per_call" not in p for p in programs):
        return None
    return {"per_call": {p["name"]: int(p["cycles_per_call"]) for p in programs},
            "assumed": sorted({a for p in programs for a in p.get("assumed") or []})}


def _solver_summary(trace) -> dict | None:
    if trace is None:
        return None
    if isinstance(trace, dict):
        data = trace
    elif hasattr(trace, "as_dict"):
        data = trace.as_dict()
    elif hasattr(trace, "__dict__"):
        data = dict(vars(trace))
    else:
        return {"text": str(trace)}
    # wall time is left out: the bundle must be byte-identical from run to run
    keep = ("status", "objective", "objective_value", "best_bound", "bound", "gap",
            "strategy", "num_branches", "num_conflicts")
    summary = {k: data[k] for k in keep if k in data and _jsonable(data[k])}
    return summary or None


def _jsonable(value) -> bool:
    try:
        json.dumps(value)
        return True
    except TypeError:
        return False


__all__ = ["write", "write_bundle", "bundle_files", "bundle_from_schedule_ir",
           "arguments_from_schedule_ir", "StringAttr"]
