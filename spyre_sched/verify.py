"""The one verify entry point: every rule a module must satisfy, for any stage to call.

`verify_module(module, locations)` checks, in this order: the kernel `grid` attributes,
that every operand is defined before its use (xDSL's parser resolves forward references
and does not check dominance), that integers and affine constants fit 64/63 bits and
affine divisors are positive constants, every op's own verifier (alone, so the error
names the op that breaks the rule, not the function around it), that a `scf.for`
with a constant step steps forward, that a tensor slice has one offset, size and
stride per dim, and that `linalg.index` names a loop of its op. Rules stricter than the dialect's own definition (an
access tile's type against its set's extents, a view's set symbols against its dynamic
sizes and type) are warnings: `verify_module` returns them. The front end calls it on parsed text; a pass calls it on
the module it built (`locations` then holds what survives of the source positions).

Errors are `VerifyError`s at FILE:LINE:COL when the op has a source location, and at the
op's name and path in the module otherwise (`func.func @add > scf.for #2 > ktdp.load #5`,
#N counting ops in their block from 1), plus the nearest enclosing op's location.
Everything runs in time linear in the size of the module.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    AffineSetAttr,
    ArrayAttr,
    DictionaryAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
)
from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.scf import ForOp
from xdsl.ir import Attribute, Block, ErasedSSAValue, Operation, ParametrizedAttribute
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr
from xdsl.utils.exceptions import VerifyException

from spyre_sched.dialects.ktdp import (
    ConstructAccessTileOp,
    ConstructIndirectAccessTileOp,
    ConstructMemoryViewOp,
)
from spyre_sched.errors import AnalysisError, SourceLocation, VerifyError
from spyre_sched.polyhedral import tile_extents
from spyre_sched.xdsl_compat import verifies_only_its_definition

Locations = Mapping[Operation, SourceLocation]


def op_path(op: Operation) -> str:
    """`func.func @add > scf.for #2 > ktdp.load #5`: the op's name and where it sits."""
    parts: list[str] = []
    current: Operation | None = op
    while current is not None and not (isinstance(current, ModuleOp)
                                       and current.parent_op() is None):
        text = current.name
        symbol = current.attributes.get("sym_name") or current.properties.get("sym_name")
        if symbol is not None and hasattr(symbol, "data"):
            text += f" @{symbol.data}"
        block = current.parent_block()
        if block is not None and symbol is None:
            text += f" #{block.get_operation_index(current) + 1}"
        parts.append(text)
        current = current.parent_op()
    return " > ".join(reversed(parts)) or op.name


def location_of(op: Operation, locations: Locations | None = None,
                filename: str | None = None) -> SourceLocation | str:
    """The op's source location; otherwise its path, with the nearest enclosing op's
    source location when there is one."""
    locations = locations or {}
    if op in locations:
        return locations[op]
    where = f"op {op_path(op)}"
    parent = op.parent_op()
    while parent is not None:
        if parent in locations:
            return f"{where} (inside the op at {locations[parent]})"
        parent = parent.parent_op()
    return f"{filename}: {where}" if filename else where


def verify_module(module: Operation, locations: Locations | None = None,
                  filename: str | None = None, stage: str | None = None) -> list:
    """Check every rule of the module's dialects and of KTIR kernels; raise the first
    failure as a `VerifyError` (see the module docstring for where it points), and return
    the warnings (`Diagnostic`s). `stage` (e.g. "after pass ktdf-pipeline") is added to
    the message for IR a pass built."""
    locations = locations or {}

    def where(op: Operation) -> SourceLocation | str:
        return location_of(op, locations, filename)

    def fail(message: str, op: Operation) -> VerifyError:
        return VerifyError(f"{message} ({stage})" if stage else message, where(op))

    ops = list(module.walk())  # one walk; each rule below runs over every op in turn
    _verify_grid(ops, where, fail)
    _verify_defined_before_use(module, locations, fail)
    _verify_integer_ranges(ops, fail)
    verified = _VerifiedShapes()
    for op in ops:
        pending = verified.verified_before(op)
        if pending is None:
            continue
        try:
            op.verify(verify_nested_ops=False)
            verified.passed(pending)
        except VerifyException as err:
            raise fail(first_line(str(err)), op) from None
        except Exception as err:  # a verifier tripping over malformed IR is still bad input
            raise fail(f"'{op.name}' is malformed ({type(err).__name__}: "
                       f"{first_line(str(err))})", op) from None
    _verify_loop_steps(ops, fail)
    _verify_slices(ops, fail)
    _verify_expand_shapes(ops, fail)
    _verify_linalg_index(ops, fail)
    warnings: list = []
    _verify_tile_shapes(ops, fail, warnings)
    _verify_view_symbols(ops, warnings)
    return warnings


