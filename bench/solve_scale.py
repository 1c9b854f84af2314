"""The solver at scale: `python bench/solve_scale.py [--quick] [--json FILE]`.

Three generated kernels (written by this script, nothing committed) that stress the
CP-SAT model in different directions:

- `add3d`: a 512x4096x16384 f16 add over a 32-tile grid (16x4096x16384 per tile): one
  program with three tile decisions of 7, 127 and 31 candidates, a modulo and three
  distribute decisions, whose candidate product is 1.76 M;
- `chain64`: 64 programs, each a 64x256 add reading the previous one's output (64 small
  independent parts, coupled only through the objective);
- `reduce16`: one program computing 16 row sums of one 64x256 input (16 carried
  reductions sharing a load).

Per kernel: decisions, CP-SAT variables and constraints, the time to schedule (KTIR ->
ScheduleIR, not counted), to extract the decisions, to build the model and to solve it,
CP-SAT's status and gap, the predicted cycles (the exact cost model); then the chain at
5, 10 and 20 ms time limits (what an anytime solve returns). `--quick` uses smaller
shapes. Point `PYTHONPATH` at another checkout to measure its code (the script only
imports `spyre_sched`). Nothing is asserted: wall-clock figures on a shared machine vary.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

if "PYTHONPATH" not in os.environ:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from spyre_sched.api import load_schedule_input  # noqa: E402
from spyre_sched.errors import SpyreSchedError  # noqa: E402
from spyre_sched.solve.extract import extract  # noqa: E402
from spyre_sched.solve.model import build  # noqa: E402
from spyre_sched.solve.solver import solve  # noqa: E402

GRID = 32


def add3d(a: int, b: int, c: int) -> str:
    t = a // GRID
    shape, tile = f"{a}x{b}x{c}", f"{t}x{b}x{c}"
    head = (
        f"// C = A + B on a {shape} f16 tensor, {GRID} tiles of {t} slices (bench/solve_scale.py)\n"
        f"#tile = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + {t - 1} >= 0, d1 >= 0, "
        f"-d1 + {b - 1} >= 0, d2 >= 0, -d2 + {c - 1} >= 0)>\n"
        f"#whole = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + {a - 1} >= 0, d1 >= 0, "
        f"-d1 + {b - 1} >= 0, d2 >= 0, -d2 + {c - 1} >= 0)>\n"
        "#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>\n"
        f"func.func @add3d(%A: index, %B: index, %C: index) attributes {{grid = [{GRID}]}} {{\n"
        "  %c0 = arith.constant 0 : index\n"
        f"  %ct = arith.constant {t} : index\n"
        "  %id = ktdp.get_compute_tile_id : index\n"
        "  %r = arith.muli %id, %ct : index\n")
    views = "".join(
        f"  %{n}v = ktdp.construct_memory_view %{n}, sizes: [{a}, {b}, {c}], "
        f"strides: [{b * c}, {c}, 1] {{\n"
        "      coordinate_set = #whole, memory_space = #ktdp.memory_space<global> }"
        f" : memref<{shape}xf16>\n"
        f"  %{n}t = ktdp.construct_access_tile %{n}v[%r, %c0, %c0] {{\n"
        "      access_tile_set = #tile, access_tile_order = #id3 }"
        f" : memref<{shape}xf16> -> !ktdp.access_tile<{tile}xindex>\n" for n in "ABC")
    body = (
        f"  %a = ktdp.load %At : !ktdp.access_tile<{tile}xindex> -> tensor<{tile}xf16>\n"
        f"  %b = ktdp.load %Bt : !ktdp.access_tile<{tile}xindex> -> tensor<{tile}xf16>\n"
        f"  %e = tensor.empty() : tensor<{tile}xf16>\n"
        f"  %s = linalg.add ins(%a, %b : tensor<{tile}xf16>, tensor<{tile}xf16>) "
        f"outs(%e : tensor<{tile}xf16>) -> tensor<{tile}xf16>\n"
        f"  ktdp.store %s, %Ct : tensor<{tile}xf16>, !ktdp.access_tile<{tile}xindex>\n"
        "  return\n}\n")
    return head + views + body


def _matrix_head(rows: int, cols: int) -> str:
    t = rows // GRID
    return (
        f"#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + {t - 1} >= 0, d1 >= 0, -d1 + {cols - 1} >= 0)>\n"
        f"#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + {rows - 1} >= 0, d1 >= 0, -d1 + {cols - 1} >= 0)>\n"
        f"#rowvec = affine_set<(d0) : (d0 >= 0, -d0 + {t - 1} >= 0)>\n"
        f"#allrows = affine_set<(d0) : (d0 >= 0, -d0 + {rows - 1} >= 0)>\n"
        "#id1 = affine_map<(d0) -> (d0)>\n"
        "#id2 = affine_map<(d0, d1) -> (d0, d1)>\n"
        "#rowmap = affine_map<(d0, d1) -> (d0)>\n")


def _matrix(name: str, rows: int, cols: int) -> str:
    t = rows // GRID
    return (
        f"  %{name}v = ktdp.construct_memory_view %{name}, sizes: [{rows}, {cols}], "
        f"strides: [{cols}, 1] {{\n"
        "      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>}"
        f" : memref<{rows}x{cols}xf16>\n"
        f"  %{name}t = ktdp.construct_access_tile %{name}v[%row, %c0] "
        "{access_tile_set = #tile, access_tile_order = #id2}\n"
        f"      : memref<{rows}x{cols}xf16> -> !ktdp.access_tile<{t}x{cols}xindex>\n")


def _prologue(rows: int) -> str:
    return ("  %c0 = arith.constant 0 : index\n"
            f"  %crows = arith.constant {rows // GRID} : index\n"
            "  %t = ktdp.get_compute_tile_id : index\n"
            "  %row = arith.muli %t, %crows : index\n")


def chain(programs: int, rows: int = 64, cols: int = 256) -> str:
    """X_k = X_{k-1} + B (X_0 = A + B): each step loads what the previous one stored, so
    each is its own program."""
    t = rows // GRID
    ty, at = f"tensor<{t}x{cols}xf16>", f"!ktdp.access_tile<{t}x{cols}xindex>"
    outs = [f"X{k}" for k in range(programs)]
    args = ", ".join(f"%{n}: index" for n in ["A", "B", *outs])
    text = (f"// a chain of {programs} adds, one program each (bench/solve_scale.py)\n"
            + _matrix_head(rows, cols)
            + f"func.func @chain({args}) attributes {{grid = [{GRID}]}} {{\n" + _prologue(rows))
    for n in ["A", "B", *outs]:
        text += _matrix(n, rows, cols)
    prev = "A"
    for k, out in enumerate(outs):
        text += (f"  %l{k} = ktdp.load %{prev}t : {at} -> {ty}\n"
                 f"  %b{k} = ktdp.load %Bt : {at} -> {ty}\n"
                 f"  %e{k} = tensor.empty() : {ty}\n"
                 f"  %s{k} = linalg.add ins(%l{k}, %b{k} : {ty}, {ty}) outs(%e{k} : {ty}) -> {ty}\n"
                 f"  ktdp.store %s{k}, %{out}t : {ty}, {at}\n")
        prev = out
    return text + "  return\n}\n"


def reductions(count: int, rows: int = 64, cols: int = 256) -> str:
    """S_k[i] = sum_j (k + 1) * X[i, j] for k < count: one program (the sums share X's load)."""
    t = rows // GRID
    ty, at = f"tensor<{t}x{cols}xf16>", f"!ktdp.access_tile<{t}x{cols}xindex>"
    outs = [f"S{k}" for k in range(count)]
    args = ", ".join(f"%{n}: index" for n in ["X", *outs])
    text = (f"// {count} row sums of one input, one program (bench/solve_scale.py)\n"
            + _matrix_head(rows, cols)
            + f"func.func @reduce{count}({args}) attributes {{grid = [{GRID}]}} {{\n"
            + _prologue(rows) + "  %zero = arith.constant 0.0 : f32\n" + _matrix("X", rows, cols))
    for n in outs:
        text += (f"  %{n}v = ktdp.construct_memory_view %{n}, sizes: [{rows}], strides: [1] {{\n"
                 "      coordinate_set = #allrows, memory_space = #ktdp.memory_space<global>}"
                 f" : memref<{rows}xf16>\n"
                 f"  %{n}t = ktdp.construct_access_tile %{n}v[%row] "
                 "{access_tile_set = #rowvec, access_tile_order = #id1}\n"
                 f"      : memref<{rows}xf16> -> !ktdp.access_tile<{t}xindex>\n")
    text += f"  %x = ktdp.load %Xt : {at} -> {ty}\n"
    for k, n in enumerate(outs):
        text += (
            f"  %w{k} = arith.constant {float(k + 1)} : f32\n"
            f"  %z{k} = tensor.empty() : tensor<{t}xf32>\n"
            f"  %f{k} = linalg.fill ins(%zero : f32) outs(%z{k} : tensor<{t}xf32>) -> tensor<{t}xf32>\n"
            f"  %r{k} = linalg.generic {{indexing_maps = [#id2, #rowmap], "
            "iterator_types = [\"parallel\", \"reduction\"]}\n"
            f"      ins(%x : {ty}) outs(%f{k} : tensor<{t}xf32>) {{\n"
            "  ^bb0(%xe: f16, %acc: f32):\n"
            "    %v = arith.extf %xe : f16 to f32\n"
            f"    %m = arith.mulf %v, %w{k} : f32\n"
            "    %a = arith.addf %m, %acc : f32\n"
            "    linalg.yield %a : f32\n"
            f"  }} -> tensor<{t}xf32>\n"
            f"  %h0{k} = tensor.empty() : tensor<{t}xf16>\n"
            f"  %h{k} = linalg.generic {{indexing_maps = [#id1, #id1], iterator_types = [\"parallel\"]}}\n"
            f"      ins(%r{k} : tensor<{t}xf32>) outs(%h0{k} : tensor<{t}xf16>) {{\n"
            "  ^bb0(%se: f32, %o: f16):\n"
            "    %q = arith.truncf %se : f32 to f16\n"
            "    linalg.yield %q : f16\n"
            f"  }} -> tensor<{t}xf16>\n"
            f"  ktdp.store %h{k}, %{n}t : tensor<{t}xf16>, !ktdp.access_tile<{t}xindex>\n")
    return text + "  return\n}\n"


def kernels(quick: bool) -> dict[str, str]:
    if quick:
        return {"add3d 64x1024x4096": add3d(64, 1024, 4096), "chain16": chain(16),
                "reduce4": reductions(4)}
    return {"add3d 512x4096x16384": add3d(512, 4096, 16384), "chain64": chain(64),
            "reduce16": reductions(16)}


def measure(name: str, text: str, folder: Path, time_limits: tuple[float, ...] = (),
            args_limit: float | None = None) -> dict:
    path = folder / f"{name.split()[0]}.mlir"
    path.write_text(text)
    row: dict = {"kernel": name}
    t0 = time.perf_counter()
    module, _, _ = load_schedule_input(str(path), "spyre")
    row["schedule_s"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    problem = extract(module).problem
    row["extract_s"] = time.perf_counter() - t0
    row["programs"] = len(problem.programs)
    row["decisions"] = len(problem.decisions)
    product = 1
    for d in problem.decisions:
        product *= len(d.candidates)
    row["candidates_sum"] = sum(len(d.candidates) for d in problem.decisions)
    try:
        t0, c0 = time.perf_counter(), time.process_time()
        built = build(problem)
        row["build_s"] = time.perf_counter() - t0
        row["build_cpu_s"] = time.process_time() - c0
        row["variables"], row["constraints"] = built.num_variables, built.num_constraints
        t0, c0 = time.perf_counter(), time.process_time()
        s = solve(problem, time_limit=args_limit)
        row["solve_total_s"] = time.perf_counter() - t0  # builds again, then CP-SAT
        row["solve_total_cpu_s"] = time.process_time() - c0
        row["cp_sat_s"] = s.stats.wall_time
        row["status"], row["gap"] = s.stats.status, s.stats.gap
        row["found_by"] = getattr(s.stats, "found_by", None)  # (older checkouts lack them)
        row["model_cycles"] = getattr(s.stats, "model_objective", None)
        row["cycles"] = s.cycles
        row["notes"] = s.notes
    except SpyreSchedError as err:
        row["status"] = "ERROR"
        row["error"] = str(err).splitlines()[0][:160]
    for limit in time_limits:
        try:
            t0 = time.perf_counter()
            s = solve(problem, time_limit=limit)
            row[f"limit {limit * 1000:g} ms"] = {
                "total_s": time.perf_counter() - t0, "status": s.stats.status,
                "found_by": getattr(s.stats, "found_by", None),
                "gap": s.stats.gap, "cycles": s.cycles, "notes": s.notes}
        except SpyreSchedError as err:
            row[f"limit {limit * 1000:g} ms"] = {"error": str(err).splitlines()[0][:160]}
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--only", default=None, help="a kernel name prefix")
    parser.add_argument("--time-limit", type=float, default=None,
                        help="CP-SAT's limit for the main solve (default: none)")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in kernels(args.quick).items():
            if args.only and not name.startswith(args.only):
                continue
            limits = (0.005, 0.01, 0.02) if name.startswith("chain") else ()
            row = measure(name, text, Path(tmp), limits, args.time_limit)
            rows.append(row)
            print(json.dumps(row, default=str), flush=True)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1, default=str))


if __name__ == "__main__":
    main()
