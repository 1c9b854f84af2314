"""KTIR text -> a verified `Kernel`, with every error located at FILE:LINE:COL."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation
from xdsl.utils.exceptions import ParseError as XdslParseError

from spyre_sched.dialects.registry import make_context
from spyre_sched.errors import (
    ParseError,
    SourceLocation,
    SpyreSchedError,
    VerifyError,
)
from spyre_sched.collector import garbage_collection_paused
from spyre_sched.located_parser import (
    LocatedParser,
    ProblemAt,
    location_in_text,
    read_source,
)
from spyre_sched.verify import first_line, location_of, verify_module
from spyre_sched.xdsl_compat import MLIRTokenKind, current_token


@dataclass
class Kernel:
    """A parsed and verified KTIR module with one kernel function."""

    module: ModuleOp
    func: FuncOp
    filename: str
    #: op -> where it was written (a Mapping, located on look-up)
    op_locations: Mapping[Operation, SourceLocation] = field(default_factory=dict)
    #: findings of rules stricter than the dialect's definition (`check --strict` makes
    #: them errors): polyhedral.checks.Diagnostic with severity "warning"
    warnings: list = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.func.sym_name.data

    @property
    def grid(self) -> tuple[int, ...]:
        return grid_of(self.func)

    @property
    def num_tiles(self) -> int:
        count = 1
        for g in self.grid:
            count *= g
        return count

    def location_of(self, op: Operation) -> SourceLocation | str:
        """Where `op` was written; an op made later (by a pass) is named by its path."""
        return location_of(op, self.op_locations, self.filename)


def grid_of(func: FuncOp) -> tuple[int, ...]:
    grid = func.attributes.get("grid")
    if grid is None:
        return (1,)
    return tuple(g.value.data for g in grid.data)  # type: ignore[union-attr]


_UNKNOWN_OP = re.compile(r"Operation (\S+) is not registered")
_UNKNOWN_ATTR = re.compile(r"'([\w.$]+)' is not registered")


def _unknown_attr_message(name: str, kind: str, ctx) -> str:
    sigil = "!" if kind == "type" else "#"
    dialect = name.split(".", 1)[0]
    if dialect not in set(ctx.registered_dialect_names):
        return f"unknown dialect '{dialect}' (in {kind} '{sigil}{name}')"
    return f"unknown {kind} '{sigil}{name}'"


def _explain_parse_error(msg: str, ctx) -> str:
    """Make xDSL's parse messages name the unknown op or dialect plainly."""
    first = msg.strip().splitlines()[0] if msg.strip() else msg
    match = _UNKNOWN_OP.search(first)
    if match:
        name = match.group(1)
        dialect = name.split(".", 1)[0] if "." in name else None
        if dialect and dialect not in set(ctx.registered_dialect_names):
            return f"unknown dialect '{dialect}' (in operation '{name}')"
        return f"unknown operation '{name}'"
    return first


def parse_kernel(text: str, filename: str = "<input>", *, fast_ops: bool = True,
                 func: str | None = None) -> Kernel:
    """Parse and verify KTIR text. Raises ParseError / VerifyError with a location.
    `fast_ops=False` parses every op with xDSL's own parser (see fast_op_parser.py).
    `func`: the kernel function's name (needed when the file defines several)."""
    with garbage_collection_paused():
        return _parse_kernel(text, filename, fast_ops, func)


def _parse_kernel(text: str, filename: str, fast_ops: bool, func_name: str | None = None
                  ) -> Kernel:
    ctx = make_context()
    try:
        parser = LocatedParser(ctx, text, filename, fast_ops=fast_ops)  # lexes 1st token
    except XdslParseError as err:
        raise ParseError(err.msg, location_in_text(text, filename, err.span.start)) from None
    try:
        module = parser.parse_module()
    except XdslParseError as err:
        position = err.span.start
        if parser.forward_ssa_references:
            # "values used but not defined" is raised at the end of the file: point at
            # the first use of an undefined value instead.
            uses = [
                m.start()
                for name in parser.forward_ssa_references
                if (m := re.search(rf"%{re.escape(name)}\b", text))
            ]
            position = min(uses, default=position)
        message = _explain_parse_error(err.msg, ctx)
        if message.startswith("Could not parse entire input"):
            at_end = current_token(parser).kind == MLIRTokenKind.EOF
            message = "the file defines no func.func kernel" if at_end else "expected an operation"
        if (match := _UNKNOWN_OP.search(err.msg)) is not None:
            # xDSL points after the op name; point at the name itself.
            name_at = text.rfind(match.group(1), 0, position + 1)
            position = name_at if name_at >= 0 else position
        elif (match := _UNKNOWN_ATTR.search(err.msg)) is not None:
            # An unknown type or attribute is reported after it: find where it is written.
            name = match.group(1)
            name_at = max(text.rfind(f"!{name}", 0, position), text.rfind(f"#{name}", 0, position))
            if name_at >= 0:
                kind = "type" if text[name_at] == "!" else "attribute"
                message = _unknown_attr_message(name, kind, ctx)
                position = name_at
        raise ParseError(message, parser.location_at(position)) from None
    except ProblemAt as err:
        raise ParseError(err.message, parser.location_at(err.position)) from None
    except SpyreSchedError:
        raise
    except Exception as err:  # xDSL raises several kinds while building ops and attrs
        position = (parser.open_ops[-1] if parser.open_ops
                    else current_token(parser).span.start)
        raise ParseError(first_line(str(err)), parser.location_at(position)) from None
    locations = parser.op_locations()
    func = _find_kernel_func(module, filename, func_name)
    kernel = Kernel(module, func, filename, locations)
    verify_kernel(kernel)
    return kernel


def load_kernel(path: str | Path, func: str | None = None) -> Kernel:
    path = Path(path)
    return parse_kernel(read_source(path, "kernel file", ParseError), str(path), func=func)


def _find_kernel_func(module: ModuleOp, filename: str, name: str | None = None) -> FuncOp:
    """The function `name`; without a name, the one kernel of the file (a function with a
    grid, else with a body). Several candidates and no name is an error, not a guess:
    every verb must mean the same function."""
    funcs = [op for op in module.walk() if isinstance(op, FuncOp) and op.body.blocks]
    if not funcs:
        raise VerifyError("the file defines no func.func kernel", filename)
    if name is not None:
        name = name.lstrip("@")
        for f in funcs:
            if f.sym_name.data == name:
                return f
        listed = ", ".join(f"@{f.sym_name.data}" for f in funcs)
        raise VerifyError(f"--func {name}: the file defines no function @{name} (its "
                          f"functions: {listed})", filename)
    # the functions of the file itself (a saved schedule nests its programs' functions)
    top = [f for f in funcs if f.parent_op() is module] or funcs
    kernels = [f for f in top if "grid" in f.attributes] or top
    if len(kernels) > 1:
        listed = ", ".join(f"@{f.sym_name.data}" for f in kernels)
        raise VerifyError(f"the file defines {len(kernels)} kernel functions ({listed}): "
                          "name the one meant with --func NAME", filename)
    return kernels[0]


def verify_kernel(kernel: Kernel) -> None:
    """Verify the kernel with the one entry point every stage uses, at source locations."""
    kernel.warnings = verify_module(kernel.module, kernel.op_locations, kernel.filename)