Fail = Callable[[str, Operation], VerifyError]


def _verify_linalg_index(ops: list[Operation], fail: Fail) -> None:
    """`linalg.index d` names a loop of the structured op around it: 0 <= d < its loops
    (MLIR's verifier checks this; xDSL's does not)."""
    for op in ops:
        if op.name != "linalg.index":
            continue
        parent = op.parent_op()
        iterators = getattr(parent, "iterator_types", None)
        if iterators is None:
            continue  # another op's region: the pass that reads it decides
        loops = len(iterators)
        dim = op.properties["dim"].value.data
        if not 0 <= dim < loops:
            raise fail(f"'linalg.index' op expected dim ({dim}) to be lower than the number "
                       f"of loops ({loops}) of its linalg op", op)


def _verify_slices(ops: list[Operation], fail: Fail) -> None:
    """A tensor slice gives one offset, size and stride per dim of the tensor it slices,
    and its sizes, less some dims of 1, are its piece's type (MLIR's verifier checks
    both; xDSL's does not)."""
    for op in ops:
        if op.name not in ("tensor.extract_slice", "tensor.insert_slice"):
            continue
        sliced = op.operands[0] if op.name == "tensor.extract_slice" else op.operands[1]
        shape = getattr(sliced.type, "get_shape", None)
        if shape is None:
            continue
        rank = len(shape())
        for what in ("offset", "size", "stride"):
            given = len(op.properties[f"static_{what}s"].get_values())
            if given != rank:
                raise fail(f"'{op.name}' op expected {rank} {what} values, got {given}", op)
        piece = op.results[0].type if op.name == "tensor.extract_slice" else op.operands[0].type
        sizes = list(op.properties["static_sizes"].get_values())
        if hasattr(piece, "get_shape") and not _drops_unit_dims(sizes, list(piece.get_shape())):
            raise fail(f"'{op.name}' op sizes {_show(sizes)} do not give the "
                       f"{'result' if op.name == 'tensor.extract_slice' else 'source'} type "
                       f"{piece} (the sizes, less some dims of extent 1)", op)


def _drops_unit_dims(sizes: list[int], shape: list[int]) -> bool:
    """Whether `shape` is `sizes` with some entries of 1 left out (MLIR's rank-reduced
    slice type; a dynamic entry on either side matches any extent)."""
    k = 0
    for size in sizes:
        if k < len(shape) and (size == shape[k] or DYNAMIC_INDEX in (size, shape[k])):
            k += 1
        elif size != 1:
            return False
    return k == len(shape)


def _show(sizes: list[int]) -> str:
    return "[" + ", ".join("?" if v == DYNAMIC_INDEX else str(v) for v in sizes) + "]"


def _verify_expand_shapes(ops: list[Operation], fail: Fail) -> None:
    """`tensor.expand_shape`'s `output_shape` is the result's shape: a number where the
    result's dim is static (the same number), a size operand per dynamic entry (MLIR's
    verifier checks this; xDSL's checks only the count of entries)."""
    for op in ops:
        if op.name != "tensor.expand_shape":
            continue
        static = list(op.properties["static_output_shape"].get_values())
        result = getattr(op.results[0].type, "get_shape", None)
        dynamic = len(op.operands) - 1
        if result is None:
            continue
        shape = list(result())  # (as many entries: xDSL's verifier checks that)
        marked = sum(1 for v in static if v == DYNAMIC_INDEX)
        if marked != dynamic:
            raise fail(f"'tensor.expand_shape' op has {marked} dynamic output_shape entries "
                       f"but {dynamic} size operands (an entry out of i64's range reads as "
                       "dynamic)", op)
        for k, (given, dim) in enumerate(zip(static, shape)):
            if given != DYNAMIC_INDEX and dim != DYNAMIC_INDEX and given != dim:
                raise fail(f"'tensor.expand_shape' op output_shape[{k}] is {given} but the "
                           f"result's dim {k} is {dim}", op)


