"""Lowering: solved ScheduleIR -> DataflowIR and the SpyreCode bundle (docs/dataflowir.md,
docs/bundle.md).

- `values.py`: index values as affine forms (launch-time part -> symbols, run-time part ->
  unit arithmetic).
- `units.py`: engines of unit kinds and stages, concrete unit instances per core/corelet.
- `addresses.py`: scratchpad address assignment (alignment, pinned regions, capacity).
- `analysis.py`: one program's views, buffers, FIFOs, engines and sync channels.
- `program_units.py`: one `dataflow.program_unit` per engine (loops, slots, syncs,
  transfers, compute, chunks).
- `program.py`: a program's module (outer function with symbols, inner DataflowIR).
- `symbols.py`: symbol expressions (build, evaluate, print).
- `lowering.py`: the whole kernel: programs, orchestrator, job plan, schedule summary.
- `bundle.py`: the atomic, deterministic bundle writer.
"""
