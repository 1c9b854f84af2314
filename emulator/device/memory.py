"""Memories of the emulated device: flat byte arrays with bounds and buffer checks.

Every access is a strided box of elements: a byte address, a shape and byte strides (a
view straight into the byte array, so a whole transfer is one numpy copy). An access
outside the memory is a fault; so is a scratchpad access that is not inside one buffer
the program allocated (when the memory has allocations declared).

Nothing is allocated on the host until a memory is first touched: a device of 16,384
cores has 16,384 scratchpads, of which a launch may use a few. A small memory (a
scratchpad) is then allocated whole, or only up to the end of the buffers the running
program declared in it (nothing that passes the buffer check reaches further); a large
one (device memory is 128 GiB on spyre) grows with its use, up to `HOST_LIMIT` bytes:
to the end of the tensors allocated in it (`Memory.expect`) when the cap has room, else
by doubling.
Every allocation is booked on the device's `HostMemory`, whose cap refuses, with the
figures, a run that would need more host memory than it allows (`--memory-cap`), instead
of letting the host run out.
"""

from __future__ import annotations

import bisect
import heapq

import numpy as np

from emulator.numerics.poison import extended
from spyre_sched.errors import ExecutionError

#: the most host memory one emulated memory may take
HOST_LIMIT = 6 << 30
#: memories up to this size are allocated whole when first touched
EAGER_LIMIT = 4 << 20
#: the most host memory all memories of one emulated device may take, unless the caller
#: says otherwise (`Runtime(memory_cap=)`, `spyre-sched run --memory-cap`)
DEFAULT_MEMORY_CAP = 4 << 30


class HostMemory:
    """The host bytes the memories of one emulated device hold, against a cap."""

    __slots__ = ("cap", "allocated", "memories")

    def __init__(self, cap: int = DEFAULT_MEMORY_CAP):
        self.cap = cap
        self.allocated = 0
        self.memories = 0  # how many memories have been allocated (first touched)

    def take(self, memory: str, nbytes: int, first: bool) -> None:
        if self.allocated + nbytes > self.cap:
            raise ExecutionError(
                f"memory {memory}: {nbytes} more bytes of host memory would bring the "
                f"emulator to {self.allocated + nbytes} bytes, more than the memory cap of "
                f"{self.cap} bytes; raise it (--memory-cap)")
        self.allocated += nbytes
        self.memories += first

    def refuse_above(self, what: str, parts: list[tuple[str, int]]) -> None:
        """Refuse up front a run that would need more than the cap: `parts` are (what,
        bytes not yet allocated)."""
        total = self.allocated + sum(n for _, n in parts)
        if total <= self.cap:
            return
        shown = ", ".join(f"{name}: {n} bytes" for name, n in parts if n)
        raise ExecutionError(
            f"{what} needs {total} bytes of host memory ({shown}"
            f"{f', already allocated {self.allocated} bytes' if self.allocated else ''}), "
            f"more than the memory cap of {self.cap} bytes; raise it (--memory-cap)")


