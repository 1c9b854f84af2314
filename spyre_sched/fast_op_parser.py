"""Reading the commonest one-line ops without xDSL's per-op parsing machinery.

xDSL spends ~250 us on a line like `%v1 = arith.addi %v0, %c1 : index` (lexing, the
declarative format's interpreter, the IRDL builder); a 100,000-op kernel then takes
half a minute. Most ops of a kernel have one of a few shapes, and two ops of one shape
that differ only in their value names are the same op up to operands and results. So:

1. At each op, a regex recognises the shape on the source text (one line, only spaces
   between tokens, nothing after the op but a comment). No match: xDSL parses the op.
2. The shape's *key* is everything that is not a value name: the op name, a predicate
   word, the operand count, the type text, the dialect stack (and for a constant, the
   kind of its literal, not its value).
3. The first op of each key is parsed by xDSL. If the op xDSL built is a plain one (one
   result, its operands exactly the named values in order, no regions or successors, an
   op whose syntax is a declarative assembly format without custom directives, or the
   generic syntax), and xDSL stopped reading exactly where the shape ends, it becomes the
   key's template: op class, operand and result types, properties and attributes.
4. A later op of the same key is built from the template with `Operation.create` (what
   xDSL's builders call too) after checking everything xDSL would check: each operand is
   already defined with the template's type (a forward reference or another type goes to
   xDSL, which reports or resolves it), the result name is new, the token after the op
   lexes and is not a `loc(...)`. Only then does anything change: the result is
   registered the way xDSL registers it and the parser moves past the op.

A constant's value is the one thing that varies within a key: it is built as xDSL's
attribute parser builds it (`IntegerAttr(int, type)` / `FloatAttr(float, type)`), and
any error building it sends the op to xDSL, which reports it. Whatever is not recognised
falls back to xDSL, so correctness never depends on this module's coverage;
tests/frontend/test_fast_op_parser.py parses every kernel of the repository both ways and
compares the printed IR, the locations and the errors.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from xdsl.dialects.builtin import (
    UNKNOWN_LOC,
    AnyFloat,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import IRDLOperation
from xdsl.parser import Parser
from xdsl.utils.exceptions import ParseError as XdslParseError
from xdsl.utils.lexer import Span

from spyre_sched.xdsl_compat import (
    MLIRTokenKind,
    dialect_stack,
    register_ssa_definition,
    resume_at,
    token_after,
)

# Pieces of the shapes. A value name is exactly xDSL's lexer's `%` suffix-id; the
# characters that may follow one in a shape (space, `,`, `=`, `:`, `)`) cannot continue
# it, so a match never splits a token.
_VALUE = r"%(?:[0-9]+|[a-zA-Z$._-][a-zA-Z0-9$._-]*)"
_OP_NAME = r"[a-zA-Z_][a-zA-Z0-9_$.]*"
# a type: a name (`index`, `f16`, `!d.t`) with an optional <...> holding one more level
_TYPE = r"!?[a-zA-Z_][a-zA-Z0-9_$.]*(?:<[^<>\n]*(?:<[^<>\n]*>[^<>\n]*)*>)?"
_SP = r"[ \t]*"
# the op ends its line (a comment may follow)
_END = r"(?=[ \t\r]*(?://|\n|$))"
_NUMBER = r"-?[0-9]+(?:\.[0-9]*(?:[eE][+-]?[0-9]+)?)?"

#: `%r = d.op %a, %b : <type>`: the commonest shape, tried first (its key is the one
#: `_CUSTOM` gives the same text)
_BINARY = re.compile(
    rf"({_VALUE}){_SP}={_SP}({_OP_NAME})[ \t]+({_VALUE}){_SP},{_SP}({_VALUE}){_SP}:{_SP}"
    rf"({_TYPE}){_END}")
#: `%r = d.op [word,] %a, %b, ... : <types>` (custom syntax, no attribute dictionary)
_CUSTOM = re.compile(
    rf"({_VALUE}){_SP}={_SP}({_OP_NAME})[ \t]+(?:([a-z_][a-z0-9_]*){_SP},{_SP})?"
    rf"((?:{_VALUE}){_SP}(?:,{_SP}{_VALUE}{_SP})*):{_SP}"
    rf"({_TYPE}(?:{_SP}(?:,|[ \t]to[ \t]){_SP}{_TYPE})*){_END}")
#: `%r = d.op <number> : <type>` (a constant)
_CONSTANT = re.compile(
    rf"({_VALUE}){_SP}={_SP}({_OP_NAME})[ \t]+({_NUMBER}){_SP}:{_SP}({_TYPE}){_END}")
#: `%r = "d.op"(%a, ...) : (<types>) -> <type>` (generic syntax, nothing else)
_GENERIC = re.compile(
    rf'({_VALUE}){_SP}={_SP}"({_OP_NAME})"{_SP}\({_SP}((?:{_VALUE}{_SP}'
    rf"(?:,{_SP}{_VALUE}{_SP})*)?)\){_SP}:{_SP}(\({_SP}(?:{_TYPE}{_SP}(?:,{_SP}{_TYPE}{_SP})*)?\)"
    rf"{_SP}->{_SP}{_TYPE}){_END}")
_VALUES = re.compile(_VALUE)


@dataclass(frozen=True)
class _Template:
    op_type: type[Operation]
    operand_types: tuple[Attribute, ...]
    result_types: tuple[Attribute, ...]
    properties: dict[str, Attribute]
    attributes: dict[str, Attribute]
    #: for a constant: the name of the property holding its value
    value_property: str | None = None


_INELIGIBLE = object()
"""A key whose ops xDSL builds in a way a template does not reproduce."""


def _declarative_without_custom_code(op_type: type[Operation]) -> bool:
    """The op's custom syntax is a declarative assembly format that calls no custom
    directive: the op xDSL builds depends only on the tokens (and the operand values)."""
    if not issubclass(op_type, IRDLOperation):
        return False
    fmt = op_type.assembly_format
    return (isinstance(fmt, str) and "custom<" not in fmt and not op_type.custom_directives
            and getattr(op_type.parse, "__name__", "") == "parse_with_format")


@dataclass
class _Pending:
    """An op matched by a shape whose key has no template yet: learn from xDSL's op."""

    start: int
    key: tuple
    result: str
    operands: tuple[str, ...]
    end: int
    generic: bool
    value: str | None


