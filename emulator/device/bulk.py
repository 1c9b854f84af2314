"""Many iterations of a unit's loop in one step: the data work (docs/emulator.md, "Bulk
advancement").

A loop of a unit that reads no memory, whose body only receives from FIFOs and computes
(emulator.device.codegen decides which loops qualify), can run the iterations whose
entries are already in its FIFOs together: the generated code counts their cycles in a
scalar loop, exactly as the per-op code would, and the data work is one numpy call per op
over the iterations stacked along a new first axis. The functions here are that data
work. Each gives bit for bit what the op's per-op shortcut (`ComputePlan.fast`) gives
iteration by iteration, or raises `Unbatched` (nothing has changed yet: the per-op code
then runs the iterations, with its own checks and faults).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import islice

import numpy as np

from emulator.numerics.arith_ops import native_loop
from emulator.numerics.f16_products import stacked_exact_f16_product_sums
from emulator.numerics.reductions import _FEW_TERMS, few_f32_sums


class Unbatched(Exception):
    """These iterations cannot be run together: the per-op code runs them."""


#: A K loop's matrix instructions whose sums wait for the loop's end
#: (`UnitRun.deferred_matmul_fn`) are computed once this many have gathered: the
#: operands they hold stay small (256 of the suite's 8 x 32 and 32 x 64 f16 slabs: 1.1 MB).
DEFERRED_LIMIT = 256


def stacked(fifo, k: int, shape: tuple) -> np.ndarray:
    """The first `k` chunks of `fifo` (one receive's worth each), as received, stacked:
    shape (k, *shape). Raises Unbatched unless every chunk has the same dtype and shape."""
    datas = list(islice(fifo.chunks, k))
    datas = [chunk[1] for chunk in datas]
    dtype = datas[0].dtype
    for data in datas:
        if data.dtype != dtype:
            raise Unbatched
    return np.stack(datas).reshape((k, *shape))  # (a ValueError: shapes differ)


def batch_op(plan, operands_stacked: tuple[bool, ...]) -> Callable | None:
    """`fn(k, *operands)` computing `plan`'s op over k iterations at once (a stacked
    operand has the iterations on its first axis, the others are the same in every
    iteration), or None when the op has no such form."""
    kind = plan.batch_kind
    if kind is None or not any(operands_stacked):
        return None
    what, fn, dtype = kind
    shape = plan.shape
    if what in ("native", "elementwise") and len(operands_stacked) == 2:
        first_stacked, second_stacked = operands_stacked

        def binary(k, a, b):
            if a.dtype != dtype or b.dtype != dtype:
                raise Unbatched
            each = a.shape[1:] if first_stacked else a.shape
            if (b.shape[1:] if second_stacked else b.shape) != each or not each:
                raise Unbatched  # (the per-op code would broadcast otherwise)
            return fn(a, b)

        return binary
    if operands_stacked != (True,):
        return None
    if what in ("convert", "apply", "reduce"):  # (each element, or each row, on its own)
        def convert(k, a):
            if a.dtype != dtype or a.ndim < 2:
                raise Unbatched
            return np.asarray(fn(a)).reshape((k, *shape))

        return convert
    if what == "shuffle":
        def shuffle(k, a):
            if a.dtype != dtype:
                raise Unbatched
            return a.reshape(k, -1)[:, fn].reshape((k, *shape))

        return shuffle
    if what == "f32_sums":
        def sums(k, a):
            if a.dtype != dtype or a.ndim < 2:
                raise Unbatched
            per = a[0].size
            group = _FEW_TERMS // per if per else 0
            if group < 1:
                raise Unbatched
            parts = []
            for i in range(0, k, group):
                value = few_f32_sums(a[i:i + group])
                if value is None:
                    raise Unbatched  # (the per-op code takes `reduce`'s way)
                parts.append(value)
            out = parts[0] if len(parts) == 1 else np.concatenate(parts)
            return out.reshape((k, *shape))

        return sums
    return None


def carried_op(plan, carried_first: bool) -> Callable | None:
    """`fn(k, carried, x)`: a loop-carried value updated by `plan`'s binary op with the
    iterations' `x` (stacked) k times in order, as k per-op calls would; None when the
    op has no shortcut."""
    kind = plan.batch_kind
    if kind is None or kind[0] not in ("native", "elementwise"):
        return None
    _, native, dtype = kind
    # A ufunc's accumulate applies its loop to (running value, next term) in order: the
    # per-op call with the carried value first, k times.
    ufunc = native if carried_first and isinstance(native, np.ufunc) else None

    def carried(k, c, x):
        if c.dtype != dtype or x.dtype != dtype or c.shape != x.shape[1:] or not c.ndim:
            raise Unbatched
        if ufunc is not None:
            return ufunc.accumulate(np.concatenate([c[None], x]), axis=0)[-1].copy()
        for i in range(k):
            c = native(c, x[i]) if carried_first else native(x[i], c)
        return c

    return carried


def fixed_op(plan) -> Callable | None:
    """`fn(*operands)`: an op whose operands are the same in every iteration, computed once
    as its per-op shortcut computes it (`UnitRun.compute_fn`), or None."""
    if plan.fast is None or len(plan.fast[1]) not in (1, 2) or plan.arity != len(plan.fast[1]):
        return None
    fast, dtypes = plan.fast

    def once(*operands):
        if not operands[0].ndim or any(a.dtype != d for a, d in zip(operands, dtypes)):
            raise Unbatched
        value = fast(*operands)
        if value is None:
            raise Unbatched
        return value

    return once


def matmul_op(plan) -> Callable | None:
    """`fn(k, acc, lhs, rhs)`: k matrix instructions of a K loop (lhs and rhs stacked),
    each adding its block's exact sums to the accumulator carried from the one before,
    as k per-op calls would (`program._matmul_fn`); None when the op has no such form."""
    kind = plan.batch_kind
    if kind is None or kind[0] != "matmul":
        return None
    _, add, dtype = kind
    # The accumulator's f32 adds, in order: numpy's float32 loop where it is the add's
    # result bit for bit (probed), as one accumulate (running value first, as the per-op
    # call has it), else the add k times.
    f32_add = native_loop("arith.addf", "f32")
    f32 = np.dtype(np.float32)

    def carried(k, acc, lhs, rhs):
        if lhs.dtype != dtype or rhs.dtype != dtype or lhs.ndim != 3 or rhs.ndim != 3:
            raise Unbatched
        sums = stacked_exact_f16_product_sums(lhs, rhs)
        if sums is None:
            raise Unbatched  # (the per-op code takes the products' own way)
        shape = sums.shape[1:]
        if f32_add is not None and acc.dtype == f32 and sums.dtype == f32 and acc.shape == shape:
            return f32_add.accumulate(np.concatenate([acc[None], sums]), axis=0)[-1].copy()
        for i in range(k):
            acc = np.asarray(add(acc, sums[i])).reshape(shape)
        return acc

    return carried
