"""Every use of xDSL's private API, in one place: an xDSL upgrade touches this file only.

xDSL 0.75 has no public way to peek at the next token, to parse one token of a given kind
optionally, to parse an affine expression with caller-defined identifiers, to learn the
name a printer gave a value, to swap the lexer, to move the parser to a position of its
text (an op read without xDSL's parser, see fast_op_parser.py), to register a value
under a name, to learn the dialect stack that names are resolved in, or to tell whether
an op class's verifier checks its IRDL definition and nothing else; and its `arith.remui`
and `arith.extsi` lack the `Pure` trait their siblings have (`is_side_effect_free` says
no). Each is wrapped here under a name that says what it does; the rest of spyre-sched
calls these.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable

from xdsl.dialects import arith
from xdsl.interfaces import _HasFolderInterfaceTrait  # pyright: ignore[reportPrivateUsage]
from xdsl.ir import Operation, SSAValue
from xdsl.irdl import IRDLOperation
from xdsl.ir.affine import AffineExpr
from xdsl.parser import Parser
from xdsl.parser.affine_parser import AffineParser
from xdsl.parser.generic_parser import ParserState
from xdsl.printer import Printer
from xdsl.traits import OpTrait, is_side_effect_free
from xdsl.utils.exceptions import ParseError as XdslParseError
from xdsl.utils.lexer import Input, Span, Token
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

__all__ = [
    "MLIRTokenKind", "current_token", "dialect_stack", "has_no_side_effects",
    "install_linear_time_lexer",
    "parse_affine_expr_with", "parse_optional_token", "printer_ssa_name",
    "register_ssa_definition", "resume_at", "token_after", "verifies_only_its_definition",
]


#: arith ops without side effects whose xDSL definition lacks the `Pure` trait
_PURE_WITHOUT_TRAIT = (arith.RemUIOp, arith.ExtSIOp)


def has_no_side_effects(op: Operation) -> bool:
    """`is_side_effect_free`, right for the arith ops xDSL leaves unmarked."""
    return isinstance(op, _PURE_WITHOUT_TRAIT) or is_side_effect_free(op)


def current_token(parser: Parser) -> Token:
    """The next token, not consumed (its `kind`, `text` and `span`)."""
    return parser._current_token  # pyright: ignore[reportPrivateUsage]


def parse_optional_token(parser: Parser, kind: MLIRTokenKind) -> Token | None:
    """Consume and return the next token if it is of `kind`, else None."""
    return parser._parse_optional_token(kind)  # pyright: ignore[reportPrivateUsage]


def dialect_stack(parser: Parser) -> list[str]:
    """The dialects an op name without a dot is looked up in, innermost last (not to be
    changed by the caller)."""
    return parser._parser_state.dialect_stack  # pyright: ignore[reportPrivateUsage]


# The two commonest tokens at the start of an op, lexed as xDSL's lexer lexes them (its
# whitespace-and-comments pattern, its `%` suffix-id and its ASCII bare identifier);
# anything else is left to the lexer itself.
_WHITESPACE = re.compile(r"((//[^\n]*(\n)?)|(\s+))*", re.ASCII)
_PERCENT_IDENT = re.compile(r"%([0-9]+|[a-zA-Z$._-][a-zA-Z0-9$._-]*)")
_BARE_IDENT = re.compile(r"[a-zA-Z_][a-zA-Z0-9_$.]*")


def token_after(parser: Parser, position: int) -> Token:
    """The token that starts at or after `position` (whitespace and comments skipped),
    lexed without moving the parser. Raises xDSL's ParseError for a bad token."""
    lexer = parser._parser_state.lexer  # pyright: ignore[reportPrivateUsage]
    text = lexer.input.content
    start = _WHITESPACE.match(text, position).end()  # type: ignore[union-attr]
    first = text[start:start + 1]
    if first == "%":
        if (match := _PERCENT_IDENT.match(text, start)) is not None:
            return Token(MLIRTokenKind.PERCENT_IDENT, Span(start, match.end(), lexer.input))
    elif first == "}":
        return Token(MLIRTokenKind.R_BRACE, Span(start, start + 1, lexer.input))
    elif (match := _BARE_IDENT.match(text, start)) is not None:
        return Token(MLIRTokenKind.BARE_IDENT, Span(start, match.end(), lexer.input))
    saved = lexer.pos
    lexer.pos = position
    try:
        return lexer.lex()
    finally:
        lexer.pos = saved


def resume_at(parser: Parser, token: Token) -> None:
    """Make `token` (from `token_after`) the parser's next token: the text before it has
    been read by other means."""
    state = parser._parser_state  # pyright: ignore[reportPrivateUsage]
    state.lexer.pos = token.span.end
    state.current_token = token


def register_ssa_definition(parser: Parser, name: str, values: tuple[SSAValue, ...],
                            span: Span) -> None:
    """Define `%name` as `values`, exactly as xDSL's parser does for an op's results
    (duplicate check, forward references resolved, name hint set)."""
    parser._register_ssa_definition(name, values, span)  # pyright: ignore[reportPrivateUsage]


def verifies_only_its_definition(op_type: type[Operation]) -> bool:
    """Whether `op.verify_()` for ops of this class checks only the IRDL definition: the
    operand, result, property and attribute constraints (functions of those attributes
    alone), with no verifier written for the class and no trait that verifies anything
    (so nothing reads the op's parent, its neighbours or its operands' producers).

    xDSL 0.75 makes `verify_` a closure over `op_def` and `custom_verify` (the class's own
    `verify_`, `Operation.verify_` -- a no-op -- when it has none)."""
    if not issubclass(op_type, IRDLOperation):
        return False
    verify = op_type.verify_
    code = getattr(verify, "__code__", None)
    if code is None or code.co_freevars != ("custom_verify", "op_def") or not verify.__closure__:
        return False
    cells = dict(zip(code.co_freevars, (c.cell_contents for c in verify.__closure__)))
    if cells["custom_verify"] is not Operation.verify_:
        return False
    op_def = op_type.get_irdl_definition()
    if cells["op_def"] is not op_def or op_def.regions or op_def.successors:
        return False
    return all(type(trait).verify is OpTrait.verify or type(trait) in _TRAITS_VERIFYING_NOTHING
               for trait in op_def.traits)


# Traits whose `verify` is written out but returns at once.
_TRAITS_VERIFYING_NOTHING = (_HasFolderInterfaceTrait,)


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
