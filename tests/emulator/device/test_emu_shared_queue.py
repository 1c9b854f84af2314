"""A datapath's queue shared over time by FIFOs of different phases (`sim.SharedQueue`):
each FIFO holds at most its own depth, all of them together at most the queue's depth, and
room freed in one FIFO lets a sender blocked on another go on. Prepare accepts FIFOs whose
depths add up to more than the queue (they take turns) but not one deeper than it."""

from __future__ import annotations

import numpy as np
import pytest

from emulator.device import sim


def entries(n, start=0):
    return np.arange(start, start + n, dtype=np.float32).reshape(n, 1)


def shared(depth, *fifos):
    queue = sim.SharedQueue("p->c", depth)
    for f in fifos:
        f.queue = queue
        queue.fifos.append(f)
    return queue


def run_two_phases(first_depth, second_depth, queue_depth, consume_delay=50):
    """The producer sends 8 entries on FIFO a (phase 1) then 8 on b (phase 2); the
    consumer starts late and takes a's entries, then b's, one every 10 cycles. Returns
    the time each send was placed and the largest number held by both FIFOs together."""
    s = sim.Simulator()
    a = sim.Fifo("a", first_depth, "p", "c")
    b = sim.Fifo("b", second_depth, "p", "c")
    if queue_depth is not None:
        shared(queue_depth, a, b)
    placed, peak = {}, [0]

    def producer():
        for fifo, name in ((a, "a"), (b, "b")):
            for i in range(8):
                yield sim.send(fifo, entries(1, i))
                placed[(name, i)] = yield sim.now()
                peak[0] = max(peak[0], a.held + b.held)

    def consumer():
        yield sim.delay(consume_delay)
        for fifo in (a, b):
            for i in range(8):
                got = yield sim.recv(fifo)
                assert got[0, 0] == i
                peak[0] = max(peak[0], a.held + b.held)
                yield sim.delay(10)

    s.spawn("p", producer())
    s.spawn("c", consumer())
    cycles = s.run()
    return placed, peak[0], cycles


def test_fifos_of_a_shared_queue_never_hold_more_than_the_queue_together():
    placed, peak, _ = run_two_phases(8, 8, queue_depth=8)
    assert peak == 8
    # a takes the whole queue; b's first entry waits for the consumer's first receive
    assert placed[("a", 7)] == 0
    assert placed[("b", 0)] == 50
    # without the shared queue the two FIFOs would hold 16 at once
    placed_free, peak_free, _ = run_two_phases(8, 8, queue_depth=None)
    assert peak_free == 16 and placed_free[("b", 7)] == 0


def test_each_fifo_keeps_its_own_depth_inside_the_queue():
    placed, peak, _ = run_two_phases(4, 4, queue_depth=16)
    assert peak <= 8
    assert placed[("a", 3)] == 0 and placed[("a", 4)] == 50  # a's own depth binds


def test_room_counts_every_fifo_of_the_queue():
    """Entries placed the simulator's way (the queue keeps its FIFOs' total as they change)."""
    s = sim.Simulator()
    a, b = sim.Fifo("a", 16, "p", "c"), sim.Fifo("b", 16, "p", "c")
    queue = shared(16, a, b)
    assert s._fifo_put(a, entries(10), 0, 10, 0) == 10
    assert b.room() == 6 and a.room() == 6
    assert s._fifo_put(b, entries(8), 0, 8, 0) == 6  # the queue takes 6 more, not 8
    assert a.room() == 0 and queue.held == a.held + b.held == 16
    pieces = []
    assert a.take_visible(0, 4, pieces) == 0
    assert a.room() == 4 and b.room() == 4 and queue.held == 12


def test_a_sender_blocked_by_the_queue_is_named_in_a_deadlock():
    s = sim.Simulator()
    a, b = sim.Fifo("a", 4, "p", "c"), sim.Fifo("b", 4, "p", "c")
    shared(4, a, b)

    def producer():
        yield sim.send(a, entries(4), 4)
        yield sim.send(b, entries(1))  # the queue is full of a's entries

    def consumer():
        yield sim.recv(b)  # waits for b before draining a: the order the phases forbid

    s.spawn("p", producer())
    s.spawn("c", consumer())
    with pytest.raises(Exception) as err:
        s.run()
    assert "deadlock" in str(err.value)
    assert "queue is full: 4 of 4 entries" in str(err.value)
