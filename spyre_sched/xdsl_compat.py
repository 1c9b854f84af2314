"""Every use of xDSL's private API, in one place: an xDSL upgrade touches this file only.

xDSL 0.75 has no public way to peek at the next token, to parse one token of a given kind
optionally, to parse an affine expression with caller-defined identifiers, to learn the
name a printer gave a value, or to swap the lexer. Each is wrapped here under a name that
says what it does; the rest of spyre-sched calls these.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable

from xdsl.ir import SSAValue
from xdsl.ir.affine import AffineExpr
from xdsl.parser import Parser
from xdsl.parser.affine_parser import AffineParser
from xdsl.parser.generic_parser import ParserState
from xdsl.printer import Printer
from xdsl.utils.exceptions import ParseError as XdslParseError
from xdsl.utils.lexer import Input, Token
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

__all__ = [
    "MLIRTokenKind", "current_token", "install_linear_time_lexer", "parse_affine_expr_with",
    "parse_optional_token", "printer_ssa_name",
]


def current_token(parser: Parser) -> Token:
    """The next token, not consumed (its `kind`, `text` and `span`)."""
    return parser._current_token  # pyright: ignore[reportPrivateUsage]


def parse_optional_token(parser: Parser, kind: MLIRTokenKind) -> Token | None:
    """Consume and return the next token if it is of `kind`, else None."""
    return parser._parse_optional_token(kind)  # pyright: ignore[reportPrivateUsage]


def parse_affine_expr_with(parser: Parser) -> Callable[[Callable[[], AffineExpr | None]],
                                                     AffineExpr]:
    """A function parsing one affine expression at the parser's position, whose leaves are
    read by the given `parse_id` (returns the dim/symbol expression of an identifier, or
    None when the next token is not one)."""
    affine = AffineParser(parser._parser_state)  # pyright: ignore[reportPrivateUsage]
    return affine._parse_affine_expr  # pyright: ignore[reportPrivateUsage]


def printer_ssa_name(printer: Printer, value: SSAValue) -> str:
    """The name `printer` uses for `value` (without `%`), assigning one without printing
    anything when the value has none yet."""
    name = printer._ssa_values.get(value)  # pyright: ignore[reportPrivateUsage]
    if name is None:
        saved, printer.stream = printer.stream, io.StringIO()
        try:
            name = printer.print_ssa_value(value)
        finally:
            printer.stream = saved
    return name


class _LinearTimeLexer(MLIRLexer):
    """xDSL's lexer with plainer messages and a string-literal pattern that cannot
    backtrack. The original nests one repetition in another, so a string left unterminated
    (`"spyreop.silu (%x ...` up to the end of the line) takes time exponential in the
    line's length. Same language."""

    _unescaped_characters_regex = re.compile(
        r'"(?:[^"\\\n\v\f]|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"'
    )

    def _lex_string_literal(self, start_pos):
        try:
            return super()._lex_string_literal(start_pos)
        except XdslParseError as err:  # xDSL says "End of file reached" for any line
            raise XdslParseError(err.span, "string literal is not closed on its line") from None

    def _lex_prefixed_ident(self, start_pos):
        try:
            return super()._lex_prefixed_ident(start_pos)
        except XdslParseError as err:  # xDSL's message leaves "{first_char}" unformatted
            sigil = self.input.content[start_pos]
            raise XdslParseError(err.span, f"expected a name after '{sigil}'") from None


def install_linear_time_lexer(parser: Parser, text: str, filename: str) -> None:
    """Make `parser` read `text` with the lexer above (lexes the first token)."""
    parser._parser_state = ParserState(  # pyright: ignore[reportPrivateUsage]
        _LinearTimeLexer(Input(text, filename)))
