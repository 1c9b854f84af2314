"""Small IR tools the schedule passes share: loops, pipelines with token chains, values
rebuilt under a substitution, and questions about where a value comes from.

`rebuild(value, subst, out)` is the workhorse of the nesting and hoisting passes: it
re-materialises the computation of `value` (an address or a size) with some loop
variables replaced (a loop index by its tile start, or by tile start + point index),
cloning only the ops that depend on a replaced value and appending them to `out`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, StringAttr
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from spyre_sched.xdsl_compat import has_no_side_effects
from spyre_sched.dialects import ktdf
from spyre_sched.schedule.common import DIM_ATTR, int_attr


def for_loop(lower: SSAValue, upper: SSAValue, step: SSAValue, dim: int, reduction: bool,
             fill: Callable[[SSAValue], Sequence[Operation]],
             iter_args: Sequence[SSAValue] = ()) -> scf.ForOp:
    """An `scf.for` tagged with its iteration dim and loop type; `fill(iv)` gives the
    body (an `scf.yield` is appended when the body does not end with one)."""
    block = Block(arg_types=[IndexType(), *[a.type for a in iter_args]])
    ops = list(fill(block.args[0]) if not iter_args else fill(block.args))  # type: ignore[arg-type]
    block.add_ops(ops)
    if not ops or not isinstance(ops[-1], scf.YieldOp):
        block.add_op(scf.YieldOp())
    loop = scf.ForOp(lower, upper, step, list(iter_args), Region(block))
    loop.attributes[ktdf.LOOP_TYPE_ATTR] = ktdf.LoopTypeAttr(
        ktdf.LoopType.REDUCTION if reduction else ktdf.LoopType.PARALLEL)
    loop.attributes[DIM_ATTR] = int_attr(dim)
    return loop


def loop_dim(op: Operation) -> int | None:
    attr = op.attributes.get(DIM_ATTR)
    return attr.value.data if isinstance(attr, IntegerAttr) else None


def pipeline(resources: Sequence[Operation], stage_bodies: Sequence[tuple[list[str], list[Operation]]],
             attributes: dict[str, Attribute] | None = None) -> ktdf.PipelineOp:
    """A pipeline whose stages run in the given order, chained by one token per edge.
    `resources` are the ops making buffers/FIFOs (tokens are added here)."""
    tokens = [ktdf.TokenOp() for _ in range(max(len(stage_bodies) - 1, 0))]
    made = [*resources, *tokens]
    values = [op.results[0] for op in made]
    private = ktdf.PrivateOp([*made, ktdf.PrivateYieldOp(values)], [v.type for v in values])
    token_values = private.res[len(resources):]
    # Uses of the resource ops' results inside the stage bodies must refer to the
    # private's results: the caller builds bodies with the resource op results, which
    # we redirect here.
    for op, result in zip(resources, private.res):
        op.results[0].replace_uses_with_if(result, lambda use: not isinstance(use.operation,
                                                                       ktdf.PrivateYieldOp))
    stages = []
    for k, (units, ops) in enumerate(stage_bodies):
        ins = [token_values[k - 1]] if k > 0 else []
        outs = [token_values[k]] if k < len(stage_bodies) - 1 else []
        stages.append(ktdf.StageOp(ins, outs, units, ops))
    pipe = ktdf.PipelineOp([private, *stages])
    for key, value in (attributes or {}).items():
        pipe.attributes[key] = value
    return pipe


def stage_units(stage: ktdf.StageOp) -> list[str]:
    """The unit kinds of the stages nested in `stage` (its own list when it has none)."""
    inner = [s for s in stage.body.walk() if isinstance(s, ktdf.StageOp) and s is not stage]
    if not inner:
        return stage.units
    found: list[str] = []
    for s in inner:
        for u in s.units:
            if u not in found:
                found.append(u)
    return found


def refresh_units(root: Operation) -> None:
    """Stages that hold inner pipelines list the kinds of the inner stages."""
    for stage in reversed([s for s in root.walk() if isinstance(s, ktdf.StageOp)]):
        units = stage_units(stage)
        if units:
            stage.applicable_units = ktdf.ArrayAttr([StringAttr(u) for u in units])


def depends_on(value: SSAValue, targets: set[SSAValue]) -> bool:
    """Does `value` (transitively, through defining ops) use any of `targets`?"""
    seen: set[SSAValue] = set()
    work = [value]
    while work:
        v = work.pop()
        if v in targets:
            return True
        if v in seen:
            continue
        seen.add(v)
        owner = v.owner
        if isinstance(owner, Operation):
            work.extend(owner.operands)
    return False


def rebuild(value: SSAValue, subst: dict[SSAValue, SSAValue], out: list[Operation],
            local: Callable[[SSAValue], bool] = lambda v: False) -> SSAValue:
    """`value` recomputed with `subst` applied: ops that (transitively) use a substituted
    value, or whose result is `local` (defined in IR about to be replaced), are cloned
    (appended to `out`, in dependency order); others are shared."""
    if value in subst:
        return subst[value]
    if not local(value) and not depends_on(value, set(subst)):
        return value
    owner = value.owner
    assert isinstance(owner, Operation) and not owner.regions, owner
    operands = [rebuild(v, subst, out, local) for v in owner.operands]
    clone = owner.clone()
    for k, v in enumerate(operands):
        clone.operands[k] = v
    out.append(clone)
    for old, new in zip(owner.results, clone.results):
        subst[old] = new
    return clone.results[value.index]  # type: ignore[attr-defined]


def enclosing_loops(op: Operation, stop: Operation | None = None) -> list[scf.ForOp]:
    """Scheduler loops (tagged with a dim) around `op`, innermost first, up to `stop`."""
    loops = []
    parent = op.parent_op()
    while parent is not None and parent is not stop:
        if isinstance(parent, scf.ForOp) and loop_dim(parent) is not None:
            loops.append(parent)
        parent = parent.parent_op()
    return loops


def index_value(value: int) -> IntegerAttr:
    return IntegerAttr(value, IndexType())


def drop_resources(pipe: ktdf.PipelineOp, doomed: set[SSAValue]) -> None:
    """Remove resources (private results) nobody uses any more from `pipe`'s private."""
    private = pipe.private
    assert private is not None
    made = [op for op in private.body.block.ops if not isinstance(op, ktdf.PrivateYieldOp)]
    keep = [(r, op) for r, op in zip(private.res, made) if r not in doomed]
    for r in doomed:
        if r.uses:
            raise ValueError(f"resource {r} is still used")
    for _, op in keep:
        op.detach()
    values = [op.results[0] for _, op in keep]
    new = ktdf.PrivateOp([op for _, op in keep] + [ktdf.PrivateYieldOp(values)],
                         [v.type for v in values])
    for (old, _), result in zip(keep, new.res):
        old.replace_all_uses_with(result)
    Rewriter.replace_op(private, new, new_results=[None] * len(private.res))  # type: ignore[list-item]


