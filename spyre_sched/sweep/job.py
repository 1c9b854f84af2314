"""One sweep job: a kernel on one device point with one strategy and objective, compiled,
solved, emulated and checked by the bench's own measurement (`bench.measure`), as one row.

A job carries the kernel's and the device's text, not paths: a worker on another machine
(a Ray cluster) needs no shared file system. It writes both into a private temporary
folder and names them back to the user's files in any message.

A job never raises for a kernel or device the pipeline refuses: its row says what
happened (`status`) and why (`reason`):

- `ok`: emulated and checked, outputs match the reference interpreter;
- `mismatch`: emulated, but the outputs are wrong or unchecked (a bug to report);
- `infeasible`: no schedule fits this device (the solver's or the heuristic's verdict);
- `timeout`: the job passed its time limit (or the emulator its time budget);
- `error`: any other refusal by the pipeline (a located `SpyreSchedError`);
- `crash`: an exception that is a bug in spyre-sched (its type and message).
"""

from __future__ import annotations

import hashlib
import tempfile
import time
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

from spyre_sched.deadline import Deadline, DeadlineExceeded
from spyre_sched.errors import SpyreSchedError

STATUSES = ("ok", "mismatch", "infeasible", "timeout", "error", "crash")
#: row fields measured in seconds of wall-clock time: the only ones two runs of the same
#: sweep may differ in (the rows are otherwise identical, whatever the backend)
TIMING_FIELDS = ("solve_s", "compile_s", "emulate_s", "run_s", "elements_per_s", "job_s",
                 "timings")
#: the scalar fields of a row, in CSV column order (the parameters come after `device`)
ROW_FIELDS = ("kernel", "device", "strategy", "objective", "status", "reason", "cycles",
              "bound_cycles", "ratio_to_bound", "predicted_cycles", "model_error",
              "predicted_compute_cycles", "predicted_stall_cycles", "emulated_compute_cycles",
              "emulated_stall_cycles", "device_scratchpad_bytes", "scratchpad_bytes",
              "memory_read_bytes", "memory_write_bytes", "bound_binding", "elements",
              "verdict", "correct", "solver_status", "solver_gap", "model_variables",
              "model_constraints", "solve_s", "compile_s", "emulate_s", "run_s",
              "elements_per_s", "job_s")


#: this worker's reference runs, by what they depend on (`_reference_key`): a sweep runs
#: each kernel on many device points whose figures the reference never reads (bandwidths,
#: latencies, unit counts), and would run the same reference on each. The jobs run kernel
#: by kernel, so the last few keys are kept.
_REFERENCES: OrderedDict[tuple, object] = OrderedDict()
_REFERENCES_KEPT = 2


@dataclass(frozen=True)
class SweepJob:
    key: str
    """`kernel/device/strategy/objective`: what --resume recognises a done job by."""
    kernel: str
    kernel_file: str
    kernel_text: str
    device: str
    device_text: str
    parameters: tuple[tuple[str, int], ...]
    strategy: str
    objective: str
    seed: int = 0
    timeout: float = 0.0


def job_key(kernel: str, device: str, strategy: str, objective: str) -> str:
    return f"{kernel}/{device}/{strategy}/{objective}"


def _base_row(job: SweepJob) -> dict:
    row = {"kernel": job.kernel, "file": job.kernel_file, "device": job.device,
           **dict(job.parameters), "strategy": job.strategy, "objective": job.objective,
           "key": job.key}
    row.update({k: None for k in ROW_FIELDS if k not in row})
    return row


