"""An xDSL parser that remembers where every op starts, so errors can say file:line:col."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from xdsl.ir import Attribute, Operation
from xdsl.parser import Parser

from spyre_sched.errors import SourceLocation, SpyreSchedError
from spyre_sched.fast_op_parser import FastOpReader
from spyre_sched.xdsl_compat import current_token, install_linear_time_lexer, resume_at, token_after

MAX_NESTING = 64
"""Ops nest at most this deep (an op inside a region of an op inside ...). Parsing,
verification, analysis and interpretation recurse once per level; a fixed limit gives a
clear error instead of Python's recursion limit somewhere later. Real kernels nest < 10."""


class LineIndex:
    """FILE:LINE:COL of character offsets into one text: a binary search over the line
    starts (found once, on the first look-up), so locating any number of ops of a file is
    not quadratic in its size."""

    def __init__(self, text: str, filename: str):
        self.text = text
        self.filename = filename
        self._line_starts: list[int] | None = None

    def location_at(self, position: int) -> SourceLocation:
        if self._line_starts is None:
            self._line_starts = [0] + [m.end() for m in re.finditer("\n", self.text)]
        index = bisect.bisect_right(self._line_starts, position) - 1
        start = self._line_starts[index]
        end = (self._line_starts[index + 1] - 1 if index + 1 < len(self._line_starts)
               else len(self.text))
        return SourceLocation(self.filename, index + 1, position - start + 1,
                              self.text[start:end])


class OpLocations(Mapping[Operation, SourceLocation]):
    """op -> its SourceLocation, made on first look-up: a file's ops are many, the ops an
    error or a warning names are few (building every location up front cost a few
    microseconds per op)."""

    def __init__(self, positions: dict[Operation, int], lines: LineIndex):
        self._positions = positions
        self._lines = lines
        self._made: dict[Operation, SourceLocation] = {}

    def __getitem__(self, op: Operation) -> SourceLocation:
        found = self._made.get(op)
        if found is None:
            found = self._made[op] = self._lines.location_at(self._positions[op])
        return found

    def __contains__(self, op: object) -> bool:
        return op in self._positions

    def __iter__(self) -> Iterator[Operation]:
        return iter(self._positions)

    def __len__(self) -> int:
        return len(self._positions)


#: characters of an attribute's or type's text by which `LocatedParser` looks it up
_HEAD = 12
#: the characters an attribute or type read again may end with
_CLOSING = frozenset(">])}\"")


