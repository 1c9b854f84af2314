"""The Python API: `spyre_sched.compile(kernel, device=..., objective=...) -> Schedule`.

    import spyre_sched
    s = spyre_sched.compile("examples/add_96x64.mlir", device="spyre", objective="latency")
    s.decisions          # per program: tile sizes, modulo per pipeline, instances per loop
    s.predicted_cycles   # the cost model's cycles for the chosen schedule
    s.scratchpad_bytes   # peak scratchpad of one core (pinned regions included)
    s.trace              # the solver trace as plain data (what `explain` prints)
    s.summary            # the trace without the explanation of each decision
    s.schedule_ir        # the solved ScheduleIR text (what the lowering reads)

`kernel` is a KTIR file, KTIR text, a parsed `Kernel`, or saved ScheduleIR (open or
solved: its decisions are solved again).

The explanation of each decision (every other candidate costed again) is built the first
time `s.trace` is read, not by `compile` itself: a compile that only writes a bundle never
pays for it.
"""

from __future__ import annotations

import contextlib
import io
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.printer import Printer

from spyre_sched.errors import ParseError, SpyreSchedError, UsageError
from spyre_sched.frontend import Kernel

if TYPE_CHECKING:
    from spyre_sched.solve.solution import Solution

DEVICE_ATTR = "ktdf.device"


@dataclass
class Schedule:
    kernel: str
    device: str
    objective: str
    strategy: str
    decisions: list[dict]
    """Per program: {"program", "name", "tiles", "modulo", "instances"} (name -> value)."""
    predicted_cycles: int
    scratchpad_bytes: int
    summary: dict
    """The solver trace without the explanation of each decision (`trace_summary`)."""
    schedule_ir: str
    kernel_path: str | None = None
    kernel_text: str | None = None
    solver_log: str = ""
    module: ModuleOp | None = field(default=None, repr=False)
    argument_shapes: dict[str, tuple[int, ...]] = field(default_factory=dict)
    """Per pointer argument with a static shape: the shape of the array passed for it, the
    memory at the pointer (`spyre_sched.frontend.arguments`); the bundle states it."""
    solution: Solution | None = field(default=None, repr=False)
    folded_arguments: dict[str, int | float] = field(default_factory=dict)
    """Scalar arguments whose value was folded into the kernel before scheduling (`--arg`):
    the schedule holds only for these values; the bundle records them (jobplan.json)."""
    device_file: str | None = None
    """The device description file the schedule was compiled for, when `device` named
    one (not a shipped device): `run` emulates that file."""
    _trace: dict | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def trace(self) -> dict:
        """The whole solver trace (what `explain` prints), built on first use."""
        if self._trace is None:
            from spyre_sched.solve.explain import build_trace

            if self.solution is None:
                raise SpyreSchedError("this schedule carries no solution to explain",
                                      self.kernel)
            self._trace = build_trace(self.solution)
        return self._trace

    @property
    def values(self) -> dict[str, int]:
        """Every decision by name -> its value."""
        out: dict[str, int] = {}
        for p in self.decisions:
            for key in ("tiles", "modulo", "instances"):
                out.update(p[key])
        return out


def print_ir(module: ModuleOp) -> str:
    out = io.StringIO()
    Printer(out).print_op(module)
    return out.getvalue() + "\n"


def _parse_schedule_ir(text: str, filename: str) -> ModuleOp:
    from xdsl.utils.exceptions import ParseError as XdslParseError

    from spyre_sched.dialects.registry import make_context
    from spyre_sched.located_parser import LocatedParser, location_in_text

    try:
        parser = LocatedParser(make_context(), text, filename)
        module = parser.parse_module()
        module.verify()
    except XdslParseError as err:
        raise ParseError(err.msg, location_in_text(text, filename, err.span.start)) from None
    except SpyreSchedError:
        raise
    except Exception as err:  # xDSL raises several kinds while building and verifying
        raise ParseError(str(err).strip().splitlines()[0] if str(err).strip() else
                         type(err).__name__, filename) from None
    return module


