"""Write a DataflowIR bundle for C = A + B on an R x C f16 tensor over the 32 cores of spyre,
shaped like the lowering's output (docs/dataflowir.md section 6, the structure of
tests/lower/fixtures/add_96x64_bundle): per core a DMA load unit brings tiles of A and B into
double-buffered scratchpad, each corelet streams its rows to its vector unit in chunks of
k sticks, the vector unit adds, the store unit writes the scratchpad and the DMA store
unit writes tiles back. For the emulator's speed benchmark at sizes the hand-written
fixture does not cover.

    python bench/add_bundle.py OUT_DIR [--rows 4096] [--cols 4096] [--tile-rows 2] [--chunk 8]

Speed of the emulator on the default bundle (4096x4096, 2-row DMA tiles, 8-stick chunks:
675878 cycles, 196608 events), CPU time per launch, median (range) of 12 launches in
alternating processes, 2026-12-01 17:10-17:25 UTC, load average 9.9-11.5 on 2 cores:
2.75 s (2.29-3.48), 6.1 M elements/s before the second speed pass; 2.28 s (2.08-2.47),
7.4 M elements/s (6.8-8.1) after it; ~9.8 M elements/s estimated on a quiet machine
(docs/emulator.md, "Speed": the target is 9.3). tests/emulator/device/test_emu_in_place.py
draws bundles of this shape with hypothesis.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

CORES = 32
CORELETS = 2
STICK = 64  # f16 per 128-byte stick


def kernel_text(rows: int, cols: int) -> str:
    per = rows // CORES
    return f"""// C = A + B on a {rows}x{cols} f16 tensor, split over 32 compute tiles of {per} rows.
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + {per - 1} >= 0, d1 >= 0, -d1 + {cols - 1} >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + {rows - 1} >= 0, d1 >= 0, -d1 + {cols - 1} >= 0)>
#rowmajor = affine_map<(d0, d1) -> (d0, d1)>

