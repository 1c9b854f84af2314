"""The fields of a bundle that the runtime uses, checked at prepare (docs/bundle.md).

Every field `prepare` and `launch` read is checked for its type and range here, before it
is used, so a malformed bundle is an error that names the file and the field
(`symbols.json: error: symbols[3].id: expected an integer, got "x"`), never a crash. The
files must also agree with each other where they state the same fact: the kernel's name
and device in every file, and the job plan against the orchestrator (`global.mlir`): the
kernel's arguments in order, its grid, the programs it declares and calls. A bundle whose
files disagree is refused, naming both; nothing a file states is silently ignored.
"""

from __future__ import annotations

import json

from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, ModuleOp, StringAttr

from spyre_sched.errors import ParseError

from emulator.job_plan import check_expression, check_steps

ARGUMENT_KINDS = ("pointer", "runtime", "scalar")
ROLES = ("in", "out", "inout", "unused", "workspace")
SYMBOL_KINDS = ("address", "shape", "index", "bits")


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _shown(value) -> str:
    text = json.dumps(value) if not isinstance(value, (list, dict)) else type(value).__name__
    return text if len(text) <= 60 else text[:57] + "..."


def _need(cond: bool, where: str, field: str, expected: str, value) -> None:
    if not cond:
        raise ParseError(f"{field}: expected {expected}, got {_shown(value)}", where)


def _field(doc: dict, key: str, where: str, prefix: str = ""):
    if key not in doc:
        raise ParseError(f"{prefix}{key}: missing", where)
    return doc[key]


def check_plan(plan: dict, where: str) -> None:
    """jobplan.json: kernel, device, grid, arguments, prepare, execute."""
    kernel = _field(plan, "kernel", where)
    _need(isinstance(kernel, str) and kernel != "", where, "kernel", "the kernel's name", kernel)
    device = _field(plan, "device", where)
    _need(isinstance(device, str) and device != "", where, "device", "a device name or path",
          device)
    grid = _field(plan, "grid", where)
    _need(isinstance(grid, list) and grid and all(_is_int(g) and g > 0 for g in grid), where,
          "grid", "a list of positive integers", grid)
    arguments = _field(plan, "arguments", where)
    _need(isinstance(arguments, list), where, "arguments", "a list", arguments)
    names: set[str] = set()
    for i, arg in enumerate(arguments):
        at = f"arguments[{i}]"
        _need(isinstance(arg, dict), where, at, "an object", arg)
        name = _field(arg, "name", where, f"{at}.")
        _need(isinstance(name, str) and name != "", where, f"{at}.name", "a name", name)
        if name in names:
            raise ParseError(f"{at}.name: argument '{name}' is listed twice", where)
        names.add(name)
        kind = _field(arg, "kind", where, f"{at}.")
        _need(kind in ARGUMENT_KINDS, where, f"{at}.kind", " or ".join(ARGUMENT_KINDS), kind)
        if kind == "pointer":
            element = _field(arg, "element_type", where, f"{at}.")
            _need(isinstance(element, str), where, f"{at}.element_type", "a type name", element)
            _check_element_type(element, where, f"{at}.element_type")
            role = arg.get("role", "in")
            _need(role in ROLES, where, f"{at}.role", " or ".join(ROLES), role)
            shape = arg.get("shape")
            _need(shape is None or isinstance(shape, list), where, f"{at}.shape",
                  "a list of extents", shape)
            for k, extent in enumerate(shape or []):
                if extent is not None:
                    check_expression(extent, where, f"{at}.shape[{k}]")
            if "scratchpad" in arg:
                _check_scratchpad_placement(arg["scratchpad"], shape, where, f"{at}.scratchpad")
        if "folded" in arg:  # the value compiled into the programs: a launch must agree
            folded = arg["folded"]
            _need(kind == "scalar", where, f"{at}.folded", "no folded value (only a scalar "
                  "argument is folded)", folded)
            _need(isinstance(folded, (int, float)) and not isinstance(folded, bool), where,
                  f"{at}.folded", "a number", folded)
            if not _is_float_name(arg.get("type")):
                _need(_is_int(folded), where, f"{at}.folded", f"an integer ({arg.get('type')})",
                      folded)
        for key in ("upperbound", "granularity"):  # a launch checks run-time values by them
            value = arg.get(key)
            _need(value is None or (_is_int(value) and value > 0), where, f"{at}.{key}",
                  "a positive integer or null", value)
    prepare = _field(plan, "prepare", where)
    _need(isinstance(prepare, list), where, "prepare", "a list of steps", prepare)
    programs: set[str] = set()
    for i, step in enumerate(prepare):
        at = f"prepare[{i}]"
        _need(isinstance(step, dict), where, at, "an object", step)
        kind = _field(step, "step", where, f"{at}.")
        if kind != "load_program":
            raise ParseError(f"{at}.step: unknown prepare step {_shown(kind)}", where)
        program = _field(step, "program", where, f"{at}.")
        _need(isinstance(program, str) and program != "", where, f"{at}.program",
              "a program name", program)
        if program in programs:
            raise ParseError(f"{at}.program: '{program}' is loaded twice", where)
        programs.add(program)
        _field(step, "file", where, f"{at}.")  # a file of the bundle: BundleFiles.read checks
    check_steps(_field(plan, "execute", where), programs, where)


