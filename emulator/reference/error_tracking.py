"""Error bounds carried beside the reference's values: how far a hardware-order executor may
lie from each value the reference computes (docs/numerics.md, "Rule 3").

On request (`reference.run_with_error_bounds`), every tile executor keeps `ex.errors`: SSA
value -> float64 array of absolute bounds (absent: the value must match bit for bit), and
for an elementwise op's result `ex.error_ranges`: the interval its hardware value lies
in, which the corners of the ops using it stay inside (exp's result is never negative,
whatever its bound).
Float `add` reductions are the sources (`numerics.reduction_error_bound`); elementwise ops
carry their operands' bounds forward (`numerics.elementwise_error_bound`, evaluated with
the reference's own handler at the corners of the operands' intervals); data movement
(slices, reshapes, broadcasts, loads and stores through a shadow of device memory) moves
them with the data; scf.for loops hand carried values' bounds round the loop; an exchange
between tiles hands each partial's bounds to its readers, and a reduce's combiner carries
them like a linalg body. An op that a bound reaches but that the rule cannot carry it
through (a comparison, a value yielded out of an scf.if) is refused by name: the
comparison never silently drops a bound.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import AnyFloat, TensorType

from emulator.numerics import (
    OPS,
    accumulation_error,
    element_type,
    elementwise_error_bound,
    reduction_error_bound,
)
from emulator.numerics.reductions import _terms
from emulator.reference.memory import DeviceMemory
from emulator.reference.types import element_name
from spyre_sched.errors import UnsupportedError

#: ops whose handler only moves data: run again on the bounds, they move the bounds alike
DATA_MOVEMENT = frozenset({
    "tensor.extract_slice", "tensor.insert_slice", "tensor.extract", "tensor.insert",
    "tensor.splat", "tensor.from_elements", "tensor.expand_shape", "tensor.collapse_shape", "tensor.reshape", "tensor.cast",
    "linalg.broadcast", "linalg.transpose",
})
#: ops that set their results' bounds themselves (run_structured, run_loop)
SELF_TRACKED = frozenset({
    "scf.for",
    "linalg.generic", "linalg.add", "linalg.sub", "linalg.mul", "linalg.max", "linalg.min",
    "linalg.exp", "linalg.log", "linalg.sqrt", "linalg.select", "linalg.copy", "linalg.fill",
    "linalg.matmul", "linalg.batch_matmul", "linalg.div", "linalg.reduce", "linalg.map",
    # an exchange hands each partial's bounds to the tiles that read it (ops_ktdp)
    "ktdp.inter_tile_produce", "ktdp.inter_tile_consume", "ktdp.inter_tile_reduce",
})


class ErrorTracking:
    """What the tiles of one launch share: the accumulator type of hardware-order sums, the
    most accumulator roundings the executor states any term of a sum goes through (None:
    any order, n - 1 for n terms), and a shadow of device memory holding the bound of every
    stored element."""

    def __init__(self, accumulator: str, memory: DeviceMemory,
                 max_roundings: int | None = None):
        self.accumulator = element_type(accumulator).name
        self.max_roundings = max_roundings
        self.memory = memory
        #: (memory key, element size) -> float64 bound per element offset
        self.shadow: dict[tuple[object, int], np.ndarray] = {}

    def view(self, itemsize: int, create: bool) -> _ShadowView:
        return _ShadowView(self, itemsize, create)


class _ShadowView:
    """The shadow seen like `DeviceMemory.elements` for elements of one size: the same
    element offsets address an element's bound."""

    def __init__(self, tracking: ErrorTracking, itemsize: int, create: bool):
        self.tracking, self.itemsize, self.create = tracking, itemsize, create

    def elements(self, space, dtype=None) -> np.ndarray | None:
        key = (space, self.itemsize)
        array = self.tracking.shadow.get(key)
        if array is None and self.create:
            size = self.tracking.memory.nbytes(space) // self.itemsize
            array = self.tracking.shadow[key] = np.zeros(size, dtype=np.float64)
        return array

    def elements_at(self, space, dtype, first: int, last: int) -> tuple[np.ndarray | None, int]:
        return self.elements(space), 0  # the shadow adopts nothing: one array per space

    def adopted(self, space, first_byte: int, last_byte: int) -> bool:
        return False

    def has(self, spaces) -> bool:
        return any((s, self.itemsize) in self.tracking.shadow for s in spaces)


