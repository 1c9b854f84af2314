"""The `agen` dialect: address generation for whole-tile transfers.

An access is an affine integer set over the tile's coordinates, an order (a permutation
map: lexicographic on its results, rightmost fastest) and per-coordinate strides in
elements; with a base byte address in a named memory it gives every point's address:
`base + element_bytes * sum(x_i * strides_i)`. The set must bound every coordinate by
constants (`d >= lo`, `-d + hi >= 0`); its bounding box, permuted by the order, is the
shape of the data moved. Box points outside the set are masked: read as zero, never written.
One op moves a whole tile; exact semantics and timing: docs/dataflowir.md.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from xdsl.dialects.builtin import (
    AffineMapAttr,
    AffineSetAttr,
    ArrayAttr,
    IndexType,
    IntAttr,
    StringAttr,
    VectorType,
)
from xdsl.ir import Attribute, Dialect, ParametrizedAttribute, TypeAttribute
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSet,
)
from xdsl.dialects.builtin import DenseArrayBase
from xdsl.irdl import (
    AnyAttr,
    ParsePropInAttrDict,
    var_operand_def,
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    param_def,
    prop_def,
    result_def,
)
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from spyre_sched.dialects.affine_maps import is_permutation


# ---------------------------------------------------------------------------------------
# Affine helpers (xdsl only: the dialect room may not import the polyhedral layer)
# ---------------------------------------------------------------------------------------


def linear_form(expr: AffineExpr) -> tuple[dict[int, int], int] | None:
    """`expr` as ({dim: coefficient}, constant), or None when it is not linear in the dims
    (symbols, mod, floordiv, ceildiv, products of dims)."""
    if isinstance(expr, AffineConstantExpr):
        return {}, expr.value
    if isinstance(expr, AffineDimExpr):
        return {expr.position: 1}, 0
    if isinstance(expr, AffineBinaryOpExpr):
        lhs, rhs = linear_form(expr.lhs), linear_form(expr.rhs)
        if lhs is None or rhs is None:
            return None
        if expr.kind == AffineBinaryOpKind.Add:
            coeffs = dict(lhs[0])
            for d, c in rhs[0].items():
                coeffs[d] = coeffs.get(d, 0) + c
            return {d: c for d, c in coeffs.items() if c}, lhs[1] + rhs[1]
        if expr.kind == AffineBinaryOpKind.Mul:
            if not lhs[0]:
                lhs, rhs = rhs, lhs
            if rhs[0]:
                return None
            k = rhs[1]
            return {d: c * k for d, c in lhs[0].items() if c * k}, lhs[1] * k
    return None


def box_bounds(aset: AffineSet) -> list[tuple[int, int]] | None:
    """Inclusive constant (lo, hi) per dim from the set's one-dim constraints, or None when
    some dim has no constant lower or upper bound there."""
    lows: list[int | None] = [None] * aset.num_dims
    highs: list[int | None] = [None] * aset.num_dims
    for constraint in aset.constraints:
        lhs, rhs = linear_form(constraint.lhs), linear_form(constraint.rhs)
        if lhs is None or rhs is None:
            continue
        coeffs = dict(lhs[0])
        for d, c in rhs[0].items():
            coeffs[d] = coeffs.get(d, 0) - c
        coeffs = {d: c for d, c in coeffs.items() if c}
        form = (coeffs, lhs[1] - rhs[1])
        kind = constraint.kind.value  # lhs - rhs `kind` 0
        if kind == "<=":
            form = ({d: -c for d, c in coeffs.items()}, -form[1])
        is_eq = kind == "=="
        if form is None or len(form[0]) != 1:
            continue
        (dim, coeff), const = next(iter(form[0].items())), form[1]
        # coeff * d + const >= 0 (or == 0)
        if is_eq:
            if const % coeff == 0:
                v = -const // coeff
                lows[dim] = v if lows[dim] is None else max(lows[dim], v)
                highs[dim] = v if highs[dim] is None else min(highs[dim], v)
        elif coeff > 0:
            v = -(const // coeff)  # d >= ceil(-const / coeff)
            lows[dim] = v if lows[dim] is None else max(lows[dim], v)
        else:
            v = const // -coeff  # d <= floor(const / -coeff)
            highs[dim] = v if highs[dim] is None else min(highs[dim], v)
    if any(v is None for v in lows + highs):
        return None
    return [(lo, hi) for lo, hi in zip(lows, highs)]  # type: ignore[misc]


# ---------------------------------------------------------------------------------------
# The access attribute
# ---------------------------------------------------------------------------------------


@irdl_attr_definition
class AccessAttr(ParametrizedAttribute):
    """`#agen.access<set = affine_set<...>, order = affine_map<...>, strides = [s0, ...]>`."""

    name = "agen.access"

    set: AffineSetAttr = param_def(AffineSetAttr)
    order: AffineMapAttr = param_def(AffineMapAttr)
    strides: ArrayAttr[IntAttr] = param_def(ArrayAttr[IntAttr])
    mask: AffineSetAttr = param_def(AffineSetAttr)
    """Box points outside this set are masked too (no constraints: none). It is how a box
    is masked along one dim (a partial last vector: `d1 <= 31` in a 64-lane box), which a
    one-dim constraint of `set` cannot say (it would shrink the box)."""

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        parser.parse_keyword("set")
        parser.parse_punctuation("=")
        aset = parser.parse_attribute()
        parser.parse_punctuation(",")
        parser.parse_keyword("order")
        parser.parse_punctuation("=")
        order = parser.parse_attribute()
        parser.parse_punctuation(",")
        parser.parse_keyword("strides")
        parser.parse_punctuation("=")
        strides = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, parser.parse_integer
        )
        mask = None
        if parser.parse_optional_punctuation(",") is not None:
            parser.parse_keyword("mask")
            parser.parse_punctuation("=")
            mask = parser.parse_attribute()
            if not isinstance(mask, AffineSetAttr):
                parser.raise_error("agen.access: `mask` must be an affine_set<...>")
        parser.parse_punctuation(">")
        if not isinstance(aset, AffineSetAttr):
            parser.raise_error("agen.access: `set` must be an affine_set<...>")
        if not isinstance(order, AffineMapAttr):
            parser.raise_error("agen.access: `order` must be an affine_map<...>")
        if mask is None:
            mask = AffineSetAttr(AffineSet(aset.data.num_dims, 0, ()))
        return (aset, order, ArrayAttr([IntAttr(s) for s in strides]), mask)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<set = ")
        printer.print_attribute(self.set)
        printer.print_string(", order = ")
        printer.print_attribute(self.order)
        printer.print_string(", strides = [")
        printer.print_string(", ".join(str(s) for s in self.stride_list))
        printer.print_string("]")
        if self.mask.data.constraints:
            printer.print_string(", mask = ")
            printer.print_attribute(self.mask)
        printer.print_string(">")

    @staticmethod
    def get(aset: AffineSet, order: AffineMap, strides: Sequence[int],
            mask: AffineSet | None = None) -> AccessAttr:
        if mask is None:
            mask = AffineSet(aset.num_dims, 0, ())
        return AccessAttr(
            AffineSetAttr(aset), AffineMapAttr(order), ArrayAttr([IntAttr(s) for s in strides]),
            AffineSetAttr(mask),
        )

    def constraints(self) -> tuple:
        """Every constraint a box point must meet to be moved: the set's and the mask's."""
        return (*self.set.data.constraints, *self.mask.data.constraints)

    @property
    def stride_list(self) -> tuple[int, ...]:
        return tuple(s.data for s in self.strides.data)  # type: ignore[attr-defined]

    def bounds(self) -> list[tuple[int, int]]:
        """Inclusive (lo, hi) of every set coordinate (the bounding box)."""
        found = box_bounds(self.set.data)
        assert found is not None, "verified accesses are bounded"
        return found

    def shape(self) -> tuple[int, ...]:
        """The shape of the data moved: box extents permuted by the order."""
        extents = [hi - lo + 1 for lo, hi in self.bounds()]
        return tuple(extents[r.position] for r in self.order.data.results)  # type: ignore[attr-defined]

    def verify(self) -> None:
        aset, order = self.set.data, self.order.data
        strides = self.stride_list
        if aset.num_symbols:
            raise VerifyException("agen.access: the set may not have symbols in this version")
        if len(strides) != aset.num_dims:
            raise VerifyException(
                f"agen.access: {len(strides)} strides for a set of {aset.num_dims} dims"
            )
        if order.num_dims != aset.num_dims or len(order.results) != aset.num_dims or not is_permutation(order):
            raise VerifyException(
                f"agen.access: the order {order} must be a permutation of the set's "
                f"{aset.num_dims} dims"
            )
        bounds = box_bounds(aset)
        if bounds is None:
            raise VerifyException(
                "agen.access: every coordinate needs a constant lower and upper bound "
                "(d >= lo and -d + hi >= 0)"
            )
        if any(hi < lo for lo, hi in bounds):
            raise VerifyException("agen.access: the set's bounding box is empty")
        mask = self.mask.data
        if mask.num_dims != aset.num_dims or mask.num_symbols:
            raise VerifyException(
                f"agen.access: the mask must be a set over the access's {aset.num_dims} dims "
                "without symbols")



def _element_bytes(element_type: Attribute) -> int | None:
    width = getattr(element_type, "bitwidth", None)
    if width is None:
        width = getattr(element_type, "width", None)
        width = getattr(width, "data", width)
    return None if width is None else max(1, int(width) // 8)


def _check_access(op: IRDLOperation, access: Attribute, what: str) -> AccessAttr:
    if not isinstance(access, AccessAttr):
        raise VerifyException(f"{op.name}: {what} must be an #agen.access<...>, got {access}")
    return access


def _check_shape(op: IRDLOperation, access: Attribute, value_type: Attribute, what: str) -> None:
    access = _check_access(op, access, "the access")
    if not isinstance(value_type, VectorType):
        raise VerifyException(f"{op.name}: {what} must be a vector")
    shape = tuple(value_type.get_shape())
    if shape != access.shape():
        raise VerifyException(
            f"{op.name}: {what} has shape {list(shape)} but the access moves "
            f"{list(access.shape())} (the set's extents permuted by its order)"
        )


def _check_memory(op: IRDLOperation, memory: StringAttr) -> None:
    if not memory.data:
        raise VerifyException(f"{op.name}: the memory name is empty")


# ---------------------------------------------------------------------------------------
# Ops
# ---------------------------------------------------------------------------------------


@irdl_op_definition
class VectorLoadOp(IRDLOperation):
    """`%v = agen.vector_load "lx"[%base] #agen.access<...> : vector<...>`: a load unit reads
    the access's points from memory, in order, into %v (masked points read 0)."""

    name = "agen.vector_load"

    base = operand_def(IndexType)
    memory = prop_def(StringAttr)
    access = prop_def(AnyAttr())  # an AccessAttr, written in full (#agen.access<...>)
    result = result_def(VectorType)

    assembly_format = "$memory `[` $base `]` $access attr-dict `:` type($result)"

    def __init__(self, memory: str, base, access: AccessAttr, type_: VectorType):
        super().__init__(
            operands=[base],
            properties={"memory": StringAttr(memory), "access": access},
            result_types=[type_],
        )

    def verify_(self) -> None:
        _check_memory(self, self.memory)
        _check_shape(self, self.access, self.result.type, "the result")


