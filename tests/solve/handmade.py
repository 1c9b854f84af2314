"""Hand-made solver problems shaped like the scheduler's output for an elementwise
kernel: an outer tile pipeline (DMA in, a nested vector pipeline, DMA out) per program."""

from __future__ import annotations

from spyre_sched.solve.problem import (
    Buffer,
    Candidate,
    Compute,
    Decision,
    FifoUse,
    PinnedRegion,
    Pipeline,
    Problem,
    Program,
    Quantity,
    RegisterUse,
    Stage,
    Transfer,
)

STICK = 128


def _divisors_or_all(extent: int) -> tuple[Candidate, ...]:
    return tuple(Candidate(v) for v in range(1, extent + 1))


def elementwise_program(index: int, rows: int, vecs: int, inputs: int = 2, *,
                        modulos=(1, 2, 3, 4), corelets: int = 2, cores: int = 32,
                        ops: int = 1, accumulator: bool = False,
                        fifo_entries: int | None = None) -> tuple[list[Decision], Program]:
    p = f"p{index}"
    t0 = Decision(f"{p}.tile.d0", "tile", index, _divisors_or_all(rows), extent=rows,
                  source="rows")
    t1 = Decision(f"{p}.tile.d1", "tile", index, _divisors_or_all(vecs), extent=vecs,
                  source="vectors")
    mod = Decision(f"{p}.pipe.outer.modulo", "modulo", index,
                   tuple(Candidate(m) for m in modulos))
    dist = Decision(f"{p}.distribute", "distribute", index,
                    tuple(Candidate(n, loop, trip) for loop, trip in (("d0", rows), ("d1", vecs))
                          for n in range(1, corelets + 1)))
    decisions = [t0, t1, mod, dist]
    tile_bytes = Quantity.of([t0, t1], lambda a, b: a.value * b.value * STICK)
    outer_iters = Quantity.of([t0, t1], lambda a, b: -(-rows // a.value) * -(-vecs // b.value))
    inner_iters = Quantity.of([t0, t1], lambda a, b: a.value * b.value)
    instances = Quantity.of([dist], lambda d: d.value)

    def dma_in(name):
        return Transfer(f"{p}.dma_in.{name}", tile_bytes, 128, 320, shared_bandwidth=150,
                        sharers=cores, source="ddr", target="lx")

    inner = Pipeline(f"{p}.inner", inner_iters, (
        Stage("lx_load", "load", tuple(
            Transfer(f"{p}.lx_load.{i}", Quantity.const(STICK), 128, 4) for i in range(inputs))),
        Stage("compute", "sfu", (Compute(f"{p}.sfu", Quantity.const(64), ops, 64, latency=6),)),
        Stage("lx_store", "store", (Transfer(f"{p}.lx_store", Quantity.const(STICK), 128, 4),)),
    ), modulo=16, instances=instances)
    outer = Pipeline(f"{p}.outer", outer_iters, (
        *(Stage(f"dma_in.{i}", "dma_load", (dma_in(i),)) for i in range(inputs)),
        Stage("compute", "corelets", (inner,)),
        Stage("dma_out", "dma_store", (Transfer(f"{p}.dma_out", tile_bytes, 128, 320,
                                                shared_bandwidth=150, sharers=cores),)),
    ), modulo=mod.name)
    buffers = tuple(Buffer(f"{p}.in{i}", tile_bytes, mod.name, "input", "lx")
                    for i in range(inputs)) + (Buffer(f"{p}.out", tile_bytes, mod.name,
                                                      "output", "lx"),)
    registers = ()
    if accumulator:
        registers = (RegisterUse(f"{p}.acc", Quantity.of([t0], lambda a: a.value * 4 * 64), 4096),)
    fifos = ()
    if fifo_entries is not None:
        fifos = (FifoUse(f"{p}.fifo", Quantity.of([mod], lambda m: m.value * fifo_entries), 16),)
    return decisions, Program(index, f"local_schedule_{index}", (outer,), buffers, fifos,
                              registers)


def elementwise_problem(rows: int = 3, vecs: int = 4, *, capacity: int = 2 * 1024 * 1024,
                        pinned: int = 0, programs: int = 1, **kw) -> Problem:
    decisions: list[Decision] = []
    progs = []
    for i in range(programs):
        d, p = elementwise_program(i, rows, vecs, **kw)
        decisions += d
        progs.append(p)
    regions = (PinnedRegion("E", pinned, "ct_local view %E"),) if pinned else ()
    return Problem("handmade", "spyre", capacity, tuple(decisions), tuple(progs), regions,
                   corelets=2)
