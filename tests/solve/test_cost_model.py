"""The cost model's formula, checked on figures worked out by hand."""

from __future__ import annotations

from spyre_sched.solve import cost
from spyre_sched.solve.problem import (
    Buffer,
    Candidate,
    Compute,
    Decision,
    PinnedRegion,
    Pipeline,
    Problem,
    Program,
    Quantity,
    Stage,
    Transfer,
)


def _one_pipeline(modulos=(1, 2, 3), iterations=10, nbytes=1000, bw=100, lat=50,
                  compute_elems=640, lanes=64, shared=None, sharers=1):
    mod = Decision("p0.mod", "modulo", 0, tuple(Candidate(m) for m in modulos))
    t = Transfer("load", Quantity.const(nbytes), bw, lat, shared, sharers)
    c = Compute("sfu", Quantity.const(compute_elems), 1, lanes, latency=6)
    pipe = Pipeline("p0.outer", Quantity.const(iterations), (
        Stage("dma", "dma", (t,)), Stage("compute", "sfu", (c,))), modulo=mod.name)
    buf = Buffer("in", Quantity.const(nbytes), mod.name)
    prog = Program(0, "p", (pipe,), (buf,))
    return Problem("k", "d", 1 << 20, (mod,), (prog,)), pipe


def test_transfer_steady_state_hides_latency_with_more_buffers():
    problem, pipe = _one_pipeline()
    t = pipe.stages[0].work[0]
    # one transfer: ceil(1000 / 100) + 50 = 60 cycles
    assert cost.transfer_one_shot(t, {}) == 60
    # m buffers keep m transfers in flight (docs/solver.md, "why m and not m - 1"):
    # m = 2: max(10, 60 / 2) = 30; m = 3: max(10, 60 / 3) = 20; m = 6: bandwidth-bound 10
    assert cost.transfer_steady(t, {}, 1) == 60
    assert cost.transfer_steady(t, {}, 2) == 30
    assert cost.transfer_steady(t, {}, 3) == 20
    assert cost.transfer_steady(t, {}, 6) == 10


def test_buffered_and_unbuffered_pipeline():
    problem, pipe = _one_pipeline()
    # stages: dma one-shot 60, compute 640/64 = 10 (+6 latency) = 16
    # m = 1: 10 x (60 + 16) = 760
    assert cost.pipeline_cycles(problem, pipe, {"p0.mod": 0}) == 760
    # m = 2: 10 iterations, more than the copies: fill+drain 76 + 9 x max(60 / 2, 10) = 346
    assert cost.pipeline_cycles(problem, pipe, {"p0.mod": 1}) == 76 + 9 * 30
    # m = 3: 76 + 9 x max(60 / 3, 10) = 256
    assert cost.pipeline_cycles(problem, pipe, {"p0.mod": 2}) == 76 + 9 * 20
    # scratchpad: the buffer times its modulo
    assert cost.program_buffer_bytes(problem, problem.programs[0], {"p0.mod": 2}) == 3000