def _check_scratchpad_placement(placement, shape, where: str, at: str) -> None:
    """A pointer argument pinned in scratchpads: its element offset, and the one core
    (null: every core's own scratchpad) or the parts (core, box lo..hi, strides) that
    hold it."""
    _need(isinstance(placement, dict), where, at, "an object", placement)
    offset = _field(placement, "offset", where, f"{at}.")
    _need(_is_int(offset) and offset >= 0, where, f"{at}.offset", "an element offset", offset)
    _need(isinstance(shape, list) and all(_is_int(d) for d in shape), where, f"{at}",
          "a static shape beside it", shape)
    parts = placement.get("parts")
    if not parts:
        core = placement.get("core")
        _need(core is None or (_is_int(core) and core >= 0), where, f"{at}.core",
              "a core index or null", core)
        return
    rank = len(shape)
    origin = _field(placement, "origin", where, f"{at}.")
    _need(isinstance(origin, list) and len(origin) == rank and all(map(_is_int, origin)),
          where, f"{at}.origin", f"{rank} integers", origin)
    for k, part in enumerate(parts):
        pat = f"{at}.parts[{k}]"
        _need(isinstance(part, dict), where, pat, "an object", part)
        core = _field(part, "core", where, f"{pat}.")
        _need(_is_int(core) and core >= 0, where, f"{pat}.core", "a core index", core)
        for key in ("lo", "hi", "strides"):
            value = _field(part, key, where, f"{pat}.")
            _need(isinstance(value, list) and len(value) == rank and all(map(_is_int, value)),
                  where, f"{pat}.{key}", f"{rank} integers", value)
        _need(all(a <= b for a, b in zip(part["lo"], part["hi"])), where, f"{pat}.hi",
              "no bound below lo", part["hi"])


def _is_float_name(name) -> bool:
    from emulator.numerics import element_type

    try:
        return element_type(str(name)).is_float
    except Exception:
        return False


def _check_element_type(name: str, where: str, field: str) -> None:
    from emulator.numerics import element_type

    try:
        element_type(name)
    except Exception:
        raise ParseError(f"{field}: '{name}' is not an element type the emulator knows",
                         where) from None


def check_symbols(doc: dict, where: str) -> dict[int, dict]:
    """symbols.json: the symbols by id, each with a valid `expr`."""
    rows = _field(doc, "symbols", where)
    _need(isinstance(rows, list), where, "symbols", "a list", rows)
    symbols: dict[int, dict] = {}
    for i, entry in enumerate(rows):
        at = f"symbols[{i}]"
        _need(isinstance(entry, dict), where, at, "an object", entry)
        sid = _field(entry, "id", where, f"{at}.")
        _need(_is_int(sid), where, f"{at}.id", "an integer", sid)
        if sid in symbols:
            raise ParseError(f"{at}.id: symbol {sid} is defined twice", where)
        check_expression(_field(entry, "expr", where, f"{at}."), where, f"{at}.expr")
        kind = entry.get("kind", "index")
        _need(kind in SYMBOL_KINDS, where, f"{at}.kind", " or ".join(SYMBOL_KINDS), kind)
        for key in ("memory", "text", "program"):
            value = entry.get(key)
            _need(value is None or isinstance(value, str), where, f"{at}.{key}", "a string",
                  value)
        symbols[sid] = entry
    return symbols


