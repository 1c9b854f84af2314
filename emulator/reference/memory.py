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

DEFAULT_SCRATCHPAD_BYTES = 2 * 1024 * 1024
ALIGNMENT = 128


def align_up(value: int, alignment: int = ALIGNMENT) -> int:
    return -(-value // alignment) * alignment


class DeviceMemory:
    """Global memory plus lazily created (zeroed) scratchpads, keyed "global" / tile id."""

    def __init__(self, global_bytes: int, num_tiles: int, scratchpad_bytes: int):
        self.num_tiles = num_tiles
        self.scratchpad_bytes = align_up(scratchpad_bytes, 8)
        self.buffers: dict[object, np.ndarray] = {
            "global": np.zeros(align_up(max(global_bytes, ALIGNMENT)), dtype=np.uint8)
        }
        # (space, dtype) -> the buffer seen as that dtype (until copied on write)
        self._typed: dict[tuple[object, np.dtype], np.ndarray] = {}
        # space -> [(weak reference to a lent view, first byte, last byte)]
        self._lent: dict[object, list[tuple[weakref.ref, int, int]]] = {}
        self._no_lending: set[object] = set()
        #: buffers copied on write (a figure for benchmarks and tests)
        self.copies_on_write = 0

    def buffer(self, space: object) -> np.ndarray:
        """The byte buffer of `space` ("global" or a tile id)."""
        buf = self.buffers.get(space)
        if buf is None:
            buf = np.zeros(self.scratchpad_bytes, dtype=np.uint8)
            self.buffers[space] = buf
        return buf

    def elements(self, space: object, dtype: np.dtype) -> np.ndarray:
        """The buffer of `space` seen as an array of `dtype` (index = element offset)."""
        key = (space, dtype)
        typed = self._typed.get(key)
        if typed is None:
            typed = self._typed[key] = self.buffer(space).view(dtype)
        return typed

    def can_lend(self, space: object) -> bool:
        return space not in self._no_lending

    def lends(self, space: object) -> bool:
        """True when views into `space` may be lent out (a write must call before_write)."""
        return bool(self._lent.get(space))

    def lend(self, space: object, first_byte: int, last_byte: int, view: np.ndarray) -> None:
        """Record that `view` (read-only) shows bytes [first_byte, last_byte] of `space`."""
        view.flags.writeable = False
        self._lent.setdefault(space, []).append((weakref.ref(view), first_byte, last_byte))

    def before_write(self, space: object, first_byte: int, last_byte: int) -> None:
        """Call before writing bytes [first_byte, last_byte] of `space` (see the module
        docstring): copies the buffer if a live lent view overlaps them."""
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
