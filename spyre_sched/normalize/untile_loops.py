"""Normal-form pass `untile-loops`: a kernel's `scf.for` that walks a tile in blocks
becomes one chain over the whole extent it walks, where that is exact.

Kernels written by hand often tile a tile themselves: a row-wise LayerNorm loads
`gamma`/`beta` once and walks its rows with an `scf.for`; a user-chunked reduction walks
a row in chunks and carries the accumulator in `iter_args`. A program is a
load -> compute -> store chain in one block, so such a loop is folded: its body is
placed once before the loop, every access tile that moves with the induction variable
grows along the dim it moves in to cover all iterations, every tensor derived from them
grows the same way, a loop-carried accumulator starts from the loop's initial value, and
the loop's results are the body's yielded values. The scheduler then cuts the chain
into tiles of its own choosing (a reduction dim into chunks, a parallel dim into loops),
and a tensor loaded before the loop (gamma, beta) is a broadcast operand read once.

Folding is exact when the loop's iterations read and write disjoint blocks that tile the
extent without gaps: every access tile that moves, moves in one dim, by its own extent
per iteration. The loop needs constant bounds. A loop whose body is already a whole
chain (each iteration loads, computes and stores its own block; no tensor crosses the
loop boundary) is folded under the same conditions, so the user's block size becomes a
level of the pipeline nest whose size the scheduler still chooses; when that is not
provably exact (say its iterations update memory in place) it is left to the
orchestrator, which calls the program once per iteration.

A loop that cannot be folded carries its `iter_args` tensors through a slot of the
tile's own scratchpad (`carried_in_scratchpad.py`), and has the loads (and compute) its
body reads from before it cloned into its body (`sink_into_loops.py`) when that is exact:
each iteration is then a whole chain, called by the orchestrator. Otherwise it is
refused, with the reason, at the loop: a body with other control flow or side effects,
a subscript that is not affine in the induction variable, blocks that overlap or leave
gaps, a tensor that does not move with the loop read along the dim that does.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import affine, arith, scf, tensor
from xdsl.dialects.builtin import AffineSetAttr, IndexType, IntegerAttr, ModuleOp, TensorType
from xdsl.dialects.linalg.ops import FillOp, GenericOp
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from spyre_sched.xdsl_compat import has_no_side_effects
from spyre_sched.dialects import ktdp
from spyre_sched.dialects.linalg_ktir import inside_linalg_body
from spyre_sched.normalize.carried_in_scratchpad import carry_in_scratchpad
from spyre_sched.normalize.common import argument_hint, box_set, kernel_of
from spyre_sched.normalize.sink_into_loops import sink_into_loop
from spyre_sched.polyhedral.point_sets import box_bounds
from spyre_sched.schedule.common import constant_value, fail

NAME = "untile-loops"

#: a value's dependence on the induction variable: its coefficient, or None (not affine)
Coefficient = int | None


class Refuse(Exception):
    def __init__(self, message: str):
        self.message = message


def _linear(fn, coefficients: list[int]) -> Coefficient:
    """The coefficient of t in fn(base + t * coefficients), if it is the same at a few
    bases and steps (an affine expression of affine values); else None."""
    found = None
    for base in (0, 3, 17):
        values = [fn([base * (j + 1) + t * c for j, c in enumerate(coefficients)])
                  for t in (0, 1, 2)]
        one, two = values[1] - values[0], values[2] - values[0]
        if two != 2 * one or (found is not None and found != one):
            return None
        found = one
    return found


class BlockLoop:
    """What folding one loop needs to know about its body."""

    def __init__(self, loop: scf.ForOp):
        self.loop = loop
        self.body = loop.body.block
        self.iv = self.body.args[0]
        bounds = [constant_value(v) for v in (loop.lb, loop.ub, loop.step)]
        if any(b is None for b in bounds):
            raise Refuse("its bounds and step are not constants"
                         + argument_hint([loop.lb, loop.ub, loop.step]))
        self.lb, ub, self.step = bounds  # type: ignore[misc]
        if self.step <= 0 or ub <= self.lb:  # type: ignore[operator]
            raise Refuse("it runs no iteration")
        self.trips = -(-(ub - self.lb) // self.step)  # type: ignore[operator]
        self.coef: dict[SSAValue, Coefficient] = {}
        #: tensor values that move with the loop: the dim they grow along
        self.moving: dict[SSAValue, int] = {}
        #: access tiles that move: (dim, new bounds)
        self.tiles: dict[SSAValue, tuple[int, list[tuple[int, int]]]] = {}
        #: init values of generics that must grow: (value, dim)
        self.grow_init: dict[SSAValue, int] = {}
        #: the body's scalar ops (index arithmetic)
        self.coef_users: set[Operation] = set()

    # -- scalars ---------------------------------------------------------------------

    def coefficient(self, value: SSAValue) -> Coefficient:
        if value is self.iv:
            return 1
        if value in self.coef:
            return self.coef[value]
        owner = value.owner
        if not (isinstance(owner, Operation) and owner.parent_block() is self.body):
            return 0  # defined before the loop
        return self.coef.get(value, 0)

    def scalar(self, op: Operation) -> None:
        ins = [self.coefficient(v) for v in op.operands]
        if all(c == 0 for c in ins):
            c: Coefficient = 0
        elif any(c is None for c in ins):
            c = None
        elif isinstance(op, arith.AddiOp):
            c = ins[0] + ins[1]  # type: ignore[operator]
        elif isinstance(op, arith.SubiOp):
            c = ins[0] - ins[1]  # type: ignore[operator]
        elif isinstance(op, arith.MuliOp):
            consts = [constant_value(v) for v in op.operands]
            if consts[0] is not None:
                c = consts[0] * ins[1]  # type: ignore[operator]
            elif consts[1] is not None:
                c = consts[1] * ins[0]  # type: ignore[operator]
            else:
                c = None
        elif isinstance(op, affine.ApplyOp):
            amap = op.map.data
            c = _linear(lambda xs: amap.eval(xs[:amap.num_dims], xs[amap.num_dims:])[0],
                        ins)  # type: ignore[arg-type]
        else:
            c = None
        self.coef_users.add(op)
        for r in op.results:
            self.coef[r] = c

    # -- access tiles ----------------------------------------------------------------

    def tile(self, op: ktdp.ConstructAccessTileOp) -> None:
        if self.coefficient(op.view) != 0:
            raise Refuse("a view is built from its induction variable")
        ins = [self.coefficient(v) for v in op.indices]
        if all(c == 0 for c in ins):
            return
        base = op.base_map.data
        if any(c is None for c in ins):
            raise Refuse("a subscript of an access tile is not affine in its induction "
                          "variable")
        moves = []
        for j in range(len(base.results)):
            single = base.results[j]
            c = _linear(lambda xs, e=single: e.eval(xs[:base.num_dims], xs[base.num_dims:]),
                        ins)  # type: ignore[arg-type]
            if c is None:
                raise Refuse("a subscript of an access tile is not affine in its "
                              "induction variable")
            if c != 0:
                moves.append((j, c))
        if len(moves) != 1:
            raise Refuse("an access tile moves in more than one dim with the loop")
        dim, c = moves[0]
        bounds = box_bounds(op.access_tile_set.data, [])
        assert bounds is not None  # legality-check: rectangular tiles only
        lo, hi = bounds[dim]
        if c * self.step != hi - lo + 1:
            raise Refuse(f"its iterations' access tiles overlap or leave gaps (the tile "
                          f"moves by {c * self.step} per iteration in dim {dim}, its extent "
                          f"there is {hi - lo + 1})")
        grown = list(bounds)
        grown[dim] = (lo, lo + self.trips * (hi - lo + 1) - 1)
        self.tiles[op.result] = (dim, grown)

    # -- tensors ---------------------------------------------------------------------

    def _generic(self, op: GenericOp) -> None:
        maps = [m.data for m in op.indexing_maps.data]
        loop_dims = set()
        for value, amap in zip(op.inputs, maps):
            if value in self.moving:
                expr = amap.results[self.moving[value]]
                loop_dims.add(expr.position)  # type: ignore[attr-defined]
        if not loop_dims:
            if any(isinstance(v, BlockArgument) and v.owner is self.body for v in op.outputs):
                raise Refuse("a loop-carried value is updated by a compute that does not "
                              "move with the loop")
            return
        if len(loop_dims) > 1:
            raise Refuse("a compute reads tiles that move along different dims")
        loop_dim = loop_dims.pop()
        for value, amap in zip(op.inputs, maps):
            uses_dim = any(r.position == loop_dim  # type: ignore[attr-defined]
                           for r in amap.results)
            if uses_dim and value not in self.moving:
                raise Refuse("a compute reads a tensor that does not move with the loop "
                              "along the dim that does")
        kind = str(op.iterator_types.data[loop_dim].data)
        out = op.outputs[0]
        out_map = maps[len(op.inputs)]
        if kind == "reduction":
            if not (isinstance(out, BlockArgument) and out.owner is self.body):
                raise Refuse("a reduction over the dim the loop walks does not accumulate "
                              "into a loop-carried value")
            return  # the accumulator keeps its shape
        positions = [r.position for r in out_map.results]  # type: ignore[attr-defined]
        if loop_dim not in positions:
            raise Refuse("a compute drops the dim the loop walks without reducing it")
        if isinstance(out, BlockArgument):
            raise Refuse("a loop-carried value is the output of an elementwise compute "
                          "(only a reduction's accumulator can be carried)")
        out_dim = positions.index(loop_dim)
        self.grow_init[out] = out_dim
        self.moving[op.res[0]] = out_dim

    def analyse(self) -> None:
        for op in self.body.ops:
            if isinstance(op, scf.YieldOp):
                continue
            if isinstance(op, ktdp.ConstructAccessTileOp):
                self.tile(op)
            elif isinstance(op, ktdp.LoadOp):
                if op.tile in self.tiles:
                    self.moving[op.result] = self.tiles[op.tile][0]
            elif isinstance(op, ktdp.StoreOp):
                tile_dim = self.tiles.get(op.tile, (None,))[0]
                value_dim = self.moving.get(op.value)
                if tile_dim is None or value_dim != tile_dim:
                    raise Refuse("a store inside it does not move with the loop (every "
                                  "iteration would write the same place)")
            elif isinstance(op, GenericOp):
                self._generic(op)
            elif isinstance(op, tensor.EmptyOp | FillOp):
                pass
            elif op.regions or not has_no_side_effects(op):
                raise Refuse(f"its body holds {op.name} (only scalar arithmetic, access "
                              "tiles, loads, stores and linalg compute can be folded)")
            elif not any(isinstance(r.type, TensorType) for r in op.results):
                self.scalar(op)
            else:
                raise Refuse(f"its body holds {op.name} on tensors")
        # folding makes every load happen before every store: refuse a loop that stores
        # into memory it also loads (a later iteration could read an earlier one's write)
        loaded = {_memory(op.tile) for op in self.body.ops if isinstance(op, ktdp.LoadOp)}
        stored = {_memory(op.tile) for op in self.body.ops if isinstance(op, ktdp.StoreOp)}
        if loaded & stored:
            raise Refuse("it stores into memory it also loads (an iteration could read "
                          "what an earlier one wrote)")
        # the induction variable may only place access tiles: a value computed from it
        # and used otherwise (in a body, a view, a store) would differ per iteration
        for value in [self.iv, *(v for v, c in self.coef.items() if c != 0)]:
            for use in value.uses:
                user = use.operation
                placing = isinstance(user, ktdp.ConstructAccessTileOp) \
                    and value in user.indices
                scalar = user.parent_block() is self.body and user in self.coef_users
                if not (placing or scalar):
                    raise Refuse(f"its induction variable reaches {user.name} other than "
                                  "through an access tile's subscripts")
        # loop-carried values: each the accumulator of one reduction, yielded as its result
        yielded = list(self.body.last_op.operands)  # type: ignore[union-attr]
        for k, arg in enumerate(self.body.args[1:]):
            users = [u.operation for u in arg.uses]
            result = yielded[k]
            if len(users) != 1 or not isinstance(users[0], GenericOp) \
                    or arg not in users[0].outputs or result is not users[0].res[0]:
                raise Refuse("a loop-carried value is not the accumulator of one reduction "
                              "whose result the loop yields")
        # an output tensor that grows is made in the body for that compute alone
        for value in self.grow_init:
            owner = value.owner
            made = [value] + ([owner.outputs[0]] if isinstance(owner, FillOp) else [])
            for v in made:
                if not (isinstance(v.owner, tensor.EmptyOp | FillOp)
                        and v.owner.parent_block() is self.body and len(list(v.uses)) == 1):
                    raise Refuse("a compute that moves with the loop writes into a tensor "
                                  "made outside it or shared with another compute")

    # -- rewriting -------------------------------------------------------------------

    def fold(self) -> None:
        loop = self.loop
        point = InsertPoint.before(loop)
        lb = arith.ConstantOp(IntegerAttr(self.lb, IndexType()))
        Rewriter.insert_op(lb, point)
        mapping: dict[SSAValue, SSAValue] = {self.iv: lb.result}
        for arg, init in zip(self.body.args[1:], loop.iter_args):
            mapping[arg] = init
        fills: dict[SSAValue, int] = {}
        for value, dim in self.grow_init.items():
            owner = value.owner
            if isinstance(owner, FillOp):
                fills[owner.outputs[0]] = dim
        for op in self.body.ops:
            if isinstance(op, scf.YieldOp):
                for result, value in zip(loop.results, op.operands):
                    result.replace_all_uses_with(mapping.get(value, value))
                continue
            new = op.clone(value_mapper=mapping)
            if isinstance(op, ktdp.ConstructAccessTileOp) and op.result in self.tiles:
                dim, grown = self.tiles[op.result]
                new.properties["access_tile_set"] = AffineSetAttr(box_set(grown))
                new = _with_result_type(new, ktdp.AccessTileType(
                    [hi - lo + 1 for lo, hi in grown]))
            grow = None
            if op.results and op.results[0] in self.moving:
                grow = self.moving[op.results[0]]
            elif op.results and op.results[0] in self.grow_init:
                grow = self.grow_init[op.results[0]]
            elif op.results and op.results[0] in fills:
                grow = fills[op.results[0]]
            if grow is not None:
                t = op.results[0].type
                assert isinstance(t, TensorType)
                shape = list(t.get_shape())
                shape[grow] *= self.trips
                new = _with_result_type(new, TensorType(t.element_type, shape))
            Rewriter.insert_op(new, point)
            for old, fresh in zip(op.results, new.results):
                mapping[old] = fresh
                fresh.name_hint = old.name_hint
        Rewriter.erase_op(loop)


def _memory(tile: SSAValue) -> object:
    """What an access tile's view points into: the pointer value for device memory, the
    whole scratchpad for the tile's own (its views' offsets may overlap)."""
    owner = tile.owner
    # legality-check: every tile is built by one of the two
    assert isinstance(owner, ktdp.ConstructAccessTileOp | ktdp.ConstructIndirectAccessTileOp)
    view = owner.view.owner
    if isinstance(view, ktdp.ConstructMemoryViewOp) and view.memory_space.space != "ct_local":
        return view.offset
    return "ct_local"


def _with_result_type(op: Operation, result_type: Attribute) -> Operation:
    """`op` (not in a block yet) rebuilt with one result of `result_type`."""
    rebuilt = type(op).create(operands=list(op.operands), result_types=[result_type],
                              properties=dict(op.properties), attributes=dict(op.attributes),
                              regions=[op.detach_region(r) for r in list(op.regions)])
    op.erase()
    return rebuilt


def _needs_folding(loop: scf.ForOp) -> bool:
    """A loop whose body is not a set of whole chains: it carries tensors, or its body
    reads a tensor made before it."""
    if loop.iter_args:
        return True
    inside = set()
    for op in loop.body.block.ops:
        inside.add(op)
    for op in loop.walk():
        if op is loop or inside_linalg_body(op):
            continue
        for value in op.operands:
            if isinstance(value.type, TensorType) and isinstance(value.owner, Operation) \
                    and not loop.is_ancestor(value.owner):
                return True
    return False


def _inner_first(op: Operation) -> list[scf.ForOp]:
    """The `scf.for` loops under `op`, each after the loops it contains and after the
    loops before it in its block."""
    found: list[scf.ForOp] = []
    for region in op.regions:
        for block in region.blocks:
            for inner in block.ops:
                found.extend(_inner_first(inner))
    if isinstance(op, scf.ForOp):
        found.append(op)
    return found


@dataclass(frozen=True)
class UntileLoops(ModulePass):
    """Fold kernel `scf.for` loops that walk a tile in blocks, where that is exact."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in kernel_of(op):
            # innermost first (a folded inner loop leaves its parent a plain body), and
            # siblings in order (a loop reading what an earlier one makes sees it folded)
            for loop in _inner_first(fn):
                try:
                    state = BlockLoop(loop)
                    state.analyse()
                except Refuse as why:
                    if not _needs_folding(loop):
                        continue  # each iteration is already a whole chain: orchestrated
                    if loop.iter_args:
                        carried = carry_in_scratchpad(loop)
                        if carried is not None:
                            loop = carried  # orchestrated, carrying through a scratchpad
                            if not _needs_folding(loop) or sink_into_loop(loop):
                                continue
                    if sink_into_loop(loop):
                        continue  # left to the orchestrator, each iteration a whole chain
                    raise fail(loop, NAME, "not supported yet: a loop that threads tensors "
                               f"across its boundary and cannot be folded: {why.message}") \
                        from None
                state.fold()

