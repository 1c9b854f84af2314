"""An xDSL parser that remembers where every op starts, so errors can say file:line:col."""

from __future__ import annotations

from pathlib import Path

from xdsl.ir import Operation
from xdsl.parser import Parser

from spyre_sched.errors import SourceLocation, SpyreSchedError


class LocatedParser(Parser):
    """`Parser` that records the source position of each op it builds."""

    def __init__(self, ctx, text: str, filename: str):
        super().__init__(ctx, text, filename)
        self.filename = filename
        self.text = text
        self.op_positions: dict[Operation, int] = {}
        # Start positions of the ops being parsed, innermost last: an error raised while
        # building an op (not at a token) is reported at the op.
        self.open_ops: list[int] = []

    def parse_operation(self) -> Operation:
        start = self._current_token.span.start
        self.open_ops.append(start)
        op = super().parse_operation()
        self.open_ops.pop()
        self.op_positions[op] = start
        return op

    def location_at(self, position: int) -> SourceLocation:
        return location_in_text(self.text, self.filename, position)


def location_in_text(text: str, filename: str, position: int) -> SourceLocation:
    """FILE:LINE:COL (1-based) and the line's text for a character offset into `text`."""
    line = text.count("\n", 0, position) + 1
    line_start = text.rfind("\n", 0, position) + 1
    line_end = text.find("\n", position)
    line_text = text[line_start : line_end if line_end >= 0 else len(text)]
    return SourceLocation(filename, line, position - line_start + 1, line_text)


def read_source(path: Path, what: str, error: type[SpyreSchedError]) -> str:
    """The text of a source file, or `error` saying why it cannot be read (missing file,
    not UTF-8 text) located at the file or at the first bad byte."""
    try:
        data = path.read_bytes()
    except OSError as err:
        raise error(f"cannot read {what}: {err.strerror}", str(path)) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        good = data[: err.start].decode("utf-8")
        location = location_in_text(good, str(path), len(good))
        raise error(
            f"{what} is not UTF-8 text (byte 0x{data[err.start]:02x})",
            SourceLocation(location.file, location.line, location.col),
        ) from None
