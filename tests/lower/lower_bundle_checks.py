"""Checks every bundle must pass (the hand-written fixture and every compiled bundle):
files present, MLIR parses/verifies/prints back byte for byte, symbols.json agrees with the
outer functions and gives the start addresses the kernel expects, the job plan and the
schedule are consistent."""

from __future__ import annotations

import numpy as np

import hashlib
import io
import json
from pathlib import Path

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.printer import Printer

from emulator.bundle_files import BundleFiles
from spyre_sched.dialects.dataflow import ProgramUnitOp
from spyre_sched.dialects.registry import make_context
from spyre_sched.dialects.symbol import CreateSymbolOp
from spyre_sched.frontend import load_kernel
from spyre_sched.lower.symbols import evaluate, evaluate_outer_function, outer_function
from spyre_sched.polyhedral.footprint import access_points
from spyre_sched.polyhedral.kernel_model import KernelModel

REQUIRED = ("global.mlir", "symbols.json", "jobplan.json", "schedule.json", "kernel.mlir",
            "manifest.json")


def parse_file(path: Path) -> ModuleOp:
    module = Parser(make_context(), path.read_text(), str(path)).parse_module()
    module.verify()
    return module


def printed(module: ModuleOp) -> str:
    out = io.StringIO()
    Printer(out).print_op(module)
    return out.getvalue() + "\n"


def load(bundle: Path) -> dict:
    for name in REQUIRED:
        assert (bundle / name).is_file(), f"{name} missing from {bundle}"
    return {name: json.loads((bundle / name).read_text())
            for name in ("symbols.json", "jobplan.json", "schedule.json")}


def check_mlir_round_trip(bundle: Path) -> dict[str, ModuleOp]:
    modules = {}
    for path in sorted(bundle.glob("*.mlir")):
        if path.name == "kernel.mlir":
            continue
        module = parse_file(path)
        assert printed(module) == path.read_text(), f"{path.name} does not print back to itself"
        modules[path.stem] = module
    return modules


def indirect_points(model, access, tile, env):
    from spyre_sched.polyhedral.placement import indirect_points as may_touch

    return may_touch(model, access, tile, env)


def index_reads(model, access, tile, env):
    """(index view, coordinates read) of an indirect access in `tile`."""
    from spyre_sched.polyhedral.point_sets import enumerate_points, eval_affine_exprs
    from spyre_sched.polyhedral.placement import iterations

    op = access.tile_op
    e = model.default_env(tile)
    e.update(env or {})
    e[model.values.tile.name] = tile
    values = model.values
    for j, index_value in enumerate(op.index_views):
        imap = op.index_maps.data[j].data
        rows = []
        for inst in iterations(values, access.loops, e):
            outer = access._eval([values.expr(v) for v in op.outer], inst)
            syms = access._eval([values.expr(v) for v in op.tile_symbols], inst)
            qs = enumerate_points(op.variables_space_set.data, syms)
            if len(qs):
                rows.append(eval_affine_exprs(list(imap.results), qs, outer))
        if rows:
            yield index_value, np.unique(np.concatenate(rows), axis=0)


def expected_addresses(kernel_path: Path, args: dict[str, int]) -> dict[tuple[str, int], set[int]]:
    """(argument, tile) -> every byte address (element starts) the kernel's accesses through
    views on that argument touch in that tile, from the polyhedral model of the KTIR."""
    kernel = load_kernel(str(kernel_path))
    model = KernelModel(kernel.func)
    # the model's variable of each pointer argument (its isl name may differ from the
    # argument's: `S` is `v_S`)
    variables = {v.name: v.value.name_hint for v in model.variables
                 if v.value is not None and v.kind.value in ("argument", "loop")}
    found: dict[tuple[str, int], set[int]] = {}
    for tile in range(model.tile_count):
        for access in model.accesses:
            view = access.view
            if not hasattr(view, "address_of") or view.memory.space != "global":
                continue
            roots = [variables.get(v.name) for v in view.root]
            if len(roots) != 1 or roots[0] not in args:
                continue
            env = model.default_env(tile)
            for var, name in variables.items():
                if name in args:
                    env[var] = args[name]
            # an indirect access may touch any coordinate its index values can name
            # loops the orchestrator's counters do not bind (a loop whose bounds depend
            # on the tile, rewritten to count from 0) contribute every iteration
            points = (access_points(model, access, tile, env) if access.exact
                      else indirect_points(model, access, tile, env))
            addrs = view.address_of(points, env) * view.element_bytes
            found.setdefault((roots[0], tile), set()).update(int(a) for a in addrs)
            if not access.exact:  # and it reads its index tensors
                for index_value, coords in index_reads(model, access, tile, env):
                    iview = model.view_of(index_value)
                    iroots = [variables.get(v.name) for v in iview.root]
                    if len(iroots) == 1 and iroots[0] in args:
                        iaddrs = iview.address_of(coords, env) * iview.element_bytes
                        found.setdefault((iroots[0], tile), set()).update(int(a) for a in iaddrs)
    return found


