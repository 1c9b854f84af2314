"""Affine value analysis: every index value of a kernel as an affine form over variables.

Representation (the choice): an xDSL `AffineExpr` whose *symbols* index one table of named
`Variable`s per kernel. xDSL expressions already have floordiv/mod/ceildiv with floor
semantics, fold constants, evaluate, and print to isl text (`isl_text.expr_text`) with the
variables' names, so one form serves isl (checks) and numpy (enumeration) alike; an isl
`PwAff` would have to be re-aligned to a different parameter space for every question.

Variables:
- `tile`: the linear compute tile id, 0 <= tile < prod(grid). With several
  `get_compute_tile_id` results the per-dimension ids are expressed through it
  (x = tile mod n0, y = (tile floordiv n0) mod n1, ...), so there is one tile variable.
- loop induction variables of `scf.for` / `affine.for`, bounded by their (affine) bounds
  and step;
- run-time arguments (`ktdp.runtime_arg_extract value`), granularity <= v <= upperbound and
  a multiple of the granularity;
- function arguments (pointers, scalars), unconstrained;
- derived values: `arith.minsi/maxsi/minui/maxui`, `arith.select` on an affine
  comparison, and a product of a tile-id expression with another value (fixed tile by
  tile: `(tile = 0 and p = 0) or (tile = 1 and p = M') or ...`), each a variable whose
  constraint defines it piecewise-affinely;
- opaque values: anything not understood (a value loaded from memory, a product of two
  non-constant values), unconstrained.

`bindings` (`check --arg NAME=VALUE`) fix function arguments and run-time arguments by
name. `condition_text(value)` gives an i1 value as isl text when it is an affine
comparison (`arith.cmpi`, combined with `andi`/`ori`), used for `scf.if` guards.

`arith.divsi`/`divui`/`remsi`/`remui` by a positive constant are read as floordiv / mod:
the same on the non-negative values index arithmetic works with.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum

from xdsl.dialects import affine, arith, func, scf
from xdsl.dialects.builtin import ArrayAttr, IndexType, IntAttr, IntegerAttr, IntegerType
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineExpr, AffineSymExpr

from spyre_sched.dialects.ktdp import (
    GetComputeTileIdOp,
    RuntimeArgExtractOp,
    RuntimeArgType,
    coordinates_grid,
)
from spyre_sched.polyhedral.isl_text import conj, expr_text

#: a name in isl text
ISL_NAME = re.compile(r"[A-Za-z_$][\w$]*")


class VariableKind(Enum):
    TILE = "tile"
    LOOP = "loop"
    RUNTIME = "runtime"
    ARGUMENT = "argument"
    DERIVED = "derived"
    OPAQUE = "opaque"


#: `arith.cmpi` predicates as isl comparisons (operands taken as signed: index values)
_COMPARISONS = {0: "=", 1: "!=", 2: "<", 3: "<=", 4: ">", 5: ">=",
                6: "<", 7: "<=", 8: ">", 9: ">="}
#: a product with a tile-id expression is split tile by tile up to this many tiles
MAX_TILES_SPLIT = 256


@dataclass(eq=False)
class Variable:
    """A named unknown of the kernel: isl parameter / set dimension `name`."""

    name: str
    kind: VariableKind
    value: SSAValue | None = None
    #: isl constraint text bounding this variable (over variable names; "true" if none)
    constraint: str = "true"
    #: the loop op for LOOP variables
    loop: Operation | None = None
    #: constant inclusive bounds when known
    lower: int | None = None
    upper: int | None = None
    #: LOOP variables: constant step (None if not constant) and (lb, ub) expressions
    step: int | None = None
    bounds: tuple[AffineExpr, AffineExpr] | None = None

    def __repr__(self) -> str:
        return f"Variable({self.name}, {self.kind.value})"

    @property
    def per_instance(self) -> bool:
        """True if the value differs between tiles / iterations (renamed per instance).

        Pointer arguments and run-time arguments are the same for the whole launch.
        """
        return self.kind not in (VariableKind.ARGUMENT, VariableKind.RUNTIME)


@dataclass(frozen=True)
class AffineForm:
    """An index value as an affine expression over the kernel's variables."""

    expr: AffineExpr
    variables: tuple[Variable, ...] = field(compare=False)

    @property
    def constant(self) -> int | None:
        used = self.used
        if used:
            return None
        return self.expr.eval([], [0] * len(self.variables))

    @property
    def used(self) -> list[Variable]:
        positions = sorted(
            {n.position for n in self.expr.dfs() if isinstance(n, AffineSymExpr)}
        )
        return [self.variables[p] for p in positions]

    def isl(self, rename: dict[str, str] | None = None) -> str:
        names = [rename.get(v.name, v.name) if rename else v.name for v in self.variables]
        return expr_text(self.expr, [], names)

    def __str__(self) -> str:
        text = str(self.expr)
        for pos in sorted(range(len(self.variables)), reverse=True):
            text = text.replace(f"s{pos}", self.variables[pos].name)
        return text


