"""The order of a program's tile loops as a decision of the solver's one model.

A kernel whose program has a tile nest that interchange-tile-loops offers is scheduled
twice (`api.compile`): as written (the dims' order) and with those nests interchanged.
Each schedule is a `Problem`; `merge` makes one of them: every program of the first, the
offered program of the second beside its first form as a program of its own (a fresh
index, its decisions renamed apart), and per offered program an `order` decision whose
candidate says which form runs (`Program.variant`: 0 the dims' order, 1 interchanged).
The model states both forms; a form's constraints hold and its cycles and bytes count
only when it is the one chosen (`model.build`), so CP-SAT weighs the two orders against
each other with every other decision of the kernel, in one search.

After the solve `project` gives the problem as if the chosen form had been the only one
(its decisions under their own names again, the order decision kept), which the trace,
the bench and the API read; `apply` fills both schedules' decisions and moves the
chosen form's program into the first schedule's module.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from xdsl.dialects.builtin import ModuleOp

from spyre_sched.schedule.common import programs
from spyre_sched.schedule.interchange_tile_loops import INTERCHANGED_ATTR
from spyre_sched.solve.extract import Extraction
from spyre_sched.solve.problem import (
    Candidate,
    SolveError,
    Decision,
    Problem,
    Program,
    Quantity,
    decision_readers,
    program_decision_names,
    rewrite,
)
from spyre_sched.solve.solution import Solution
from spyre_sched.solve.writeback import write_back

SUFFIX = "@interchanged"
"""Appended to the name of a decision of a program's interchanged form while both forms
are in one problem."""


def order_decision(index: int) -> str:
    return f"p{index}.order"


def renamed(value, names: Mapping[str, str]):
    """`value` (a problem's plain data) with every decision name in `names` replaced."""
    def leaf(obj):
        if isinstance(obj, str):
            return names.get(obj, obj)
        if isinstance(obj, Quantity):
            # (a table is keyed by candidate indices, not names: it is kept as it is)
            return Quantity(tuple(names.get(d, d) for d in obj.scope), obj.table,
                            tuple(renamed(f, names) for f in obj.factors), obj.round_to,
                            tuple(renamed(f, names) for f in obj.divisors))
        return None

    return rewrite(value, leaf)


@dataclass
class Forms:
    """One problem holding both orders of the offered programs."""

    problem: Problem
    interchanged: dict[int, int]
    """Kernel program index -> the index of its interchanged form in `problem`."""
    names: dict[str, str]
    """A renamed decision of an interchanged form -> its name in that form's schedule."""


def _own(problem: Problem, prog: Program) -> list[str] | None:
    """The decisions only `prog` reads (with the outer tiles they sit within); None when
    one of them is read by another program too (a keep across programs)."""
    readers = decision_readers(problem)
    names = list(program_decision_names(prog))
    names += [problem.decision(d).within for d in names if problem.decision(d).within]
    if any(not readers[n] <= {prog.index} for n in names):
        return None
    return list(dict.fromkeys(names))


def offered(first: ModuleOp, second: ModuleOp) -> list[int]:
    """Programs the second schedule interchanged whose function has the same signature
    in both (the same kernel scheduled alike around them)."""
    before = {i: fn for i, fn in programs(first)}
    after = {i: fn for i, fn in programs(second)}
    if sorted(before) != sorted(after):
        return []
    return [i for i, fn in after.items() if INTERCHANGED_ATTR in fn.attributes
            and str(fn.function_type) == str(before[i].function_type)]


def merge(first: Problem, second: Problem, indices: Sequence[int]) -> Forms | None:
    """`first` with the interchanged form of each of `indices` from `second` (None when
    no program can be offered: one linked to another program by a decision)."""
    by_index = {p.index: p for p in second.programs}
    decisions = list(first.decisions)
    programs_out = list(first.programs)
    interchanged: dict[int, int] = {}
    names_back: dict[str, str] = {}
    fresh = max((p.index for p in first.programs), default=-1) + 1
    for index in indices:
        kept = next((p for p in first.programs if p.index == index), None)
        other = by_index.get(index)
        if kept is None or other is None or _own(first, kept) is None:
            continue
        own = _own(second, other)
        if own is None:
            continue
        names = {n: n + SUFFIX for n in own}
        order = order_decision(index)
        decisions.append(Decision(
            order, "order", index, (Candidate(0), Candidate(1)),
            source=f"the order of program {index}'s tile loops: 0 its dims' order, "
                   f"1 its two tile loops interchanged (interchange-tile-loops)",
            rule="both orders scheduled; one chosen"))
        for d in second.decisions:
            if d.name in names:
                decisions.append(replace(renamed(d, names), program=fresh))
        programs_out[programs_out.index(kept)] = replace(kept, variant=(order, 0))
        programs_out.append(replace(renamed(other, names), index=fresh, variant=(order, 1)))
        interchanged[index] = fresh
        names_back.update({new: old for old, new in names.items()})
        fresh += 1
    if not interchanged:
        return None
    return Forms(replace(first, decisions=tuple(decisions), programs=tuple(programs_out)),
                 interchanged, names_back)


def project(forms: Forms, choice: Mapping[str, int]) -> tuple[Problem, dict[str, int]]:
    """The problem and choice as if each program had only its chosen form."""
    problem = forms.problem
    dropped: set[int] = set()
    back: dict[str, str] = {}
    for index, fresh in forms.interchanged.items():
        if choice[order_decision(index)] == 1:
            dropped.add(index)
            back.update({n: old for n, old in forms.names.items()
                         if problem.decision(n).program == fresh})
        else:
            dropped.add(fresh)
    kept_programs = [p for p in problem.programs if p.index not in dropped]
    used = {n for p in kept_programs for n in program_decision_names(p)}
    used |= {problem.decision(n).within for n in used if problem.decision(n).within}
    # (a decision no program reads stays: the model fixed it, the trace lists it)
    readers = decision_readers(problem)
    decisions = [d for d in problem.decisions
                 if d.name in used or not (readers.get(d.name, set()) & dropped)]
    original = {fresh: index for index, fresh in forms.interchanged.items()}
    programs_out = [replace(renamed(p, back), index=original[p.index])
                    if p.index in original else p for p in kept_programs]
    out = [replace(renamed(d, back), program=original[d.program])
           if d.program in original else d for d in decisions]
    projected = replace(problem, decisions=tuple(out),
                        programs=tuple(sorted(programs_out, key=lambda p: p.index)))
    return projected, {back.get(d.name, d.name): choice[d.name] for d in decisions}


def apply(forms: Forms, solution: Solution, first: Extraction, second: Extraction,
          other: Callable[[dict[str, int]], Solution] | None = None) -> Solution:
    """Fill both schedules' decisions, move each program whose interchanged form was
    chosen from the second schedule's module into the first's, and return the solution
    of the projected problem (the solve's statistics and notes). `other(fixed)`: the
    problem solved again with an order decision fixed, to say in the trace what the
    order not chosen gives: asked only when the trace is built
    (`Solution.decision_rules`), a second search nobody reads otherwise."""
    choice = solution.choice
    names = [order_decision(index) for index in forms.interchanged]
    write_back(first, replace(solution, choice={d.name: choice[d.name]
                                                for d in first.problem.decisions}))
    # the second schedule: its offered programs' decisions under their merged names,
    # every other one as the first schedule's (the same programs)
    merged = {old: new for new, old in forms.names.items()}
    write_back(second, replace(solution, choice={
        d.name: choice[merged.get(d.name, d.name)] if merged.get(d.name, d.name) in choice
        else 0 for d in second.problem.decisions}))
    for index in forms.interchanged:
        if choice[order_decision(index)] == 1:
            _transplant(second.module, first.module, index)
    problem, projected = project(forms, choice)
    problem = replace(problem, decisions=tuple(
        replace(d, rule=_compared(solution, d.name, None)) if d.name in names else d
        for d in problem.decisions))

    def rules() -> dict[str, str]:
        return {name: _compared(solution, name, other) for name in names}

    return Solution(problem, projected, solution.objective, solution.strategy,
                    solution.stats, solution.log, solution.notes,
                    decision_rules=rules if other is not None else None)


FORMS = ("its dims' order", "its two tile loops interchanged")


def _compared(solution: Solution, name: str,
              other: Callable[[dict[str, int]], Solution] | None) -> str:
    """What the order decision's trace says: both forms in one model, and the best
    schedule of the form not chosen when `other` can tell."""
    chosen = solution.choice[name]
    text = "both orders scheduled, each a form of the program in one CP-SAT model"
    if other is None:
        return text
    try:
        found = other({name: 1 - chosen})
    except SolveError as err:
        return f"{text}; {FORMS[1 - chosen]}: no schedule ({err.message})"
    key = "peak scratchpad" if solution.objective == "memory" else "cycles"
    mine = solution.peak_scratchpad if solution.objective == "memory" else solution.cycles
    theirs = found.peak_scratchpad if solution.objective == "memory" else found.cycles
    proven = found.stats is not None and found.stats.status == "OPTIMAL"
    return (f"{text}; {FORMS[chosen]}: {mine} {key}, {FORMS[1 - chosen]} "
            + (f"at best {theirs}" if proven else
               f"{theirs} in a short search (not proven its best)"))


def _transplant(source: ModuleOp, target: ModuleOp, index: int) -> None:
    """Replace the target's program module `index` by the source's."""
    new, old = (dict(programs(module))[index].parent_op() for module in (source, target))
    new.detach()
    target.body.block.insert_op_before(new, old)
    old.detach()
    old.erase()
