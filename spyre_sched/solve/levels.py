"""Enumerating a program part's candidate combinations level by level.

A part whose pipelines nest (device memory -> L2 -> L1 -> vectors) has decisions that only
the nested pipelines use (the inner tile sizes, the inner modulo, the instance counts):
call them the inner decisions I. The rest, O, size the top-level pipelines; O' are the
outer decisions the inner figures also read (the outer tile sizes bound the inner loops).
Everything the inner decisions change reaches the program's figures only through

    V = (each nested pipeline's cycles and shared-memory busy time, the bytes of the
         buffers, FIFO entries and register use that read an inner decision)

and the program's figures (cycles, scratchpad and other bytes, FIFO entries, registers,
shared-memory busy time) are monotone non-decreasing in every entry of V when O is fixed:
a nested pipeline's cycles are a stage's occupancy (`cost.work_parts`), which the
pipeline formula only adds and takes maxima of; the rest are sums or separate figures.
So for each assignment of O', an inner combination whose V another one of the same O'
matches or beats everywhere can never be on the program's Pareto front: it is dropped
before the outer decisions are combined with it (`inner_fronts`). That turns
|O| x |I| full evaluations into |O'| x |I| evaluations of V plus |O| x |front| full
ones (bias_add on the three-level test device: 230,400 -> 28,800 + 1,800).

`model.program_table` uses this for large parts only (`ELIMINATE_ABOVE`); the figures
of the combinations it keeps are computed by the same cost functions, so the front is
the same set of figure rows (ties between combinations with equal figures may keep a
different one of them) and the optimum is the same.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass

from spyre_sched.solve import cost
from spyre_sched.solve.problem import (
    OUTSIDE_KINDS,
    Pipeline,
    Problem,
    Program,
    SolveError,
    iterations_scope,
    modulo_scope,
    pipeline_scope,
)

ELIMINATE_ABOVE = 20_000
"""A part with more candidate combinations than this is enumerated level by level."""


@dataclass(frozen=True)
class Levels:
    """How a part's scope splits: `inner` (only nested pipelines and the items beside
    them use them), `linked` (O': outer decisions the inner figures read), `outer` (the
    rest of O, in scope order)."""

    inner: tuple[str, ...]
    linked: tuple[str, ...]
    outer: tuple[str, ...]
    nested: tuple[Pipeline, ...]


def _own_scope(p: Pipeline) -> set[str]:
    """Decisions a pipeline's own figures read (not those of pipelines nested in it)."""
    names = set(iterations_scope(p)) | set(modulo_scope(p.modulo))
    for st in p.stages:
        for w in st.work:
            if isinstance(w, Pipeline):
                continue
            if hasattr(w, "elements"):
                names.update((*w.elements.scope, *w.instances.scope, *w.steps.scope))
            else:
                names.update(w.bytes.scope)
    return names


def _nested(p: Pipeline) -> list[Pipeline]:
    return [w for st in p.stages for w in st.work if isinstance(w, Pipeline)]


def split(program: Program, scope: tuple[str, ...],
          kept: frozenset[str] = frozenset()) -> Levels | None:
    """The inner/outer split of a part, or None when it has no inner decisions. `kept`:
    decisions a constraint outside the part reads (a chunk held in its FIFOs), never
    pruned as inner ones."""
    top_own: set[str] = set(kept)
    nested: list[Pipeline] = []
    for p in program.pipelines:
        top_own |= _own_scope(p)
        nested += _nested(p)
    nested_scope = {d for q in nested for d in pipeline_scope(q)}
    inner = {d for d in nested_scope if d not in top_own}
    if not inner:
        return None
    read: set[str] = set(nested_scope)
    scopes = ([(*b.bytes.scope, *modulo_scope(b.modulo)) for b in program.buffers]
              + [f.entries.scope for f in program.fifos] + [r.bytes.scope for r in program.registers]
              + [lim.decisions for lim in program.instance_limits])
    for s in scopes:
        if inner & set(s):
            read |= set(s)  # an item beside the nested pipelines: its other decisions link
    linked = tuple(d for d in scope if d in read and d not in inner)
    return Levels(tuple(d for d in scope if d in inner), linked,
                  tuple(d for d in scope if d not in inner), tuple(nested))


def _reads(scope, inner: set[str]) -> bool:
    return bool(inner & set(scope))