class FastOpReader:
    """Reads ops of known shapes for one parser (see the module docstring)."""

    def __init__(self, parser: Parser, text: str):
        self.parser = parser
        self.text = text
        self.templates: dict[tuple, _Template | object] = {}
        self.pending: _Pending | None = None

    def try_read(self, start: int) -> Operation | None:
        """The op starting at `start` (the parser's next token), read and registered, or
        None (nothing changed: let xDSL parse it, then call `learn`)."""
        self.pending = None
        text = self.text
        char = text[start] if start < len(text) else ""
        if char != "%":
            return None
        value = None
        generic = False
        match = _BINARY.match(text, start)
        if match is not None:
            result, name, lhs, rhs, types = match.groups()
            operands = (lhs, rhs)
            key = ("custom", name, None, 2, types)
        elif (match := _CUSTOM.match(text, start)) is not None:
            result, name, word, operand_text, types = match.groups()
            operands = tuple(_VALUES.findall(operand_text))
            key = ("custom", name, word, len(operands), types)
        elif (match := _CONSTANT.match(text, start)) is not None:
            result, name, value, types = match.groups()
            operands = ()
            literal = "float" if "." in value else "int"
            key = ("constant", name, literal, types)
        elif (match := _GENERIC.match(text, start)) is not None:
            result, name, operand_text, types = match.groups()
            operands = tuple(_VALUES.findall(operand_text))
            key = ("generic", name, len(operands), types)
            generic = True
        else:
            return None
        key = (*key, tuple(dialect_stack(self.parser)))
        template = self.templates.get(key)
        if template is None:
            self.pending = _Pending(start, key, result[1:], tuple(o[1:] for o in operands),
                                    match.end(), generic, value)
            return None
        if template is _INELIGIBLE:
            return None
        assert isinstance(template, _Template)
        return self._build(template, result[1:], operands, value, start, match.end())

    def _build(self, template: _Template, result: str, operands: tuple[str, ...],
               value: str | None, start: int, end: int) -> Operation | None:
        parser = self.parser
        defined = parser.ssa_values
        if result in defined or result in parser.forward_ssa_references:
            return None  # xDSL reports the redefinition
        values: list[SSAValue] = []
        for operand, expected in zip(operands, template.operand_types):
            found = defined.get(operand[1:])
            if found is None or found[0].type != expected:
                return None  # a forward reference, a tuple or another type: xDSL's
            values.append(found[0])
        properties = template.properties
        if template.value_property is not None:
            try:
                attr = _constant_value(value, template.result_types[0])
            except Exception:  # noqa: BLE001 - xDSL raises the same, located
                return None
            if attr is None:
                return None
            properties = {**properties, template.value_property: attr}
        try:
            after = token_after(parser, end)
        except XdslParseError:
            return None  # xDSL reports the bad token at the same place
        if after.kind == MLIRTokenKind.BARE_IDENT and after.text == "loc":
            return None
        op = template.op_type.create(operands=values, result_types=template.result_types,
                                     properties=properties,
                                     attributes=dict(template.attributes),
                                     location=UNKNOWN_LOC)  # xDSL's default, one object
        register_ssa_definition(parser, result, op.results,
                                Span(start, start + len(result) + 1, after.span.input))
        resume_at(parser, after)
        return op

    def learn(self, op: Operation, start: int, next_token_start: int) -> None:
        """After xDSL parsed the op at `start` that `try_read` left to it: make its key's
        template."""
        pending, self.pending = self.pending, None
        if pending is None or pending.start != start or pending.key in self.templates:
            return
        parser = self.parser
        results = parser.ssa_values.get(pending.result)
        operand_values = [parser.ssa_values.get(name) for name in pending.operands]
        if any(found is None or len(found) != 1 for found in operand_values):
            return  # a forward reference or a tuple: learn from a later op of the key
        plain = (len(op.results) == 1 and results is not None and len(results) == 1
                 and results[0] is op.results[0] and not op.regions and not op.successors
                 and len(op.operands) == len(operand_values)
                 and all(value is found[0]  # type: ignore[index]
                         for value, found in zip(op.operands, operand_values))
                 and next_token_start == _skip_space(self.text, pending.end)
                 and (pending.generic or _declarative_without_custom_code(type(op))))
        value_property = None
        if plain and pending.value is not None:
            value_property = _constant_property(op, pending.value)
            plain = value_property is not None
        if not plain:
            self.templates[pending.key] = _INELIGIBLE
            return
        self.templates[pending.key] = _Template(
            type(op), tuple(v.type for v in op.operands), tuple(r.type for r in op.results),
            dict(op.properties), dict(op.attributes), value_property)


