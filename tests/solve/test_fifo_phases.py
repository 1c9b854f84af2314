"""The solver sees the FIFO depths the lowering gives (`lower.program._fifo_depths`): a
datapath's queue is split only among the FIFOs of one phase (`ktdf.fifo_phase`, one
compute of a run-once pipeline). Where the FIFOs' depths and the vectors per instruction
are the solver's decisions (an elementwise pipeline the lowering may chunk), the chunk is
bounded by the register file, not by the phase's share."""

from __future__ import annotations

from pathlib import Path

from xdsl.parser import Parser

from spyre_sched import api
from spyre_sched.dialects import ktdf
from spyre_sched.dialects.registry import make_context
from spyre_sched.solve import cost
from spyre_sched.solve.extract import extract, vector_period

ROOT = Path(__file__).resolve().parents[2]
LAYERNORM = ROOT / "bench/kernels/quick/layernorm.mlir"


def _module():
    module, _, _ = api.load_schedule_input(str(LAYERNORM), "spyre")
    return Parser(make_context(), api.print_ir(module)).parse_module()


def _fifo_pipelines(pipeline, found):
    for stage in pipeline.stages:
        for work in stage.work:
            if hasattr(work, "stages"):
                computes = any(hasattr(w, "period") for st in work.stages for w in st.work)
                if computes:  # a compute's FIFO pipeline (load -> sfu -> store)
                    found.append(work)
                _fifo_pipelines(work, found)
    return found


def test_each_computes_fifos_share_the_queue_only_within_its_phase():
    module = _module()
    phases = {}
    for op in module.walk():
        if isinstance(op, ktdf.FifoOp):
            slot = op.results[0].type
            if (slot.source.data, slot.dest.data) == ("load", "sfu"):
                phases.setdefault(ktdf.fifo_phase(op), []).append(op)
    # four computes, four stages of one run-once pipeline: 1, 1, 2 and 5 FIFOs lx_load -> sfu
    assert [len(v) for _, v in sorted(phases.items())] == [1, 1, 2, 5]
    assert len({p[0] for p in phases}) == 1 and sorted(p[1] for p in phases) == [0, 1, 2, 3]
    problem = extract(module).problem
    found: list = []
    for p in problem.programs[0].pipelines:
        _fifo_pipelines(p, found)
    # the queue (16) split per phase, as the lowering declares it; all nine sharing it
    # (the old split) would have given 1 for each. The normalisation's depths are
    # decisions: its pipeline's iterations in flight follow the chunk candidate's entries
    *fixed, chosen = [p.modulo for p in found]
    assert fixed == [16, 16, 8]
    chunk = problem.decision(chosen)
    assert chunk.kind == "chunk"
    flight = {c.label: cost.candidate_modulo("chunk", c) for c in chunk.candidates}
    # the vector computed + the entries held: a held chunk takes each FIFO's share of its
    # queue (3 of 16 for five FIFOs), however few vectors it moves per instruction
    assert flight["1"] == 4 and flight["3"] == 4
    assert all(flight[c.label] == 1 + min(c.entries) or flight[c.label] == 2
               for c in chunk.candidates if c.streams)


def test_normalisation_may_run_as_many_vectors_per_instruction_as_the_registers_hold():
    module = _module()
    problem = extract(module).problem
    generics = [op for op in module.walk() if op.name == "linalg.generic"]
    norm = generics[-1]  # the normalisation: the last compute
    computes = []

    def visit(p):
        for st in p.stages:
            for w in st.work:
                if hasattr(w, "stages"):
                    visit(w)
                elif hasattr(w, "period") and "p0.c3.tile.lx.d1" in w.period.scope:
                    computes.append(w)  # the normalisation (its vectors: the column tile)
    for p in problem.programs[0].pipelines:
        visit(p)
    (compute,) = computes
    periods = set(compute.period.table.values())
    per_vector = {k: -(-vector_period(norm, 32 * k, 32, 6) // k) for k in (1, 2, 3, 4, 8)}
    # one vector: the body's dependent ops, its constants made before the loop
    assert per_vector[1] == 60
    # k = 3 is what the phase's even share (16 // 5) holds, with no wait on the FIFOs; 8
    # vectors (4096 B of register file / 512 B of FIFO entries per vector) are a
    # candidate too, held with the five sharing the queue in send order (then the unit
    # waits a little on the shared queue: 2 cycles per vector) or streaming
    assert per_vector[3] in periods
    assert min(periods) == per_vector[8] + 2