_IDENT = re.compile(r"[^A-Za-z0-9_]")
# Words isl's parser reserves; a value named like one gets a prefix.
_ISL_WORDS = {"and", "or", "not", "mod", "floor", "ceil", "exists", "min", "max", "true",
              "false", "implies", "infty", "nan", "xor", "rat", "d", "s"}


def _const_of(expr: AffineExpr) -> int | None:
    if any(isinstance(n, AffineSymExpr) for n in expr.dfs()):
        return None
    return expr.eval([], [])


def _simplify(expr: AffineExpr, nsyms: int) -> AffineExpr:
    if isinstance(expr, AffineConstantExpr | AffineSymExpr):
        return expr  # already its simplest form (xDSL's simplify returns an equal one)
    if expr.is_pure_affine():
        try:
            return expr.simplify(0, nsyms)
        except (NotImplementedError, ValueError, ZeroDivisionError):
            # xDSL's simplify gives up on semi-affine forms: keep the expression as written.
            return expr
    return expr


def grid_of(func_op: Operation) -> tuple[int, ...]:
    grid = func_op.attributes.get("grid")
    if isinstance(grid, ArrayAttr):
        return tuple(
            g.value.data if isinstance(g, IntegerAttr) else g.data  # type: ignore[union-attr]
            for g in grid.data
            if isinstance(g, IntegerAttr | IntAttr)
        ) or (1,)
    return (1,)


