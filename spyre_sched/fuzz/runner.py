"""One generated kernel through the whole pipeline, every outcome classified.

`run_kernel(kernel, ...)` writes the kernel to a file, runs `spyre-sched check` on it
(the command itself), then, for each shipped device whose cores the grid fits, compiles it
with both strategies and both objectives, emulates it, compares with the reference
interpreter (`spyre_sched.run`, the reference run once per device) and checks emulated
cycles against the roofline bound. Each configuration ends in one `Outcome`:

- `match`: emulated outputs equal the reference and cycles are at least the bound;
- `mismatch`: the outputs differ (`run`'s comparison rule);
- `below-bound`: emulated cycles are fewer than the roofline bound allows;
- `unchecked`: `run`'s verdict UNCHECKED: no compared element differs, but some have no
  finite error bound (values that overflowed into a reordered sum), so the configuration
  is neither a pass nor a failure; counted apart;
- `crash`: an exception that is not a located diagnostic (the CLI's exit 2), or `check`
  exiting 2 or printing a traceback;
- `hang`: no answer within the per-configuration time limit;
- `refused`: the lowering refused, with a located diagnostic other than "not supported",
  the schedule the compiler itself chose (the solver promised what the lowering cannot
  do: a FIFO split it cannot declare, an order it cannot prove);
- `out-of-scope`: a located refusal (`not supported yet`, or any other diagnostic the
  compiler raised before emulating; `check` rejecting the kernel counts here too), counted
  by its normalised reason.

A located error raised while emulating a compiled bundle (a deadlock, an out-of-bounds
transfer) is a `mismatch`: the compiler accepted the kernel, so the bundle must run.

Every configuration is compiled. A bundle equal to one already emulated for the kernel on
that device (the same files but for the objective and strategy it names: V1's schedule
does not depend on the objective) is not emulated again, since the emulator is
deterministic: its outcome is that bundle's, saying so in its detail.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from spyre_sched.errors import SpyreSchedError, UnsupportedError
from spyre_sched.deadline import Deadline, DeadlineExceeded
from spyre_sched.fuzz.commands import HANG, invoke

DEVICES = ("spyre", "sample_device")
STRATEGIES = ("solver", "heuristic")
OBJECTIVES = ("latency", "memory")

#: outcomes, worst first: a kernel's outcome is the worst of its configurations'
SEVERITY = ("crash", "hang", "mismatch", "below-bound", "refused", "unchecked", "out-of-scope",
            "match")
FAILURES = ("crash", "hang", "mismatch", "below-bound", "refused")
UNCHECKED_REASON = ("some output elements have no finite error bound (an overflow or NaN "
                    "met a reordered sum)")


@dataclass(frozen=True)
class Config:
    device: str
    strategy: str
    objective: str

    def __str__(self) -> str:
        return f"{self.device}/{self.strategy}/{self.objective}"

    def command(self, path: str, runtime_args: dict) -> str:
        args = "".join(f" --runtime-arg {k}={v}" for k, v in sorted(runtime_args.items()))
        return (f"spyre-sched run {path} --device {self.device} --strategy {self.strategy} "
                f"--objective {self.objective}{args}")


@dataclass
class Outcome:
    status: str
    config: str  # "check" or a Config's text
    reason: str = ""  # normalised (out-of-scope: the counting key; failures: the signature)
    detail: str = ""  # the whole message
    cycles: int | None = None
    bound: int | None = None


@dataclass
class KernelResult:
    outcomes: list[Outcome] = field(default_factory=list)

    @property
    def status(self) -> str:
        return min((o.status for o in self.outcomes), key=SEVERITY.index, default="match")

    def worst(self) -> Outcome | None:
        ranked = sorted(self.outcomes, key=lambda o: SEVERITY.index(o.status))
        return ranked[0] if ranked else None

    def as_dict(self) -> dict:
        return {"status": self.status, "outcomes": [asdict(o) for o in self.outcomes]}


_LOCATION = re.compile(
    r"^(?:\S+:\d+:\d+: )?(?:op \S+(?: @\S+)? in pass \S+(?: \([^)]*\))?: )?(?:error: )?")


def normalise(message: str) -> str:
    """A message's first line without its location, numbers as N, SSA names as %v: the
    key outcomes are counted and failures grouped by."""
    first = message.strip().splitlines()[0] if message.strip() else ""
    first = _LOCATION.sub("", first)
    first = re.sub(r"(?<![\w.])-?\d+(\.\d+)?(?![\w.])", "N", first)  # not f16's 16
    first = re.sub(r"%[\w.$]+", "%v", first)
    first = re.sub(r"affine_(map|set)<[^>]*>", r"affine_\1<...>", first)
    return first[:160]


def check_kernel(path: str, runtime_args: dict, timeout: float | None) -> Outcome | None:
    """`spyre-sched check` on the file: None when it passes, else the outcome."""
    args = ["check", path, *[f"--arg={k}={v}" for k, v in sorted(runtime_args.items())]]
    code, output = invoke(args, timeout)
    if code == HANG:
        return Outcome("hang", "check", "check: no answer in time", output)
    if code == 0 and "Traceback" not in output:
        return None
    errors = [ln for ln in output.splitlines() if ": error: " in ln or "internal error" in ln]
    message = errors[0] if errors else output.strip().splitlines()[-1] if output.strip() else ""
    if code == 1 and "Traceback" not in output:
        return Outcome("out-of-scope", "check", "check: " + normalise(message), output.strip())
    return Outcome("crash", "check", "check: " + normalise(message), output.strip())


def _hang(stage: str, config: Config, timeout: float | None) -> Outcome:
    return Outcome("hang", str(config), f"{stage}: no answer in time",
                   f"{stage} took more than {timeout} s")


def bundle_key(bundle: Path) -> str:
    """A digest of what a bundle runs: every file but the manifest (which hashes them),
    with the objective and strategy left out of schedule.json (they only describe how the
    schedule was chosen)."""
    digest = hashlib.sha256()
    for f in sorted(bundle.iterdir()):
        if f.name == "manifest.json" or not f.is_file():
            continue
        data = f.read_bytes()
        if f.name == "schedule.json":
            doc = json.loads(data)
            for key in ("objective", "strategy", "solver"):
                doc.pop(key, None)
            data = json.dumps(doc, sort_keys=True).encode()
        digest.update(f.name.encode() + b"\0" + hashlib.sha256(data).digest())
    return digest.hexdigest()


def run_config(path: str, config: Config, runtime_args: dict, seed: int, bound: int | None,
               timeout: float | None, reference=None,
               emulated: dict[str, Outcome] | None = None) -> tuple[Outcome, object]:
    """Compile, emulate and compare one configuration: its outcome and the reference run
    (to reuse for the next configuration on the same device). `emulated` (optional): the
    outcomes of the bundles already emulated for this kernel, by `bundle_key`; an equal
    bundle takes its outcome instead of being emulated again."""
    from spyre_sched.emulate import compile_bundle, run

    stage = "compile"
    deadline = Deadline(timeout)
    try:
        with deadline, tempfile.TemporaryDirectory(prefix="spyre-fuzz-") as tmp:
            bundle = Path(tmp) / "bundle"
            compile_bundle(path, bundle, config.device, config.objective, config.strategy)
            key = bundle_key(bundle) if emulated is not None else None
            if key in (emulated or {}):
                seen = emulated[key]
                return replace(seen, config=str(config),
                               detail=f"the bundle of {seen.config}, emulated once"
                               + (f": {seen.detail}" if seen.detail else "")), reference
            stage = "emulate"
            result = run(str(bundle), None, device=config.device, runtime_args=runtime_args,
                         seed=seed, reference=reference)
    except DeadlineExceeded:
        return _hang(stage, config, timeout), reference
    except Exception as err:  # noqa: BLE001 - a refusal or the bug we hunt (`_failed`)
        if deadline.fired:  # the alarm landed in a callback that dropped it and then
            # failed its own way (islpy does): the time limit is the cause, not a bug
            return _hang(stage, config, timeout), reference
        return _failed(stage, config, err), reference
    if deadline.fired:  # the alarm was raised where it was dropped (`Deadline`)
        return _hang(stage, config, timeout), reference
    outcome = _judged(config, result, bound)
    if key is not None:
        emulated[key] = outcome
    return outcome, result.reference_run


def _failed(stage: str, config: Config, err: Exception) -> Outcome:
    """The outcome of a configuration whose compile or emulation raised `err`."""
    if isinstance(err, SpyreSchedError):
        text = str(err)
        supported = not isinstance(err, UnsupportedError) and "not supported" not in text
        if stage == "compile" and supported and "in pass lower" in text:
            return Outcome("refused", str(config), f"lower: {normalise(text)}", text)
        if stage == "compile" or not supported:
            return Outcome("out-of-scope", str(config), normalise(text), text)
        return Outcome("mismatch", str(config), f"emulate: {normalise(text)}", text)
    text = f"{type(err).__name__}: {err}"  # anything else is the bug we are hunting
    return Outcome("crash", str(config), f"{stage}: {type(err).__name__}: "
                   f"{normalise(str(err))}", text)


def _judged(config: Config, result, bound: int | None) -> Outcome:
    """The outcome of an emulated configuration: `run`'s verdict and the bound."""
    unchecked = result.verdict == "UNCHECKED"
    if not result.matches and not unchecked:
        return Outcome("mismatch", str(config), "outputs differ",
                       "; ".join(result.mismatches), result.cycles, bound)
    if bound is not None and result.cycles < bound:
        return Outcome("below-bound", str(config), "emulated cycles below the roofline bound",
                       f"emulated {result.cycles} < bound {bound}", result.cycles, bound)
    if unchecked:  # every element compared agreed, but some could not be judged
        return Outcome("unchecked", str(config), UNCHECKED_REASON, "; ".join(result.unchecked),
                       result.cycles, bound)
    return Outcome("match", str(config), "", "", result.cycles, bound)