def _front(rows: list) -> list:
    """The rows (figures, key) no earlier row matches or beats everywhere (sorted first:
    ties keep the smallest key)."""
    rows.sort()
    front: list = []
    for row in rows:
        if any(all(a <= b for a, b in zip(kept[0], row[0])) for kept in front):
            continue
        front.append(row)
    return front


@dataclass
class _Inner:
    """The items of a part that read an inner decision."""

    buffers: list
    fifos: list
    registers: list
    limits: list
    shared: list[str]
    others: list[str]


def _inner_items(problem: Problem, program: Program, lv: Levels) -> _Inner:
    inner = set(lv.inner)
    return _Inner(
        [b for b in program.buffers if _reads((*b.bytes.scope, *modulo_scope(b.modulo)), inner)],
        [f for f in program.fifos if _reads(f.entries.scope, inner)],
        [r for r in program.registers if _reads(r.bytes.scope, inner)],
        [lim for lim in program.instance_limits if _reads(lim.decisions, inner)],
        sorted({w.shared_memory for q in lv.nested for w in _transfers(q)
                if w.shared_bandwidth is not None and w.shared_memory}),
        sorted(problem.other_memories))


def _item_scopes(items: _Inner) -> list[tuple[str, ...]]:
    return ([(*b.bytes.scope, *modulo_scope(b.modulo)) for b in items.buffers]
            + [f.entries.scope for f in items.fifos] + [r.bytes.scope for r in items.registers]
            + [lim.decisions for lim in items.limits])


def _item_figures(problem: Problem, items: _Inner, ch: dict[str, int]) -> list[int]:
    out = [sum(b.bytes.at(ch) * cost.modulo_value(problem, b.modulo, ch)
               for b in items.buffers if b.memory not in problem.other_memories)]
    for k in items.others:
        out.append(sum(b.bytes.at(ch) * cost.modulo_value(problem, b.modulo, ch)
                       for b in items.buffers if b.memory == k))
    out += [f.entries.at(ch) for f in items.fifos]
    out += [r.bytes.at(ch) for r in items.registers]
    return out


def _legal(problem: Problem, limits, ch: dict[str, int]) -> bool:
    return not any(lim.product(problem, ch) > lim.available for lim in limits
                   if all(d in ch for d in lim.decisions))


def _profile_quantities(q: Pipeline):
    """The quantities a pipeline's per-iteration figures read (not its own iteration
    count): its stages' work and, for pipelines nested in them, everything."""
    for st in q.stages:
        for w in st.work:
            if isinstance(w, Pipeline):
                yield w.iterations
                yield w.instances
                yield from _profile_quantities(w)
            elif hasattr(w, "elements"):
                yield from (w.elements, w.instances, w.steps)
            else:
                yield w.bytes


def _per_iteration_independent(problem: Problem, lv: Levels, representative: dict[str, int]) -> bool:
    """Whether the nested pipelines' per-iteration figures are the same for every legal
    value of the linked decisions (they read the outer tile only to clip the inner one,
    which `within` already keeps inside it): then they can be taken at one
    representative value (the largest candidates) and pruned before meeting them."""
    linked = set(lv.linked)
    for q in lv.nested:
        if linked & set(modulo_scope(q.modulo)):
            return False
        for quantity in _profile_quantities(q):
            if not linked & set(quantity.scope):
                continue
            pairs = problem.within_pairs(quantity.scope)
            rep_pairs = problem.within_pairs((*quantity.scope, *representative))
            for key, value in quantity.table.items():
                at = dict(zip(quantity.scope, key))
                if not problem.within_ok(at, pairs):
                    continue
                rep = {**at, **{d: representative[d] for d in quantity.scope if d in linked}}
                if not problem.within_ok({**representative, **rep}, rep_pairs):
                    return False
                if quantity.table[tuple(rep[d] for d in quantity.scope)] != value:
                    return False
    return True


