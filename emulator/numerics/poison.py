"""What device memory holds before anything writes it: the poison pattern (one rule for
both executors; docs/numerics.md, "Poisoned memory").

Every byte of every memory of the reference interpreter (`reference.memory.DeviceMemory`)
and of the emulated device (`device.memory.Memory`) starts as `POISON_BYTE`, never as
zero. An element no store wrote then reads the same poison in both executors, and an
element the lowering forgot to store reads poison in the emulator where the reference has
the stored value: a mismatch, whatever that value is (zero-filled memory would hide a
forgotten store of zeros). 0xFF bytes read as NaN in every float type (f16, bf16, df16,
f32, f64) and as -1 in every signed integer type.
"""

from __future__ import annotations

import numpy as np

#: the value of every byte of device memory before it is written
POISON_BYTE = 0xFF


def poisoned(nbytes: int) -> np.ndarray:
    """`nbytes` bytes of fresh device memory (np.uint8), every one `POISON_BYTE`."""
    return np.full(nbytes, POISON_BYTE, dtype=np.uint8)


def extended(data: np.ndarray, nbytes: int) -> np.ndarray:
    """`data` (np.uint8) followed by poison up to `nbytes` bytes: a memory's host array
    grown (only the new bytes filled)."""
    out = np.empty(nbytes, dtype=np.uint8)
    out[:len(data)] = data
    out[len(data):] = POISON_BYTE
    return out