def _refuse(ex, op, why: str):
    return ex.error(op, f"a reordered sum's error bound reaches this op, and the comparison "
                        f"rule cannot carry it through: {why}", UnsupportedError)


def _shaped(error, value) -> np.ndarray:
    return np.broadcast_to(np.asarray(error, dtype=np.float64), np.shape(value))


def _is_float(type_) -> bool:
    element = type_.element_type if isinstance(type_, TensorType) else type_
    return isinstance(element, AnyFloat)


def _set(errors: dict, value, bound) -> None:
    if bound is None or not np.any(bound):
        errors.pop(value, None)
    else:
        errors[value] = bound


# ---- the hook run_block calls after every op -------------------------------------------


def after_op(ex, op, handler, values, produced) -> None:
    name = op.name
    if name in SELF_TRACKED:
        return
    for result in op.results:  # set again below only by an elementwise float op
        ex.error_ranges.pop(result, None)
    if name == "ktdp.load":
        _set(ex.errors, op.results[0], _load(ex, values[0], produced[0]))
        return
    errors = ex.errors
    operand_errors = [errors.get(v) for v in op.operands]
    if name == "ktdp.store":
        _store(ex, values[1], values[0], operand_errors[0])
        return
    if all(e is None for e in operand_errors):
        for result in op.results:
            errors.pop(result, None)
        return
    if name in DATA_MOVEMENT:
        moved = [np.array(_shaped(e, v)) if e is not None
                 else np.zeros(np.shape(v)) if _is_float(o.type) else v
                 for o, v, e in zip(op.operands, values, operand_errors)]
        for result, bound in zip(op.results, handler(ex, op, moved)):
            _set(errors, result, np.asarray(bound, dtype=np.float64))
        return
    if name in OPS and len(op.results) == 1 and _is_float(op.results[0].type):
        result_type = element_name(op.results[0].type)
        try:
            bound, interval = elementwise_error_bound(
                name, lambda vals: handler(ex, op, vals)[0], values, operand_errors,
                produced[0], result_type,
                [element_name(o.type) if _is_float(o.type) else None for o in op.operands],
                [ex.error_ranges.get(o) for o in op.operands], with_range=True)
        except ValueError as err:
            raise _refuse(ex, op, str(err)) from None
        _set(errors, op.results[0], bound)
        if op.results[0] in errors:
            ex.error_ranges[op.results[0]] = interval
        return
    if name in OPS:
        raise _refuse(ex, op, "its result is not a float (a comparison or a conversion to "
                              "an integer can change by a whole step within any bound)")
    raise _refuse(ex, op, "it is not an elementwise float op or a data movement")


def check_terminator(ex, op) -> None:
    """A block's yielded values leave through its parent: linalg bodies (run_structured)
    and scf.for bodies (run_loop) carry their bounds out, and so do an exchange's partials
    and combiner (ops_ktdp); any other carrying one (a branch of scf.if) is refused."""
    if op.name in ("linalg.yield", "ktdp.yield_partial", "ktdp.yield_reduced") or (
            op.name == "scf.yield" and op.parent_op().name == "scf.for"):
        return
    if any(v in ex.errors for v in op.operands):
        raise _refuse(ex, op, "a value carried out of a branch or region")


def run_loop(ex, op, block, steps, carried):
    """Generator: an scf.for's iterations with the bounds of its carried values handed from
    each iteration's yield to the next one's arguments, and to the loop's results. A float
    value the loop sums (`acc = acc + x_k`) is one sum over the iterations, which a schedule
    may reorder: its result's bound is `loop_sum_bound`'s."""
    bounds = [ex.errors.get(v) for v in op.operands[3:]]
    sums = carried_sums(block)
    terms = {i: [np.asarray(carried[i])] for i in sums}
    term_bounds = {i: [bounds[i]] for i in sums}
    for iv in steps:
        bind_block(ex, block, [None, *bounds], lambda e: e)
        carried = yield from ex.run_block(block, [iv, *carried])
        bounds = yielded(ex, block)
        for i, term in sums.items():
            terms[i].append(np.asarray(ex.env[term]))
            term_bounds[i].append(ex.errors.get(term))
    for i in sums:
        if len(terms[i]) > 2:  # one addition is rounded once in any order: nothing moves
            bounds[i] = loop_sum_bound(ex, terms[i], term_bounds[i], carried[i],
                                       element_name(op.results[i].type))
    for result, bound in zip(op.results, bounds):
        _set(ex.errors, result, bound)
    return carried