def _direct_fronts(problem: Problem, program: Program, lv: Levels, sizes: dict[str, int],
                   limit: int, items: _Inner) -> tuple[dict[tuple[int, ...], list[tuple[int, ...]]], int]:
    """`inner_fronts` when the per-iteration figures depend on the linked decisions:
    every (linked, inner) assignment is evaluated."""
    evaluations = 1
    for d in (*lv.linked, *lv.inner):
        evaluations *= sizes[d]
    if evaluations > limit:
        raise SolveError(f"program {program.index}: its inner decisions {', '.join(lv.inner)} "
                         f"take {evaluations} evaluations with {', '.join(lv.linked)} "
                         f"(limit {limit}); its candidates need pruning")
    within = problem.within_pairs((*lv.linked, *lv.inner))
    memo: dict = {}
    fronts: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
    for linked_key in itertools.product(*(range(sizes[d]) for d in lv.linked)):
        rows = []
        for inner_key in itertools.product(*(range(sizes[d]) for d in lv.inner)):
            ch = dict(zip(lv.linked, linked_key))
            ch.update(zip(lv.inner, inner_key))
            if not _legal(problem, items.limits, ch) or not problem.within_ok(ch, within):
                continue
            figures = []
            for q in lv.nested:
                figures.append(cost.pipeline_cycles(problem, q, ch, memo))
                busy = cost.shared_memory_busy(problem, q, ch) if items.shared else {}
                figures += [busy.get(m, 0) for m in items.shared]
            figures += _item_figures(problem, items, ch)
            rows.append((tuple(figures), inner_key))
        fronts[linked_key] = [r[1] for r in _front(rows)]
    return fronts, evaluations


def inner_fronts(problem: Problem, program: Program, lv: Levels, sizes: dict[str, int],
                 limit: int) -> tuple[dict[tuple[int, ...], list[tuple[int, ...]]], int]:
    """Per assignment of the linked decisions, the inner assignments whose V no other
    inner assignment (same linked values) matches or beats everywhere; and how many
    evaluations that took.

    Two steps. The inner decisions split into K (those a nested pipeline's iteration count
    reads, or an item that also reads a linked decision) and P (the rest: what a nested
    pipeline does per iteration: its stages' sizes, instance counts, modulo). With K fixed,
    a nested pipeline's cycles are `fill_drain + (N - 1) * slowest` for every N the
    linked decisions give (`cost.pipeline_profile`), and its shared-memory busy time N
    times its per-iteration figure, so P-assignments are first pruned per K-assignment on
    (fill_drain, slowest, busy per iteration, the items they alone decide); only the
    survivors meet the linked decisions."""
    items = _inner_items(problem, program, lv)
    inner, linked = set(lv.inner), set(lv.linked)
    representative = {d: sizes[d] - 1 for d in lv.linked}
    if not _per_iteration_independent(problem, lv, representative):
        return _direct_fronts(problem, program, lv, sizes, limit, items)
    keyed: set[str] = set()
    for q in lv.nested:
        keyed |= inner & set(iterations_scope(q))
    for s in _item_scopes(items):
        if linked & set(s):
            keyed |= inner & set(s)
    k_names = tuple(d for d in lv.inner if d in keyed)
    p_names = tuple(d for d in lv.inner if d not in keyed)
    count = 1
    for d in (*k_names, *p_names):
        count *= sizes[d]
    linked_count = 1
    for d in lv.linked:
        linked_count *= sizes[d]
    if count > limit:
        raise SolveError(f"program {program.index}: its inner decisions {', '.join(lv.inner)} "
                         f"have {count} combinations (limit {limit}); its candidates need pruning")
    alone = _Inner([b for b in items.buffers if not linked & set((*b.bytes.scope, *modulo_scope(b.modulo)))],
                   [f for f in items.fifos if not linked & set(f.entries.scope)],
                   [r for r in items.registers if not linked & set(r.bytes.scope)],
                   [lim for lim in items.limits if not linked & set(lim.decisions)],
                   items.shared, items.others)
    together = _Inner([b for b in items.buffers if b not in alone.buffers],
                      [f for f in items.fifos if f not in alone.fifos],
                      [r for r in items.registers if r not in alone.registers],
                      [lim for lim in items.limits if lim not in alone.limits],
                      items.shared, items.others)
    memo: dict = {}
    within = problem.within_pairs((*lv.linked, *lv.inner))
    # step 1: per K-assignment, the P-assignments on the front of the per-iteration figures
    profiles: dict[tuple[int, ...], list[tuple[tuple[int, ...], tuple]]] = {}
    for k_key in itertools.product(*(range(sizes[d]) for d in k_names)):
        rows = []
        for p_key in itertools.product(*(range(sizes[d]) for d in p_names)):
            ch = dict(representative)
            ch.update(zip(k_names, k_key))
            ch.update(zip(p_names, p_key))
            if not _legal(problem, alone.limits, ch) or not problem.within_ok(ch, within):
                continue
            figures: list[int] = []
            for q in lv.nested:
                figures += cost.pipeline_profile(problem, q, ch, memo)
                if items.shared:
                    busy = cost.shared_busy_per_iteration(problem, q, ch)
                    figures += [busy.get(m, 0) for m in items.shared]
            figures += _item_figures(problem, alone, ch)
            rows.append((tuple(figures), p_key))
        profiles[k_key] = [(key, fig) for fig, key in _front(rows)]
    evaluations = count
    survivors = sum(len(v) for v in profiles.values())
    meetings = 0  # legal (linked, K) pairs times the K-assignment's survivors
    for linked_key in itertools.product(*(range(sizes[d]) for d in lv.linked)):
        at = dict(zip(lv.linked, linked_key))
        for k_key, survivors_k in profiles.items():
            at.update(zip(k_names, k_key))
            if problem.within_ok(at, within):
                meetings += len(survivors_k)
    if evaluations + meetings > limit:
        raise SolveError(f"program {program.index}: its inner decisions {', '.join(lv.inner)} "
                         f"leave {survivors} combinations to meet {linked_count} of "
                         f"{', '.join(lv.linked)}: {meetings} evaluations (limit {limit}); "
                         "its candidates need pruning")
    # step 2: per linked assignment, the (K, P) assignments on the front of V
    fronts: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
    positions = {d: i for i, d in enumerate(lv.inner)}
    for linked_key in itertools.product(*(range(sizes[d]) for d in lv.linked)):
        rows = []
        for k_key, survivors_k in profiles.items():
            ch = dict(zip(lv.linked, linked_key))
            ch.update(zip(k_names, k_key))
            if not _legal(problem, together.limits, ch) or not problem.within_ok(ch, within):
                continue
            runs = [cost.pipeline_iterations(q, ch) for q in lv.nested]
            extra = _item_figures(problem, together, ch) if (
                together.buffers or together.fifos or together.registers) else []
            for p_key, profile in survivors_k:
                figures: list[int] = []
                at = 0
                for n in runs:
                    fill, slow = profile[at], profile[at + 1]
                    figures.append(0 if n <= 0 else fill + (n - 1) * slow)
                    figures += [n * b if n > 0 else 0
                                for b in profile[at + 2:at + 2 + len(items.shared)]]
                    at += 2 + len(items.shared)
                figures += list(profile[at:]) + extra
                full = [0] * len(lv.inner)
                for d, v in zip(k_names, k_key):
                    full[positions[d]] = v
                for d, v in zip(p_names, p_key):
                    full[positions[d]] = v
                rows.append((tuple(figures), tuple(full)))
                evaluations += 1
        fronts[linked_key] = [r[1] for r in _front(rows)]
    return fronts, evaluations


