"""The simulated device memory: one flat global memory and one scratchpad per compute tile.

Both are byte buffers (np.uint8). A view addresses elements: byte address = element offset
x element size, so every access is aligned to its element size and can be served from the
buffer reinterpreted as the element's storage dtype (index = element offset).
"""

from __future__ import annotations

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
        # (space, dtype) -> the buffer seen as that dtype (buffers are never replaced)
        self._typed: dict[tuple[object, np.dtype], np.ndarray] = {}

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

    @staticmethod
    def describe(space: object) -> str:
        return "global memory" if space == "global" else f"the scratchpad of tile {space}"
