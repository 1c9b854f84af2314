"""linalg ops, evaluated once on whole arrays (vectorised), never per element.

Every structured op (generic and the named ones) is run the same way: each block argument
is bound to its operand laid out over the iteration domain by its indexing map (size-1
axes where the operand does not vary, so numpy broadcasting does the rest), and the body
runs once. With reduction iterators, when each yielded value is `combine(f, %out)` for an
associative combiner, f is reduced along the reduction axes with
`emulator.numerics.reduce` and combined with the init. Any other body (a max with NaN
rules written as cmpf + select, a two-output argmax, ...) runs literally: once per point
of the reduction axes in index order, vectorised over the parallel axes, each step's
yielded values becoming the next step's outputs.
"""

from __future__ import annotations

import functools

import numpy as np
from xdsl.dialects.linalg.ops import GenericOp, ReduceOp
from xdsl.ir import Block, Operation
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineExpr, AffineMap

from emulator.numerics import REDUCTION_KIND_OF_OP, reduce, value_dtype
from emulator.reference import affine_sets, contraction, error_tracking
from emulator.reference.interpreter import TERMINATOR, block_plan, handles, op_static
from emulator.reference.types import element_name
from spyre_sched.errors import ExecutionError, UnsupportedError

STRUCTURED = (
    "linalg.generic", "linalg.add", "linalg.sub", "linalg.mul", "linalg.max", "linalg.min",
    "linalg.exp", "linalg.log", "linalg.sqrt", "linalg.select", "linalg.copy", "linalg.fill",
    "linalg.matmul", "linalg.batch_matmul", "linalg.div",
)


def _domain_sizes(operands, maps, ndom: int, op) -> list[int]:
    sizes: list[int | None] = [None] * ndom
    for arr, amap in zip(operands, maps):
        shape = np.shape(arr)
        for axis, expr in enumerate(amap.results):
            if isinstance(expr, AffineDimExpr):
                d = expr.position
                if sizes[d] is not None and sizes[d] != shape[axis]:
                    raise ExecutionError(
                        f"loop d{d} has extent {sizes[d]} from one operand and "
                        f"{shape[axis]} from another"
                    )
                sizes[d] = shape[axis]
    if any(s is None for s in sizes):
        raise UnsupportedError("cannot infer the iteration domain from the indexing maps")
    return sizes  # type: ignore[return-value]


def _is_identity(amap: AffineMap, ndom: int) -> bool:
    return (amap.num_dims == ndom and len(amap.results) == ndom and all(
        isinstance(e, AffineDimExpr) and e.position == k for k, e in enumerate(amap.results)))


def _bind(arr, amap: AffineMap, sizes: list[int]):
    """`arr` laid out over the iteration domain (size 1 where it does not vary)."""
    arr = np.asarray(arr)
    ndom = len(sizes)
    if arr.shape == tuple(sizes) and _is_identity(amap, ndom):
        return arr
    results = amap.results
    dims = [e.position for e in results if isinstance(e, AffineDimExpr)]
    simple = all(isinstance(e, AffineDimExpr | AffineConstantExpr) for e in results)
    if simple and len(set(dims)) == len(dims):
        index = tuple(
            e.value if isinstance(e, AffineConstantExpr) else slice(None) for e in results
        )
        sub = arr[index] if index else arr
        sub = sub.transpose(np.argsort(dims)) if dims else sub
        return sub.reshape([sizes[d] if d in dims else 1 for d in range(ndom)])
    # Any other affine map: index arrays over the whole domain.
    grid = np.indices(sizes, dtype=np.int64).reshape(ndom, -1).T
    cols = affine_sets.eval_exprs(results, grid, [])
    return arr[tuple(cols.T)].reshape(sizes)


def _iterators(op) -> list[str]:
    attr = op.iterator_types if isinstance(op, GenericOp) else op.get_iterator_types()
    return [str(getattr(it.data, "value", it.data)) for it in attr.data]


