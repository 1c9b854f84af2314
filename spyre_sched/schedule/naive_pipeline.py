"""Pass 4, naive-pipeline: every compute becomes loops around a three-stage pipeline.

For each fused `linalg.generic` of a program (a "compute"), in order:

- the vector width w is the SIMD lanes of the device's vector compute unit for the
  compute's widest element type (f32 lanes when f16 and f32 mix), capped by the extent of
  the innermost (stick) dim;
- parallel dims become `scf.for` loops (step 1; the stick dim steps by w and the last,
  partial vector gets `ktdf.tiling.derive_size`); reduction dims become loops *inside*
  the stages, the compute stage carrying the accumulator in `iter_args` from the
  reduction's `linalg.fill` init;
- in the innermost parallel loop: `ktdf.pipeline { load stage: memory -> FIFO; compute
  stage: read FIFOs, linalg.generic on one vector, write FIFO; store stage: FIFO ->
  memory }`. FIFOs name the home memory kind and the compute unit kind
  (`"DDR" -> "sfu"`); path expansion makes them real.

A matmul-shaped compute (`dialects/linalg_matmul.py`) on a device with a matrix unit that
multiplies its operand type and accumulates at least as wide as its output runs on that
unit instead: its two output dims step by the array's rows and columns (an output dim
that is an operand's contiguous subscript by a whole vector of it instead, several passes
of the array, so its loads move whole sticks; the last block partial, `derive_size`), so
one step is an R x C block of the output fed by an A slab (R x w) and a B slab (w x C)
per step of the K loop.

An operand's home is the kernel view it is loaded from / stored to (subscripts are the
view's coordinates: `base + index`, the base computed once before the loops), or, for a
compute result used only by a later compute, an `intermediate` buffer in the scratchpad
holding all of it. A program with several computes (or intermediates) wraps them in a
pipeline that runs once, one stage per compute. An input that does not vary along the
stick dim is sent as a splat (one element widened to the whole vector).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, func, scf, tensor
from xdsl.dialects.linalg.ops import FillOp, GenericOp, IndexOp
from xdsl.dialects.builtin import (
    AffineMapAttr,
    MemRefType,
    ModuleOp,
    StringAttr,
    TensorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap, AffineSymExpr
from xdsl.passes import ModulePass
from xdsl.transforms.lower_affine import affine_expr_ops
from xdsl.rewriter import InsertPoint, Rewriter

from spyre_sched.dialects import ktdf, ktdp
from spyre_sched.polyhedral.point_sets import box_bounds
from spyre_sched.schedule.common import (
    device_of,
    fail,
    index_constant,
    programs,
)
from spyre_sched.schedule.copy_pipeline import CopyEnd, build_copy
from spyre_sched.schedule.ir_build import for_loop, pipeline
from spyre_sched.dialects.linalg_matmul import matmul_dims

NAME = "naive-pipeline"
COMPUTE_ATTR = "ktdf.compute"


@dataclass
class Home:
    """Where an operand lives outside the compute."""

    memref: SSAValue
    memory_kind: str
    base: list[SSAValue] | None  # per memref dim; None: tile-local (a buffer)
    name: str


@dataclass
class Operand:
    home: Home
    map: AffineMap  # iteration dims -> home dims
    element_type: Attribute
    splat: bool = False


@dataclass
class Compute:
    prefix: str  # decision-name prefix, e.g. "p0" or "p0.c1"
    generic: GenericOp
    extents: list[int]
    reduction: list[bool]
    width: int
    inputs: list[Operand]
    output: Operand
    init: FillOp | None
    unit: str
    before: list[Operation] = field(default_factory=list)  # base computations
    #: parallel dim -> positions per step, for a matmul on the matrix unit (its rows and
    #: columns); every other parallel dim steps by 1 (the stick dim by `width`)
    block: dict[int, int] = field(default_factory=dict)

    def slot(self, d: int) -> int:
        """How many positions of iteration dim `d` one step of the compute holds."""
        if d in self.block:
            return self.block[d]
        return self.width if d == self.stick else 1

    @property
    def rank(self) -> int:
        return len(self.extents)

    @property
    def stick(self) -> int:
        return self.rank - 1


def _element(t: Attribute) -> Attribute:
    return t.element_type if isinstance(t, TensorType | MemRefType) else t  # type: ignore[attr-defined]


def view_home(tile: ktdp.ConstructAccessTileOp, device, before: list[Operation]) -> Home:
    """The view of an access tile, with the coordinates of the tile's first point."""
    view_op = tile.view.owner
    if isinstance(view_op, ktdf.GatherViewOp):  # lives where the view it gathers from does
        view_op = view_op.source.owner
    assert isinstance(view_op, ktdp.ConstructMemoryViewOp)
    kind = device.memory_kind_for(view_op.memory_space.space)
    lows = [lo for lo, _ in box_bounds(tile.access_tile_set.data, [])]  # type: ignore[union-attr]
    base_map = tile.base_map.data
    bases = []
    for j, expr in enumerate(base_map.results):
        if lows[j] == 0 and isinstance(expr, AffineDimExpr):
            bases.append(tile.indices[expr.position])
            continue
        if lows[j] == 0 and isinstance(expr, AffineSymExpr):
            bases.append(tile.indices[base_map.num_dims + expr.position])
            continue
        # a subscript expression (`%row + %i`) or a set not starting at 0: the index
        # arithmetic that computes it, in the arith ops the lowering reads
        ops, value = affine_expr_ops(expr + lows[j], list(tile.indices[:base_map.num_dims]),
                                     list(tile.indices[base_map.num_dims:]))
        before.extend(ops)
        bases.append(value)
    name = view_op.offset.name_hint or "view"
    return Home(tile.view, kind, bases, name)