def test_device_memory_bandwidth_is_shared_by_the_cores_running_the_program():
    problem, pipe = _one_pipeline(shared=150, sharers=32)
    t = pipe.stages[0].work[0]
    # 1000 bytes x 32 cores / 150 bytes per cycle = 214 cycles of occupancy (> 1000 / 100)
    assert cost.transfer_one_shot(t, {}) == -(-32000 // 150) + 50


def test_later_shared_stages_fill_at_their_own_speed():
    """The first stage through device memory orders the cores (served one after another);
    a later stage through it (the store) overlaps across cores in the fill and drain, so
    one iteration of it is its own transfer time, while the steady state still charges
    device memory for every core's bytes."""
    load = Transfer("load", Quantity.const(1000), 100, 50, 150, 32, shared_memory="ddr")
    store = Transfer("store", Quantity.const(1000), 100, 10, 150, 32, shared_memory="ddr")
    pipe = Pipeline("p", Quantity.const(1), (Stage("ld", "dma_load", (load,)),
                                             Stage("st", "dma_store", (store,))), modulo=2)
    problem = Problem("k", "d", 1 << 20, (), (Program(0, "p", (pipe,)),))
    shared = -(-32000 // 150)
    own = max(-(-1000 // 100), -(-1000 // 150))
    assert cost.pipeline_cycles(problem, pipe, {}) == (shared + 50) + (own + 10)
    # two iterations: device memory is the bottleneck, busy for every core's load and
    # store of both iterations back to back, then the last store lands
    two = Pipeline("p", Quantity.const(2), pipe.stages, modulo=2)
    assert cost.pipeline_cycles(problem, two, {}) == 2 * (shared + shared) + 10
    # split into one pipeline per stage (what the CP-SAT model does), the sum is the same
    from spyre_sched.solve.model import separate

    parts = separate(pipe)
    assert len(parts) == 2
    assert sum(cost.pipeline_cycles(problem, q, {}) for q in parts) == \
        cost.pipeline_cycles(problem, pipe, {})


def test_hoisted_load_latency_overlaps_the_next_load_on_the_same_unit():
    """A hoisted load (a stage of transfers only) followed by a stage that starts with a
    load on the same unit: the unit issues both back to back, so only the latency beyond
    the next load's is added; followed by compute, nothing is hidden."""
    hoisted = Transfer("w", Quantity.const(512), 128, 50)
    main = Transfer("x", Quantity.const(1024), 128, 40)
    body = Pipeline("body", Quantity.const(1), (
        Stage("ld", "dma_load", (main,)),
        Stage("c", "sfu", (Compute("c", Quantity.const(64), 1, 64, latency=6),)),
    ), modulo=1)
    outer = Pipeline("outer", Quantity.const(1), (
        Stage("w", "dma_load", (hoisted,)), Stage("body", "corelets", (body,))), modulo=1)
    problem = Problem("k", "d", 1 << 20, (), (Program(0, "p", (outer,)),))
    # w: 4 + (50 - 40); body: (8 + 40) + (1 + 6)
    assert cost.pipeline_cycles(problem, outer, {}) == (4 + 10) + (8 + 40) + (1 + 6)
    other = Pipeline("outer", Quantity.const(1), (
        Stage("w", "dma_load", (hoisted,)),
        Stage("c", "sfu", (Compute("c", Quantity.const(64), 1, 64, latency=6),))), modulo=1)
    assert cost.pipeline_cycles(problem, other, {}) == (4 + 50) + (1 + 6)
    from spyre_sched.solve.model import separate

    assert sum(cost.pipeline_cycles(problem, q, {}) for q in separate(outer)) == \
        cost.pipeline_cycles(problem, outer, {})


def test_compute_divides_by_lanes_and_instances():
    d = Decision("p0.dist", "distribute", 0, (Candidate(1, "i", 4), Candidate(2, "i", 4)))
    c = Compute("sfu", Quantity.const(640), 3, 64, Quantity.of([d], lambda x: x.value))
    assert cost.compute_steady(c, {"p0.dist": 0}) == 30
    assert cost.compute_steady(c, {"p0.dist": 1}) == 15


def test_nested_pipelines_compose_and_programs_add():
    inner = Pipeline("inner", Quantity.const(4), (
        Stage("ld", "load", (Transfer("ld", Quantity.const(128), 128, 4),)),
        Stage("c", "sfu", (Compute("c", Quantity.const(64), 1, 64, latency=6),)),
    ), modulo=16)
    outer = Pipeline("outer", Quantity.const(3), (
        Stage("dma", "dma", (Transfer("dma", Quantity.const(512), 128, 20),)),
        Stage("body", "corelets", (inner,)),
    ), modulo=2)
    prog = Program(0, "p", (outer,))
    problem = Problem("k", "d", 1 << 20, (), (prog, Program(1, "q", (outer,), calls=2)))
    # inner: fill+drain (1+4) + (1+6) = 12, steady max(ld 1, c 1) = 1 -> 12 + 3 x 1 = 15
    assert cost.pipeline_cycles(problem, inner, {}) == 15
    # outer: dma one-shot 4 + 20 = 24, steady max(4, 24 / 2) = 12; body one run 15, its
    # units busy 4 x 1 per iteration (they go on to the next), steady max(4, 15 / 2) = 8;
    # 3 iterations, more than the 2 copies -> 24 + 15 + 2 x max(12, 8) = 63
    assert cost.nested_pace(problem, inner, {}) == 4
    assert cost.pipeline_cycles(problem, outer, {}) == 63
    assert cost.kernel_cycles(problem, {}) == 63 + 2 * 63


def test_pinned_regions_count_in_every_program():
    problem, _ = _one_pipeline()
    pinned = Problem("k", "d", 4000, problem.decisions, problem.programs,
                     (PinnedRegion("E", 1500),))
    assert cost.program_scratchpad(pinned, pinned.programs[0], {"p0.mod": 1}) == 3500
    assert not cost.violations(pinned, {"p0.mod": 1})
    (v,) = cost.violations(pinned, {"p0.mod": 2})
    assert v.kind == "capacity" and v.need == 4500 and v.have == 4000


def test_carried_accumulator_pays_the_lowered_chain_per_step():
    """Each step of a reduction runs the body's ops plus the lowering's reduce in order,
    each waiting one unit latency for the previous one's result; only the last (the
    combine) reads the previous step's, so its latency runs under the next step."""
    c = Compute("sum", Quantity.const(512), 2, 64, latency=6, steps=Quantity.const(8))
    occupancy, latency = cost.work_parts(None, c, {})
    assert latency == 6
    chain = 2 + cost.REDUCE_STEP_EXTRA_OPS
    # throughput 512 x 2 / 64 = 16 (the body's ops), then per step the added op's busy
    # cycle and two latencies between the three ops: 8 x (1 + 12) = 104
    assert occupancy == 16 + 8 * (cost.REDUCE_STEP_EXTRA_OPS * 1 + (chain - 1) * 6) == 120
    plain = Compute("add", Quantity.const(512), 2, 64, latency=6)
    assert cost.work_parts(None, plain, {}) == (16, 6)


def test_a_program_never_takes_less_than_device_memory_needs_for_its_traffic():
    """A pipeline that runs once lets the store fill at its own speed, which alone would
    predict less than device memory can serve (below the roofline bound): the program's
    cycles are at least every core's bytes through it over its bandwidth. The CP-SAT model
    states the same floor over the program's parts, so its optimum equals this figure."""
    from spyre_sched.solve.solver import solve

    load = Transfer("load", Quantity.const(96000), 128, 20, 150, 32, shared_memory="ddr")
    store = Transfer("store", Quantity.const(48000), 128, 20, 150, 32, shared_memory="ddr")
    pipe = Pipeline("p", Quantity.const(1), (Stage("ld", "dma_load", (load,)),
                                             Stage("st", "dma_store", (store,))))
    program = Program(0, "p", (pipe,))
    problem = Problem("k", "d", 1 << 20, (), (program,))
    busy = -(-96000 * 32 // 150) + -(-48000 * 32 // 150)
    assert cost.pipeline_cycles(problem, pipe, {}) < busy  # the pipeline formula alone
    assert cost.shared_memory_busy(problem, pipe, {}) == {"ddr": busy}
    assert cost.program_cycles(problem, program, {}) == busy
    solution = solve(problem)
    assert solution.cycles == busy and solution.stats.phases[-1].objective == busy


def _load_compute_store(iterations: int, modulos=(2, 8), load_bytes=512, store_bytes=256):
    """32 cores each load 512 B through device memory (150 B/cycle shared, 320 cycles to
    land), compute 33 cycles, store 256 B (20 to land): an elementwise tile loop."""
    mod = Decision("p0.mod", "modulo", 0, tuple(Candidate(m) for m in modulos))
    load = Transfer("load", Quantity.const(load_bytes), 128, 320, 150, 32, source="ddr",
                    target="lx", shared_memory="ddr")
    store = Transfer("store", Quantity.const(store_bytes), 128, 20, 150, 32, source="lx",
                     target="ddr", shared_memory="ddr")
    work = Compute("add", Quantity.const(27 * 64), 1, 64, latency=6)
    pipe = Pipeline("p0.pipe", Quantity.const(iterations), (
        Stage("ld", "dma_load", (load,)), Stage("c", "sfu", (work,)),
        Stage("st", "dma_store", (store,))), modulo=mod.name)
    buf = Buffer("tile", Quantity.const(512), mod.name)
    return Problem("k", "d", 1 << 20, (mod,), (Program(0, "p", (pipe,), (buf,)),)), pipe


def test_device_memory_serves_later_loads_while_the_first_lands():
    """With buffers to spare, device memory serves the next iterations' loads while the
    first one lands and computes: it is busy N x (every core's load and store) with no
    fill of its own, then the last store lands; the units' fill is not added to it."""
    problem, pipe = _load_compute_store(4)
    loads = -(-512 * 32 // 150)  # 110: every core's load, back to back
    stores = -(-256 * 32 // 150)  # 55
    fill = (loads + 320) + (27 + 6) + (2 + 20)  # the stores run staggered: own speed
    assert cost.pipeline_profile(problem, pipe, {"p0.mod": 1})[0] == fill
    # m = 8 > N: every load issues as soon as the DMA is free (its occupancy, 110), and
    # device memory needs 4 x 165 + 20 = 680 in all: the larger, 815, is the cycles
    issue = 3 * loads
    assert cost.pipeline_cycles(problem, pipe, {"p0.mod": 1}) == max(fill + issue,
                                                                     4 * (loads + stores) + 20)
    assert cost.pipeline_cycles(problem, pipe, {"p0.mod": 1}) == fill + issue == 815
    # the old sum, fill + 3 x device memory's 165, would have said 980 (the emulator: 826)
    assert fill + 3 * (loads + stores) == 980


def test_a_memory_bound_pipeline_costs_the_memory_and_its_last_landing():
    """Loads short next to the stores: device memory, busy for both, is the bottleneck."""
    problem, pipe = _load_compute_store(16, modulos=(8,))
    choice = {"p0.mod": 0}
    breakdown = cost.pipeline_breakdown(problem, pipe, choice)
    busy = -(-512 * 32 // 150) + -(-256 * 32 // 150)
    assert breakdown.shared_bound == {"ddr": 16 * busy + 20}
    assert cost.pipeline_cycles(problem, pipe, choice) >= 16 * busy + 20


def test_more_iterations_than_copies_run_at_the_steady_state():
    """Fewer copies than iterations: the steady state, m loads in flight per landing, each
    waiting in device memory's queue for the transfers it finds there (docs/solver.md,
    "The port's queue"): the 32 cores' 2 buffers are 64 customers, each round visiting
    the port for the load's and the store's 768 B and away for the rest of the load's
    round trip."""
    problem, pipe = _load_compute_store(4, modulos=(2,))
    choice = {"p0.mod": 0}
    alone = -(-512 // 128)  # the core's own DMA path (128 B/cycle) is the slower one: 4
    think = (alone + 320) * 150 - 512
    rho = think // 768  # 62: the round trip is 62 services of the port
    step = max(k for k, r in enumerate(cost.RHO_STEPS) if r <= rho)
    assert cost.RHO_STEPS[step] == 60
    queue = cost.port_queue_table(64)[step]
    wait = -(-512 * queue // (150 * cost.PORT_SCALE))
    steady = max(alone, -(-(alone + 320 + wait) // 2))
    # between the cores arriving spread out (no queue) and all 32 in step (each waiting
    # for every core's share: the lockstep rule this replaced)
    lockstep = -(-(-(-512 * 32 // 150) + 320) // 2)
    assert -(-(alone + 320) // 2) < steady < lockstep == 215
    fill = cost.pipeline_profile(problem, pipe, choice)[0]
    assert cost.pipeline_cycles(problem, pipe, choice) == fill + 3 * steady


def test_an_unbuffered_pipeline_bound_by_device_memory_costs_the_memory():
    """One copy of each buffer, tiles large next to the load's round trip: device memory,
    busy for every core's load and store, is the bottleneck. It serves the second
    iteration's transfers while the last core's first tile lands and computes, so the run
    is the memory's busy time from the first load to the last store's landing; the units'
    pass (the last core's first iteration, then a hold per iteration) is shorter."""
    problem, pipe = _load_compute_store(3, modulos=(1,), load_bytes=4096, store_bytes=2048)
    choice = {"p0.mod": 0}
    loads, stores = -(-4096 * 32 // 150), -(-2048 * 32 // 150)  # 874, 437
    fill = (loads + 320) + (27 + 6) + (16 + 20)
    assert cost.pipeline_profile(problem, pipe, choice)[0] == fill
    # the period: the load unit's occupancy (a transfer occupies it for every core's share)
    assert cost.pipeline_profile(problem, pipe, choice)[1] == loads
    units = fill + 2 * loads + (loads + stores - loads)  # the skew: the stores' share
    memory = 3 * (loads + stores) + 20
    assert units < memory
    assert cost.pipeline_cycles(problem, pipe, choice) == memory == 3953
    assert cost.pipeline_breakdown(problem, pipe, choice).shared_bound == {"ddr": memory}
    # the rule this replaced, the memory's busy time as the period after the last core's
    # fill, said 4322
    assert fill + 2 * (loads + stores) + stores == 4322
    # the stores heavier than the loads: the memory serves every core's first load (219)
    # before the first core is back from its round trip (its own load, the landing, the
    # compute: 361), and idles the difference once
    problem, pipe = _load_compute_store(3, modulos=(1,), load_bytes=1024, store_bytes=2048)
    loads, stores = -(-1024 * 32 // 150), -(-2048 * 32 // 150)  # 219, 437
    hold = (8 + 320) + (27 + 6)
    assert cost.unbuffered_gaps(problem, pipe, choice) == {"ddr": hold - loads}
    memory = 3 * (loads + stores) + 20 + (hold - loads)
    assert cost.pipeline_cycles(problem, pipe, choice) == memory == 2130
    # small tiles: the hold is the period, device memory is not the bottleneck
    problem, pipe = _load_compute_store(3, modulos=(1,))
    fill, hold = cost.pipeline_profile(problem, pipe, choice)
    loads, stores = -(-512 * 32 // 150), -(-256 * 32 // 150)
    assert cost.pipeline_cycles(problem, pipe, choice) == fill + 2 * hold + stores
    assert 3 * (loads + stores) + 20 < fill + 2 * hold


def test_the_solver_agrees_with_the_cost_model_on_the_new_terms():
    """The CP-SAT model states the memory bound, the rounds and the held copies as the
    cost model does (the solver checks its objective against `kernel_cycles`)."""
    from spyre_sched.solve.solver import solve

    for n in (1, 2, 3, 4, 9):
        problem, _ = _load_compute_store(n, modulos=(1, 2, 3, 8))
        solution = solve(problem)
        assert solution.cycles == min(cost.kernel_cycles(problem, {"p0.mod": k})
                                      for k in range(4))


def test_an_input_kept_resident_adds_no_memory_bound():
    """A re-read that a keep decision empties moves nothing through device memory: no
    landing to wait for, so no memory bound (only the units' figures count), in the cost
    model and in the CP-SAT model alike."""
    from spyre_sched.solve.solver import solve

    keep = Decision("p0.keep", "keep", 0, (Candidate(0), Candidate(1)))
    mod = Decision("p0.mod", "modulo", 0, (Candidate(2), Candidate(8)))
    reread = Transfer("reread", Quantity(("p0.keep",), {(0,): 512, (1,): 0}), 128, 320, 150,
                      32, source="ddr", target="lx", shared_memory="ddr")
    work = Compute("add", Quantity.const(27 * 64), 1, 64, latency=6)
    pipe = Pipeline("p0.pipe", Quantity.const(4), (
        Stage("ld", "dma_load", (reread,)), Stage("c", "sfu", (work,))), modulo=mod.name)
    buf = Buffer("tile", Quantity.const(512), mod.name)
    problem = Problem("k", "d", 1 << 20, (keep, mod), (Program(0, "p", (pipe,), (buf,)),))
    kept = {"p0.keep": 1, "p0.mod": 1}
    # the compute alone: 4 x 27 + its latency
    assert cost.pipeline_cycles(problem, pipe, kept) == (27 + 6) + 3 * 27
    assert cost.pipeline_breakdown(problem, pipe, kept).shared_bound == {}
    assert cost.pipeline_breakdown(problem, pipe, {"p0.keep": 0, "p0.mod": 1}).shared_bound
    assert solve(problem).cycles == cost.kernel_cycles(problem, kept)


def test_the_port_queue_table_is_mean_value_analysis():
    """With no time away every other customer is in the queue; the queue shortens as the
    time away grows; one customer finds nobody; and the table is MVA's own recursion
    (two customers at ratio 4: the other is at the port 1/(1 + 4) of its round)."""
    for customers in (2, 64, 256):
        table = cost.port_queue_table(customers)
        assert table[0] == (customers - 1) * cost.PORT_SCALE
        assert list(table) == sorted(table, reverse=True)
        assert table[-1] < table[0]
    assert set(cost.port_queue_table(1)) == {0}
    assert cost.RHO_STEPS[1] == 4
    assert cost.port_queue_table(2)[1] == -(-cost.PORT_SCALE // 5)
