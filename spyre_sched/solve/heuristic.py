"""`--strategy heuristic`: the V1 scheduler's published rules, the baseline every benchmark
compares with, and `--strategy heuristic+keep`, the same plus "keep an input resident when
it fits". No search: each decision is set by a local rule, in V1's pass order.

1. Instances (V1 parallelises before it chooses tile sizes, so a loop that walks a tile
   has a trip count it cannot see: dynamic). Per instance group, loops outermost first:
   the first loop with a static trip count at least N (the corelets) that N divides
   (balanced); else the first static one at least N long (imbalanced); else the first
   dynamic one. That loop gets N instances, the others 1.
2. Buffering: every rotating scratchpad buffer (one stage writes it, a sibling stage
   reads it, inside a loop: the only buffers that have a modulo decision) is double
   buffered, modulo 2; a modulo decision rotating buffers of other memories only stays 1.
3. Tile sizes: from max(2, min_value) down to min_value, the first multiple of the
   divisibility that divides every loop the decision drives: its extent and, for a tile
   within another tile (`within`), the outer tile chosen before it.
4. Residency: V1 keeps nothing; every compute re-reads its inputs (`heuristic+keep`
   keeps each input, in decision order, when the schedule still fits).
5. FIFOs: each FIFO gets an even share of its datapath's queue (the FIFOs of one phase
   divide it), and an elementwise pipeline moves as many vectors per instruction as the
   register file and that share allow, held in its FIFOs.

Departures from V1, and why:

- V1 has no FIFO choices (the lowering splits a queue evenly); rule 5 is that split,
  written as the solver's decisions so both are priced by one cost model.
- A program whose double buffers do not fit the scratchpad is single-buffered (V1 would
  fail at allocation; a baseline that fails measures nothing).
- A reduction too large for the scratchpad is chunked by the scheduler with the chunk as
  a tile decision (docs/scheduleir.md); V1 picks the fewest chunks under 1 MiB, here the
  tile rule above picks the smallest chunk. No bench kernel is chunked.
"""

from __future__ import annotations

from spyre_sched.solve import cost
from spyre_sched.solve.explain import explain_infeasible
from spyre_sched.solve.problem import Decision, Problem
from spyre_sched.solve.solution import Solution

V1_MAX_TILE = 2
"""V1's largest tile-size candidate (below its minimum value, the minimum wins)."""


def _closest(d: Decision, want: int) -> int:
    """Index of `want`, else of the largest candidate below it, else the smallest."""
    values = [c.value for c in d.candidates]
    if want in values:
        return values.index(want)
    below = [v for v in values if v < want]
    return values.index(max(below) if below else min(values))


def _tile(d: Decision, outer: int | None = None) -> int:
    """From max(2, min_value) down to min_value, the first multiple of the divisibility
    (the decision's step) that divides every loop the decision drives: its extent, and
    for a tile within another tile, that tile too; else the smallest candidate."""
    values = [c.value for c in d.candidates]
    least = min(values)
    for want in range(max(V1_MAX_TILE, least), least - 1, -1):
        if want % d.step == 0 and want in values and \
                (d.extent is None or d.extent % want == 0) and \
                (outer is None or outer % want == 0):
            return values.index(want)
    return values.index(least)


def _static_trip(problem: Problem, d: Decision, trip) -> int | None:
    """A loop's trip count as V1 sees it: None (dynamic) when it walks a tile, since V1
    chooses tile sizes after it parallelises."""
    if isinstance(trip, str):
        return None
    return trip


def _pick(trips: list[int | None], n: int) -> int | None:
    """V1's loop selection over trip counts (outermost first): balanced static, then
    imbalanced static, then dynamic; None when no loop qualifies."""
    for test in (lambda t: t is not None and t >= n and t % n == 0,
                 lambda t: t is not None and t >= n,
                 lambda t: t is None):
        pick = next((k for k, t in enumerate(trips) if test(t)), None)
        if pick is not None:
            return pick
    return None


def _distribute(problem: Problem, d: Decision, corelets: int) -> int:
    """One decision whose candidates name the loops (outermost first): N instances on
    the loop V1 selects."""
    full = [i for i, c in enumerate(d.candidates) if c.value == corelets]
    pick = _pick([_static_trip(problem, d, d.candidates[i].trip) for i in full], corelets)
    if pick is not None:
        return full[pick]
    return _closest(d, 1)