def _is_schedule_ir(text: str) -> bool:
    """ScheduleIR names its device and holds `ktdf` ops or attributes. A module printed by
    `--stop-after` names the pass it stopped after, which settles it: after a normal-form
    pass it is still KTIR (compiled again), though it may carry `ktdf` attributes
    (`ktdf.owner_by_tile = ...`). Comments say nothing."""
    from spyre_sched.pipeline import KTIR_ONLY

    code = re.sub(r"//[^\n]*", "", text)
    if DEVICE_ATTR not in code:
        return False
    stopped = re.search(r'\bktdf\.stopped_after\s*=\s*"([^"]*)"', code)
    if stopped is not None:
        return stopped.group(1) not in KTIR_ONLY
    return re.search(r"\bktdf\.(?!device\b|stopped_after\b)", code) is not None


def refuse_races(kernel: Kernel) -> None:
    """Refuse a kernel with a proven race between tiles (what `check` reports as an error,
    with its witness): its result would depend on timing, so no schedule of it can be
    checked against the reference. `allow_races=True` (`--allow-races`) skips this."""
    from spyre_sched.errors import AnalysisError
    from spyre_sched.polyhedral.checks import proven_races

    with located_in(kernel):
        races = proven_races(kernel.func)
    if races:
        more = (f" (and {len(races) - 1} more: `spyre-sched check` lists them)"
                if len(races) > 1 else "")
        raise AnalysisError(f"{races[0].message}{more}; a kernel with a proven race is not "
                            "compiled (its outputs would depend on timing): fix it, or pass "
                            "--allow-races (allow_races=True) to compile it anyway",
                            kernel.location_of(races[0].op))


def load_schedule_input(kernel: str | Path | Kernel, device: str, *, print_after_all=None,
                        stop_after: str | None = None,
                        argument_shapes: dict | None = None, allow_races: bool = False,
                        func: str | None = None, arguments: dict | None = None,
                        folded_arguments: dict | None = None,
                        verify_each: bool | None = None, in_memory: bool = False,
                        interchange: bool = False,
                        ) -> tuple[ModuleOp, str | None, str | None]:
    """Open ScheduleIR for `kernel` (scheduled now, or read back from a saved file), with
    the kernel's path and text when known. `argument_shapes`, when given, is filled with
    `memory_shapes` of a KTIR kernel (saved ScheduleIR has no kernel to infer them from).
    KTIR with a proven race is refused (`refuse_races`) unless `allow_races`. `func`: the
    kernel function's name, for a file that defines several. `arguments`: values of plain
    scalar arguments, folded into the kernel before it is scheduled (`bind_arguments`);
    `folded_arguments`, when given, is filled with the values actually folded.
    `verify_each`: verify the IR after every pass, not only after the last. `in_memory`:
    send the compute results a later compute reads along its reduction through device
    memory (`intermediates-in-memory`) even where the kernel fits as written.
    `interchange`: interchange the tile nests interchange-tile-loops offers."""
    from spyre_sched.frontend.bind_arguments import bind_scalar_arguments
    from spyre_sched.frontend.constant_strides import fold_constant_strides
    from spyre_sched.frontend.kernel import parse_kernel
    from spyre_sched.located_parser import read_source
    from spyre_sched.pipeline import reschedule, schedule

    if isinstance(kernel, Kernel):
        parsed, source, text = kernel, kernel.filename, None
    else:
        path = None
        # a one-line string names a file when it ends in .mlir, or has no brace (no kernel
        # fits on one line without one): `x.txt` is a missing file, not MLIR text
        if isinstance(kernel, Path) or (isinstance(kernel, str) and "\n" not in kernel
                                        and (Path(kernel).suffix == ".mlir" or "{" not in kernel)):
            path = Path(kernel)
            text = read_source(path, "kernel file", ParseError)
            name = str(path)
        else:
            text, name = str(kernel), "<input>"
        source = str(path) if path else None
        if _is_schedule_ir(text):
            module = _parse_schedule_ir(text, name)
            return reschedule(module, print_after_all=print_after_all), source, text
        parsed = parse_kernel(text, name, func=func)
    folded = bind_scalar_arguments(parsed, arguments or {})
    fold_constant_strides(parsed)
    if folded_arguments is not None:
        folded_arguments.update(folded)
    if argument_shapes is not None:
        argument_shapes.update(memory_shapes(parsed))
    if not allow_races:
        refuse_races(parsed)
    module = schedule(parsed, device, print_after_all=print_after_all, stop_after=stop_after,
                      verify_each=verify_each, in_memory=in_memory, interchange=interchange)
    return module, source, text