class _VerifiedShapes:
    """Ops whose xDSL verifier need not run again: one that verifies only its IRDL
    definition (`verifies_only_its_definition`: constraints on its operand and result
    types, properties and attributes) gives the same answer for every op of its class
    with equal types, properties and attributes. What else `Operation.verify` looks at
    depends on where the op is, so an op is keyed only when that part cannot apply: no
    successors or regions, no erased operand, and not the last op of its block (the
    terminator rule). A kernel of 100,000 ops has a few dozen keys.

    Ops built from one template share their attribute objects, so a key of object
    identities is tried first (hashing ints, not attribute trees); equal objects found
    under another identity key are looked up by value."""

    def __init__(self) -> None:
        self._passed: set[tuple] = set()  # keys by value
        self._passed_ids: set[tuple] = set()  # keys by identity
        self._alive: list[tuple] = []  # the attributes of `_passed_ids` (ids stay unique)
        self._plain_classes: dict[type, bool] = {}

    def verified_before(self, op: Operation) -> tuple | None:
        """None when an op of the same key passed verification before; else what to
        hand `passed` once `op` verifies (possibly None: no key)."""
        op_type = type(op)
        plain = self._plain_classes.get(op_type)
        if plain is None:
            plain = self._plain_classes[op_type] = verifies_only_its_definition(op_type)
        if not plain or op.next_op is None or op.regions or op.successors:
            return ()
        operand_types = []
        for operand in op.operands:
            if isinstance(operand, ErasedSSAValue):
                return ()
            operand_types.append(operand.type)
        result_types = [result.type for result in op.results]
        properties, attributes = op.properties, op.attributes
        ids = (op_type, *map(id, operand_types), None, *map(id, result_types), None,
               *properties, *map(id, properties.values()), None,
               *attributes, *map(id, attributes.values()))
        if ids in self._passed_ids:
            return None
        try:
            key = (op_type, tuple(operand_types), tuple(result_types),
                   tuple(properties.items()), tuple(attributes.items()))
            known = key in self._passed
        except Exception:  # noqa: BLE001 - an attribute that does not hash: no shortcut
            return ()
        alive = (operand_types, result_types, tuple(properties.values()),
                 tuple(attributes.values()))
        if known:
            self._remember(ids, alive)
            return None
        return (key, ids, alive)

    def passed(self, pending: tuple) -> None:
        """The op `verified_before` gave `pending` for verified."""
        if pending:
            key, ids, alive = pending
            self._passed.add(key)
            self._remember(ids, alive)

    def _remember(self, ids: tuple, alive: tuple) -> None:
        self._passed_ids.add(ids)
        self._alive.append(alive)


def first_line(message: str) -> str:
    """The message's first line; xDSL's "... does not verify:" continues on the next."""
    lines = [ln.strip() for ln in message.strip().splitlines() if ln.strip()]
    if not lines:
        return message
    if lines[0].endswith(":") and len(lines) > 1:
        return f"{lines[0]} {lines[1]}"
    return lines[0]


def _verify_grid(ops: list[Operation], where, fail: Fail) -> None:
    for func in ops:
        grid = func.attributes.get("grid")
        if grid is None:
            continue
        if not isinstance(grid, ArrayAttr) or not all(
            isinstance(g, IntegerAttr) and g.value.data > 0 for g in grid.data
        ):
            raise fail("'grid' must be a list of positive integers, e.g. grid = [32]", func)
        if not grid.data:
            raise fail("'grid' must have at least one dimension, e.g. grid = [1]", func)


def _verify_defined_before_use(module: Operation, locations: Locations, fail: Fail) -> None:
    """Every operand is defined earlier in its block or in an enclosing one. One set of
    visible values, grown and shrunk as blocks are entered and left: linear time."""
    visible: set = set()

    def visit(block: Block) -> None:
        added = list(block.args)
        visible.update(added)
        for op in block.ops:
            for operand in op.operands:
                if operand not in visible:
                    name = f"%{operand.name_hint}" if operand.name_hint else "a value"
                    defined = getattr(operand, "op", None)
                    at = locations.get(defined) if defined is not None else None
                    later = f" (defined later, on line {at.line})" if at else ""
                    raise fail(f"'{op.name}' uses {name} before it is defined{later}", op)
            for region in op.regions:
                for inner in region.blocks:
                    visit(inner)
            visible.update(op.results)
            added.extend(op.results)
        visible.difference_update(added)

    for region in module.regions:
        for block in region.blocks:
            visit(block)


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


MAX_AFFINE_DEPTH = 100
"""Affine expressions nest at most this deep (`d0 + d1 + ...` is a chain of binary ops).
xDSL hashes and prints them recursively; a fixed limit gives a clear error instead of
Python's recursion limit later."""


