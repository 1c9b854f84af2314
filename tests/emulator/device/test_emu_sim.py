"""The discrete-event core on plain Python unit programs: FIFOs, tokens, transfers, faults."""

from __future__ import annotations

import json

import numpy as np
import pytest

from emulator.device import sim
from emulator.device.machine import EmulatedDevice
from emulator.device.memory import Memory
from emulator.trace import TraceRecorder
from spyre_sched.device import load_device
from spyre_sched.errors import ExecutionError


@pytest.fixture(scope="module")
def spyre():
    return EmulatedDevice(load_device("spyre"))


def entries(n, start=0):
    return np.arange(start, start + n, dtype=np.float32).reshape(n, 1)


def test_fifo_blocks_sender_when_full_and_respects_depth():
    s = sim.Simulator()
    fifo = sim.Fifo("p->c", 4, "p", "c")
    seen = []

    def producer():
        for i in range(12):
            yield sim.send(fifo, entries(1, i))
            seen.append(("sent", i, (yield sim.now())))

    def consumer():
        yield sim.delay(100)
        for i in range(12):
            got = yield sim.recv(fifo)
            assert got[0, 0] == i  # FIFO order
            assert fifo.held <= fifo.depth
            yield sim.delay(10)

    s.spawn("p", producer())
    s.spawn("c", consumer())
    s.run()
    times = {i: t for _, i, t in seen}
    assert max(t for i, t in times.items() if i < 4) == 0  # four fit at once
    assert times[4] == 100  # the fifth waits for the first receive
    assert times[5] == 110
    stats = {p.name: p.stats for p in s.processes}
    assert stats["p"].stalled_output == 100 + 10 * 7
    assert stats["c"].busy == 100 + 120


def test_receiver_blocks_when_empty_and_counts_input_stall():
    s = sim.Simulator()
    fifo = sim.Fifo("p->c", 16, "p", "c")

    def producer():
        yield sim.delay(50)
        yield sim.send(fifo, entries(8), 8, latency=5)

    def consumer():
        got = yield sim.recv(fifo, 8)
        assert got.shape == (8, 1)
        assert (yield sim.now()) == 55

    s.spawn("p", producer())
    s.spawn("c", consumer())
    assert s.run() == 55
    assert s.processes[1].stats.stalled_input == 55


def test_send_larger_than_depth_streams_through():
    s = sim.Simulator()
    fifo = sim.Fifo("p->c", 4, "p", "c")
    out = []

    def producer():
        yield sim.send(fifo, entries(10), 10)

    def consumer():
        for _ in range(5):
            got = yield sim.recv(fifo, 2)
            out.append(got)
            yield sim.delay(1)

    s.spawn("p", producer())
    s.spawn("c", consumer())
    s.run()
    assert np.concatenate(out)[:, 0].tolist() == list(range(10))


def test_deadlock_is_detected_and_names_every_waiter():
    s = sim.Simulator()
    a_to_b = sim.Fifo("a->b", 2, "a", "b")
    b_to_a = sim.Fifo("b->a", 2, "b", "a")

    def a():
        yield sim.recv(b_to_a)

    def b():
        yield sim.recv(a_to_b)

    s.spawn("a", a())
    s.spawn("b", b())
    with pytest.raises(ExecutionError) as err:
        s.run()
    text = str(err.value)
    assert "deadlock" in text
    assert "a at" in text and "FIFO b->a" in text
    assert "b at" in text and "FIFO a->b" in text


def test_missing_sync_deadlocks_instead_of_hanging():
    s = sim.Simulator()
    token = sim.Token("ready", "dma", "ld")

    def dma():
        yield sim.delay(10)  # forgets to signal

    def ld():
        yield sim.sync_recv(token)

    s.spawn("dma", dma())
    s.spawn("ld", ld())
    with pytest.raises(ExecutionError, match="sync token ready"):
        s.run()