def run_job(job: SweepJob) -> dict:
    """The job's row (never raises but for an interrupt of the whole sweep)."""
    row = _base_row(job)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="spyre-sweep-") as tmp:
        kernel_path = Path(tmp) / f"{job.kernel}.mlir"
        device_path = Path(tmp) / f"{job.device}.mlir"
        kernel_path.write_text(job.kernel_text)
        device_path.write_text(job.device_text)

        def own_words(text: str) -> str:
            return (text.replace(str(kernel_path), job.kernel_file)
                    .replace(str(device_path), f"devices/{job.device}.mlir").replace(tmp, "."))
        alarm = Deadline(job.timeout)
        try:
            with alarm:
                measured = _measure(job, str(kernel_path), str(device_path), row)
        except DeadlineExceeded:
            pass  # (the timeout row is written below, wherever the alarm landed)
        except SpyreSchedError as err:
            from spyre_sched.solve.problem import InfeasibleError

            message = own_words(str(err))
            if not alarm.fired:
                if "time budget" in message:
                    status = "timeout"
                elif isinstance(err, InfeasibleError) or "does not fit" in message:
                    status = "infeasible"
                else:
                    status = "error"
                row.update(status=status, reason=message)
        except (KeyboardInterrupt, SystemExit):
            raise
        except Exception as err:
            if not alarm.fired:  # a bug: the row says so, the other jobs go on
                row.update(status="crash", reason=own_words(f"{type(err).__name__}: {err}"))
        else:
            if not alarm.fired:
                row.update(measured)
        # The time limit, however the alarm ended up: raised, dropped by a library callback
        # that then failed its own way (islpy does), or dropped where the job went on (a gc
        # hook). What was measured after the limit is not the row's: a timeout row never
        # has cycles, wherever the alarm landed.
        if alarm.fired:
            row.update(status="timeout", reason=f"the job passed its time limit of "
                       f"{job.timeout:g} s")
    row["job_s"] = time.perf_counter() - started
    return row


def _measure(job: SweepJob, kernel_path: str, device_path: str, row: dict) -> dict:
    """Fill `row` with the figures found before the schedule is measured (a job that fails
    half-way keeps them); return the measurement's own figures and verdict, which the
    caller records only if the job ended inside its time limit."""
    import emulator.reference as reference
    from spyre_sched.bench.measure import KernelJob, largest_tensor_elements, measure_strategy
    from spyre_sched.device import load_device
    from spyre_sched.frontend import load_kernel
    from spyre_sched.roofline import roofline

    kernel = load_kernel(kernel_path)
    device = load_device(device_path)
    row.update(device_scratchpad_bytes=device.scratchpad_bytes,
               elements=largest_tensor_elements(kernel))
    bound = roofline(kernel, device)
    row.update(bound_cycles=bound.bound_cycles, bound_binding=bound.binding)
    inputs = reference.make_inputs(kernel, job.seed)
    figures, _ = measure_strategy(KernelJob(kernel_path, device_path, job.seed, job.objective),
                                  job.strategy, inputs, device, _reference_runs(job, device))
    figures.pop("strategy", None)
    measured = dict(figures)
    cycles = measured["cycles"]
    measured["ratio_to_bound"] = cycles / bound.bound_cycles if bound.bound_cycles else None
    predicted = measured.get("predicted_cycles")
    measured["model_error"] = (predicted - cycles) / cycles if predicted is not None and \
        cycles else None
    emulate_s = measured.get("emulate_s")
    measured["elements_per_s"] = row["elements"] / emulate_s if emulate_s else None
    if measured["correct"]:
        measured.update(status="ok", reason=None)
    else:
        shown = "; ".join(str(m) for m in measured.get("mismatches", [])[:3])
        measured.update(status="mismatch", reason=f"verdict {measured['verdict']}: {shown}")
    return measured


def _reference_key(job: SweepJob, device) -> tuple:
    """What the reference's outputs and bounds depend on besides the bundle's accumulator
    and summation depth (which `ReferenceRuns` keys itself): the kernel, the inputs'
    seed, and of the device only what the reference reads of it: the ops it defines
    (pre-mapping patterns) and the scratchpad size (a pinned argument or an access past
    it is refused)."""
    from spyre_sched.device.patterns import device_patterns

    patterns = tuple(str(p) for p in device_patterns(device, "pre_mapping"))
    return (hashlib.sha256(job.kernel_text.encode()).hexdigest(), job.seed,
            device.scratchpad_bytes, patterns)


def _reference_runs(job: SweepJob, device):
    """The reference runs this worker made for the job's kernel on the same inputs and
    device definitions (new and empty the first time)."""
    from spyre_sched.emulate import ReferenceRuns

    key = _reference_key(job, device)
    runs = _REFERENCES.pop(key, None) or ReferenceRuns()
    _REFERENCES[key] = runs  # (the most recent last)
    while len(_REFERENCES) > _REFERENCES_KEPT:
        _REFERENCES.popitem(last=False)
    return runs