def _affine_nodes(expr):
    """(node, depth) for every node of an affine expression, iteratively (deep expressions
    must not hit Python's recursion limit)."""
    stack = [(expr, 1)]
    while stack:
        node, depth = stack.pop()
        yield node, depth
        if isinstance(node, AffineBinaryOpExpr):
            stack.append((node.rhs, depth + 1))
            stack.append((node.lhs, depth + 1))


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
    for node, depth in _affine_nodes(item):
        if depth > MAX_AFFINE_DEPTH:
            return (f"an affine expression nests more than {MAX_AFFINE_DEPTH} operations "
                    "deep (the most spyre-sched supports); split it or use fewer terms")
        if isinstance(node, AffineConstantExpr) and node.value not in _AFFINE_CONSTANTS:
            return too_large.format(abs(node.value))  # the sign may be the normal form's
        if isinstance(node, AffineBinaryOpExpr) and node.kind in _DIVISIONS:
            divisor = node.rhs
            if not isinstance(divisor, AffineConstantExpr) or divisor.value <= 0:
                return (f"'{_DIVISIONS[node.kind]}' needs a positive integer constant on its "
                        f"right, got {divisor} (in {node})")
    return None


def _verify_integer_ranges(ops: list[Operation], fail: Fail) -> None:
    # Attributes repeat from op to op (`index`, one constant): each distinct integer or
    # integer type is looked at once. Any other attribute is keyed by identity (hashing
    # one that holds a deep affine expression recurses); `checked` keeps them alive so
    # that an id is never reused within the call.
    # Ops built from one template share attribute objects: an object already looked at is
    # skipped by its id before anything hashes its value.
    checked: dict[object, Attribute] = {}
    seen: set[int] = set()
    alive: list[Attribute] = []  # what `seen` holds ids of, so that an id stays unique
    by_value = (IntegerAttr, IndexType, IntegerType)
    for op in ops:
        for group in (op.attributes.values(), op.properties.values(),
                      [r.type for r in op.results]):
            for attr in group:
                if id(attr) in seen:
                    continue
                seen.add(id(attr))
                alive.append(attr)
                key = attr if isinstance(attr, by_value) else id(attr)
                if key in checked:
                    continue
                checked[key] = attr
                for item in _integers_and_affine_exprs(attr):
                    problem = _integer_problem(item)
                    if problem is not None:
                        raise fail(f"'{op.name}': {problem}", op)


def _verify_tile_shapes(ops: list[Operation], fail: Fail, warnings: list) -> None:
    """An access tile's type should have the shape of its set: the set's extents permuted
    by its order. The dialect's definition only requires the ranks to agree, so a
    mismatch is a warning naming both shapes (a load or store through such a tile is
    still an error when it runs: the data cannot take the type's shape). A set with
    symbols is checked when it runs, since its extents depend on their values."""
    for op in ops:
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
            raise fail(err.message, op) from None
        if extents != tuple(declared):
            shape = "x".join(map(str, extents))
            warnings.append(_warning(
                op, "tile-shape",
                f"{op.name}: the tile type says {'x'.join(map(str, declared))} but its "
                f"set spans {shape} (extents permuted by its order); the dialect checks "
                f"only the rank, but a load or store through it needs "
                f"!ktdp.access_tile<{shape}xindex>"))


def _verify_view_symbols(ops: list[Operation], warnings: list) -> None:
    """A view's coordinate set usually has one symbol per dynamic size; the dialect does
    not require it, so fewer symbols is a warning (they bind left to right)."""
    for op in ops:
        if not isinstance(op, ConstructMemoryViewOp):
            continue
        nsyms, ndyn = op.coordinate_set.data.num_symbols, len(op.sizes)
        if nsyms < ndyn:
            warnings.append(_warning(
                op, "view-symbols",
                f"{op.name}: coordinate_set has {nsyms} symbols for {ndyn} dynamic sizes; "
                f"the first {nsyms} dynamic sizes bind them, the others bind nothing"))
        shape = op.result.type.get_shape()
        for axis, (size, dim) in enumerate(zip(op.static_sizes.get_values(), shape)):
            if size != dim and dim != DYNAMIC_INDEX:
                said = "a dynamic size" if size == DYNAMIC_INDEX else f"size {size}"
                warnings.append(_warning(
                    op, "view-type",
                    f"{op.name}: dim {axis} has {said} but the memref type says {dim}; "
                    "the sizes and the coordinate set are what the view holds"))
                break


def _warning(op: Operation, code: str, message: str):
    from spyre_sched.polyhedral.checks import Diagnostic

    return Diagnostic("warning", code, message, op)


def _verify_loop_steps(ops: list[Operation], fail: Fail) -> None:
    """A `scf.for` whose step is a constant must have a positive one: a step of 0 never
    ends and a negative one is not a loop `scf.for` defines. (A step computed at run time
    is checked when the loop runs.)"""
    for op in ops:
        if not isinstance(op, ForOp):
            continue
        owner = op.step.owner
        if isinstance(owner, ConstantOp) and isinstance(owner.value, IntegerAttr):
            step = owner.value.value.data
            if step <= 0:
                raise fail(f"scf.for has step {step}; a loop's step must be positive", op)
