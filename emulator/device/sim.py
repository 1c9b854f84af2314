"""The discrete-event kernel: a heap of timed events and units as generator processes.

A unit's program is a Python generator that yields *commands* (small tuples built by the
helpers below) and receives each command's result back. A command either completes at
once (the generator is resumed in the same step, no heap traffic) or blocks the unit
until a FIFO, a token or the clock lets it go on. Time is an integer count of device
cycles.

Why a hand-written heap and not SimPy: both were measured on the 4096x4096 f16 add shape
(bench/emulator_event_loop.py, figures in docs/emulator.md). SimPy wraps every wait in an
Event object with callbacks; here a wait is one tuple on a heap and an unblocked
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
    come, first served), is busy `occupancy` cycles, and `land()` runs `latency` cycles
    after that (when the data arrives). The unit may issue its next command meanwhile:
    several transfers of one unit can be in flight."""
    return (TRANSFER, int(occupancy), int(latency), tuple(shared), int(nbytes), land,
            tuple(paths))


def now() -> tuple:
    return (NOW,)


def wait_landed() -> tuple:
    return (WAIT_LANDED,)


def wait_until(time: int, what: str = "for data in flight") -> tuple:
    return (WAIT_UNTIL, int(time), what)


# ---- the things units wait on --------------------------------------------------------------


class SharedResource:
    """Bandwidth shared by several units (device memory, a ring link): a transfer holds it
    for ceil(bytes / bandwidth) cycles; requests are served in the order they are made."""

    __slots__ = ("name", "bandwidth", "free_at", "busy", "bytes")

    def __init__(self, name: str, bandwidth: int):
        if bandwidth <= 0:
            raise ExecutionError(f"shared resource {name} has bandwidth {bandwidth}")
        self.name = name
        self.bandwidth = bandwidth
        self.free_at = 0
        self.busy = 0
        self.bytes = 0

    def hold_cycles(self, nbytes: int) -> int:
        return -(-nbytes // self.bandwidth)


class Fifo:
    """A hardware FIFO on the datapath between two adjacent units, `depth` entries deep.

    Entries travel in chunks (numpy arrays whose first axis counts entries). A send reserves
    its slots at once and its data becomes visible to the receiver `latency` cycles later.
    A send larger than the free space streams: it places what fits and blocks for the
    rest; a receive likewise takes what is visible and blocks for the rest.
    """

    __slots__ = ("name", "depth", "producer", "consumer", "chunks", "count", "reserved",
                 "getter", "putter", "trace", "entries_moved", "path")

    def __init__(self, name: str, depth: int, producer: str, consumer: str):
        if depth < 1:
            raise ExecutionError(f"FIFO {name} has depth {depth}: a FIFO needs at least one entry")
        self.name = name
        self.depth = depth
        self.producer = producer
        self.consumer = consumer
        self.chunks: deque[np.ndarray] = deque()
        self.count = 0  # visible entries
        self.reserved = 0  # entries sent but not yet visible
        self.getter: list | None = None  # [proc, remaining, pieces]
        self.putter: list | None = None  # [proc, data, sent, n, latency]
        self.trace: list[tuple[int, int]] | None = None
        self.entries_moved = 0
        self.path = name

    @property
    def free(self) -> int:
        return self.depth - self.count - self.reserved

    def _take(self, k: int) -> np.ndarray:
        head = self.chunks[0]
        if len(head) <= k:
            self.chunks.popleft()
            taken = head
        else:
            taken = head[:k]
            self.chunks[0] = head[k:]
        self.count -= len(taken)
        return taken


class Token:
    """A sync channel from one unit to another: sync_send adds a signal, sync_recv takes one."""

    __slots__ = ("name", "sender", "receiver", "count", "waiter", "sent")

    def __init__(self, name: str, sender: str, receiver: str):
        self.name = name
        self.sender = sender
        self.receiver = receiver
        self.count = 0
        self.waiter: Process | None = None
        self.sent = 0


@dataclass
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
                 "last_landing", "stats", "done", "slice_start", "slice_name")

    def __init__(self, name: str, gen: Generator):
        self.name = name
        self.gen = gen
        self.instruction = "start"  # what the program is doing; the program updates it
        self.blocked_on: str | None = None
        self.blocked_since = 0
        self.blocked_kind = ""
        self.last_landing = 0
        self.stats = UnitStats()
        self.done = False


_CALLBACK = 0
_RESUME = 1