def _out_types(op: Operation, n_in: int) -> list:
    return [v.type for v in op.results] or [v.type for v in op.operands[n_in:]]


@functools.cache
def _out_dtypes_of(n_in: int):
    return lambda op: [value_dtype(element_name(t)) for t in _out_types(op, n_in)]


@functools.cache
def _out_types_of(n_in: int):
    """One (cacheable) builder per input count, for `op_static`."""
    return lambda op: _out_types(op, n_in)


def run_structured(ex, op: Operation, inputs, outputs, maps, iterators, block: Block,
                   elementwise: bool = False):
    """`elementwise`: every map is the identity and every loop parallel; operands of one
    shape then bind as they are."""
    if elementwise:
        shape = np.shape(outputs[0]) if outputs else None
        if shape is not None and all(np.shape(a) == shape for a in (*inputs, *outputs)):
            if ex.errors is not None:
                error_tracking.bind_block(ex, block, [ex.errors.get(v) for v in op.operands],
                                          lambda e: e)
            ex.linalg_domains.append(list(shape))
            try:
                ys = ex.run_pure(block, [*inputs, *outputs], op)
            finally:
                ex.linalg_domains.pop()
            out_dtypes = op_static(op, _out_dtypes_of(len(inputs)))
            results = []
            for y, dtype in zip(ys, out_dtypes):
                y = np.asarray(y, dtype=dtype)
                results.append(np.ascontiguousarray(
                    y if y.shape == shape else np.broadcast_to(y, shape)))
            if ex.errors is not None:
                # yielded even when no operand carries a bound: the body may use a value
                # from outside it (a scalar read out of a sum) that does
                bounds = error_tracking.yielded(ex, block)
                for result, bound in zip(op.results, bounds):
                    error_tracking._set(ex.errors, result, None if bound is None else
                                        np.array(np.broadcast_to(bound, shape)))
            return results
    ndom = len(iterators)
    sizes = _domain_sizes([*inputs, *outputs], maps, ndom, op)
    red = [d for d, it in enumerate(iterators) if it == "reduction"]
    out_types = op_static(op, _out_types_of(len(inputs)))
    bound_in = [_bind(a, m, sizes) for a, m in zip(inputs, maps)]
    out_maps = maps[len(inputs):]
    operand_errors = ([ex.errors.get(v) for v in op.operands] if ex.errors is not None
                      else [None] * (len(inputs) + len(outputs)))
    tracked = any(e is not None for e in operand_errors)
    ex.linalg_domains.append(sizes)
    try:
        if not red:
            bound_out = [_bind(a, m, sizes) for a, m in zip(outputs, out_maps)]
            if ex.errors is not None:
                error_tracking.bind_block(ex, block, [
                    None if e is None else _bind(e, m, sizes)
                    for e, m in zip(operand_errors, maps)], lambda e: e)
            ys = ex.run_pure(block, [*bound_in, *bound_out], op)
            results = [_to_output(y, m, sizes, t, init)
                       for y, m, t, init in zip(ys, out_maps, out_types, outputs)]
            if ex.errors is not None:
                for k, (bound, m, init) in enumerate(zip(
                        error_tracking.yielded(ex, block), out_maps, outputs)):
                    init_error = operand_errors[len(inputs) + k]
                    error_tracking._set(ex.errors, op.results[k], None if bound is None
                                        and init_error is None else _errors_to_output(
                                            bound, m, sizes, init, init_error))
            return results
        try:
            combiners = _reduction_combiners(block, len(inputs), op)
        except UnsupportedError:
            if tracked:
                raise UnsupportedError(
                    "a reordered sum's error bound reaches a reduction whose body runs in "
                    "index order; the comparison rule cannot carry it") from None
            return _reduce_in_order(ex, op, block, bound_in, outputs, out_maps, out_types,
                                    sizes, red)
        parallel = [d for d in range(ndom) if d not in red]
        bound_out = [_bind(a, m, [1 if d in red else s for d, s in enumerate(sizes)])
                     for a, m in zip(outputs, out_maps)]
        ods = [_output_dims(out_maps[i], parallel) for i in range(len(combiners))]
        indices = [_constant_index(out_maps[i]) for i in range(len(combiners))]
        inits = [np.asarray(outputs[i])[indices[i]].transpose([od.index(d) for d in parallel])
                 for i, od in enumerate(ods)]
        # the inits' bounds laid out as `inits` (None: exact)
        init_errors = [None if e is None else np.broadcast_to(e, np.shape(outputs[i]))[
            indices[i]].transpose([od.index(d) for d in parallel])
            for i, (e, od) in enumerate(zip(operand_errors[len(inputs):], ods))]
        if len(inputs) == 2:
            sides = op_static(op, _matmul_sides)
            if sides is not None:
                how = None if ex.errors is None else contraction.SumBounds(
                    ex.machine.errors.accumulator, ex.machine.errors.max_roundings,
                    element_name(out_types[0]))
                carried = None
                init_error = operand_errors[len(inputs)]
                if tracked:  # (the operands' bounds laid out over the domain, the init's)
                    carried = (*(None if operand_errors[k] is None else _bind(
                        np.broadcast_to(operand_errors[k], np.shape(inputs[k])), maps[k],
                        sizes) for k in sides), init_errors[0])
                found = contraction.contract([bound_in[k] for k in sides],
                                             [maps[k] for k in sides], sizes, red, inits[0],
                                             how, carried)
                if found is not None:
                    acc, bound = found if how is not None else (found, None)
                    order = [parallel.index(d) for d in ods[0]]
                    if how is not None:
                        error_tracking._set(ex.errors, op.results[0], _place(
                            bound.transpose(order), indices[0],
                            np.zeros(np.shape(outputs[0])) if init_error is None
                            else np.broadcast_to(init_error, np.shape(outputs[0]))))
                    return [_place(acc.transpose(order), indices[0], outputs[0])]
        # The body runs over the whole domain at once, so a large one (a matmul's M x N x K)
        # runs in slabs of one parallel loop: each output element is still reduced in one
        # go, from the same values, so the result is the same.
        axis, step = _slab(sizes, parallel, block)
        # The combiners only fold each f into %out (checked above); reduce does that, so
        # the body runs without them.
        skip = {comb for comb, _ in combiners}
        plan = [e for e in block_plan(block) if e[0] not in skip and e[1] is not TERMINATOR]
        partials: list[list[np.ndarray]] = [[] for _ in combiners]
        if ex.errors is not None:  # the bounds of the inits and of the body's arguments
            kept = [1 if d in red else s for d, s in enumerate(sizes)]
            bound_errors = [None if e is None else _bind(e, m, sizes if k < len(inputs) else kept)
                            for k, (e, m) in enumerate(zip(operand_errors, maps))]
            partial_errors: list[list] = [[] for _ in combiners]
        for start in range(0, sizes[axis], step) if axis is not None else [None]:
            cut = _slicer(axis, start, step)
            chunk_sizes = list(sizes)
            if axis is not None:
                chunk_sizes[axis] = min(step, sizes[axis] - start)
            if ex.errors is not None:
                error_tracking.bind_block(ex, block, [None if e is None else cut(e)
                                                      for e in bound_errors], lambda e: e)
            ex.run_pure(block, [cut(b) for b in (*bound_in, *bound_out)], op, plan)
            for i, (comb, x) in enumerate(combiners):
                full = np.broadcast_to(np.asarray(ex.env[x]), chunk_sizes)
                init = inits[i]
                init_error = None if ex.errors is None else init_errors[i]
                if axis is not None:
                    k = parallel.index(axis)
                    init = init[(slice(None),) * k + (slice(start, start + step),)]
                    if init_error is not None:
                        init_error = init_error[(slice(None),) * k + (slice(start, start + step),)]
                kind = REDUCTION_KIND_OF_OP[comb.name]
                partials[i].append(reduce(kind, full, tuple(red), element_name(out_types[i]),
                                          init=init))
                if ex.errors is not None:
                    term_error = ex.errors.get(x)
                    partial_errors[i].append(error_tracking.reduction_bound(
                        ex, kind, full, None if term_error is None else
                        np.broadcast_to(term_error, chunk_sizes), tuple(red), init,
                        init_error, element_name(out_types[i]), partials[i][-1]))
        results = []
        for i, od in enumerate(ods):
            acc = partials[i][0] if axis is None else np.concatenate(
                partials[i], axis=parallel.index(axis))
            order = [parallel.index(d) for d in od]
            results.append(_place(acc.transpose(order), indices[i], outputs[i]))
            if ex.errors is not None:
                parts = partial_errors[i]
                if all(p is None for p in parts):
                    error_tracking._set(ex.errors, op.results[i], None)
                    continue
                parts = [np.zeros(np.shape(a)) if p is None else p
                         for p, a in zip(parts, partials[i])]
                bound = parts[0] if axis is None else np.concatenate(
                    parts, axis=parallel.index(axis))
                init_error = operand_errors[len(inputs) + i]
                error_tracking._set(ex.errors, op.results[i], _place(
                    bound.transpose(order), indices[i],
                    np.zeros(np.shape(outputs[i])) if init_error is None
                    else np.broadcast_to(init_error, np.shape(outputs[i]))))
        return results
    finally:
        ex.linalg_domains.pop()