def combinations(problem: Problem, program: Program, scope: tuple[str, ...],
                 limit: int) -> tuple[Iterator[dict[str, int]], int] | None:
    """The part's combinations that can be on its Pareto front, level by level (each as a
    choice dict), and how many evaluations enumerating them takes; None when the part
    has no inner level to eliminate."""
    lv = split(program, scope, frozenset(d for d in scope
                                         if problem.decision(d).kind in OUTSIDE_KINDS))
    if lv is None:
        return None
    sizes = {d: len(problem.decision(d).candidates) for d in scope}
    outer = 1
    for d in lv.outer:
        outer *= sizes[d]
    if outer > limit:  # every outer combination meets at least one inner one
        raise SolveError(f"program {program.index} has {outer} combinations of its outer "
                         f"decisions {', '.join(lv.outer)} alone (limit {limit}); its "
                         f"candidates need pruning")
    fronts, evaluations = inner_fronts(problem, program, lv, sizes, limit)
    free = tuple(d for d in lv.outer if d not in lv.linked)
    rest = 1
    for d in free:
        rest *= sizes[d]
    total = evaluations + rest * sum(len(f) for f in fronts.values())
    if total > limit:
        raise SolveError(f"program {program.index} has {total} candidate combinations of "
                         f"{', '.join(scope)} left after pruning its inner level "
                         f"{', '.join(lv.inner)} (limit {limit}); its candidates need pruning")

    def generate() -> Iterator[dict[str, int]]:
        for outer_key in itertools.product(*(range(sizes[d]) for d in lv.outer)):
            base = dict(zip(lv.outer, outer_key))
            for inner_key in fronts[tuple(base[d] for d in lv.linked)]:
                ch = dict(base)
                ch.update(zip(lv.inner, inner_key))
                yield ch

    return generate(), total


def _transfers(p: Pipeline):
    for st in p.stages:
        for w in st.work:
            if isinstance(w, Pipeline):
                yield from _transfers(w)
            elif hasattr(w, "bytes"):
                yield w
