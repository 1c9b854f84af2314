"""Decisions pinned to one candidate: the same problem with those decisions' candidate
lists cut to the pinned one, so every table the model builds (and the Pareto fronts it
keeps) is over the free decisions only. The bench pins one kind of decision at a time to
the baseline's values to see what the solver gains from the others."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from spyre_sched.solve.problem import Decision, Problem, Quantity, rewrite


class _PinnedTable(Mapping):
    """A quantity's table seen through pinned decisions: index 0 of a pinned position
    reads the original table at the pinned candidate's index."""

    def __init__(self, base: Mapping, sizes: tuple[int, ...], pinned: dict[int, int]):
        self._base, self._sizes, self._pinned = base, sizes, pinned

    def __getitem__(self, key: tuple[int, ...]) -> int:
        if any(key[k] != 0 for k in self._pinned):
            raise KeyError(key)
        return self._base[tuple(self._pinned.get(k, i) for k, i in enumerate(key))]

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        return itertools.product(*(range(n) for n in self._sizes))

    def __len__(self) -> int:
        n = 1
        for size in self._sizes:
            n *= size
        return n


@dataclass
class Pinned:
    problem: Problem
    fixed: dict[str, int]
    """Decision name -> its candidate index in the original problem."""

    def original(self, choice: Mapping[str, int]) -> dict[str, int]:
        """A choice of the pinned problem as a choice of the original one."""
        return {name: self.fixed.get(name, index) for name, index in choice.items()}


def pin(problem: Problem, fixed: Mapping[str, int]) -> Pinned:
    fixed = {name: int(index) for name, index in fixed.items()}
    sizes = {d.name: (1 if d.name in fixed else len(d.candidates)) for d in problem.decisions}

    def quantity(q: Quantity) -> Quantity:
        positions = {k: fixed[d] for k, d in enumerate(q.scope) if d in fixed}
        factors = tuple(quantity(f) for f in q.factors)
        divisors = tuple(quantity(f) for f in q.divisors)
        if not positions and all(a is b for a, b in zip((*factors, *divisors),
                                                        (*q.factors, *q.divisors))):
            return q
        table = _PinnedTable(q.table, tuple(sizes[d] for d in q.scope), positions)
        return Quantity(q.scope, table, factors, q.round_to, divisors)

    def leaf(obj):
        if isinstance(obj, Quantity):
            return quantity(obj)
        if isinstance(obj, Decision):
            return obj if obj.name not in fixed else dataclasses.replace(
                obj, candidates=(obj.candidates[fixed[obj.name]],))
        return None

    for name, index in fixed.items():
        d = problem.decision(name)
        if not 0 <= index < len(d.candidates):
            raise ValueError(f"decision {name} has no candidate {index}")
    pinned = rewrite(problem, leaf)
    # a program's form pinned: that form runs (the one candidate left), the others never
    forms = [p for p in pinned.programs if p.variant is not None and p.variant[0] in fixed]
    if forms:
        programs = tuple(
            dataclasses.replace(p, variant=(p.variant[0], 0)) if p in forms else p
            for p in pinned.programs
            if p not in forms or fixed[p.variant[0]] == p.variant[1])
        pinned = dataclasses.replace(pinned, programs=programs)
    return Pinned(pinned, fixed)