class LocatedParser(Parser):
    """`Parser` that records the source position of each op it builds."""

    def __init__(self, ctx, text: str, filename: str, *, fast_ops: bool = True):
        super().__init__(ctx, "", filename)
        install_linear_time_lexer(self, text, filename)
        self.filename = filename
        self.text = text
        self.op_positions: dict[Operation, int] = {}
        # Start positions of the ops being parsed, innermost last: an error raised while
        # building an op (not at a token) is reported at the op.
        self.open_ops: list[int] = []
        self._lines = LineIndex(text, filename)
        # Common one-line ops are read without xDSL's per-op machinery; `fast_ops=False`
        # parses everything with xDSL (the differential tests compare the two).
        self._fast = FastOpReader(self, text) if fast_ops else None
        # Attributes and types already read in this text, by their first characters:
        # (their whole text up to the next token, the object xDSL made of it). Generated
        # IR repeats them (a program's views share their coordinate sets, its units the
        # same memref types), and xDSL's attribute parser costs ~1 ms for an affine set.
        self._attributes: dict[str, list[tuple[str, Attribute]]] | None = {} if fast_ops else None
        self._types: dict[str, list[tuple[str, Attribute]]] | None = {} if fast_ops else None

    def parse_optional_attribute(self) -> Attribute | None:
        return self._read_again(self._attributes, super().parse_optional_attribute)

    def parse_optional_type(self) -> Attribute | None:
        return self._read_again(self._types, super().parse_optional_type)

    def _read_again(self, seen, parse) -> Attribute | None:
        """`parse()`, or, where the same text was parsed before in this file, the object
        it gave then (attributes are immutable and their text alone gives them: an alias
        means the same in the whole file). Only a text that parsed is remembered."""
        if seen is None:
            return parse()
        start = current_token(self).span.start
        text = self.text
        head = text[start:start + _HEAD]
        for whole, found in seen.get(head, ()):
            if text.startswith(whole, start):
                resume_at(self, token_after(self, start + len(whole) - 1))
                return found
        found = parse()
        if found is not None:
            end = current_token(self).span.start
            own = text[start:end].rstrip()
            # Kept with the first character of the next token: the text read again ends
            # where it ended here, on a closing bracket no character can extend (a symbol
            # `@f1` is a prefix of `@f10`). Short ones parse as quickly as they are found.
            if len(own) >= _HEAD and own[-1] in _CLOSING and end < len(text):
                seen.setdefault(head, []).append((text[start:end + 1], found))
        return found

    def parse_operation(self) -> Operation:
        start = current_token(self).span.start
        open_ops = self.open_ops
        if len(open_ops) >= MAX_NESTING:
            raise ProblemAt(
                f"ops nest more than {MAX_NESTING} levels deep here (the most spyre-sched "
                "supports); flatten the loops or conditions", start)
        fast = self._fast
        if fast is not None and (op := fast.try_read(start)) is not None:
            self.op_positions[op] = start
            return op
        open_ops.append(start)
        op = super().parse_operation()
        open_ops.pop()
        self.op_positions[op] = start
        if fast is not None and fast.pending is not None:
            fast.learn(op, start, current_token(self).span.start)
        return op

    def location_at(self, position: int) -> SourceLocation:
        """FILE:LINE:COL of a character offset."""
        return self._lines.location_at(position)

    def op_locations(self) -> OpLocations:
        """Where each parsed op starts, located lazily."""
        return OpLocations(self.op_positions, self._lines)


class ProblemAt(Exception):
    """A parse problem found by our parser at a character offset; the caller turns it into
    a located ParseError (it knows the error class to use)."""

    def __init__(self, message: str, position: int):
        super().__init__(message)
        self.message = message
        self.position = position


def location_in_text(text: str, filename: str, position: int) -> SourceLocation:
    """FILE:LINE:COL (1-based) and the line's text for a character offset into `text`."""
    line = text.count("\n", 0, position) + 1
    line_start = text.rfind("\n", 0, position) + 1
    line_end = text.find("\n", position)
    line_text = text[line_start : line_end if line_end >= 0 else len(text)]
    return SourceLocation(filename, line, position - line_start + 1, line_text)


#: Texts that stand in for a source file while one part of it is handled on its own
#: (`--split-input-file`): keyed by the resolved path.
_STAND_INS: dict[Path, str] = {}


@contextmanager
def source_standing_in(path: str | Path, text: str) -> Iterator[None]:
    """While inside, reading `path` as a source gives `text` (one part of the file, padded
    with blank lines so that its lines keep their numbers in the whole file)."""
    key = Path(path).resolve()
    _STAND_INS[key] = text
    try:
        yield
    finally:
        del _STAND_INS[key]


def source_bytes(path: str | Path) -> bytes:
    """The bytes of a source file as `read_source` sees it (a stand-in part, if any)."""
    if _STAND_INS and Path(path).resolve() in _STAND_INS:
        return _STAND_INS[Path(path).resolve()].encode("utf-8")
    return Path(path).read_bytes()


def read_source(path: Path, what: str, error: type[SpyreSchedError]) -> str:
    """The text of a source file, or `error` saying why it cannot be read (missing file,
    not UTF-8 text) located at the file or at the first bad byte."""
    if _STAND_INS and Path(path).resolve() in _STAND_INS:
        return _STAND_INS[Path(path).resolve()]
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
