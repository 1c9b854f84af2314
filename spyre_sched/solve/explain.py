"""The solver trace: what was decided and why, the objective term by term, CP-SAT's
statistics; and infeasible models explained in words a kernel author understands.

"Why" is measured, not guessed: every other candidate of a decision is tried with the
rest of the solution fixed, under the same cost model; an alternative either breaks a
named constraint (the binding constraint) or changes named objective terms.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from dataclasses import replace

from ortools.sat.python import cp_model

from spyre_sched.solve import cost
from spyre_sched.solve.model import build
from spyre_sched.solve.problem import (
    Choice,
    Decision,
    InfeasibleError,
    Problem,
    Program,
    modulo_scope,
    program_decision_names,
)
from spyre_sched.solve.solution import Solution
from spyre_sched.solve.units import fmt_bytes, fmt_bytes_apart

ENUMERATION_LIMIT = 100_000


# ---- minima over a constraint's decisions -----------------------------------------------


def _minimum(problem: Problem, scope: tuple[str, ...], value: Callable[[Choice], int],
             fixed: Callable[[Decision], list[int]] | None = None) -> int | None:
    """Smallest `value` over every combination of `scope` (restricted by `fixed`, which
    gives the allowed candidate indices of a decision); None if nothing is allowed."""
    decisions = [problem.decision(d) for d in scope]
    ranges = [fixed(d) if fixed else list(range(len(d.candidates))) for d in decisions]
    total = 1
    for r in ranges:
        total *= len(r)
    if total == 0:
        return None
    if total > ENUMERATION_LIMIT:  # fall back to CP-SAT's answer on the same tables
        return None
    return min(value(dict(zip(scope, key))) for key in itertools.product(*ranges))


def _buffer_scope(program: Program) -> tuple[str, ...]:
    names: dict[str, None] = {}
    for b in program.buffers:
        for d in (*b.bytes.scope, *modulo_scope(b.modulo)):
            names[d] = None
    return tuple(names)


def _modulo_fixed(problem: Problem, want: int) -> Callable[[Decision], list[int]]:
    def allowed(d: Decision) -> list[int]:
        if d.kind != "modulo":
            return list(range(len(d.candidates)))
        return [i for i, c in enumerate(d.candidates) if c.value == want]
    return allowed


def _capacity_words(problem: Problem, program: Program) -> str:
    scope = _buffer_scope(program)
    need = lambda ch: cost.program_buffer_bytes(problem, program, ch)  # noqa: E731
    cap = problem.scratchpad_bytes
    pinned = problem.pinned_bytes
    has_modulo = any(problem.decision(d).kind == "modulo" for d in scope)
    single = _minimum(problem, scope, need, _modulo_fixed(problem, 1)) if has_modulo else None
    double = _minimum(problem, scope, need, _modulo_fixed(problem, 2)) if has_modulo else None
    least = _minimum(problem, scope, need)
    pin_text = ""
    if pinned:
        regions = ", ".join(f"{r.name} {fmt_bytes(r.bytes)}"
                            + (f", {fmt_bytes(r.reserved)} aligned" if r.reserved != r.bytes else "")
                            for r in problem.pinned)
        pin_text = f" plus {fmt_bytes(pinned)} pinned by the kernel ({regions})"
    head = f"buffers of program {program.index} ({program.name})"
    if double is not None:
        need_text, cap_text = fmt_bytes_apart(double, cap)
        text = (f"{head} need {need_text} with double buffering at the smallest "
                f"tiles; scratchpad holds {cap_text}")
        if single is not None:
            text += f"; even single-buffered the smallest tiles need {fmt_bytes(single)}"
        return text + pin_text
    if least is None:
        return f"{head} and the kernel's pinned regions do not fit {fmt_bytes(cap)} of scratchpad"
    need_text, cap_text = fmt_bytes_apart(least, cap)
    return (f"{head} need at least {need_text} (smallest tiles){pin_text}; "
            f"scratchpad holds {cap_text}")


def _bounded_words(problem: Problem, program: Program, kind: str, name: str) -> str:
    if kind == "fifo" and name.startswith("queue "):
        split = next(s for s in program.fifo_splits if f"queue {s.name}" == name)
        return (f"the {len(split.decisions)} FIFOs {split.name} of program {program.index} "
                f"need at least one entry each; the queue holds {split.depth}")
    if kind == "fifo":
        f = next(f for f in program.fifos if f"FIFO {f.name}" == name)
        least = _minimum(problem, f.entries.scope, f.entries.at)
        return (f"FIFO {f.name} of program {program.index} needs at least {least} entries "
                f"in flight; its depth is {f.depth}")
    r = next(r for r in program.registers if f"register file for {r.name}" == name)
    least = _minimum(problem, r.bytes.scope, r.bytes.at)
    need_text, has_text = fmt_bytes_apart(least or 0, r.capacity)
    return (f"accumulator {r.name} of program {program.index} needs at least "
            f"{need_text} of register file; the compute unit has {has_text}")


def explain_infeasible(problem: Problem,
                       heuristic_choice: dict[str, int] | None = None) -> InfeasibleError:
    """Which constraints conflict, in words (CP-SAT's sufficient assumptions)."""
    built = build(problem, with_assumptions=True)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = 0
    status = solver.solve(built.model)
    by_index = {c.literal.index: c for c in built.constraints if c.literal is not None}
    if status == cp_model.INFEASIBLE:
        core = [by_index[i] for i in solver.sufficient_assumptions_for_infeasibility()
                if i in by_index]
    else:
        core = []
    reasons: list[str] = []
    programs = {p.index: p for p in problem.programs}
    for c in core:
        program = programs[c.program]
        if c.kind == "capacity" and c.name.startswith("scratchpad"):
            reasons.append(_capacity_words(problem, program))
        elif c.kind == "capacity":
            kind = c.name.split(" of program")[0]
            least = _minimum(problem, _buffer_scope(program),
                             lambda ch: cost.program_buffer_bytes(problem, program, ch, kind))
            need_text, has_text = fmt_bytes_apart(least or 0, problem.other_memories[kind])
            reasons.append(f"buffers of program {program.index} in {kind} need at least "
                           f"{need_text}; a core's {kind} holds {has_text}")
        else:
            reasons.append(_bounded_words(problem, program, c.kind, c.name))
    if heuristic_choice is not None and status != cp_model.INFEASIBLE:
        broken = cost.violations(problem, heuristic_choice)
        picked = ", ".join(f"{d.name} = {d.candidates[heuristic_choice[d.name]].label}"
                           for d in problem.decisions)
        reasons = [f"the V1 rules choose {picked}, which breaks: "
                   + "; ".join(str(v) for v in broken)
                   + " (the solver strategy finds a schedule that fits)"]
    if not reasons:
        reasons = ["the constraints conflict, but no single constraint can be named"]
    head = ("no schedule fits" if heuristic_choice is None
            else "the heuristic (V1) schedule does not fit")
    message = f"{problem.kernel} on {problem.device}: {head}: " + "; ".join(reasons)
    return InfeasibleError(message, reasons, [c.name for c in core])


# ---- why each decision took its value ------------------------------------------------


class _Effects:
    """What putting one decision on another candidate does, the rest of the solution kept.

    Only the programs whose figures depend on the decision are costed again; every other
    program keeps the chosen solution's figures (computed once here), so explaining a
    decision costs what its own programs cost, not the whole kernel."""

    def __init__(self, problem: Problem, base: Choice):
        self.problem, self.base = problem, base
        self.programs_of: dict[str, list[Program]] = {}
        for prog in problem.programs:
            for name in program_decision_names(prog):
                self.programs_of.setdefault(name, []).append(prog)
        self.pairs_of: dict[str, list[tuple[int, tuple[str, str]]]] = {}
        pairs = problem.within_pairs()
        for k, pair in enumerate(pairs):
            for name in dict.fromkeys(pair):
                self.pairs_of.setdefault(name, []).append((k, pair))
        self.within = [(k, v) for k, pair in enumerate(pairs)
                       for v in cost.within_violations(problem, base, [pair])]
        # constraints the chosen solution itself breaks (normally none)
        self.broken = {p.index: found for p in problem.programs
                       if (found := cost.program_violations(problem, p, base))}
        self.cycles = {p.index: cost.program_cycles(problem, p, base) for p in problem.programs}
        self.scratchpad = {p.index: cost.program_scratchpad(problem, p, base)
                           for p in problem.programs}
        self.peak = cost.peak_scratchpad(problem, base)
        # programs by scratchpad, largest first: the peak without some of them
        self.by_scratchpad = sorted(problem.programs,
                                    key=lambda p: (-self.scratchpad[p.index], p.index))
        self._pipelines: dict[int, list[cost.PipelineCost]] = {}

    def pipelines(self, prog: Program) -> list[cost.PipelineCost]:
        if prog.index not in self._pipelines:
            self._pipelines[prog.index] = [cost.pipeline_breakdown(self.problem, p, self.base)
                                           for p in prog.pipelines]
        return self._pipelines[prog.index]

    def _violations(self, name: str, alt: Choice,
                    programs: list[Program]) -> list[cost.Violation]:
        """`cost.violations(problem, alt)`, in its order, from the parts `name` moves."""
        problem = self.problem
        moved = {k for k, _ in self.pairs_of.get(name, ())}
        within = [(k, v) for k, v in self.within if k not in moved]
        for k, pair in self.pairs_of.get(name, ()):
            within.extend((k, v) for v in cost.within_violations(problem, alt, [pair]))
        out = [v for _, v in sorted(within, key=lambda kv: kv[0])]
        again = {p.index for p in programs}
        by_program = {i: vs for i, vs in self.broken.items() if i not in again}
        for prog in programs:
            by_program[prog.index] = cost.program_violations(problem, prog, alt)
        for index in sorted(by_program):
            out.extend(by_program[index])
        return out

    def _peak(self, alt: Choice, programs: list[Program]) -> int:
        again = {p.index for p in programs}
        kept = next((self.scratchpad[p.index] for p in self.by_scratchpad
                     if p.index not in again), None)
        values = [cost.program_scratchpad(self.problem, p, alt) for p in programs]
        if kept is not None:
            values.append(kept)
        return max(values, default=self.problem.pinned_bytes)

    def effect(self, name: str, index: int) -> dict[str, object]:
        """Decision `name` on candidate `index` instead of the chosen one."""
        problem = self.problem
        if problem.decision(name).kind == "chunk":
            # a chunk candidate is priced with its FIFOs' depths: they move with it
            alt: Mapping[str, int] = {**self.base, name: index,
                                      **problem.chunk_depths(name, index)}
        else:
            alt = _Override(self.base, name, index)
        programs = self.programs_of.get(name, [])
        broken = self._violations(name, alt, programs)
        if broken:
            return {"feasible": False, "breaks": [str(v) for v in broken]}
        out: dict[str, object] = {
            "feasible": True,
            "delta_cycles": sum(cost.program_cycles(problem, p, alt) - self.cycles[p.index]
                                for p in programs),
            "delta_scratchpad": self._peak(alt, programs) - self.peak,
        }
        # The objective term that moves most: a pipeline of a program.
        worst = None
        for prog in programs:
            for pipe, a in zip(prog.pipelines, self.pipelines(prog)):
                b = cost.pipeline_breakdown(problem, pipe, alt)
                delta = prog.calls * (b.cycles - a.cycles)
                if delta and (worst is None or abs(delta) > abs(worst[0])):
                    # a pipeline without its program's prefix (a run-once pipeline) is
                    # named with its program: a choice spanning programs may move another's
                    named = pipe.name if pipe.name.startswith(f"p{prog.index}.") else \
                        f"{pipe.name} of program {prog.index}"
                    worst = (delta, named, a, b)
        if worst is not None:
            delta, named, a, b = worst
            out["term"] = (f"pipeline {named}: {a.cycles} -> {b.cycles} cycles "
                           f"(iterations {a.iterations} -> {b.iterations}, slowest engine "
                           f"{a.bottleneck} {a.slowest} -> {b.bottleneck} {b.slowest}, "
                           f"fill+drain {a.fill_drain} -> {b.fill_drain})")
        return out


class _Override(Mapping[str, int]):
    """`base` with one decision put on another candidate (without copying `base`)."""

    def __init__(self, base: Choice, name: str, index: int):
        self.base, self.name, self.index = base, name, index

    def __getitem__(self, key: str) -> int:
        return self.index if key == self.name else self.base[key]

    def __iter__(self):
        return iter(self.base)

    def __len__(self) -> int:
        return len(self.base)


def _why(problem: Problem, d: Decision, choice: dict[str, int], objective: str,
         strategy: str, alternatives: list[dict[str, object]]) -> str:
    chosen = d.candidates[choice[d.name]]
    if strategy in ("heuristic", "heuristic+keep"):
        keep = ("V1+keep rule: an input is kept resident when the schedule still fits"
                if strategy == "heuristic+keep"
                else "V1 rule: every compute re-reads its inputs (keep 0)")
        rule = {"tile": "V1 rule: from max(2, min_value) down, the first multiple of the "
                        "divisibility that divides the extent",
                "modulo": "V1 rule: double buffering (modulo 2) where it fits",
                "distribute": "V1 rule: corelets on the first balanced static loop, else "
                              "imbalanced static, else dynamic (a loop over a tile)",
                "keep": keep,
                "share": "V1 rule: every core reads its inputs from device memory (share 0)",
                "chunk": "V1 rule: as many vectors per instruction as the register file and "
                         "the FIFOs' even share allow, held in the FIFOs",
                "fifo": "V1 rule: the queue divided evenly among the FIFOs of one phase"}[d.kind]
        return rule
    if strategy == "random":
        return "random feasible schedule (a seeded walk from the V1 schedule)"
    if d.kind == "order":  # (the other form is not in the problem: the solve compared them)
        return d.rule
    bigger = [a for a in alternatives if a["value"] > chosen.value]
    smaller = [a for a in alternatives if a["value"] < chosen.value]
    parts: list[str] = []
    blocked = [a for a in bigger if not a["effect"]["feasible"]]
    if blocked:
        first = blocked[0]
        parts.append(f"{first['candidate']} would break the binding constraint: "
                     f"{first['effect']['breaks'][0]}")
    key = "delta_scratchpad" if objective == "memory" else "delta_cycles"
    feasible = [a for a in alternatives if a["effect"]["feasible"]]
    if feasible:
        nearest = min(feasible, key=lambda a: (abs(a["value"] - chosen.value), a["value"]))
        e = nearest["effect"]
        if e[key] == 0 and e["delta_cycles"] == 0:
            parts.append(f"{nearest['candidate']} gives the same objective (a tie)")
        else:
            unit = "bytes of scratchpad" if objective == "memory" else "cycles"
            change = e[key] if e[key] else e["delta_cycles"]
            unit = unit if e[key] else "cycles"
            text = f"{nearest['candidate']} costs {change:+d} {unit}"
            if e.get("term"):
                text += f" ({e['term']})"
            parts.append(text)
    if d.kind == "chunk":
        fewer = [a for a in smaller if a["effect"]["feasible"]
                 and a["effect"]["delta_cycles"] == 0 and a["effect"]["delta_scratchpad"] == 0]
        if fewer:  # (either objective's tie-break)
            parts.append(f"{len(fewer)} of fewer vectors (e.g. {fewer[0]['candidate']}) give "
                         "the same cycles and scratchpad: the tie-break takes the most "
                         "vectors per instruction")
        parts += _other_chunk_mode(chosen, alternatives, key)
    if d.kind == "fifo":
        parts += _fifo_share_words(problem, d, choice)
    if not parts:
        parts.append("the only candidate" if not (bigger or smaller)
                     else "every other candidate breaks a constraint")
    return "; ".join(parts)


def _fifo_share_words(problem: Problem, d: Decision, choice: dict[str, int]) -> list[str]:
    """For a FIFO's depth: how its queue is given out, and what the pipeline's chunk asks
    of it."""
    for p in problem.programs:
        for split in p.fifo_splits:
            if d.name not in split.decisions:
                continue
            given = [problem.decision(n).candidates[choice[n]].value for n in split.decisions]
            chunk = problem.decision(split.chunk).candidates[choice[split.chunk]]
            k = split.decisions.index(d.name)
            entries = chunk.entries[split.offset + k] if chunk.entries else chunk.value
            need = (f"streams through it, priced at {entries} entries here" if chunk.streams
                    else f"is held: this FIFO gets its {entries} entries")
            if sum(given) > split.depth:
                queue = (f"the queue {split.name} of {split.depth} entries is shared in send "
                         f"order by its {len(given)} FIFOs, given {'+'.join(map(str, given))}")
            else:
                queue = (f"the queue {split.name} gives out {'+'.join(map(str, given))} of "
                         f"{split.depth} entries")
            return [f"{queue}; chunk {split.chunk} = {chunk.label} {need}"]
    return []


def _other_chunk_mode(chosen, alternatives: list[dict[str, object]], key: str) -> list[str]:
    """For a chunk: the best feasible candidate of the other mode (held in the FIFOs or
    streaming through them) and what it costs, and the largest held one and why not."""
    out = []
    other = [a for a in alternatives if a["effect"]["feasible"]
             and ("streaming" in a["candidate"]) != chosen.streams]
    if other:
        best = min(other, key=lambda a: (a["effect"][key], a["effect"]["delta_cycles"],
                                         a["value"]))
        e = best["effect"]
        out.append(f"the best {'streaming' if not chosen.streams else 'held'} chunk, "
                   f"{best['candidate']}, costs {e['delta_cycles']:+d} cycles")
    held_blocked = [a for a in alternatives if not a["effect"]["feasible"]
                    and "streaming" not in a["candidate"]]
    if held_blocked and not chosen.streams:
        pass  # the first breaking one is already named above
    elif held_blocked:
        first = min(held_blocked, key=lambda a: a["value"])
        out.append(f"held {first['candidate']} would break: {first['effect']['breaks'][0]}")
    return out


def decision_report(problem: Problem, choice: dict[str, int], objective: str,
                    strategy: str) -> list[dict[str, object]]:
    """Per decision: its candidates, the chosen one, what every other one would do, and why
    the chosen one won."""
    effects = _Effects(problem, choice)
    out: list[dict[str, object]] = []
    for d in problem.decisions:
        alternatives = []
        for i, c in enumerate(d.candidates):
            # (the other form of a program is not in the problem: `rule` compares them)
            if i == choice[d.name] or d.kind == "order":
                continue
            alternatives.append({"candidate": c.label, "value": c.value,
                                 "effect": effects.effect(d.name, i)})
        chosen = d.candidates[choice[d.name]]
        out.append({
            "decision": d.name, "kind": d.kind, "program": d.program, "source": d.source,
            "rule": d.rule, "candidates": [c.label for c in d.candidates],
            "chosen": chosen.label, "value": chosen.as_data(),
            "why": _why(problem, d, choice, objective, strategy, alternatives),
            "alternatives": alternatives,
        })
    return out


# ---- the trace ------------------------------------------------------------------------


def trace_summary(solution: Solution) -> dict[str, object]:
    """The trace without the explanation of each decision: per program its cycles,
    scratchpad, pipelines and buffers; the solver's figures. Its cost grows with the
    kernel's size; what the bundle records comes from here."""
    return _trace(solution, None)


def build_trace(solution: Solution) -> dict[str, object]:
    """The whole trace: the summary plus, per program, every decision with its
    candidates, what each other candidate would do, and why the chosen one won (each
    candidate costed again: built only when someone asks to see it)."""
    problem, choice = solution.problem, solution.choice
    if solution.decision_rules is not None:
        rules = solution.decision_rules()
        problem = replace(problem, decisions=tuple(
            replace(d, rule=rules[d.name]) if d.name in rules else d
            for d in problem.decisions))
    by_program: dict[int, list[dict[str, object]]] = {}
    for d in decision_report(problem, choice, solution.objective, solution.strategy):
        by_program.setdefault(d["program"], []).append(d)
    return _trace(solution, by_program)


def _trace(solution: Solution,
           decisions: dict[int, list[dict[str, object]]] | None) -> dict[str, object]:
    problem, choice = solution.problem, solution.choice
    memo: dict = {}  # one choice throughout: each nested pipeline is costed once
    programs = []
    for prog in problem.programs:
        entry: dict[str, object] = {
            "program": prog.index, "name": prog.name, "calls": prog.calls,
            "cycles": cost.program_cycles(problem, prog, choice, memo),
            # one call's cycles: the runtime multiplies them by the calls a launch makes
            "cycles_per_call": cost.program_cycles(problem, replace(prog, calls=1), choice,
                                                   memo),
            "assumed": list(prog.assumed),
            "scratchpad_bytes": cost.program_scratchpad(problem, prog, choice),
        }
        if decisions is not None:
            entry["decisions"] = decisions.get(prog.index, [])
        entry["pipelines"] = [cost.pipeline_breakdown(problem, p, choice, memo).as_data()
                              for p in prog.pipelines]
        entry["buffers"] = [{"buffer": b.name, "role": b.role, "memory": b.memory,
                             "bytes": b.bytes.at(choice),
                             "modulo": cost.modulo_value(problem, b.modulo, choice),
                             "total": b.bytes.at(choice) * cost.modulo_value(problem, b.modulo,
                                                                             choice)}
                            for b in prog.buffers]
        programs.append(entry)
    stats = solution.stats
    summary = {}
    if stats is not None:
        last = stats.phases[-1].as_data()
        summary = {"status": stats.status, "objective_value": last["objective"],
                   "bound": last["bound"], "gap": stats.as_data()["gap"],
                   "wall_time": stats.wall_time,
                   "num_branches": sum(p.branches for p in stats.phases),
                   "num_conflicts": sum(p.conflicts for p in stats.phases)}
    return {
        "kernel": problem.kernel, "device": problem.device,
        "objective": solution.objective, "strategy": solution.strategy, **summary,
        "predicted_cycles": solution.cycles,
        "scratchpad_bytes": solution.peak_scratchpad,
        "scratchpad_capacity": problem.scratchpad_bytes,
        "pinned": [{"region": r.name, "bytes": r.bytes, "reserved": r.reserved, "source": r.source}
                   for r in problem.pinned],
        "solver": solution.stats.as_data() if solution.stats else None,
        "notes": list(solution.notes),
        "programs": programs,
    }


def _render_pipeline(p: dict[str, object], indent: str, lines: list[str]) -> None:
    if p["modulo"] >= 2 and p["iterations"]:
        # iterations that each have a buffer copy follow at the units' occupancy
        pace = (f"issue {p.get('issue', 0)}" if p["iterations"] <= p["modulo"]
                else f"slowest {p['slowest']} ({p['bottleneck']})")
        how = f"fill+drain {p['fill_drain']} + ({p['iterations']} - 1) x {pace}"
        bound = p.get("shared_bound") or {}
        if bound:
            how += " or " + ", ".join(f"{mem} bound {c}" for mem, c in sorted(bound.items()))
    elif p["iterations"] >= 2 and p["slowest"] < p["fill_drain"]:
        # one copy: the next iteration follows when the buffers are free again
        n = p["iterations"]
        skew = p["cycles"] - p["fill_drain"] - (n - 1) * p["slowest"]
        how = (f"fill+drain {p['fill_drain']} + ({n} - 1) x period {p['slowest']}"
               + (f" + last core's skew {skew}" if skew else "") + " (unbuffered)")
    else:
        how = f"{p['iterations']} x {p['fill_drain']} (unbuffered)"
    lines.append(f"{indent}pipeline {p['pipeline']}: {p['cycles']} cycles = {how}"
                 f"; modulo {p['modulo']}")
    for s in p["stages"]:
        lines.append(f"{indent}  stage {s['stage']} on {s['engine']}: one iteration "
                     f"{s['one_iteration']}, steady {s['steady']}")
        for n in s["nested"]:
            _render_pipeline(n, indent + "    ", lines)


def _num(value, spec: str) -> str:
    return "unknown" if value is None else format(value, spec)


def render_trace(trace: dict[str, object]) -> str:
    lines = [f"kernel {trace['kernel']} on {trace['device']}: objective {trace['objective']}, "
             f"strategy {trace['strategy']}",
             f"predicted cycles {trace['predicted_cycles']}; peak scratchpad "
             f"{fmt_bytes(trace['scratchpad_bytes'])} of {fmt_bytes(trace['scratchpad_capacity'])}"]
    if trace["pinned"]:
        lines.append("pinned by the kernel: " + ", ".join(
            f"{r['region']} {fmt_bytes(r['bytes'])}" for r in trace["pinned"]))
    for prog in trace["programs"]:
        lines.append("")
        lines.append(f"program {prog['program']} ({prog['name']}): {prog['cycles']} cycles"
                     + (f" ({prog['calls']} calls)" if prog["calls"] != 1 else "")
                     + f", scratchpad {fmt_bytes(prog['scratchpad_bytes'])}")
        for assumption in prog.get("assumed") or []:
            lines.append(f"  assumed: {assumption} (`run` evaluates the prediction at launch: "
                         f"{prog.get('cycles_per_call')} cycles per call)")
        for d in prog["decisions"]:
            lines.append(f"  {d['decision']} = {d['chosen']}   candidates "
                         f"[{', '.join(d['candidates'])}]")
            if d["source"]:
                lines.append(f"      from: {d['source']}")
            lines.append(f"      why: {d['why']}")
        for b in prog["buffers"]:
            lines.append(f"  buffer {b['buffer']} ({b['role']}): {b['bytes']} B x "
                         f"{b['modulo']} = {fmt_bytes(b['total'])}")
        for p in prog["pipelines"]:
            _render_pipeline(p, "  ", lines)
    lines.append("")
    for note in trace["notes"]:
        lines.append(f"note: {note}")
    s = trace["solver"]
    if s is None:
        lines.append("solver: not run (heuristic strategy)")
    else:
        found = s.get("found_by", "CP-SAT")
        lines.append(f"CP-SAT: {s['status']}"
                     + (" (found by the programs' own solves, whose least cycles add up to "
                        "the kernel's lower bound: the kernel's model was not searched)"
                        if found == "programs" else
                        f" (found by the {found}: CP-SAT stopped before a schedule of its own)"
                        if found != "CP-SAT" else "")
                     + f", gap {_num(s['gap'], '.4g')}, wall time "
                     f"{s['wall_time']:.3f} s, {s['variables']} variables, "
                     f"{s['constraints']} constraints, {s['workers']} worker(s), seed {s['seed']}")
        if s.get("model_objective") is not None:
            lines.append(f"  the model's figure for this schedule: {s['model_objective']} "
                         f"cycles; the exact cost model's: {trace['predicted_cycles']}")
        for ph in s["phases"]:
            lines.append(f"  minimise {ph['minimises']}: {ph['status']}, objective "
                         f"{_num(ph['objective'], '.0f')}, bound {_num(ph['bound'], '.0f')}, "
                         f"gap {_num(ph['gap'], '.4g')}, "
                         + (f"CP-SAT {ph['cp_sat_status']}, the hint kept, "
                            if ph.get("cp_sat_status") else "")
                         + f"{ph['wall_time']:.3f} s, {ph['branches']} branches, "
                         f"{ph['conflicts']} conflicts")
        for ph in s.get("tie_breaks", []):
            lines.append(f"  tie-break, {ph['minimises']}: {ph['status']}"
                         + (" (stopped on its budget)" if ph["status"] != "OPTIMAL" else "")
                         + f", {ph['wall_time']:.3f} s")
        if s.get("polished"):
            lines.append("  the tie-break's schedule polished one decision at a time under "
                         "the exact cost model, at the same cycles")
    return "\n".join(lines) + "\n"