def _kernel_copy(kernel: Kernel) -> Kernel:
    """An independent copy of a parsed kernel (its ops' source locations are the
    original's, so an error in the copy is named by pass and op)."""
    module = kernel.module.clone()
    name = kernel.func.sym_name.data
    fn = next(op for op in module.ops if isinstance(op, FuncOp) and op.sym_name.data == name)
    return Kernel(module, fn, kernel.filename)


def memory_shapes(kernel: Kernel) -> dict[str, tuple[int, ...]]:
    """Per pointer argument with a static shape, in one memory: the shape of the array
    passed for it (the memory at the pointer; the rule is `spyre_sched.frontend.arguments`)."""
    from spyre_sched.frontend.arguments import infer_arguments

    with located_in(kernel):
        arguments = infer_arguments(kernel.func)
    return {a.name: tuple(a.shape) for a in arguments
            if a.extent is not None and a.shape and None not in a.shape}


@contextlib.contextmanager
def located_in(kernel: Kernel):
    """The kernel analyses name the op an error is about (`err.op`) and leave locating it
    to the caller: here, at that op's line in the kernel's file."""
    try:
        yield
    except SpyreSchedError as err:
        op = getattr(err, "op", None)
        if err.location is None and op is not None:
            err.location = kernel.location_of(op)
        raise


def decisions_by_program(solution) -> list[dict]:
    problem = solution.problem
    out = []
    for prog in problem.programs:
        entry: dict = {"program": prog.index, "name": prog.name, "tiles": {}, "modulo": {},
                       "instances": {}}
        for d in problem.program_decisions(prog.index):
            value = d.candidates[solution.choice[d.name]].value
            key = {"tile": "tiles", "modulo": "modulo", "distribute": "instances",
                   "keep": "keep", "share": "share", "chunk": "chunks", "fifo": "fifo_depths",
                   "order": "loop_order"}[d.kind]
            if d.kind == "chunk":  # vectors per instruction, held in the FIFOs or streaming
                value = d.candidates[solution.choice[d.name]].label
            if d.kind == "order":
                value = "interchanged" if value else "dims"
            # "keep", "share", "chunks", "fifo_depths" and "loop_order" only where there is
            # a choice
            entry.setdefault(key, {})[d.name] = value
        out.append(entry)
    return out