class AffineValues:
    """Affine forms of the index values of one kernel (`func.func`), memoised."""

    TILE = "tile"

    def __init__(self, func_op: Operation, grid: tuple[int, ...] | None = None,
                 bindings: dict[str, int | float] | None = None):
        self.func_op = func_op
        #: argument name -> value given by the user (integers only matter here)
        self.bindings = {k: int(v) for k, v in (bindings or {}).items()
                         if isinstance(v, int) or float(v).is_integer()}
        self.grid = tuple(grid) if grid is not None else grid_of(func_op)
        self.tile_count = 1
        for g in self.grid:
            self.tile_count *= g
        self.variables: list[Variable] = []
        self._positions: dict[str, int] = {}  # variable name -> its index in `variables`
        self._names: set[str] = set()
        self._forms: dict[SSAValue, AffineExpr] = {}
        self.tile = self._new(
            self.TILE, VariableKind.TILE, None, f"0 <= tile < {self.tile_count}",
            lower=0, upper=self.tile_count - 1,
        )

    # ---- variables ---------------------------------------------------------------

    def _new(self, hint: str, kind: VariableKind, value: SSAValue | None,
             constraint: str = "true", **extra) -> Variable:
        base = _IDENT.sub("_", hint) or "v"
        if base[0].isdigit() or base.lower() in _ISL_WORDS:
            base = "v_" + base
        name, k = base, 1
        while name in self._names:
            name, k = f"{base}_{k}", k + 1
        self._names.add(name)
        var = Variable(name, kind, value, constraint, **extra)
        self._positions[name] = len(self.variables)
        self.variables.append(var)
        return var

    def _sym(self, var: Variable) -> AffineExpr:
        return AffineExpr.symbol(self._positions[var.name])  # names are unique

    def variable_named(self, name: str) -> Variable:
        for v in self.variables:
            if v.name == name:
                return v
        raise KeyError(name)

    # ---- queries -----------------------------------------------------------------

    def expr(self, value: SSAValue) -> AffineExpr:
        """The affine expression (symbols = `self.variables`) of an index value.

        Operands are resolved first with an explicit stack (depth first, left operand
        first, as a recursion would), so a chain of 100,000 dependent values neither
        recurses 100,000 deep nor revisits a value."""
        forms = self._forms
        found = forms.get(value)
        if found is not None:
            return found
        # (value, whether its operands have been pushed already)
        stack: list[tuple[SSAValue, bool]] = [(value, False)]
        while stack:
            current, expanded = stack.pop()
            if current in forms:
                continue
            if not expanded:
                pending = [v for v in _affine_operands(current) if v not in forms]
                if pending:
                    stack.append((current, True))
                    stack.extend((v, False) for v in reversed(pending))
                    continue
            forms[current] = _simplify(self._compute(current), len(self.variables))
        return forms[value]

    def form(self, value: SSAValue) -> AffineForm:
        expr = self.expr(value)
        return AffineForm(expr, tuple(self.variables))

    @property
    def derived(self) -> list[Variable]:
        """The variables defined by constraints from an SSA value (a min, a max, ...)."""
        return [v for v in self.variables if v.kind is VariableKind.DERIVED and v.value is not None]

    def of_expr(self, expr: AffineExpr) -> AffineForm:
        return AffineForm(expr, tuple(self.variables))

    def substitute(self, expr: AffineExpr, operands) -> AffineExpr:
        """`expr` (symbols = `operands` values) as an expression over the variables."""
        return expr.replace_dims_and_symbols([], [self.expr(v) for v in operands])

    def text(self, expr: AffineExpr, rename: dict[str, str] | None = None) -> str:
        return AffineForm(expr, tuple(self.variables)).isl(rename)

    def enclosing_loops(self, op: Operation) -> list[Variable]:
        """Induction variables of the loops around `op`, outermost first."""
        loops = []
        parent = op.parent_op()
        while parent is not None and parent is not self.func_op:
            if isinstance(parent, scf.ForOp | affine.ForOp):
                iv = parent.body.block.args[0]
                self.expr(iv)
                loops.append(next(v for v in self.variables if v.value is iv))
            parent = parent.parent_op()
        return loops[::-1]

    def reached(self, text: str) -> list[str]:
        """The variables isl `text` names, with every variable their constraints name,
        transitively, in the kernel's order: the parameters a set over `text` needs (the
        others cannot change it)."""
        by_name = {v.name: v for v in self.variables}
        todo = {t for t in ISL_NAME.findall(text) if t in by_name}
        seen: set[str] = set()
        while todo:
            name = todo.pop()
            if name not in seen:
                seen.add(name)
                todo |= {t for t in ISL_NAME.findall(by_name[name].constraint)
                         if t in by_name and t not in seen}
        return [v.name for v in self.variables if v.name in seen]

    def context(self, rename: dict[str, str] | None = None,
                names: set[str] | None = None) -> str:
        """isl text bounding every variable (or those named) — the kernel's domain."""
        texts = []
        for v in self.variables:
            if names is not None and v.name not in names:
                continue
            text = v.constraint
            if rename and text != "true":
                text = _rename_text(text, rename)
            texts.append(text)
        return conj(*texts)

    # ---- analysis ----------------------------------------------------------------

    def _opaque(self, value: SSAValue, kind: VariableKind = VariableKind.OPAQUE,
                constraint: str = "true", hint: str | None = None, **extra) -> AffineExpr:
        var = self._new(hint or value.name_hint or "v", kind, value, constraint, **extra)
        return self._sym(var)

    def _compute(self, value: SSAValue) -> AffineExpr:
        if isinstance(value, BlockArgument):
            return self._block_argument(value)
        op = value.owner
        assert isinstance(op, Operation)
        if isinstance(op, arith.ConstantOp):
            attr = op.value
            if isinstance(attr, IntegerAttr):
                return AffineExpr.constant(attr.value.data)
            return self._opaque(value)
        if isinstance(op, GetComputeTileIdOp):
            return self._tile_id(op, value)
        if isinstance(op, arith.IndexCastOp) or op.name in ("arith.index_castui",):
            return self.expr(op.operands[0])
        if isinstance(op, arith.AddiOp):
            return self.expr(op.lhs) + self.expr(op.rhs)
        if isinstance(op, arith.SubiOp):
            return self.expr(op.lhs) - self.expr(op.rhs)
        if isinstance(op, arith.MuliOp):
            lhs, rhs = self.expr(op.lhs), self.expr(op.rhs)
            if _const_of(rhs) is not None:
                return lhs * _const_of(rhs)
            if _const_of(lhs) is not None:
                return rhs * _const_of(lhs)
            return self._tile_product(value, lhs, rhs)
        if op.name in ("arith.minsi", "arith.minui", "arith.maxsi", "arith.maxui"):
            lhs, rhs = self.text(self.expr(op.operands[0])), self.text(self.expr(op.operands[1]))
            keep = "<=" if "min" in op.name else ">="
            return self._derived(value, lambda v: (
                f"({v} = {lhs} and {lhs} {keep} {rhs}) or ({v} = {rhs} and {rhs} {keep} {lhs})"))
        if op.name == "arith.select" and str(value.type) == "index" or (
            op.name == "arith.select" and isinstance(value.type, IntegerType)
        ):
            cond = self.condition_text(op.operands[0])
            if cond is None:
                return self._opaque(value)
            lhs, rhs = self.text(self.expr(op.operands[1])), self.text(self.expr(op.operands[2]))
            return self._derived(value, lambda v: (
                f"(({cond}) and {v} = {lhs}) or (not ({cond}) and {v} = {rhs})"))
        if isinstance(op, arith.ShLIOp):
            amount = _const_of(self.expr(op.rhs))
            if amount is not None and 0 <= amount < 62:
                return self.expr(op.lhs) * (1 << amount)
            return self._opaque(value)
        divisions = {
            arith.DivSIOp: "floordiv", arith.DivUIOp: "floordiv", arith.FloorDivSIOp: "floordiv",
            arith.CeilDivSIOp: "ceildiv", arith.CeilDivUIOp: "ceildiv",
            arith.RemSIOp: "mod", arith.RemUIOp: "mod",
            arith.ShRSIOp: "shr", arith.ShRUIOp: "shr",
        }
        for cls, kind in divisions.items():
            if isinstance(op, cls):
                return self._division(op, value, kind)
        if isinstance(op, affine.ApplyOp):
            amap = op.map.data
            operands = [self.expr(v) for v in op.mapOperands]
            return amap.results[0].replace_dims_and_symbols(
                operands[: amap.num_dims], operands[amap.num_dims:]
            )
        if isinstance(op, RuntimeArgExtractOp):
            return self._runtime(op, value)
        return self._opaque(value)

    def _derived(self, value: SSAValue, define) -> AffineExpr:
        """A variable for `value`, defined by the isl text `define(name)`."""
        var = self._new(value.name_hint or "v", VariableKind.DERIVED, value)
        var.constraint = f"({define(var.name)})"
        return self._sym(var)

    def _tile_product(self, value: SSAValue, lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
        """`lhs * rhs` where one factor depends on the tile id only: affine once the tile
        is fixed, so defined tile by tile (the grid is finite)."""
        tile_only = {self.tile}
        for factor, other in ((lhs, rhs), (rhs, lhs)):
            used = set(self.of_expr(factor).used)
            if not used or not used <= tile_only or self.tile_count > MAX_TILES_SPLIT:
                continue
            other_text = self.text(other)
            position = self.variables.index(self.tile)
            pieces = []
            for t in range(self.tile_count):
                env = [0] * len(self.variables)
                env[position] = t
                c = factor.eval([], env)
                pieces.append(f"(tile = {t} and {{v}} = {c} * ({other_text}))")
            text = " or ".join(pieces).replace("tile = ", f"{self.tile.name} = ")
            return self._derived(value, lambda v, text=text: text.replace("{v}", v))
        return self._opaque(value)

    def condition_text(self, value: SSAValue) -> str | None:
        """isl text of an i1 value that is an affine comparison (or and/or of them)."""
        op = value.owner
        if not isinstance(op, Operation):
            return None
        if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
            return "1 = 1" if op.value.value.data else "1 = 0"
        if op.name == "arith.cmpi" and str(op.operands[0].type) in ("index",) or (
            op.name == "arith.cmpi" and isinstance(op.operands[0].type, IntegerType)
        ):
            relation = _COMPARISONS.get(op.properties["predicate"].value.data)  # type: ignore
            lhs = self.text(self.expr(op.operands[0]))
            rhs = self.text(self.expr(op.operands[1]))
            if relation is None:
                return None
            if relation == "!=":
                return f"({lhs} < {rhs} or {lhs} > {rhs})"
            return f"{lhs} {relation} {rhs}"
        if op.name in ("arith.andi", "arith.ori"):
            parts = [self.condition_text(v) for v in op.operands]
            if any(p is None for p in parts):
                return None
            word = " and " if op.name == "arith.andi" else " or "
            return word.join(f"({p})" for p in parts)
        return None

    def _division(self, op: Operation, value: SSAValue, kind: str) -> AffineExpr:
        lhs = self.expr(op.operands[0])
        divisor = _const_of(self.expr(op.operands[1]))
        if kind == "shr":
            if divisor is None or not 0 <= divisor < 62:
                return self._opaque(value)
            divisor, kind = 1 << divisor, "floordiv"
        if divisor is None or divisor <= 0:
            return self._opaque(value)
        if kind == "floordiv":
            return lhs // divisor
        if kind == "ceildiv":
            return lhs.ceil_div(divisor)
        return lhs % divisor

    def _tile_id(self, op: GetComputeTileIdOp, value: SSAValue) -> AffineExpr:
        tile = self._sym(self.tile)
        ids = list(op.ids)
        if len(ids) == 1:
            return tile
        axis = ids.index(value)  # type: ignore[arg-type]
        grid = coordinates_grid(self.grid, len(ids))
        if grid[axis] == 1:
            return AffineExpr.constant(0)
        stride = 1
        for g in grid[:axis]:
            stride *= g
        expr = tile // stride if stride > 1 else tile
        if axis < len(grid) - 1:
            expr = expr % grid[axis]
        return expr

    def _runtime(self, op: RuntimeArgExtractOp, value: SSAValue) -> AffineExpr:
        rtype = op.arg.type
        assert isinstance(rtype, RuntimeArgType)
        g, u = rtype.granularity_value, rtype.upperbound_value
        if op.field.data == "granularity" and g is not None:
            return AffineExpr.constant(g)
        if op.field.data == "upperbound" and u is not None:
            return AffineExpr.constant(u)
        if op.field.data != "value" or not isinstance(value.type, IndexType | IntegerType):
            return self._opaque(value)
        hint = value.name_hint or op.arg.name_hint or "rt"
        low = g if g is not None else 1
        var = self._new(hint, VariableKind.RUNTIME, value, lower=low, upper=u)
        texts = [f"{low} <= {var.name}"]
        if u is not None:
            texts.append(f"{var.name} <= {u}")
        if g is not None and g > 1:
            texts.append(f"({var.name}) mod {g} = 0")
        bound = self.bindings.get(op.arg.name_hint or "")
        if bound is not None:
            texts.append(f"{var.name} = {bound}")
            var.lower = var.upper = bound
        var.constraint = " and ".join(texts)
        return self._sym(var)

    def _block_argument(self, arg: BlockArgument) -> AffineExpr:
        block: Block = arg.owner
        parent = block.parent_op()
        if isinstance(parent, func.FuncOp):
            hint = arg.name_hint or f"arg{arg.index}"
            if isinstance(arg.type, RuntimeArgType):
                return self._opaque(arg, VariableKind.RUNTIME, hint=hint)
            bound = self.bindings.get(arg.name_hint or "")
            if bound is not None:
                return AffineExpr.constant(bound)
            return self._opaque(arg, VariableKind.ARGUMENT, hint=hint)
        if isinstance(parent, scf.ForOp) and arg.index == 0:
            return self._loop_iv(arg, parent, self.expr(parent.lb), self.expr(parent.ub),
                                 _const_of(self.expr(parent.step)))
        if isinstance(parent, affine.ForOp) and arg.index == 0:
            lmap, umap = parent.lowerBoundMap.data, parent.upperBoundMap.data
            if len(lmap.results) == 1 and len(umap.results) == 1:
                lops = [self.expr(v) for v in parent.lowerBoundOperands]
                uops = [self.expr(v) for v in parent.upperBoundOperands]
                lb = lmap.results[0].replace_dims_and_symbols(
                    lops[: lmap.num_dims], lops[lmap.num_dims:])
                ub = umap.results[0].replace_dims_and_symbols(
                    uops[: umap.num_dims], uops[umap.num_dims:])
                return self._loop_iv(arg, parent, lb, ub, parent.step.value.data)
        return self._opaque(arg)

    def _loop_iv(self, arg: BlockArgument, loop: Operation, lb: AffineExpr, ub: AffineExpr,
                 step: int | None) -> AffineExpr:
        var = self._new(arg.name_hint or "iv", VariableKind.LOOP, arg, loop=loop)
        lb_text, ub_text = self.text(lb), self.text(ub)
        constraint = f"{lb_text} <= {var.name} < {ub_text}"
        if step is not None and step > 1:
            constraint += f" and ({var.name} - {lb_text}) mod {step} = 0"
        var.constraint = constraint
        lo, hi = _const_of(lb), _const_of(ub)
        var.lower = lo
        var.upper = hi - 1 if hi is not None else None
        var.step = step
        var.bounds = (lb, ub)
        return self._sym(var)


def _rename_text(text: str, rename: dict[str, str]) -> str:
    if not rename:
        return text
    pattern = re.compile(r"\b(" + "|".join(re.escape(k) for k in rename) + r")\b")
    return pattern.sub(lambda m: rename[m.group(1)], text)


rename_text = _rename_text


_ARITH_WITH_AFFINE_OPERANDS = (
    arith.AddiOp, arith.SubiOp, arith.MuliOp, arith.ShLIOp, arith.IndexCastOp,
    arith.DivSIOp, arith.DivUIOp, arith.FloorDivSIOp, arith.CeilDivSIOp, arith.CeilDivUIOp,
    arith.RemSIOp, arith.RemUIOp, arith.ShRSIOp, arith.ShRUIOp,
)


def _affine_operands(value: SSAValue) -> list[SSAValue]:
    """The operands `AffineValues._compute` reads the expressions of, for `value`."""
    op = value.owner
    if not isinstance(op, Operation):
        return []
    if (isinstance(op, _ARITH_WITH_AFFINE_OPERANDS)
            or op.name in ("arith.index_castui", "arith.minsi", "arith.minui", "arith.maxsi",
                           "arith.maxui")):
        return list(op.operands)
    if isinstance(op, affine.ApplyOp):
        return list(op.mapOperands)
    return []