def configs_for(tiles: int, devices=DEVICES) -> list[Config]:
    """Every (device, strategy, objective) whose device has a core per tile."""
    from spyre_sched.device import load_device

    out = []
    for device in devices:
        if tiles > load_device(device).num_cores:
            continue
        out += [Config(device, s, o) for s in STRATEGIES for o in OBJECTIVES]
    return out


def _bound(path: str, device: str, runtime_args: dict | None = None) -> int | None:
    """The roofline bound's cycles for the launch's run-time arguments, or None where the
    bound itself cannot be computed (then `run_config` still classifies the run; the
    bound is not what is under test)."""
    from spyre_sched.device import load_device
    from spyre_sched.frontend import load_kernel
    from spyre_sched.roofline import roofline

    try:
        return roofline(load_kernel(path), load_device(device),
                        dict(runtime_args or {})).bound_cycles
    except SpyreSchedError:
        return None


def run_kernel(text: str, runtime_args: dict, tiles: int, *, seed: int = 0,
               timeout: float | None = 120.0, only: list[Config] | None = None,
               stop_early: bool = False) -> KernelResult:
    """`text` checked, then run in every configuration (or `only` those): the outcomes.
    `stop_early`: stop at the first failure (what the shrinker needs)."""
    result = KernelResult()
    with tempfile.TemporaryDirectory(prefix="spyre-fuzz-") as tmp:
        path = os.path.join(tmp, "kernel.mlir")
        Path(path).write_text(text)
        checked = check_kernel(path, runtime_args, timeout)
        if checked is not None:
            result.outcomes.append(checked)
            return result
        references: dict[str, object] = {}
        bounds: dict[str, int | None] = {}
        emulated: dict[str, Outcome] = {}  # by bundle_key (which includes the device)
        for config in only if only is not None else configs_for(tiles):
            if config.device not in bounds:
                bounds[config.device] = _bound(path, config.device, runtime_args)
            outcome, references[config.device] = run_config(
                path, config, runtime_args, seed, bounds[config.device], timeout,
                references.get(config.device), emulated)
            result.outcomes.append(outcome)
            if stop_early and outcome.status in FAILURES:
                break
    return result
