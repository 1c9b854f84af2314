"""What every schedule pass shares: the device named by the module, the programs of a
ScheduleIR module, located errors, and tiny IR builders.

A pass reads the device from the top module's `ktdf.device` attribute (the IR alone says
which device it is for) and reports a problem with `fail(op, pass, message)`: an
`UnsupportedError` that keeps the op, so the driver can give it a FILE:LINE:COL when the
op came from the kernel text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    IndexType,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    TensorType,
)
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue
from xdsl.ir.affine import AffineConstraintExpr, AffineConstraintKind, AffineExpr, AffineSet

from spyre_sched.device import Device, Hop, load_device
from spyre_sched.device.routing import (interconnect_hop, interconnect_issuer,
                                         interconnect_pusher)
from spyre_sched.dialects import ktdf, ktdp
from spyre_sched.errors import DeviceError, UnsupportedError

DEVICE_ATTR = "ktdf.device"
PINNED_ATTR = "ktdf.pinned_bytes"
PROGRAM_PREFIX = "program_"
SCHEDULE_PREFIX = "local_schedule_"
#: which iteration dim of the program's compute a scheduler loop walks
DIM_ATTR = "ktdf.dim"


class ScheduleError(UnsupportedError):
    """A schedule pass cannot handle an op: names the op, the pass, and why."""

    def __init__(self, message: str, op: Operation | None = None, pass_name: str = ""):
        where = f"op {op.name} in pass {pass_name}" if op is not None else f"pass {pass_name}"
        super().__init__(message, where)
        self.op = op
        self.pass_name = pass_name


def fail(op: Operation | None, pass_name: str, message: str) -> ScheduleError:
    return ScheduleError(message, op, pass_name)


def top_module(op: Operation) -> ModuleOp:
    current = op
    while current.parent_op() is not None:
        current = current.parent_op()  # type: ignore[assignment]
    assert isinstance(current, ModuleOp)
    return current


def device_of(module: ModuleOp, pass_name: str = "") -> Device:
    """The device the module is scheduled for (`ktdf.device` on the top module)."""
    attr = top_module(module).attributes.get(DEVICE_ATTR)
    if not isinstance(attr, StringAttr):
        raise fail(None, pass_name, f"the module has no {DEVICE_ATTR} attribute naming its device")
    return load_device(attr.data)


def memory_instance(device: Device, kind: str, pass_name: str = "") -> str:
    """A memory of `kind` as core 0 sees it (the shared one, or core 0's own)."""
    shared = [m for m in device.memories_of_kind(kind) if device.core_of(m.name) is None]
    if shared:
        return shared[0].name
    found = device.memories_of_kind(kind, device.core(0))
    if not found:
        raise fail(None, pass_name, f"device {device.name} has no memory of kind '{kind}'")
    return found[0].name


def kernel_funcs(module: ModuleOp) -> list[func.FuncOp]:
    """Functions with a body directly in `module` (the kernel / the orchestrator)."""
    return [op for op in module.ops if isinstance(op, func.FuncOp) and op.body.blocks]


def programs(module: ModuleOp) -> Iterator[tuple[int, func.FuncOp]]:
    """(N, @local_schedule_N) for every `builtin.module @program_N`, in order."""
    for op in module.ops:
        if isinstance(op, ModuleOp) and op.sym_name is not None \
                and op.sym_name.data.startswith(PROGRAM_PREFIX):
            index = int(op.sym_name.data[len(PROGRAM_PREFIX):])
            for inner in op.ops:
                if isinstance(inner, func.FuncOp) and inner.body.blocks:
                    yield index, inner


def tensor_producers(start: list[Operation]) -> list[Operation]:
    """`start` and every op they need through tensor values, walking back to (and with)
    the loads: the compute a store or a value is made of."""
    seen: list[Operation] = []
    work = list(start)
    while work:
        op = work.pop()
        if op in seen:
            continue
        seen.append(op)
        if isinstance(op, ktdp.LoadOp):
            continue
        work += [v.owner for v in op.operands
                 if isinstance(v.type, TensorType) and isinstance(v.owner, Operation)]
    return seen


def index_constant(value: int) -> arith.ConstantOp:
    return arith.ConstantOp(IntegerAttr(value, IndexType()))


def add_linear(value: SSAValue, terms, constant: int, out: list[Operation]) -> SSAValue:
    """`value + sum(coeff * term) + constant` as index `arith` ops appended to `out` (a
    coefficient of 1 needs no multiply, a zero term or constant no op)."""
    for term, coeff in terms:
        if not coeff:
            continue
        if coeff != 1:
            scale = index_constant(coeff)
            mul = arith.MuliOp(term, scale.result)
            out += [scale, mul]
            term = mul.result
        add = arith.AddiOp(value, term)
        out.append(add)
        value = add.result
    if constant:
        c = index_constant(constant)
        add = arith.AddiOp(value, c.result)
        out += [c, add]
        value = add.result
    return value


def constant_value(value: SSAValue) -> int | None:
    """The integer an `arith.constant` of index/integer type gives, else None."""
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def int_attr(value: int) -> Attribute:
    from xdsl.dialects.builtin import i64

    return IntegerAttr(value, i64)


def element_bytes(element_type: Attribute) -> int:
    text = str(element_type)
    table = {"f16": 2, "bf16": 2, "f32": 4, "f64": 8, "i8": 1, "i16": 2, "i32": 4, "i64": 8}
    if text not in table:
        raise UnsupportedError(f"not supported yet: element type {text}")
    return table[text]


def remote_core(value: SSAValue) -> int | None:
    """The core whose scratchpad a kernel view names (`ct_local` with a `ct_id`), or None
    for device memory and the executing tile's own scratchpad."""
    owner = value.owner
    if isinstance(owner, ktdf.GatherViewOp):
        owner = owner.source.owner
    if isinstance(owner, ktdp.ConstructMemoryViewOp):
        space = owner.memory_space
        if space.space == "ct_local" and getattr(space, "tile", None) is not None:
            return int(space.tile)
    return None


def stored_core(value: SSAValue) -> int | None:
    """The core whose scratchpad a view stored through lies in when some tile of another
    core stores through it (`ktdf.stored_from_other_cores`: the store crosses the
    interconnect), else None (the executing core's own, or its owner's alone)."""
    owner = value.owner
    if isinstance(owner, ktdp.ConstructMemoryViewOp) \
            and ktdf.STORED_FROM_OTHER_CORES_ATTR in owner.attributes:
        return remote_core(value)
    return None


def hop_from_core(device: Device, owner: int, op: Operation, pass_name: str) -> Hop:
    """The move of a read of core `owner`'s scratchpad over the interconnect into the
    reading core's scratchpad, issued by the reading core's DMA engine."""
    if owner >= device.num_cores:
        raise fail(op, pass_name, f"a read of core {owner}'s scratchpad, but device "
                   f"{device.name} has cores 0..{device.num_cores - 1}")
    try:
        return interconnect_hop(device, device.scratchpad(owner).name,
                                device.scratchpad(0).name, interconnect_issuer(device, 0))
    except DeviceError as err:
        raise fail(op, pass_name, f"not supported yet: a read of core {owner}'s "
                   f"scratchpad on device {device.name}: {err.message}") from None


def hop_to_core(device: Device, owner: int, op: Operation, pass_name: str) -> Hop:
    """The move of a store into core `owner`'s scratchpad from the storing core's own
    scratchpad over the interconnect, issued by the storing core's DMA engine."""
    if owner >= device.num_cores:
        raise fail(op, pass_name, f"a store into core {owner}'s scratchpad, but device "
                   f"{device.name} has cores 0..{device.num_cores - 1}")
    try:
        return interconnect_hop(device, device.scratchpad(0).name,
                                device.scratchpad(owner).name, interconnect_pusher(device, 0))
    except DeviceError as err:
        raise fail(op, pass_name, f"not supported yet: a store into core {owner}'s "
                   f"scratchpad on device {device.name}: {err.message}") from None


def fresh_name(base: str, taken: set[str]) -> str:
    """`base`, or `base2`, `base3`, ... the first not in `taken` (then added to it): a
    decision name no other decision of the module has."""
    name, n = base, 1
    while name in taken:
        n += 1
        name = f"{base}{n}"
    taken.add(name)
    return name


def whole_box(shape: list[int]) -> AffineSet:
    """The index space of a tensor of `shape`: {0 <= d_k < shape[k]}."""
    dims = [AffineExpr.dimension(k) for k in range(len(shape))]
    constraints = []
    for d, s in zip(dims, shape):
        constraints.append(AffineConstraintExpr(AffineConstraintKind.ge, d, AffineExpr.constant(0)))
        constraints.append(AffineConstraintExpr(AffineConstraintKind.ge,
                                                AffineExpr.constant(s - 1) - d,
                                                AffineExpr.constant(0)))
    return AffineSet(len(shape), 0, tuple(constraints))


def row_major_strides(shape: list[int]) -> list[int]:
    """The element strides of a row-major tensor of `shape`."""
    strides = [1] * len(shape)
    for k in range(len(shape) - 2, -1, -1):
        strides[k] = strides[k + 1] * shape[k + 1]
    return strides


_PURE_PREFIXES = ("arith.",)
_PURE_OPS = ("ktdp.get_compute_tile_id", "ktdp.construct_memory_view")


def structural_key(value: SSAValue, leaf: Callable[[SSAValue], object | None],
                   memo: dict[SSAValue, object]) -> object | None:
    """`value` as a tree comparable up to renaming: `leaf(value)` where it gives a key,
    else pure index/view ops (arith, the tile id, memory views) by name, result, properties
    and attributes (`ktdf.*` left out) and their operands' keys. None when it depends on
    anything else (a block argument `leaf` does not name, another op)."""
    if value in memo:
        return memo[value]
    out = leaf(value)
    if out is None and not isinstance(value, BlockArgument):
        op = value.owner
        assert isinstance(op, Operation)
        if not op.regions and (op.name.startswith(_PURE_PREFIXES) or op.name in _PURE_OPS):
            parts = [structural_key(v, leaf, memo) for v in op.operands]
            if all(p is not None for p in parts):
                attrs = {**op.properties, **{k: a for k, a in op.attributes.items()
                                             if not k.startswith("ktdf.")}}
                out = (op.name, value.index,  # type: ignore[attr-defined]
                       tuple(sorted((k, str(a)) for k, a in attrs.items())), tuple(parts))
    memo[value] = out
    return out
