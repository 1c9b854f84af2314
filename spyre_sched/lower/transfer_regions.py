"""Which elements of a kernel view a transfer touches: per iteration, and over the whole
program, on each core.

The lowering orders a write and a read of one view's bytes by a pipeline's stages. Two
views of one tensor often overlap as wholes while the transfers touch different parts
(each loads or stores its own tile of rows); and a tile read then written back in place
(load, compute, store to the same elements) is read in an earlier stage than it is
written. Both are decided here on what the transfers touch, not on the views' extents:

- `TransferRegion.bytes_on(core)`: the byte interval the transfer can touch over every
  iteration of the loops around it (None: not known);
- `TransferRegion.per_iteration`: the subscripts and sizes as affine forms of the loop
  counters, so two transfers can be recognised as touching the same box in every
  iteration, and a loop whose counter moves that box by at least its size as giving
  each iteration its own box.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import func, scf
from xdsl.ir import Operation, SSAValue

from spyre_sched.dialects import ktdf
from spyre_sched.errors import SpyreSchedError
from spyre_sched.lower.values import Form

#: a loop counter (or parallel instance index): its first and last value and its step
Counter = tuple[int, int, int]


@dataclass(frozen=True)
class TransferRegion:
    view: SSAValue
    offsets: tuple[Form, ...]  # per dim, in the view's coordinates
    sizes: tuple[Form, ...]  # per dim: the extent moved (its largest value)
    size_bounds: tuple[int, ...]  # per dim: the largest extent moved
    counters: dict[SSAValue, Counter]  # the counters the forms may name

    def box_on(self, core: int) -> list[tuple[int, int]] | None:
        """[lo, hi] per dim over every iteration, on `core` (None: not known)."""
        box = []
        for offset, bound in zip(self.offsets, self.size_bounds):
            if offset.arg_terms():
                return None
            lo = hi = offset.const_at(core)
            for atom, coeff in offset.dyn_terms():
                counter = self.counters.get(atom)
                if counter is None:
                    return None
                a, b = coeff * counter[0], coeff * counter[1]
                lo, hi = lo + min(a, b), hi + max(a, b)
            box.append((lo, hi + bound - 1))
        return box


def _constant(form: Form | None) -> int | None:
    return form.value if form is not None and form.is_constant else None


class RegionFinder:
    """Forms of a program's index values, counters included, for `region`."""

    def __init__(self, fn: func.FuncOp, base_env: dict[SSAValue, Form], num_tiles: int,
                 index_form):
        """`index_form`: `program_units.index_form`, the forms of index arithmetic."""
        self.env: dict[SSAValue, Form] = dict(base_env)
        self.counters: dict[SSAValue, Counter] = {}
        self._index_form = index_form
        self._num_tiles = num_tiles
        self._walk(fn)

    def _form(self, value: SSAValue) -> Form | None:
        return self.env.get(value)

    def _counter(self, iv: SSAValue, lb: SSAValue, ub: SSAValue, step: SSAValue) -> None:
        lo, hi, st = (_constant(self._form(v)) for v in (lb, ub, step))
        self.env[iv] = Form.atom(iv)
        if lo is not None and hi is not None and st and hi > lo:
            self.counters[iv] = (lo, lo + (hi - lo - 1) // st * st, st)

    def _walk(self, op: Operation) -> None:
        for region in op.regions:
            for block in region.blocks:
                for child in block.ops:
                    self._visit(child)

    def _visit(self, op: Operation) -> None:
        if isinstance(op, scf.ForOp):
            self._counter(op.body.block.args[0], op.lb, op.ub, op.step)
        elif isinstance(op, ktdf.ParallelOp):
            for iv, lb, ub, st in zip(op.body.block.args, op.lower_bounds, op.upper_bounds,
                                      op.steps):
                self._counter(iv, lb, ub, st)
        elif op.results and op.results[0] not in self.env:
            try:
                form = self._index_form(op, self.env, self._num_tiles,
                                        ranges={iv: (c[0], c[1]) for iv, c in
                                                self.counters.items()})
            except (SpyreSchedError, KeyError, ValueError):
                form = None
            if form is None and isinstance(op, ktdf.DeriveSizeOp):
                form = self.env.get(op.size)  # a partial last tile: at most the full size
            if form is not None:
                self.env[op.results[0]] = form
        self._walk(op)

    def region(self, op: ktdf.DataTransferOp, view: SSAValue) -> TransferRegion | None:
        """What `op` touches of `view` (its source or its destination)."""
        if op.source is view:
            offsets, sizes = op.mixed_source_offsets(), op.mixed_source_sizes()
        elif op.dest is view:
            offsets, sizes = op.mixed_dest_offsets(), op.mixed_dest_sizes()
        else:
            return None
        if op.transfer_mode is not None and op.transfer_mode.data != "copy":
            return None
        forms, size_forms, bounds = [], [], []
        for offset, size in zip(offsets, sizes):
            o = Form.constant(offset) if isinstance(offset, int) else self._form(offset)
            s = Form.constant(size) if isinstance(size, int) else self._form(size)
            bound = _constant(s)
            if o is None or s is None or bound is None:
                return None
            forms.append(o)
            size_forms.append(s)
            bounds.append(bound)
        if len(forms) != len(offsets) or not forms:
            return None
        return TransferRegion(view, tuple(forms), tuple(size_forms), tuple(bounds),
                              self.counters)


def counters_around(op: Operation, stop: Operation) -> list[SSAValue]:
    """The loop counters and parallel instance indices of the loops between `op` and
    `stop` (exclusive), innermost first."""
    found: list[SSAValue] = []
    parent = op.parent_op()
    while parent is not None and parent is not stop:
        if isinstance(parent, scf.ForOp):
            found.append(parent.body.block.args[0])
        elif isinstance(parent, ktdf.ParallelOp):
            found.extend(parent.body.block.args)
        parent = parent.parent_op()
    return found


def own_box_each_iteration(region: TransferRegion, counters: list[SSAValue]) -> bool:
    """Every pair of different iterations of `counters` gives `region` disjoint boxes: each
    counter with more than one value moves the box in some dim whose counters nest like
    the digits of a number (each one's step at least the span of the finer ones plus the
    box's extent), so two iterations that differ in it differ there by a whole box."""
    separated: set[SSAValue] = set()
    for offset, bound in zip(region.offsets, region.size_bounds):
        terms = []
        for atom, coeff in offset.dyn_terms():
            known = region.counters.get(atom)
            if known is None:
                terms = None
                break
            if known[0] != known[1]:
                terms.append((abs(coeff) * known[2], abs(coeff) * (known[1] - known[0]), atom))
        if not terms:
            continue
        span = bound
        for stride, extent, _ in sorted(terms, key=lambda t: t[0]):
            if stride < span:
                break
            span += extent
        else:
            separated.update(atom for _, _, atom in terms)
    for counter in counters:
        known = region.counters.get(counter)
        if known is not None and known[0] == known[1]:
            continue  # one iteration
        if counter not in separated:
            return False
    return True
