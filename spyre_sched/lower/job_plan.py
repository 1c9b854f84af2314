"""The job plan's execute part: the orchestrator's calls as steps a runtime follows
(docs/bundle.md, "jobplan.json").

The orchestrator (the kernel's function after program split) keeps KTIR's loops,
conditions and index arithmetic around `func.call`s of the programs. Its values become
expressions over the kernel's arguments (`symbols.py` grammar, plus comparisons):

- a loop with compile-time bounds is unrolled (one call step per iteration, the counter
  a number in the bindings);
- a loop whose bounds depend on run-time arguments becomes a `for` step: the runtime
  evaluates the bounds at launch and runs the body once per value of the counter, named
  `var` in the body's expressions;
- an `scf.if` whose condition is known at compile time keeps only the branch taken; one
  that depends on run-time arguments becomes an `if` step the runtime evaluates at launch;
  one that depends on the compute tile id (`["tile"]`, `["tile", K]`) is a per-core
  predicate: the runtime evaluates it for each core and launches the calls inside on the
  cores where it holds (compute tile t runs on core t).
"""

from __future__ import annotations

from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import IntegerAttr, IntegerType
from xdsl.ir import Operation, SSAValue

from spyre_sched.dialects import ktdp
from spyre_sched.errors import UnsupportedError, VerifyError, fold_hint
from spyre_sched.lower import runtime_shapes
from spyre_sched.lower import symbols as sx

#: most call steps one job plan may hold (unrolled loops count every iteration)
MAX_CALLS = 4096

_ARITH = {"arith.addi": "add", "arith.muli": "mul", "arith.subi": "sub",
          "arith.floordivsi": "floordiv", "arith.divui": "floordiv", "arith.divsi": "floordiv",
          "arith.remui": "mod", "arith.minsi": "min", "arith.maxsi": "max", "arith.minui": "min",
          "arith.maxui": "max", "arith.andi": "and", "arith.ori": "or", "arith.xori": "xor"}

#: arith.cmpi predicate number -> expression op
_CMPI = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")


def _where(op: Operation) -> str:
    return f"op {op.name} in pass lower"


def _arguments(expr) -> set[str]:
    """The names of the arguments an expression reads."""
    if isinstance(expr, list) and expr:
        if expr[0] == "arg":
            return {expr[1]}
        return set().union(*(_arguments(e) for e in expr[1:]))
    return set()


def _mentions_tile(expr) -> bool:
    if isinstance(expr, list) and expr:
        if expr[0] == "tile":
            return True
        if expr[0] == "arg":
            return False
        return any(_mentions_tile(e) for e in expr[1:])
    return False


