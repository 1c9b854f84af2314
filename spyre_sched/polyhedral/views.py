"""Memory views as models: coordinate sets, memories, and the storage they occupy.

A `ViewModel` is one `ktdp.construct_memory_view`: its coordinate set (symbols bound to
the dynamic sizes), the memory it lives in, and its addressing
`address = offset + sum((c_k - min_k) * stride_k)` where `min_k` is the per-axis minimum
of the coordinate set. A `DistributedViewModel` is the union of its parts; a coordinate
belongs to the part whose coordinate set holds it (parts are taken as disjoint).

Everything is isl text over the kernel's variable names (see `affine_values`); `rename`
maps variable names to the names of one copy when two instances meet in one formula.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import islpy as isl
import numpy as np
from xdsl.dialects.builtin import DYNAMIC_INDEX, MemRefType
from xdsl.ir import Attribute
from xdsl.ir.affine import AffineExpr

from spyre_sched.dialects.ktdf import OWNER_BY_TILE_ATTR
from spyre_sched.dialects.ktdp import (
    ConstructDistributedMemoryViewOp,
    ConstructMemoryViewOp,
)
from spyre_sched.polyhedral.affine_values import AffineValues, Variable, VariableKind
from spyre_sched.polyhedral.point_sets import bounding_box, eval_affine_exprs
from spyre_sched.polyhedral.isl_text import make_set, pw_affine_text, set_text


@dataclass(frozen=True)
class MemoryRef:
    """Where a view lives: device memory, a given core's scratchpad, the own one, or a
    core given per tile (`table`: a view the normal form made with `ktdf.owner_by_tile`,
    tile t reaching core table[t]'s scratchpad)."""

    space: str  # "global" | "ct_local"
    core: int | None = None  # ct_id; None for global and for the executing tile's own
    table: tuple[int, ...] | None = None

    @property
    def own(self) -> bool:
        return self.space == "ct_local" and self.core is None

    def resolve(self, tile: int) -> MemoryRef:
        """The concrete memory for the executing tile `tile`."""
        if self.table is not None:
            return MemoryRef("ct_local", self.table[min(tile, len(self.table) - 1)])
        return MemoryRef("ct_local", tile) if self.own else self

    def core_cases(self, tile_name: str) -> list[tuple[str, str]]:
        """isl text of the memory's index as (condition on the tile, index) cases: -1 for
        global, else the core id."""
        if self.space == "global":
            return [("true", "-1")]
        if self.table is not None:
            return [(f"{tile_name} = {t}", str(c)) for t, c in enumerate(self.table)]
        return [("true", tile_name if self.core is None else str(self.core))]

    def __str__(self) -> str:
        if self.space == "global":
            return "global"
        if self.table is not None:
            return f"ct_local(core per tile: {', '.join(map(str, self.table))})"
        return "ct_local(own)" if self.core is None else f"ct_local(core {self.core})"


def same_core_text(a: MemoryRef, a_tile: str, b: MemoryRef, b_tile: str) -> str:
    """isl text: the memory `a` is for tile `a_tile` is the one `b` is for `b_tile`
    (their spaces are the same)."""
    cases = []
    for cond_a, core_a in a.core_cases(a_tile):
        for cond_b, core_b in b.core_cases(b_tile):
            if core_a.lstrip("-").isdigit() and core_b.lstrip("-").isdigit() \
                    and core_a != core_b:
                continue
            terms = [c for c in (cond_a, cond_b) if c != "true"]
            if core_a != core_b:
                terms.append(f"{core_a} = {core_b}")
            cases.append(" and ".join(terms) or "true")
    if not cases:
        return "false"
    return " or ".join(f"({c})" for c in cases) if len(cases) > 1 else cases[0]


def element_bytes(elt: Attribute) -> int:
    width = getattr(elt, "width", None) or getattr(elt, "bitwidth", None)
    if width is not None:
        width = width.data if hasattr(width, "data") else int(width)
        return max(1, (int(width) + 7) // 8)
    name = str(elt)
    if "df16" in name:
        return 2
    if name == "index":
        return 8
    return 2


def element_name(elt: Attribute) -> str:
    text = str(elt)
    return text[len("!spyreop."):] if text.startswith("!spyreop.") else text


def _eval(values: AffineValues, exprs, env: dict[str, int]) -> list[int]:
    syms = [env.get(v.name, 0) for v in values.variables]
    if not exprs:
        return []
    return [int(x) for x in eval_affine_exprs(list(exprs), np.zeros((1, 0), np.int64), syms)[0]]


class ViewModel:
    """One `ktdp.construct_memory_view`."""

    def __init__(self, op: ConstructMemoryViewOp, values: AffineValues):
        self.op = op
        self.values = values
        space = op.memory_space
        core = space.tile  # type: ignore[attr-defined]
        owners = op.attributes.get(OWNER_BY_TILE_ATTR)
        table = None
        if owners is not None and core is not None:
            table = tuple(int(c) for c in owners.get_values())  # type: ignore[attr-defined]
        self.memory = MemoryRef(space.space, core, table)  # type: ignore[attr-defined]
        mtype = op.result.type
        assert isinstance(mtype, MemRefType)
        self.element_type = mtype.element_type
        self.element_bytes = element_bytes(mtype.element_type)
        self.rank = len(mtype.get_shape())
        self.offset: AffineExpr = values.expr(op.offset)
        self.sizes = self._mixed(op.static_sizes.get_values(), op.sizes)
        self.strides = self._mixed(op.static_strides.get_values(), op.strides)
        self.coordinate_set = op.coordinate_set.data
        # The set's symbols bind to the dynamic sizes, left to right (a set may have
        # fewer symbols than there are dynamic sizes: the rest bind nothing).
        self.symbols = tuple(values.expr(v) for v in op.sizes)[: self.coordinate_set.num_symbols]
        used = values.of_expr(self.offset).used
        self.root: tuple[Variable, ...] = tuple(
            v for v in used if v.kind == VariableKind.ARGUMENT
        )

    def _mixed(self, static: Sequence[int], dynamic) -> tuple[AffineExpr, ...]:
        it = iter(dynamic)
        return tuple(
            self.values.expr(next(it)) if s == DYNAMIC_INDEX else AffineExpr.constant(s)
            for s in static
        )

    @property
    def parts(self) -> list[ViewModel]:
        return [self]

    # ---- isl text ----------------------------------------------------------------

    def contains_text(self, coords: Sequence[str], rename: dict[str, str] | None = None) -> str:
        """isl text: the coordinates `coords` are in this view's coordinate set."""
        syms = [self.values.text(s, rename) for s in self.symbols]
        return set_text(self.coordinate_set, list(coords), syms)

    def coordinate_set_isl(self) -> isl.Set:
        """The coordinate set, parameters = the kernel's variables it reaches (bounded by
        their context)."""
        coords = [f"c{k}" for k in range(self.rank)]
        text = self.contains_text(coords)
        names = self.values.reached(text)
        return make_set(names, coords, text).intersect_params(
            isl.Set(f"[{', '.join(names)}] -> "
                    f"{{ : {self.values.context(names=set(names))} }}"))

    @cached_property
    def minima(self) -> tuple[str, ...] | None:
        """Per-axis minimum of the coordinate set, as isl text (None if not affine)."""
        cset = self.coordinate_set_isl()
        if cset.is_empty():
            return None
        result = []
        for k in range(self.rank):
            text = pw_affine_text(cset.dim_min(k).coalesce())
            if text is None:
                return None
            result.append(text)
        return tuple(result)

    @cached_property
    def constant_strides(self) -> tuple[int, ...] | None:
        strides = []
        for s in self.strides:
            form = self.values.of_expr(s)
            if form.constant is None:
                return None
            strides.append(form.constant)
        return tuple(strides)

    def has_address(self) -> bool:
        return self.constant_strides is not None and self.minima is not None

    def address_text(self, coords: Sequence[str], rename: dict[str, str] | None = None) -> str:
        """isl text of the element address of coordinates `coords` (needs `has_address`)."""
        assert self.constant_strides is not None and self.minima is not None
        from spyre_sched.polyhedral.affine_values import rename_text

        terms = [self.values.text(self.offset, rename)]
        for c, m, s in zip(coords, self.minima, self.constant_strides):
            if s:
                terms.append(f"{s} * (({c}) - ({rename_text(m, rename or {})}))")
        return " + ".join(terms)

    def tile_text(self, rename: dict[str, str] | None = None) -> str:
        """isl name of the executing tile's id (in the instance `rename` names)."""
        tile = self.values.tile.name
        return (rename or {}).get(tile, tile)

    # ---- concrete evaluation -----------------------------------------------------

    def symbol_values(self, env: dict[str, int]) -> list[int]:
        return _eval(self.values, self.symbols, env)

    def concrete_minima(self, env: dict[str, int]) -> np.ndarray:
        """Per-axis minimum of the coordinate set with the variables of `env` bound."""
        lo, _ = bounding_box(self.coordinate_set, self.symbol_values(env))
        return lo

    def address_of(self, points, env: dict[str, int]) -> np.ndarray:
        """Element addresses of coordinates (N, rank) for the instance `env`.

        Pointer arguments take their value from `env` (0 gives pointer-relative addresses).
        """
        pts = np.asarray(points, dtype=np.int64).reshape(-1, self.rank)
        offset = _eval(self.values, [self.offset], env)[0]
        strides = np.asarray(_eval(self.values, self.strides, env), dtype=np.int64)
        return offset + (pts - self.concrete_minima(env)) @ strides

    @property
    def root_key(self) -> tuple[str, ...]:
        return tuple(v.name for v in self.root)

    def __repr__(self) -> str:
        return f"ViewModel({self.op.result.name_hint or '?'}, {self.memory})"


class DistributedViewModel:
    """One `ktdp.construct_distributed_memory_view`: the union of its parts."""

    def __init__(self, op: ConstructDistributedMemoryViewOp, parts: list[ViewModel]):
        self.op = op
        self.parts = parts
        mtype = op.result.type
        assert isinstance(mtype, MemRefType)
        self.element_type = mtype.element_type
        self.element_bytes = element_bytes(mtype.element_type)
        self.rank = len(mtype.get_shape())
        self.values = parts[0].values

    def contains_text(self, coords: Sequence[str], rename: dict[str, str] | None = None) -> str:
        return " or ".join(f"({p.contains_text(coords, rename)})" for p in self.parts)

    def coordinate_set_isl(self) -> isl.Set:
        result = self.parts[0].coordinate_set_isl()
        for p in self.parts[1:]:
            result = result.union(p.coordinate_set_isl())
        return result.coalesce()

    def __repr__(self) -> str:
        return f"DistributedViewModel({self.op.result.name_hint or '?'}, {len(self.parts)} parts)"


AnyViewModel = ViewModel | DistributedViewModel