@dataclass
class Simulator:
    """Runs unit processes until all finish; raises ExecutionError on a fault or deadlock."""

    trace: Any = None  # an emulator.trace.TraceRecorder, or None
    max_cycles: int | None = None
    now: int = 0
    processes: list[Process] = field(default_factory=list)
    datapath_bytes: dict[str, int] = field(default_factory=dict)
    _heap: list = field(default_factory=list)
    _seq: int = 0

    # ---- building ---------------------------------------------------------------------

    def spawn(self, name: str, gen: Generator) -> Process:
        proc = Process(name, gen)
        self.processes.append(proc)
        self._push(self.now, _RESUME, proc, None)
        return proc

    def _push(self, time: int, kind: int, target, value) -> None:
        self._seq += 1
        heapq.heappush(self._heap, (time, self._seq, kind, target, value))

    def at(self, time: int, fn: Callable[[], None]) -> None:
        """Run `fn()` at `time` (a landing, a delayed token)."""
        self._push(time, _CALLBACK, fn, None)

    # ---- running ----------------------------------------------------------------------

    def run(self) -> int:
        heap = self._heap
        pop = heapq.heappop
        limit = self.max_cycles
        while heap:
            time, _, kind, target, value = pop(heap)
            if limit is not None and time > limit:
                raise ExecutionError(f"simulation passed its limit of {limit} cycles",
                                     f"time {time}")
            self.now = time
            if kind == _CALLBACK:
                target()
            else:
                self._step(target, value)
        live = [p for p in self.processes if not p.done]
        if live:
            raise ExecutionError(self._deadlock_report(live), f"cycle {self.now}")
        return self.now

    def _deadlock_report(self, live: list[Process]) -> str:
        lines = [f"deadlock: {len(live)} unit(s) blocked and nothing left to happen"]
        for p in live:
            lines.append(f"  {p.name} at '{p.instruction}' waits {p.blocked_on or 'for nothing (never started)'}")
        return "\n".join(lines)

    def _fault(self, proc: Process, message: str) -> ExecutionError:
        return ExecutionError(message, f"unit {proc.name}, instruction '{proc.instruction}', cycle {self.now}")

    def _step(self, proc: Process, value) -> None:
        """Resume `proc` and run it until it blocks, waits for time or ends."""
        if proc.blocked_on is not None:
            waited = self.now - proc.blocked_since
            stats = proc.stats
            kind = proc.blocked_kind
            if kind == "in":
                stats.stalled_input += waited
            elif kind == "out":
                stats.stalled_output += waited
            if self.trace is not None and waited:
                self.trace.stall(proc.name, kind, proc.blocked_since, self.now, proc.blocked_on)
            proc.blocked_on = None
        gen = proc.gen
        send = gen.send
        while True:
            try:
                cmd = send(value)
            except StopIteration:
                proc.done = True
                proc.stats.finished_at = max(self.now, proc.last_landing)
                return
            except ExecutionError as err:
                if err.location is None:
                    raise self._fault(proc, err.message) from None
                raise
            op = cmd[0]
            proc.stats.instructions += 1
            if op == DELAY:
                cycles = cmd[1]
                if cycles <= 0:
                    value = None
                    continue
                proc.stats.busy += cycles
                if self.trace is not None:
                    self.trace.slice(proc.name, proc.instruction, self.now, cycles)
                self._push(self.now + cycles, _RESUME, proc, None)
                return
            if op == RECV:
                fifo, n = cmd[1], cmd[2]
                if fifo.consumer != proc.name:
                    raise self._fault(proc, f"reads FIFO {fifo.name}, whose receiving unit is {fifo.consumer}")
                pieces: list[np.ndarray] = []
                remaining = n
                while remaining and fifo.count:
                    piece = fifo._take(remaining)
                    pieces.append(piece)
                    remaining -= len(piece)
                if pieces:
                    self._fifo_changed(fifo)
                if remaining == 0:
                    value = pieces[0] if len(pieces) == 1 else np.concatenate(pieces)
                    continue
                fifo.getter = [proc, remaining, pieces]
                self._block(proc, "in", f"to receive {remaining} more entr{'y' if remaining == 1 else 'ies'} from FIFO {fifo.name} ({fifo.count} visible, {fifo.reserved} in flight, producer {fifo.producer})")
                return
            if op == SEND:
                fifo, data, n, latency = cmd[1], cmd[2], cmd[3], cmd[4]
                if fifo.producer != proc.name:
                    raise self._fault(proc, f"writes FIFO {fifo.name}, whose sending unit is {fifo.producer}")
                sent = self._fifo_put(fifo, data, 0, n, latency)
                if sent == n:
                    value = None
                    continue
                fifo.putter = [proc, data, sent, n, latency]
                self._block(proc, "out", f"for space in FIFO {fifo.name} (full: depth {fifo.depth}; consumer {fifo.consumer})")
                return
            if op == SYNC_SEND:
                token = cmd[1]
                if token.sender != proc.name:
                    raise self._fault(proc, f"signals token {token.name}, whose sender is {token.sender}")
                if proc.last_landing > self.now:
                    self.at(proc.last_landing, lambda t=token: self._signal(t))
                else:
                    self._signal(token)
                value = None
                continue
            if op == SYNC_RECV:
                token = cmd[1]
                if token.receiver != proc.name:
                    raise self._fault(proc, f"waits on token {token.name}, whose receiver is {token.receiver}")
                if token.count:
                    token.count -= 1
                    value = None
                    continue
                token.waiter = proc
                self._block(proc, "in", f"for sync token {token.name} from {token.sender}")
                return
            if op == TRANSFER:
                occupancy, latency, shared, nbytes, land, paths = cmd[1:7]
                start = self.now
                for res in shared:
                    if res.free_at > start:
                        start = res.free_at
                for res in shared:
                    hold = res.hold_cycles(nbytes)
                    # Served in request order: the resource is held from this transfer's
                    # start, at its own bandwidth.
                    res.free_at = start + hold
                    res.busy += hold
                    res.bytes += nbytes
                    if hold > occupancy:
                        occupancy = hold
                for path in paths:
                    self.datapath_bytes[path] = self.datapath_bytes.get(path, 0) + nbytes
                waited = start - self.now
                proc.stats.stalled_shared += waited
                proc.stats.busy += occupancy
                end = start + occupancy
                landing = end + latency
                if landing > proc.last_landing:
                    proc.last_landing = landing
                if land is not None:
                    self._push(landing, _CALLBACK, land, None)
                if self.trace is not None:
                    if waited:
                        self.trace.stall(proc.name, "shared", self.now, start,
                                         ", ".join(r.name for r in shared))
                    self.trace.slice(proc.name, proc.instruction, start, occupancy,
                                     {"bytes": nbytes, "lands_at": landing})
                if end > self.now:
                    self._push(end, _RESUME, proc, None)
                    return
                value = None
                continue
            if op == NOW:
                value = self.now
                continue
            if op == WAIT_LANDED:
                if proc.last_landing > self.now:
                    self._block(proc, "in", "for its transfers in flight to land")
                    self._push(proc.last_landing, _RESUME, proc, None)
                    return
                value = None
                continue
            if op == WAIT_UNTIL:
                if cmd[1] > self.now:
                    self._block(proc, "in", cmd[2])
                    self._push(cmd[1], _RESUME, proc, None)
                    return
                value = None
                continue
            raise self._fault(proc, f"unknown command {cmd!r}")

    def _block(self, proc: Process, kind: str, what: str) -> None:
        proc.blocked_on = what
        proc.blocked_kind = kind
        proc.blocked_since = self.now

    def _signal(self, token: Token) -> None:
        token.sent += 1
        waiter = token.waiter
        if waiter is not None:
            token.waiter = None
            self._push(self.now, _RESUME, waiter, None)
        else:
            token.count += 1

    # ---- FIFOs --------------------------------------------------------------------------

    def _fifo_put(self, fifo: Fifo, data: np.ndarray, sent: int, n: int, latency: int) -> int:
        """Place as much of `data[sent:n]` as fits; returns the new `sent`."""
        k = min(n - sent, fifo.free)
        if k <= 0:
            return sent
        piece = data if (sent == 0 and k == n) else data[sent:sent + k]
        fifo.entries_moved += k
        if latency > 0:
            fifo.reserved += k
            self._push(self.now + latency, _CALLBACK, lambda: self._fifo_land(fifo, piece, True), None)
        else:
            self._fifo_land(fifo, piece, False)
        return sent + k

    def _fifo_land(self, fifo: Fifo, piece: np.ndarray, was_reserved: bool) -> None:
        k = len(piece)
        if was_reserved:
            fifo.reserved -= k
        fifo.chunks.append(piece)
        fifo.count += k
        self._fifo_changed(fifo)
        getter = fifo.getter
        if getter is not None:
            proc, remaining, pieces = getter
            while remaining and fifo.count:
                got = fifo._take(remaining)
                pieces.append(got)
                remaining -= len(got)
            self._fifo_changed(fifo)
            if remaining == 0:
                fifo.getter = None
                value = pieces[0] if len(pieces) == 1 else np.concatenate(pieces)
                self._push(self.now, _RESUME, proc, value)
            else:
                getter[1] = remaining
            self._fifo_space(fifo)

    def _fifo_changed(self, fifo: Fifo) -> None:
        if fifo.trace is not None:
            fifo.trace.append((self.now, fifo.count + fifo.reserved))
        if fifo.putter is not None and fifo.free > 0:
            self._fifo_space(fifo)

    def _fifo_space(self, fifo: Fifo) -> None:
        putter = fifo.putter
        if putter is None or fifo.free <= 0:
            return
        proc, data, sent, n, latency = putter
        fifo.putter = None
        sent = self._fifo_put(fifo, data, sent, n, latency)
        if sent == n:
            self._push(self.now, _RESUME, proc, None)
        else:
            putter[2] = sent
            fifo.putter = putter