class _Builder:
    def __init__(self, kernel: func.FuncOp, program_fns: dict[str, func.FuncOp],
                 symbol_rows: list[dict]):
        self.kernel = kernel
        self.program_fns = program_fns
        self.symbol_rows = symbol_rows
        self.env: dict[SSAValue, object] = {a: sx.arg(a.name_hint) for a in kernel.body.block.args}
        self.calls = 0
        self.names = {a.name_hint for a in kernel.body.block.args}
        # the kernel's plain arguments (not a loop's counter)
        self.arguments = runtime_shapes.plain_arguments(kernel)
        grid = kernel.attributes.get("grid")
        sizes = [int(d.value.data) for d in grid.data] if grid is not None else []  # type: ignore[attr-defined]
        self.one_tile = all(n == 1 for n in sizes)

    def fresh(self, hint: str | None) -> str:
        base = hint or "i"
        name, k = base, 1
        while name in self.names:
            name, k = f"{base}.{k}", k + 1
        self.names.add(name)
        return name

    def build(self) -> list[dict]:
        steps: list[dict] = []
        self.block(self.kernel.body.block, steps)
        return steps

    def block(self, block, steps: list[dict]) -> None:
        for op in block.ops:
            self.op(op, steps)

    def op(self, op: Operation, steps: list[dict]) -> None:
        env = self.env
        if isinstance(op, func.CallOp):
            self.call(op, steps)
        elif isinstance(op, func.ReturnOp | scf.YieldOp):
            return
        elif isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
            value = op.value.value.data
            if isinstance(op.value.type, IntegerType) and op.value.type.width.data == 1:
                value &= 1  # i1 true may be stored as -1
            env[op.results[0]] = value
        elif isinstance(op, ktdp.GetComputeTileIdOp):
            if self.one_tile:  # the only tile's id is known: bounds that use it fold
                for r in op.ids:
                    env[r] = 0
            elif len(op.ids) == 1:
                env[op.ids[0]] = ["tile"]
            else:
                for k, r in enumerate(op.ids):
                    env[r] = ["tile", k]
        elif isinstance(op, ktdp.RuntimeArgExtractOp):
            rtype = op.arg.type
            assert isinstance(rtype, ktdp.RuntimeArgType)
            field = op.field.data
            if field == "value" and op.arg in env:
                env[op.results[0]] = env[op.arg]
            elif field in ("granularity", "upperbound"):
                env[op.results[0]] = getattr(rtype, f"{field}_value")
        elif isinstance(op, arith.CmpiOp) and all(o in env for o in op.operands):
            self.binary(op, _CMPI[op.predicate.value.data])
        elif op.name == "arith.select" and all(o in env for o in op.operands):
            self.select(op)
        elif op.name in _ARITH and all(o in env for o in op.operands):
            self.binary(op, _ARITH[op.name])
        elif isinstance(op, scf.ForOp):
            self.loop(op, steps)
        elif isinstance(op, scf.IfOp):
            self.condition(op, steps)

    def select(self, op: Operation) -> None:
        """`select(c, a, b)`: the chosen value when `c` is known; else `min`/`max` when `c`
        compares `a` with `b` (`end = select(end_raw < R, end_raw, R)`); else unknown (a
        loop or call that needs it is refused)."""
        cond, a, b = (self.env[o] for o in op.operands)
        if isinstance(cond, int):
            self.env[op.results[0]] = a if cond else b
            return
        cmp = op.operands[0].owner
        if not isinstance(cmp, arith.CmpiOp):
            return
        pred = _CMPI[cmp.predicate.value.data]
        x, y = (self.env[o] for o in cmp.operands)
        kind = {"slt": "min", "sle": "min", "sgt": "max", "sge": "max"}.get(pred)
        if kind is None:
            return
        if (x, y) == (a, b):
            self.env[op.results[0]] = [kind, a, b]
        elif (x, y) == (b, a):
            self.env[op.results[0]] = ["max" if kind == "min" else "min", a, b]

    def binary(self, op: Operation, kind: str) -> None:
        a, b = self.env[op.operands[0]], self.env[op.operands[1]]
        expr = [kind, a, b]
        self.env[op.results[0]] = sx.evaluate(expr, {}) if isinstance(a, int) and isinstance(b, int) else expr

    def call(self, op: func.CallOp, steps: list[dict]) -> None:
        pname = op.callee.root_reference.data
        fn = self.program_fns.get(pname)
        if fn is None:
            raise VerifyError(f"the orchestrator calls @{pname}, which is not a program", "pass lower")
        bindings = {}
        for param, operand in zip(fn.body.block.args, op.arguments):
            if operand not in self.env:
                raise UnsupportedError("lowering: a program argument that is not an affine "
                                       "expression of the kernel's arguments", _where(op))
            if _mentions_tile(self.env[operand]):
                raise UnsupportedError("lowering: a program argument that depends on the compute "
                                       "tile id in the orchestrator is not supported yet", _where(op))
            bindings[param.name_hint] = self.env[operand]
        ids = [r["id"] for r in self.symbol_rows if r["program"] == pname]
        call = self.calls
        self.calls += 1
        if call >= MAX_CALLS:
            raise UnsupportedError(f"lowering: the orchestrator makes more than {MAX_CALLS} "
                                   "program calls", _where(op))
        steps.extend([{"step": "evaluate_symbols", "program": pname, "call": call,
                       "bindings": bindings, "symbols": ids},
                      {"step": "write_symbols", "program": pname, "call": call},
                      {"step": "launch", "program": pname, "call": call}])

    def loop(self, op: scf.ForOp, steps: list[dict]) -> None:
        if op.iter_args:
            raise UnsupportedError("lowering: an orchestrator loop carrying values", _where(op))
        bounds = []
        for v in (op.lb, op.ub, op.step):
            if v not in self.env:
                raise UnsupportedError("lowering: a KTIR loop in the orchestrator whose bounds "
                                       "are not expressions of the kernel's arguments", _where(op))
            bounds.append(self.env[v])
        if any(_mentions_tile(b) for b in bounds):
            # (the normal form rewrites such a loop when its bounds are known per tile:
            # a plain argument among them is what stopped it, and a value fixes that)
            given = sorted({name for b in bounds for name in _arguments(b)} & self.arguments)
            hint = "" if not given else (
                f" while they also depend on the kernel's argument{'s' if len(given) > 1 else ''} "
                + ", ".join(f"%{n}" for n in given) + ": " + fold_hint(given)
                + ", and a loop whose bounds are known on every tile is rewritten to run the "
                  "same iterations on all of them")
            raise UnsupportedError("lowering: a KTIR loop in the orchestrator whose bounds depend "
                                   "on the compute tile id is not supported yet" + hint,
                                   _where(op))
        iv = op.body.block.args[0]
        lb, ub, step = bounds
        if all(isinstance(b, int) for b in bounds):
            for i in range(lb, ub, max(step, 1)):  # type: ignore[arg-type]
                self.env[iv] = i
                self.block(op.body.block, steps)
            return
        if isinstance(step, int) and step <= 0:
            raise UnsupportedError("lowering: an orchestrator loop whose step is not positive", _where(op))
        var = self.fresh(iv.name_hint)
        self.env[iv] = sx.arg(var)
        body: list[dict] = []
        self.block(op.body.block, body)
        if body:
            steps.append({"step": "for", "var": var, "lb": lb, "ub": ub, "stride": step, "body": body})

    def condition(self, op: scf.IfOp, steps: list[dict]) -> None:
        if op.results:
            raise UnsupportedError("lowering: an orchestrator scf.if with results is not "
                                   "supported yet", _where(op))
        if op.cond not in self.env:
            raise UnsupportedError("lowering: an orchestrator condition that is not an "
                                   "expression of the kernel's arguments and the tile id", _where(op))
        cond = self.env[op.cond]
        branches = [list(op.true_region.blocks), list(op.false_region.blocks)]
        if isinstance(cond, int):
            for block in branches[0 if cond else 1]:
                self.block(block, steps)
            return
        then_steps: list[dict] = []
        else_steps: list[dict] = []
        for block in branches[0]:
            self.block(block, then_steps)
        for block in branches[1]:
            self.block(block, else_steps)
        if then_steps or else_steps:
            steps.append({"step": "if", "cond": cond, "then": then_steps, "else": else_steps})


def execute_plan(kernel: func.FuncOp, program_fns: dict[str, func.FuncOp],
                 symbol_rows: list[dict]) -> list[dict]:
    """The orchestrator's calls as job-plan steps, in execution order."""
    return _Builder(kernel, program_fns, symbol_rows).build()