@irdl_op_definition
class VectorStoreOp(IRDLOperation):
    """`agen.vector_store %v to "lx"[%base] #agen.access<...> : vector<...>`: a store unit
    writes %v to the access's points, in order (masked points are skipped)."""

    name = "agen.vector_store"

    value = operand_def(VectorType)
    base = operand_def(IndexType)
    memory = prop_def(StringAttr)
    access = prop_def(AnyAttr())  # an AccessAttr, written in full (#agen.access<...>)

    assembly_format = "$value `to` $memory `[` $base `]` $access attr-dict `:` type($value)"

    def __init__(self, value, memory: str, base, access: AccessAttr):
        super().__init__(
            operands=[value, base],
            properties={"memory": StringAttr(memory), "access": access},
        )

    def verify_(self) -> None:
        _check_memory(self, self.memory)
        _check_shape(self, self.access, self.value.type, "the value")


@irdl_op_definition
class CompositeLoadAndStoreOp(IRDLOperation):
    """`agen.composite_load_and_store "ddr"[%src] #agen.access<...> to "lx"[%dst]
    #agen.access<...> : f16`: a DMA unit copies memory to memory; the k-th point of the
    source order goes to the k-th point of the target order (equal point counts; the shapes
    may differ, e.g. a transposing copy)."""

    name = "agen.composite_load_and_store"

    source_base = operand_def(IndexType)
    target_base = operand_def(IndexType)
    clip_values = var_operand_def(IndexType)
    source_memory = prop_def(StringAttr)
    source_access = prop_def(AnyAttr())  # AccessAttr
    target_memory = prop_def(StringAttr)
    target_access = prop_def(AnyAttr())  # AccessAttr
    element = prop_def(TypeAttribute)
    clip = opt_prop_def(AffineSetAttr)
    """A mask known only at run time (the edge of a view a tile may stick out of): a set
    over the `clip_side` access's dims whose symbols are `clip_values`; box points of
    that side outside it are masked, as points outside the access's own set are."""
    clip_side = opt_prop_def(StringAttr)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$source_memory `[` $source_base `]` $source_access `to` "
        "$target_memory `[` $target_base `]` $target_access "
        "(`clip` `(` $clip_values^ `)`)? attr-dict `:` $element"
    )

    def __init__(self, source_memory: str, source_base, source_access: AccessAttr,
                 target_memory: str, target_base, target_access: AccessAttr,
                 element: Attribute, clip: tuple[str, AffineSet, Sequence] | None = None):
        properties = {
            "source_memory": StringAttr(source_memory),
            "source_access": source_access,
            "target_memory": StringAttr(target_memory),
            "target_access": target_access,
            "element": element,
        }
        values: Sequence = ()
        if clip is not None:
            side, aset, values = clip
            properties["clip"] = AffineSetAttr(aset)
            properties["clip_side"] = StringAttr(side)
        super().__init__(operands=[source_base, target_base, list(values)], properties=properties)

    def verify_(self) -> None:
        _check_memory(self, self.source_memory)
        _check_memory(self, self.target_memory)
        _check_access(self, self.source_access, "the source access")
        _check_access(self, self.target_access, "the target access")
        if (self.clip is None) != (self.clip_side is None):
            raise VerifyException(f"{self.name}: `clip` and `clip_side` go together")
        if self.clip is not None:
            side = self.clip_side.data
            if side not in ("source", "target"):
                raise VerifyException(f"{self.name}: clip_side must be \"source\" or \"target\"")
            access = self.source_access if side == "source" else self.target_access
            clip = self.clip.data
            if clip.num_dims != access.set.data.num_dims or clip.num_symbols != len(self.clip_values):
                raise VerifyException(
                    f"{self.name}: the clip must be a set over the {side} access's "
                    f"{access.set.data.num_dims} dims with one symbol per clip value "
                    f"({len(self.clip_values)})")
        elif self.clip_values:
            raise VerifyException(f"{self.name}: clip values without a clip")
        source_points = math.prod(self.source_access.shape())
        target_points = math.prod(self.target_access.shape())
        if source_points != target_points:
            raise VerifyException(
                f"agen.composite_load_and_store: the source moves {source_points} points "
                f"({list(self.source_access.shape())}) but the target takes {target_points} "
                f"({list(self.target_access.shape())})"
            )
        if _element_bytes(self.element) is None:
            raise VerifyException(
                f"agen.composite_load_and_store: {self.element} is not an element type"
            )


