"""KTIR text -> a verified `Kernel`, with every error located at FILE:LINE:COL."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation
from xdsl.utils.exceptions import ParseError as XdslParseError
from xdsl.utils.exceptions import VerifyException

from spyre_sched.errors import ParseError, SourceLocation, SpyreSchedError, VerifyError
from spyre_sched.frontend.context import make_context
from spyre_sched.frontend.located_parser import LocatedParser


@dataclass
class Kernel:
    """A parsed and verified KTIR module with one kernel function."""

    module: ModuleOp
    func: FuncOp
    filename: str
    op_locations: dict[Operation, SourceLocation] = field(default_factory=dict)

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
        """Where `op` was written; ops made later by passes report their enclosing op."""
        current: Operation | None = op
        while current is not None:
            if current in self.op_locations:
                return self.op_locations[current]
            current = current.parent_op()
        return f"{self.filename}: op {op.name}"


def grid_of(func: FuncOp) -> tuple[int, ...]:
    grid = func.attributes.get("grid")
    if grid is None:
        return (1,)
    return tuple(g.value.data for g in grid.data)  # type: ignore[union-attr]


_UNKNOWN_OP = re.compile(r"Operation (\S+) is not registered")


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


def parse_kernel(text: str, filename: str = "<input>") -> Kernel:
    """Parse and verify KTIR text. Raises ParseError / VerifyError with a location."""
    ctx = make_context()
    parser = LocatedParser(ctx, text, filename)
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
        raise ParseError(_explain_parse_error(err.msg, ctx), parser.location_at(position))
    except SpyreSchedError:
        raise
    except Exception as err:  # xDSL raises several kinds while building ops and attrs
        position = parser._current_token.span.start
        raise ParseError(_explain_parse_error(str(err), ctx), parser.location_at(position))
    locations = {op: parser.location_at(pos) for op, pos in parser.op_positions.items()}
    func = _find_kernel_func(module, filename)
    kernel = Kernel(module, func, filename, locations)
    verify_kernel(kernel)
    return kernel


def load_kernel(path: str | Path) -> Kernel:
    path = Path(path)
    try:
        text = path.read_text()
    except OSError as err:
        raise ParseError(f"cannot read kernel file: {err.strerror}", str(path))
    return parse_kernel(text, str(path))


def _find_kernel_func(module: ModuleOp, filename: str) -> FuncOp:
    funcs = [op for op in module.walk() if isinstance(op, FuncOp) and op.body.blocks]
    if not funcs:
        raise VerifyError("the file defines no func.func kernel", filename)
    kernels = [f for f in funcs if "grid" in f.attributes] or funcs
    return kernels[0]


def verify_kernel(kernel: Kernel) -> None:
    """Verify every op, reporting the first failure at the op's own location."""
    for op in kernel.module.walk():
        try:
            op.verify_()
        except VerifyException as err:
            raise VerifyError(str(err).splitlines()[0], kernel.location_of(op)) from None
    _verify_grid(kernel)
    try:
        kernel.module.verify()
    except VerifyException as err:
        message = next(
            (ln for ln in str(err).splitlines() if "does not verify" in ln or "must" in ln),
            str(err).splitlines()[0],
        )
        raise VerifyError(message.strip(), kernel.location_of(kernel.func)) from None


def _verify_grid(kernel: Kernel) -> None:
    grid = kernel.func.attributes.get("grid")
    if grid is None:
        return
    if not isinstance(grid, ArrayAttr) or not all(
        isinstance(g, IntegerAttr) and g.value.data > 0 for g in grid.data
    ):
        raise VerifyError(
            "'grid' must be a list of positive integers, e.g. grid = [32]",
            kernel.location_of(kernel.func),
        )
