"""Which (example, device) pairs the default run covers.

Every example runs on the default device (`spyre`); on every other device, the examples of
`ON_EVERY_DEVICE` (one per kind of program: streaming, broadcast, several programs with a
reduction) run by default and the rest only in the slow run (`-m slow`). The device
differences these tests look for (routes, levels, unit sets) show on any kernel; the
kernels' own differences show on `spyre`. The two largest examples (`SLOW_EXAMPLES`) are
slow-only here: by default the differential gate runs the FFN, and
tests/lower/test_indirect.py paged attention.
"""

from __future__ import annotations

import pytest

DEFAULT_DEVICE = "spyre"
ON_EVERY_DEVICE = frozenset({"add_96x64", "bias_add", "softmax_rows"})
SLOW_EXAMPLES = frozenset({"ffn_swiglu", "paged_attention_decode"})


def in_default_run(example: str, device: str) -> bool:
    """`example` is a file stem or name; `device` a device name or path."""
    stem = example.rsplit("/", 1)[-1].removesuffix(".mlir")
    if stem in SLOW_EXAMPLES:
        return False
    return device == DEFAULT_DEVICE or stem in ON_EVERY_DEVICE


def example_device_params(examples, devices, device_id=str):
    """pytest params for every pair, the ones outside the default run marked slow."""
    return [pytest.param(example, device,
                         marks=[] if in_default_run(str(example), device) else [pytest.mark.slow],
                         id=f"{str(example).rsplit('/', 1)[-1]}-{device_id(device)}")
            for example in examples for device in devices]
