"""Reading a device file: the xDSL context, and a parser that remembers where each op is.

xDSL ops carry no source position, so the parser records the position of the first
token of every op it builds; the loader then reports semantic errors at file:line:col.
Syntax errors (xDSL `ParseError`) become `DeviceError`s at the span xDSL reports.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.utils.exceptions import ParseError, VerifyException

from spyre_sched.dialects.registry import make_context
from spyre_sched.errors import DeviceError, SourceLocation
from spyre_sched.xdsl_compat import current_token
from spyre_sched.located_parser import (
    LocatedParser,
    ProblemAt,
    location_in_text,
    read_source,
)


def device_context() -> Context:
    """The shared context: patterns name the ops they create (`arith.mulf`,
    `spyreop.sigmoid`), so the context that applies them must know every dialect."""
    return make_context()


@dataclass
class ParsedFile:
    path: Path
    module: ModuleOp
    text: str
    op_positions: dict[Operation, int]

    def location_at(self, position: int) -> SourceLocation:
        return location_in_text(self.text, str(self.path), position)

    def location(self, op: Operation) -> SourceLocation:
        position = self.op_positions.get(op)
        if position is None:
            # An op the parser did not build itself (never the case for device files):
            # fall back to the nearest located ancestor.
            parent = op.parent_op()
            return self.location(parent) if parent is not None else self.location_at(0)
        return self.location_at(position)


def parse_device_file(path: Path, ctx: Context | None = None) -> ParsedFile:
    text = read_source(path, "device file", DeviceError)
    ctx = ctx or device_context()
    try:
        parser = LocatedParser(ctx, text, str(path))  # lexes the first token
    except ParseError as err:
        raise DeviceError(err.msg, location_in_text(text, str(path), err.span.start)) from None
    try:
        module = parser.parse_module()
    except ParseError as err:
        raise DeviceError(err.msg, parser.location_at(err.span.start)) from None
    except ProblemAt as err:
        raise DeviceError(err.message, parser.location_at(err.position)) from None
    except VerifyException as err:
        # An attribute rejected while its op is being built (an integer too large for its
        # type): there is no token span, so report it at the op being parsed.
        position = (parser.open_ops[-1] if parser.open_ops
                    else current_token(parser).span.start)
        raise DeviceError(str(err).strip().splitlines()[0], parser.location_at(position)) from None
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
