"""`--arg NAME=VALUE` at compile time: a plain scalar argument's value folded into the
kernel before it is scheduled.

A scalar argument (an `index`, integer or float that no view is built on) is read by the
kernel's index arithmetic or compute; given a value, every use reads a constant of that
value instead, so the checks and the scheduler see the kernel for that value (an access
that is in bounds only for some values is then simply in bounds or not). Run-time
arguments (`!ktdp.runtime_arg`) stay symbols of the launch; a value given for one is the
caller's business at run time, not folded. A pointer argument cannot be given a value:
its value is where the caller's array is.
"""

from __future__ import annotations

from collections.abc import Mapping

from xdsl.dialects import arith
from xdsl.dialects.builtin import AnyFloat, FloatAttr, IndexType, IntegerAttr, IntegerType

from spyre_sched.errors import UsageError
from spyre_sched.frontend.kernel import Kernel


def bind_scalar_arguments(kernel: Kernel, values: Mapping[str, int | float]
                          ) -> dict[str, int | float]:
    """Fold the given plain scalar arguments into `kernel` (in place): name -> the value
    folded (a float for a float argument). The bundle records these: a run of it with
    another value would compare against a kernel that was not compiled."""
    from spyre_sched.dialects.ktdp import RuntimeArgType
    from spyre_sched.frontend.arguments import infer_arguments

    if not values:
        return {}
    roles = {info.name: info.role for info in infer_arguments(kernel.func)}
    block = kernel.func.body.block
    folded: dict[str, int | float] = {}
    for arg in block.args:
        name = arg.name_hint
        if name is None or name not in values:
            continue
        if isinstance(arg.type, RuntimeArgType):
            continue  # a launch-time symbol: given to the run, not folded
        if roles.get(name) not in ("scalar", "unused"):
            raise UsageError(f"--arg {name}: %{name} is a pointer of @{kernel.name} (views "
                             "are built on it); --arg gives scalar arguments only")
        value = values[name]
        if isinstance(arg.type, IndexType | IntegerType):
            if not isinstance(value, int):
                raise UsageError(f"--arg {name}: %{name} is {arg.type}, expected an integer, "
                                 f"got {value}")
            constant = arith.ConstantOp(IntegerAttr(value, arg.type))
        elif isinstance(arg.type, AnyFloat):
            value = float(value)
            constant = arith.ConstantOp(FloatAttr(value, arg.type))
        else:
            raise UsageError(f"--arg {name}: %{name} has type {arg.type}, which --arg does "
                             "not set")
        if not arg.uses:
            continue
        constant.result.name_hint = name
        block.insert_op_before(constant, block.first_op) if block.first_op else \
            block.add_op(constant)
        arg.replace_all_uses_with(constant.result)
        folded[name] = value
    return folded