def expected_starts(kernel_path: Path, args: dict[str, int]) -> dict[tuple[str, int], int]:
    """(argument, tile) -> lowest byte address the kernel touches through that argument."""
    return {k: min(v) for k, v in expected_addresses(kernel_path, args).items() if v}


def check_bundle(bundle: Path) -> None:
    data = load(bundle)
    modules = check_mlir_round_trip(bundle)
    symbols, jobplan, schedule = data["symbols.json"], data["jobplan.json"], data["schedule.json"]
    kernel_bytes = (bundle / "kernel.mlir").read_bytes()
    assert schedule["kernel_sha256"] == hashlib.sha256(kernel_bytes).hexdigest()
    # the manifest lists every other file of the folder, with the hash of its bytes
    listed = BundleFiles(bundle).hashes
    assert sorted(listed) == sorted(p.name for p in bundle.iterdir() if p.name != "manifest.json")
    assert schedule["kernel_file"] == "kernel.mlir"

    # Every program the job plan loads exists and every symbol it reads is in the table.
    table = {s["id"]: s for s in symbols["symbols"]}
    assert len(table) == len(symbols["symbols"]), "symbol ids repeat"
    for step in jobplan["prepare"]:
        assert step["step"] == "load_program" and (bundle / step["file"]).is_file()
        module = modules[step["program"]]
        used = {op.id for op in module.walk() if isinstance(op, CreateSymbolOp)}
        assert used <= set(table), f"{step['program']} reads symbols missing from symbols.json"
        assert all(table[i]["program"] == step["program"] for i in used)
        assert any(isinstance(op, ProgramUnitOp) for op in module.walk())

    # symbols.json and the outer functions agree, at two different address sets, and
    # address symbols are addresses the KTIR itself touches in that core's tile.
    arguments = [a["name"] for a in jobplan["arguments"]]
    runtime = {a["name"]: a for a in jobplan["arguments"] if a.get("kind") == "runtime"}
    for base in (0, 1 << 20):
        # pointers at two address sets; run-time arguments at their largest value
        args = {name: base + 4096 * (i + 1) for i, name in enumerate(arguments)}
        for name, a in runtime.items():
            args[name] = a.get("upperbound") or a.get("granularity") or 1
        cache: dict[tuple, dict] = {}
        for step, loop_env in _calls(jobplan["execute"], args):
            params = {p: evaluate(e, {**args, **loop_env}) for p, e in step["bindings"].items()}
            key = tuple(sorted({**args, **params}.items()))
            if key not in cache:  # orchestrator loop counters bind the kernel's loops
                cache[key] = expected_addresses(bundle / "kernel.mlir", {**args, **params})
            touched = cache[key]
            outer = outer_function(modules[step["program"]])
            from_ir = evaluate_outer_function(outer, params)
            for sid in step["symbols"]:
                value = evaluate(table[sid]["expr"], params)
                assert from_ir[sid] == value, f"symbol {sid}: IR {from_ir[sid]} vs table {value}"
                entry = table[sid]
                if entry["kind"] == "address" and entry["memory"] == "ddr" and entry["core"] is not None:
                    key = (entry["argument"], entry["core"])
                    assert key in touched, f"symbol {sid}: tile {entry['core']} never touches {key[0]}"
                    assert value in touched[key], (
                        f"symbol {sid} ({entry['text']}) = {value} is not an address tile "
                        f"{entry['core']} of the kernel touches in {entry['argument']} "
                        f"({min(touched[key])}..{max(touched[key])})")
    assert isinstance(modules["global"].body.block.first_op, func.FuncOp)


def _calls(steps: list[dict], args: dict[str, int], loop_env: dict[str, int] | None = None):
    """Every evaluate_symbols step, with its run-time loops' counters bound to their first
    and last values; both branches of a condition."""
    loop_env = loop_env or {}
    for step in steps:
        if step["step"] == "evaluate_symbols":
            yield step, loop_env
        elif step["step"] == "if":
            yield from _calls(step["then"] + step["else"], args, loop_env)
        elif step["step"] == "for":
            env = {**args, **loop_env}
            lb, ub, stride = (evaluate(step[k], env) for k in ("lb", "ub", "stride"))
            values = list(range(lb, ub, stride))
            for value in sorted({values[0], values[-1]}) if values else []:
                yield from _calls(step["body"], args, {**loop_env, step["var"]: value})
