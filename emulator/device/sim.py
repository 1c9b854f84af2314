"""The discrete-event kernel: a heap of timed events and units as generator processes.

A unit's program is a Python generator that yields *commands* (small tuples built by the
helpers below) and receives each command's result back. A command either completes at
once (the generator is resumed in the same step, no heap traffic) or blocks the unit
until a FIFO, a token or the clock lets it go on. Time is an integer count of device
cycles. Commands that cannot block need not be yielded at all: the generated code runs
them in place with the `*_now` methods (same accounting, no round trip).

Why a hand-written heap and not SimPy: both were measured on the 4096x4096 f16 add shape
(bench/emulator_event_loop.py, figures in docs/emulator.md). SimPy wraps every wait in an
Event object with callbacks; here a wait is one tuple in its cycle's list and an unblocked
command costs no event at all, which is several times faster and keeps the whole
simulation in one readable file with deadlock detection built in.

Every unit accounts its time in four bins: busy (occupied by an instruction or a
transfer), stalled on input (waiting for FIFO data or a sync token), stalled on output
(waiting for FIFO space) and stalled on a shared resource (device-memory bandwidth, the
ring). Idle is the rest.

When no event is left but some unit has not finished, the simulation is deadlocked: it
stops at once (it never hangs) and reports every blocked unit, its instruction and what
it waits on.
"""

from __future__ import annotations

import heapq
import time as host_time
from collections import deque
from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from spyre_sched.errors import ExecutionError

# ---- commands (opcode first; tuples are the cheapest thing to build and dispatch) ----------

DELAY = 0  # (DELAY, cycles): busy for cycles
RECV = 1  # (RECV, fifo, n): take n entries (blocks while empty); result: array of n entries
SEND = 2  # (SEND, fifo, data, n, delay): put n entries, visible `delay` cycles later
SYNC_SEND = 3  # (SYNC_SEND, token): signal once, when the unit's transfers so far have landed
SYNC_RECV = 4  # (SYNC_RECV, token): wait for one signal
TRANSFER = 5  # (TRANSFER, occupancy, latency, shared, nbytes, land, paths): see transfer()
NOW = 6  # (NOW,): result is the current time
WAIT_LANDED = 7  # (WAIT_LANDED,): wait until every transfer this unit issued has landed
WAIT_UNTIL = 8  # (WAIT_UNTIL, time, what): wait for data in flight (stalled on input)
SEND_BUSY = 9  # (SEND_BUSY, fifo, data, n, delay, busy): SEND, then busy for `busy` cycles
SETTLE = 10  # (SETTLE,): WAIT_LANDED, then resume at that time (later reads see the landings)


def delay(cycles: int) -> tuple:
    return (DELAY, int(cycles))


def recv(fifo: Fifo, n: int = 1) -> tuple:
    return (RECV, fifo, int(n))


def send(fifo: Fifo, data: np.ndarray, n: int = 1, latency: int = 0) -> tuple:
    return (SEND, fifo, data, int(n), int(latency))


def sync_send(token: Token) -> tuple:
    return (SYNC_SEND, token)


def sync_recv(token: Token) -> tuple:
    return (SYNC_RECV, token)


def transfer(occupancy: int, latency: int, shared: Iterable[SharedResource], nbytes: int,
             land: Callable[[], None] | None, paths: Iterable[str] = ()) -> tuple:
    """A transfer by the issuing unit: it waits for the shared resources it crosses (first
    come, first served; requests of one cycle in the units' rank order), is busy
    `occupancy` cycles, and `land()` runs `latency` cycles after that (when the data
    arrives). The unit may issue its next command meanwhile:
    several transfers of one unit can be in flight."""
    return (TRANSFER, int(occupancy), int(latency), tuple(shared), int(nbytes), land,
            tuple(paths))


def now() -> tuple:
    return (NOW,)


# ---- the things units wait on --------------------------------------------------------------