func.func @add(%A: index, %B: index, %C: index) attributes {{grid = [32]}} {{
  %c0 = arith.constant 0 : index
  %cper = arith.constant {per} : index
  %id = ktdp.get_compute_tile_id : index
  %row0 = arith.muli %id, %cper : index
  %Av = ktdp.construct_memory_view %A, sizes: [{rows}, {cols}], strides: [{cols}, 1] {{
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global> }} : memref<{rows}x{cols}xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [{rows}, {cols}], strides: [{cols}, 1] {{
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global> }} : memref<{rows}x{cols}xf16>
  %Cv = ktdp.construct_memory_view %C, sizes: [{rows}, {cols}], strides: [{cols}, 1] {{
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global> }} : memref<{rows}x{cols}xf16>
  %At = ktdp.construct_access_tile %Av[%row0, %c0] {{
      access_tile_set = #tile, access_tile_order = #rowmajor }} : memref<{rows}x{cols}xf16> -> !ktdp.access_tile<{per}x{cols}xindex>
  %Bt = ktdp.construct_access_tile %Bv[%row0, %c0] {{
      access_tile_set = #tile, access_tile_order = #rowmajor }} : memref<{rows}x{cols}xf16> -> !ktdp.access_tile<{per}x{cols}xindex>
  %Ct = ktdp.construct_access_tile %Cv[%row0, %c0] {{
      access_tile_set = #tile, access_tile_order = #rowmajor }} : memref<{rows}x{cols}xf16> -> !ktdp.access_tile<{per}x{cols}xindex>
  %a = ktdp.load %At : !ktdp.access_tile<{per}x{cols}xindex> -> tensor<{per}x{cols}xf16>
  %b = ktdp.load %Bt : !ktdp.access_tile<{per}x{cols}xindex> -> tensor<{per}x{cols}xf16>
  %e = tensor.empty() : tensor<{per}x{cols}xf16>
  %c = linalg.add ins(%a, %b : tensor<{per}x{cols}xf16>, tensor<{per}x{cols}xf16>) outs(%e : tensor<{per}x{cols}xf16>) -> tensor<{per}x{cols}xf16>
  ktdp.store %c, %Ct : tensor<{per}x{cols}xf16>, !ktdp.access_tile<{per}x{cols}xindex>
  return
}}
"""


def access(rows: int, cols: int, row_stride: int) -> str:
    return (f"#agen.access<set = affine_set<(d0, d1) : (d0 >= 0, -d0 + {rows - 1} >= 0, d1 >= 0, "
            f"-d1 + {cols - 1} >= 0)>, order = affine_map<(d0, d1) -> (d0, d1)>, "
            f"strides = [{row_stride}, 1]>")


def program_text(rows: int, cols: int, tile_rows: int, chunk: int) -> str:
    per = rows // CORES
    tiles = per // tile_rows
    row_bytes = cols * 2
    tile_bytes = tile_rows * row_bytes
    chunks = cols // STICK // chunk
    chunk_bytes = chunk * STICK * 2
    share = -(-tile_rows // CORELETS)
    lx = {"A": 0, "B": 2 * tile_bytes, "C": 4 * tile_bytes}
    cores = [f"core{c}" for c in range(CORES)]
    corelets = [f"core{c}.corelet{k}" for c in range(CORES) for k in range(CORELETS)]

    def units(names, engine):
        return ", ".join(f'"{n}.{engine}"' for n in names)

    symbols = "\n".join(f"    %{t}{c} = symbol.create_symbol {{SymbolId = {i * CORES + c} : i64}} : index"
                        for i, t in enumerate("ABC") for c in range(CORES))
    keys = ", ".join(str(c) for c in range(CORES))
    maps = "\n".join(f"    %map_{t} = uniform.def_immutable_mapping("
                     + ", ".join(f"%{t}{c}" for c in range(CORES))
                     + f") {{keys = array<i64: {keys}>}} : !uniform.map" for t in "ABC")
    tile_acc = access(tile_rows, cols, cols)
    chunk_acc = access(chunk, STICK, STICK)
    vec = f"vector<{chunk}x{STICK}xf16>"
    corelet_range = """      %corelet = dataflow.instance_index "corelet" : index
      %first0 = arith.muli %corelet, %cshare : index
      %first = arith.minui %first0, %ctr : index
      %end0 = arith.addi %first, %cshare : index
      %end = arith.minui %end0, %ctr : index"""
    consts = f"""      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %ctiles = arith.constant {tiles} : index
      %ctb = arith.constant {tile_bytes} : index
      %crow = arith.constant {row_bytes} : index
      %cchunks = arith.constant {chunks} : index
      %cchb = arith.constant {chunk_bytes} : index
      %cshare = arith.constant {share} : index
      %ctr = arith.constant {tile_rows} : index
      %lx_A = arith.constant {lx["A"]} : index
      %lx_B = arith.constant {lx["B"]} : index
      %lx_C = arith.constant {lx["C"]} : index"""
    return f"""builtin.module @local_schedule_0 attributes {{dataflow.device = "spyre", dataflow.kernel = "add"}} {{
  func.func @local_schedule_0_body() {{
{symbols}
{maps}
    dataflow.fifo @a_in "lx_load" -> "sfu" {{depth = 8 : i64}} : vector<64xf16>
    dataflow.fifo @b_in "lx_load" -> "sfu" {{depth = 8 : i64}} : vector<64xf16>
    dataflow.fifo @c_out "sfu" -> "lx_store" {{depth = 16 : i64}} : vector<64xf16>
    dataflow.sync @ab_full "dma_load" -> "lx_load" {{initial = 0 : i64}}
    dataflow.sync @ab_free "lx_load" -> "dma_load" {{initial = 2 : i64}}
    dataflow.sync @c_full "lx_store" -> "dma_store" {{initial = 0 : i64}}
    dataflow.sync @c_free "dma_store" -> "lx_store" {{initial = 2 : i64}}
    dataflow.program_unit @p0_dma_load attributes {{engine = "dma_load", units = [{units(cores, "dma_load")}]}} {{
{consts}
      %core = dataflow.instance_index "core" : index
      %A = uniform.query_map %map_A[%core] : index
      %B = uniform.query_map %map_B[%core] : index
      %last = scf.for %t = %c0 to %ctiles step %c1 iter_args(%slot = %c0) -> (index) {{
        dataflow.sync_recv @ab_free peer %c0
        dataflow.sync_recv @ab_free peer %c1
        %tile_off = arith.muli %t, %ctb : index
        %slot_off = arith.muli %slot, %ctb : index
        %src_A = arith.addi %A, %tile_off : index
        %dst_A = arith.addi %lx_A, %slot_off : index
        agen.composite_load_and_store "ddr"[%src_A] {tile_acc} to "lx"[%dst_A] {tile_acc} : f16
        %src_B = arith.addi %B, %tile_off : index
        %dst_B = arith.addi %lx_B, %slot_off : index
        agen.composite_load_and_store "ddr"[%src_B] {tile_acc} to "lx"[%dst_B] {tile_acc} : f16
        dataflow.sync_send @ab_full peer %c0
        dataflow.sync_send @ab_full peer %c1
        %slot1 = arith.addi %slot, %c1 : index
        %next = arith.remui %slot1, %c2 : index
        scf.yield %next : index
      }}
    }}
    dataflow.program_unit @p0_lx_load attributes {{engine = "lx_load", units = [{units(corelets, "lx_load")}]}} {{
{consts}
{corelet_range}
      %last = scf.for %t = %c0 to %ctiles step %c1 iter_args(%slot = %c0) -> (index) {{
        dataflow.sync_recv @ab_full
        %slot_off = arith.muli %slot, %ctb : index
        %tile_A = arith.addi %lx_A, %slot_off : index
        %tile_B = arith.addi %lx_B, %slot_off : index
        scf.for %row = %first to %end step %c1 {{
          %row_off = arith.muli %row, %crow : index
          %row_A = arith.addi %tile_A, %row_off : index
          %row_B = arith.addi %tile_B, %row_off : index
          scf.for %j = %c0 to %cchunks step %c1 {{
            %ch_off = arith.muli %j, %cchb : index
            %at_A = arith.addi %row_A, %ch_off : index
            %a = agen.vector_load "lx"[%at_A] {chunk_acc} : {vec}
            dataflow.send %a to @a_in : {vec}
            %at_B = arith.addi %row_B, %ch_off : index
            %b = agen.vector_load "lx"[%at_B] {chunk_acc} : {vec}
            dataflow.send %b to @b_in : {vec}
          }}
        }}
        dataflow.sync_send @ab_free
        %slot1 = arith.addi %slot, %c1 : index
        %next = arith.remui %slot1, %c2 : index
        scf.yield %next : index
      }}
    }}
    dataflow.program_unit @p0_sfu attributes {{engine = "sfu", units = [{units(corelets, "sfu")}]}} {{
{consts}
{corelet_range}
      scf.for %t = %c0 to %ctiles step %c1 {{
        scf.for %row = %first to %end step %c1 {{
          scf.for %j = %c0 to %cchunks step %c1 {{
            %a = dataflow.receive @a_in : {vec}
            %b = dataflow.receive @b_in : {vec}
            %c = vectorchain.add %a, %b : {vec}
            dataflow.send %c to @c_out : {vec}
          }}
        }}
      }}
    }}
    dataflow.program_unit @p0_lx_store attributes {{engine = "lx_store", units = [{units(corelets, "lx_store")}]}} {{
{consts}
{corelet_range}
      %last = scf.for %t = %c0 to %ctiles step %c1 iter_args(%slot = %c0) -> (index) {{
        dataflow.sync_recv @c_free
        %slot_off = arith.muli %slot, %ctb : index
        %tile_C = arith.addi %lx_C, %slot_off : index
        scf.for %row = %first to %end step %c1 {{
          %row_off = arith.muli %row, %crow : index
          %row_C = arith.addi %tile_C, %row_off : index
          scf.for %j = %c0 to %cchunks step %c1 {{
            %c = dataflow.receive @c_out : {vec}
            %ch_off = arith.muli %j, %cchb : index
            %at_C = arith.addi %row_C, %ch_off : index
            agen.vector_store %c to "lx"[%at_C] {chunk_acc} : {vec}
          }}
        }}
        dataflow.sync_send @c_full
        %slot1 = arith.addi %slot, %c1 : index
        %next = arith.remui %slot1, %c2 : index
        scf.yield %next : index
      }}
    }}
    dataflow.program_unit @p0_dma_store attributes {{engine = "dma_store", units = [{units(cores, "dma_store")}]}} {{
{consts}
      %core = dataflow.instance_index "core" : index
      %C = uniform.query_map %map_C[%core] : index
      %last = scf.for %t = %c0 to %ctiles step %c1 iter_args(%slot = %c0) -> (index) {{
        dataflow.sync_recv @c_full peer %c0
        dataflow.sync_recv @c_full peer %c1
        %tile_off = arith.muli %t, %ctb : index
        %slot_off = arith.muli %slot, %ctb : index
        %src_C = arith.addi %lx_C, %slot_off : index
        %dst_C = arith.addi %C, %tile_off : index
        agen.composite_load_and_store "lx"[%src_C] {tile_acc} to "ddr"[%dst_C] {tile_acc} : f16
        dataflow.sync_send @c_free peer %c0
        dataflow.sync_send @c_free peer %c1
        %slot1 = arith.addi %slot, %c1 : index
        %next = arith.remui %slot1, %c2 : index
        scf.yield %next : index
      }}
    }}
    func.return
  }}
}}
"""


def write(out: Path, rows: int = 4096, cols: int = 4096, tile_rows: int = 2, chunk: int = 8) -> Path:
    if rows % CORES or (rows // CORES) % tile_rows or cols % (STICK * chunk):
        raise ValueError("rows must split over 32 cores in whole tiles; cols in whole chunks")
    out.mkdir(parents=True, exist_ok=True)
    kernel = kernel_text(rows, cols)
    (out / "kernel.mlir").write_text(kernel)
    (out / "local_schedule_0.mlir").write_text(program_text(rows, cols, tile_rows, chunk))
    per = rows // CORES
    symbols = [{"id": i * CORES + c, "program": "local_schedule_0", "kind": "address",
                "argument": t, "memory": "ddr", "core": c, "granularity": 1,
                "expr": ["mul", ["add", ["arg", t], c * per * cols], 2],
                "text": f"({t} + {c * per * cols}) * 2"}
               for i, t in enumerate("ABC") for c in range(CORES)]
    (out / "symbols.json").write_text(json.dumps({"format": "spyre-sched.symbols/1", "kernel": "add",
                                                  "symbols": symbols}, indent=2) + "\n")
    args = [{"name": t, "kind": "pointer", "element_type": "f16", "shape": [rows, cols],
             "role": "out" if t == "C" else "in"} for t in "ABC"]
    plan = {"format": "spyre-sched.jobplan/1", "kernel": "add", "device": "spyre", "arguments": args,
            "grid": [CORES],
            "prepare": [{"step": "load_program", "program": "local_schedule_0",
                         "file": "local_schedule_0.mlir"}],
            "execute": [{"step": "evaluate_symbols", "program": "local_schedule_0", "call": 0,
                         "bindings": {t: ["arg", t] for t in "ABC"},
                         "symbols": [s["id"] for s in symbols]},
                        {"step": "write_symbols", "program": "local_schedule_0", "call": 0},
                        {"step": "launch", "program": "local_schedule_0", "call": 0}]}
    (out / "jobplan.json").write_text(json.dumps(plan, indent=2) + "\n")
    tile_bytes = tile_rows * cols * 2
    schedule = {"format": "spyre-sched.schedule/1", "kernel": "add", "kernel_file": "kernel.mlir",
                "kernel_sha256": hashlib.sha256(kernel.encode()).hexdigest(), "device": "spyre",
                "objective": "latency", "strategy": "bench/add_bundle.py",
                "decisions": {"p0.distribute.d0": CORELETS, "p0.pipe.lx.modulo": 2,
                              "p0.tile.lx.d0": tile_rows},
                "predicted_cycles": None,
                "buffers": [{"program": "local_schedule_0", "name": t, "memory": "lx",
                             "offset": 2 * i * tile_bytes, "bytes": 2 * tile_bytes, "slots": 2,
                             "slot_bytes": tile_bytes, "role": "output" if t == "C" else "input"}
                            for i, t in enumerate("ABC")],
                "pinned": [], "solver": None}
    (out / "schedule.json").write_text(json.dumps(schedule, indent=2) + "\n")
    (out / "global.mlir").write_text(GLOBAL)
    _seal(out)
    return out


#: the orchestrator: the kernel's signature, one call of the program
GLOBAL = """builtin.module attributes {dataflow.device = "spyre", dataflow.kernel = "add"} {
  func.func @add(%A: index, %B: index, %C: index) attributes {grid = [32 : i64]} {
    func.call @local_schedule_0(%A, %B, %C) : (index, index, index) -> ()
    func.return
  }
  func.func private @local_schedule_0(index, index, index) -> ()
}
"""


def _seal(out: Path) -> None:
    """manifest.json: every file's sha256 (docs/bundle.md), as a runtime checks it."""
    files = {p.name: p.read_bytes() for p in sorted(out.iterdir())
             if p.is_file() and p.name != "manifest.json"}
    listed = {name: {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}
              for name, data in files.items()}
    (out / "manifest.json").write_text(json.dumps({"format": "spyre-sched.manifest/1",
                                                   "files": listed}, indent=2) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--rows", type=int, default=4096)
    parser.add_argument("--cols", type=int, default=4096)
    parser.add_argument("--tile-rows", type=int, default=2)
    parser.add_argument("--chunk", type=int, default=8)
    args = parser.parse_args()
    write(args.out, args.rows, args.cols, args.tile_rows, args.chunk)


if __name__ == "__main__":
    main()
