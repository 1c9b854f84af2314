"""Reading a device file: the xDSL context, and a parser that remembers where each op is.

xDSL ops carry no source position, so the parser records the position of the first
token of every op it builds; the loader then reports semantic errors at file:line:col.
Syntax errors (xDSL `ParseError`) become `DeviceError`s at the span xDSL reports.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects import get_all_dialects
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.utils.exceptions import ParseError, VerifyException

from spyre_sched.dialects.ktdf_arch import KTDF_ARCH
from spyre_sched.errors import DeviceError, SourceLocation


def device_context() -> Context:
    """A context with every upstream dialect (loaded lazily), ours, and `ktdf_arch`.

    Patterns name the ops they create (`arith.mulf`, `spyreop.sigmoid`), so the context
    used to apply them must know those dialects too.
    """
    from spyre_sched.universe import SPYRE_SCHED_UNIVERSE

    ctx = Context()
    for name, loader in get_all_dialects().items():
        ctx.register_dialect(name, loader)
    for name, loader in SPYRE_SCHED_UNIVERSE.all_dialects.items():
        if name == "ktdf_arch":
            continue
        if name not in ctx.registered_dialect_names:
            ctx.register_dialect(name, loader)
    ctx.load_dialect(KTDF_ARCH)
    return ctx


class _LocatingParser(Parser):
    def __init__(self, ctx: Context, text: str, filename: str):
        super().__init__(ctx, text, filename)
        self.op_positions: dict[Operation, int] = {}

    def parse_operation(self) -> Operation:
        start = self._current_token.span.start
        op = super().parse_operation()
        self.op_positions[op] = start
        return op


@dataclass
class ParsedFile:
    path: Path
    module: ModuleOp
    text: str
    op_positions: dict[Operation, int]

    def location_at(self, position: int) -> SourceLocation:
        line = self.text.count("\n", 0, position) + 1
        line_start = self.text.rfind("\n", 0, position) + 1
        lines = self.text.splitlines()
        line_text = lines[line - 1] if 0 < line <= len(lines) else None
        return SourceLocation(str(self.path), line, position - line_start + 1, line_text)

    def location(self, op: Operation) -> SourceLocation:
        position = self.op_positions.get(op)
        if position is None:
            # An op the parser did not build itself (never the case for device files):
            # fall back to the nearest located ancestor.
            parent = op.parent_op()
            return self.location(parent) if parent is not None else self.location_at(0)
        return self.location_at(position)


def parse_device_file(path: Path, ctx: Context | None = None) -> ParsedFile:
    try:
        text = path.read_text()
    except OSError as err:
        raise DeviceError(f"cannot read device file: {err.strerror}", str(path)) from None
    ctx = ctx or device_context()
    parser = _LocatingParser(ctx, text, str(path))
    try:
        module = parser.parse_module()
    except ParseError as err:
        loc = err.span.get_location()
        parsed = ParsedFile(path, ModuleOp([]), text, {})
        at = parsed.location_at(err.span.start)
        raise DeviceError(err.msg, SourceLocation(str(path), loc.line, loc.col, at.line_text)) from None
    parsed = ParsedFile(path, module, text, parser.op_positions)
    try:
        module.verify()
    except VerifyException as err:
        raise DeviceError(f"invalid device IR: {err}", _failing_op_location(parsed)) from None
    return parsed


def _failing_op_location(parsed: ParsedFile) -> SourceLocation | str:
    """VerifyException does not say which op failed: find the innermost op that fails."""
    # Pre-order walk reversed visits an op's nested ops before the op itself.
    for op in reversed(list(parsed.module.walk())):
        if op is parsed.module:
            continue
        try:
            op.verify()
        except VerifyException:
            return parsed.location(op)
    return str(parsed.path)