_WIDTH = {"f16": 16, "bf16": 16, "f32": 32}


def _runs_on_matrix_unit(generic: GenericOp, unit) -> bool:
    """Whether the matrix unit multiplies this matmul's operands (it states a MAC rate
    for their element type) and accumulates in the precision the kernel asks for (its
    accumulator is at least as wide as the generic's output)."""
    operands = {str(_element(v.type)) for v in generic.inputs}
    acc = str(_element(generic.outputs[0].type))
    if any(unit.macs(t) is None for t in operands):
        return False
    widest = unit.accumulator
    return widest is None or _WIDTH.get(acc, 64) <= _WIDTH.get(widest, 0)


def plan_computes(fn: func.FuncOp, index: int, device) -> tuple[list[Compute], list[Operation]]:
    """Describe every compute of a program; also returns the intermediate buffers."""
    generics = [op for op in fn.body.block.ops if isinstance(op, GenericOp)]
    if not generics:
        return [], []
    units = device.compute_units(compute_class="vector")
    if not units:
        raise fail(fn, NAME, f"device {device.name} has no vector compute unit")
    unit = units[0]
    scratch_kind = device.memory_kind_for("ct_local")
    homes: dict[SSAValue, Home] = {}
    intermediates: list[Operation] = []
    computes: list[Compute] = []
    for k, generic in enumerate(generics):
        prefix = f"p{index}" if len(generics) == 1 or k == 0 else f"p{index}.c{k}"
        maps = [m.data for m in generic.indexing_maps.data]
        extents = list(generic.get_static_loop_ranges())
        reduction = [str(t.data) == "reduction" for t in generic.iterator_types.data]
        types = {str(_element(v.type)) for v in [*generic.inputs, *generic.outputs]}
        try:
            lanes = min(unit.lanes(t) for t in types)
        except Exception as err:  # DeviceError: no lanes for a type
            raise fail(generic, NAME, str(getattr(err, "message", err))) from None
        width = min(lanes, extents[-1])
        # A reduction over an extent the vector does not divide ends in a partial vector
        # (`ktdf.tiling.derive_size` gives its length); the lowering keeps its padding
        # lanes out of the combiner (docs/dataflowir.md, "Partial vectors").
        before: list[Operation] = []
        inputs = []
        for value, amap in zip(generic.inputs, maps):
            home = homes.get(value)
            if home is None:
                owner = value.owner
                if not isinstance(owner, ktdp.LoadOp):
                    raise fail(generic, NAME, "not supported yet: a compute input that is "
                               "neither loaded nor computed in the program")
                home = view_home(owner.tile.owner, device, before)  # type: ignore[arg-type]
            inputs.append(Operand(home, amap, _element(value.type)))
        result = generic.res[0]
        stores = [u.operation for u in result.uses if isinstance(u.operation, ktdp.StoreOp)]
        if len(stores) > 1:
            raise fail(stores[1], NAME, "not supported yet: one result stored twice")
        if stores:
            home = view_home(stores[0].tile.owner, device, before)  # type: ignore[arg-type]
        else:
            rtype = result.type
            assert isinstance(rtype, TensorType)
            name = result.name_hint or f"tmp{k}"
            buffer = ktdf.BufferOp("intermediate", name, AffineMapAttr(AffineMap.identity(
                rtype.get_num_dims())), list(rtype.get_shape()),
                MemRefType(rtype.element_type, rtype.get_shape(), memory_space=StringAttr(scratch_kind)))
            intermediates.append(buffer)
            home = Home(buffer.result, scratch_kind, None, name)
        homes[result] = home
        init = generic.outputs[0].owner
        block: dict[int, int] = {}
        compute_unit = unit
        matrix = [u for u in device.compute_units(compute_class="matrix")
                  if _runs_on_matrix_unit(generic, u)]
        if matrix and matmul_dims(generic) is not None:
            # A matmul runs on the matrix unit: one step is a rows x cols block of the
            # output, the K loop walking the stick `width` positions at a time.
            compute_unit = matrix[0]
            m, n = matmul_dims(generic)  # type: ignore[misc]
            block = {m: compute_unit.matrix_rows, n: compute_unit.matrix_cols}
            # An output dim that is an operand's contiguous (last) subscript is read a
            # stick at a time: a block as wide as one vector of it (several passes of the
            # array), so the load unit moves whole sticks, not a few bytes of each.
            for operand_map, value in zip(maps[:2], generic.inputs):
                last = operand_map.results[-1].position  # type: ignore[attr-defined]
                if last in block:
                    block[last] = max(block[last], unit.lanes(str(_element(value.type))))
            block = {d: min(b, extents[d]) for d, b in block.items()}
        compute = Compute(prefix, generic, extents, reduction, width, inputs,
                          Operand(home, maps[-1], _element(result.type)),
                          init if isinstance(init, FillOp) else None, compute_unit.kind,
                          before, block)
        for operand in compute.inputs:
            operand.splat = (not reduction[compute.stick] and width > 1
                             and all(r.position != compute.stick for r in operand.map.results))  # type: ignore[attr-defined]
        computes.append(compute)
    return computes, intermediates


