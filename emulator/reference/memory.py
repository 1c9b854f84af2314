"""The simulated device memory: one flat global memory and one scratchpad per compute tile.

Both are byte buffers (np.uint8). A view addresses elements: byte address = element offset
x element size, so every access is aligned to its element size and can be served from the
buffer reinterpreted as the element's storage dtype (index = element offset).

Loads of a strided box are served without a copy: the loaded tensor is a read-only numpy
view into the buffer, *lent* (`lend`) with the byte range it covers. A tensor is a value,
so a later store must not change it: every write goes through `before_write`, and a write
that overlaps a range still lent out (its tensor alive) replaces the buffer by a copy
first (copy on write), so the lent views keep the old bytes. After one such copy the space
lends no more (a kernel that loads and stores one region pays one buffer copy, not one per
store).
"""

from __future__ import annotations

import weakref

import numpy as np

from emulator.numerics.poison import poisoned

DEFAULT_SCRATCHPAD_BYTES = 2 * 1024 * 1024
ALIGNMENT = 128


def align_up(value: int, alignment: int = ALIGNMENT) -> int:
    return -(-value // alignment) * alignment


class DeviceMemory:
    """Global memory plus lazily created scratchpads, keyed "global" / tile id; every byte
    starts poisoned (`numerics.poison`)."""

    def __init__(self, global_bytes: int, num_tiles: int, scratchpad_bytes: int):
        self.num_tiles = num_tiles
        self.scratchpad_bytes = align_up(scratchpad_bytes, 8)
        self.buffers: dict[object, np.ndarray] = {
            "global": poisoned(align_up(max(global_bytes, ALIGNMENT)))
        }
        # (space, dtype) -> the buffer seen as that dtype (until copied on write)
        self._typed: dict[tuple[object, np.dtype], np.ndarray] = {}
        # space -> [(weak reference to a lent view, first byte, last byte)]
        self._lent: dict[object, list[tuple[weakref.ref, int, int]]] = {}
        self._no_lending: set[object] = set()
        #: buffers copied on write (a figure for benchmarks and tests)
        self.copies_on_write = 0
        # space -> [(first byte, end byte (exclusive), read-only uint8 array)], adopted
        self._overlays: dict[object, list[tuple[int, int, np.ndarray]]] = {}
        #: overlays copied into their buffer (written, or read across their edge)
        self.overlays_copied = 0

    def nbytes(self, space: object) -> int:
        """The size in bytes of `space` ("global" or a tile id)."""
        buf = self.buffers.get(space)
        return self.scratchpad_bytes if buf is None else buf.size

    def adopt(self, space: object, first_byte: int, data: np.ndarray) -> None:
        """Let `data` (any contiguous array; never written) hold the bytes of `space` from
        `first_byte` on, instead of copying it in (see the module docstring)."""
        raw = np.ascontiguousarray(data).reshape(-1).view(np.uint8)
        end = first_byte + raw.size
        if first_byte < 0 or end > self.nbytes(space):
            raise ValueError(f"bytes {first_byte}..{end - 1} are outside "
                             f"{self.describe(space)} of {self.nbytes(space)} bytes")
        overlays = self._overlays.setdefault(space, [])
        if raw.size == 0:
            return
        if any(lo < end and first_byte < hi for lo, hi, _ in overlays):
            self._buffer(space)[first_byte:end] = raw  # overlapping placements: plain copy
            return
        raw = raw.view()
        raw.flags.writeable = False
        overlays.append((first_byte, end, raw))
        overlays.sort(key=lambda o: o[0])

    def _copy_overlays(self, space: object, first_byte: int, last_byte: int) -> None:
        """Copy the overlays that touch bytes [first_byte, last_byte] into the buffer."""
        overlays = self._overlays.get(space)
        if not overlays:
            return
        keep = []
        for lo, hi, raw in overlays:
            if lo <= last_byte and first_byte < hi:
                self._buffer(space)[lo:hi] = raw
                self.overlays_copied += 1
            else:
                keep.append((lo, hi, raw))
        self._overlays[space] = keep

    def elements_at(self, space: object, dtype: np.dtype, first: int,
                    last: int) -> tuple[np.ndarray, int]:
        """(array, base) serving elements `first`..`last` of `space` seen as `dtype`: element
        address a is array[a - base]. An adopted input is served in place when the range
        lies inside it; the buffer otherwise."""
        overlays = self._overlays.get(space)
        if overlays:
            size = dtype.itemsize
            first_byte, last_byte = first * size, (last + 1) * size - 1
            for lo, hi, raw in overlays:
                if lo <= first_byte and last_byte < hi:
                    if lo % size == 0 and (hi - lo) % size == 0:
                        return raw.view(dtype), lo // size
                    break
                if lo <= last_byte and first_byte < hi:
                    break
            self._copy_overlays(space, first_byte, last_byte)
        return self._typed_buffer(space, dtype), 0

    def adopted(self, space: object, first_byte: int, last_byte: int) -> bool:
        """True when bytes [first_byte, last_byte] of `space` touch an adopted input."""
        return any(lo <= last_byte and first_byte < hi
                   for lo, hi, _ in self._overlays.get(space, ()))

    def buffer(self, space: object) -> np.ndarray:
        """The byte buffer of `space` ("global" or a tile id), with every adopted input
        copied in."""
        if self._overlays.get(space):
            self._copy_overlays(space, 0, self.nbytes(space))
        return self._buffer(space)

    def _buffer(self, space: object) -> np.ndarray:
        buf = self.buffers.get(space)
        if buf is None:
            buf = poisoned(self.scratchpad_bytes)
            self.buffers[space] = buf
        return buf

    def elements(self, space: object, dtype: np.dtype) -> np.ndarray:
        """The buffer of `space` seen as an array of `dtype` (index = element offset)."""
        if self._overlays.get(space):
            self._copy_overlays(space, 0, self.nbytes(space))
        return self._typed_buffer(space, dtype)

    def _typed_buffer(self, space: object, dtype: np.dtype) -> np.ndarray:
        """The buffer as `dtype`, whatever adopted inputs still lie over it."""
        key = (space, dtype)
        typed = self._typed.get(key)
        if typed is None:
            typed = self._typed[key] = self._buffer(space).view(dtype)
        return typed

    def can_lend(self, space: object) -> bool:
        return space not in self._no_lending

    def lends(self, space: object) -> bool:
        """True when views into `space` may be lent out or inputs are adopted there (a
        write must call before_write)."""
        return bool(self._lent.get(space)) or bool(self._overlays.get(space))

    def lend(self, space: object, first_byte: int, last_byte: int, view: np.ndarray) -> None:
        """Record that `view` (read-only) shows bytes [first_byte, last_byte] of `space`.
        A view of an adopted input needs no record: writes never reach that array."""
        view.flags.writeable = False
        if self.adopted(space, first_byte, last_byte):
            return
        self._lent.setdefault(space, []).append((weakref.ref(view), first_byte, last_byte))

    def before_write(self, space: object, first_byte: int, last_byte: int) -> None:
        """Call before writing bytes [first_byte, last_byte] of `space` (see the module
        docstring): copies the buffer if a live lent view overlaps them, and any adopted
        input they touch into the buffer."""
        if self._overlays.get(space):
            self._copy_overlays(space, first_byte, last_byte)
        lent = self._lent.get(space)
        if not lent:
            return
        live = [(ref, lo, hi) for ref, lo, hi in lent if ref() is not None]
        if any(lo <= last_byte and first_byte <= hi for _, lo, hi in live):
            self.buffers[space] = self.buffers[space].copy()
            for key in [k for k in self._typed if k[0] == space]:
                del self._typed[key]
            self._no_lending.add(space)
            live = []
            self.copies_on_write += 1
        self._lent[space] = live

    @staticmethod
    def describe(space: object) -> str:
        return "global memory" if space == "global" else f"the scratchpad of tile {space}"
