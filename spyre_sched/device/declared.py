"""The device a kernel runs on: `--device` if given, else the one the kernel's module
declares, else the default.

The dataflow scheduler's inputs declare their device at module level:

    ktdf_arch.device @sample_device attributes {mem_space_mapping = #ktdf_arch.map<...>}
        import("../Dialect/KTDFArch/sample_device.mlir")

The import path is read relative to the kernel file; when it is not there, a shipped
device of the declared name is used. A `mem_space_mapping` on the declaration overrides
the imported device's (outermost wins, as for imports between device files).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from spyre_sched.device.load import DEFAULT_DEVICE, DEVICES_DIR, load_device
from spyre_sched.device.model import Device
from spyre_sched.dialects.ktdf_arch import DeviceOp, MapAttr
from spyre_sched.errors import DeviceError


def declared_device(module) -> DeviceOp | None:
    """The module-level `ktdf_arch.device` declaration of a kernel file, if any."""
    return next((op for op in module.ops if isinstance(op, DeviceOp)), None)


def device_for_kernel(kernel, explicit: str | None) -> Device:
    """`explicit` (a name or path) if given, else the kernel's declared device, else the
    default device."""
    if explicit:
        return load_device(explicit)
    decl = declared_device(kernel.module)
    if decl is None:
        return load_device(DEFAULT_DEVICE)
    name = decl.sym_name.data if decl.sym_name is not None else None
    where = kernel.location_of(decl)
    candidates: list[Path] = []
    if decl.import_path is not None:
        candidates.append(Path(kernel.filename).parent / decl.import_path.data)
    if name:
        candidates.append(DEVICES_DIR / f"{name}.mlir")
    found = next((p for p in candidates if p.is_file()), None)
    if found is None:
        looked = ", ".join(str(p) for p in candidates) or "nothing to look for"
        raise DeviceError(
            f"the kernel declares device @{name} but no description of it is found "
            f"(looked for {looked}); pass --device NAME|PATH", where)
    device = load_device(found)
    mapping = decl.attributes.get("mem_space_mapping")
    if isinstance(mapping, MapAttr):
        override = {k: str(getattr(v, "data", v)) for k, v in mapping.values.items()}
        missing = {k: v for k, v in override.items() if not device.memories_of_kind(v)}
        if missing:
            space, kind = next(iter(missing.items()))
            raise DeviceError(
                f"the kernel's device declaration maps '{space}' to memory kind '{kind}', "
                f"which device {device.name} has no memory of", where)
        device = dataclasses.replace(
            device, mem_space_mapping={**device.mem_space_mapping, **override})
    return device
