"""The `ktdp` dialect: KTIR's explicit memories and accesses.

Syntax (see docs/ktir.md):

    %t = ktdp.get_compute_tile_id : index
    %v = ktdp.construct_memory_view %off, sizes: [96, %n], strides: [%n, 1] {
           coordinate_set = affine_set<...>, memory_space = #ktdp.memory_space<global>
         } : memref<96x?xf16>
    %d = ktdp.construct_distributed_memory_view (%v0, %v1 : memref<..>, memref<..>) : memref<..>
    %a = ktdp.construct_access_tile %v[%i + 3, %c0] symbols(%s) {
           access_tile_set = affine_set<...>, access_tile_order = affine_map<...>
         } : memref<..> -> !ktdp.access_tile<3x64xindex>
    %g = ktdp.construct_indirect_access_tile intermediate_variables(%m, %k)
           %X[ind(%IDX[%m, %k]), (%k + 1)] {variables_space_set = .., variables_space_order = ..}
           : memref<..>, memref<..xi32> -> !ktdp.access_tile<..>
    %x = ktdp.load %a : !ktdp.access_tile<..> -> tensor<..>
    ktdp.store %x, %a : tensor<..>, !ktdp.access_tile<..>
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #set -> <(T, ...), groups = #g>
           { ^bb0(%gid: index): ktdp.yield_partial %x : T }
    %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #set
           [, producer_dependency_per_consumer = #dep] : <..> -> T
    %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #set, identity(%id : T)
           : <..> -> T { ^bb0(%l: T, %r: T): ... ktdp.yield_reduced %s : T }
    %n = ktdp.runtime_arg_extract value from %m : !ktdp.runtime_arg<index, granularity = 64,
           upperbound = 4096> -> index

Verifiers check what can be checked op by op (ranks, operand counts, permutations, ct_id
against the enclosing function's grid). Rules that need integer-set reasoning (extents,
out-of-bounds) live in `spyre_sched.polyhedral`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    AnyFloat,
    DYNAMIC_INDEX,
    AffineMapAttr,
    AffineSetAttr,
    ArrayAttr,
    DenseArrayBase,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    NoneAttr,
    StringAttr,
    TensorType,
    i64,
)
from xdsl.ir import (
    Attribute,
    Dialect,
    Operation,
    ParametrizedAttribute,
    SSAValue,
    TypeAttribute,
)
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineConstraintExpr,
    AffineConstraintKind,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSet,
    AffineSymExpr,
)
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsTerminator, NoMemoryEffect
from xdsl.utils.exceptions import VerifyException

from spyre_sched.dialects.affine_maps import is_permutation
from spyre_sched.xdsl_compat import (
    MLIRTokenKind,
    current_token,
    parse_affine_expr_with,
    parse_optional_token,
    printer_ssa_name,
)

# ---------------------------------------------------------------------------------------
# Attributes and types
# ---------------------------------------------------------------------------------------


class _MemorySpaceSyntax:
    """Shared syntax of the two memory-space spellings: `<GLOBAL>` or `<LOCAL[, KEY = k]>`.

    Subclasses name their two keywords and the key of the tile number; `.space` is always
    "global" or "ct_local" and `.tile` the named compute tile (None: the executing one).
    """

    GLOBAL_WORD: ClassVar[str]
    LOCAL_WORD: ClassVar[str]
    TILE_KEY: ClassVar[str]

    kind: StringAttr
    tile_id: IntAttr | NoneAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser):
        with parser.in_angle_brackets():
            kind = parser.parse_keyword_in(
                (cls.GLOBAL_WORD, cls.LOCAL_WORD), f" in #{cls.name}"  # type: ignore[attr-defined]
            )
            tile_id: IntAttr | NoneAttr = NoneAttr()
            if kind == cls.LOCAL_WORD and parser.parse_optional_punctuation(",") is not None:
                parser.parse_keyword(cls.TILE_KEY)
                parser.parse_punctuation("=")
                tile_id = IntAttr(parser.parse_integer(allow_boolean=False, allow_negative=False))
        return (StringAttr(kind), tile_id)

    def print_parameters(self, printer: Printer) -> None:
        text = self.kind.data
        if isinstance(self.tile_id, IntAttr):
            text += f", {self.TILE_KEY} = {self.tile_id.data}"
        printer.print_string(f"<{text}>")

    @property
    def space(self) -> str:
        return "global" if self.kind.data == self.GLOBAL_WORD else "ct_local"

    @property
    def tile(self) -> int | None:
        return self.tile_id.data if isinstance(self.tile_id, IntAttr) else None


@irdl_attr_definition
class MemorySpaceAttr(_MemorySpaceSyntax, ParametrizedAttribute):
    """`#ktdp.memory_space<global>` or `#ktdp.memory_space<ct_local[, ct_id = k]>`."""

    name = "ktdp.memory_space"
    GLOBAL_WORD: ClassVar[str] = "global"
    LOCAL_WORD: ClassVar[str] = "ct_local"
    TILE_KEY: ClassVar[str] = "ct_id"

    kind: StringAttr
    tile_id: IntAttr | NoneAttr


@irdl_attr_definition
class SpyreMemorySpaceAttr(ParametrizedAttribute):
    """Upstream's `#ktdp.spyre_memory_space<unspecified | LX | HBM | L0[, core = k]>`.

    HBM is device memory (`global`); LX (the shared on-chip scratchpad) and L0 (a core's
    own) are scratchpads (`ct_local`); `unspecified` (not yet decided) is read as device
    memory. A core affinity is valid only for LX and L0, as upstream's verifier says.
    Kept as written so text round-trips.
    """

    name = "ktdp.spyre_memory_space"
    KINDS: ClassVar[tuple[str, ...]] = ("unspecified", "LX", "HBM", "L0")
    LOCAL_KINDS: ClassVar[tuple[str, ...]] = ("LX", "L0")

    kind: StringAttr
    tile_id: IntAttr | NoneAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser):
        with parser.in_angle_brackets():
            kind = parser.parse_keyword_in(cls.KINDS, f" in #{cls.name}")
            tile_id: IntAttr | NoneAttr = NoneAttr()
            if parser.parse_optional_punctuation(",") is not None:
                parser.parse_keyword("core")
                parser.parse_punctuation("=")
                tile_id = IntAttr(parser.parse_integer(allow_boolean=False))
        return (StringAttr(kind), tile_id)

    def print_parameters(self, printer: Printer) -> None:
        text = self.kind.data
        if isinstance(self.tile_id, IntAttr):
            text += f", core = {self.tile_id.data}"
        printer.print_string(f"<{text}>")

    def verify(self) -> None:
        if self.kind.data not in self.KINDS:
            raise VerifyException(
                f"#ktdp.spyre_memory_space kind must be one of {', '.join(self.KINDS)}, "
                f"got {self.kind.data}")
        if isinstance(self.tile_id, IntAttr):
            if self.tile_id.data < 0:
                raise VerifyException(
                    f"#ktdp.spyre_memory_space: core affinity must be non-negative, got "
                    f"{self.tile_id.data}")
            if self.kind.data not in self.LOCAL_KINDS:
                raise VerifyException(
                    "#ktdp.spyre_memory_space: a core affinity is only valid for LX or L0, "
                    f"not {self.kind.data} (core = {self.tile_id.data})")

    @property
    def space(self) -> str:
        return "ct_local" if self.kind.data in self.LOCAL_KINDS else "global"

    @property
    def tile(self) -> int | None:
        return self.tile_id.data if isinstance(self.tile_id, IntAttr) else None


AnyMemorySpace = MemorySpaceAttr | SpyreMemorySpaceAttr


def _parse_shape(parser: AttrParser) -> tuple[list[int], Attribute]:
    shape, elt = parser.parse_ranked_shape()
    return shape, elt


def _print_shape(printer: Printer, shape: Sequence[int], elt: Attribute) -> None:
    for dim in shape:
        printer.print_string("?" if dim == DYNAMIC_INDEX else str(dim))
        printer.print_string("x")
    printer.print_attribute(elt)


@irdl_attr_definition
class AccessTileType(ParametrizedAttribute, TypeAttribute):
    """`!ktdp.access_tile<3x64xindex>`: the coordinates an access touches, as a tile."""

    name = "ktdp.access_tile"

    shape: ArrayAttr[IntAttr]
    element_type: Attribute

    def __init__(self, shape: Sequence[int], element_type: Attribute = IndexType()):
        super().__init__(ArrayAttr(IntAttr(d) for d in shape), element_type)

    @classmethod
    def parse_parameters(cls, parser: AttrParser):
        with parser.in_angle_brackets():
            shape, elt = _parse_shape(parser)
        return (ArrayAttr(IntAttr(d) for d in shape), elt)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            _print_shape(printer, self.get_shape(), self.element_type)

    def get_shape(self) -> tuple[int, ...]:
        return tuple(d.data for d in self.shape.data)

    def verify(self) -> None:
        if not isinstance(self.element_type, IndexType):
            raise VerifyException(
                f"!ktdp.access_tile holds coordinates: its element type must be index, "
                f"got {self.element_type}"
            )
        for axis, dim in enumerate(self.get_shape()):
            if dim != DYNAMIC_INDEX and dim <= 0:
                raise VerifyException(
                    f"!ktdp.access_tile extent {dim} of dim {axis} must be positive"
                )


@irdl_attr_definition
class RuntimeArgType(ParametrizedAttribute, TypeAttribute):
    """`!ktdp.runtime_arg<T[, granularity = G][, upperbound = U]>`: a run-time value.

    Both bounds are optional and may come in either order (upstream's grammar); the
    printer writes them granularity first, as upstream does. A missing bound is NoneAttr:
    use `.granularity_value` / `.upperbound_value` (None when absent).
    """

    name = "ktdp.runtime_arg"

    value_type: Attribute
    granularity: IntAttr | NoneAttr
    upperbound: IntAttr | NoneAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser):
        with parser.in_angle_brackets():
            value_type = parser.parse_type()
            values: dict[str, int] = {}
            while parser.parse_optional_punctuation(",") is not None:
                key = parser.parse_keyword_in(
                    ("granularity", "upperbound"), " in !ktdp.runtime_arg")
                if key in values:
                    parser.raise_error(f"duplicate '{key}' in !ktdp.runtime_arg")
                parser.parse_punctuation("=")
                values[key] = parser.parse_integer(allow_boolean=False)
        return (value_type, *(IntAttr(values[k]) if k in values else NoneAttr()
                              for k in ("granularity", "upperbound")))

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.value_type)
            for key in ("granularity", "upperbound"):
                value = getattr(self, key)
                if isinstance(value, IntAttr):
                    printer.print_string(f", {key} = {value.data}")

    @property
    def granularity_value(self) -> int | None:
        return self.granularity.data if isinstance(self.granularity, IntAttr) else None

    @property
    def upperbound_value(self) -> int | None:
        return self.upperbound.data if isinstance(self.upperbound, IntAttr) else None

    def verify(self) -> None:
        if not isinstance(self.value_type, IndexType | IntegerType | AnyFloat):
            raise VerifyException(
                f"!ktdp.runtime_arg value type must be index, an integer or a float, got "
                f"{self.value_type}"
            )
        for key in ("granularity", "upperbound"):
            value = getattr(self, key)
            if isinstance(value, IntAttr) and value.data <= 0:
                raise VerifyException(
                    f"!ktdp.runtime_arg {key} must be positive, got {value.data}")


@irdl_attr_definition
class TileFutureType(ParametrizedAttribute, TypeAttribute):
    """`!ktdp.tile_future<(T, ...), groups = affine_set<(g) : ...>>`.

    The values a group of producer tiles will deliver; `T` alone (no parentheses) is
    accepted for a single partial.
    """

    name = "ktdp.tile_future"

    partial_types: ArrayAttr[Attribute]
    groups: AffineSetAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser):
        with parser.in_angle_brackets():
            result = cls.parse_body(parser)
        return result

    @staticmethod
    def parse_body(parser: AttrParser) -> tuple[ArrayAttr, AffineSetAttr]:
        if parser.parse_optional_punctuation("(") is not None:
            types = parser.parse_comma_separated_list(
                parser.Delimiter.NONE, parser.parse_type
            )
            parser.parse_punctuation(")")
        else:
            types = [parser.parse_type()]
        parser.parse_punctuation(",")
        parser.parse_keyword("groups")
        parser.parse_punctuation("=")
        groups = parser.parse_attribute()
        if not isinstance(groups, AffineSetAttr):
            parser.raise_error("expected an affine_set for tile_future groups")
        return (ArrayAttr(types), groups)

    def print_body(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_list(self.partial_types.data, printer.print_attribute)
        printer.print_string("), groups = ")
        printer.print_attribute(self.groups)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            self.print_body(printer)

    def verify(self) -> None:
        if not self.partial_types.data:
            raise VerifyException("!ktdp.tile_future needs at least one partial type")
        groups = self.groups.data
        if groups.num_dims != 1 or groups.num_symbols != 0:
            raise VerifyException(
                "!ktdp.tile_future groups must be an affine_set<(g) : ...> over one group "
                f"id, got {groups.num_dims} dims and {groups.num_symbols} symbols"
            )


# ---------------------------------------------------------------------------------------
# Helpers shared by the custom formats
# ---------------------------------------------------------------------------------------


def enclosing_grid(op: Operation) -> tuple[int, ...] | None:
    """The `grid` of the function that holds `op`, or None outside a kernel."""
    parent = op.parent_op()
    while parent is not None:
        grid = parent.attributes.get("grid")
        if isinstance(grid, ArrayAttr):
            return tuple(
                g.value.data if isinstance(g, IntegerAttr) else g.data for g in grid.data
            )
        parent = parent.parent_op()
    return None


def _split_dict(
    attrs: dict[str, Attribute], keys: Sequence[str]
) -> tuple[dict[str, Attribute], dict[str, Attribute]]:
    props = {k: attrs.pop(k) for k in keys if k in attrs}
    return props, attrs


def _print_dict(printer: Printer, entries: dict[str, Attribute]) -> None:
    if not entries:
        return
    printer.print_string(" {")
    printer.print_list(
        entries.items(),
        lambda kv: (printer.print_string(f"{kv[0]} = "), printer.print_attribute(kv[1])),
    )
    printer.print_string("}")


def _parse_mixed_list(parser: Parser) -> tuple[list[int], list[UnresolvedOperand]]:
    """`[64, %n, 1]`: static integers and SSA values, dynamic ones as DYNAMIC_INDEX."""
    static: list[int] = []
    dynamic: list[UnresolvedOperand] = []

    def item():
        if (operand := parser.parse_optional_unresolved_operand()) is not None:
            dynamic.append(operand)
            static.append(DYNAMIC_INDEX)
        else:
            static.append(parser.parse_integer(allow_boolean=False))

    parser.parse_comma_separated_list(parser.Delimiter.SQUARE, item)
    return static, dynamic


def _print_mixed_list(printer: Printer, static: Sequence[int], dynamic: Sequence[SSAValue]):
    values = iter(dynamic)
    printer.print_string("[")
    printer.print_list(
        static,
        lambda s: printer.print_ssa_value(next(values))
        if s == DYNAMIC_INDEX
        else printer.print_string(str(s)),
    )
    printer.print_string("]")


def parse_ktdp_type(parser: AttrParser, kind: type) -> Attribute:
    """A ktdp type where the op's grammar fixes its kind: the full `!ktdp.name<...>` or
    the short `<...>` that MLIR's printer writes there (the dialect prefix elided)."""
    if current_token(parser).kind == MLIRTokenKind.LESS:
        return kind.new(kind.parse_parameters(parser))  # type: ignore[attr-defined]
    return parser.parse_type()


def print_ktdp_type(printer: Printer, attr: Attribute) -> None:
    """A ktdp type with its prefix elided, `<...>`, as upstream prints it in op syntax."""
    if isinstance(attr, AccessTileType | RuntimeArgType):
        attr.print_parameters(printer)
    else:
        printer.print_attribute(attr)


# ---------------------------------------------------------------------------------------
# Ops
# ---------------------------------------------------------------------------------------


@irdl_op_definition
class GetComputeTileIdOp(IRDLOperation):
    """This tile's id: one result (the linear id) or one result per grid dimension. More
    results than the grid has dimensions see it extended with dimensions of extent 1,
    whose coordinate is 0 (a `grid = [4]` kernel's `%x, %y` are (t, 0), as the public KTIR
    interpreter gives them): `coordinates_grid`."""

    name = "ktdp.get_compute_tile_id"

    ids = var_result_def(IndexType)
    traits = traits_def(NoMemoryEffect())

    def __init__(self, count: int = 1):
        super().__init__(result_types=[[IndexType()] * count])

    @classmethod
    def parse(cls, parser: Parser) -> GetComputeTileIdOp:
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        op = cls.create(result_types=types)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        _print_dict(printer, dict(self.attributes))
        printer.print_string(" : ")
        printer.print_list(self.result_types, printer.print_attribute)

    def verify_(self) -> None:
        if not self.ids:
            raise VerifyException("ktdp.get_compute_tile_id needs at least one result")
        grid = enclosing_grid(self)
        if grid is not None and 1 < len(self.ids) < len(grid):
            raise VerifyException(
                f"ktdp.get_compute_tile_id has {len(self.ids)} results but the grid "
                f"{list(grid)} has {len(grid)} dimensions (use 1 result for the linear id, "
                f"or at least {len(grid)}: one per dimension, any more of extent 1)"
            )


def coordinates_grid(grid: Sequence[int], results: int) -> tuple[int, ...]:
    """The grid as a `get_compute_tile_id` of `results` coordinates sees it: extended with
    dimensions of extent 1 (coordinate 0) up to that many."""
    return (*grid, *(1,) * (results - len(grid)))


def _whole_index_space(static_sizes: Sequence[int]) -> AffineSet:
    """{0 <= d_k < size_k}: a run-time size is the next symbol of the set (the view's
    dynamic sizes bind the set's symbols in order)."""
    constraints = []
    symbol = 0
    for k, size in enumerate(static_sizes):
        d = AffineExpr.dimension(k)
        if size == DYNAMIC_INDEX:
            upper = AffineExpr.symbol(symbol) - 1
            symbol += 1
        else:
            upper = AffineExpr.constant(size - 1)
        constraints.append(AffineConstraintExpr(AffineConstraintKind.ge, d,
                                                AffineExpr.constant(0)))
        constraints.append(AffineConstraintExpr(AffineConstraintKind.ge, upper - d,
                                                AffineExpr.constant(0)))
    return AffineSet(len(static_sizes), symbol, tuple(constraints))


@irdl_op_definition
class ConstructMemoryViewOp(IRDLOperation):
    """A strided view of memory at an element offset, in a memory space; no data moves."""

    name = "ktdp.construct_memory_view"

    offset = operand_def(IndexType)
    sizes = var_operand_def(IndexType)
    strides = var_operand_def(IndexType)
    static_sizes = prop_def(DenseArrayBase)
    static_strides = prop_def(DenseArrayBase)
    coordinate_set = prop_def(AffineSetAttr)
    memory_space = prop_def(AnyMemorySpace)
    result = result_def(MemRefType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(NoMemoryEffect())

    PROPS: ClassVar[tuple[str, ...]] = ("coordinate_set", "memory_space")

    @classmethod
    def parse(cls, parser: Parser) -> ConstructMemoryViewOp:
        offset = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        parser.parse_keyword("sizes")
        parser.parse_punctuation(":")
        static_sizes, dyn_sizes = _parse_mixed_list(parser)
        parser.parse_punctuation(",")
        parser.parse_keyword("strides")
        parser.parse_punctuation(":")
        static_strides, dyn_strides = _parse_mixed_list(parser)
        props, attrs = _split_dict(parser.parse_optional_attr_dict(), cls.PROPS)
        if "coordinate_set" not in props:
            # no coordinate set written: the whole index space the sizes give
            props["coordinate_set"] = AffineSetAttr(_whole_index_space(static_sizes))
        parser.parse_punctuation(":")
        result_type = parser.parse_type()
        index = IndexType()
        op = cls.build(
            operands=[
                parser.resolve_operand(offset, index),
                [parser.resolve_operand(o, index) for o in dyn_sizes],
                [parser.resolve_operand(o, index) for o in dyn_strides],
            ],
            properties={
                "static_sizes": DenseArrayBase.from_list(i64, static_sizes),
                "static_strides": DenseArrayBase.from_list(i64, static_strides),
                **props,
            },
            attributes=attrs,
            result_types=[result_type],
        )
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.offset)
        printer.print_string(", sizes: ")
        _print_mixed_list(printer, self.static_sizes.get_values(), self.sizes)
        printer.print_string(", strides: ")
        _print_mixed_list(printer, self.static_strides.get_values(), self.strides)
        entries = {k: self.properties[k] for k in self.PROPS if k in self.properties}
        entries.update(self.attributes)
        _print_dict(printer, entries)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        sizes = self.static_sizes.get_values()
        strides = self.static_strides.get_values()
        mtype = self.result.type
        assert isinstance(mtype, MemRefType)
        rank = len(mtype.get_shape())
        cset = self.coordinate_set.data
        if not (len(sizes) == len(strides) == rank == cset.num_dims):
            raise VerifyException(
                f"ktdp.construct_memory_view: rank mismatch: {len(sizes)} sizes, "
                f"{len(strides)} strides, memref rank {rank}, coordinate_set has "
                f"{cset.num_dims} dims; all four must agree"
            )
        n_dyn_sizes = sum(1 for s in sizes if s == DYNAMIC_INDEX)
        n_dyn_strides = sum(1 for s in strides if s == DYNAMIC_INDEX)
        if n_dyn_sizes != len(self.sizes) or n_dyn_strides != len(self.strides):
            raise VerifyException(
                "ktdp.construct_memory_view: dynamic size/stride markers do not match "
                "the SSA operands"
            )
        if cset.num_symbols > n_dyn_sizes:
            # Fewer symbols than dynamic sizes is allowed (the dialect does not tie them);
            # the front end warns. More cannot be bound to anything.
            raise VerifyException(
                f"ktdp.construct_memory_view: coordinate_set has {cset.num_symbols} "
                f"symbols but there are only {n_dyn_sizes} dynamic sizes to bind them to "
                "(symbols bind to the dynamic sizes, left to right)"
            )
        for axis, (size, dim) in enumerate(zip(sizes, mtype.get_shape())):
            if size != DYNAMIC_INDEX and size <= 0:
                raise VerifyException(
                    f"ktdp.construct_memory_view: size {size} of dim {axis} must be positive"
                )
            # A memref type whose extents differ from the sizes (or are static where a
            # size is dynamic) is allowed by the dialect: the front end warns.
        verify_memory_space(self, self.memory_space)


def verify_memory_space(op: Operation, space: Attribute) -> None:
    tile = space.tile  # type: ignore[attr-defined]
    grid = enclosing_grid(op)
    if tile is not None and grid is not None:
        count = 1
        for g in grid:
            count *= g
        if tile >= count:
            raise VerifyException(
                f"{op.name}: memory space names compute tile {tile}, but the grid "
                f"{list(grid)} has only {count} tiles"
            )


@irdl_op_definition
class ConstructDistributedMemoryViewOp(IRDLOperation):
    """One logical tensor assembled from several views (possibly in several scratchpads)."""

    name = "ktdp.construct_distributed_memory_view"

    views = var_operand_def(MemRefType)
    result = result_def(MemRefType)
    traits = traits_def(NoMemoryEffect())

    @classmethod
    def parse(cls, parser: Parser) -> ConstructDistributedMemoryViewOp:
        parser.parse_punctuation("(")
        operands = parser.parse_comma_separated_list(
            parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        parser.parse_punctuation(")")
        if len(types) != len(operands):
            parser.raise_error(f"expected {len(operands)} types, got {len(types)}")
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        result_type = parser.parse_type()
        views = [parser.resolve_operand(o, t) for o, t in zip(operands, types)]
        return cls.build(operands=[views], result_types=[result_type], attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" (")
        printer.print_list(self.views, printer.print_ssa_value)
        printer.print_string(" : ")
        printer.print_list((v.type for v in self.views), printer.print_attribute)
        printer.print_string(")")
        _print_dict(printer, dict(self.attributes))
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        if not self.views:
            raise VerifyException("ktdp.construct_distributed_memory_view needs views")
        rtype = self.result.type
        assert isinstance(rtype, MemRefType)
        for i, view in enumerate(self.views):
            vtype = view.type
            assert isinstance(vtype, MemRefType)
            if len(vtype.get_shape()) != len(rtype.get_shape()):
                raise VerifyException(
                    f"ktdp.construct_distributed_memory_view: view #{i} has rank "
                    f"{len(vtype.get_shape())}, the result has rank {len(rtype.get_shape())}"
                )
            if vtype.element_type != rtype.element_type:
                raise VerifyException(
                    f"ktdp.construct_distributed_memory_view: view #{i} holds "
                    f"{vtype.element_type}, the result holds {rtype.element_type}"
                )
            # Upstream takes any memrefs as parts; the analyses and the reference
            # interpreter say so when a part is not a ktdp.construct_memory_view.


def _parse_affine_map_of_ssa_ids(parser: Parser) -> tuple[AffineMap, list[SSAValue]]:
    return parser.parse_affine_map_of_ssa_ids()


def _print_ssa_affine_map(printer: Printer, amap: AffineMap, operands: Sequence[SSAValue]):
    # Operands bind the map's dims first, then its symbols.
    names = [_ssa_name(printer, v) for v in operands]

    def leaf(expr: AffineExpr) -> str:
        if isinstance(expr, AffineDimExpr):
            return f"%{names[expr.position]}"
        assert isinstance(expr, AffineSymExpr)
        return f"%{names[amap.num_dims + expr.position]}"

    printer.print_string("[")
    printer.print_list(amap.results, lambda e: printer.print_string(affine_expr_text(e, leaf)))
    printer.print_string("]")


@irdl_op_definition
class ConstructAccessTileOp(IRDLOperation):
    """The coordinates `{base + p : p in access_tile_set}` of a view, in a given order.

    `base` is the affine map `base_map` (no dims, one symbol per `indices` operand) and
    `symbols` bind the access_tile_set's own symbols.
    """

    name = "ktdp.construct_access_tile"

    view = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    tile_symbols = var_operand_def(IndexType)
    base_map = prop_def(AffineMapAttr)
    access_tile_set = prop_def(AffineSetAttr)
    access_tile_order = prop_def(AffineMapAttr)
    result = result_def(AccessTileType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(NoMemoryEffect())

    PROPS: ClassVar[tuple[str, ...]] = ("access_tile_set", "access_tile_order")

    @classmethod
    def parse(cls, parser: Parser) -> ConstructAccessTileOp:
        view = parser.parse_unresolved_operand()
        base_map, indices = _parse_affine_map_of_ssa_ids(parser)
        symbols: list[SSAValue] = []
        if parser.parse_optional_keyword("symbols") is not None:
            symbols = [
                parser.resolve_operand(o, IndexType())
                for o in parser.parse_comma_separated_list(
                    parser.Delimiter.PAREN, parser.parse_unresolved_operand
                )
            ]
        props, attrs = _split_dict(parser.parse_optional_attr_dict(), cls.PROPS)
        parser.parse_punctuation(":")
        view_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        return cls.build(
            operands=[parser.resolve_operand(view, view_type), list(indices), symbols],
            properties={"base_map": AffineMapAttr(base_map), **props},
            attributes=attrs,
            result_types=[result_type],
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.view)
        _print_ssa_affine_map(printer, self.base_map.data, self.indices)
        if self.tile_symbols:
            printer.print_string(" symbols(")
            printer.print_list(self.tile_symbols, printer.print_ssa_value)
            printer.print_string(")")
        entries = {k: self.properties[k] for k in self.PROPS if k in self.properties}
        entries.update(self.attributes)
        _print_dict(printer, entries)
        printer.print_string(" : ")
        printer.print_attribute(self.view.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        vtype = self.view.type
        assert isinstance(vtype, MemRefType)
        rank = len(vtype.get_shape())
        tset = self.access_tile_set.data
        order = self.access_tile_order.data
        base = self.base_map.data
        if base.num_dims + base.num_symbols != len(self.indices):
            raise VerifyException(
                f"ktdp.construct_access_tile: the subscript map takes "
                f"{base.num_dims + base.num_symbols} values but {len(self.indices)} "
                "are given"
            )
        if len(base.results) != rank:
            raise VerifyException(
                f"ktdp.construct_access_tile: {len(base.results)} subscripts for a view "
                f"of rank {rank}"
            )
        if tset.num_dims != rank:
            raise VerifyException(
                f"ktdp.construct_access_tile: access_tile_set has {tset.num_dims} dims, "
                f"the view has rank {rank}"
            )
        if tset.num_symbols != len(self.tile_symbols):
            raise VerifyException(
                f"ktdp.construct_access_tile: access_tile_set has {tset.num_symbols} "
                f"symbols but symbols(...) gives {len(self.tile_symbols)}"
            )
        if order.num_dims != rank or len(order.results) != rank or not is_permutation(order):
            raise VerifyException(
                f"ktdp.construct_access_tile: access_tile_order {order} must be a "
                f"permutation of the {rank} dims of the access_tile_set"
            )
        rtype = self.result.type
        assert isinstance(rtype, AccessTileType)
        if len(rtype.get_shape()) != rank:
            raise VerifyException(
                f"ktdp.construct_access_tile: result tile has rank "
                f"{len(rtype.get_shape())}, the view has rank {rank}"
            )


def symbols_as_dims(expr: AffineExpr, num_dims: int, num_symbols: int) -> AffineExpr:
    """`expr` with symbol k renamed dim `num_dims + k`: an indirect tile's subscripts mix
    its variables (dims) and outer values (symbols), and a linear form reads both alike."""
    dims = [AffineExpr.dimension(d) for d in range(num_dims)]
    syms = [AffineExpr.dimension(num_dims + k) for k in range(num_symbols)]
    return expr.replace_dims_and_symbols(dims, syms)


@irdl_op_definition
class ConstructIndirectAccessTileOp(IRDLOperation):
    """An access tile whose `ind(...)` dimensions read their coordinate from index tensors.

    Representation: the intermediate variables are the dims of every map; outer SSA
    values used in subscripts are the maps' symbols (`outer` operands). `dim_map` gives
    one expression per view dimension; for a dimension `k` with `ind_dims[k] = j >= 0`,
    the coordinate is `index_views[j][index_maps[j](vars)]` and `dim_map`'s result k is
    unused (0).
    """

    name = "ktdp.construct_indirect_access_tile"

    view = operand_def(MemRefType)
    index_views = var_operand_def(MemRefType)
    outer = var_operand_def(IndexType)
    #: `symbols(...)`: values bound to the variables_space_set's symbols
    tile_symbols = var_operand_def(IndexType)
    var_names = prop_def(ArrayAttr[StringAttr])
    ind_dims = prop_def(DenseArrayBase)
    dim_map = prop_def(AffineMapAttr)
    index_maps = prop_def(ArrayAttr[AffineMapAttr])
    variables_space_set = prop_def(AffineSetAttr)
    variables_space_order = prop_def(AffineMapAttr)
    result = result_def(AccessTileType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(NoMemoryEffect())

    PROPS: ClassVar[tuple[str, ...]] = ("variables_space_set", "variables_space_order")

    @classmethod
    def parse(cls, parser: Parser) -> ConstructIndirectAccessTileOp:
        parser.parse_keyword("intermediate_variables")

        def parse_var() -> str:
            tok = parse_optional_token(parser, MLIRTokenKind.PERCENT_IDENT)
            if tok is None:
                parser.raise_error("expected an intermediate variable name like %i")
            return tok.text[1:]

        var_names = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parse_var)
        var_pos = {name: i for i, name in enumerate(var_names)}
        outer_names: dict[str, int] = {}
        outer_operands: list[UnresolvedOperand] = []
        parse_affine_expr = parse_affine_expr_with(parser)

        def parse_id() -> AffineExpr | None:
            tok = parse_optional_token(parser, MLIRTokenKind.PERCENT_IDENT)
            if tok is None:
                return None
            name = tok.text[1:]
            if name in var_pos:
                return AffineExpr.dimension(var_pos[name])
            if name not in outer_names:
                outer_names[name] = len(outer_names)
                outer_operands.append(UnresolvedOperand(tok.span, 0))
            return AffineExpr.symbol(outer_names[name])

        view = parser.parse_unresolved_operand()
        index_views: list[UnresolvedOperand] = []
        index_exprs: list[list[AffineExpr]] = []
        ind_dims: list[int] = []
        dim_exprs: list[AffineExpr] = []

        def parse_subscript():
            if parser.parse_optional_keyword("ind") is not None:
                parser.parse_punctuation("(")
                index_views.append(parser.parse_unresolved_operand())
                index_exprs.append(
                    parser.parse_comma_separated_list(
                        parser.Delimiter.SQUARE, lambda: parse_affine_expr(parse_id)
                    )
                )
                parser.parse_punctuation(")")
                ind_dims.append(len(index_views) - 1)
                dim_exprs.append(AffineExpr.constant(0))
            else:
                ind_dims.append(-1)
                dim_exprs.append(parse_affine_expr(parse_id))

        parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parse_subscript)
        symbols: list[UnresolvedOperand] = []
        if parser.parse_optional_keyword("symbols") is not None:
            symbols = parser.parse_comma_separated_list(
                parser.Delimiter.PAREN, parser.parse_unresolved_operand
            )
        props, attrs = _split_dict(parser.parse_optional_attr_dict(), cls.PROPS)
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        if len(types) != 1 + len(index_views):
            parser.raise_error(
                f"expected {1 + len(index_views)} memref types (the view, then one per "
                f"ind(...) tensor), got {len(types)}"
            )
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        nvars, nsyms = len(var_names), len(outer_names)
        return cls.build(
            operands=[
                parser.resolve_operand(view, types[0]),
                [parser.resolve_operand(o, t) for o, t in zip(index_views, types[1:])],
                [parser.resolve_operand(o, IndexType()) for o in outer_operands],
                [parser.resolve_operand(o, IndexType()) for o in symbols],
            ],
            properties={
                "var_names": ArrayAttr(StringAttr(n) for n in var_names),
                "ind_dims": DenseArrayBase.from_list(i64, ind_dims),
                "dim_map": AffineMapAttr(AffineMap(nvars, nsyms, tuple(dim_exprs))),
                "index_maps": ArrayAttr(
                    AffineMapAttr(AffineMap(nvars, nsyms, tuple(e))) for e in index_exprs
                ),
                **props,
            },
            attributes=attrs,
            result_types=[result_type],
        )

    def print(self, printer: Printer) -> None:
        # Dims of the maps are intermediate variables (printed by name), symbols are the
        # outer SSA values; a variable is renamed if it would print like an outer value.
        outer_names = [_ssa_name(printer, v) for v in self.outer]
        var_names = _distinct_names([v.data for v in self.var_names.data], set(outer_names))

        def leaf(expr: AffineExpr) -> str:
            if isinstance(expr, AffineDimExpr):
                return f"%{var_names[expr.position]}"
            assert isinstance(expr, AffineSymExpr)
            return f"%{outer_names[expr.position]}"

        printer.print_string(" intermediate_variables(")
        printer.print_list(var_names, lambda v: printer.print_string(f"%{v}"))
        printer.print_string(") ")
        printer.print_ssa_value(self.view)
        printer.print_string("[")
        items = list(enumerate(self.ind_dims.get_values()))

        def print_item(item):
            k, j = item
            if j >= 0:
                printer.print_string("ind(")
                printer.print_ssa_value(self.index_views[j])
                printer.print_string("[")
                printer.print_list(
                    self.index_maps.data[j].data.results,
                    lambda e: printer.print_string(affine_expr_text(e, leaf)),
                )
                printer.print_string("])")
            else:
                printer.print_string("(")
                printer.print_string(affine_expr_text(self.dim_map.data.results[k], leaf))
                printer.print_string(")")

        printer.print_list(items, print_item)
        printer.print_string("]")
        if self.tile_symbols:
            printer.print_string(" symbols(")
            printer.print_list(self.tile_symbols, printer.print_ssa_value)
            printer.print_string(")")
        entries = {k: self.properties[k] for k in self.PROPS if k in self.properties}
        entries.update(self.attributes)
        _print_dict(printer, entries)
        printer.print_string(" : ")
        printer.print_list(
            [self.view.type, *(v.type for v in self.index_views)], printer.print_attribute
        )
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        vtype = self.view.type
        assert isinstance(vtype, MemRefType)
        rank = len(vtype.get_shape())
        ind = self.ind_dims.get_values()
        nvars = len(self.var_names.data)
        vset = self.variables_space_set.data
        if len(ind) != rank:
            raise VerifyException(
                f"ktdp.construct_indirect_access_tile: {len(ind)} subscripts for a view "
                f"of rank {rank}"
            )
        if vset.num_dims != nvars:
            raise VerifyException(
                f"ktdp.construct_indirect_access_tile: {nvars} intermediate_variables but "
                f"variables_space_set has {vset.num_dims} dims"
            )
        if vset.num_symbols != len(self.tile_symbols):
            raise VerifyException(
                f"ktdp.construct_indirect_access_tile: variables_space_set has "
                f"{vset.num_symbols} symbols but symbols(...) gives {len(self.tile_symbols)}"
            )
        if len(set(self.var_names.data)) != nvars:
            raise VerifyException(
                "ktdp.construct_indirect_access_tile: intermediate_variables names must "
                "be distinct"
            )
        used = sorted(j for j in ind if j >= 0)
        if used != list(range(len(self.index_views))) or len(self.index_maps.data) != len(
            self.index_views
        ):
            raise VerifyException(
                f"ktdp.construct_indirect_access_tile: {len(self.index_views)} index "
                f"tensors, {len(self.index_maps.data)} index maps and ind() dims {used} "
                "do not correspond one to one"
            )
        for amap in [self.dim_map, *self.index_maps.data]:
            if amap.data.num_dims != nvars or amap.data.num_symbols != len(self.outer):
                raise VerifyException(
                    f"ktdp.construct_indirect_access_tile: subscript map {amap.data} must "
                    f"have {nvars} dims (the variables) and {len(self.outer)} symbols "
                    "(the outer values)"
                )
        order = self.variables_space_order.data
        if order.num_dims != nvars or len(order.results) != nvars or not is_permutation(order):
            raise VerifyException(
                "ktdp.construct_indirect_access_tile: variables_space_order must be a "
                f"permutation of the {nvars} intermediate variables"
            )
        for j, (iview, imap) in enumerate(zip(self.index_views, self.index_maps.data)):
            itype = iview.type
            assert isinstance(itype, MemRefType)
            if not (
                isinstance(itype.element_type, IntegerType)
                and itype.element_type.width.data in (32, 64)
            ):
                raise VerifyException(
                    f"ktdp.construct_indirect_access_tile: index tensor #{j} must hold "
                    f"i32 or i64, not {itype.element_type}"
                )
            if len(imap.data.results) != len(itype.get_shape()):
                raise VerifyException(
                    f"ktdp.construct_indirect_access_tile: index tensor #{j} has rank "
                    f"{len(itype.get_shape())} but {len(imap.data.results)} subscripts"
                )
        rtype = self.result.type
        assert isinstance(rtype, AccessTileType)
        if len(rtype.get_shape()) != nvars:
            raise VerifyException(
                f"ktdp.construct_indirect_access_tile: result tile has rank "
                f"{len(rtype.get_shape())}, expected one dim per intermediate variable "
                f"({nvars})"
            )


# Binding strength of affine operators, as MLIR prints them (higher binds tighter).
_AFFINE_PRECEDENCE = {
    AffineBinaryOpKind.Add: 1,
    AffineBinaryOpKind.Mul: 2,
    AffineBinaryOpKind.Mod: 2,
    AffineBinaryOpKind.FloorDiv: 2,
    AffineBinaryOpKind.CeilDiv: 2,
}


def affine_expr_text(expr: AffineExpr, leaf, min_prec: int = 0) -> str:
    """Affine expression text, structurally, with `leaf(expr)` naming dims and symbols.

    Parenthesizes only where needed: a lower-precedence subexpression, or the right
    operand of a non-associative operator (`-`, `mod`, `floordiv`, `ceildiv`).
    """
    if isinstance(expr, AffineConstantExpr):
        return str(expr.value)
    if isinstance(expr, AffineDimExpr | AffineSymExpr):
        return leaf(expr)
    assert isinstance(expr, AffineBinaryOpExpr)
    prec = _AFFINE_PRECEDENCE[expr.kind]
    right_min = prec if expr.kind == AffineBinaryOpKind.Add else prec + 1
    text = (
        f"{affine_expr_text(expr.lhs, leaf, prec)} {expr.kind.get_token()} "
        f"{affine_expr_text(expr.rhs, leaf, right_min)}"
    )
    return f"({text})" if prec < min_prec else text


def _ssa_name(printer: Printer, value: SSAValue) -> str:
    """The name `printer` uses for `value`, assigning one without printing if needed."""
    return printer_ssa_name(printer, value)


def _distinct_names(names: Sequence[str], taken: set[str]) -> list[str]:
    """`names`, with any that clash with `taken` given a fresh `_v<k>` suffix."""
    result = []
    used = set(taken) | set(names)
    for name in names:
        if name in taken:
            k = 0
            while f"{name}_v{k}" in used:
                k += 1
            name = f"{name}_v{k}"
            used.add(name)
        result.append(name)
    return result


@irdl_op_definition
class LoadOp(IRDLOperation):
    """Read the coordinates of an access tile into a tensor (the only way to read)."""

    name = "ktdp.load"

    tile = operand_def(AccessTileType)
    result = result_def(TensorType)

    @classmethod
    def parse(cls, parser: Parser) -> LoadOp:
        tile = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        tile_type = parse_ktdp_type(parser, AccessTileType)
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        return cls.build(
            operands=[parser.resolve_operand(tile, tile_type)],
            result_types=[result_type],
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.tile)
        _print_dict(printer, dict(self.attributes))
        printer.print_string(" : ")
        print_ktdp_type(printer, self.tile.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        _verify_tile_tensor(self, self.tile.type, self.result.type)


@irdl_op_definition
class StoreOp(IRDLOperation):
    """Write a tensor to the coordinates of an access tile (the only way to write)."""

    name = "ktdp.store"

    value = operand_def(TensorType)
    tile = operand_def(AccessTileType)

    @classmethod
    def parse(cls, parser: Parser) -> StoreOp:
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        tile = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        value_type = parser.parse_type()
        parser.parse_punctuation(",")
        tile_type = parse_ktdp_type(parser, AccessTileType)
        return cls.build(
            operands=[
                parser.resolve_operand(value, value_type),
                parser.resolve_operand(tile, tile_type),
            ],
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.value)
        printer.print_string(", ")
        printer.print_ssa_value(self.tile)
        _print_dict(printer, dict(self.attributes))
        printer.print_string(" : ")
        printer.print_attribute(self.value.type)
        printer.print_string(", ")
        print_ktdp_type(printer, self.tile.type)

    def verify_(self) -> None:
        _verify_tile_tensor(self, self.tile.type, self.value.type)


def _verify_tile_tensor(op: Operation, tile_type: Attribute, tensor_type: Attribute) -> None:
    assert isinstance(tile_type, AccessTileType) and isinstance(tensor_type, TensorType)
    tshape = tile_type.get_shape()
    dshape = tuple(tensor_type.get_shape())
    if tshape != dshape:
        raise VerifyException(
            f"{op.name}: tensor shape {list(dshape)} does not match access tile shape "
            f"{list(tshape)}"
        )
    tile_op = op.operands[-1 if op.name == "ktdp.store" else 0].owner
    view = getattr(tile_op, "view", None)
    if view is not None and isinstance(view.type, MemRefType):
        if view.type.element_type != tensor_type.element_type:
            raise VerifyException(
                f"{op.name}: tensor element type {tensor_type.element_type} does not "
                f"match the view's {view.type.element_type}"
            )


@irdl_op_definition
class RuntimeArgExtractOp(IRDLOperation):
    """Read a run-time argument's `value`, or its static `granularity` / `upperbound`."""

    name = "ktdp.runtime_arg_extract"

    arg = operand_def(RuntimeArgType)
    field = prop_def(StringAttr)
    result = result_def()
    traits = traits_def(NoMemoryEffect())

    FIELDS: ClassVar[tuple[str, ...]] = ("value", "granularity", "upperbound")

    @classmethod
    def parse(cls, parser: Parser) -> RuntimeArgExtractOp:
        # Upstream: `$kind from $input : type($input) attr-dict -> type($result)`; an
        # attribute dictionary before the colon is accepted too.
        field = parser.parse_keyword_in(cls.FIELDS, " for ktdp.runtime_arg_extract")
        parser.parse_keyword("from")
        arg = parser.parse_unresolved_operand()
        attrs = dict(parser.parse_optional_attr_dict())
        parser.parse_punctuation(":")
        arg_type = parse_ktdp_type(parser, RuntimeArgType)
        attrs.update(parser.parse_optional_attr_dict())
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        return cls.build(
            operands=[parser.resolve_operand(arg, arg_type)],
            properties={"field": StringAttr(field)},
            attributes=attrs,
            result_types=[result_type],
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.field.data} from ")
        printer.print_ssa_value(self.arg)
        printer.print_string(" : ")
        print_ktdp_type(printer, self.arg.type)
        _print_dict(printer, dict(self.attributes))
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        field = self.field.data
        if field not in self.FIELDS:
            raise VerifyException(
                f"ktdp.runtime_arg_extract: field must be one of {', '.join(self.FIELDS)}"
            )
        rtype = self.arg.type
        assert isinstance(rtype, RuntimeArgType)
        if field == "value":
            if self.result.type != rtype.value_type:
                raise VerifyException(
                    f"ktdp.runtime_arg_extract: the result type {self.result.type} must be "
                    f"the run-time argument's type {rtype.value_type} when extracting value"
                )
            return
        if getattr(rtype, f"{field}_value") is None:
            raise VerifyException(
                f"ktdp.runtime_arg_extract: cannot extract {field} from a run-time "
                f"argument that has none ({rtype})"
            )
        if not isinstance(self.result.type, IndexType):
            raise VerifyException(
                f"ktdp.runtime_arg_extract: extracting {field} gives an index, not "
                f"{self.result.type}"
            )


# ---- inter-tile communication --------------------------------------------------------


def _parse_future_type(parser: Parser) -> TileFutureType:
    """`!ktdp.tile_future<...>` or the short form `<(T, ...), groups = ...>`."""
    if current_token(parser).kind == MLIRTokenKind.LESS:
        with parser.in_angle_brackets():
            types, groups = TileFutureType.parse_body(parser)
        return TileFutureType(types, groups)
    ftype = parser.parse_type()
    if not isinstance(ftype, TileFutureType):
        parser.raise_error(f"expected a !ktdp.tile_future type, got {ftype}")
    return ftype


def _print_future_type(printer: Printer, ftype: Attribute) -> None:
    """Op syntax uses the short form `<(T, ...), groups = ...>`."""
    assert isinstance(ftype, TileFutureType)
    with printer.in_angle_brackets():
        ftype.print_body(printer)


def _parse_named_set(parser: Parser, key: str) -> AffineSetAttr:
    parser.parse_keyword(key)
    parser.parse_punctuation("=")
    value = parser.parse_attribute()
    if not isinstance(value, AffineSetAttr):
        parser.raise_error(f"'{key}' must be an affine_set")
    return value


def _verify_tiles_per_group(op: Operation, name: str, tiles: AffineSetAttr) -> None:
    data = tiles.data
    if data.num_dims != 1 or data.num_symbols != 1:
        raise VerifyException(
            f"{op.name}: {name} must be an affine_set<(i)[g] : ...> over one tile id "
            f"and one group symbol, got {data.num_dims} dims and {data.num_symbols} symbols"
        )


@irdl_op_definition
class InterTileProduceOp(IRDLOperation):
    """Producer tiles of each group yield partial values into a tile future."""

    name = "ktdp.inter_tile_produce"

    producer_tiles_per_group = prop_def(AffineSetAttr)
    result = result_def(TileFutureType)
    body = region_def("single_block")

    @classmethod
    def parse(cls, parser: Parser) -> InterTileProduceOp:
        tiles = _parse_named_set(parser, "producer_tiles_per_group")
        attrs = parser.parse_optional_attr_dict()
        if parser.parse_optional_punctuation(":") is not None:
            # Older form: `: T -> !ktdp.tile_future<...>`; the partial types are in the future.
            parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        parser.parse_punctuation("->")
        ftype = _parse_future_type(parser)
        body = parser.parse_region()
        return cls.build(
            properties={"producer_tiles_per_group": tiles},
            attributes=attrs,
            result_types=[ftype],
            regions=[body],
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" producer_tiles_per_group = ")
        printer.print_attribute(self.producer_tiles_per_group)
        _print_dict(printer, dict(self.attributes))
        printer.print_string(" -> ")
        _print_future_type(printer, self.result.type)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=True)

    def verify_(self) -> None:
        _verify_tiles_per_group(self, "producer_tiles_per_group", self.producer_tiles_per_group)
        block = self.body.block
        if len(block.args) != 1 or not isinstance(block.args[0].type, IndexType):
            raise VerifyException(
                "ktdp.inter_tile_produce: the body takes one argument, the group id (index)"
            )
        last = block.last_op
        if not isinstance(last, YieldPartialOp):
            raise VerifyException("ktdp.inter_tile_produce: body must end in ktdp.yield_partial")
        ftype = self.result.type
        assert isinstance(ftype, TileFutureType)
        if [v.type for v in last.values] != list(ftype.partial_types.data):
            raise VerifyException(
                "ktdp.inter_tile_produce: yield_partial types do not match the future's "
                "partial types"
            )


@irdl_op_definition
class YieldPartialOp(IRDLOperation):
    name = "ktdp.yield_partial"

    values = var_operand_def()
    traits = lazy_traits_def(lambda: (IsTerminator(), HasParent(InterTileProduceOp)))

    @classmethod
    def parse(cls, parser: Parser) -> YieldPartialOp:
        return cls.build(operands=[_parse_values_with_types(parser)])

    def print(self, printer: Printer) -> None:
        _print_values_with_types(printer, self.values)


@irdl_op_definition
class YieldReducedOp(IRDLOperation):
    name = "ktdp.yield_reduced"

    values = var_operand_def()
    traits = lazy_traits_def(lambda: (IsTerminator(), HasParent(InterTileReduceOp)))

    @classmethod
    def parse(cls, parser: Parser) -> YieldReducedOp:
        return cls.build(operands=[_parse_values_with_types(parser)])

    def print(self, printer: Printer) -> None:
        _print_values_with_types(printer, self.values)


def _parse_values_with_types(parser: Parser) -> list[SSAValue]:
    operands = parser.parse_comma_separated_list(
        parser.Delimiter.NONE, parser.parse_unresolved_operand
    )
    parser.parse_punctuation(":")
    types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
    if len(types) != len(operands):
        parser.raise_error(f"expected {len(operands)} types, got {len(types)}")
    return [parser.resolve_operand(o, t) for o, t in zip(operands, types)]


def _print_values_with_types(printer: Printer, values: Sequence[SSAValue]) -> None:
    printer.print_string(" ")
    printer.print_list(values, printer.print_ssa_value)
    printer.print_string(" : ")
    printer.print_list((v.type for v in values), printer.print_attribute)


def _verify_delivery_types(op: Operation, future: SSAValue, results: Sequence[SSAValue]):
    ftype = future.type
    assert isinstance(ftype, TileFutureType)
    partials = list(ftype.partial_types.data)
    if len(results) != len(partials):
        raise VerifyException(
            f"{op.name}: {len(results)} results for a future of {len(partials)} partials"
        )
    for i, (res, part) in enumerate(zip(results, partials)):
        if not (isinstance(res.type, TensorType) and isinstance(part, TensorType)):
            if res.type != part:
                raise VerifyException(
                    f"{op.name}: result #{i} has type {res.type}, the partial is {part}"
                )
            continue
        if res.type.element_type != part.element_type or res.type.element_count() != (
            part.element_count()
        ):
            raise VerifyException(
                f"{op.name}: result #{i} type {res.type} must hold the same elements as "
                f"the partial type {part}"
            )


@irdl_op_definition
class InterTileConsumeOp(IRDLOperation):
    """Consumers receive one producer's partial: a broadcast, or routed per consumer."""

    name = "ktdp.inter_tile_consume"

    future = operand_def(TileFutureType)
    consumer_tiles_per_group = prop_def(AffineSetAttr)
    producer_dependency_per_consumer = opt_prop_def(AffineSetAttr)
    results_ = var_result_def()

    @classmethod
    def parse(cls, parser: Parser) -> InterTileConsumeOp:
        parser.parse_punctuation("(")
        future = parser.parse_unresolved_operand()
        parser.parse_punctuation(")")
        props = {"consumer_tiles_per_group": _parse_named_set(parser, "consumer_tiles_per_group")}
        if parser.parse_optional_punctuation(",") is not None:
            props["producer_dependency_per_consumer"] = _parse_named_set(
                parser, "producer_dependency_per_consumer"
            )
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ftype = _parse_future_type(parser)
        parser.parse_punctuation("->")
        types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        return cls.build(
            operands=[parser.resolve_operand(future, ftype)],
            properties=props,
            attributes=attrs,
            result_types=[types],
        )

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_ssa_value(self.future)
        printer.print_string(") consumer_tiles_per_group = ")
        printer.print_attribute(self.consumer_tiles_per_group)
        if self.producer_dependency_per_consumer is not None:
            printer.print_string(", producer_dependency_per_consumer = ")
            printer.print_attribute(self.producer_dependency_per_consumer)
        _print_dict(printer, dict(self.attributes))
        printer.print_string(" : ")
        _print_future_type(printer, self.future.type)
        printer.print_string(" -> ")
        printer.print_list(self.result_types, printer.print_attribute)

    def verify_(self) -> None:
        _verify_tiles_per_group(self, "consumer_tiles_per_group", self.consumer_tiles_per_group)
        dep = self.producer_dependency_per_consumer
        if dep is not None and (dep.data.num_dims != 1 or dep.data.num_symbols != 1):
            raise VerifyException(
                "ktdp.inter_tile_consume: producer_dependency_per_consumer must be an "
                "affine_set<(p)[c] : ...> (producer index p serves consumer index c)"
            )
        _verify_delivery_types(self, self.future, self.results_)


@irdl_op_definition
class InterTileReduceOp(IRDLOperation):
    """Consumers receive the combination of their group's partials.

    The combiner region takes (lhs..., rhs...) and yields the combined values; it must be
    pure, associative and commutative, and `identity` is its neutral element.
    """

    name = "ktdp.inter_tile_reduce"

    future = operand_def(TileFutureType)
    identity = var_operand_def()
    consumer_tiles_per_group = prop_def(AffineSetAttr)
    results_ = var_result_def()
    combiner = region_def("single_block")



    @classmethod
    def parse(cls, parser: Parser) -> InterTileReduceOp:
        parser.parse_punctuation("(")
        future = parser.parse_unresolved_operand()
        parser.parse_punctuation(")")
        tiles = _parse_named_set(parser, "consumer_tiles_per_group")
        parser.parse_punctuation(",")
        parser.parse_keyword("identity")
        parser.parse_punctuation("(")
        identity = _parse_values_with_types(parser)
        parser.parse_punctuation(")")
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ftype = _parse_future_type(parser)
        parser.parse_punctuation("->")
        types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        region = parser.parse_region()
        return cls.build(
            operands=[parser.resolve_operand(future, ftype), identity],
            properties={"consumer_tiles_per_group": tiles},
            attributes=attrs,
            result_types=[types],
            regions=[region],
        )

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_ssa_value(self.future)
        printer.print_string(") consumer_tiles_per_group = ")
        printer.print_attribute(self.consumer_tiles_per_group)
        printer.print_string(", identity(")
        printer.print_list(self.identity, printer.print_ssa_value)
        printer.print_string(" : ")
        printer.print_list((v.type for v in self.identity), printer.print_attribute)
        printer.print_string(")")
        _print_dict(printer, dict(self.attributes))
        printer.print_string(" : ")
        _print_future_type(printer, self.future.type)
        printer.print_string(" -> ")
        printer.print_list(self.result_types, printer.print_attribute)
        printer.print_string(" ")
        printer.print_region(self.combiner, print_entry_block_args=True)

    def verify_(self) -> None:
        _verify_tiles_per_group(self, "consumer_tiles_per_group", self.consumer_tiles_per_group)
        _verify_delivery_types(self, self.future, self.results_)
        ftype = self.future.type
        assert isinstance(ftype, TileFutureType)
        partials = list(ftype.partial_types.data)
        if [v.type for v in self.identity] != partials:
            raise VerifyException(
                "ktdp.inter_tile_reduce: identity types must match the partial types"
            )
        block = self.combiner.block
        if [a.type for a in block.args] != partials + partials:
            raise VerifyException(
                "ktdp.inter_tile_reduce: the combiner takes (lhs..., rhs...) of the "
                "partial types"
            )
        last = block.last_op
        if not isinstance(last, YieldReducedOp) or [v.type for v in last.values] != partials:
            raise VerifyException(
                "ktdp.inter_tile_reduce: the combiner must end in ktdp.yield_reduced of "
                "the partial types"
            )
        for inner in block.walk():
            if inner.name.startswith("ktdp.") and not isinstance(inner, YieldReducedOp):
                raise VerifyException(
                    f"ktdp.inter_tile_reduce: the combiner must be pure; it contains {inner.name}"
                )


KTDP = Dialect(
    "ktdp",
    [
        GetComputeTileIdOp,
        ConstructMemoryViewOp,
        ConstructDistributedMemoryViewOp,
        ConstructAccessTileOp,
        ConstructIndirectAccessTileOp,
        LoadOp,
        StoreOp,
        RuntimeArgExtractOp,
        InterTileProduceOp,
        YieldPartialOp,
        InterTileConsumeOp,
        InterTileReduceOp,
        YieldReducedOp,
    ],
    [MemorySpaceAttr, SpyreMemorySpaceAttr, AccessTileType, RuntimeArgType, TileFutureType],
)

__all__ = [name for name in dir() if name.endswith(("Op", "Attr", "Type"))] + ["KTDP"]
