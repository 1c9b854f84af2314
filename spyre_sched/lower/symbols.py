"""Symbol expressions: how a launch-time value follows from the program's arguments.

An expression is plain JSON data (docs/bundle.md): an integer, `["arg", NAME]`, or
`[OP, E1, E2]` with OP in `add sub mul floordiv mod min max`. The lowering builds them,
writes them to `symbols.json`, and emits the same arithmetic as `arith` ops in the
program's outer function (`symbol.create_id`); `evaluate` and `evaluate_outer_function`
let a test (or a runtime) check that both say the same.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from xdsl.dialects import arith, func
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Operation, SSAValue

from spyre_sched.dialects import ktdp
from spyre_sched.dialects.symbol import CreateIdOp
from spyre_sched.errors import ExecutionError, VerifyError

Expr = Any  # int | list

OPS = ("add", "sub", "mul", "floordiv", "mod", "min", "max")
#: the job plan's conditions also compare (1 when true, 0 when false; `u*` compare the
#: values as unsigned 64-bit integers) and combine truth values bitwise
COMPARISONS = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
LOGIC = ("and", "or", "xor")


def compare(op: str, a: int, b: int) -> int:
    """A comparison of the job plan's grammar, as 0 or 1."""
    if op.startswith("u"):
        a, b, op = a % (1 << 64), b % (1 << 64), "s" + op[1:]
    return int({"eq": a == b, "ne": a != b, "slt": a < b, "sle": a <= b,
                "sgt": a > b, "sge": a >= b}[op])


def arg(name: str) -> Expr:
    return ["arg", name]


def add(a: Expr, b: Expr) -> Expr:
    if isinstance(a, int) and isinstance(b, int):
        return a + b
    if b == 0:
        return a
    return ["add", a, b]


def mul(a: Expr, b: Expr) -> Expr:
    if isinstance(a, int) and isinstance(b, int):
        return a * b
    if b == 1:
        return a
    return ["mul", a, b]


def evaluate(expr: Expr, env: Mapping[str, int]) -> int:
    """The integer value of `expr` with the arguments in `env`."""
    if isinstance(expr, bool):
        raise VerifyError(f"symbol expression: {expr!r} is not an integer")
    if isinstance(expr, int):
        return expr
    if not isinstance(expr, list) or not expr:
        raise VerifyError(f"symbol expression: malformed {expr!r}")
    if expr[0] == "arg":
        name = expr[1]
        if name not in env:
            raise ExecutionError(f"symbol expression needs argument '{name}', which was not given")
        return int(env[name])
    if expr[0] not in OPS + COMPARISONS + LOGIC or len(expr) != 3:
        raise VerifyError(f"symbol expression: unknown operation {expr[0]!r}")
    a, b = evaluate(expr[1], env), evaluate(expr[2], env)
    op = expr[0]
    if op in COMPARISONS:
        return compare(op, a, b)
    if op in LOGIC:
        return {"and": a & b, "or": a | b, "xor": a ^ b}[op]
    if op in ("floordiv", "mod") and b == 0:
        raise ExecutionError(f"symbol expression divides by zero: {text(expr)}")
    return {
        "add": lambda: a + b,
        "sub": lambda: a - b,
        "mul": lambda: a * b,
        "floordiv": lambda: a // b,
        "mod": lambda: a % b,
        "min": lambda: min(a, b),
        "max": lambda: max(a, b),
    }[op]()


_INFIX = {"add": "+", "sub": "-", "mul": "*", "floordiv": "floordiv", "mod": "mod",
          "eq": "==", "ne": "!=", "slt": "<", "sle": "<=", "sgt": ">", "sge": ">=",
          "ult": "<u", "ule": "<=u", "ugt": ">u", "uge": ">=u", "and": "&", "or": "|", "xor": "^"}


def text(expr: Expr) -> str:
    """The expression for people: `(A + 192) * 2`."""
    if isinstance(expr, int):
        return str(expr)
    if expr[0] == "arg":
        return str(expr[1])
    if expr[0] == "tile":
        return "tile" if len(expr) == 1 else f"tile[{expr[1]}]"
    a, b = text(expr[1]), text(expr[2])
    if expr[0] in ("min", "max"):
        return f"{expr[0]}({a}, {b})"
    if not isinstance(expr[1], int) and expr[1][0] not in ("arg", "tile", "min", "max"):
        a = f"({a})"
    if not isinstance(expr[2], int) and expr[2][0] not in ("arg", "tile", "min", "max"):
        b = f"({b})"
    return f"{a} {_INFIX[expr[0]]} {b}"


# ---- the outer function's arithmetic --------------------------------------------------

_ARITH = {
    arith.AddiOp: lambda a, b: a + b,
    arith.SubiOp: lambda a, b: a - b,
    arith.MuliOp: lambda a, b: a * b,
    arith.FloorDivSIOp: lambda a, b: a // b,
    arith.DivSIOp: lambda a, b: int(a / b) if b else None,
    arith.DivUIOp: lambda a, b: a // b,
    arith.RemUIOp: lambda a, b: a % b,
    arith.MinSIOp: min,
    arith.MaxSIOp: max,
    arith.MinUIOp: min,
    arith.MaxUIOp: max,
}


def evaluate_outer_function(outer: func.FuncOp, args: Mapping[str, int]) -> dict[int, int]:
    """Run a program's outer function (arith on its arguments, `symbol.create_id`) and return
    symbol id -> value. Arguments are named as the function's block arguments; a float
    scalar is given as its bit pattern, as the runtime passes it."""
    values: dict[SSAValue, int] = {}
    for block_arg in outer.body.block.args:
        name = block_arg.name_hint
        if name not in args:
            raise ExecutionError(f"@{outer.sym_name.data}: argument '{name}' was not given")
        values[block_arg] = int(args[name])
    found: dict[int, int] = {}
    for op in outer.body.block.ops:
        if isinstance(op, arith.ConstantOp):
            assert isinstance(op.value, IntegerAttr)
            values[op.result] = op.value.value.data
        elif type(op) in _ARITH:
            a, b = values[op.operands[0]], values[op.operands[1]]
            values[op.results[0]] = _ARITH[type(op)](a, b)  # type: ignore[index]
        elif isinstance(op, CreateIdOp):
            found[op.id] = values[op.value]
        elif isinstance(op, arith.BitcastOp | arith.ExtUIOp | arith.IndexCastOp):
            values[op.results[0]] = values[op.operands[0]]  # a float scalar is given as its bits
        elif isinstance(op, ktdp.RuntimeArgExtractOp) and op.field.data == "value":
            values[op.results[0]] = values[op.arg]  # a run-time argument is passed as its value
        elif isinstance(op, func.CallOp | func.ReturnOp):
            continue
        else:
            raise VerifyError(f"@{outer.sym_name.data}: {op.name} is not allowed in an outer function",
                              f"op {op.name}")
    return found


def outer_function(module: Operation) -> func.FuncOp:
    """The outer function of a program module: the func.func named like the module."""
    name = module.properties.get("sym_name") or module.attributes.get("sym_name")
    for op in module.regions[0].block.ops:
        if isinstance(op, func.FuncOp) and name is not None and op.sym_name == name:
            return op
    raise VerifyError(f"program module {name} has no outer function of its name")