@irdl_op_definition
class IndirectLoadAndStoreOp(IRDLOperation):
    """`agen.indirect_load_and_store "ddr"[%src] #agen.access<...> to "lx"[%dst]
    #agen.access<...> indices(%i0, ...) {indirect = "source", index_memory = "lx",
    index_accesses = [#agen.access<...>, ...], index_elements = [i32, ...],
    view_strides = array<i64: ...>, bounds = array<i64: lo0, hi0, ...>} : f16`: a DMA unit
    moves a gathered (indirect = "source") or scattered ("target") box. The indirect
    side's address of a point is its access's address plus, for each index j, the index
    value read at that point through `index_accesses[j]` (from `index_memory` at
    `indices[j]`) times `view_strides[j]`; an index value outside [lo_j, hi_j] is an
    error. Points are moved in order; runs of consecutive addresses form one descriptor
    each (docs/dataflowir.md)."""

    name = "agen.indirect_load_and_store"

    source_base = operand_def(IndexType)
    target_base = operand_def(IndexType)
    index_bases = var_operand_def(IndexType)
    source_memory = prop_def(StringAttr)
    source_access = prop_def(AnyAttr())  # AccessAttr
    target_memory = prop_def(StringAttr)
    target_access = prop_def(AnyAttr())  # AccessAttr
    indirect = prop_def(StringAttr)
    index_memory = prop_def(StringAttr)
    index_accesses = prop_def(ArrayAttr)
    index_elements = prop_def(ArrayAttr)
    view_strides = prop_def(DenseArrayBase)
    bounds = prop_def(DenseArrayBase)
    element = prop_def(TypeAttribute)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$source_memory `[` $source_base `]` $source_access `to` "
        "$target_memory `[` $target_base `]` $target_access `indices` `(` $index_bases `)` "
        "attr-dict `:` $element"
    )

    def verify_(self) -> None:
        _check_memory(self, self.source_memory)
        _check_memory(self, self.target_memory)
        _check_memory(self, self.index_memory)
        _check_access(self, self.source_access, "the source access")
        _check_access(self, self.target_access, "the target access")
        if self.indirect.data not in ("source", "target"):
            raise VerifyException(f"{self.name}: indirect must be \"source\" or \"target\"")
        n = len(self.index_bases)
        if not n or len(self.index_accesses.data) != n or len(self.index_elements.data) != n \
                or len(self.view_strides.get_values()) != n or len(self.bounds.get_values()) != 2 * n:
            raise VerifyException(f"{self.name}: one index access, element type, view stride "
                                  "and bound pair per index base (at least one)")
        side = self.source_access if self.indirect.data == "source" else self.target_access
        for access in self.index_accesses.data:
            _check_access(self, access, "an index access")
            if list(access.shape()) != list(side.shape()):
                raise VerifyException(f"{self.name}: an index access of shape "
                                      f"{list(access.shape())} for an indirect side of shape "
                                      f"{list(side.shape())}")
        for t in self.index_elements.data:
            if str(t) not in ("i32", "i64"):
                raise VerifyException(f"{self.name}: index element type {t} (i32 or i64)")
        source_points = math.prod(self.source_access.shape())
        target_points = math.prod(self.target_access.shape())
        if source_points != target_points:
            raise VerifyException(f"{self.name}: the source moves {source_points} points but "
                                  f"the target takes {target_points}")
        if _element_bytes(self.element) is None:
            raise VerifyException(f"{self.name}: {self.element} is not an element type")


AGEN = Dialect("agen", [VectorLoadOp, VectorStoreOp, CompositeLoadAndStoreOp,
                            IndirectLoadAndStoreOp], [AccessAttr])

__all__ = [
    "AccessAttr",
    "VectorLoadOp",
    "VectorStoreOp",
    "CompositeLoadAndStoreOp",
    "IndirectLoadAndStoreOp",
    "AGEN",
    "box_bounds",
    "linear_form",
]
