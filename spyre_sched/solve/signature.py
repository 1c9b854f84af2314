"""A program part's structure with its names taken out, so that parts which differ only in
what they are called are solved once (`part_bounds.py`).

A kernel of many programs often repeats one program (a chain of identical layers, the
same op on many tensors): their parts have the same pipelines, stages, transfers and
buffers, the same figures and the same candidates, and differ only in names (`p3.tile.d0`
against `p4.tile.d0`). Solving each of them alone for its least cycles would repeat the
same solve; with the signature one is solved and the others reuse its bound and choice.

The signature is exact, not a hash: two parts get the same one only when they are the
same up to renaming. Decisions of the part's scope become their position in it (with
kind, candidates, extent, step, and what `trip`/`within` point at), every other string
has the part's own program prefix (`p3.`) replaced, the things' own names are numbered
in the order they appear (`LABELS`), and every field of every object the
cost model reads (the part and everything in it) is taken in. The cost model compares
names only for equality and looks decisions up by name, so what is worked out for one
part holds for any part with the same signature, decision for decision (by their place
in the scope).
"""

from __future__ import annotations

import dataclasses
import re

from spyre_sched.solve.problem import Problem, Program, Quantity


LABELS = ("name", "group")
"""Fields that name a thing of the part (a pipeline, stage, transfer, compute, buffer,
FIFO, register use, instance group): numbered in the order they first appear, since
these kernels name them after the tensors they move (`p3.pipe.lx.X2.input`)."""


def part_signature(problem: Problem, part: Program, scope: tuple[str, ...]) -> tuple:
    """The part's structure with its decisions numbered by their place in `scope` and its
    program's own prefix taken out of every other name."""
    position = {d: k for k, d in enumerate(scope)}
    prefix = re.compile(rf"\bp{part.index}\.")
    known = problem._by_name
    labels: dict[str, int] = {}

    def label(s: str) -> object:
        # a pipeline's, stage's, transfer's or buffer's own name: only equal or not
        return ("label", labels.setdefault(s, len(labels)))

    def name(s: str) -> object:
        if s in position:
            return ("decision", position[s])
        if s in known:
            return ("other decision", s)  # outside the part: kept as it is
        return prefix.sub("p*.", s)

    def sig(x: object) -> object:
        if isinstance(x, str):
            return name(x)
        if x is None or isinstance(x, (int, float, bool)):
            return x
        if isinstance(x, Quantity):
            scope_sig = tuple(name(d) for d in x.scope)
            if x.factors:
                return ("product", scope_sig, tuple(sig(f) for f in x.factors), x.round_to,
                        tuple(sig(f) for f in x.divisors))
            return ("table", scope_sig, tuple(sorted(x.table.items())))
        if isinstance(x, (tuple, list)):
            return tuple(sig(v) for v in x)
        if isinstance(x, dict):
            return tuple(sorted((str(k), sig(v)) for k, v in x.items()))
        if dataclasses.is_dataclass(x):
            return (type(x).__name__, *(
                label(v) if f.name in LABELS and isinstance(v, str) else sig(v)
                for f in dataclasses.fields(x) for v in (getattr(x, f.name),)))
        raise TypeError(f"no signature for {type(x).__name__}")  # a new figure type: add it

    decisions = tuple(
        (d.kind, tuple(sig(c) for c in d.candidates), d.extent,
         d.step, sig(d.trip), sig(d.within))
        for d in (problem.decision(n) for n in scope))
    body = tuple(sig(getattr(part, f.name)) for f in dataclasses.fields(part)
                 if f.name not in ("index", "name"))
    return decisions, body
