"""The execute part of a bundle's job plan, as the runtime follows it (docs/bundle.md).

Steps run in order: `evaluate_symbols` (bind the program's parameters, evaluate its
symbols), `write_symbols`, `launch`; `for` runs its body once per value of its counter
(bounds evaluated at launch from the run-time arguments); `if` runs `then` or `else`. A
condition that reads the compute tile id (`["tile"]`, `["tile", K]`) is evaluated per
core: the calls inside launch their program only on the cores where it holds (compute
tile t runs on core t; coordinate K of tile t counts with the first grid dimension
fastest).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

from spyre_sched.errors import ExecutionError, ParseError

_OPS: dict[str, Callable[[int, int], int]] = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "floordiv": lambda a, b: a // b,
    "mod": lambda a, b: a % b,
    "min": min,
    "max": max,
    "and": lambda a, b: a & b,
    "or": lambda a, b: a | b,
    "xor": lambda a, b: a ^ b,
}
_U64 = 1 << 64
_COMPARE: dict[str, Callable[[int, int], bool]] = {
    "eq": lambda a, b: a == b, "ne": lambda a, b: a != b,
    "slt": lambda a, b: a < b, "sle": lambda a, b: a <= b,
    "sgt": lambda a, b: a > b, "sge": lambda a, b: a >= b,
    "ult": lambda a, b: a % _U64 < b % _U64, "ule": lambda a, b: a % _U64 <= b % _U64,
    "ugt": lambda a, b: a % _U64 > b % _U64, "uge": lambda a, b: a % _U64 >= b % _U64,
}

#: most iterations one `for` step may run in a launch (a runaway bound, not a kernel)
MAX_ITERATIONS = 1 << 20


def evaluate(expr, env: dict[str, int], what: str, tile: Sequence[int] | None = None,
             linear_tile: int | None = None) -> int:
    """An expression of symbols.json / jobplan.json over named integer arguments (and,
    in a per-core condition, this core's tile id)."""
    if isinstance(expr, bool):
        raise ExecutionError(f"{what}: {expr!r} is not an integer expression")
    if isinstance(expr, int):
        return expr
    if isinstance(expr, list) and len(expr) == 2 and expr[0] == "arg":
        if expr[1] not in env:
            raise ExecutionError(f"{what}: argument '{expr[1]}' is not set in this launch")
        return env[expr[1]]
    if isinstance(expr, list) and expr and expr[0] == "tile" and len(expr) <= 2:
        if linear_tile is None or tile is None:
            raise ExecutionError(f"{what}: the tile id is only known in a per-core condition")
        if len(expr) == 1:
            return linear_tile
        if not isinstance(expr[1], int) or not 0 <= expr[1] < len(tile):
            raise ExecutionError(f"{what}: the grid has no dimension {expr[1]!r}")
        return tile[expr[1]]
    if isinstance(expr, list) and len(expr) == 3 and (expr[0] in _OPS or expr[0] in _COMPARE):
        a = evaluate(expr[1], env, what, tile, linear_tile)
        b = evaluate(expr[2], env, what, tile, linear_tile)
        if expr[0] in _COMPARE:
            return int(_COMPARE[expr[0]](a, b))
        if expr[0] in ("floordiv", "mod") and b == 0:
            raise ExecutionError(f"{what}: {expr[0]} by zero")
        return _OPS[expr[0]](a, b)
    raise ExecutionError(f"{what}: cannot evaluate {json.dumps(expr)}")


def mentions_tile(expr) -> bool:
    if isinstance(expr, list) and expr:
        if expr[0] == "tile":
            return True
        return expr[0] != "arg" and any(mentions_tile(e) for e in expr[1:])
    return False


def tile_coordinates(grid: Sequence[int], tile: int) -> tuple[int, ...]:
    coords = []
    for n in grid:
        coords.append(tile % n)
        tile //= n
    return tuple(coords)


#: deepest expression a bundle may hold (the lowering writes a handful of levels; the
#: evaluator recurses once per level)
MAX_EXPRESSION_DEPTH = 256
#: deepest nesting of `for` / `if` steps a job plan may hold
MAX_STEP_DEPTH = 64


def check_expression(expr, where: str, field: str, *, tile: bool = False) -> None:
    """`expr` follows the grammar `evaluate` reads (docs/bundle.md): an integer, ["arg",
    NAME], [OP, E1, E2], and where `tile` (a per-core condition) ["tile"] and ["tile", K].
    Checked without recursion, so a hostile nesting is an error, not a RecursionError."""
    stack = [(expr, 1)]
    while stack:
        e, depth = stack.pop()
        if depth > MAX_EXPRESSION_DEPTH:
            raise ParseError(f"{field}: the expression is nested deeper than "
                             f"{MAX_EXPRESSION_DEPTH} levels", where)
        if isinstance(e, int) and not isinstance(e, bool):
            continue
        head = e[0] if isinstance(e, list) and e else None
        if head == "arg" and len(e) == 2 and isinstance(e[1], str):
            continue
        if head == "tile" and tile and (len(e) == 1 or (len(e) == 2 and isinstance(e[1], int)
                                                         and not isinstance(e[1], bool)
                                                         and e[1] >= 0)):
            continue
        if head == "tile" and not tile:
            raise ParseError(f"{field}: [\"tile\"] is only allowed in the condition of an "
                             "'if' step", where)
        if isinstance(head, str) and (head in _OPS or head in _COMPARE) and len(e) == 3:
            stack.append((e[1], depth + 1))
            stack.append((e[2], depth + 1))
            continue
        shown = json.dumps(e) if depth < 4 else "a sub-expression"
        raise ParseError(f"{field}: {shown[:80]} is not an expression (an integer, [\"arg\", "
                         "NAME] or [OP, E1, E2])", where)


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_steps(steps, programs, where: str, field: str = "execute", depth: int = 1) -> None:
    """Every step is well-formed (the fields its kind needs, of the right types, with
    valid expressions) and names a program the prepare part loads; nested bodies too."""
    if not isinstance(steps, list):
        raise ParseError(f"{field}: execute steps must be a list", where)
    if depth > MAX_STEP_DEPTH:
        raise ParseError(f"{field}: steps are nested deeper than {MAX_STEP_DEPTH} levels", where)
    for i, step in enumerate(steps):
        at = f"{field}[{i}]"
        if not isinstance(step, dict):
            raise ParseError(f"{at}: an execute step must be an object, got {json.dumps(step)[:60]}",
                             where)
        kind = step.get("step")
        if kind == "for":
            for key in ("var", "lb", "ub", "stride", "body"):
                if key not in step:
                    raise ParseError(f"{at}: a 'for' step has no '{key}'", where)
            if not isinstance(step["var"], str):
                raise ParseError(f"{at}.var: expected a name", where)
            for key in ("lb", "ub", "stride"):
                check_expression(step[key], where, f"{at}.{key}")
            check_steps(step["body"], programs, where, f"{at}.body", depth + 1)
        elif kind == "if":
            if "cond" not in step:
                raise ParseError(f"{at}: an 'if' step has no 'cond'", where)
            check_expression(step["cond"], where, f"{at}.cond", tile=True)
            check_steps(step.get("then", []), programs, where, f"{at}.then", depth + 1)
            check_steps(step.get("else", []), programs, where, f"{at}.else", depth + 1)
        elif kind in ("evaluate_symbols", "write_symbols", "launch"):
            if step.get("program") not in programs:
                raise ParseError(f"{at}: execute step {kind} names program "
                                 f"'{step.get('program')}', which the prepare part "
                                 "does not load", where)
            if not _is_int(step.get("call", 0)):
                raise ParseError(f"{at}.call: expected an integer", where)
            if kind == "evaluate_symbols":
                bindings = step.get("bindings")
                bindings = {} if bindings is None else bindings
                if not isinstance(bindings, dict):
                    raise ParseError(f"{at}.bindings: expected an object of name -> expression",
                                     where)
                for name, expr in bindings.items():
                    check_expression(expr, where, f"{at}.bindings.{name}")
                ids = step.get("symbols")
                ids = [] if ids is None else ids
                if not isinstance(ids, list) or not all(_is_int(i) for i in ids):
                    raise ParseError(f"{at}.symbols: expected a list of symbol ids (integers)",
                                     where)
        else:
            raise ParseError(f"{at}.step: unknown execute step {json.dumps(kind)}", where)


def launched_programs(steps) -> set[str]:
    """The programs the execute steps launch (anywhere in their bodies), without recursion."""
    found: set[str] = set()
    stack = [steps]
    while stack:
        for step in stack.pop():
            if step.get("step") == "launch":
                found.add(step["program"])
            for key in ("body", "then", "else"):
                if isinstance(step.get(key), list):
                    stack.append(step[key])
    return found


class Execution:
    """One launch's walk over the execute steps. `run_call(program, symbols, cores,
    label)` launches one program (on every core when `cores` is None) and returns its
    cycles."""

    def __init__(self, grid: Sequence[int], run_call: Callable[[str, dict[int, int], frozenset[int] | None, str], None],
                 symbols: dict[int, dict], check_symbol: Callable[[dict, int], None]):
        self.grid = list(grid) or [1]
        self.num_cores = 1
        for g in self.grid:
            self.num_cores *= g
        self.run_call = run_call
        self.symbols = symbols
        self.check_symbol = check_symbol
        self.pending: dict[tuple[str, int], dict[int, int]] = {}
        self.written: dict[str, dict[int, int]] = {}
        self.launches = 0

    def run(self, steps: list[dict], env: dict[str, int], cores: frozenset[int] | None = None,
            label: str = "") -> None:
        for step in steps:
            kind = step.get("step")
            if kind == "for":
                self._loop(step, env, cores, label)
            elif kind == "if":
                self._condition(step, env, cores, label)
            else:
                self._call_step(step, env, cores, label)

    def _loop(self, step: dict, env: dict[str, int], cores, label: str) -> None:
        var = step["var"]
        lb, ub, stride = (evaluate(step[k], env, f"bound '{k}' of the loop over {var}")
                          for k in ("lb", "ub", "stride"))
        if stride <= 0:
            raise ExecutionError(f"the loop over {var} has step {stride}; it must be positive")
        if (ub - lb) // stride > MAX_ITERATIONS:
            raise ExecutionError(f"the loop over {var} would run {(ub - lb) // stride} iterations "
                                 f"(more than {MAX_ITERATIONS})")
        for value in range(lb, ub, stride):
            self.run(step["body"], {**env, var: value}, cores, f"{label}[{var}={value}]")

    def _condition(self, step: dict, env: dict[str, int], cores, label: str) -> None:
        cond = step["cond"]
        if not mentions_tile(cond):
            taken = evaluate(cond, env, "condition") != 0
            self.run(step.get("then", []) if taken else step.get("else", []), env, cores, label)
            return
        candidates = range(self.num_cores) if cores is None else sorted(cores)
        holds = frozenset(c for c in candidates
                          if evaluate(cond, env, "per-core condition",
                                      tile_coordinates(self.grid, c), c) != 0)
        rest = frozenset(candidates) - holds
        if holds:
            self.run(step.get("then", []), env, holds, label)
        if rest:
            self.run(step.get("else", []), env, rest, label)

    def _call_step(self, step: dict, env: dict[str, int], cores, label: str) -> None:
        kind, program, call = step.get("step"), step["program"], int(step.get("call", 0))
        if kind == "evaluate_symbols":
            bindings = {k: evaluate(v, env, f"binding of {k} for {program}")
                        for k, v in (step.get("bindings") or {}).items()}
            values = {}
            for sid in step.get("symbols") or []:
                entry = self.symbols.get(int(sid))
                if entry is None:
                    raise ExecutionError(f"the job plan evaluates symbol {sid}, which "
                                         "symbols.json does not define", program)
                value = evaluate(entry["expr"], bindings, f"symbol {sid} ({entry.get('text', '')})")
                self.check_symbol(entry, value)
                values[int(sid)] = value
            self.pending[(program, call)] = values
        elif kind == "write_symbols":
            if (program, call) not in self.pending:
                raise ExecutionError(f"write_symbols for {program} call {call} comes before "
                                     "its evaluate_symbols", "jobplan.json")
            self.written[program] = self.pending.pop((program, call))
        elif kind == "launch":
            self.run_call(program, self.written.get(program, {}), cores, f"{program}#{call}{label}")
            self.launches += 1
        else:
            raise ExecutionError(f"unknown execute step '{kind}'", "jobplan.json")