def _reduce_in_order(ex, op, block, bound_in, outputs, out_maps, out_types, sizes, red):
    """A reduction body that is not `combine(f, %out)`: its literal meaning, one step per
    point of the reduction axes (lexicographic, last axis fastest), every parallel point
    at once."""
    ndom = len(sizes)
    parallel = [d for d in range(ndom) if d not in red]
    kept = [1 if d in red else s for d, s in enumerate(sizes)]
    accs = [_bind(a, m, kept) for a, m in zip(outputs, out_maps)]
    for point in np.ndindex(*[sizes[d] for d in red]):
        at = dict(zip(red, point))
        step_in = []
        for arr in bound_in:
            arr = np.asarray(arr)
            index = tuple(slice(at[d], at[d] + 1) if d in at and arr.shape[d] != 1
                          else slice(None) for d in range(ndom))
            step_in.append(arr[index])
        ex.linalg_domains.append((sizes, at))
        try:
            ys = ex.run_pure(block, [*step_in, *accs], op)
        finally:
            ex.linalg_domains.pop()
        accs = [np.broadcast_to(np.asarray(y, dtype=value_dtype(element_name(t))), kept)
                for y, t in zip(ys, out_types)]
    results = []
    for acc, amap, t, init in zip(accs, out_maps, out_types, outputs):
        od = _output_dims(amap, parallel)
        squeezed = acc.reshape([sizes[d] for d in parallel])
        results.append(_place(np.ascontiguousarray(
            squeezed.transpose([parallel.index(d) for d in od])), _constant_index(amap), init))
    return results