def drop_stage(pipe: ktdf.PipelineOp, stage: ktdf.StageOp) -> None:
    """Remove a stage, passing its input tokens on to whoever waited for its outputs."""
    ins = list(stage.depends_in)
    outs = set(stage.depends_out)
    for other in pipe.stages:
        if other is stage:
            continue
        if any(t in outs for t in other.depends_in):
            new_ins = [t for t in other.depends_in if t not in outs]
            new_ins += [t for t in ins if t not in new_ins]
            old_outs = list(other.depends_out)
            other.operands = [*new_ins, *old_outs]
            other.properties["operandSegmentSizes"] = _segments(len(new_ins), len(old_outs))
    Rewriter.erase_op(stage)
    unused = {t for t in outs | set(ins) if not t.uses}
    if unused:
        drop_resources(pipe, unused)


def _segments(n_in: int, n_out: int):
    from xdsl.dialects.builtin import DenseArrayBase, i32

    return DenseArrayBase.from_list(i32, [n_in, n_out])


def add_resource(pipe: ktdf.PipelineOp, maker: Operation) -> SSAValue:
    """Give `pipe`'s private one more resource made by `maker` (a buffer, FIFO or token
    op); returns the private's new result for it."""
    private = pipe.private
    assert private is not None
    made = [op for op in private.body.block.ops if not isinstance(op, ktdf.PrivateYieldOp)]
    for op in made:
        op.detach()
    made.append(maker)
    values = [op.results[0] for op in made]
    new = ktdf.PrivateOp([*made, ktdf.PrivateYieldOp(values)], [v.type for v in values])
    for old, result in zip(private.res, new.res):
        old.replace_all_uses_with(result)
    Rewriter.replace_op(private, new, new_results=[None] * len(private.res))  # type: ignore[list-item]
    return new.res[-1]


def insert_stage_before(pipe: ktdf.PipelineOp, stage: ktdf.StageOp, units: list[str],
                        ops: list[Operation]) -> ktdf.StageOp:
    """A new stage of `pipe` running `ops` on `units` right before `stage`, which waits
    for it (a new token)."""
    token = add_resource(pipe, ktdf.TokenOp())
    new = ktdf.StageOp([], [token], units, ops)
    Rewriter.insert_op(new, InsertPoint.before(stage))
    ins, outs = list(stage.depends_in), list(stage.depends_out)
    stage.operands = [*ins, token, *outs]
    stage.properties["operandSegmentSizes"] = _segments(len(ins) + 1, len(outs))
    return new


def erase_dead(values: list[SSAValue]) -> None:
    """Erase the side-effect-free ops computing `values` once nothing uses them."""
    work = list(values)
    while work:
        value = work.pop()
        owner = value.owner
        if not isinstance(owner, Operation) or owner.parent_block() is None or owner.regions:
            continue
        if isinstance(owner, ktdf.PrivateOp) or any(r.uses for r in owner.results):
            continue
        if not has_no_side_effects(owner):
            continue
        work += list(owner.operands)
        Rewriter.erase_op(owner)