def check_schedule(schedule: dict, where: str) -> None:
    """schedule.json: the fields the runtime reads (predictions, buffers, pinned bytes)."""
    predicted = schedule.get("predicted_cycles")
    _need(predicted is None or _is_int(predicted), where, "predicted_cycles",
          "an integer or null", predicted)
    per_call = schedule.get("predicted_per_call")
    _need(per_call is None or (isinstance(per_call, dict)
                               and all(_is_int(v) for v in per_call.values())),
          where, "predicted_per_call", "an object of program -> cycles, or null", per_call)
    for key in ("decisions",):
        _need(schedule.get(key) is None or isinstance(schedule[key], dict), where, key,
              "an object", schedule.get(key))
    for key in ("predicted_assumes",):
        _need(schedule.get(key) is None or isinstance(schedule[key], list), where, key,
              "a list", schedule.get(key))
    for key, label in (("buffers", "name"), ("pinned", "what")):
        rows = schedule.get(key) or []
        _need(isinstance(rows, list), where, key, "a list", rows)
        for i, row in enumerate(rows):
            at = f"{key}[{i}]"
            _need(isinstance(row, dict), where, at, "an object", row)
            _need(isinstance(_field(row, "memory", where, f"{at}."), str), where,
                  f"{at}.memory", "a memory name", row["memory"])
            for number in ("offset", "bytes"):
                value = _field(row, number, where, f"{at}.")
                _need(_is_int(value) and value >= 0, where, f"{at}.{number}",
                      "a non-negative integer", value)
            if key == "buffers":
                _need(isinstance(_field(row, "program", where, f"{at}."), str), where,
                      f"{at}.program", "a program name", row["program"])
            else:
                _need(isinstance(row.get("program"), (str, type(None))), where,
                      f"{at}.program", "a program name or null", row.get("program"))
    for key in ("kernel_file", "kernel_sha256", "device", "kernel"):
        value = schedule.get(key)
        _need(value is None or isinstance(value, str), where, key, "a string or null", value)


def check_agreement(plan: dict, symbols_doc: dict, schedule: dict, folder) -> None:
    """The kernel's name and device are the same in every file that states them."""
    for name, doc in (("symbols.json", symbols_doc), ("schedule.json", schedule)):
        where = str(folder / name)
        for key in ("kernel", "device"):
            if doc.get(key) is not None and doc[key] != plan[key]:
                raise ParseError(f"{key}: {_shown(doc[key])}, but jobplan.json says "
                                 f"{_shown(plan[key])}: the files are of different bundles",
                                 where)


def _grid_of(fn: func.FuncOp) -> list[int] | None:
    """The function's grid; a kernel without one is a single tile ([1], as the lowering
    states it in the job plan)."""
    attr = fn.attributes.get("grid")
    if attr is None:
        return [1]
    if not isinstance(attr, ArrayAttr):
        return None
    return [int(g.value.data) for g in attr.data if isinstance(g, IntegerAttr)]


def check_orchestrator(module: ModuleOp, plan: dict, where: str) -> None:
    """global.mlir against the job plan: the same kernel (name, device, arguments in
    order, grid) and the same programs (declared, called, loaded, launched)."""
    def attr(name: str) -> str | None:
        value = module.attributes.get(name)
        return value.data if isinstance(value, StringAttr) else None

    for key, name in (("kernel", "dataflow.kernel"), ("device", "dataflow.device")):
        if attr(name) != plan[key]:
            raise ParseError(f"{name} is {_shown(attr(name))}, but jobplan.json's {key} is "
                             f"{_shown(plan[key])}", where)
    kernels = [op for op in module.ops if isinstance(op, func.FuncOp) and not op.is_declaration]
    if len(kernels) != 1:
        raise ParseError(f"expected one kernel function (the orchestrator), found "
                         f"{len(kernels)}", where)
    kernel = kernels[0]
    if kernel.sym_name.data != plan["kernel"]:
        raise ParseError(f"the orchestrator is @{kernel.sym_name.data}, but jobplan.json's "
                         f"kernel is {_shown(plan['kernel'])}", where)
    grid = _grid_of(kernel)
    if grid != plan["grid"]:
        raise ParseError(f"@{kernel.sym_name.data} has grid {grid}, but jobplan.json's grid is "
                         f"{plan['grid']}", where)
    names = [arg.name_hint for arg in kernel.body.block.args]
    planned = [a["name"] for a in plan["arguments"]]
    if names != planned:
        raise ParseError(f"@{kernel.sym_name.data} takes ({', '.join(map(str, names))}), but "
                         f"jobplan.json's arguments are ({', '.join(planned)})", where)
    declared = {op.sym_name.data for op in module.ops
                if isinstance(op, func.FuncOp) and op.is_declaration}
    called = {op.callee.root_reference.data for op in kernel.walk() if isinstance(op, func.CallOp)}
    loaded = {step["program"] for step in plan["prepare"]}
    if declared != loaded:
        raise ParseError(f"the orchestrator declares {_listing(declared)}, but jobplan.json "
                         f"loads {_listing(loaded)}", where)
    if not called <= loaded:
        raise ParseError(f"the orchestrator calls {_listing(called - loaded)}, which "
                         "jobplan.json does not load", where)


def _listing(programs: set[str]) -> str:
    return "{" + ", ".join(sorted(programs)) + "}" if programs else "no program"