def test_fifo_read_by_the_wrong_unit_is_a_fault():
    s = sim.Simulator()
    fifo = sim.Fifo("p->c", 4, "p", "c")

    def intruder():
        yield sim.recv(fifo)

    s.spawn("x", intruder())
    with pytest.raises(ExecutionError) as err:
        s.run()
    assert "unit x" in str(err.value) and "receiving unit is c" in str(err.value)


def test_fifo_depth_zero_is_rejected():
    with pytest.raises(ExecutionError, match="depth 0"):
        sim.Fifo("p->c", 0, "p", "c")


def test_sync_send_waits_for_the_units_transfers_to_land():
    s = sim.Simulator()
    token = sim.Token("full", "dma", "ld")
    landed = []

    def dma():
        yield sim.transfer(10, 300, (), 1280, lambda: landed.append(s.now))
        yield sim.sync_send(token)
        assert (yield sim.now()) == 10  # the unit itself went on

    def ld():
        yield sim.sync_recv(token)
        assert (yield sim.now()) == 310
        assert landed == [310]

    s.spawn("dma", dma())
    s.spawn("ld", ld())
    s.run()


def test_in_flight_transfers_hide_latency():
    """Eight transfers of 10 cycles each with latency 300: back to back they end at
    8 * 10 + 300, not 8 * 310."""
    s = sim.Simulator()
    landed = []

    def dma():
        for _ in range(8):
            yield sim.transfer(10, 300, (), 1280, lambda: landed.append(s.now))

    s.spawn("dma", dma())
    assert s.run() == 8 * 10 + 300
    assert landed == [10 * (i + 1) + 300 for i in range(8)]


def test_buffers_bound_the_transfers_in_flight():
    """Double buffering: the loader may run one buffer ahead of the consumer, no more."""
    def run(buffers):
        s = sim.Simulator()
        full = sim.Token("full", "dma", "use")
        free = sim.Token("free", "use", "dma")
        free.count = buffers

        def dma():
            for _ in range(8):
                yield sim.sync_recv(free)
                yield sim.transfer(10, 300, (), 1280, None)
                yield sim.sync_send(full)

        def use():
            for _ in range(8):
                yield sim.sync_recv(full)
                yield sim.delay(10)
                yield sim.sync_send(free)

        s.spawn("dma", dma())
        s.spawn("use", use())
        return s.run()

    one, two, eight = run(1), run(2), run(8)
    assert one == 8 * (10 + 300 + 10)
    assert eight < two < one


def test_shared_bandwidth_is_contended():
    """Two units reading one memory of 100 B/cycle: the second transfer waits."""
    s = sim.Simulator()
    ddr = sim.SharedResource("ddr", 100)

    def unit():
        yield sim.transfer(10, 0, (ddr,), 1000, None)

    s.spawn("u0", unit())
    s.spawn("u1", unit())
    assert s.run() == 20
    assert sorted(p.stats.stalled_shared for p in s.processes) == [0, 10]


@pytest.mark.parametrize("ahead", [0, 5])
@pytest.mark.parametrize("first_event", ["u0", "u1"])
def test_same_cycle_shared_requests_are_served_in_rank_order(first_event, ahead):
    """Two units ask for one memory in the same cycle: the unit spawned first (rank 0) is
    served first, whichever unit's event the cycle happens to run first. The late unit is
    woken by a token the other sends in that very cycle, so its event comes second. With
    `ahead`, both issue the transfer after private work, ahead of the simulation's time
    (their requests are filed from the event loop)."""
    s = sim.Simulator()
    ddr = sim.SharedResource("ddr", 100)
    token = sim.Token("go", first_event, "u1" if first_event == "u0" else "u0")
    started = {}

    def unit(name):
        if name == first_event:
            yield sim.sync_send(token)
        else:
            yield sim.sync_recv(token)
        yield sim.delay(ahead)
        started[name] = yield sim.now()
        yield sim.transfer(10, 0, (ddr,), 1000, None)

    s.spawn("u0", unit("u0"))
    s.spawn("u1", unit("u1"))
    assert s.run() == 20 + ahead
    assert started == {"u0": ahead, "u1": ahead}
    u0, u1 = s.processes
    assert (u0.stats.stalled_shared, u1.stats.stalled_shared) == (0, 10)