class SharedResource:
    """Bandwidth shared by several units (device memory, a ring link), granted in bytes.

    The resource moves `bandwidth` bytes per cycle: a transfer of n bytes takes exactly
    n / bandwidth cycles of it, and the part of a cycle a transfer leaves unused is credit
    the next transfer starts in (three 512-byte transfers at 150 B/cycle take 1536 / 150 =
    10.24 cycles, not 3 x ceil(512 / 150) = 12). Requests are served in the order they are
    made: cycle by cycle, and within a cycle in the requesting units' rank order
    (Simulator._serve_shared). Time here is counted in bytes (`free_bytes` = cycle x
    bandwidth + credit), so the accounting stays in integers."""

    __slots__ = ("name", "bandwidth", "free_bytes", "bytes")

    def __init__(self, name: str, bandwidth: int):
        if bandwidth <= 0:
            raise ExecutionError(f"shared resource {name} has bandwidth {bandwidth}")
        self.name = name
        self.bandwidth = bandwidth
        self.free_bytes = 0  # the byte-time at which the resource is next free
        self.bytes = 0

    def free_cycle(self) -> int:
        """The cycle in which the resource has bandwidth left: a transfer may start in it."""
        return self.free_bytes // self.bandwidth

    def grant(self, start: int, nbytes: int) -> int:
        """Serve `nbytes` from cycle `start` on (or from where the previous grant ended,
        if later); return the cycle by whose end the last byte has passed."""
        begin = max(start * self.bandwidth, self.free_bytes)
        self.free_bytes = begin + nbytes
        self.bytes += nbytes
        return -(-self.free_bytes // self.bandwidth)

    @property
    def busy(self) -> int:
        """Cycles of the resource's bandwidth used, rounded up once over the launch."""
        return -(-self.bytes // self.bandwidth)


class Fifo:
    """A hardware FIFO on the datapath between two adjacent units, `depth` entries deep.

    Entries travel in chunks (a numpy array and how many entries it holds), each with the
    time it becomes visible to the receiver. A send takes its slots at once; a send larger
    than the free space streams: it places what fits and blocks for the rest; a receive
    likewise takes what is visible and blocks for the rest.
    """

    __slots__ = ("name", "depth", "producer", "consumer", "chunks", "held", "getter", "putter",
                 "trace", "entries_moved", "path", "bytes_moved", "wake_at", "queue", "frees")

    def __init__(self, name: str, depth: int, producer: str, consumer: str):
        if depth < 1:
            raise ExecutionError(f"FIFO {name} has depth {depth}: a FIFO needs at least one entry")
        self.name = name
        self.depth = depth
        self.producer = producer
        self.consumer = consumer
        self.chunks: deque[list] = deque()  # [visible_at, data, entry count]
        self.held = 0  # entries in the FIFO, visible or still in flight
        self.getter: list | None = None  # [proc, remaining, pieces]
        self.putter: list | None = None  # [proc, data, sent, n, latency, busy]
        self.trace: list[tuple[int, int]] | None = None
        self.entries_moved = 0
        self.bytes_moved = 0
        self.path = name
        self.wake_at: int | None = None
        self.queue: SharedQueue | None = None  # the datapath's queue, when FIFOs take turns
        # Receives taken ahead of the simulation's time (Simulator.recv_ahead): [cycle, entries]
        # in order, still counted in `held` until that cycle (settle).
        self.frees: deque[list] = deque()

    @property
    def free(self) -> int:
        return self.depth - self.held

    def room(self) -> int:
        """Entries a send may place now: the FIFO's own free slots, and, when it shares its
        datapath's queue with FIFOs of other phases, no more than the queue has free."""
        own = self.depth - self.held
        queue = self.queue
        if queue is None:
            return own
        free = queue.depth - queue.held
        return own if own < free else free

    @property
    def count(self) -> int:
        """Entries in the FIFO (visible or in flight)."""
        return self.held

    def settle(self, time: int) -> None:
        """Free the slots of the receives taken ahead whose cycle is `time` or earlier,
        in this FIFO and in those sharing its queue. Only the FIFOs' sender looks at their
        room, always at its own time, which only grows: a slot freed early for it is
        freed for nobody else."""
        queue = self.queue
        if queue is None:
            frees = self.frees
            while frees and frees[0][0] <= time:
                self.held -= frees.popleft()[1]
            return
        if not queue.ahead:
            return
        for fifo in queue.fifos:
            frees = fifo.frees
            while frees and frees[0][0] <= time:
                k = frees.popleft()[1]
                fifo.held -= k
                queue.held -= k
                queue.ahead -= 1

    def room_at(self, time: int) -> int:
        """`room()` for a sender whose time is `time` (no earlier than the simulation's)."""
        if self.frees or self.queue is not None and self.queue.ahead:
            self.settle(time)
        return self.room()

    def next_free(self) -> Fifo | None:
        """The FIFO (this one or one sharing its queue) whose receive taken ahead frees a
        slot first, if any."""
        if self.queue is None or not self.queue.ahead:
            return self if self.frees else None
        best = None
        for fifo in self.queue.fifos:
            if fifo.frees and (best is None or fifo.frees[0][0] < best.frees[0][0]):
                best = fifo
        return best

    def sender_waits(self) -> bool:
        """Whether the sender waits for room in this FIFO or one sharing its queue."""
        return self.putter is not None or (self.queue is not None
                                           and self.queue.blocked_sender() is not None)

    def take_visible(self, now: int, remaining: int, pieces: list) -> int:
        """Move up to `remaining` visible entries into `pieces`; returns what is left."""
        chunks = self.chunks
        while remaining and chunks and chunks[0][0] <= now:
            head = chunks[0]
            k = head[2]
            if k <= remaining:
                chunks.popleft()
                taken = head[1]
            else:
                entries = _by_entry(head[1], k)
                taken = entries[:remaining]
                head[1] = entries[remaining:]
                head[2] = k - remaining
                k = remaining
            pieces.append((taken, k))
            remaining -= k
            self.held -= k
            if self.queue is not None:
                self.queue.held -= k
        return remaining


class SharedQueue:
    """A datapath's queue shared over time by logical FIFOs whose declared depths add up
    to more than it holds (FIFOs of different phases of a program, docs/dataflowir.md):
    each FIFO holds at most its own depth, and all of them together at most `depth`. All
    have the same producer and consumer (the datapath's two units), so only the consumer
    frees room, and at most one of them has a blocked sender at a time."""

    __slots__ = ("name", "depth", "fifos", "held", "ahead")

    def __init__(self, name: str, depth: int):
        self.name = name
        self.depth = depth
        self.fifos: list[Fifo] = []
        self.held = 0  # entries its FIFOs hold together (kept with each Fifo.held)
        self.ahead = 0  # receives taken ahead its FIFOs still hold (their Fifo.frees)

    def blocked_sender(self) -> Fifo | None:
        for f in self.fifos:
            if f.putter is not None:
                return f
        return None


def _by_entry(data: np.ndarray, k: int) -> np.ndarray:
    """`data` (k entries in any shape) with its first axis counting entries."""
    return data if data.ndim and len(data) == k else data.reshape(k, -1)


def _joined(pieces: list) -> np.ndarray:
    """The entries received as (data, count) pieces, as one array (one piece: as it was
    sent; several: joined along a first axis that counts entries)."""
    if len(pieces) == 1:
        return pieces[0][0]
    return np.concatenate([_by_entry(d, k) for d, k in pieces])


class Token:
    """A sync channel from one unit to another: sync_send adds a signal, sync_recv takes one.

    A signal is delivered when the sender's transfers so far have landed, often later than
    the simulation's time. In an untraced launch, while no receiver waits, such a signal
    is kept in `due` (its delivery cycle; one sender, so in order) instead of costing an
    event: the receiver counts it once its own time reaches that cycle (`available`), and
    a receiver that blocks turns the first of them into the event it waits for."""

    __slots__ = ("name", "sender", "receiver", "count", "waiter", "sent", "due")

    def __init__(self, name: str, sender: str, receiver: str):
        self.name = name
        self.sender = sender
        self.receiver = receiver
        self.count = 0
        self.waiter: Process | None = None
        self.sent = 0
        self.due: deque[int] = deque()

    def available(self, time: int) -> int:
        """Signals there for the receiver at `time` (no earlier than the simulation's):
        those delivered, and those due by then (only the receiver takes signals, so the
        ones it counts early are seen by nobody else)."""
        due = self.due
        while due and due[0] <= time:
            due.popleft()
            self.sent += 1
            self.count += 1
        return self.count


@dataclass(slots=True)
class UnitStats:
    busy: int = 0
    stalled_input: int = 0
    stalled_output: int = 0
    stalled_shared: int = 0
    instructions: int = 0
    finished_at: int = 0

    def as_dict(self) -> dict[str, int]:
        return {"busy": self.busy, "stalled_input": self.stalled_input,
                "stalled_output": self.stalled_output, "stalled_shared": self.stalled_shared,
                "instructions": self.instructions, "finished_at": self.finished_at}


class Process:
    """One unit running its program."""

    __slots__ = ("name", "gen", "instruction", "blocked_on", "blocked_since", "blocked_kind",
                 "last_landing", "stats", "done", "local", "pending", "rank")

    def __init__(self, name: str, gen: Generator, rank: int = 0):
        self.name = name
        # The unit's place in the launch (the order its program lists it): same-cycle
        # requests for shared bandwidth are served in this order.
        self.rank = rank
        # The time this unit has reached. Work that touches nobody else (a delay, a wait
        # for its own data, a transfer over its private datapath) only moves this clock
        # on; the unit goes back on the event heap when it next deals with another unit
        # (a FIFO, a token, a shared resource), at its own time. Same timing, fewer events.
        self.local = 0
        self.pending: tuple | None = None  # a command to run when the clock catches up
        self.gen = gen
        self.instruction = "start"  # what the program is doing; the program updates it
        self.blocked_on: str | None = None
        self.blocked_since = 0
        self.blocked_kind = ""
        self.last_landing = 0
        self.stats = UnitStats()
        self.done = False


_RECEIVING = 0  # what a blocked unit waits for, spelled out only when shown (_describe)
_SENDING = 1
_TOKEN = 2


def _request_rank(request: tuple) -> int:
    return request[0].rank


def _describe(blocked_on) -> str:
    if blocked_on.__class__ is not tuple:
        return blocked_on
    if blocked_on[0] == _TOKEN:
        token = blocked_on[1]
        return f"for sync token {token.name} from {token.sender}"
    if blocked_on[0] == _RECEIVING:
        _, remaining, fifo, held = blocked_on
        return (f"to receive {remaining} more entr{'y' if remaining == 1 else 'ies'} from FIFO "
                f"{fifo.name} ({held} in it or in flight; producer {fifo.producer})")
    fifo = blocked_on[1]
    if fifo.queue is not None and fifo.held < fifo.depth:
        held = sum(f.held for f in fifo.queue.fifos)
        return (f"for space in FIFO {fifo.name} (its datapath's queue is full: {held} of "
                f"{fifo.queue.depth} entries taken by its FIFOs; consumer {fifo.consumer})")
    return f"for space in FIFO {fifo.name} (full: depth {fifo.depth}; consumer {fifo.consumer})"


#: a unit's sequencer reports to the simulator (budgets) at least once per this many issue
#: cycles (emulator.device.codegen: checked once per loop iteration)
CHECK_EVERY = 1 << 16
#: the event loop looks at the wall clock once per this many distinct times
_CLOCK_EVERY = 1 << 10

_CALLBACK = 0
_RESUME = 1
_WAKE = 2  # a FIFO's waiting receiver may take entries now
_SIGNAL = 3  # a sync token is delivered (no closure built per signal)
_FREED = 4  # a receive taken ahead reaches its cycle while the FIFO's sender waits for room


@dataclass(slots=True)
class Simulator:
    """Runs unit processes until all finish; raises ExecutionError on a fault or deadlock."""

    trace: Any = None  # an emulator.trace.TraceRecorder, or None
    max_cycles: int | None = None
    #: the host's time.monotonic() past which the run stops (the wall-clock budget), and
    #: that budget in seconds (for the message)
    deadline: float | None = None
    max_seconds: float | None = None
    now: int = 0
    processes: list[Process] = field(default_factory=list)
    datapath_bytes: dict[str, int] = field(default_factory=dict)
    # The event queue: the distinct times on a heap, and per time its events in the order
    # they were scheduled (first scheduled, first run: the order a heap of (time, sequence
    # number) gives, with one heap entry per time instead of per event).
    _times: list = field(default_factory=list)
    _events: dict = field(default_factory=dict)
    _limit: int = 1 << 62  # max_cycles, or "never"
    # This cycle's requests for shared bandwidth, (unit, command): served together once
    # every other event of the cycle has run, in the units' rank order (_serve_shared).
    _requests: list = field(default_factory=list)

    # ---- building ---------------------------------------------------------------------

    def spawn(self, name: str, gen: Generator) -> Process:
        proc = Process(name, gen, len(self.processes))
        self.processes.append(proc)
        self._push(self.now, _RESUME, proc, None)
        return proc

    def _push(self, time: int, kind: int, target, value) -> None:
        bucket = self._events.get(time)
        if bucket is None:
            if time < self.now:  # (never: every wait ends at or after now)
                raise ExecutionError(f"internal: an event scheduled at cycle {time}, before "
                                     f"the simulation's time {self.now}")
            self._events[time] = [(kind, target, value)]
            heapq.heappush(self._times, time)
        else:
            bucket.append((kind, target, value))

    def at(self, time: int, fn: Callable[[], None]) -> None:
        """Run `fn()` at `time` (a landing, a delayed token)."""
        self._push(time, _CALLBACK, fn, None)

    # ---- running ----------------------------------------------------------------------

    def run(self) -> int:
        times, events = self._times, self._events
        pop = heapq.heappop
        limit = self.max_cycles
        self._limit = (1 << 62) if limit is None else limit
        deadline = self.deadline
        countdown = _CLOCK_EVERY
        while times:
            time = times[0]
            if limit is not None and time > limit:
                raise ExecutionError(f"simulation passed its limit of {limit} cycles; raise it "
                                     "(--max-cycles) if the kernel really runs this long",
                                     f"time {time}")
            countdown -= 1
            if not countdown:
                countdown = _CLOCK_EVERY
                if deadline is not None and host_time.monotonic() > deadline:
                    raise self._over_time(time)
            self.now = time
            bucket = events[time]
            i = 0
            while True:
                while i < len(bucket):  # events scheduled for this very time join the bucket
                    kind, target, value = bucket[i]
                    i += 1
                    if kind == _RESUME:
                        cmd = target.pending
                        if cmd is not None and cmd[0] == RECV and target.local <= time <= self._limit \
                                and target.blocked_on is None:
                            # A receive the unit issued ahead of the simulation's time: when nothing
                            # of it is visible yet, it blocks right here (what _step would do).
                            fifo = cmd[1]
                            chunks = fifo.chunks
                            if (not chunks or chunks[0][0] > time) and fifo.consumer == target.name:
                                target.local = time
                                target.pending = None
                                fifo.getter = [target, cmd[2], []]
                                if chunks:
                                    self._fifo_wake_at(fifo, chunks[0][0])
                                target.blocked_on = (_RECEIVING, cmd[2], fifo, fifo.held)  # (_block)
                                target.blocked_kind = "in"
                                target.blocked_since = time
                                continue
                        elif cmd is not None and cmd[0] == TRANSFER and target.local <= time \
                                <= self._limit and target.blocked_on is None:
                            # A transfer over shared bandwidth the unit issued ahead of the
                            # simulation's time: its request joins the cycle's (what _step
                            # would do, without resuming the unit twice).
                            target.local = time
                            target.pending = None
                            self._requests.append((target, cmd))
                            continue
                        self._step(target, value)
                    elif kind == _WAKE:
                        getter = target.getter
                        chunks = target.chunks
                        if getter is not None and not getter[2] and chunks and chunks[0][2] == getter[1] \
                                and chunks[0][0] <= time:
                            # (_fifo_wake's first case, inlined: the whole chunk the receiver
                            # waits for, handed over as it was sent; once or twice per chunk)
                            target.wake_at = None
                            head = chunks.popleft()
                            target.held -= getter[1]
                            if target.queue is not None:
                                target.queue.held -= getter[1]
                            if target.putter is not None or target.trace is not None \
                                    or target.queue is not None:
                                self._fifo_freed(target)
                            target.getter = None
                            self._step(getter[0], head[1])
                        else:
                            self._fifo_wake(target)
                    elif kind == _SIGNAL:
                        self._signal(target)
                    elif kind == _FREED:
                        self._fifo_freed(target)
                        if target.sender_waits():
                            self._wake_on_free(target)  # (the next receive taken ahead)
                    else:
                        target()
                if not self._requests:
                    break
                self._serve_shared()
            del events[time]
            pop(times)
        live = [p for p in self.processes if not p.done]
        if live:
            # (a unit that waits from its own time would have blocked at that time)
            at = max([self.now, *(p.blocked_since for p in live if p.blocked_on is not None)])
            raise ExecutionError(self._deadlock_report(live), f"cycle {at}")
        return max([self.now, *(p.stats.finished_at for p in self.processes)])

    def _deadlock_report(self, live: list[Process]) -> str:
        lines = [f"deadlock: {len(live)} unit(s) blocked and nothing left to happen"]
        for p in live:
            lines.append(f"  {p.name} at '{p.instruction}' waits {_describe(p.blocked_on) if p.blocked_on else 'for nothing (never started)'}")
        return "\n".join(lines)

    def _fault(self, proc: Process, message: str) -> ExecutionError:
        return ExecutionError(message, f"unit {proc.name}, instruction '{proc.instruction}', "
                                       f"cycle {max(self.now, proc.local)}")

    def _step(self, proc: Process, value) -> None:
        """Resume `proc` and run it until it blocks, must wait for the clock, or ends."""
        now = self.now
        if proc.local < now:
            proc.local = now
        stats = proc.stats
        trace = self.trace
        if proc.blocked_on is not None:
            waited = now - proc.blocked_since
            kind = proc.blocked_kind
            if kind == "in":
                stats.stalled_input += waited
            elif kind == "out":
                stats.stalled_output += waited
            if trace is not None and waited:
                trace.stall(proc.name, kind, proc.blocked_since, now, _describe(proc.blocked_on))
            proc.blocked_on = None
        send = proc.gen.send
        limit = self._limit
        while True:
            if proc.local > limit:
                self._check_limit(proc)
            cmd = proc.pending
            if cmd is not None:
                proc.pending = None
            else:
                try:
                    cmd = send(value)
                except StopIteration:
                    proc.done = True
                    stats.finished_at = max(proc.local, proc.last_landing)
                    return
                except ExecutionError as err:
                    if err.location is None:
                        raise self._fault(proc, err.message) from None
                    raise
                stats.instructions += 1
            op = cmd[0]
            local = proc.local
            value = None
            # The commands that deal with other units (most often yielded: private work
            # mostly runs in place, see `*_now` below) come first.
            if op == RECV:
                if local > now:
                    fifo = cmd[1]
                    if trace is None and local <= limit and fifo.consumer == proc.name:
                        chunks = fifo.chunks
                        if not chunks or chunks[0][0] > local:
                            # Nothing visible at the unit's own time: it would block then.
                            # So it waits as the FIFO's receiver from that time on (no event
                            # for the attempt); whatever the sender places wakes it no
                            # earlier than that time (_fifo_wake_at).
                            fifo.getter = [proc, cmd[2], []]
                            proc.blocked_on = (_RECEIVING, cmd[2], fifo, fifo.held)  # (_block)
                            proc.blocked_kind = "in"
                            proc.blocked_since = local
                            if chunks:
                                self._fifo_wake_at(fifo, chunks[0][0])
                            return
                    proc.pending = cmd
                    bucket = self._events.get(local)  # (_push, inlined: once per chunk)
                    if bucket is None:
                        self._push(local, _RESUME, proc, None)
                    else:
                        bucket.append((_RESUME, proc, None))
                    return
                fifo, n = cmd[1], cmd[2]
                if fifo.consumer != proc.name:
                    raise self._fault(proc, f"reads FIFO {fifo.name}, whose receiving unit is {fifo.consumer}")
                chunks = fifo.chunks
                if chunks:
                    head = chunks[0]
                    if head[2] == n and head[0] <= now:  # the whole chunk it waits for
                        chunks.popleft()
                        fifo.held -= n
                        if fifo.queue is not None:
                            fifo.queue.held -= n
                        if fifo.putter is not None or fifo.trace is not None or fifo.queue is not None:
                            self._fifo_freed(fifo)
                        value = head[1]
                        continue
                pieces: list = []
                remaining = fifo.take_visible(now, n, pieces)
                if pieces:
                    self._fifo_freed(fifo)
                if remaining == 0:
                    value = _joined(pieces)
                    continue
                fifo.getter = [proc, remaining, pieces]
                if fifo.chunks:
                    self._fifo_wake_at(fifo, fifo.chunks[0][0])
                proc.blocked_on = (_RECEIVING, remaining, fifo, fifo.held)  # (_block)
                proc.blocked_kind = "in"
                proc.blocked_since = now
                return
            if op == SEND_BUSY or op == SEND:
                fifo = cmd[1]
                if local > now:
                    # A send that fits now fits at the unit's own time too (only its
                    # receiver frees slots), so it is placed now with its entries visible
                    # when they would have been. No need to put the unit back on the heap.
                    room = fifo.room_at(local) if fifo.producer == proc.name else -1
                    if room >= cmd[3]:
                        busy = cmd[5] if op == SEND_BUSY else 0
                        self._fifo_put(fifo, cmd[2], 0, cmd[3], cmd[4] + local - now, local)
                        if busy > 0:
                            stats.busy += busy
                            if trace is not None:
                                trace.slice(proc.name, proc.instruction, local, busy)
                            proc.local = local + busy
                        continue
                    if trace is None and fifo.producer == proc.name and room <= 0:
                        # Nothing fits now: unless the receiver frees a slot before the
                        # unit's own time, it blocks at that time. So it waits as the FIFO's
                        # sender from that time on (no event for the attempt); a slot freed
                        # earlier gives it back its attempt at its own time (_fifo_freed).
                        fifo.putter = [proc, cmd[2], 0, cmd[3], cmd[4],
                                       cmd[5] if op == SEND_BUSY else 0]
                        proc.blocked_on = (_SENDING, fifo)  # (_block, at the unit's time)
                        proc.blocked_kind = "out"
                        proc.blocked_since = local
                        if fifo.frees or fifo.queue is not None and fifo.queue.ahead:
                            self._wake_on_free(fifo)
                        return
                    proc.pending = cmd
                    self._push(local, _RESUME, proc, None)
                    return
                data, n, latency = cmd[2], cmd[3], cmd[4]
                busy = cmd[5] if op == SEND_BUSY else 0
                if fifo.producer != proc.name:
                    raise self._fault(proc, f"writes FIFO {fifo.name}, whose sending unit is {fifo.producer}")
                sent = self._fifo_put(fifo, data, 0, n, latency)
                if sent == n:
                    if busy > 0:
                        stats.busy += busy
                        if trace is not None:
                            trace.slice(proc.name, proc.instruction, now, busy)
                        proc.local = now + busy
                    continue
                fifo.putter = [proc, data, sent, n, latency, busy]
                self._block(proc, "out", (_SENDING, fifo))
                if fifo.frees or fifo.queue is not None and fifo.queue.ahead:
                    self._wake_on_free(fifo)
                return
            # ---- private work: only this unit's clock moves -------------------------
            if op == DELAY:
                cycles = cmd[1]
                if cycles > 0:
                    stats.busy += cycles
                    if trace is not None:
                        trace.slice(proc.name, proc.instruction, local, cycles)
                    proc.local = local + cycles
                continue
            if op == WAIT_UNTIL:
                until = cmd[1]
                if until > local:
                    stats.stalled_input += until - local
                    if trace is not None:
                        trace.stall(proc.name, "in", local, until, cmd[2])
                    proc.local = until
                continue
            if op == NOW:
                value = local
                continue
            if op == WAIT_LANDED:
                if proc.last_landing > local:
                    stats.stalled_input += proc.last_landing - local
                    proc.local = proc.last_landing
                continue
            if op == TRANSFER and not cmd[3]:
                self._transfer(proc, cmd, local)
                continue
            if op == SETTLE and proc.last_landing > local:
                stats.stalled_input += proc.last_landing - local
                proc.local = local = proc.last_landing
            # ---- the rest deals with other units: at this unit's time ----------------
            if local > now:
                # A token is delivered at the unit's time: no need for the heap either.
                if op == SYNC_SEND and cmd[1].sender == proc.name:
                    self._deliver(cmd[1], max(local, proc.last_landing))
                    continue
                if op == SYNC_RECV and trace is None and local <= limit:
                    token = cmd[1]
                    if token.receiver == proc.name and not token.count \
                            and not (token.due and token.available(local)):
                        # No signal there by the unit's own time: it would block then. So
                        # it waits for the token from that time on (no event for the
                        # attempt); a signal that lands earlier resumes it at that time
                        # (_signal), when it would have found it.
                        token.waiter = proc
                        if token.due:  # (each later than the unit's time)
                            self._push(token.due.popleft(), _SIGNAL, token, None)
                        proc.blocked_on = (_TOKEN, token)  # (_block, at the unit's time)
                        proc.blocked_kind = "in"
                        proc.blocked_since = local
                        return
                proc.pending = cmd
                self._push(local, _RESUME, proc, None)
                return
            if op == TRANSFER:
                # Over shared bandwidth: waits for the end of the cycle, when every unit
                # that asks in this cycle has asked (_serve_shared).
                self._requests.append((proc, cmd))
                return
            if op == SYNC_SEND:
                token = cmd[1]
                if token.sender != proc.name:
                    raise self._fault(proc, f"signals token {token.name}, whose sender is {token.sender}")
                if proc.last_landing > now:
                    self._deliver(token, proc.last_landing)
                else:
                    self._signal(token)
                continue
            if op == SYNC_RECV:
                token = cmd[1]
                if token.receiver != proc.name:
                    raise self._fault(proc, f"waits on token {token.name}, whose receiver is {token.receiver}")
                if token.count or token.due and token.available(now):
                    token.count -= 1
                    continue
                token.waiter = proc
                if token.due:  # (each later than now) the first wakes the receiver
                    self._push(token.due.popleft(), _SIGNAL, token, None)
                self._block(proc, "in", (_TOKEN, token))
                return
            if op == SETTLE:  # (the global clock has reached the unit's own)
                continue
            raise self._fault(proc, f"unknown command {cmd!r}")

    # ---- commands run in place by the unit's own code -------------------------------------
    # A unit's generated code calls these instead of yielding a command when the command
    # cannot block and touches nobody else's clock: the same accounting as `_step` gives
    # the yielded command (instruction count, limit check, busy/stall bins, trace), without
    # the round trip through the generator and the dispatch. The code calls them only while
    # `_step` runs the unit (so `proc.local >= now`).

    def _check_limit(self, proc: Process) -> None:
        limit = self.max_cycles
        if limit is not None and proc.local > limit:
            raise self._fault(proc, f"the unit passed the simulation's limit of {limit} cycles; "
                                    "raise it (--max-cycles) if the kernel really runs this long")

    def _over_time(self, time: int) -> ExecutionError:
        live = [p for p in self.processes if not p.done]
        shown = "; ".join(f"{p.name} at '{p.instruction}'" for p in live[:3])
        more = f" and {len(live) - 3} more" if len(live) > 3 else ""
        return ExecutionError(
            f"the emulation passed its time budget of {self.max_seconds:g} s of wall-clock "
            f"time; raise it (--max-seconds) if the kernel really takes this long to emulate "
            f"(units still running: {shown}{more})", f"cycle {time}")

    # ---- the sequencer: one instruction issued per cycle ----------------------------------
    # A unit issues at most one instruction per cycle (scalar, loop control or device op);
    # the generated code counts its issue cycles in a local `q` (docs/emulator.md).

    def issue_wait(self, proc: Process, q: int) -> None:
        """A device op issued at cycle `q`, later than the unit's pipeline is free: the
        unit is busy issuing the instructions before it until then."""
        if proc.local > self._limit:
            self._check_limit(proc)
        cycles = q - proc.local
        if cycles > 0:
            proc.stats.busy += cycles
            if self.trace is not None:
                self.trace.slice(proc.name, "issuing scalar instructions", proc.local, cycles)
            proc.local = q

    def issue_check(self, proc: Process, q: int, loop: str) -> int:
        """Once per loop iteration, when the unit's issue cycle `q` passes the value this
        returned last time: the budgets (cycles, wall clock); returns the next value."""
        limit = self._limit
        where = f"unit {proc.name}, instruction '{loop}', cycle {max(q, proc.local)}"
        if q > limit:
            raise ExecutionError(
                f"the unit's loop passed the launch's budget of {limit} cycles "
                f"(cycle {q} of issuing its instructions, one per cycle); raise it "
                "(--max-cycles) if the kernel really runs this long", where)
        if self.deadline is not None and host_time.monotonic() > self.deadline:
            raise ExecutionError(
                f"the emulation passed its time budget of {self.max_seconds:g} s of "
                f"wall-clock time in this loop (issue cycle {q}); raise it (--max-seconds) "
                "if the kernel really takes this long to emulate", where)
        return min(q + CHECK_EVERY, limit)

    def delay_now(self, proc: Process, cycles: int) -> None:
        """(DELAY, cycles) in place."""
        if proc.local > self._limit:
            self._check_limit(proc)
        stats = proc.stats
        stats.instructions += 1
        if cycles > 0:
            stats.busy += cycles
            if self.trace is not None:
                self.trace.slice(proc.name, proc.instruction, proc.local, cycles)
            proc.local += cycles

    def wait_until_now(self, proc: Process, until: int, what: str) -> None:
        """(WAIT_UNTIL, until, what) in place."""
        if proc.local > self._limit:
            self._check_limit(proc)
        stats = proc.stats
        stats.instructions += 1
        local = proc.local
        if until > local:
            stats.stalled_input += until - local
            if self.trace is not None:
                self.trace.stall(proc.name, "in", local, until, what)
            proc.local = until

    def transfer_now(self, proc: Process, occupancy: int, latency: int, nbytes: int, land,
                     paths: tuple) -> None:
        """A (TRANSFER, ...) over no shared resource, in place: busy `occupancy` from the
        unit's own time, lands `latency` later."""
        if proc.local > self._limit:
            self._check_limit(proc)
        stats = proc.stats
        stats.instructions += 1
        if self.trace is not None:
            self._transfer(proc, (TRANSFER, occupancy, latency, (), nbytes, land, paths), proc.local)
            return
        counts = self.datapath_bytes
        for path in paths:
            counts[path] = counts.get(path, 0) + nbytes
        stats.busy += occupancy
        end = proc.local + occupancy
        landing = end + latency
        if landing > proc.last_landing:
            proc.last_landing = landing
        if land is not None:
            if land.__class__ is tuple:
                memory = land[0]  # (Memory.defer, inlined: once per store)
                memory._seq += 1
                heapq.heappush(memory.pending, (landing, memory._seq, land[1]))
            else:
                self._push(landing, _CALLBACK, land, None)
        proc.local = end

    def send_now(self, proc: Process, fifo: Fifo, data: np.ndarray, n: int, latency: int,
                 busy: int) -> None:
        """(SEND_BUSY, fifo, data, n, latency, busy) in place, by the FIFO's producer, when
        the FIFO has room for all `n` entries (a send that fits now fits at the unit's own
        time too: only the receiver frees slots)."""
        if proc.local > self._limit:
            self._check_limit(proc)
        stats = proc.stats
        stats.instructions += 1
        local = proc.local
        fifo.entries_moved += n
        fifo.bytes_moved += data.nbytes
        visible = local + latency
        fifo.chunks.append([visible, data, n])
        fifo.held += n
        if fifo.queue is not None:
            fifo.queue.held += n
        if fifo.trace is not None:
            fifo.trace.append((local, fifo.held))
        if fifo.getter is not None:
            self._fifo_wake_at(fifo, visible)
        if busy > 0:
            stats.busy += busy
            if self.trace is not None:
                self.trace.slice(proc.name, proc.instruction, local, busy)
            proc.local = local + busy

    def recv_now(self, proc: Process, fifo: Fifo, n: int):
        """(RECV, fifo, n) in place when the unit's time is the simulation's and all `n`
        entries are visible; None (nothing done) otherwise. The generated code calls it
        ahead of the simulation's time only for a unit that may take entries ahead
        (`recv_ahead`)."""
        now = self.now
        if proc.local != now:
            return self.recv_ahead(proc, fifo, n)
        chunks = fifo.chunks
        if not chunks:
            return None
        head = chunks[0]
        if head[0] > now:
            return None
        if head[2] < n:
            seen = 0
            for visible, _, k in chunks:
                if visible > now:
                    return None
                seen += k
                if seen >= n:
                    break
            else:
                return None
        if proc.local > self._limit:
            self._check_limit(proc)
        proc.stats.instructions += 1
        if head[2] == n:
            chunks.popleft()
            fifo.held -= n
            if fifo.queue is not None:
                fifo.queue.held -= n
            value = head[1]
        else:
            pieces: list = []
            fifo.take_visible(now, n, pieces)
            value = _joined(pieces)
        if fifo.putter is not None or fifo.trace is not None or fifo.queue is not None:
            self._fifo_freed(fifo)
        return value

    def recv_ahead(self, proc: Process, fifo: Fifo, n: int):
        """A receive at the unit's own time, ahead of the simulation's, of a whole chunk
        already visible then: taken now, its slots still held until that time (Fifo.frees;
        the sender sees them free from then on, as if the receive ran then). Only for an
        untraced unit that reads no memory (codegen: a unit ahead of the simulation's time
        reads memory as it is at the simulation's time; one that went on after this
        instead of waiting in the event queue could miss writes landed in between).
        None: nothing done."""
        chunks = fifo.chunks
        if not chunks:
            return None
        head = chunks[0]
        local = proc.local
        if head[2] != n or head[0] > local or fifo.consumer != proc.name:
            return None
        if local > self._limit:
            self._check_limit(proc)
        proc.stats.instructions += 1
        chunks.popleft()
        fifo.frees.append([local, n])
        if fifo.queue is not None:
            fifo.queue.ahead += 1
        if fifo.putter is not None or fifo.queue is not None \
                and fifo.queue.blocked_sender() is not None:
            self._push(local, _FREED, fifo, None)  # (the sender waits for room)
        return head[1]

    def bulk_take(self, fifo: Fifo, n: int, times: list) -> None:
        """The receives of a loop run in bulk (emulator.device.bulk): the first chunks of
        `fifo`, one of `n` entries at each of `times`, taken now, their slots freed at
        those cycles as `recv_ahead` frees a receive's (a receive at the simulation's
        time frees its slot now: the same for a sender, whose time is never earlier)."""
        chunks, frees = fifo.chunks, fifo.frees
        for time in times:
            chunks.popleft()
            frees.append([time, n])
        if fifo.queue is not None:
            fifo.queue.ahead += len(times)
        if fifo.putter is not None or fifo.queue is not None \
                and fifo.queue.blocked_sender() is not None:
            for time in times:  # (the sender waits for room)
                self._push(time, _FREED, fifo, None)

    def sync_send_now(self, proc: Process, token: Token) -> bool:
        """(SYNC_SEND, token) in place, by the token's sender: the signal is delivered when
        every transfer the unit issued so far has landed, as `_step` does it (the same event
        at the same place in the queue). False (nothing done): the unit is not the sender,
        and the yielded command reports the fault."""
        if token.sender != proc.name:
            return False
        if proc.local > self._limit:
            self._check_limit(proc)
        proc.stats.instructions += 1
        local = proc.local
        if local > self.now:
            self._deliver(token, max(local, proc.last_landing))
        elif proc.last_landing > local:
            self._deliver(token, proc.last_landing)
        else:
            self._signal(token)
        return True

    def sync_recv_now(self, proc: Process, token: Token, ahead: bool = False) -> bool:
        """(SYNC_RECV, token) in place when the unit's time is the simulation's and a signal
        is there (what `_step` does then); False (nothing done) otherwise: the command is
        yielded and waits its turn in the event queue."""
        if (proc.local == self.now or ahead) and token.receiver == proc.name \
                and (token.count or token.due and token.available(proc.local)):
            if proc.local > self._limit:
                self._check_limit(proc)
            proc.stats.instructions += 1
            token.count -= 1
            return True
        return False

    def _serve_shared(self) -> None:
        """Grant this cycle's requests for shared bandwidth in the units' rank order, then
        resume each requester. The order of a cycle's events (which unit's event happened
        to be scheduled first) thus decides nothing: the same requests in the same cycle
        get the same grants."""
        requests = self._requests
        self._requests = []
        requests.sort(key=_request_rank)  # (stable: one unit's requests keep their order)
        now = self.now
        for proc, cmd in requests:
            self._transfer(proc, cmd, now)
        for proc, _ in requests:
            self._step(proc, None)

    def _transfer(self, proc: Process, cmd: tuple, issue: int) -> None:
        """A transfer issued at `issue`: wait for shared resources, occupy the unit, land."""
        occupancy, latency, shared, nbytes, land, paths = cmd[1:7]
        start = issue
        for res in shared:
            free = res.free_cycle()
            if free > start:
                start = free
        for res in shared:
            # Served in the order _serve_shared gives, in bytes: the transfer may begin in the cycle the
            # previous one ended in, on the bandwidth that one left (credit).
            hold = res.grant(start, nbytes) - start
            if hold > occupancy:
                occupancy = hold
        counts = self.datapath_bytes
        for path in paths:
            counts[path] = counts.get(path, 0) + nbytes
        stats = proc.stats
        waited = start - issue
        stats.stalled_shared += waited
        stats.busy += occupancy
        end = start + occupancy
        landing = end + latency
        if landing > proc.last_landing:
            proc.last_landing = landing
        if land is not None:
            if land.__class__ is tuple:  # (memory, write): applied lazily on landing
                land[0].defer(landing, land[1])
            else:
                self._push(landing, _CALLBACK, land, None)
        if self.trace is not None:
            if waited:
                self.trace.stall(proc.name, "shared", issue, start, ", ".join(r.name for r in shared))
            self.trace.slice(proc.name, proc.instruction, start, occupancy,
                             {"bytes": nbytes, "lands_at": landing})
        proc.local = end

    def _block(self, proc: Process, kind: str, what: str) -> None:
        proc.blocked_on = what
        proc.blocked_kind = kind
        proc.blocked_since = self.now

    def _deliver(self, token: Token, time: int) -> None:
        """The sender's signal arrives at `time`, after the simulation's time: an event
        when someone will look at it then (the receiver waits, or the trace records the
        order of events), otherwise kept on the token until the receiver counts it."""
        if token.waiter is None and self.trace is None:
            token.due.append(time)
        else:
            self._push(time, _SIGNAL, token, None)

    def _signal(self, token: Token) -> None:
        token.sent += 1
        waiter = token.waiter
        if waiter is not None:
            token.waiter = None
            # (a receiver that waits from its own time, still ahead, goes on at that time)
            since = waiter.blocked_since
            self._push(since if since > self.now else self.now, _RESUME, waiter, None)
        else:
            token.count += 1

    # ---- FIFOs --------------------------------------------------------------------------

    def _fifo_put(self, fifo: Fifo, data: np.ndarray, sent: int, n: int, latency: int,
                  at: int | None = None) -> int:
        """Place as much of `data[sent:n]` as fits; returns the new `sent`. `at`: the
        sender's time when it is ahead of the simulation (for the occupancy trace)."""
        if fifo.frees or fifo.queue is not None and fifo.queue.ahead:
            fifo.settle(self.now if at is None else at)
        k = min(n - sent, fifo.depth - fifo.held if fifo.queue is None else fifo.room())
        if k <= 0:
            return sent
        piece = data if (sent == 0 and k == n) else data[sent:sent + k]
        fifo.entries_moved += k
        fifo.bytes_moved += piece.nbytes
        visible = self.now + latency
        fifo.chunks.append([visible, piece, k])
        fifo.held += k
        if fifo.queue is not None:
            fifo.queue.held += k
        if fifo.trace is not None:
            fifo.trace.append((self.now if at is None else at, fifo.held))
        if fifo.getter is not None:
            self._fifo_wake_at(fifo, visible)
        return sent + k

    def _wake_on_free(self, fifo: Fifo) -> None:
        """The sender now waits for room in `fifo`: the first receive taken ahead (each
        after now) among the FIFOs sharing its room is an event that lets it go on."""
        first = fifo.next_free()
        if first is not None:
            self._push(first.frees[0][0], _FREED, first, None)

    def _fifo_wake_at(self, fifo: Fifo, time: int) -> None:
        """Serve the FIFO's waiting receiver at `time` (one event, deduplicated), and no
        earlier than the time it waits from (a receiver may wait from its own time, ahead
        of the simulation's: _step)."""
        since = fifo.getter[0].blocked_since
        if since > time:
            time = since
        if fifo.wake_at is not None and fifo.wake_at <= time:
            return
        fifo.wake_at = time
        bucket = self._events.get(time)  # (_push, inlined: once per chunk)
        if bucket is None:
            self._push(time, _WAKE, fifo, None)
        else:
            bucket.append((_WAKE, fifo, None))

    def _fifo_wake(self, fifo: Fifo) -> None:
        fifo.wake_at = None
        getter = fifo.getter
        if getter is None:
            return
        proc, remaining, pieces = getter
        chunks = fifo.chunks
        if not pieces and chunks and chunks[0][2] == remaining and chunks[0][0] <= self.now:
            # The whole chunk it waits for: hand it over as it was sent.
            head = chunks.popleft()
            fifo.held -= remaining
            if fifo.queue is not None:
                fifo.queue.held -= remaining
            if fifo.putter is not None or fifo.trace is not None or fifo.queue is not None:
                self._fifo_freed(fifo)  # (with the getter still set, as below)
            fifo.getter = None
            self._step(proc, head[1])
            return
        before = len(pieces)
        remaining = fifo.take_visible(self.now, remaining, pieces)
        if len(pieces) > before:
            self._fifo_freed(fifo)
        if remaining == 0:
            fifo.getter = None
            value = _joined(pieces)
            self._step(proc, value)
            return
        getter[1] = remaining
        if fifo.chunks:
            self._fifo_wake_at(fifo, fifo.chunks[0][0])

    def _fifo_freed(self, fifo: Fifo) -> None:
        """Entries left the FIFO: record the occupancy, let a blocked sender go on."""
        if fifo.frees or fifo.queue is not None and fifo.queue.ahead:
            fifo.settle(self.now)
        if fifo.trace is not None:
            fifo.trace.append((self.now, fifo.held))
        if fifo.queue is not None:
            # the room freed may be what a sender blocked on another FIFO of the queue waits for
            blocked = fifo.queue.blocked_sender()
            if blocked is not None:
                fifo = blocked
            if fifo.putter is None or fifo.room() <= 0:
                return
        putter = fifo.putter
        if putter is None or fifo.held >= fifo.depth:
            return
        proc, data, sent, n, latency, busy = putter
        fifo.putter = None
        if proc.blocked_since > self.now:
            # A sender waiting from its own time on, which is still ahead (see _step):
            # room freed before that time. It makes its attempt at its time, as it would
            # have without waiting early.
            proc.blocked_on = None
            proc.pending = (SEND_BUSY, fifo, data, n, latency, busy)
            self._push(proc.blocked_since, _RESUME, proc, None)
            return
        sent = self._fifo_put(fifo, data, sent, n, latency)
        if sent < n:
            putter[2] = sent
            fifo.putter = putter
            return
        # The unit was stalled on output until now; its busy time follows.
        if proc.blocked_on is not None:
            proc.stats.stalled_output += self.now - proc.blocked_since
            if self.trace is not None and self.now > proc.blocked_since:
                self.trace.stall(proc.name, "out", proc.blocked_since, self.now,
                                 _describe(proc.blocked_on))
            proc.blocked_on = None
        if busy > 0:
            proc.stats.busy += busy
            if self.trace is not None:
                self.trace.slice(proc.name, proc.instruction, self.now, busy)
        proc.local = self.now + busy
        self._push(self.now + busy, _RESUME, proc, None)