_SPACE = re.compile(r"(?://[^\n]*\n?|\s+)*")


def _skip_space(text: str, position: int) -> int:
    """Where the next token starts (xDSL's lexer skips whitespace and `//` comments)."""
    return _SPACE.match(text, position).end()  # type: ignore[union-attr]


def _constant_value(literal: str | None, type_: Attribute) -> Attribute | None:
    """The attribute xDSL's parser makes of `<literal> : <type>` (builtin integer or
    float literal, decimal), or None for a combination left to xDSL."""
    assert literal is not None
    if isinstance(type_, AnyFloat):
        return FloatAttr(float(float(literal) if "." in literal else int(literal)), type_)
    if isinstance(type_, (IntegerType, IndexType)) and "." not in literal:
        return IntegerAttr(int(literal), type_)
    return None


def _constant_property(op: Operation, literal: str) -> str | None:
    """The property of the constant op that holds `literal`'s value, when rebuilding it
    from the literal gives exactly what xDSL parsed; else None."""
    found = [name for name, attr in op.properties.items()
             if isinstance(attr, (IntegerAttr, FloatAttr))]
    if len(found) != 1 or op.attributes or len(op.properties) != 1:
        return None
    attr = op.properties[found[0]]
    try:
        rebuilt = _constant_value(literal, op.results[0].type)
    except Exception:  # noqa: BLE001
        return None
    return found[0] if rebuilt == attr and attr.type == op.results[0].type else None