def test_shared_bandwidth_is_granted_in_bytes_with_credit():
    """Many units' 512-byte transfers through a 150 B/cycle memory: the memory serves 150
    bytes every cycle (a transfer starts in the cycle the previous one left bandwidth in),
    not one whole-cycle ceiling per transfer (which would cap it at 128 B/cycle)."""
    s = sim.Simulator()
    ddr = sim.SharedResource("ddr", 150)

    def unit():
        for _ in range(4):
            yield sim.transfer(4, 0, (ddr,), 512, None)

    for k in range(8):
        s.spawn(f"u{k}", unit())
    total = 8 * 4 * 512
    assert s.run() == -(-total // 150)  # 110 cycles; 128 under a per-transfer ceiling
    assert ddr.bytes == total and ddr.busy == -(-total // 150)


def test_shared_bandwidth_credit_never_beats_the_units_own_link():
    """One unit alone: its own link (4 cycles per 512 bytes) is the limit, credit or not."""
    s = sim.Simulator()
    ddr = sim.SharedResource("ddr", 150)

    def unit():
        for _ in range(10):
            yield sim.transfer(4, 0, (ddr,), 512, None)

    s.spawn("u", unit())
    assert s.run() == 40


def test_device_paths_take_their_timing_from_the_device_model(spyre):
    path = spyre.path("core0.dma_load", "ddr", "core0.lx")
    occupancy, latency = path.timing(4096)
    assert occupancy + latency == path.hop.transfer_cycles(4096)
    assert occupancy == 4096 // 128
    assert path.shared == ("ddr",)
    with pytest.raises(ExecutionError, match="cannot move data"):
        spyre.path("core0.dma_store", "ddr", "core0.lx")


def test_memory_bounds_and_buffer_checks():
    mem = Memory("core0.lx", 1024)
    mem.write(0, (4,), (2,), np.arange(4, dtype=np.float16))
    assert mem.read(0, (2, 2), (4, 2), np.float16).tolist() == [[0, 1], [2, 3]]
    with pytest.raises(ExecutionError, match="outside memory core0.lx"):
        mem.read(1020, (4,), (2,), np.float16)
    mem.declare_buffer(0, 256, "buf0")
    mem.declare_buffer(512, 256, "buf1")
    mem.read(512, (128,), (2,), np.float16)
    with pytest.raises(ExecutionError, match="not inside one allocated buffer"):
        mem.read(200, (64,), (2,), np.float16)


def test_trace_is_valid_trace_event_json(tmp_path):
    rec = TraceRecorder()
    s = sim.Simulator(trace=rec)
    fifo = sim.Fifo("p->c", 2, "core0.p", "core0.c")
    fifo.trace = rec.fifo_counter(fifo.name)

    def producer():
        for i in range(4):
            yield sim.delay(3)
            yield sim.send(fifo, entries(1, i))

    def consumer():
        for _ in range(4):
            yield sim.recv(fifo)
            yield sim.delay(5)

    s.spawn("core0.p", producer())
    s.spawn("core0.c", consumer())
    s.run()
    path = rec.write(tmp_path / "t.json")
    doc = json.loads(path.read_text())
    events = doc["traceEvents"]
    phases = {e["ph"] for e in events}
    assert {"M", "X", "C"} <= phases
    for e in events:
        assert {"ph", "name", "pid"} <= set(e)
        if e["ph"] == "X":
            assert e["dur"] >= 0 and "tid" in e and "ts" in e
    names = {e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
    assert names == {"core0.p", "core0.c"}


def test_a_unit_that_never_stops_hits_the_cycle_limit():
    s = sim.Simulator(max_cycles=10_000)

    def forever():
        while True:
            yield sim.delay(7)

    s.spawn("spin", forever())
    with pytest.raises(ExecutionError, match="limit of 10000 cycles"):
        s.run()