def carried_sums(block) -> dict[int, object]:
    """Carried float values an scf.for body sums: index among the carried values -> the
    value added to it each iteration. The carried value's one use is a float add of it and
    that value (`arith.addf`, `linalg.add`, or an all-parallel `linalg.generic` of identity
    maps whose body is that add), whose result the body yields in its place."""
    found = {}
    yielded_values = list(block.last_op.operands)
    for i, arg in enumerate(block.args[1:]):
        uses = list(arg.uses)
        if not _is_float(arg.type) or len(uses) != 1:
            continue
        user = uses[0].operation
        term = _added_term(user, arg)
        if term is not None and yielded_values[i] is user.results[0] \
                and len(list(user.results[0].uses)) == 1:
            found[i] = term
    return found


def _added_term(op, arg):
    """The value `op` adds to `arg`, if `op` is a float add of the two; else None."""
    if op.name == "arith.addf":
        pair = list(op.operands)
    elif op.name in ("linalg.add", "linalg.generic"):
        pair = list(op.operands[:-1])
        if op.name == "linalg.generic":
            body = list(op.regions[0].block.ops)
            args = op.regions[0].block.args
            maps = op.properties["indexing_maps"].data
            if len(body) != 2 or body[0].name != "arith.addf" \
                    or set(body[0].operands) != {args[0], args[1]} \
                    or any(str(t.data) != "parallel"
                           for t in op.properties["iterator_types"].data) \
                    or any(m.data.num_dims != len(m.data.results)
                           or any(str(r) != f"d{k}" for k, r in enumerate(m.data.results))
                           for m in maps):
                return None
    else:
        return None
    if len(pair) != 2 or arg not in pair or pair[0] is pair[1]:
        return None
    return pair[1] if pair[0] is arg else pair[0]


def loop_sum_bound(ex, terms, term_bounds, result, type_name: str) -> np.ndarray:
    """The bound of a sum a loop carries (docs/numerics.md, "Sources: a sum a loop carries"): the
    reference adds the terms in the loop's order, rounding each partial to the element
    type; a schedule may sum them in any order in its accumulator type. Both lie near the
    exact sum S: the schedule within Rule 3's source bound of S, the reference at
    |S - y_ref|, which is computed."""
    stacked = np.stack([np.broadcast_to(np.asarray(t, dtype=np.float64), np.shape(result))
                        for t in terms], axis=-1)
    errors = None
    if any(e is not None for e in term_bounds):
        errors = np.stack([np.zeros(np.shape(result)) if e is None else _shaped(e, result)
                           for e in term_bounds], axis=-1)
    n = stacked.shape[-1]
    with np.errstate(invalid="ignore", over="ignore"):
        exact = stacked.sum(axis=-1)
        # float64's own rounding of that sum (n - 1 additions), so |S - exact| stays inside
        slack = accumulation_error(np.abs(stacked).sum(axis=-1), n, "f64")
        bound = reduction_error_bound("add", stacked, errors, ex.machine.errors.accumulator,
                                      type_name, np.abs(exact) + slack,
                                      max_roundings=ex.machine.errors.max_roundings)
        may_be_nan = np.isnan(bound)  # the sum's own marker (error_bounds)
        bound = bound + np.abs(exact - np.asarray(result, dtype=np.float64)) + 2 * slack
    return np.where(may_be_nan, np.nan, np.where(np.isnan(bound), np.inf, bound))


# ---- memory -------------------------------------------------------------------------------