# ---------------------------------------------------------------------------------------
# Building one compute's loops and pipeline
# ---------------------------------------------------------------------------------------


class _Builder:
    def __init__(self, compute: Compute):
        self.c = compute
        self.consts: dict[int, SSAValue] = {}
        self.top: list[Operation] = []
        #: block dim -> this step's size (`derive_size`: the last block may be partial)
        self.blocks: dict[int, SSAValue] = {}

    def const(self, value: int) -> SSAValue:
        if value not in self.consts:
            op = index_constant(value)
            op.result.name_hint = f"c{value}"
            self.top.append(op)
            self.consts[value] = op.result
        return self.consts[value]

    # positions and sizes -------------------------------------------------------------

    def subscripts(self, operand: Operand, ivs: dict[int, SSAValue], out: list[Operation]):
        """Home subscripts for the current vector: base + index (views) or index."""
        subs = []
        for j, r in enumerate(operand.map.results):
            iv = ivs[r.position]  # type: ignore[attr-defined]
            if operand.home.base is None:
                subs.append(iv)
            else:
                add = arith.AddiOp(operand.home.base[j], iv)
                out.append(add)
                subs.append(add.result)
        return subs

    def sizes(self, amap: AffineMap, vector: SSAValue | None) -> list[SSAValue | int]:
        out: list[SSAValue | int] = []
        for r in amap.results:
            d = r.position  # type: ignore[attr-defined]
            if d in self.blocks:
                out.append(self.blocks[d])
            elif d == self.c.stick and vector is not None:
                out.append(vector)
            else:
                out.append(1)
        return out

    def full_sizes(self, vector: SSAValue | None) -> list[SSAValue | int]:
        return self.sizes(AffineMap.identity(self.c.rank), vector)

    def vector_size(self, iv: SSAValue, out: list[Operation]) -> SSAValue:
        op = ktdf.DeriveSizeOp(iv, self.const(self.c.width), self.const(self.c.extents[-1]))
        op.result.name_hint = "vec"
        out.append(op)
        return op.result

    # the nest ------------------------------------------------------------------------

    def build(self) -> list[Operation]:
        c = self.c
        parallel = [d for d in range(c.rank) if not c.reduction[d]]
        for d in range(c.rank):
            self.const(c.extents[d])

        def nest(level: int, ivs: dict[int, SSAValue]) -> list[Operation]:
            if level == len(parallel):
                return self.innermost(ivs)
            d = parallel[level]
            step = self.const(c.slot(d))
            def body(iv: SSAValue) -> list[Operation]:
                iv.name_hint = f"i{d}"
                return nest(level + 1, {**ivs, d: iv})

            return [for_loop(self.const(0), self.const(c.extents[d]), step, d, False, body)]

        body = nest(0, {})
        return [*c.before, *self.top, *body]

    def reduction_nest(self, ivs: dict[int, SSAValue],
                       fill, iter_args: Sequence[SSAValue] = ()) -> list[Operation]:
        """Loops over the reduction dims around `fill(ivs, vector, acc)`."""
        c = self.c
        dims = [d for d in range(c.rank) if c.reduction[d]]

        def nest(level: int, ivs: dict[int, SSAValue], acc) -> list[Operation]:
            if level == len(dims):
                return fill(ivs, acc)
            d = dims[level]
            step = self.const(c.width if d == c.stick else 1)

            def body(args):
                iv = args[0] if iter_args else args
                inner_acc = args[1] if iter_args else None
                ops = nest(level + 1, {**ivs, d: iv}, inner_acc)
                if inner_acc is not None and level + 1 < len(dims):
                    # an outer reduction loop carries the accumulator its inner loop returns
                    ops.append(scf.YieldOp(ops[-1].results[0]))
                return ops

            return [for_loop(self.const(0), self.const(c.extents[d]), step, d, True, body,
                             [acc] if acc is not None else [])]

        return nest(0, ivs, iter_args[0] if iter_args else None)

    def innermost(self, ivs: dict[int, SSAValue]) -> list[Operation]:
        c = self.c
        prologue: list[Operation] = []
        vector = None
        if not c.reduction[c.stick]:
            vector = self.vector_size(ivs[c.stick], prologue)
        self.blocks = {}
        for d, step in sorted(c.block.items()):
            size = ktdf.DeriveSizeOp(ivs[d], self.const(step), self.const(c.extents[d]))
            size.result.name_hint = "blk"
            prologue.append(size)
            self.blocks[d] = size.result
        vec_shape = [c.slot(d) for d in range(c.rank)]
        fifos_in = []
        for operand in c.inputs:
            shape = vec_shape if operand.splat else [
                c.slot(r.position) for r in operand.map.results]  # type: ignore[attr-defined]
            fifos_in.append(ktdf.FifoOp(ktdf.FifoSlotType(operand.home.memory_kind, c.unit,
                                                          shape, operand.element_type)))
        out_shape = [c.slot(r.position) for r in c.output.map.results]  # type: ignore[attr-defined]
        fifo_out = ktdf.FifoOp(ktdf.FifoSlotType(c.unit, c.output.home.memory_kind, out_shape,
                                                 c.output.element_type))
        uses_reduction = [any(c.reduction[r.position] for r in o.map.results)  # type: ignore[attr-defined]
                          for o in c.inputs]

        # Parallel-dim subscripts are computed once per iteration, before the pipeline.
        def load_one(k: int, ivs_now, out: list[Operation], vec) -> None:
            operand = c.inputs[k]
            subs = self.subscripts(operand, ivs_now, out)
            src_sizes = self.sizes(operand.map, vec)
            if operand.splat:
                out.append(ktdf.DataTransferOp(operand.home.memref, subs, src_sizes,
                                               fifos_in[k].result, [], self.full_sizes(vec),
                                               transfer_mode="splat"))
            else:
                out.append(ktdf.DataTransferOp(operand.home.memref, subs, src_sizes,
                                               fifos_in[k].result, [], src_sizes))

        load_ops: list[Operation] = []
        outer_ivs = dict(ivs)
        for k in range(len(c.inputs)):
            if not uses_reduction[k]:
                load_one(k, outer_ivs, load_ops, vector)
        if any(uses_reduction):
            def load_inner(ivs_now, _acc):
                ops: list[Operation] = []
                vec = self.vector_size(ivs_now[c.stick], ops) if c.reduction[c.stick] else vector
                for k in range(len(c.inputs)):
                    if uses_reduction[k]:
                        load_one(k, ivs_now, ops, vec)
                return ops
            load_ops += self.reduction_nest(ivs, load_inner)

        compute_ops = self.compute_stage(ivs, fifos_in, fifo_out, uses_reduction)
        store_ops: list[Operation] = []
        subs = self.subscripts(c.output, ivs, store_ops)
        out_sizes = self.sizes(c.output.map, vector)
        store_ops.append(ktdf.DataTransferOp(fifo_out.result, [], out_sizes,
                                             c.output.home.memref, subs, out_sizes))
        pipe = pipeline([*fifos_in, fifo_out],
                        [([], load_ops), ([c.unit], compute_ops), ([], store_ops)],
                        {COMPUTE_ATTR: StringAttr(c.prefix)})
        return [*prologue, pipe]

    def compute_stage(self, ivs, fifos_in, fifo_out, uses_reduction) -> list[Operation]:
        c = self.c
        generic = c.generic
        maps = [m.data for m in generic.indexing_maps.data]
        rank = c.rank
        out_type = TensorType(c.output.element_type,
                              [c.slot(r.position) for r in c.output.map.results])  # type: ignore[attr-defined]

        def read(k: int, ops: list[Operation]) -> SSAValue:
            slot = fifos_in[k].result.type
            op = ktdf.ReadFromFifoOp.build(operands=[fifos_in[k].result], result_types=[
                TensorType(slot.element_type, slot.get_shape())])
            ops.append(op)
            return op.results[0]

        def apply(values: list[SSAValue], init: SSAValue, ops: list[Operation]) -> SSAValue:
            new_maps = [AffineMap.identity(rank) if o.splat else maps[k]
                        for k, o in enumerate(c.inputs)] + [maps[-1]]
            body = generic.body.clone()
            if not any(c.reduction):
                _positions_from(body, ivs)
            op = GenericOp(values, [init], body,
                                  [AffineMapAttr(m) for m in new_maps],
                                  list(generic.iterator_types.data), [out_type])
            ops.append(op)
            return op.res[0]

        ops: list[Operation] = []
        outer_values = {k: read(k, ops) for k in range(len(c.inputs)) if not uses_reduction[k]}
        empty = tensor.EmptyOp([], out_type)
        ops.append(empty)
        init: SSAValue = empty.tensor
        if c.init is not None:
            fill = FillOp((c.init.inputs[0],), (init,), (out_type,))
            ops.append(fill)
            init = fill.res[0]
        if any(c.reduction):
            def step(ivs_now, acc):
                inner: list[Operation] = []
                values = [outer_values[k] if k in outer_values else read(k, inner)
                          for k in range(len(c.inputs))]
                result = apply(values, acc, inner)
                inner.append(scf.YieldOp(result))
                return inner
            loops = self.reduction_nest(ivs, step, [init])
            ops += loops
            result = loops[0].results[0]
        else:
            result = apply([outer_values[k] for k in range(len(c.inputs))], init, ops)
        ops.append(ktdf.WriteToFifoOp.build(operands=[result, fifo_out.result]))
        return ops