SLAB_ELEMENTS = 1 << 20


def _slab(sizes: list[int], parallel: list[int], block: Block) -> tuple[int | None, int]:
    """(the parallel loop to cut the domain along, slab extent), or (None, 0) when the
    domain is small, has no parallel loop, or the body reads loop indices."""
    total = int(np.prod(sizes)) if sizes else 1
    if total <= SLAB_ELEMENTS or not parallel or any(
            o.name == "linalg.index" for o in block.walk()):
        return None, 0
    axis = max(parallel, key=lambda d: sizes[d])
    rest = total // sizes[axis]
    return axis, max(1, SLAB_ELEMENTS // max(rest, 1))


def _slicer(axis: int | None, start, step):
    """Cut a bound operand to the slab [start, start + step) of domain axis `axis`
    (operands that do not vary along it have extent 1 there and stay whole)."""
    if axis is None:
        return lambda arr: arr
    index = (slice(None),) * axis + (slice(start, start + step),)
    return lambda arr: arr[index] if np.shape(arr)[axis] != 1 else arr


def _constant_index(amap: AffineMap) -> tuple:
    """Index of an output's slice that the map writes: constants fixed, dims whole."""
    return tuple(e.value if isinstance(e, AffineConstantExpr) else slice(None) for e in amap.results)


def _place(value: np.ndarray, index: tuple, init) -> np.ndarray:
    """The output: `init` with `value` written at `index` (all of it when no constants)."""
    if all(isinstance(i, slice) for i in index):
        return np.ascontiguousarray(value)
    out = np.array(init, copy=True)
    out[index] = value
    return out


def _errors_to_output(bound, amap: AffineMap, sizes, init, init_error) -> np.ndarray:
    """The bounds of a structured op's output laid out like `_to_output` lays its values
    (the init's bounds where the map does not write)."""
    full = np.zeros(sizes) if bound is None else np.broadcast_to(bound, sizes)
    if _is_identity(amap, len(sizes)):
        return np.array(full, dtype=np.float64)
    base = (np.zeros(np.shape(init)) if init_error is None
            else np.broadcast_to(init_error, np.shape(init)))
    return _place(full.transpose(_map_dims(amap)), _constant_index(amap), base)


def _map_dims(amap: AffineMap) -> list[int]:
    dims = []
    for e in amap.results:
        if isinstance(e, AffineDimExpr):
            dims.append(e.position)
        elif not isinstance(e, AffineConstantExpr):
            raise UnsupportedError(
                f"output indexing map {amap} must be a permutation of loops (and constants)"
            )
    return dims


def _output_dims(amap: AffineMap, parallel: list[int]) -> list[int]:
    dims = _map_dims(amap)
    if sorted(dims) != parallel:
        raise UnsupportedError(
            f"output indexing map {amap} of a reduction must use each parallel loop once "
            "and no reduction loop"
        )
    return dims


def _to_output(y, amap: AffineMap, sizes, out_type, init):
    if _is_identity(amap, len(sizes)):
        arr = np.asarray(y, dtype=value_dtype(element_name(out_type)))
        if arr.shape == tuple(sizes):
            return np.ascontiguousarray(arr)
        return np.ascontiguousarray(np.broadcast_to(arr, sizes))
    dims = _map_dims(amap)
    if sorted(dims) != list(range(len(sizes))):
        raise UnsupportedError(f"output indexing map {amap} must use every loop once")
    full = np.broadcast_to(np.asarray(y, dtype=value_dtype(element_name(out_type))), sizes)
    return _place(full.transpose(dims), _constant_index(amap), init)


def _reduction_combiners(block: Block, n_in: int, op: Operation):
    """For each output: (combiner op, the SSA value f it combines with %out)."""
    out_args = list(block.args[n_in:])
    terminator = block.last_op
    tainted = set(out_args)
    combiners = []
    combine_ops = set()
    for i, y in enumerate(terminator.operands):
        comb = y.owner
        ok = (
            isinstance(comb, Operation)
            and comb.parent_block() is block
            and comb.name in REDUCTION_KIND_OF_OP
            and len(comb.operands) == 2
            and out_args[i] in comb.operands
        )
        if ok:
            a, b = comb.operands
            x = b if a is out_args[i] else a
            ok = x not in out_args
        if not ok:
            raise UnsupportedError(
                f"the reduction body must yield combine(f(...), %out) with an associative "
                f"combiner ({', '.join(sorted(REDUCTION_KIND_OF_OP))}) for output #{i}"
            )
        combiners.append((comb, x))
        combine_ops.add(comb)
    for inner in block.ops:
        if inner is terminator:
            continue
        if any(v in tainted for v in inner.operands):
            if inner not in combine_ops:
                raise UnsupportedError(
                    f"{inner.name} in the reduction body depends on an output's running "
                    "value; only the final combiner may use it"
                )
            tainted.update(inner.results)
        if inner in combine_ops and any(
            use.operation is not terminator for r in inner.results for use in r.uses
        ):
            raise UnsupportedError("a reduction combiner's result may only be yielded")
    return combiners


def _matmul_sides(op):
    """`contraction.matmul_body` of a reducing op's body (read once per op)."""
    block = op.body.block
    try:
        combiners = _reduction_combiners(block, len(op.inputs), op)
    except UnsupportedError:
        return None
    return contraction.matmul_body(block, combiners)


def _structured_static(op):
    maps = [m.data for m in op.get_indexing_maps().data]
    iterators = _iterators(op)
    elementwise = (all(it == "parallel" for it in iterators)
                   and all(_is_identity(m, len(iterators)) for m in maps))
    return maps, len(op.inputs), iterators, op.body.block, elementwise


@handles(*STRUCTURED)
def _structured(ex, op, vals):
    maps, n_in, iterators, block, elementwise = op_static(op, _structured_static)
    return run_structured(ex, op, vals[:n_in], vals[n_in:], maps, iterators, block, elementwise)


@handles("linalg.reduce")
def _reduce(ex, op: ReduceOp, vals):
    source, init = vals
    dims = sorted(int(d) for d in op.dimensions.get_values())
    ndom = np.ndim(source)
    maps = [
        AffineMap.identity(ndom),
        AffineMap(ndom, 0, tuple(AffineExpr.dimension(d) for d in range(ndom) if d not in dims)),
    ]
    iterators = ["reduction" if d in dims else "parallel" for d in range(ndom)]
    return run_structured(ex, op, [source], [init], maps, iterators, op.region.block)


@handles("linalg.map")
def _map(ex, op, vals):
    """out[i] = body(in_0[i], ...): the body's arguments are the inputs' elements only."""
    inputs = [np.asarray(v) for v in vals[:-1]]
    shape = np.shape(vals[-1])
    block = op.regions[0].block
    if ex.errors is not None:
        error_tracking.bind_block(ex, block, [ex.errors.get(v) for v in op.operands[:-1]],
                                  lambda e: e)
    ex.linalg_domains.append(list(shape))
    try:
        ys = ex.run_pure(block, inputs, op)
    finally:
        ex.linalg_domains.pop()
    dtype = value_dtype(element_name(op.results[0].type))
    result = np.ascontiguousarray(np.broadcast_to(np.asarray(ys[0], dtype=dtype), shape))
    if ex.errors is not None:
        bound = error_tracking.yielded(ex, block)[0]
        error_tracking._set(ex.errors, op.results[0], None if bound is None else
                            np.array(np.broadcast_to(bound, shape)))
    return [result]


@handles("linalg.broadcast")
def _broadcast(ex, op, vals):
    source, init = vals
    dims = sorted(int(d) for d in op.dimensions.get_values())
    expanded = np.expand_dims(np.asarray(source), dims) if dims else np.asarray(source)
    return [np.broadcast_to(expanded, init.shape).astype(init.dtype, copy=True)]


@handles("linalg.transpose")
def _transpose(ex, op, vals):
    perm = [int(p) for p in op.permutation.get_values()]
    return [np.ascontiguousarray(np.asarray(vals[0]).transpose(perm))]


@handles("linalg.index")
def _index(ex, op, vals):
    sizes = ex.linalg_domains[-1]
    d = op.dim.value.data
    if isinstance(sizes, tuple):  # a step of an in-order reduction: (sizes, {axis: index})
        sizes, at = sizes
        if d in at:
            return [np.full([1] * len(sizes), at[d], dtype=np.int64)]
    shape = [sizes[d] if i == d else 1 for i in range(len(sizes))]
    return [np.arange(sizes[d], dtype=np.int64).reshape(shape)]