def compile(kernel: str | Path | Kernel, device: str = "spyre", objective: str = "latency",
            strategy: str = "solver", *, time_limit: float | None = None, workers: int = 1,
            seed: int = 0, solver_log: bool = False, print_after_all=None,
            allow_races: bool = False, func: str | None = None,
            arguments: dict | None = None, pinned: tuple[str, ...] = (),
            verify_each: bool | None = None, in_memory: bool | None = None) -> Schedule:
    """Schedule `kernel` for `device` and solve its decisions: the solved `Schedule`.
    A KTIR kernel with a proven race between tiles is refused (`AnalysisError`, with the
    witness `check` gives) unless `allow_races`. `pinned` decision kinds (tile, modulo,
    distribute, keep) stay at the V1 heuristic's values while the solver picks the rest.
    `in_memory`: the compute results a later compute reads along its reduction
    (`intermediates-in-memory`) held in the scratchpad (False; through device memory only
    when the kernel does not fit so), through device memory (True), or, None, the solver
    strategy's choice of the two by the objective (the other strategies hold them)."""
    from spyre_sched.pipeline import POST_SOLVE_STEPS, run_steps
    from spyre_sched.schedule.interchange_tile_loops import OFFERED_ATTR
    from spyre_sched.schedule.intermediates_in_memory import CANDIDATES_ATTR, moved_results
    from spyre_sched.solve import cost
    from spyre_sched.solve.explain import trace_summary
    from spyre_sched.solve.solve_pass import SolveDecisions

    if time_limit is not None and (isinstance(time_limit, bool) or not isinstance(
            time_limit, (int, float)) or not 0 < time_limit < float("inf")):
        raise UsageError(f"time_limit (--time-limit) must be a positive number of seconds, "
                         f"got {time_limit!r}")
    shapes: dict[str, tuple[int, ...]] = {}
    folded: dict[str, int | float] = {}
    # (a parsed kernel is rewritten in place: a copy for the second form)
    spare = _kernel_copy(kernel) if isinstance(kernel, Kernel) else kernel
    module, path, text = load_schedule_input(kernel, device, print_after_all=print_after_all,
                                             argument_shapes=shapes,
                                             allow_races=allow_races, func=func,
                                             arguments=arguments, folded_arguments=folded,
                                             verify_each=verify_each,
                                             in_memory=bool(in_memory))

    def source():
        """The kernel again, for a second schedule (a parsed kernel is rewritten in place)."""
        if isinstance(spare, Kernel):
            return _kernel_copy(spare)
        return text if path is None else path

    def solved(module: ModuleOp, moved: bool):
        # tile nests with two orders: the kernel scheduled again with them interchanged,
        # both forms in the solver's one model (`loop_orders`)
        interchanged, note = None, None
        if strategy == "solver" and OFFERED_ATTR in module.attributes \
                and not (text is not None and _is_schedule_ir(text)):
            try:
                interchanged, _, _ = load_schedule_input(
                    source(), device, allow_races=allow_races, func=func,
                    arguments=arguments, verify_each=verify_each, in_memory=moved,
                    interchange=True)
            except SpyreSchedError as err:
                note = (f"with its tile loops interchanged the kernel does not schedule "
                        f"({err.message}); only their dims' order was solved")
        step = SolveDecisions(objective=objective, strategy=strategy, time_limit=time_limit,
                              workers=workers, seed=seed, log=solver_log, pinned=tuple(pinned),
                              interchanged=interchanged)
        run_steps(module, [step, *POST_SOLVE_STEPS], print_after_all=print_after_all,
                  verify_each=verify_each)
        assert step.result.solution is not None
        if note is not None:
            step.result.solution.notes.append(note)
        return step.result.solution

    solution = solved(module, bool(in_memory))
    if in_memory is None and strategy == "solver" and CANDIDATES_ATTR in module.attributes \
            and not (text is not None and _is_schedule_ir(text)):
        # results a later compute reads along its reduction: held whole in the program's
        # scratchpad, or through device memory (`intermediates-in-memory`); the better
        # schedule by the objective is kept (saved ScheduleIR has one form only)
        try:
            other, _, _ = load_schedule_input(
                source(), device, allow_races=allow_races, func=func,
                arguments=arguments, verify_each=verify_each, in_memory=True)
            other_solution = solved(other, True)
        except SpyreSchedError as err:
            solution.notes.append(f"results read along a reduction held in the scratchpad: "
                                  f"through device memory the kernel is refused ({err.message})")
        else:
            held = cost.objective_key(solution.problem, solution.choice, objective)
            moved = cost.objective_key(other_solution.problem, other_solution.choice,
                                       objective)
            note = (f"{moved_results(other)}: held in the scratchpad {solution.cycles} "
                    f"cycles (peak {cost.peak_scratchpad(solution.problem, solution.choice)} "
                    f"bytes), through device memory {other_solution.cycles} cycles (peak "
                    f"{cost.peak_scratchpad(other_solution.problem, other_solution.choice)} "
                    f"bytes)")
            if moved < held:
                module, solution = other, other_solution
                note += ": through device memory"
            else:
                note += ": held"
            solution.notes.append(note)
    summary = trace_summary(solution)
    if text is None and path is not None:
        text = Path(path).read_text()
    return Schedule(
        kernel=solution.problem.kernel, device=solution.problem.device, objective=objective,
        strategy=strategy, decisions=decisions_by_program(solution),
        predicted_cycles=summary["predicted_cycles"],
        scratchpad_bytes=summary["scratchpad_bytes"], summary=summary,
        schedule_ir=print_ir(module), kernel_path=path, kernel_text=text,
        solver_log=solution.log, module=module, solution=solution,
        argument_shapes=shapes, folded_arguments=folded,
        device_file=str(Path(device).resolve()) if Path(device).is_file() else None)