def _load(ex, tile, data) -> np.ndarray | None:
    tracking: ErrorTracking = ex.machine.errors
    memory = ex.machine.memory
    res = tile.resolve(memory)
    shadow = tracking.view(element_type(tile.etype).size, create=False)
    if not shadow.has(seg.space for seg in res.segments):
        return None
    flat = np.zeros(res.count, dtype=np.float64)
    for seg in res.segments:
        array = shadow.elements(seg.space)
        if array is None:
            continue
        if seg.strided is not None:
            start, shape, strides = seg.strided
            part = np.lib.stride_tricks.as_strided(
                array[start:], shape=shape,
                strides=[s * 8 if n > 1 else 0 for s, n in zip(strides, shape)]).reshape(-1)
        else:
            part = array[seg.addresses]
        if seg.select is None:
            flat[:] = part
        else:
            flat[seg.select] = part
    if res.positions is None:
        return flat.reshape(res.shape)
    out = np.zeros(res.shape, dtype=np.float64)
    out[res.positions] = flat
    return out


def _store(ex, tile, data, bound) -> None:
    tracking: ErrorTracking = ex.machine.errors
    res = tile.resolve(ex.machine.memory)
    shadow = tracking.view(element_type(tile.etype).size, create=bound is not None)
    if bound is None and not shadow.has(seg.space for seg in res.segments):
        return  # nothing stored with a bound anywhere this tile writes
    full = np.zeros(np.shape(data)) if bound is None else _shaped(bound, data)
    flat = full.reshape(-1) if res.positions is None else full[res.positions]
    for seg in res.segments:
        array = shadow.elements(seg.space)
        if array is None:
            continue
        part = flat if seg.select is None else flat[seg.select]
        if seg.strided is not None:
            start, shape, strides = seg.strided
            np.lib.stride_tricks.as_strided(
                array[start:], shape=shape,
                strides=[s * 8 if n > 1 else 0 for s, n in zip(strides, shape)])[...] = \
                part.reshape(shape)
        else:
            array[seg.addresses] = part


def read_output(tracking: ErrorTracking, placement, shape, num_tiles: int) -> np.ndarray:
    """The bounds of an output argument's elements (zeros where nothing carried one)."""
    size = element_type(placement.arg.element_type).size
    shadow = tracking.view(size, create=False)
    if not shadow.has(placement.keys(num_tiles)):
        return np.zeros(shape)
    view = tracking.view(size, create=True)  # memories the argument spans but none stored to
    return placement.read(view, np.float64, shape, num_tiles).reshape(shape)


# ---- linalg structured ops -----------------------------------------------------------------


def bind_block(ex, block, operand_errors, bind) -> bool:
    """Give a linalg body's arguments the bounds of their operands, laid out by `bind`;
    True when any carries one."""
    errors = ex.errors
    any_error = False
    for arg, error in zip(block.args, operand_errors):
        if error is None:
            errors.pop(arg, None)
        else:
            errors[arg] = bind(error)
            any_error = True
    return any_error


def yielded(ex, block) -> list:
    """The bounds of the values a linalg body yields (None: exact)."""
    return [ex.errors.get(v) for v in block.last_op.operands]


def reduction_bound(ex, kind: str, terms, term_error, axes, init, init_error,
                    type_name: str, oracle) -> np.ndarray | None:
    """The bound of one structured reduction's outputs (`oracle`: the reference's values
    over the parallel axes): a float sum is a source; other kinds carry their terms'."""
    if not element_type(type_name).is_float:
        if term_error is not None or init_error is not None:
            raise UnsupportedError("an integer reduction of values a reordered sum reaches")
        return None
    stacked = _terms(np.asarray(terms, dtype=np.float64), axes, init)
    error = None
    if term_error is not None or init_error is not None:
        t = np.zeros(np.shape(terms)) if term_error is None else _shaped(term_error, terms)
        i = None if init is None else (np.zeros(np.shape(init)) if init_error is None
                                       else _shaped(init_error, init))
        error = _terms(t, axes, i)
    bound = reduction_error_bound(kind, stacked, error, ex.machine.errors.accumulator,
                                  type_name, oracle, axis=-1,
                                  max_roundings=ex.machine.errors.max_roundings)
    if bound is None and error is not None:
        raise UnsupportedError(f"a '{kind}' reduction of values a reordered sum reaches "
                               "(only sums, maxima and minima carry bounds)")
    return bound