def _distribute_group(problem: Problem, group: list[Decision], choice: dict[str, int]) -> None:
    """One decision per nested loop (outermost first): the loop V1 selects gets the
    corelets, the others 1."""
    corelets = problem.corelets
    pick = _pick([_static_trip(problem, d, d.trip) for d in group], corelets)
    for k, d in enumerate(group):
        choice[d.name] = _closest(d, corelets if k == pick else 1)


def _scratchpad_rotations(problem: Problem) -> set[str]:
    """The modulo decisions that rotate a scratchpad buffer (V1 double-buffers only
    those), found in one pass over the buffers."""
    return {b.modulo for p in problem.programs for b in p.buffers
            if b.modulo is not None and b.memory not in problem.other_memories}


def v1_choice(problem: Problem) -> dict[str, int]:
    choice: dict[str, int] = {}
    rotating = _scratchpad_rotations(problem)
    for d in problem.decisions:  # (an outer tile comes before the tiles within it)
        if d.kind == "tile":
            outer = None
            if d.within is not None and d.within in choice:
                w = problem.decision(d.within)
                outer = w.candidates[choice[d.within]].value
            choice[d.name] = _tile(d, outer)
        elif d.kind == "modulo":
            choice[d.name] = _closest(d, 2 if d.name in rotating else 1)
        elif d.kind == "keep":
            choice[d.name] = _closest(d, 0)  # V1 keeps nothing: every compute re-reads
        elif d.kind == "share":
            choice[d.name] = _closest(d, 0)  # V1 shares nothing: every core reads memory
        elif d.kind == "order":
            choice[d.name] = 0  # V1 nests tile loops in the dims' order
        elif any(c.loop for c in d.candidates):
            choice[d.name] = _distribute(problem, d, problem.corelets)
    # Distributed loops written as one decision per loop, grouped by instance group.
    for p in problem.programs:
        for lim in p.instance_limits:
            _distribute_group(problem, [problem.decision(n) for n in lim.decisions], choice)
    for d in problem.decisions:
        if d.kind == "distribute" and d.name not in choice:
            _distribute_group(problem, [d], choice)
    _even_fifo_split(problem, choice)
    # A program whose double buffers do not fit is single-buffered.
    for v in cost.violations(problem, choice):
        if v.kind != "capacity":
            continue
        for d in problem.program_decisions(v.program):
            if d.kind == "modulo":
                choice[d.name] = _closest(d, 1)
    for d in problem.decisions:  # (read only by a form of a program that does not run)
        choice.setdefault(d.name, 0)
    return choice


def _even_fifo_split(problem: Problem, choice: dict[str, int]) -> None:
    """V1 has no FIFO choices: each FIFO gets the queue divided evenly among the FIFOs
    sharing it in one phase, and an elementwise pipeline moves as many vectors per
    instruction as its FIFOs' share and the register file allow, held in the FIFOs."""
    share: dict[str, int] = {}
    for p in problem.programs:
        for split in p.fifo_splits:
            each = max(1, split.depth // len(split.decisions))  # (1: shared in send order)
            for d in split.decisions:
                choice[d] = _closest(problem.decision(d), each)
            share[split.chunk] = min(share.get(split.chunk, each), each)
    for name, most in share.items():
        candidates = problem.decision(name).candidates
        held = [i for i, c in enumerate(candidates) if not c.streams and c.value <= most]
        # each FIFO its own share where the queue has room for one (V1 has no other
        # split); a problem restricted to other chunks has none: its first
        plain = [i for i in held if not candidates[i].in_send_order]
        choice[name] = (plain or held or [0])[-1]


def v1_keep_choice(problem: Problem) -> dict[str, int]:
    """V1's schedule plus residency: each input kept (decision order) when it still fits."""
    choice = v1_choice(problem)
    for d in problem.decisions:
        if d.kind != "keep":
            continue
        keep = [i for i, c in enumerate(d.candidates) if c.value == 1]
        if keep and cost.feasible(problem, {**choice, d.name: keep[0]}):
            choice[d.name] = keep[0]
    return choice


def heuristic(problem: Problem, objective: str = "latency", keep: bool = False) -> Solution:
    choice = v1_keep_choice(problem) if keep else v1_choice(problem)
    if not cost.feasible(problem, choice):
        raise explain_infeasible(problem, heuristic_choice=choice)
    return Solution(problem, choice, objective, "heuristic+keep" if keep else "heuristic")