class Memory:
    __slots__ = ("name", "size", "data", "buffers", "_starts", "check_buffers",
                 "bytes_read", "bytes_written", "pending", "clock", "_seq", "_flushing",
                 "_typed", "_last_buffer", "layout", "host", "expected")

    def __init__(self, name: str, size: int, host: HostMemory | None = None):
        self.name = name
        self.size = size
        self.host = host if host is not None else HostMemory()
        # Allocated on first touch (`_ensure`): small memories whole, large ones as used.
        self.data = np.zeros(0, dtype=np.uint8)
        self.buffers: list[tuple[int, int, str]] = []  # (start, end, name), sorted
        self._starts: list[int] = []
        self.check_buffers = False
        self.bytes_read = 0
        self.bytes_written = 0
        # Writes whose data lands later: (landing cycle, order, write). Applied before any
        # access once their time has come, so a read sees exactly what has landed, without
        # an event per transfer.
        self.pending: list = []
        self.clock = None  # the simulator (its `now`) while a launch runs
        self._seq = 0
        self._flushing = False
        self._typed: dict = {}  # dtype -> the whole backing array viewed as that dtype
        self._last_buffer = (0, -1, -1)  # see check_box
        self.layout = 0  # changes whenever the declared buffers do (see window)
        # The end of what the runtime has allocated in it (`expect`): a large memory
        # grows to it at once rather than by doubling, when the host has room.
        self.expected = 0

    def defer(self, time: int, write) -> None:
        """`write()` when `time` has come; `write` may also be (dtype, first element,
        count, values): a contiguous run of the memory viewed as dtype (no closure)."""
        self._seq += 1
        heapq.heappush(self.pending, (time, self._seq, write))

    def flush_due(self) -> None:
        """Apply the writes that have landed by now (before an access reads or checks the
        memory); callers test `self.pending` first, which is empty most of the time."""
        if self.clock is None or self.pending[0][0] <= self.clock.now:
            self.flush()

    def flush(self, everything: bool = False) -> None:
        if self._flushing:  # a landing write itself accesses the memory
            return
        pending = self.pending
        now = None if everything or self.clock is None else self.clock.now
        self._flushing = True
        try:
            while pending and (now is None or pending[0][0] <= now):
                write = heapq.heappop(pending)[2]
                if write.__class__ is tuple:  # (dtype, first element, count, values): a run
                    dtype, first, count, values = write
                    self.typed(dtype)[first:first + count] = values.reshape(-1)
                else:
                    write()
        finally:
            self._flushing = False

    # ---- allocation bookkeeping ---------------------------------------------------------

    def declare_buffer(self, start: int, nbytes: int, name: str) -> None:
        """A region a program allocated: scratchpad accesses must fall inside one.
        Buffers of one program that share bytes (their lifetimes do not overlap) form one
        region: the regions stay disjoint, so the lookup by start address is exact."""
        if start < 0 or nbytes < 0 or start + nbytes > self.size:
            raise ExecutionError(
                f"buffer {name} at byte {start} of {nbytes} bytes lies outside memory "
                f"{self.name} ({self.size} bytes)")
        self.check_buffers = True
        self._last_buffer = (0, -1, -1)
        self.layout += 1
        if nbytes == 0:
            return  # nothing lies inside it
        end = start + nbytes
        keep = []
        for lo, hi, other in self.buffers:
            if lo < end and start < hi:
                start, end, name = min(start, lo), max(end, hi), f"{other}|{name}"
            else:
                keep.append((lo, hi, other))
        i = bisect.bisect([lo for lo, _, _ in keep], start)
        keep.insert(i, (start, end, name))
        self.buffers[:] = keep
        self._starts[:] = [lo for lo, _, _ in keep]

    def clear_buffers(self) -> None:
        self.buffers.clear()
        self._starts.clear()
        self.check_buffers = False
        self._last_buffer = (0, -1, -1)
        self.layout += 1

    def expect(self, end: int) -> None:
        """Bytes up to `end` are allocated to tensors (they will be written): the first
        access past what the host holds grows it that far at once, so tensors allocated
        before any is written are filled with poison once, not copied at every doubling."""
        self.expected = max(self.expected, end)

    @property
    def allocated(self) -> int:
        """Host bytes this memory holds (0 until it is first touched)."""
        return len(self.data)

    def _ensure(self, end: int) -> None:
        if end <= len(self.data):
            return
        if end > HOST_LIMIT:
            raise ExecutionError(
                f"memory {self.name}: an access up to byte {end} needs more host memory "
                f"than the emulator allows ({HOST_LIMIT} bytes)")
        have = len(self.data)
        if self.size > EAGER_LIMIT:
            if end <= self.expected <= HOST_LIMIT and \
                    self.host.allocated + self.expected - have <= self.host.cap:
                size = self.expected  # (else as used: the cap may allow only that)
            else:
                size = max(end, min(2 * have, HOST_LIMIT))
        elif self.check_buffers and self.buffers:
            # a scratchpad with the running program's buffers declared: no access that
            # passes the check reaches past their end (the suite's add, whose buffers end
            # at 768 KiB of a 2 MiB scratchpad, fills 768 KiB with poison, not 2 MiB)
            size = max(end, self.buffers[-1][1])
        else:
            size = max(end, self.size)  # a scratchpad: whole (a masked box may run past it)
        self.host.take(self.name, size - have, not have)
        try:
            grown = extended(self.data, size)  # never-written bytes: poison
        except MemoryError:
            self.host.allocated -= size - have
            raise ExecutionError(
                f"memory {self.name}: the host could not allocate {size} bytes for it "
                f"({self.host.allocated} bytes already held by the emulator's memories)") from None
        self.data = grown
        self._typed = {}

    # ---- access -------------------------------------------------------------------------

    def _extent(self, address: int, shape: tuple[int, ...], strides: tuple[int, ...],
                itemsize: int) -> tuple[int, int]:
        lo = hi = address
        for n, s in zip(shape, strides):
            if n <= 0:
                return address, address
            if s >= 0:
                hi += (n - 1) * s
            else:
                lo += (n - 1) * s
        return lo, hi + itemsize

    def check(self, address: int, shape: tuple[int, ...], strides: tuple[int, ...],
              itemsize: int, what: str) -> tuple[int, int]:
        lo, hi = self._extent(address, shape, strides, itemsize)
        if hi == lo:
            return lo, hi
        if lo < 0 or hi > self.size:
            raise ExecutionError(
                f"{what} bytes [{lo}, {hi}) lie outside memory {self.name} "
                f"(size {self.size} bytes)")
        if self.check_buffers:
            i = bisect.bisect(self._starts, lo) - 1
            if i < 0 or hi > self.buffers[i][1]:
                inside = (f"; nearest buffer {self.buffers[i][2]} is bytes "
                          f"[{self.buffers[i][0]}, {self.buffers[i][1]})" if i >= 0 else "")
                raise ExecutionError(
                    f"{what} bytes [{lo}, {hi}) of {self.name} are not inside one "
                    f"allocated buffer{inside}")
        return lo, hi

    def view(self, address: int, shape: tuple[int, ...], strides: tuple[int, ...],
             dtype: np.dtype, what: str = "access") -> np.ndarray:
        """A strided view of the memory (checked). Writing into it writes the memory."""
        if self.pending:
            self.flush()
        dtype = np.dtype(dtype)
        lo, hi = self.check(address, shape, strides, dtype.itemsize, what)
        if address % dtype.itemsize or any(s % dtype.itemsize for s in strides):
            raise ExecutionError(f"{what} at byte {address} is not aligned to its "
                                 f"{dtype.itemsize}-byte elements in {self.name}")
        self._ensure(hi)
        return np.ndarray(shape, dtype=dtype, buffer=self.data, offset=address,
                          strides=strides)

    def box(self, address: int, access, dtype: np.dtype, what: str) -> np.ndarray:
        """A checked view of an `emulator.device.access.Access` at `address` (its extent is
        known at prepare, so the check is two comparisons and a lookup)."""
        start = self.check_box(address, access, what)
        if access.contiguous:
            first = start // access.element_bytes
            return self.typed(dtype)[first:first + access.count].reshape(access.shape)
        return np.ndarray(access.shape, dtype=dtype, buffer=self.data, offset=start,
                          strides=access.strides)

    def check_box(self, address: int, access, what) -> int:
        """Check an access at `address` (landed writes applied first); returns the byte of
        its first box point. `what` names the access in a fault: a string, or a
        (kind, address) pair to spell out only if there is one."""
        if self.pending:
            self.flush_due()
        start = address + access.offset
        lo, hi = start + access.span[0], start + access.span[1]
        if lo < 0 or hi > self.size:
            raise ExecutionError(f"{_what(what)} bytes [{lo}, {hi}) lie outside memory "
                                 f"{self.name} (size {self.size} bytes)")
        if self.check_buffers:
            # The buffer that starts last at or before lo must hold [lo, hi). Remembered as
            # (its start, the next buffer's start, its end): most accesses hit it again.
            last = self._last_buffer
            if lo < last[0] or lo >= last[1] or hi > last[2]:
                starts = self._starts
                i = bisect.bisect(starts, lo) - 1
                if i < 0 or hi > self.buffers[i][1]:
                    self.check(start, access.shape, access.strides, access.element_bytes,
                               _what(what))
                else:
                    following = starts[i + 1] if i + 1 < len(starts) else self.size + 1
                    self._last_buffer = (starts[i], following, self.buffers[i][1])
        if start % access.element_bytes:
            raise ExecutionError(f"{_what(what)} at byte {start} is not aligned to its "
                                 f"{access.element_bytes}-byte elements in {self.name}")
        if access.box_span != access.span:
            # masked points lie outside what was checked: they are never read or written,
            # but the strided view covers them (grown past the memory's end if need be)
            lo, hi = start + access.box_span[0], start + access.box_span[1]
            if lo < 0:
                raise ExecutionError(f"{_what(what)}: the masked box starts {-lo} bytes before "
                                     f"memory {self.name}")
        if hi > len(self.data):
            self._ensure(hi)
        return start

    def window(self, lo: int) -> tuple[int, int, int, int]:
        """After a successful `check_box` whose checked bytes start at `lo`: (layout, a, b,
        end) such that any later access with a <= its lo < b and its hi <= end passes the
        same bounds and buffer checks while `layout` is unchanged (the buffer holding lo and
        where the next one starts, or the whole memory when no buffers are declared)."""
        if not self.check_buffers:
            return self.layout, 0, self.size + 1, self.size
        i = bisect.bisect(self._starts, lo) - 1
        if i < 0:
            return self.layout, 0, -1, -1  # (matches nothing)
        following = self._starts[i + 1] if i + 1 < len(self._starts) else self.size + 1
        return self.layout, self._starts[i], following, self.buffers[i][1]

    def typed(self, dtype) -> np.ndarray:
        """The whole backing array viewed as `dtype` (cached until the array grows)."""
        found = self._typed.get(dtype)
        if found is None:
            data = self.data
            usable = len(data) - len(data) % np.dtype(dtype).itemsize
            found = self._typed[dtype] = data[:usable].view(dtype)
        return found

    def read(self, address: int, shape: tuple[int, ...], strides: tuple[int, ...],
             dtype: np.dtype, what: str = "read") -> np.ndarray:
        out = self.view(address, shape, strides, dtype, what).copy()
        self.bytes_read += out.nbytes
        return out

    def write(self, address: int, shape: tuple[int, ...], strides: tuple[int, ...],
              values: np.ndarray, what: str = "write") -> None:
        values = np.asarray(values)
        target = self.view(address, shape, strides, values.dtype, what)
        if values.shape != target.shape:
            values = values.reshape(target.shape)
        target[...] = values
        self.bytes_written += values.nbytes

    def read_bytes(self, address: int, nbytes: int) -> np.ndarray:
        return self.read(address, (nbytes,), (1,), np.uint8)

    def write_bytes(self, address: int, values: np.ndarray) -> None:
        raw = np.ascontiguousarray(values).view(np.uint8).reshape(-1)
        self.write(address, (raw.size,), (1,), raw)


def _what(what) -> str:
    if isinstance(what, tuple):
        kind, memory, address = what
        return f"{kind} of {memory} at byte {address}"
    return what


def contiguous_strides(shape: tuple[int, ...], itemsize: int) -> tuple[int, ...]:
    strides = []
    step = itemsize
    for n in reversed(shape):
        strides.append(step)
        step *= max(n, 1)
    return tuple(reversed(strides))
