"""Ops a device defines: the reference runs a kernel as the device it runs on computes it.

A device file's `patterns ["pre_mapping"]` rewrite KTIR ops into others before anything is
scheduled (both shipped devices have no SiLU instruction and define
`spyreop.silu(x)` as `arith.mulf(x, spyreop.sigmoid(x))`: two roundings where the op alone
rounds once). That rewrite is the device's definition of the op, fixed by the device and
not by any choice of the schedule, so the reference applies the same patterns to its own
copy of the kernel and compares bit for bit, instead of granting the emulator a bound
(docs/numerics.md, "Ops a device defines"). Without a device the reference runs the
kernel's ops as written.
"""

from __future__ import annotations

from collections.abc import Mapping

from spyre_sched.frontend import Kernel

#: the attribute of a Kernel holding [(device, the kernel as that device defines it)]: kept
#: on the kernel object, so the copies go when the kernel goes (a cache keyed by the
#: kernel's function would hold the function alive through the copies' locations)
_DEFINED = "_as_devices_define"


class _CopiedLocations(Mapping):
    """The source locations of a copied module's ops: those of the ops they copy."""

    def __init__(self, original: Mapping, copied_from: dict):
        self.original, self.copied_from = original, copied_from

    def __getitem__(self, op):
        return self.original[self.copied_from[op]]

    def __iter__(self):
        return iter(self.copied_from)

    def __len__(self) -> int:
        return len(self.copied_from)


def as_the_device_defines(kernel: Kernel, device) -> Kernel:
    """`kernel` with `device`'s pre_mapping patterns applied (to a copy, made once per
    kernel and device); `kernel` itself when none of them rewrites anything."""
    from spyre_sched.device.patterns import apply_device_patterns, device_patterns

    if device is None or not device_patterns(device, "pre_mapping"):
        return kernel
    known = vars(kernel).setdefault(_DEFINED, [])
    for seen, defined in known:
        if seen is device:
            return defined
    module = kernel.module.clone()
    copied_from = dict(zip(module.walk(), kernel.module.walk()))
    fired = apply_device_patterns(device, module, "pre_mapping")
    defined = kernel
    if fired:
        func = next(op for op, original in copied_from.items() if original is kernel.func)
        defined = Kernel(module, func, kernel.filename,
                         _CopiedLocations(kernel.op_locations, copied_from),
                         list(kernel.warnings))
    known.append((device, defined))
    return defined
