"""KTIR text -> a verified `Kernel`, with every error located at FILE:LINE:COL."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from xdsl.dialects.builtin import (
    AffineMapAttr,
    AffineSetAttr,
    ArrayAttr,
    DictionaryAttr,
    IndexType,
    IntegerAttr,
    ModuleOp,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation, ParametrizedAttribute
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr
from xdsl.utils.exceptions import ParseError as XdslParseError
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.mlir_lexer import MLIRTokenKind

from spyre_sched.dialects.ktdp import (
    ConstructAccessTileOp,
    ConstructIndirectAccessTileOp,
)
from spyre_sched.dialects.registry import make_context
from spyre_sched.errors import (
    AnalysisError,
    ParseError,
    SourceLocation,
    SpyreSchedError,
    VerifyError,
)
from spyre_sched.located_parser import LocatedParser, location_in_text, read_source
from spyre_sched.polyhedral.point_sets import tile_extents


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


def parse_kernel(text: str, filename: str = "<input>") -> Kernel:
    """Parse and verify KTIR text. Raises ParseError / VerifyError with a location."""
    ctx = make_context()
    try:
        parser = LocatedParser(ctx, text, filename)  # lexes the first token
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
            at_end = parser._current_token.kind == MLIRTokenKind.EOF
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
    except SpyreSchedError:
        raise
    except Exception as err:  # xDSL raises several kinds while building ops and attrs
        position = parser.open_ops[-1] if parser.open_ops else parser._current_token.span.start
        raise ParseError(_first_line(str(err)), parser.location_at(position)) from None
    locations = {op: parser.location_at(pos) for op, pos in parser.op_positions.items()}
    func = _find_kernel_func(module, filename)
    kernel = Kernel(module, func, filename, locations)
    verify_kernel(kernel)
    return kernel


def load_kernel(path: str | Path) -> Kernel:
    path = Path(path)
    return parse_kernel(read_source(path, "kernel file", ParseError), str(path))


def _find_kernel_func(module: ModuleOp, filename: str) -> FuncOp:
    funcs = [op for op in module.walk() if isinstance(op, FuncOp) and op.body.blocks]
    if not funcs:
        raise VerifyError("the file defines no func.func kernel", filename)
    kernels = [f for f in funcs if "grid" in f.attributes] or funcs
    return kernels[0]


def verify_kernel(kernel: Kernel) -> None:
    """Verify every op in textual order, reporting the first failure at its location.

    Each op is verified alone (`verify_nested_ops=False`) so the error names the op that
    breaks a rule, not the function around it. The grid is checked first: op verifiers
    (ct_id ranges, tile-id result counts) read it.
    """
    _verify_grid(kernel)
    _verify_defined_before_use(kernel)
    _verify_integer_ranges(kernel)
    for op in kernel.module.walk():
        try:
            op.verify(verify_nested_ops=False)
        except VerifyException as err:
            raise VerifyError(_first_line(str(err)), kernel.location_of(op)) from None
        except Exception as err:  # a verifier tripping over malformed IR is still bad input
            raise VerifyError(
                f"'{op.name}' is malformed ({type(err).__name__}: {_first_line(str(err))})",
                kernel.location_of(op),
            ) from None
    _verify_tile_shapes(kernel)


def _verify_defined_before_use(kernel: Kernel) -> None:
    """Every operand is defined earlier in its block or in an enclosing one. xDSL's parser
    resolves forward references to a value defined later, and does not check dominance."""

    def visit(block, visible: set) -> None:
        visible = visible | set(block.args)
        for op in block.ops:
            for operand in op.operands:
                if operand not in visible:
                    name = f"%{operand.name_hint}" if operand.name_hint else "a value"
                    defined = getattr(operand, "op", None)
                    where = kernel.op_locations.get(defined) if defined is not None else None
                    later = f" (defined later, on line {where.line})" if where else ""
                    raise VerifyError(
                        f"'{op.name}' uses {name} before it is defined{later}",
                        kernel.location_of(op),
                    )
            for region in op.regions:
                for inner in region.blocks:
                    visit(inner, visible)
            visible = visible | set(op.results)

    for block in kernel.module.body.blocks:
        visit(block, set())


_INT64 = range(-(2**63), 2**63)
#: affine constants keep one bit of headroom: bounds derived from them (negated, or summed
#: with a coordinate) must still fit in 64 bits
_AFFINE_CONSTANTS = range(-(2**62), 2**62)


def _integers_and_affine_exprs(attr: Attribute):
    """Every IntegerAttr and every affine expression (of sets and maps) in `attr`, nested
    ones too."""
    if isinstance(attr, IntegerAttr):
        yield attr
    elif isinstance(attr, AffineSetAttr):
        yield from (e for c in attr.data.constraints for e in (c.lhs, c.rhs))
    elif isinstance(attr, AffineMapAttr):
        yield from attr.data.results
    elif isinstance(attr, (ArrayAttr, DictionaryAttr)):
        items = attr.data.values() if isinstance(attr, DictionaryAttr) else attr.data
        for item in items:
            yield from _integers_and_affine_exprs(item)
    elif isinstance(attr, ParametrizedAttribute):
        for param in attr.parameters:
            yield from _integers_and_affine_exprs(param)


_DIVISIONS = {AffineBinaryOpKind.Mod: "mod", AffineBinaryOpKind.FloorDiv: "floordiv",
              AffineBinaryOpKind.CeilDiv: "ceildiv"}


def _integer_problem(item) -> str | None:
    """What is wrong with an integer or affine expression, in words, or None.

    xDSL checks integers of fixed width but leaves `index` values and affine constants
    unbounded, and accepts any divisor; isl and numpy need 64-bit values and positive
    constant divisors."""
    too_large = ("the integer {} is too large (index values must fit in 64 bits, the "
                 "constants of affine sets and maps in 63)")
    if isinstance(item, IntegerAttr):
        if isinstance(item.type, IndexType) and item.value.data not in _INT64:
            return too_large.format(item.value.data)
        return None
    for node in item.dfs():
        if isinstance(node, AffineConstantExpr) and node.value not in _AFFINE_CONSTANTS:
            return too_large.format(abs(node.value))  # the sign may be the normal form's
        if isinstance(node, AffineBinaryOpExpr) and node.kind in _DIVISIONS:
            divisor = node.rhs
            if not isinstance(divisor, AffineConstantExpr) or divisor.value <= 0:
                return (f"'{_DIVISIONS[node.kind]}' needs a positive integer constant on its "
                        f"right, got {divisor} (in {node})")
    return None


def _verify_integer_ranges(kernel: Kernel) -> None:
    for op in kernel.module.walk():
        attrs = [*op.attributes.values(), *op.properties.values(),
                 *(r.type for r in op.results)]
        for attr in attrs:
            for item in _integers_and_affine_exprs(attr):
                problem = _integer_problem(item)
                if problem is not None:
                    raise VerifyError(f"'{op.name}': {problem}", kernel.location_of(op))


def _verify_tile_shapes(kernel: Kernel) -> None:
    """An access tile's type must have the shape of its set: the set's extents permuted by
    its order. Op verifiers cannot say this (it needs integer-set reasoning); a set with
    symbols is checked when it runs, since its extents depend on their values."""
    for op in kernel.module.walk():
        if isinstance(op, ConstructAccessTileOp):
            aset, order = op.access_tile_set.data, op.access_tile_order.data
        elif isinstance(op, ConstructIndirectAccessTileOp):
            aset, order = op.variables_space_set.data, op.variables_space_order.data
        else:
            continue
        if aset.num_symbols:
            continue
        declared = op.result.type.get_shape()
        try:
            extents = tuple(int(e) for e in tile_extents(aset, [], order))
        except AnalysisError as err:
            raise VerifyError(err.message, kernel.location_of(op)) from None
        if extents != tuple(declared):
            shape = "x".join(map(str, extents))
            raise VerifyError(
                f"{op.name}: the tile type says {'x'.join(map(str, declared))} but its set "
                f"spans {shape} (extents permuted by its order): the type must be "
                f"!ktdp.access_tile<{shape}xindex>",
                kernel.location_of(op),
            )


def _first_line(message: str) -> str:
    """The message's first line; xDSL's "... does not verify:" continues on the next."""
    lines = [ln.strip() for ln in message.strip().splitlines() if ln.strip()]
    if not lines:
        return message
    if lines[0].endswith(":") and len(lines) > 1:
        return f"{lines[0]} {lines[1]}"
    return lines[0]


def _verify_grid(kernel: Kernel) -> None:
    for func in kernel.module.walk():
        grid = func.attributes.get("grid")
        if grid is None:
            continue
        if not isinstance(grid, ArrayAttr) or not all(
            isinstance(g, IntegerAttr) and g.value.data > 0 for g in grid.data
        ):
            raise VerifyError(
                "'grid' must be a list of positive integers, e.g. grid = [32]",
                kernel.location_of(func),
            )