@dataclass(frozen=True)
class NaivePipeline(ModulePass):
    """Loops to the SIMD width around a load -> compute -> store pipeline per compute."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        device = device_of(op, NAME)
        for index, fn in list(programs(op)):
            computes, intermediates = plan_computes(fn, index, device)
            order = {o: k for k, o in enumerate(fn.body.block.ops)}
            # (position in the program, unit kinds, ops): computes and plain copies run
            # in the order the kernel wrote them
            nests = [(order[c.generic], [c.unit], _Builder(c).build()) for c in computes]
            copies = [o for o in fn.body.block.ops if isinstance(o, ktdp.StoreOp)
                      and isinstance(o.value.owner, ktdp.LoadOp)]
            for k, store in enumerate(copies):
                prefix = (f"p{index}" if not computes and k == 0
                          else f"p{index}.c{len(computes) + k}")
                units, ops = _copy_nest(prefix, store, device)
                nests.append((order[store], units, ops))
            if not nests:
                raise fail(fn, NAME, "a program that stores nothing it loads or computes")
            nests.sort(key=lambda n: n[0])
            if len(nests) == 1 and not intermediates:
                new_ops = nests[0][2]
            else:
                new_ops = [pipeline(intermediates, [(units, n) for _, units, n in nests])]
            ret = fn.body.block.last_op
            assert ret is not None
            Rewriter.insert_op(new_ops, InsertPoint.before(ret))
            _erase_kernel_compute(fn)


def _positions_from(body, ivs: dict[int, SSAValue]) -> None:
    """A `linalg.index` of a compute on one step's vector counts from the step: add the
    step's position along its dim (the loop counter), so the body sees the element's
    position in the whole compute, as the kernel wrote it."""
    for index in [o for o in body.walk() if isinstance(o, IndexOp)]:
        local = index.result
        position = arith.AddiOp(ivs[index.dim.value.data], local)
        Rewriter.insert_op(position, InsertPoint.after(index))
        local.replace_all_uses_with(position.result)
        position.operands[1] = local


def _copy_nest(prefix: str, store: ktdp.StoreOp, device) -> tuple[list[str], list[Operation]]:
    """A plain copy's DMA-only nest (`copy_pipeline.py`) and the unit kinds it uses."""
    load = store.value.owner
    assert isinstance(load, ktdp.LoadOp)
    before: list[Operation] = []
    ends = []
    for tile in (load.tile.owner, store.tile.owner):
        home = view_home(tile, device, before)  # type: ignore[arg-type]
        assert home.base is not None
        ends.append(CopyEnd(home.memref, home.memory_kind, home.base, home.name))
    ops = [*before, *build_copy(prefix, store, ends[0], ends[1], device, NAME)]
    units: list[str] = []
    for o in ops:
        for s in o.walk():
            if isinstance(s, ktdf.StageOp):
                units += [u for u in s.units if u not in units]
    return units, ops


def _erase_kernel_compute(fn: func.FuncOp) -> None:
    """Remove the loads, generics, stores, fills and empties the pipeline replaced, then
    the access tiles nothing uses any more."""
    doomed = (ktdp.StoreOp, GenericOp, ktdp.LoadOp, FillOp, tensor.EmptyOp)
    for op in reversed(list(fn.body.block.ops)):
        if isinstance(op, doomed):
            Rewriter.erase_op(op, safe_erase=False)
    for op in reversed(list(fn.body.block.ops)):
        if isinstance(op, ktdp.ConstructAccessTileOp) and not op.result.uses:
            Rewriter.erase_op(op)
