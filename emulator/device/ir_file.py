"""Read a DataflowIR file of a bundle: parse with locations, verify, errors at file:line:col."""

from __future__ import annotations

from pathlib import Path

from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import ParseError as XdslParseError
from xdsl.utils.exceptions import VerifyException

from spyre_sched.dialects.registry import make_context
from spyre_sched.errors import ParseError, SourceLocation, VerifyError
from spyre_sched.located_parser import LocatedParser, location_in_text, read_source
from spyre_sched.xdsl_compat import current_token


def parse_ir_text(text: str, filename: str) -> tuple[ModuleOp, dict]:
    """The module and a map op -> SourceLocation."""
    ctx = make_context()
    try:
        parser = LocatedParser(ctx, text, filename)
    except XdslParseError as err:
        raise ParseError(err.msg, location_in_text(text, filename, err.span.start)) from None
    try:
        module = parser.parse_module()
    except XdslParseError as err:
        raise ParseError(err.msg.splitlines()[-1].strip() or err.msg,
                         parser.location_at(err.span.start)) from None
    except Exception as err:  # xDSL raises several kinds while building ops and attributes
        position = parser.open_ops[-1] if parser.open_ops else current_token(parser).span.start
        raise ParseError(str(err).splitlines()[0], parser.location_at(position)) from None
    locations = {op: parser.location_at(pos) for op, pos in parser.op_positions.items()}
    try:
        module.verify()
    except VerifyException as err:
        where: SourceLocation | str = filename
        for op in module.walk():
            # xDSL does not say which op failed; find the first one whose own check fails.
            try:
                op.verify_()
            except VerifyException:
                where = locations.get(op, filename)
                break
            except Exception:
                continue
        raise VerifyError(str(err).splitlines()[0], where) from None
    _check_defined_before_use(module, locations, filename)
    return module, locations


def _check_defined_before_use(module: ModuleOp, locations: dict, filename: str) -> None:
    """Every operand is defined before its use, in its block or an enclosing one: xDSL's
    parser takes forward references and its verifier does not check dominance, and the
    emulator runs ops in order (a use ahead of its definition read nothing)."""
    stack = [(block, frozenset()) for region in module.regions for block in region.blocks]
    while stack:
        block, outer = stack.pop()
        seen = set(outer) | set(block.args)
        for op in block.ops:
            for value in op.operands:
                if value not in seen:
                    name = f"%{value.name_hint}" if value.name_hint else "a value"
                    raise VerifyError(f"{op.name} uses {name} before it is defined (or "
                                      "outside the region that defines it)",
                                      locations.get(op, filename))
            if op.regions:
                inner = frozenset(seen)
                stack.extend((b, inner) for region in op.regions for b in region.blocks)
            seen.update(op.results)


def parse_ir_file(path: str | Path) -> tuple[ModuleOp, dict]:
    path = Path(path)
    return parse_ir_text(read_source(path, "DataflowIR file", ParseError), str(path))
